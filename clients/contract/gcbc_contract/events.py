"""Events: the record of a table, as past-tense facts.

Some fields are secrets (a card's identity, a hand, the seed). They live in the log, which is for
operators; what a view's log shows of each field is declared here, on the field
(``gcbc_contract.audience``: ``Public``, ``Secret``, ``To(...)``, ``Received(...)``), and an event
that only one seat may know happened says so with ``seen_by``. ``gcbc.rules.log`` renders views'
logs from these declarations only. Events evolve only by adding optional fields; tags never change.
"""

from __future__ import annotations

import functools
import operator
from typing import Annotated, Any, ClassVar

import msgspec

from gcbc_contract.audience import Public, Received, Secret, To
from gcbc_contract.fields import (
    About,
    Action,
    Aim,
    Asked,
    Auto,
    Barred,
    Biter,
    Bots,
    Burned,
    By,
    CancelReasonField,
    CardId,
    CardIds,
    ChatPerSeat,
    ChatText,
    Choice,
    ClosedReason,
    DeadlinesField,
    DealField,
    Deck,
    Enabled,
    Equipment,
    EquipmentHands,
    FirstSeat,
    Forced,
    FromSeat,
    Hands,
    Held,
    Identities,
    Integrity,
    IntegrityList,
    IntegrityPair,
    Locked,
    MeansField,
    Missed,
    MovedInPlay,
    Name,
    Options,
    PlacedOn,
    Position,
    PositionList,
    PositionPair,
    Prompt,
    PromptOptions,
    Rated,
    RematchOf,
    Seat,
    SeatCount,
    SeatPair,
    Shooter,
    Stands,
    StepField,
    TableId,
    Target,
    Targets,
    ToSeat,
    Turn,
    Viewer,
    Window,
    WinnerSeats,
    WinReasonField,
    WinTeam,
    described,
)
from gcbc_contract.options import Deadlines, TableOptions
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
    table_id: Public[TableId]
    seats: Public[SeatCount]
    options: Public[Options] = TableOptions()
    deadlines: Public[DeadlinesField] = Deadlines()
    deal: Secret[DealField | None] = None  # secret until the end (a scenario table's deal)
    first_seat: Public[FirstSeat | None] = None
    random_seed: Secret[Wide[int | None]] = None  # secret: the creator's seed, if any
    chat_per_seat: Public[ChatPerSeat | None] = None  # messages a seat may post (None: the default)
    bots: Public[Bots | None] = None  # seats the house plays, taken as the table opens
    rematch_of: Public[RematchOf | None] = None  # the finished table this one plays again
    held: Public[Held] = ()  # seats kept for that table's players until they come
    rated: Public[Rated] = False


class SeatTaken(Event, tag="seat_taken"):
    seat: Public[Seat]
    name: Public[Name]
    bot: Public[
        Annotated[bool, described("its player said a program plays it (POST /seats bot)")]
    ] = False


class SeatLeft(Event, tag="seat_left"):
    seat: Public[Seat]


class TableClosed(Event, tag="table_closed"):
    """The table closed before its game started (nobody wins)."""

    reason: Public[ClosedReason]  # not_started: it waited for players longer than the server allows


class GameStarted(Event, tag="game_started"):
    random_seed: Secret[Wide[int]]  # secret: nobody learns the seed before the end (RULES §11)
    first_seat: Public[FirstSeat]


class CardsDealt(Event, tag="cards_dealt"):
    """RULES §1. Every field is secret; each seat learns its own three cards."""

    identities: Secret[Identities]  # card id -> integrity card
    hands: Secret[Hands]  # seat -> card ids by position
    burned: Secret[Burned]
    equipment: Secret[EquipmentHands]  # seat -> equipment hand
    deck: Secret[Deck]  # equipment deck, top first


class CardsArranged(Event, tag="cards_arranged"):
    seen_by = To("seat")  # the order is private (RULES §1)

    seat: Public[Seat]
    positions: Annotated[PositionList, To("seat")]
    # its deadline passed: the order is kept, a missed deadline (RULES §10)
    missed: Public[Missed] = False


class ArrangementClosed(Event, tag="arrangement_closed"):
    pass


# --- turns, windows, prompts --------------------------------------------------------------------
class TurnBegan(Event, tag="turn_began"):
    seat: Public[Seat]
    turn: Public[Turn]
    direction: Public[StepField]  # +1 clockwise, -1 counter-clockwise


