"""The lobby (docs/api.md): a table opens, seats are taken and left, the game starts (RULES §1: the
deal), or the table closes unstarted. Each command: its check, then the events it resolves to."""

from __future__ import annotations

from typing import Any

from gcbc.rules import guards, names, setup
from gcbc.rules.errors import refuse
from gcbc.rules.names import MAX_NAME
from gcbc.rules.state import LOBBY, State
from gcbc_contract import commands as C
from gcbc_contract import events as E


def check_open_table(s: State, c: C.OpenTable) -> None:
    if s.setup.table_id:
        raise refuse("table_exists", "this table already exists")
    setup.check_seat_count(c.seats)
    setup.check_options(c.options)
    if c.deal is not None:
        setup.check_deal(c.options, c.seats, c.deal)
    if c.first_seat is not None and not 0 <= c.first_seat < c.seats:
        raise refuse("invalid_target", "first_seat is not a seat of this table")
    if not all(0 <= x < c.seats for x in c.held) or (
        c.bots is not None and set(c.held) & set(c.bots.seats)
    ):
        raise refuse("bad_parameters", "held seats are seats of this table, not the house's")
    if c.invitations and (c.rematch_of is not None or len(c.invitations) != len(c.held)):
        raise refuse("bad_parameters", "one invitation per held seat, at a table not a rematch")
    if c.bots is not None:
        seats = c.bots.seats
        if not seats or len(set(seats)) != len(seats) or not all(0 <= x < c.seats for x in seats):
            raise refuse(
                "bad_parameters", "bots.seats names distinct seats of this table (at least one)"
            )


def open_table(s: State, c: C.OpenTable) -> list[Any]:
    return [
        E.TableOpened(
            table_id=c.table_id,
            seats=c.seats,
            options=c.options.with_defaults(),  # the log says where wounds live (RULES §4)
            deadlines=c.deadlines,
            deal=c.deal,
            first_seat=c.first_seat,
            random_seed=c.random_seed,
            chat_per_seat=c.chat_per_seat,
            bots=c.bots,
            rematch_of=c.rematch_of,
            held=c.held,
            rated=c.rated,
        )
    ]


def _comes_back(s: State, c: C.TakeSeat) -> bool:
    """A rematch's player claiming its seat, under the name the finished table gave it (an
    invited player is a newcomer, whose name is checked as anyone's)."""
    return c.seat_wanted is not None and s.rematch_of is not None


def _name(s: State, c: C.TakeSeat) -> str:
    return c.name.strip() if _comes_back(s, c) else names.normalise(c.name)


def check_take_seat(s: State, c: C.TakeSeat) -> None:
    guards.lobby(s)
    name = _name(s, c)
    if _comes_back(s, c):
        # the name was checked at the finished table (a table of older rules may have let
        # look-alikes in), and the held seat is its player's: it comes back under that name
        if not name or len(name) > MAX_NAME or not name.isprintable():
            raise refuse("bad_name", f"a name has 1 to {MAX_NAME} printable characters")
    else:
        check_name(s, name)
    wanted = c.seat_wanted
    if wanted is None:
        if all(st is not None or i in s.reserved for i, st in enumerate(s.seats)):
            raise refuse("table_full", "every seat is taken (or kept for invited players)")
    elif wanted not in s.reserved:
        raise refuse("seat_taken", "that seat is not kept for you")


def check_name(s: State, name: str) -> None:
    """A newcomer's (normalised) name: well formed, not the house's, and not one that looks like
    a name already at the table."""
    if not names.well_formed(name):
        raise refuse("bad_name", f"a name has 1 to {MAX_NAME} printable characters")
    if names.is_the_house(name):
        raise refuse("name_reserved", "names like 'House bot 3' are the house's")
    if any(st is not None and names.same(name, st.name) for st in s.seats):
        raise refuse(
            "name_taken", "someone at this table has that name (or one that looks like it)"
        )


def take_seat(s: State, c: C.TakeSeat) -> list[Any]:
    if c.seat_wanted is not None:
        return [E.SeatTaken(seat=c.seat_wanted, name=_name(s, c), bot=c.bot)]
    # the first free seat (a rematch's held seats wait for their players)
    free = next(i for i, st in enumerate(s.seats) if st is None and i not in s.reserved)
    return [E.SeatTaken(seat=free, name=_name(s, c), bot=c.bot)]


def check_leave_seat(s: State, c: C.LeaveSeat) -> None:
    guards.seated(s, c.seat)
    if s.step == LOBBY:
        return
    guards.playing(s, c.seat)
    if s.seat(c.seat).absent:
        raise refuse(
            "already_away", "you are away already: resume (or any command) brings you back"
        )


def leave_seat(s: State, c: C.LeaveSeat) -> list[Any]:
    """In the lobby the seat is free again. Once the game has started a seat that leaves is
    away (RULES §10: absent): its autopilot plays, it keeps its cards and its secrets, and its
    token brings it back until the end (``resume`` or any command)."""
    if s.step == LOBBY:
        return [E.SeatLeft(seat=c.seat)]
    return [E.SeatAbsent(seat=c.seat)]


def check_start(s: State, c: C.StartGame) -> None:
    guards.lobby(s)
    if any(st is None for st in s.seats):
        raise refuse("seats_not_filled", "every seat must be taken before the start")


def start(s: State, c: C.StartGame) -> list[Any]:
    n = len(s.seats)
    seed = s.setup.requested_seed if s.setup.requested_seed is not None else c.random_seed
    if s.setup.deal is not None:
        dealt = setup.scenario_deal(s.setup.options, n, s.setup.deal, seed)
        named = (
            s.setup.deal.first_seat
            if s.setup.deal.first_seat is not None
            else s.setup.first_seat_choice
        )
    else:
        dealt = setup.seeded_deal(s.setup.options, n, seed)
        named = s.setup.first_seat_choice
    first = setup.first_seat(n, seed, named)
    return [E.GameStarted(random_seed=seed, first_seat=first), dealt]


def check_close_table(s: State, c: C.CloseTable) -> None:
    guards.lobby(s)


def close_table(s: State, c: C.CloseTable) -> list[Any]:
    return [E.TableClosed(reason=c.reason)]
