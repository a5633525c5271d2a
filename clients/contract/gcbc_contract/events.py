"""Events: the record of a table, as past-tense facts.

Some fields are secrets (a card's identity, a hand, the seed). They live in the log, which is for
operators; what a view's log shows of each field is declared here, on the field
(``gcbc_contract.audience``: ``Public``, ``Secret``, ``To(...)``, ``Received(...)``), and an event
that only one seat may know happened says so with ``seen_by``. ``gcbc.rules.log`` renders views'
logs from these declarations only. Events evolve only by adding optional fields; tags never change.
"""

from __future__ import annotations

from typing import Annotated, ClassVar

import msgspec

from gcbc_contract.audience import Public, Received, Secret, To
from gcbc_contract.options import Deadlines, Deal, HouseBots, TableOptions
from gcbc_contract.vocabulary import (
    ActionName,
    CancelReason,
    Means,
    Step,
    WindowKind,
    Winners,
    WinReason,
)
from gcbc_contract.wide import Wide


class Event(
    msgspec.Struct,
    frozen=True,
    kw_only=True,
    tag_field="type",
    forbid_unknown_fields=False,
    omit_defaults=True,
):
    # the seat (the field naming it) that alone knows the event happened before the end; for
    # everyone else it never happened, so it does not even bump the version they see (RULES §6)
    seen_by: ClassVar[To | None] = None
    # shown in a view's log (chat is shown in the view's chat instead)
    logged: ClassVar[bool] = True


# --- lobby --------------------------------------------------------------------------------------
class TableOpened(Event, tag="table_opened"):
    table_id: Public[str]
    seats: Public[int]
    options: Public[TableOptions] = TableOptions()
    deadlines: Public[Deadlines] = Deadlines()
    deal: Secret[Deal | None] = None  # secret until the end (a scenario table's deal)
    first_seat: Public[int | None] = None
    random_seed: Secret[Wide[int | None]] = None  # secret: the creator's seed, if any
    chat_per_seat: Public[int | None] = None  # messages a seat may post (None: the default)
    bots: Public[HouseBots | None] = None  # seats the house plays, taken as the table opens
    rematch_of: Public[str | None] = None  # the finished table this one plays again
    held: Public[tuple[int, ...]] = ()  # seats kept for that table's players until they come


class SeatTaken(Event, tag="seat_taken"):
    seat: Public[int]
    name: Public[str]


class SeatLeft(Event, tag="seat_left"):
    seat: Public[int]


class TableClosed(Event, tag="table_closed"):
    """The table closed before its game started (nobody wins)."""

    reason: Public[str]  # not_started: it waited for players longer than the server allows


class GameStarted(Event, tag="game_started"):
    random_seed: Secret[Wide[int]]  # secret: nobody learns the seed before the end (RULES §11)
    first_seat: Public[int]


class CardsDealt(Event, tag="cards_dealt"):
    """RULES §1. Every field is secret; each seat learns its own three cards."""

    identities: Secret[tuple[str, ...]]  # card id -> integrity card
    hands: Secret[tuple[tuple[int, ...], ...]]  # seat -> card ids by position
    burned: Secret[tuple[int, ...]]
    equipment: Secret[tuple[tuple[str, ...], ...]]  # seat -> equipment hand
    deck: Secret[tuple[str, ...]]  # equipment deck, top first


class CardsArranged(Event, tag="cards_arranged"):
    seen_by = To("seat")  # the order is private (RULES §1)

    seat: Public[int]
    positions: Annotated[tuple[int, ...], To("seat")]
    # its deadline passed: the order is kept, a missed deadline (RULES §10)
    missed: Public[bool] = False


class ArrangementClosed(Event, tag="arrangement_closed"):
    pass


# --- turns, windows, prompts --------------------------------------------------------------------
class TurnBegan(Event, tag="turn_began"):
    seat: Public[int]
    turn: Public[int]
    direction: Public[Step]  # +1 clockwise, -1 counter-clockwise


class ActionDeclared(Event, tag="action_declared"):
    seat: Public[int]
    action: Public[ActionName]
    target: Public[int | None] = None
    position: Public[int | None] = None
    # RULES §6: the shot (or bite) declared before a reconsider stands: the shooter let its
    # deadline pass, so it resolves at once at its target, without a new window
    stands: Public[bool] = False


