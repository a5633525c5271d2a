"""decide(state, command) -> events, or a RuleViolation with a stable code.

Each handler checks a command against the state and returns its direct events; ``decide`` then
folds them and appends what follows by itself (``flow.advance``), so the returned list is the
whole outcome of the command.
"""

from __future__ import annotations

from collections.abc import Callable
from itertools import permutations
from typing import Any

from msgspec.structs import replace

from gcbc.contract import commands as C
from gcbc.contract import events as E
from gcbc.contract.cards import EQUIPMENT_CARDS
from gcbc.rules import setup
from gcbc.rules.equipment.base import (
    AFTER_INVESTIGATION,
    ANY,
    OWN_TURN,
    OWN_TURN_ACTION,
    SHOOT_WINDOW,
)
from gcbc.rules.equipment.registry import card as card_rules
from gcbc.rules.errors import refuse
from gcbc.rules.evolve import evolve, fold, peek
from gcbc.rules.flow import advance, holders
from gcbc.rules.query import (
    aim_choices,
    alive,
    biteable,
    can_investigate,
    face_down,
)
from gcbc.rules.state import ACTION, AIM, ARRANGE, FINISHED, LOBBY, WINDOW, State
from gcbc.rules.waits import current_wait

ARRANGEMENTS = frozenset(permutations((1, 2, 3)))
MAX_NAME = 40
MAX_CHAT = 500
CHAT_PER_SEAT = 200  # messages a seat may post at a table, unless the table says otherwise


# --- shared checks ------------------------------------------------------------------------------
def _seated(s: State, seat: int) -> None:
    if not s.table_id:
        raise refuse("no_table", "there is no such table")
    if not 0 <= seat < len(s.seats) or s.seats[seat] is None:
        raise refuse("not_seated", "you have no seat at this table")


def _playing(s: State, seat: int) -> None:
    _seated(s, seat)
    if s.step == LOBBY:
        raise refuse("game_not_started", "the game has not started")
    if s.step == FINISHED:
        raise refuse("game_over", "the game is over")


def _no_prompt(s: State, seat: int) -> None:
    if s.prompts:
        p = s.prompts[0]
        if p.seat == seat and p.kind == "discard":
            raise refuse("must_discard", "discard down to one equipment card first")
        raise refuse("prompt_pending", f"waiting for seat {p.seat} to answer a {p.kind} prompt")


def _my_turn(s: State, seat: int) -> None:
    _playing(s, seat)
    _no_prompt(s, seat)
    if s.turn_seat != seat or s.step not in (ACTION, AIM):
        if s.step in (ACTION, AIM):
            raise refuse("not_your_turn", f"it is seat {s.turn_seat}'s turn")
        raise refuse("wrong_phase", "nobody may take an action now")
    if s.step != ACTION:
        raise refuse("wrong_phase", "your action is over: aim your gun")


def _position(s: State, seat: int, position: int | None) -> int:
    count = len(s.seat(seat).cards)
    if position is None or not 1 <= position <= count:
        raise refuse("invalid_position", f"position must be 1 to {count}")
    return position


def _not_zombie(s: State, seat: int, action: str) -> None:
    if s.seat(seat).zombie:
        raise refuse("zombie_cannot", f"a zombie cannot {action} (it may bite or equip)")


def _reveal_choice(s: State, seat: int, position: int | None) -> None:
    """Equip and Arm turn one own face-down card face up, if any: the command names it."""
    down = face_down(s, seat)
    if not down:
        if position is not None:
            raise refuse("invalid_position", "you have no face-down card to turn face up")
        return
    if position is None:
        raise refuse("invalid_position", "name the face-down card (position) to turn face up")
    _position(s, seat, position)
    if position not in down:
        raise refuse("card_not_face_down", f"your card at position {position} is already face up")


def _aim_target(s: State, seat: int, target: int) -> None:
    if target == seat:
        raise refuse("target_is_self", "you may never aim at yourself")
    if not 0 <= target < len(s.seats):
        raise refuse("invalid_target", f"there is no seat {target}")
    if not alive(s, target):
        raise refuse("target_eliminated", f"seat {target} is eliminated")