class ActionDeclared(Event, tag="action_declared"):
    seat: Public[Seat]
    action: Public[Action]
    target: Public[Target | None] = None
    position: Public[Position | None] = None
    # RULES §6: the shot (or bite) declared before a reconsider stands: the shooter let its
    # deadline pass, so it resolves at once at its target, without a new window
    stands: Public[Stands] = False


class ActionCancelled(Event, tag="action_cancelled"):
    seat: Public[Seat]
    reason: Public[CancelReasonField]


class ActionResolved(Event, tag="action_resolved"):
    seat: Public[Seat]


class AimRequested(Event, tag="aim_requested"):
    seat: Public[Seat]


class WindowOpened(Event, tag="window_opened"):
    kind: Public[Window]
    asked: Public[Asked]


class WindowReopened(Event, tag="window_reopened"):
    kind: Public[Window]
    asked: Public[Asked]


class ReactionPassed(Event, tag="reaction_passed"):
    seen_by = To("seat")  # nobody learns who has passed (RULES §6)

    seat: Public[Seat]
    auto: Public[Auto] = False  # the window's deadline passed
    # and it counts as a missed deadline (RULES §10; older logs: it did not)
    missed: Public[Missed] = False


class WindowClosed(Event, tag="window_closed"):
    kind: Public[Window]


class PromptOpened(Event, tag="prompt_opened"):
    seat: Public[Seat]
    kind: Public[Prompt]
    options: Public[PromptOptions] = ()
    about: Public[About | None] = None


class PromptAnswered(Event, tag="prompt_answered"):
    seat: Public[Seat]
    kind: Public[Prompt]
    target: Public[Target | None] = None
    position: Public[Position | None] = None


# --- guns ---------------------------------------------------------------------------------------
class GunTaken(Event, tag="gun_taken"):
    """A seat gains a gun and aims it at once (RULES §5)."""

    seat: Public[Seat]
    aim: Public[Aim]
    from_seat: Public[FromSeat | None] = None  # None: from the centre
    locked: Public[Locked] = False  # may not shoot it this turn (Taser)


class GunAimed(Event, tag="gun_aimed"):
    seat: Public[Seat]
    target: Public[Target]


class GunDropped(Event, tag="gun_dropped"):
    seat: Public[Seat]  # the gun returns to the centre
    # classic K-9 Unit on the turn's seat: it may not take a gun this turn
    barred: Public[Barred] = False


class ArmsAimed(Event, tag="arms_aimed"):
    """RULES §8: a zombie's Arms aim at ``target`` (itself: it cannot bite)."""

    seat: Public[Seat]
    target: Public[Target]


# --- integrity cards ----------------------------------------------------------------------------
class CardViewed(Event, tag="card_viewed"):
    viewer: Public[Viewer]
    seat: Public[Seat]
    position: Public[Position]
    card_id: Secret[CardId]
    card: Annotated[Integrity, To("viewer")]
    means: Public[MeansField]


class CardRevealed(Event, tag="card_revealed"):
    seat: Public[Seat]
    position: Public[Position]
    card_id: Secret[CardId]
    card: Public[Integrity]  # public: the card is face up


class CardsExchanged(Event, tag="cards_exchanged"):
    """Two cards swap places, each keeping its face. Each receiving seat learns what it got."""

    seats: Public[SeatPair]
    positions: Public[PositionPair]
    card_ids: Secret[CardIds]
    # cards[0] is learned by seats[1], cards[1] by seats[0]: each is told only what it received
    cards: Annotated[IntegrityPair, Received("seats")]


# --- shots, wounds, elimination -----------------------------------------------------------------
class SeatShot(Event, tag="seat_shot"):
    shooter: Public[Shooter]
    target: Public[Target]


class ShotRedirected(Event, tag="shot_redirected"):
    target: Public[Target]
    forced: Public[Forced] = True


class LeaderWounded(Event, tag="leader_wounded"):
    seat: Public[Seat]
    card_id: Secret[CardId]


class WoundHealed(Event, tag="wound_healed"):
    seat: Public[Seat]
    card_id: Secret[CardId]


class SeatEliminated(Event, tag="seat_eliminated"):
    seat: Public[Seat]  # its hand goes to the bottom of the deck, its gun to the centre
    by: Public[By | None] = None  # the seat that shot or bit it (itself possible); None: no one


class SeatBitten(Event, tag="seat_bitten"):
    """RULES §8: resolves like a shot by the zombie ``biter``."""

    biter: Public[Biter]
    target: Public[Target]


class BecameZombie(Event, tag="became_zombie"):
    """RULES §8: instead of being eliminated; it drops any gun and takes Arms aimed at itself."""

    seat: Public[Seat]
    by: Public[By | None] = None