class ActionCancelled(Event, tag="action_cancelled"):
    seat: Public[int]
    reason: Public[CancelReason]


class ActionResolved(Event, tag="action_resolved"):
    seat: Public[int]


class AimRequested(Event, tag="aim_requested"):
    seat: Public[int]


class WindowOpened(Event, tag="window_opened"):
    kind: Public[WindowKind]
    asked: Public[tuple[int, ...]]


class WindowReopened(Event, tag="window_reopened"):
    kind: Public[WindowKind]
    asked: Public[tuple[int, ...]]


class ReactionPassed(Event, tag="reaction_passed"):
    seen_by = To("seat")  # nobody learns who has passed (RULES §6)

    seat: Public[int]
    auto: Public[bool] = False  # the window's deadline passed
    # and it counts as a missed deadline (RULES §10; older logs: it did not)
    missed: Public[bool] = False


class WindowClosed(Event, tag="window_closed"):
    kind: Public[WindowKind]


class PromptOpened(Event, tag="prompt_opened"):
    seat: Public[int]
    kind: Public[str]  # discard | riot_shield | restraining_order | surveillance_camera
    options: Public[tuple[int, ...]] = ()  # public choices (seats or positions)
    about: Public[int | None] = None


class PromptAnswered(Event, tag="prompt_answered"):
    seat: Public[int]
    kind: Public[str]
    target: Public[int | None] = None
    position: Public[int | None] = None


# --- guns ---------------------------------------------------------------------------------------
class GunTaken(Event, tag="gun_taken"):
    """A seat gains a gun and aims it at once (RULES §5)."""

    seat: Public[int]
    aim: Public[int]
    from_seat: Public[int | None] = None  # None: from the centre
    locked: Public[bool] = False  # may not shoot it this turn (Taser)


class GunAimed(Event, tag="gun_aimed"):
    seat: Public[int]
    target: Public[int]


class GunDropped(Event, tag="gun_dropped"):
    seat: Public[int]  # the gun returns to the centre
    # classic K-9 Unit on the turn's seat: it may not take a gun this turn
    barred: Public[bool] = False


class ArmsAimed(Event, tag="arms_aimed"):
    """RULES §8: a zombie's Arms aim at ``target`` (itself: it cannot bite)."""

    seat: Public[int]
    target: Public[int]


# --- integrity cards ----------------------------------------------------------------------------
class CardViewed(Event, tag="card_viewed"):
    viewer: Public[int]
    seat: Public[int]
    position: Public[int]
    card_id: Secret[int]
    card: Annotated[str, To("viewer")]
    means: Public[Means]


class CardRevealed(Event, tag="card_revealed"):
    seat: Public[int]
    position: Public[int]
    card_id: Secret[int]
    card: Public[str]  # public: the card is face up


class CardsExchanged(Event, tag="cards_exchanged"):
    """Two cards swap places, each keeping its face. Each receiving seat learns what it got."""

    seats: Public[tuple[int, int]]
    positions: Public[tuple[int, int]]
    card_ids: Secret[tuple[int, int]]
    # cards[0] is learned by seats[1], cards[1] by seats[0]: each is told only what it received
    cards: Annotated[tuple[str, str], Received("seats")]


# --- shots, wounds, elimination -----------------------------------------------------------------
class SeatShot(Event, tag="seat_shot"):
    shooter: Public[int]
    target: Public[int]


class ShotRedirected(Event, tag="shot_redirected"):
    target: Public[int]
    forced: Public[bool] = True


class LeaderWounded(Event, tag="leader_wounded"):
    seat: Public[int]
    card_id: Secret[int]


class WoundHealed(Event, tag="wound_healed"):
    seat: Public[int]
    card_id: Secret[int]


class SeatEliminated(Event, tag="seat_eliminated"):
    seat: Public[int]  # its hand goes to the bottom of the deck, its gun to the centre
    by: Public[int | None] = None  # the seat that shot or bit it (itself possible); None: no one


class SeatBitten(Event, tag="seat_bitten"):
    """RULES §8: resolves like a shot by the zombie ``biter``."""

    biter: Public[int]
    target: Public[int]


class BecameZombie(Event, tag="became_zombie"):
    """RULES §8: instead of being eliminated; it drops any gun and takes Arms aimed at itself."""

    seat: Public[int]
    by: Public[int | None] = None


