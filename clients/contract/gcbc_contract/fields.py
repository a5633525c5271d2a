"""The wire's recurring fields, each described once in the game's words: a field's type here carries
its description (``msgspec.Meta``), which the OpenAPI document shows on every property of that
name. Only descriptions and, for what the server sends, the closed sets of names: nothing here
narrows what a client may send."""

from __future__ import annotations

from typing import Annotated, Literal

from msgspec import Meta

from gcbc_contract.cards import EQUIPMENT_CARDS, INTEGRITY_NAMES
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


def described(text: str) -> Meta:
    return Meta(description=text)


# --- closed vocabularies of names (output only: a command's card stays a string, docs/api.md) ---
IntegrityName = Literal[INTEGRITY_NAMES]  # type: ignore[valid-type]  # agent, honest_bomb...
EquipmentName = Literal[EQUIPMENT_CARDS]  # type: ignore[valid-type]  # coffee, k9_unit...
# a prompt names the equipment card that asks (or ``discard``: over the hand limit, RULES §6)
PromptKind = Literal[
    "discard",
    "chainsaw",
    "classified_orders",
    "fingerprint_kit",
    "report_audit",
    "restraining_order",
    "riot_shield",
    "surveillance_camera",
    "truth_serum",
    "weapon_crate",
]

# --- seats --------------------------------------------------------------------------------------
Seat = Annotated[
    int, described("a seat, numbered from 0 (turns go up the numbers when the order is clockwise)")
]
Target = Annotated[int, described("the seat aimed at, looked at or chosen (numbered from 0)")]
Targets = Annotated[
    tuple[int, ...], described("the seats a card names, in the order its rules read them (from 0)")
]
SeatCount = Annotated[int, described("how many seats the table has: 4 to 8 (RULES §1)")]
Name = Annotated[str, described("the seat's player name, as shown to everyone")]

# --- cards and positions ------------------------------------------------------------------------
Position = Annotated[
    int, described("a card's position in front of its seat, 1 to 3 (left to right)")
]
PositionList = Annotated[tuple[int, ...], described("card positions, each 1 to 3")]
Integrity = Annotated[
    IntegrityName,
    described(
        "an integrity card by its snake_case name: agent, kingpin, honest or crooked with its"
        " icons (honest_bomb, crooked_knife, crooked_bomb_knife...)"
    ),
]
Equipment = Annotated[
    EquipmentName, described("an equipment card by its snake_case name (docs/rules.md)")
]
CardId = Annotated[
    int,
    described("the integrity card's id in the deal (secret until the end: null or absent before)"),
]
Choice = Annotated[str, described("the option the card's rules let its player pick, by name")]
Aim = Annotated[
    int, described("where the gun the card moves or gives is aimed afterwards (a seat)")
]

# --- time, versions, waits ----------------------------------------------------------------------
Turn = Annotated[int, described("a turn's number, counted from 1 as the game goes")]
WaitId = Annotated[
    int,
    described(
        "the wait's id: this viewer's version when the wait began (it moves only with what the"
        " viewer sees); a deadline_passed names it"
    ),
]
Missed = Annotated[
    bool, described("the seat let its deadline pass: it counts as a missed deadline (RULES §10)")
]
LogNumber = Annotated[
    int, described("the entry's number in this viewer's log (its version once the entry was seen)")
]
TableId = Annotated[str, described("the table's id: 16 hexadecimal digits, the server's own")]
# --- a table and how it was opened -------------------------------------------------------------
Options = Annotated[TableOptions, described("the table options (edition, expansions, wounds)")]
DeadlinesField = Annotated[Deadlines, described("seconds allowed for each kind of wait")]
DealField = Annotated[
    Deal, described("a scenario table's chosen deal (secret until the end: absent before)")
]
FirstSeat = Annotated[int, described("the seat that plays the first turn (from 0)")]
ChatPerSeat = Annotated[
    int, described("how many chat messages each seat may post at this table (null: 200)")
]
Bots = Annotated[
    HouseBots, described("the seats the house plays, and how (the sandbox); null: none")
]
RematchOf = Annotated[str, described("the finished table this one plays again (its table id)")]
Held = Annotated[
    tuple[int, ...],
    described("seats kept for named players (invited ones, or a rematch's) until they come"),
]
Rated = Annotated[
    bool,
    described(
        "a rated table: only registered players (and the house's bots) take its seats, and its"
        " result moves their ratings; leaving it counts as a loss"
    ),
]
ClosedReason = Annotated[
    str, described("why: not_started, the table waited for players longer than the server allows")
]
ChatText = Annotated[str, described("what the seat said")]
Enabled = Annotated[bool, described("auto-pass is now on (true) or off (false)")]