# --- lobby --------------------------------------------------------------------------------------
def _open_table(s: State, c: C.OpenTable) -> list[Any]:
    if s.table_id:
        raise refuse("table_exists", "this table already exists")
    setup.check_seat_count(c.seats)
    setup.check_options(c.options)
    if c.deal is not None:
        setup.check_deal(c.options, c.seats, c.deal)
    if c.first_seat is not None and not 0 <= c.first_seat < c.seats:
        raise refuse("invalid_target", "first_seat is not a seat of this table")
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
        )
    ]


def _take_seat(s: State, c: C.TakeSeat) -> list[Any]:
    if not s.table_id:
        raise refuse("no_table", "there is no such table")
    if s.step != LOBBY:
        raise refuse("game_already_started", "the game has started")
    name = c.name.strip()
    if not name or len(name) > MAX_NAME or not name.isprintable():
        raise refuse("bad_name", f"a name has 1 to {MAX_NAME} printable characters")
    free = [i for i, st in enumerate(s.seats) if st is None]
    if not free:
        raise refuse("table_full", "every seat is taken")
    return [E.SeatTaken(seat=free[0], name=name)]


def _leave_seat(s: State, c: C.LeaveSeat) -> list[Any]:
    _seated(s, c.seat)
    if s.step != LOBBY:
        raise refuse("game_already_started", "the game has started: you can no longer leave")
    return [E.SeatLeft(seat=c.seat)]


def _start(s: State, c: C.StartGame) -> list[Any]:
    if not s.table_id:
        raise refuse("no_table", "there is no such table")
    if s.step != LOBBY:
        raise refuse("game_already_started", "the game has started")
    if any(st is None for st in s.seats):
        raise refuse("seats_not_filled", "every seat must be taken before the start")
    n = len(s.seats)
    seed = s.requested_seed if s.requested_seed is not None else c.random_seed
    if s.deal is not None:
        dealt = setup.scenario_deal(s.options, n, s.deal, seed)
        named = s.deal.first_seat if s.deal.first_seat is not None else s.first_seat_choice
    else:
        dealt = setup.seeded_deal(s.options, n, seed)
        named = s.first_seat_choice
    first = setup.first_seat(n, seed, named)
    return [E.GameStarted(random_seed=seed, first_seat=first), dealt]


# --- setup and turn -----------------------------------------------------------------------------
def _arrange(s: State, c: C.Arrange) -> list[Any]:
    _playing(s, c.seat)
    if s.step != ARRANGE:
        raise refuse("wrong_phase", "cards are arranged only before the first turn")
    if s.seat(c.seat).arranged:
        raise refuse("already_arranged", "you have already arranged your cards")
    if tuple(c.positions) not in ARRANGEMENTS:
        raise refuse("invalid_arrangement", "positions must be an order of 1, 2 and 3")
    return [E.CardsArranged(seat=c.seat, positions=tuple(c.positions))]


def _investigate(s: State, c: C.Investigate) -> list[Any]:
    _my_turn(s, c.seat)
    _not_zombie(s, c.seat, "investigate")
    if c.target == c.seat:
        raise refuse("target_is_self", "investigate another seat's card")
    if not 0 <= c.target < len(s.seats):
        raise refuse("invalid_target", f"there is no seat {c.target}")
    if not alive(s, c.target):
        raise refuse("target_eliminated", f"seat {c.target} is eliminated")
    if not can_investigate(s, c.seat, c.target):
        raise refuse("target_disguised", f"seat {c.target} cannot be investigated")
    position = _position(s, c.target, c.position)
    if s.seat(c.target).face_up[position - 1]:
        raise refuse("card_not_face_down", "that card is face up")
    # Decision (RULES §3.1): a card already seen may be investigated again (no "not seen yet"
    # limit in the printed rules or the publisher's help), so a seat that knows every face-down
    # card left still has an action that reveals nothing
    return [E.ActionDeclared(seat=c.seat, action="investigate", target=c.target, position=position)]