class ZombieCured(Event, tag="zombie_cured"):
    """RULES §8: back to life (Defibrillator, Zombie Mask); its Arms return to the centre."""

    seat: Public[int]


class CardsDiscarded(Event, tag="cards_discarded"):
    """Classic Defibrillator: integrity cards leave the game (they are face up: public)."""

    seat: Public[int]
    positions: Public[tuple[int, ...]]
    card_ids: Secret[tuple[int, ...]]
    cards: Public[tuple[str, ...]]


class CardsShuffled(Event, tag="cards_shuffled"):
    """Classic Flashbang: the seat lays its cards face down in a new order only it knows; every
    other seat loses track of them. positions[i] is the old position now at i+1."""

    seat: Public[int]
    positions: Annotated[tuple[int, ...], To("seat")]


class SeatRevived(Event, tag="seat_revived"):
    seat: Public[int]


# --- equipment ----------------------------------------------------------------------------------
class EquipmentDrawn(Event, tag="equipment_drawn"):
    """Over the hand limit, the seat is prompted to discard at once (RULES §6)."""

    seat: Public[int]
    card: Annotated[str, To("seat")]


class EquipmentDiscarded(Event, tag="equipment_discarded"):
    seat: Public[int]
    card: Annotated[str, To("seat")]  # goes to the bottom of the deck


class EquipmentPlayed(Event, tag="equipment_played"):
    seat: Public[int]
    card: Public[str]
    target: Public[int | None] = None
    targets: Public[tuple[int, ...]] = ()
    position: Public[int | None] = None
    positions: Public[tuple[int, ...]] = ()
    choice: Public[str | None] = None
    aim: Public[int | None] = None
    placed_on: Public[int | None] = None  # stays in play in front of this seat


class EquipmentMoved(Event, tag="equipment_moved"):
    from_seat: Public[int]
    to_seat: Public[int]
    # both seats see which card moved from a hand; everyone sees a card in play
    card: Annotated[str, To("from_seat", "to_seat", public_if="in_play")]
    in_play: Public[bool] = False


class EquipmentReturned(Event, tag="equipment_returned"):
    """A played card comes back from the bottom of the deck to its player (Fingerprint Kit)."""

    seat: Public[int]
    card: Public[str]


class AlarmSet(Event, tag="alarm_set"):
    """Alarm Clock: rings at the end of ``seat``'s next turn."""

    seat: Public[int]
    turn: Public[int]  # the turn it was set in
    by: Public[int | None] = None  # who set it (None in older logs: the seat that played the card)


class AlarmRang(Event, tag="alarm_rang"):
    seat: Public[int]


class TurnOrderReversed(Event, tag="turn_order_reversed"):
    seat: Public[int]  # takes effect at the end of the current turn


class NextTurnClaimed(Event, tag="next_turn_claimed"):
    seat: Public[int]


# --- deadlines, absence, preferences, talk ------------------------------------------------------
class AutopilotActed(Event, tag="autopilot_acted"):
    seat: Public[int]
    missed: Public[bool] = True  # a missed deadline (False: the seat is away)


class SeatAbsent(Event, tag="seat_absent"):
    seat: Public[int]


class SeatReturned(Event, tag="seat_returned"):
    seat: Public[int]


class MissStreakEnded(Event, tag="miss_streak_ended"):
    """A seat that had missed deadlines (not absent) acted itself: its run of missed deadlines in
    a row ends (RULES §10). Private to the seat, like a pass: who answered a window stays secret
    (§6)."""

    seen_by = To("seat")

    seat: Public[int]


class AutoPassSet(Event, tag="auto_pass_set"):
    seen_by = To("seat")  # a preference: private

    seat: Public[int]
    enabled: Public[bool]


class ChatPosted(Event, tag="chat_posted"):
    logged = False  # in the view's chat

    seat: Public[int]
    text: Public[str]


# --- the end ------------------------------------------------------------------------------------
class GameWon(Event, tag="game_won"):
    winners: Public[tuple[int, ...]]
    team: Public[Winners]
    reason: Public[WinReason]


class AllRevealed(Event, tag="all_revealed"):
    """RULES §10: when the game ends every card is revealed to everyone."""

    identities: Public[tuple[str, ...]]
    hands: Public[tuple[tuple[int, ...], ...]]
    burned: Public[tuple[int, ...]]
    equipment: Public[tuple[tuple[str, ...], ...]]
    random_seed: Public[Wide[int]]


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
