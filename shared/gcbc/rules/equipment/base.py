"""The contract every equipment card implements (one module per card): a move (``moves.Move``)
played with ``play_equipment``, plus when it may be played (``timing``), what it resolves to, and
the prompts it opens.

A card declares what it requires and its parameters once (``requires``, ``params``): its refusals
and its options in ``legal_commands`` both come from that. A prompt it opens declares its answer
once (``answer``): the answers offered and the refusals come from that too.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal

from msgspec.structs import replace

from gcbc.rules import moves
from gcbc.rules.errors import refuse
from gcbc.rules.moves import PARAMETER_FIELDS, Move, Rule, draw_listed
from gcbc.rules.state import Prompt, State
from gcbc.rules.timing import ANY, Timing
from gcbc_contract.commands import Choose, PlayEquipment


@dataclass(frozen=True, slots=True)
class Answer:
    """What a card's prompt asks of its seat: a ``target`` or a ``position`` among the prompt's
    options (or nothing, when it ``may_decline``), refused with ``invalid_choice`` and
    ``message`` otherwise. ``rules`` (``test(s, seat, value, prompt)``): what a value must also
    follow."""

    field: Literal["target", "position"]
    message: str
    may_decline: bool = False
    rules: tuple[Rule, ...] = ()

    def holds(self, s: State, prompt: Prompt, value: Any) -> bool:
        return value in prompt.options and all(
            r.test(s, prompt.seat, value, prompt) for r in self.rules
        )

    def options(self, s: State, prompt: Prompt) -> list[Choose]:
        offered = [
            Choose(seat=prompt.seat, **{self.field: v})
            for v in prompt.options
            if all(r.test(s, prompt.seat, v, prompt) for r in self.rules)
        ]
        return [*offered, Choose(seat=prompt.seat)] if self.may_decline else offered

    def check(self, s: State, prompt: Prompt, cmd: Choose) -> None:
        value = getattr(cmd, self.field)
        others = [f for f in ("target", "position", "card") if f != self.field]
        if any(getattr(cmd, f) is not None for f in others):
            raise refuse("invalid_choice", self.message.format(options=list(prompt.options)))
        if value is None and self.may_decline:
            return
        if not self.holds(s, prompt, value):
            raise refuse("invalid_choice", self.message.format(options=list(prompt.options)))


class Card(Move):
    """One equipment card. Subclasses set ``name``, ``timing``, ``requires``, ``params`` (and
    ``answer`` for the prompt they open) and implement ``resolve`` (and ``answered``)."""

    name: str = ""
    edition: str | None = None  # "classic": the classic wording of a card (RULES §7.2)
    timing: Timing = ANY
    stays_in_play: bool = False
    flips_majority: bool = False
    protects_from_investigation: bool = False
    # parameters left out of the public EquipmentPlayed: a secret choice that the card's own
    # events carry privately (classic Flashbang's new order)
    hidden_params: frozenset[str] = frozenset()
    # the prompt it opens: the answer it asks for (default: a target among the prompt's options)
    answer: Answer = Answer("target", "choose a target among {options}")

    # it names seats, each with a card, whose order means nothing (RULES §7.3: the choices are
    # part of the command; a set of seats is a set): listed in any order, they are taken in
    # increasing order, the order its options list them in
    targets_in_any_order: bool = False

    command = PlayEquipment

    def __init__(self) -> None:
        self.fixed = {"card": self.name}
        super().__init__()
        # the command fields its parameters fill, found once from the declaration
        self.taken = frozenset(f for p in self.params for f in p.fields)
        # the field a choice of the player's own comes in with the play: its prompt's answer,
        # where the card asks a seat the play decides (``asks``) and the field is no parameter
        own = type(self).asks is not Card.asks and self.answer.field not in self.taken
        self.own_field = self.answer.field if own else None

    def play(self, seat: int, **fields: Any) -> PlayEquipment:
        return self.make(seat, **fields)

    def arranged(self, cmd: PlayEquipment) -> PlayEquipment:
        """``cmd`` as the card's rules read it: its seats (``targets_in_any_order``) in
        increasing order, each with its card."""
        targets, positions = cmd.targets, cmd.positions
        if not self.targets_in_any_order or list(targets) == sorted(targets):
            return cmd
        order = sorted(range(len(targets)), key=targets.__getitem__)
        if len(positions) == len(targets):
            positions = tuple(positions[i] for i in order)
        return replace(cmd, targets=tuple(targets[i] for i in order), positions=positions)

    def check(self, s: State, seat: int, cmd: PlayEquipment) -> None:
        """Refuse any parameter the card does not take and require those it does; then its
        declaration (timing is checked before, by the table: ``commands``); then a choice of
        the player's own made with the play (``own_choice``)."""
        taken = self.taken
        for name in PARAMETER_FIELDS:
            value = getattr(cmd, name)
            given = bool(value) if name in ("targets", "positions") else value is not None
            if given and name not in taken and name != self.own_field:
                raise refuse("bad_parameters", f"{self.name} takes no '{name}'")
            if not given and name in taken:
                raise refuse("bad_parameters", f"{self.name} needs '{name}'")
        super().check(s, seat, cmd)
        value = self.own_choice(cmd)
        if value is None:
            return
        chooser, options = self.asks(s, seat, cmd)  # type: ignore[misc]
        if chooser != seat:
            raise refuse(
                "bad_parameters",
                f"{self.name}'s '{self.own_field}' is seat {chooser}'s choice: it is asked of it",
            )
        if value not in options:
            raise refuse("invalid_choice", self.answer.message.format(options=list(options)))

    # --- a choice of the player's own, made with the play (RULES §7.3) ---------------------------
    def asks(self, s: State, seat: int, cmd: PlayEquipment) -> tuple[int, tuple[int, ...]] | None:
        """The seat its prompt asks and the options offered there, for a card whose choice
        belongs to a seat the play decides (None: it asks none that way)."""
        return None

    def own_choice(self, cmd: PlayEquipment) -> Any:
        """The choice made with the play (None: none, its prompt asks for it)."""
        field = self.own_field
        return None if field is None else getattr(cmd, field)

    def own_answer(self, seat: int, cmd: PlayEquipment) -> Choose | None:
        """The answer to its prompt that a choice made with the play gives at once (None: the
        prompt waits for its seat)."""
        value = self.own_choice(cmd)
        return None if value is None else Choose(seat=seat, **{self.answer.field: value})

    def options(self, s: State, seat: int) -> list[Any]:
        """Every way to play it now: as declared, and, where the player is the one its prompt
        asks, with each choice the prompt would offer."""
        plain = super().options(s, seat)
        field = self.own_field
        if field is None:
            return plain
        own = []
        for cmd in plain:
            chooser, options = self.asks(s, seat, cmd)  # type: ignore[misc]
            if chooser == seat:
                own += [replace(cmd, **{field: value}) for value in options]
        return plain + own

    def draw(self, s: State, seat: int, choose: moves.Choose) -> Any | None:
        if self.own_field is None:
            return super().draw(s, seat, choose)
        return draw_listed(self.options(s, seat), choose)

    def resolve(self, s: State, seat: int, cmd: PlayEquipment) -> list[Any]:
        """The events of its effect, on the state after it left the hand."""
        raise NotImplementedError

    def placed_on(self, s: State, seat: int, cmd: PlayEquipment) -> int | None:
        """For cards that stay in play: the seat it is put in front of."""
        return None

    # --- the prompt it opens --------------------------------------------------------------------
    def prompt_options(self, s: State, prompt: Prompt) -> list[Choose]:
        return self.answer.options(s, prompt)

    def check_answer(self, s: State, prompt: Prompt, cmd: Choose) -> None:
        self.answer.check(s, prompt, cmd)

    def answered(self, s: State, prompt: Prompt, cmd: Choose) -> list[Any]:
        """The events of the prompt's answer, once checked."""
        raise NotImplementedError

    # --- hooks ----------------------------------------------------------------------------------
    def on_investigated(self, s: State, owner: int, investigator: int) -> list[Any]:
        """Hook for cards in play in front of an investigated seat."""
        return []

    def at_turn_end(self, s: State) -> list[Any]:
        """Hook at the end of every turn, before the next begins (Alarm Clock). Must return no
        events once its effect is done, or the turn never ends."""
        return []


class PutInFront(Card):
    """A card put in front of the seat its ``target`` names, where it stays for the rest of the
    game (RULES §7.1: Disguise, Planted Evidence): being there is its whole effect."""

    timing = ANY
    stays_in_play = True

    def placed_on(self, s: State, seat: int, cmd: PlayEquipment) -> int | None:
        return cmd.target

    def resolve(self, s: State, seat: int, cmd: PlayEquipment) -> list[Any]:
        return []