# --- the deal, secret until the end -------------------------------------------------------------
Identities = Annotated[
    tuple[IntegrityName, ...], described("each integrity card by its id: the card's name")
]
Hands = Annotated[
    tuple[tuple[int, ...], ...],
    described("per seat (from 0), the ids of its integrity cards by position (1 to 3)"),
]
Burned = Annotated[tuple[int, ...], described("the ids of the integrity cards left out unseen")]
EquipmentHands = Annotated[
    tuple[tuple[EquipmentName, ...], ...], described("per seat (from 0), its equipment hand")
]
Deck = Annotated[tuple[EquipmentName, ...], described("the equipment deck, top first")]
CardIds = Annotated[
    tuple[int, ...], described("the integrity cards' ids, in the order of positions")
]

# --- turns, actions, windows, prompts -----------------------------------------------------------
StepField = Annotated[
    Step, described("the order of play from this turn: 1 clockwise (up the seat numbers), -1 not")
]
Action = Annotated[ActionName, described("the action declared (RULES §3.1; bite: §8)")]
CancelReasonField = Annotated[
    CancelReason,
    described(
        "impossible: the action can no longer resolve; reconsider: the shooter may choose again"
        " (RULES §6)"
    ),
]
Stands = Annotated[
    bool,
    described(
        "the shot (or bite) declared before a reconsider stands and resolves at once, without a"
        " new window (its shooter let the deadline pass, RULES §6)"
    ),
]
Window = Annotated[
    WindowKind, described("the reaction window: what it follows (RULES §6; bite: §8)")
]
Asked = Annotated[
    tuple[int, ...], described("the seats asked to react in the window, in the order asked")
]
Auto = Annotated[bool, described("the window's deadline passed: the seat passed by default")]
Prompt = Annotated[
    PromptKind,
    described("what asks: the equipment card whose rules ask the seat, or discard (hand limit)"),
]
PromptOptions = Annotated[
    tuple[int, ...], described("the values the prompt allows: seats or positions, by its kind")
]
About = Annotated[int, described("the seat the prompt is about (its card's player or target)")]

# --- guns, shots, wounds ------------------------------------------------------------------------
Locked = Annotated[bool, described("the gun may not shoot this turn (Taser)")]
Barred = Annotated[
    bool, described("classic K-9 Unit on the turn's seat: it may not take a gun this turn")
]
Shooter = Annotated[int, described("the seat that shoots (from 0)")]
Biter = Annotated[int, described("the zombie that bites (RULES §8)")]
Forced = Annotated[
    bool,
    described(
        "a card (Restraining Order, Riot Shield...) sets the shot's or bite's target, whatever"
        " the gun aims at"
    ),
]
By = Annotated[int, described("the seat that did it (from 0; null: nobody, or not recorded)")]
FromSeat = Annotated[int, described("the seat it comes from (from 0; null: the centre)")]
ToSeat = Annotated[int, described("the seat it goes to (from 0)")]

# --- integrity cards ----------------------------------------------------------------------------
Viewer = Annotated[int, described("the seat that looked at the card (it alone learns it)")]
MeansField = Annotated[Means, described("how the card was looked at (RULES §11)")]
SeatPair = Annotated[tuple[int, int], described("the two seats whose cards swap")]
PositionPair = Annotated[tuple[int, int], described("the two cards' positions, one per seat")]
IntegrityPair = Annotated[
    tuple[IntegrityName, IntegrityName],
    described("the two cards: cards[0] is learned by seats[1], cards[1] by seats[0]"),
]
IntegrityList = Annotated[tuple[IntegrityName, ...], described("integrity cards, by name")]

# --- equipment ----------------------------------------------------------------------------------
PlacedOn = Annotated[int, described("the card stays in play in front of this seat (from 0)")]
MovedInPlay = Annotated[
    bool, described("the card moved from in play (seen by all), not from a hand (seen by two)")
]

# --- the end ------------------------------------------------------------------------------------
WinnerSeats = Annotated[tuple[int, ...], described("the seats that win together (from 0)")]
WinTeam = Annotated[
    Winners, described("the winning team (bomber_traitor: both of them, RULES §9.3a)")
]
WinReasonField = Annotated[WinReason, described("why the game ended (RULES §3.3, §9)")]

# --- a view's log -------------------------------------------------------------------------------
Received = Annotated[
    IntegrityName,
    described("the card this viewer received in the exchange (shown to the two seats only)"),
]
