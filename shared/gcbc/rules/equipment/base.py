"""The contract every equipment card implements (one module per card)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from gcbc.contract.commands import Choose, PlayEquipment
from gcbc.rules.errors import refuse

if TYPE_CHECKING:
    from gcbc.rules.state import Prompt, State

# When a card may be played (RULES §6).
ANY = "any"  # during your own turn before your action, and in every window
OWN_TURN = "own_turn"  # only during your own turn, before your action
SHOOT_WINDOW = "shoot_window"  # only in a shoot (or bite) window
OWN_TURN_ACTION = "own_turn_action"  # only during your own turn, and it is your action
AFTER_INVESTIGATION = "after_investigation"  # right after an Investigate (classic Camera)


class Card:
    """One equipment card. Subclasses set ``name`` and ``timing`` and implement the hooks.

    - ``options(s, seat)``: every legal way to play it now (PlayEquipment, or a template dict);
    - ``check(s, seat, cmd)``: raise a RuleViolation if this play is illegal (timing is checked by
      the core before);
    - ``resolve(s, seat, cmd)``: the events of its effect, on the state after it left the hand;
    - ``answer(s, prompt, cmd)`` / ``prompt_options(s, prompt)``: for prompts the card opens.
    """

    name: str = ""
    edition: str | None = None  # "classic": the classic wording of a card (RULES §7.2)
    timing: str = ANY
    stays_in_play: bool = False
    flips_majority: bool = False
    protects_from_investigation: bool = False
    # parameters this card takes: any of target, targets, position, positions, choice, aim
    params: frozenset[str] = frozenset()
    # parameters left out of the public EquipmentPlayed: a secret choice that the card's own
    # events carry privately (classic Flashbang's new order)
    hidden_params: frozenset[str] = frozenset()

    def options(self, s: State, seat: int) -> list[Any]:
        raise NotImplementedError

    def check(self, s: State, seat: int, cmd: PlayEquipment) -> None:
        raise NotImplementedError

    def resolve(self, s: State, seat: int, cmd: PlayEquipment) -> list[Any]:
        raise NotImplementedError

    def placed_on(self, s: State, seat: int, cmd: PlayEquipment) -> int | None:
        """For cards that stay in play: the seat it is put in front of."""
        return None

    def prompt_options(self, s: State, prompt: Prompt) -> list[Choose]:
        return [Choose(seat=prompt.seat, target=t) for t in prompt.options]

    def answer(self, s: State, prompt: Prompt, cmd: Choose) -> list[Any]:
        raise NotImplementedError

    def on_investigated(self, s: State, owner: int, investigator: int) -> list[Any]:
        """Hook for cards in play in front of an investigated seat."""
        return []

    def at_turn_end(self, s: State) -> list[Any]:
        """Hook at the end of every turn, before the next begins (Alarm Clock). Must return no
        events once its effect is done, or the turn never ends."""
        return []

    # helpers ---------------------------------------------------------------------------------
    def play(self, seat: int, **kw: Any) -> PlayEquipment:
        return PlayEquipment(seat=seat, card=self.name, **kw)

    def check_params(self, cmd: PlayEquipment) -> None:
        """Refuse any parameter the card does not take and require those it does."""
        given = {
            "target": cmd.target is not None,
            "targets": bool(cmd.targets),
            "position": cmd.position is not None,
            "positions": bool(cmd.positions),
            "choice": cmd.choice is not None,
            "aim": cmd.aim is not None,
        }
        for name, present in given.items():
            if present and name not in self.params:
                raise refuse("bad_parameters", f"{self.name} takes no '{name}'")
            if not present and name in self.params:
                raise refuse("bad_parameters", f"{self.name} needs '{name}'")
