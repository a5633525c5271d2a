"""Events: the public record of a table, as past-tense facts.

Some fields are secrets (a card's identity, a hand, the seed). They live in the log, which is for
operators; what a seat may see of each event is decided in one place, ``gcbc.rules.log``.
Events evolve only by adding optional fields; tags never change.
"""

from __future__ import annotations

import msgspec

from gcbc.contract.options import Deadlines, Deal, TableOptions
from gcbc.contract.vocabulary import (
    ActionName,
    CancelReason,
    Means,
    Step,
    WindowKind,
    Winners,
    WinReason,
)


class Event(
    msgspec.Struct,
    frozen=True,
    kw_only=True,
    tag_field="type",
    forbid_unknown_fields=False,
    omit_defaults=True,
):
    pass


# --- lobby --------------------------------------------------------------------------------------
class TableOpened(Event, tag="table_opened"):
    table_id: str
    seats: int
    options: TableOptions = TableOptions()
    deadlines: Deadlines = Deadlines()
    deal: Deal | None = None  # secret until the end (a scenario table's deal)
    first_seat: int | None = None
    random_seed: int | None = None  # secret: the creator's seed, if any
    chat_per_seat: int | None = None  # messages a seat may post (None: the engine's default)


class SeatTaken(Event, tag="seat_taken"):
    seat: int
    name: str


class SeatLeft(Event, tag="seat_left"):
    seat: int


class TableClosed(Event, tag="table_closed"):
    """The table closed before its game started (nobody wins)."""

    reason: str  # not_started: it waited for players longer than the server allows


class GameStarted(Event, tag="game_started"):
    random_seed: int  # secret: nobody learns the seed before the end (RULES §11)
    first_seat: int


class CardsDealt(Event, tag="cards_dealt"):
    """RULES §1. Every field is secret; each seat learns its own three cards."""

    identities: tuple[str, ...]  # card id -> integrity card
    hands: tuple[tuple[int, ...], ...]  # seat -> card ids by position
    burned: tuple[int, ...]
    equipment: tuple[tuple[str, ...], ...]  # seat -> equipment hand
    deck: tuple[str, ...]  # equipment deck, top first


class CardsArranged(Event, tag="cards_arranged"):
    seat: int
    positions: tuple[int, ...]  # private to the seat
    missed: bool = False  # its deadline passed: the order is kept, a missed deadline (RULES §10)


class ArrangementClosed(Event, tag="arrangement_closed"):
    pass


# --- turns, windows, prompts --------------------------------------------------------------------
class TurnBegan(Event, tag="turn_began"):
    seat: int
    turn: int
    direction: Step  # +1 clockwise, -1 counter-clockwise


class ActionDeclared(Event, tag="action_declared"):
    seat: int
    action: ActionName
    target: int | None = None
    position: int | None = None
    # RULES §6: the shot (or bite) declared before a reconsider stands: the shooter let its
    # deadline pass, so it resolves at once at its target, without a new window
    stands: bool = False


class ActionCancelled(Event, tag="action_cancelled"):
    seat: int
    reason: CancelReason


class ActionResolved(Event, tag="action_resolved"):
    seat: int


class AimRequested(Event, tag="aim_requested"):
    seat: int


class WindowOpened(Event, tag="window_opened"):
    kind: WindowKind
    asked: tuple[int, ...]


class WindowReopened(Event, tag="window_reopened"):
    kind: WindowKind
    asked: tuple[int, ...]


class ReactionPassed(Event, tag="reaction_passed"):
    seat: int  # private to the seat: nobody learns who has passed (RULES §6)
    auto: bool = False  # the window's deadline passed
    missed: bool = False  # and it counts as a missed deadline (RULES §10; older logs: it did not)


class WindowClosed(Event, tag="window_closed"):
    kind: WindowKind