def _equip(s: State, c: C.Equip) -> list[Any]:
    _my_turn(s, c.seat)
    if not s.deck and not _no_other_action(s, c.seat):
        raise refuse("deck_empty", "the equipment deck is empty")
    if s.seat(c.seat).zombie:  # RULES §8: a zombie draws; no card is revealed
        if c.position is not None:
            raise refuse("invalid_position", "a zombie turns no card face up")
    else:
        _reveal_choice(s, c.seat, c.position)
    return [E.ActionDeclared(seat=c.seat, action="equip", position=c.position)]


def _no_other_action(s: State, seat: int) -> bool:
    """Decision (RULES §3.1 is silent): a seat with no possible action may still Equip from an
    empty deck, drawing nothing, so that a turn can always be taken."""
    from gcbc.rules.legal import actions

    return not any(not isinstance(a, C.Equip) for a in actions(s, seat, fallback=False))


def _arm(s: State, c: C.Arm) -> list[Any]:
    _my_turn(s, c.seat)
    _not_zombie(s, c.seat, "take a gun")
    if s.arm_barred == c.seat:
        raise refuse("arm_barred", "K-9 Unit: you may not take a gun this turn")
    if s.seat(c.seat).gun:
        raise refuse("has_gun", "you already hold a gun")
    if s.guns_in_centre <= 0:
        raise refuse("no_gun_in_centre", "no gun is left in the centre")
    _aim_target(s, c.seat, c.target)
    _reveal_choice(s, c.seat, c.position)
    return [E.ActionDeclared(seat=c.seat, action="arm", target=c.target, position=c.position)]


def _shoot(s: State, c: C.Shoot) -> list[Any]:
    _my_turn(s, c.seat)
    st = s.seat(c.seat)
    if not st.gun:
        raise refuse("no_gun", "you hold no gun")
    if st.aim is None or not alive(s, st.aim):
        raise refuse("not_aimed", "your gun is not aimed at a living seat")
    if c.seat in s.guns_locked:
        raise refuse("gun_locked", "this gun cannot shoot this turn")
    return [E.ActionDeclared(seat=c.seat, action="shoot", target=st.aim)]


def _bite(s: State, c: C.Bite) -> list[Any]:
    """RULES §8: a zombie's action: bite the seat its Arms aim at."""
    _my_turn(s, c.seat)
    st = s.seat(c.seat)
    if not st.zombie:
        raise refuse("not_a_zombie", "only zombies bite (Zombies expansion)")
    if not biteable(s, c.seat, st.arms_aim):
        raise refuse("not_aimed_to_bite", "your Arms do not aim at a living seat you can bite")
    return [E.ActionDeclared(seat=c.seat, action="bite", target=st.arms_aim)]


def _aim(s: State, c: C.Aim) -> list[Any]:
    _playing(s, c.seat)
    _no_prompt(s, c.seat)
    if s.step != AIM:
        raise refuse("wrong_phase", "guns are aimed in the Aim phase")
    if s.turn_seat != c.seat:
        raise refuse("not_your_turn", f"it is seat {s.turn_seat}'s turn")
    # Decision (RULES §8 "may aim its Arms at any seat"): like a gun, never at itself (Arms aimed
    # at itself are what a shot leaves: nothing to choose) nor at an eliminated seat
    _aim_target(s, c.seat, c.target)
    if c.target not in aim_choices(s, c.seat):
        raise refuse("must_reaim", f"you just hit seat {c.target}: aim at another seat (RULES §8)")
    aimed: Any = (
        E.ArmsAimed(seat=c.seat, target=c.target)  # RULES §8: a zombie aims its Arms
        if s.seat(c.seat).zombie
        else E.GunAimed(seat=c.seat, target=c.target)
    )
    return [aimed, E.WindowOpened(kind="end_of_turn", asked=holders(s))]


# --- equipment ----------------------------------------------------------------------------------
def moment(s: State, seat: int) -> str | None:
    """When ``seat`` may play equipment now: 'own_turn', a window kind, or None."""
    if s.prompts or s.step in (LOBBY, FINISHED):
        return None
    if s.step == ACTION and s.turn_seat == seat:
        return "own_turn"
    if s.step == WINDOW and s.window is not None and seat in s.window.pending:
        return s.window.kind
    return None