class ZombieCured(Event, tag="zombie_cured"):
    """RULES §8: back to life (Defibrillator, Zombie Mask); its Arms return to the centre."""

    seat: Public[Seat]


class CardsDiscarded(Event, tag="cards_discarded"):
    """Classic Defibrillator: integrity cards leave the game (they are face up: public)."""

    seat: Public[Seat]
    positions: Public[PositionList]
    card_ids: Secret[CardIds]
    cards: Public[IntegrityList]


class CardsShuffled(Event, tag="cards_shuffled"):
    """Classic Flashbang: the seat lays its cards face down in a new order only it knows; every
    other seat loses track of them. positions[i] is the old position now at i+1."""

    seat: Public[Seat]
    positions: Annotated[PositionList, To("seat")]


class SeatRevived(Event, tag="seat_revived"):
    seat: Public[Seat]


# --- equipment ----------------------------------------------------------------------------------
class EquipmentDrawn(Event, tag="equipment_drawn"):
    """Over the hand limit, the seat is prompted to discard at once (RULES §6)."""

    seat: Public[Seat]
    card: Annotated[Equipment, To("seat")]


class EquipmentDiscarded(Event, tag="equipment_discarded"):
    seat: Public[Seat]
    card: Annotated[Equipment, To("seat")]  # goes to the bottom of the deck


class EquipmentPlayed(Event, tag="equipment_played"):
    seat: Public[Seat]
    card: Public[Equipment]
    target: Public[Target | None] = None
    targets: Public[Targets] = ()
    position: Public[Position | None] = None
    positions: Public[PositionList] = ()
    choice: Public[Choice | None] = None
    aim: Public[Aim | None] = None
    placed_on: Public[PlacedOn | None] = None  # stays in play in front of this seat


class EquipmentMoved(Event, tag="equipment_moved"):
    from_seat: Public[FromSeat]
    to_seat: Public[ToSeat]
    # both seats see which card moved from a hand; everyone sees a card in play
    card: Annotated[Equipment, To("from_seat", "to_seat", public_if="in_play")]
    in_play: Public[MovedInPlay] = False


class EquipmentReturned(Event, tag="equipment_returned"):
    """A played card comes back from the bottom of the deck to its player (Fingerprint Kit)."""

    seat: Public[Seat]
    card: Public[Equipment]


class AlarmSet(Event, tag="alarm_set"):
    """Alarm Clock: rings at the end of ``seat``'s next turn."""

    seat: Public[Seat]
    turn: Public[Turn]  # the turn it was set in
    by: Public[By]  # who set it


class AlarmRang(Event, tag="alarm_rang"):
    seat: Public[Seat]


class TurnOrderReversed(Event, tag="turn_order_reversed"):
    seat: Public[Seat]  # takes effect at the end of the current turn


class NextTurnClaimed(Event, tag="next_turn_claimed"):
    seat: Public[Seat]


# --- deadlines, absence, preferences, talk ------------------------------------------------------
class AutopilotActed(Event, tag="autopilot_acted"):
    seat: Public[Seat]
    missed: Public[Missed] = True  # a missed deadline (False: the seat is away)


class SeatAbsent(Event, tag="seat_absent"):
    seat: Public[Seat]


class SeatReturned(Event, tag="seat_returned"):
    seat: Public[Seat]


class MissStreakEnded(Event, tag="miss_streak_ended"):
    """A seat that had missed deadlines (not absent) acted itself: its run of missed deadlines in
    a row ends (RULES §10). Private to the seat, like a pass: who answered a window stays secret
    (§6)."""

    seen_by = To("seat")

    seat: Public[Seat]


class AutoPassSet(Event, tag="auto_pass_set"):
    seen_by = To("seat")  # a preference: private

    seat: Public[Seat]
    enabled: Public[Enabled]


class ChatPosted(Event, tag="chat_posted"):
    logged = False  # in the view's chat

    seat: Public[Seat]
    text: Public[ChatText]


# --- the end ------------------------------------------------------------------------------------
class GameWon(Event, tag="game_won"):
    winners: Public[WinnerSeats]
    team: Public[WinTeam]
    reason: Public[WinReasonField]


class AllRevealed(Event, tag="all_revealed"):
    """RULES §10: when the game ends every card is revealed to everyone."""

    identities: Public[Identities]
    hands: Public[Hands]
    burned: Public[Burned]
    equipment: Public[EquipmentHands]
    random_seed: Public[Wide[int]]


# every event above, in the order defined (a tagged union msgspec decodes on ``type``)
AnyEvent: Any = functools.reduce(operator.or_, Event.__subclasses__())
