"""The table's events: the lobby, the deal and the arrangement, and the end."""

from __future__ import annotations

from msgspec.structs import replace

from gcbc.rules.evolve.base import Handler, put
from gcbc.rules.setup import arms, guns
from gcbc.rules.state import ARRANGE, FINISHED, Seat, State, Trail, house_bot_name
from gcbc_contract import events as E
from gcbc_contract.cards import AGENT, KINGPIN


def _table_opened(s: State, e: E.TableOpened, v: int, log: Trail) -> State:
    return replace(
        s,
        version=v,
        log=log,
        setup=replace(
            s.setup,
            table_id=e.table_id,
            seat_count=e.seats,
            options=e.options.with_defaults(),  # older logs: the edition's wounds (RULES §4)
            deadlines=e.deadlines,
            deal=e.deal,
            first_seat_choice=e.first_seat,
            requested_seed=e.random_seed,
            chat_per_seat=e.chat_per_seat,
            house_bots=e.bots,
            rematch_of=e.rematch_of,
            rated=e.rated,
        ),
        reserved=frozenset(e.held),
        # the house's seats are taken as the table opens; players take the others
        seats=tuple(
            Seat(name=house_bot_name(i)) if e.bots and i in e.bots.seats else None
            for i in range(e.seats)
        ),
        unseen=(0,) * (e.seats + 1),
    )


def _seat_taken(s: State, e: E.SeatTaken, v: int, log: Trail) -> State:
    seats = put(s.seats, e.seat, Seat(name=e.name, bot=e.bot))
    if e.seat in s.reserved:  # its player came (invited, or back for the rematch)
        return replace(s, version=v, log=log, seats=seats, reserved=s.reserved - {e.seat})
    return replace(s, version=v, log=log, seats=seats)


def _seat_left(s: State, e: E.SeatLeft, v: int, log: Trail) -> State:
    seats = list(s.seats)
    seats[e.seat] = None
    # Decision (§10): a seat left in the lobby takes its messages with it; the chat shows a seat's
    # number, so the next to take that seat would be shown as their author (and inherit their
    # count against the seat's most)
    said = [line for line in s.chat if line[0] != e.seat]
    chat = Trail(said, len(said)) if len(said) != len(s.chat) else s.chat
    return replace(s, version=v, log=log, seats=tuple(seats), chat=chat)


def _table_closed(s: State, e: E.TableClosed, v: int, log: Trail) -> State:
    reason = f"closed_{e.reason}"  # (a WinReason: a client reads it as any other)
    outcome = replace(s.outcome, winners=(), win_reason=reason)
    return replace(s, version=v, log=log, step=FINISHED, outcome=outcome)


def _game_started(s: State, e: E.GameStarted, v: int, log: Trail) -> State:
    setup = replace(s.setup, random_seed=e.random_seed)
    return replace(s, version=v, log=log, setup=setup, turn_seat=e.first_seat)


def _cards_dealt(s: State, e: E.CardsDealt, v: int, log: Trail) -> State:
    seats = []
    knowledge = []
    for i, st in enumerate(s.seats):
        cards = e.hands[i]
        seats.append(replace(st, cards=cards, face_up=(False,) * len(cards), hand=e.equipment[i]))
        knowledge.append({c: e.identities[c] for c in cards})
    return replace(
        s,
        version=v,
        log=log,
        seats=tuple(seats),
        knowledge=tuple(knowledge),
        setup=replace(
            s.setup,
            identities=e.identities,
            leader_ids=(e.identities.index(AGENT), e.identities.index(KINGPIN)),
            burned=e.burned,
        ),
        deck=e.deck,
        guns_in_centre=guns(s.setup.options, len(seats)),
        arms_in_centre=arms(s.setup.options, len(seats)),
        step=ARRANGE,
        arrange_since=s.version,
    )


def _cards_arranged(s: State, e: E.CardsArranged, v: int, log: Trail) -> State:
    st = s.seats[e.seat]
    cards = tuple(st.cards[p - 1] for p in e.positions)
    face_up = tuple(st.face_up[p - 1] for p in e.positions)
    missed = st.missed + 1 if e.missed else st.missed
    arranged = replace(st, cards=cards, face_up=face_up, arranged=True, missed=missed)
    return replace(s, version=v, log=log, seats=put(s.seats, e.seat, arranged))


def _arrangement_closed(s: State, e: E.ArrangementClosed, v: int, log: Trail) -> State:
    return replace(s, version=v, log=log)


def _game_won(s: State, e: E.GameWon, v: int, log: Trail) -> State:
    return replace(
        s,
        version=v,
        log=log,
        step=FINISHED,
        outcome=replace(s.outcome, winners=e.winners, win_team=e.team, win_reason=e.reason),
        window=None,
        prompts=(),
    )


def _all_revealed(s: State, e: E.AllRevealed, v: int, log: Trail) -> State:
    public = {c: e.identities[c] for c in range(len(e.identities))}
    return replace(s, version=v, log=log, public_cards=public)


# the lobby's, the deal's and the end's events -> their handlers
HANDLERS: dict[type, Handler] = {
    E.TableOpened: _table_opened,
    E.SeatTaken: _seat_taken,
    E.SeatLeft: _seat_left,
    E.TableClosed: _table_closed,
    E.GameStarted: _game_started,
    E.CardsDealt: _cards_dealt,
    E.CardsArranged: _cards_arranged,
    E.ArrangementClosed: _arrangement_closed,
    E.GameWon: _game_won,
    E.AllRevealed: _all_revealed,
}