def timing_allows(timing: str, when: str) -> bool:
    if timing == ANY:
        return True
    if timing == OWN_TURN or timing == OWN_TURN_ACTION:
        return when == "own_turn"
    if timing == SHOOT_WINDOW:
        return when == "shoot" or when == "bite"  # RULES §8: bites count as shots
    if timing == AFTER_INVESTIGATION:
        return when == "end_of_turn"
    return False


_UNSET = {
    "target": None,
    "targets": (),
    "position": None,
    "positions": (),
    "choice": None,
    "aim": None,
}


def _play_equipment(s: State, c: C.PlayEquipment) -> list[Any]:
    _playing(s, c.seat)
    _no_prompt(s, c.seat)
    if c.card not in EQUIPMENT_CARDS:
        raise refuse("unknown_card", f"there is no equipment card '{c.card}'")
    st = s.seat(c.seat)
    if c.card not in st.hand:
        raise refuse("card_not_in_hand", f"you do not hold {c.card}")
    when = moment(s, c.seat)
    if when is None:
        raise refuse("not_playable_now", "you may not play equipment now")
    card = card_rules(s, c.card)
    if not timing_allows(card.timing, when):
        raise refuse("not_playable_now", f"{c.card} cannot be played now")
    card.check_params(c)
    card.check(s, c.seat, c)
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
        played = replace(played, **{k: _UNSET[k] for k in card.hidden_params})
    return [played, *card.resolve(peek(s, (played,)), c.seat, c)]


def _pass(s: State, c: C.Pass) -> list[Any]:
    _playing(s, c.seat)
    _no_prompt(s, c.seat)
    if s.step != WINDOW or s.window is None or c.seat not in s.window.pending:
        raise refuse("not_waiting_for_you", "no reaction is asked of you now")
    return [E.ReactionPassed(seat=c.seat)]


def _prompt_for(s: State, seat: int) -> Any:
    _playing(s, seat)
    if not s.prompts or s.prompts[0].seat != seat:
        raise refuse("not_waiting_for_you", "no prompt is waiting for your answer")
    return s.prompts[0]


def _choose(s: State, c: C.Choose) -> list[Any]:
    p = _prompt_for(s, c.seat)
    if p.kind == "discard":
        raise refuse("must_discard", "answer this prompt with a discard")
    return card_rules(s, p.kind).answer(s, p, c)


def _discard(s: State, c: C.Discard) -> list[Any]:
    p = _prompt_for(s, c.seat)
    if p.kind != "discard":
        raise refuse("invalid_choice", f"this prompt asks for a choice ({p.kind}), not a discard")
    if c.card not in s.seat(c.seat).hand:
        raise refuse("card_not_in_hand", f"you do not hold {c.card}")
    return [
        E.EquipmentDiscarded(seat=c.seat, card=c.card),
        E.PromptAnswered(seat=c.seat, kind="discard"),
    ]


# --- preferences, absence, talk, deadlines ------------------------------------------------------
def _set_auto_pass(s: State, c: C.SetAutoPass) -> list[Any]:
    _playing(s, c.seat)
    if s.seat(c.seat).auto_pass == c.enabled:
        raise refuse("no_effect", f"auto-pass is already {'on' if c.enabled else 'off'}")
    return [E.AutoPassSet(seat=c.seat, enabled=c.enabled)]


def _resume(s: State, c: C.Resume) -> list[Any]:
    _playing(s, c.seat)
    if not s.seat(c.seat).absent:
        raise refuse("not_absent", "you are not away")
    return [E.SeatReturned(seat=c.seat)]


def _chat(s: State, c: C.PostChat) -> list[Any]:
    _seated(s, c.seat)
    text = c.text.strip()
    if not text or len(text) > MAX_CHAT or not text.isprintable():
        # control characters could forge lines in a client's or an operator's terminal
        raise refuse("bad_text", f"a message has 1 to {MAX_CHAT} printable characters")
    limit = CHAT_PER_SEAT if s.chat_per_seat is None else s.chat_per_seat
    if sum(1 for who, _ in s.chat if who == c.seat) >= limit:
        # one seat cannot fill the table's chat; the table's chat stays bounded (seats × limit)
        raise refuse("chat_full", f"a seat posts at most {limit} messages at a table")
    return [E.ChatPosted(seat=c.seat, text=text)]


