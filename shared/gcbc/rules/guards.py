"""Who may send a command now: seated, the game under way, no prompt waiting for another seat,
its turn. Each guard refuses with a stable code; the moves' own rules come after."""

from __future__ import annotations

from gcbc.rules.errors import refuse
from gcbc.rules.state import ACTION, AIM, FINISHED, LOBBY, Prompt, State


def table(s: State) -> None:
    if not s.setup.table_id:
        raise refuse("no_table", "there is no such table")


def lobby(s: State) -> None:
    """The table exists and its game has not started."""
    table(s)
    if s.step != LOBBY:
        raise refuse("game_already_started", "the game has started")


def seated(s: State, seat: int) -> None:
    if not s.setup.table_id:
        raise refuse("no_table", "there is no such table")
    if not 0 <= seat < len(s.seats) or s.seats[seat] is None:
        raise refuse("not_seated", "you have no seat at this table")


def playing(s: State, seat: int) -> None:
    seated(s, seat)
    if s.step == LOBBY:
        raise refuse("game_not_started", "the game has not started")
    if s.step == FINISHED:
        raise refuse("game_over", "the game is over")


def no_prompt(s: State, seat: int) -> None:
    """A prompt waiting comes before anything else (RULES §6: a discard first)."""
    if s.prompts:
        p = s.prompts[0]
        if p.seat == seat and p.kind == "discard":
            raise refuse("must_discard", "discard down to one equipment card first")
        raise refuse("prompt_pending", f"waiting for seat {p.seat} to answer a {p.kind} prompt")


def my_action(s: State, seat: int) -> None:
    """The seat's turn, before its action (RULES §3.1)."""
    playing(s, seat)
    no_prompt(s, seat)
    if s.turn_seat != seat or s.step not in (ACTION, AIM):
        if s.step in (ACTION, AIM):
            raise refuse("not_your_turn", f"it is seat {s.turn_seat}'s turn")
        raise refuse("wrong_phase", "nobody may take an action now")
    if s.step != ACTION:
        raise refuse("wrong_phase", "your action is over: aim your gun")


def my_aim(s: State, seat: int) -> None:
    """The seat's Aim phase (RULES §3.2)."""
    playing(s, seat)
    no_prompt(s, seat)
    if s.step != AIM:
        raise refuse("wrong_phase", "guns are aimed in the Aim phase")
    if s.turn_seat != seat:
        raise refuse("not_your_turn", f"it is seat {s.turn_seat}'s turn")


def my_prompt(s: State, seat: int) -> Prompt:
    """The prompt waiting for the seat's answer."""
    playing(s, seat)
    if not s.prompts or s.prompts[0].seat != seat:
        raise refuse("not_waiting_for_you", "no prompt is waiting for your answer")
    return s.prompts[0]
