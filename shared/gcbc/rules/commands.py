"""Every command but a deadline's: who may send it now (``guards``), the move's own rules
(``actions``, ``equipment``, ``aim``, ``arrange``), and the events it resolves to.

``check`` runs the guards and the rules only: it resolves nothing, so it is cheap (the table service
runs it before appending). ``seat_events`` checks, then resolves: the command's own events, without
what follows by itself (``flow``).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, NamedTuple

from msgspec.structs import replace

from gcbc.rules import guards, lobby
from gcbc.rules.actions import BY_COMMAND
from gcbc.rules.aim import AIM
from gcbc.rules.arrange import ARRANGE
from gcbc.rules.equipment.registry import card as card_rules
from gcbc.rules.errors import refuse
from gcbc.rules.evolve import peek
from gcbc.rules.state import ARRANGE as ARRANGE_STEP
from gcbc.rules.state import WINDOW, State
from gcbc.rules.timing import allows, moment
from gcbc_contract import commands as C
from gcbc_contract import events as E
from gcbc_contract.cards import EQUIPMENT_CARDS

MAX_CHAT = 500
CHAT_PER_SEAT = 200  # messages a seat may post at a table, unless the table says otherwise


class Handling(NamedTuple):
    check: Callable[[State, Any], None]  # the guards and rules: RuleViolation, or nothing
    resolve: Callable[[State, Any], list[Any]]  # the command's events, once checked


# --- setup and turn -----------------------------------------------------------------------------
def _check_arrange(s: State, c: C.Arrange) -> None:
    guards.playing(s, c.seat)
    if s.step != ARRANGE_STEP:
        raise refuse("wrong_phase", "cards are arranged only before the first turn")
    ARRANGE.check(s, c.seat, c)


def _check_action(s: State, c: Any) -> None:
    guards.my_action(s, c.seat)
    BY_COMMAND[type(c)].check(s, c.seat, c)


def _action(s: State, c: Any) -> list[Any]:
    return BY_COMMAND[type(c)].declare(s, c.seat, c)


def _check_aim(s: State, c: C.Aim) -> None:
    guards.my_aim(s, c.seat)
    AIM.check(s, c.seat, c)


# --- equipment, reactions, prompts --------------------------------------------------------------
def _check_play(s: State, c: C.PlayEquipment) -> None:
    guards.playing(s, c.seat)
    guards.no_prompt(s, c.seat)
    if c.card not in EQUIPMENT_CARDS:
        raise refuse("unknown_card", f"there is no equipment card '{c.card}'")
    if c.card not in s.seat(c.seat).hand:
        raise refuse("card_not_in_hand", f"you do not hold {c.card}")
    when = moment(s, c.seat)
    if when is None:
        raise refuse("not_playable_now", "you may not play equipment now")
    card = card_rules(s, c.card)
    if not allows(card.timing, when, s):
        raise refuse("not_playable_now", f"{c.card} cannot be played now")
    card.check(s, c.seat, card.arranged(c))


_HIDDEN = {
    "target": None,
    "targets": (),
    "position": None,
    "positions": (),
    "choice": None,
    "aim": None,
}


def _play(s: State, c: C.PlayEquipment) -> list[Any]:
    card = card_rules(s, c.card)
    c = card.arranged(c)
    played = E.EquipmentPlayed(
        seat=c.seat,
        card=c.card,
        target=c.target,
        targets=c.targets,
        position=c.position,
        positions=c.positions,
        choice=c.choice,
        aim=c.aim,
        placed_on=card.placed_on(s, c.seat, c) if card.stays_in_play else None,
    )
    if card.hidden_params:  # a secret choice: the card's own events carry it privately
        played = replace(played, **{k: _HIDDEN.get(k) for k in card.hidden_params})
    after = peek(s, (played,))
    events = card.resolve(after, c.seat, c)
    answer = card.own_answer(c.seat, c)
    if answer is not None:  # the player's own choice, made with the play (RULES §7.3)
        asked = peek(after, events)
        events += card.answered(asked, asked.prompts[0], answer)
    return [played, *events]


def _check_pass(s: State, c: C.Pass) -> None:
    guards.playing(s, c.seat)
    guards.no_prompt(s, c.seat)
    if s.step != WINDOW or s.window is None or c.seat not in s.window.pending:
        raise refuse("not_waiting_for_you", "no reaction is asked of you now")


def _pass(s: State, c: C.Pass) -> list[Any]:
    return [E.ReactionPassed(seat=c.seat)]


def _check_choose(s: State, c: C.Choose) -> None:
    p = guards.my_prompt(s, c.seat)
    if p.kind == "discard":
        raise refuse("must_discard", "answer this prompt with a discard")
    card_rules(s, p.kind).check_answer(s, p, c)


def _choose(s: State, c: C.Choose) -> list[Any]:
    p = s.prompts[0]
    return card_rules(s, p.kind).answered(s, p, c)


def _check_discard(s: State, c: C.Discard) -> None:
    p = guards.my_prompt(s, c.seat)
    if p.kind != "discard":
        raise refuse("invalid_choice", f"this prompt asks for a choice ({p.kind}), not a discard")
    if c.card not in s.seat(c.seat).hand:
        raise refuse("card_not_in_hand", f"you do not hold {c.card}")


def _discard(s: State, c: C.Discard) -> list[Any]:
    return [
        E.EquipmentDiscarded(seat=c.seat, card=c.card),
        E.PromptAnswered(seat=c.seat, kind="discard"),
    ]


# --- preferences, absence, talk -----------------------------------------------------------------
def _check_set_auto_pass(s: State, c: C.SetAutoPass) -> None:
    guards.playing(s, c.seat)
    if s.seat(c.seat).auto_pass == c.enabled:
        raise refuse("no_effect", f"auto-pass is already {'on' if c.enabled else 'off'}")


def _set_auto_pass(s: State, c: C.SetAutoPass) -> list[Any]:
    return [E.AutoPassSet(seat=c.seat, enabled=c.enabled)]


def _check_resume(s: State, c: C.Resume) -> None:
    guards.playing(s, c.seat)
    if not s.seat(c.seat).absent:
        raise refuse("not_absent", "you are not away")


def _resume(s: State, c: C.Resume) -> list[Any]:
    return [E.SeatReturned(seat=c.seat)]


def _text(c: C.PostChat) -> str:
    return c.text.strip()


def _check_chat(s: State, c: C.PostChat) -> None:
    guards.seated(s, c.seat)
    text = _text(c)
    if not text or len(text) > MAX_CHAT or not text.isprintable():
        # control characters could forge lines in a client's or an operator's terminal
        raise refuse("bad_text", f"a message has 1 to {MAX_CHAT} printable characters")
    limit = CHAT_PER_SEAT if s.setup.chat_per_seat is None else s.setup.chat_per_seat
    if sum(1 for who, _ in s.chat if who == c.seat) >= limit:
        # one seat cannot fill the table's chat; the table's chat stays bounded (seats × limit)
        raise refuse("chat_full", f"a seat posts at most {limit} messages at a table")


def _chat(s: State, c: C.PostChat) -> list[Any]:
    return [E.ChatPosted(seat=c.seat, text=_text(c))]


HANDLING: dict[type, Handling] = {
    C.OpenTable: Handling(lobby.check_open_table, lobby.open_table),
    C.TakeSeat: Handling(lobby.check_take_seat, lobby.take_seat),
    C.LeaveSeat: Handling(lobby.check_leave_seat, lobby.leave_seat),
    C.StartGame: Handling(lobby.check_start, lobby.start),
    C.CloseTable: Handling(lobby.check_close_table, lobby.close_table),
    C.Arrange: Handling(_check_arrange, lambda s, c: ARRANGE.resolve(s, c.seat, c)),
    **{command: Handling(_check_action, _action) for command in BY_COMMAND},
    C.Aim: Handling(_check_aim, lambda s, c: AIM.resolve(s, c.seat, c)),
    C.PlayEquipment: Handling(_check_play, _play),
    C.Pass: Handling(_check_pass, _pass),
    C.Choose: Handling(_check_choose, _choose),
    C.Discard: Handling(_check_discard, _discard),
    C.SetAutoPass: Handling(_check_set_auto_pass, _set_auto_pass),
    C.Resume: Handling(_check_resume, _resume),
    C.PostChat: Handling(_check_chat, _chat),
}

# a seat's own commands: each ends a run of missed deadlines, and brings an absent seat back
_SEAT_COMMANDS = frozenset(t for t in C.GameCommand.__args__ if t is not C.Resume)


def check(s: State, command: Any) -> None:
    HANDLING[type(command)][0](s, command)


def seat_events(s: State, command: Any, autopilot: bool = False) -> list[Any]:
    """The command's own events, without what follows by itself (or RuleViolation)."""
    check, resolve = HANDLING[type(command)]
    check(s, command)
    events = resolve(s, command)
    if not autopilot and type(command) in _SEAT_COMMANDS:
        # RULES §10: any command an absent seat sends brings it back (public: its seat shows
        # it); a present seat that had missed deadlines ends its streak privately, so that a
        # pass in an open window shows nothing to anyone else (§6)
        st = s.seats[command.seat]
        if st.absent:
            events.insert(0, E.SeatReturned(seat=command.seat))
        elif st.missed:
            events.insert(0, E.MissStreakEnded(seat=command.seat))
    return events