def _close_table(s: State, c: C.CloseTable) -> list[Any]:
    if not s.table_id:
        raise refuse("no_table", "there is no such table")
    if s.step != LOBBY:
        raise refuse("game_already_started", "the game has started")
    return [E.TableClosed(reason=c.reason)]


def _deadline_passed(s: State, c: C.DeadlinePassed) -> list[Any]:
    from gcbc.rules.autopilot import ABSENT_AFTER, autopilot_events

    w = current_wait(s)
    if w is None or w.id != c.wait:
        raise refuse("stale_deadline", "that wait is over")
    if w.kind not in ("reaction", "arrange"):
        return autopilot_events(s, w.seats[0], missed=True)
    # Decision (RULES §10: every missed deadline counts towards the three in a row, a reaction
    # window's and the arrangement's too): each seat still asked misses it
    events: list[Any] = []
    for i in w.seats:
        if w.kind == "reaction":
            events.append(E.ReactionPassed(seat=i, auto=True, missed=True))
        else:
            events.append(E.CardsArranged(seat=i, positions=(1, 2, 3), missed=True))
        st = s.seat(i)
        if not st.absent and st.missed + 1 >= ABSENT_AFTER:
            events.append(E.SeatAbsent(seat=i))
    return events


_HANDLERS: dict[type, Callable[[State, Any], list[Any]]] = {
    C.OpenTable: _open_table,
    C.TakeSeat: _take_seat,
    C.LeaveSeat: _leave_seat,
    C.StartGame: _start,
    C.Arrange: _arrange,
    C.Investigate: _investigate,
    C.Equip: _equip,
    C.Arm: _arm,
    C.Shoot: _shoot,
    C.Bite: _bite,
    C.Aim: _aim,
    C.PlayEquipment: _play_equipment,
    C.Pass: _pass,
    C.Choose: _choose,
    C.Discard: _discard,
    C.SetAutoPass: _set_auto_pass,
    C.Resume: _resume,
    C.PostChat: _chat,
    C.CloseTable: _close_table,
    C.DeadlinePassed: _deadline_passed,
}
assert set(_HANDLERS) == set(C.AnyCommand.__args__)

# a seat's own commands: each ends a run of missed deadlines, and brings an absent seat back
_SEAT_COMMANDS = tuple(t for t in C.GameCommand.__args__ if t is not C.Resume)


def direct_events(s: State, command: Any, autopilot: bool = False) -> list[Any]:
    """The command's own events, without what follows by itself."""
    events = _HANDLERS[type(command)](s, command)
    if not autopilot and isinstance(command, _SEAT_COMMANDS):
        # RULES §10: any command an absent seat sends brings it back (public: its seat shows
        # it); a present seat that had missed deadlines ends its streak privately, so that a
        # pass in an open window shows nothing to anyone else (§6)
        st = s.seat(command.seat)
        if st.absent:
            events.insert(0, E.SeatReturned(seat=command.seat))
        elif st.missed:
            events.insert(0, E.MissStreakEnded(seat=command.seat))
    return events


def decide(state: State, command: Any) -> list[Any]:
    """All events a command causes, or RuleViolation. Pure: same inputs, same events."""
    events = direct_events(state, command)
    _, more = advance(fold(events, state), after=events)
    return events + more


def run(
    state: State, command: Any, observe: Callable[[State], None] | None = None
) -> tuple[State, list[Any]]:
    """decide and evolve in one go: the new state and the events (what a worker or bot loop
    needs). ``observe`` is called with the state after every event (the simulator's checks)."""
    events = direct_events(state, command)
    s = state
    for e in events:
        s = evolve(s, e)
        if observe is not None:
            observe(s)
    s, more = advance(s, observe, events)
    return s, events + more