class PromptOpened(Event, tag="prompt_opened"):
    seat: int
    kind: str  # discard | riot_shield | restraining_order | surveillance_camera
    options: tuple[int, ...] = ()  # public choices (seats or positions)
    about: int | None = None


class PromptAnswered(Event, tag="prompt_answered"):
    seat: int
    kind: str
    target: int | None = None
    position: int | None = None


# --- guns ---------------------------------------------------------------------------------------
class GunTaken(Event, tag="gun_taken"):
    """A seat gains a gun and aims it at once (RULES §5)."""

    seat: int
    aim: int
    from_seat: int | None = None  # None: from the centre
    locked: bool = False  # may not shoot it this turn (Taser)


class GunAimed(Event, tag="gun_aimed"):
    seat: int
    target: int


class GunDropped(Event, tag="gun_dropped"):
    seat: int  # the gun returns to the centre
    barred: bool = False  # classic K-9 Unit on the turn's seat: it may not take a gun this turn


class ArmsAimed(Event, tag="arms_aimed"):
    """RULES §8: a zombie's Arms aim at ``target`` (itself: it cannot bite)."""

    seat: int
    target: int


# --- integrity cards ----------------------------------------------------------------------------
class CardViewed(Event, tag="card_viewed"):
    viewer: int
    seat: int
    position: int
    card_id: int
    card: str  # private to the viewer
    means: Means


class CardRevealed(Event, tag="card_revealed"):
    seat: int
    position: int
    card_id: int
    card: str  # public: the card is face up


class CardsExchanged(Event, tag="cards_exchanged"):
    """Two cards swap places, each keeping its face. Each receiving seat learns what it got."""

    seats: tuple[int, int]
    positions: tuple[int, int]
    card_ids: tuple[int, int]
    cards: tuple[str, str]  # secret: cards[0] is learned by seats[1], cards[1] by seats[0]


# --- shots, wounds, elimination -----------------------------------------------------------------
class SeatShot(Event, tag="seat_shot"):
    shooter: int
    target: int


class ShotRedirected(Event, tag="shot_redirected"):
    target: int
    forced: bool = True


class LeaderWounded(Event, tag="leader_wounded"):
    seat: int
    card_id: int


class WoundHealed(Event, tag="wound_healed"):
    seat: int
    card_id: int


class SeatEliminated(Event, tag="seat_eliminated"):
    seat: int  # its hand goes to the bottom of the deck, its gun to the centre
    by: int | None = None  # the seat that shot or bit it (itself possible); None: no one


class SeatBitten(Event, tag="seat_bitten"):
    """RULES §8: resolves like a shot by the zombie ``biter``."""

    biter: int
    target: int


class BecameZombie(Event, tag="became_zombie"):
    """RULES §8: instead of being eliminated; it drops any gun and takes Arms aimed at itself."""

    seat: int
    by: int | None = None


class ZombieCured(Event, tag="zombie_cured"):
    """RULES §8: back to life (Defibrillator, Zombie Mask); its Arms return to the centre."""

    seat: int


class CardsDiscarded(Event, tag="cards_discarded"):
    """Classic Defibrillator: integrity cards leave the game (they are face up: public)."""

    seat: int
    positions: tuple[int, ...]
    card_ids: tuple[int, ...]
    cards: tuple[str, ...]


class CardsShuffled(Event, tag="cards_shuffled"):
    """Classic Flashbang: the seat lays its cards face down in a new order only it knows; every
    other seat loses track of them. positions[i] is the old position now at i+1."""

    seat: int
    positions: tuple[int, ...]  # private to the seat


class SeatRevived(Event, tag="seat_revived"):
    seat: int


# --- equipment ----------------------------------------------------------------------------------
class EquipmentDrawn(Event, tag="equipment_drawn"):
    """Over the hand limit, the seat is prompted to discard at once (RULES §6)."""

    seat: int
    card: str  # private to the seat


class EquipmentDiscarded(Event, tag="equipment_discarded"):
    seat: int
    card: str  # private to the seat; goes to the bottom of the deck


class EquipmentPlayed(Event, tag="equipment_played"):
    seat: int
    card: str
    target: int | None = None
    targets: tuple[int, ...] = ()
    position: int | None = None
    positions: tuple[int, ...] = ()
    choice: str | None = None
    aim: int | None = None
    placed_on: int | None = None  # stays in play in front of this seat


class EquipmentMoved(Event, tag="equipment_moved"):
    from_seat: int
    to_seat: int
    card: str  # private to both seats unless in_play
    in_play: bool = False


class EquipmentReturned(Event, tag="equipment_returned"):
    """A played card comes back from the bottom of the deck to its player (Fingerprint Kit)."""

    seat: int
    card: str


class AlarmSet(Event, tag="alarm_set"):
    """Alarm Clock: rings at the end of ``seat``'s next turn."""

    seat: int
    turn: int  # the turn it was set in
    by: int | None = None  # who set it (None in older logs: the seat that played the card)


class AlarmRang(Event, tag="alarm_rang"):
    seat: int


class TurnOrderReversed(Event, tag="turn_order_reversed"):
    seat: int  # takes effect at the end of the current turn


class NextTurnClaimed(Event, tag="next_turn_claimed"):
    seat: int


# --- deadlines, absence, preferences, talk ------------------------------------------------------
class AutopilotActed(Event, tag="autopilot_acted"):
    seat: int
    missed: bool = True  # a missed deadline (False: the seat is away)


class SeatAbsent(Event, tag="seat_absent"):
    seat: int


class SeatReturned(Event, tag="seat_returned"):
    seat: int


class MissStreakEnded(Event, tag="miss_streak_ended"):
    """A seat that had missed deadlines (not absent) acted itself: its run of missed deadlines in
    a row ends (RULES §10). Private to the seat, like a pass: who answered a window stays secret
    (§6)."""

    seat: int


class AutoPassSet(Event, tag="auto_pass_set"):
    seat: int  # private to the seat
    enabled: bool


class ChatPosted(Event, tag="chat_posted"):
    seat: int
    text: str


# --- the end ------------------------------------------------------------------------------------
class GameWon(Event, tag="game_won"):
    winners: tuple[int, ...]
    team: Winners
    reason: WinReason


class AllRevealed(Event, tag="all_revealed"):
    """RULES §10: when the game ends every card is revealed to everyone."""

    identities: tuple[str, ...]
    hands: tuple[tuple[int, ...], ...]
    burned: tuple[int, ...]
    equipment: tuple[tuple[str, ...], ...]
    random_seed: int


AnyEvent = (
    TableOpened
    | SeatTaken
    | SeatLeft
    | TableClosed
    | GameStarted
    | CardsDealt
    | CardsArranged
    | ArrangementClosed
    | TurnBegan
    | ActionDeclared
    | ActionCancelled
    | ActionResolved
    | AimRequested
    | WindowOpened
    | WindowReopened
    | ReactionPassed
    | WindowClosed
    | PromptOpened
    | PromptAnswered
    | GunTaken
    | GunAimed
    | GunDropped
    | ArmsAimed
    | CardViewed
    | CardRevealed
    | CardsExchanged
    | SeatShot
    | ShotRedirected
    | LeaderWounded
    | WoundHealed
    | SeatEliminated
    | SeatRevived
    | SeatBitten
    | BecameZombie
    | ZombieCured
    | CardsDiscarded
    | CardsShuffled
    | EquipmentDrawn
    | EquipmentDiscarded
    | EquipmentPlayed
    | EquipmentMoved
    | EquipmentReturned
    | AlarmSet
    | AlarmRang
    | TurnOrderReversed
    | NextTurnClaimed
    | AutopilotActed
    | SeatAbsent
    | SeatReturned
    | MissStreakEnded
    | AutoPassSet
    | ChatPosted
    | GameWon
    | AllRevealed
)
