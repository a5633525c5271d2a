"""The folded state of one table: plain frozen values, changed only by ``evolve``."""

from __future__ import annotations

from collections.abc import Iterator
from itertools import islice
from typing import Any, Literal

from msgspec import Struct, field

from gcbc_contract.options import Deadlines, Deal, HouseBots, TableOptions
from gcbc_contract.vocabulary import ActionName, WindowKind

# Steps. Stable steps wait for someone; transient steps are left at once by ``flow.advance``.
Step = Literal[
    "lobby",
    "arrange",
    "action",
    "window",
    "aim",
    "finished",
    "declared",
    "resolve",
    "after_action",
    "turn_start",
    "turn_end",
]
LOBBY: Step = "lobby"
ARRANGE: Step = "arrange"
ACTION: Step = "action"
WINDOW: Step = "window"
AIM: Step = "aim"
FINISHED: Step = "finished"
DECLARED: Step = "declared"  # transient: an action was declared
RESOLVE: Step = "resolve"  # transient: the declared action resolves
AFTER_ACTION: Step = "after_action"  # transient
TURN_START: Step = "turn_start"  # transient
TURN_END: Step = "turn_end"  # transient
STABLE_STEPS = frozenset({LOBBY, ARRANGE, ACTION, WINDOW, AIM, FINISHED})


class Trail(Struct, gc=False):
    """An append-only sequence that states share: appending is O(1) and never changes older states.

    Each state sees the first ``_n`` items of a list that later states may extend. A struct
    without garbage collection (its items, events and chat lines, hold no cycles): one is made
    for every event folded. (The rules worker's snapshots hold no event log, and the chat as
    the seat of each line: ``services.common.snapshots``.)
    """

    _items: list = field(default_factory=list)
    _n: int = 0

    def append(self, item: object) -> Trail:
        items, n = self._items, self._n
        if len(items) != n:  # a branch: an older state is being extended
            items = items[:n]
        items.append(item)
        return Trail(items, n + 1)

    def __len__(self) -> int:
        return self._n

    def __iter__(self):  # noqa: ANN204
        return iter(self._items[: self._n])

    def __getitem__(self, index):  # noqa: ANN001, ANN204
        return self._items[: self._n][index]

    def tail(self, count: int) -> list:
        return self._items[max(0, self._n - count) : self._n]

    def since(self, start: int) -> list:
        """The items from ``start`` on."""
        return self._items[start : self._n]

    def newest_first(self) -> Iterator[Any]:
        """The items, the last one first (no copy: a reader often wants only the last few)."""
        items = self._items
        return islice(reversed(items), len(items) - self._n, None)

    def extends(self, items: list | None) -> bool:
        """Whether this trail is an extension of the one that shares ``items`` (``items_of``): the
        items a reader saw of it are still this one's first ones (a branch copies its list)."""
        return self._items is items

    def items_of(self) -> list:
        """What identifies this trail's line of extensions (``extends``)."""
        return self._items

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Trail):
            return NotImplemented
        return self._n == other._n and self._items[: self._n] == other._items[: other._n]

    def __repr__(self) -> str:
        return f"Trail({self._n} items)"


HOUSE_BOT = "House bot"  # the house's seats are named this and their number; nobody else is


def house_bot_name(seat: int) -> str:
    return f"{HOUSE_BOT} {seat}"


class Seat(Struct, frozen=True, gc=False):
    name: str
    cards: tuple[int, ...] = ()  # integrity card ids, by position (index 0 = position 1)
    face_up: tuple[bool, ...] = (False, False, False)
    hand: tuple[str, ...] = ()  # equipment in hand
    in_play: tuple[str, ...] = ()  # equipment in play in front of the seat
    gun: bool = False
    aim: int | None = None
    eliminated: bool = False
    arranged: bool = False
    auto_pass: bool = False
    missed: int = 0  # deadlines missed in a row
    absent: bool = False
    wounded: bool = False  # wounds "card": the seat holds the Wounded card (RULES §4)
    zombie: bool = False  # RULES §8
    arms_aim: int | None = None  # a zombie's Arms: where they aim (itself: it cannot bite)
    fallen_by: int | None = None  # who eliminated it (itself, another seat; None: no one)
    bot: bool = False  # its player said a program plays it


class Window(Struct, frozen=True, gc=False):
    kind: WindowKind
    asked: tuple[int, ...]  # public: every holder asked at (re)opening
    pending: tuple[int, ...]  # who still has to answer, in seat order
    since: int  # version at (re)opening: the wait id
    plays: int = 0
    reask: bool = False
    # the cards investigations viewed since holders were last asked: this asking comes "right
    # after" them, the one moment a classic Surveillance Camera answers them (RULES §7.2)
    after_investigation: tuple[int, ...] = ()


class Declared(Struct, frozen=True, gc=False):
    action: ActionName
    target: int | None = None
    position: int | None = None
    forced_target: int | None = None  # a forced shot or bite (Restraining Order, Riot Shield…)
    reacted: bool = False  # equipment was played in its window
    drawn: bool = False  # Equip: the card has been drawn


class Prompt(Struct, frozen=True, gc=False):
    seat: int
    kind: str
    options: tuple[int, ...] = ()
    about: int | None = None
    since: int = 0


class Setup(Struct, frozen=True, gc=False):
    """What the table was opened with, and its game dealt: set once (TableOpened, GameStarted,
    CardsDealt), apart from the state that every event copies."""

    table_id: str = ""
    seat_count: int = 0
    options: TableOptions = TableOptions()
    deadlines: Deadlines = Deadlines()
    deal: Deal | None = None
    first_seat_choice: int | None = None
    requested_seed: int | None = None
    chat_per_seat: int | None = None
    house_bots: HouseBots | None = None  # seats the house plays (the sandbox)
    rematch_of: str | None = None
    rated: bool = False  # only registered players take its seats; its result moves ratings
    # the game
    random_seed: int = 0
    identities: tuple[str, ...] = ()  # true identity of each integrity card id (rules only)
    leader_ids: tuple[int, int] = (-1, -1)  # the Agent's and the Kingpin's card ids (rules only)
    burned: tuple[int, ...] = ()


class TurnMarks(Struct, frozen=True, gc=False):
    """What the turn's actions and cards leave to remember until the next turn begins (a new
    turn starts with none but its direction), apart from the state every event copies."""

    direction: int = 1
    reverse_pending: bool = False
    coffee_seat: int | None = None
    arm_barred: int | None = None  # may not take a gun this turn (classic K-9 Unit)
    reaim_from: int | None = None  # hit by the turn's bite or shot at a zombie: aim elsewhere (§8)
    turn_fell: bool = False  # the turn's seat was eliminated in its own turn
    standing: Declared | None = None  # the shot or bite reconsidered: it stands if time runs out


class Outcome(Struct, frozen=True, gc=False):
    """How the game ended (set once)."""

    winners: tuple[int, ...] | None = None
    win_team: str | None = None
    win_reason: str | None = None


class State(Struct, frozen=True, gc=False):
    version: int = 0
    step: Step = LOBBY
    setup: Setup = Setup()  # the table's setup (read through the properties of its names below)
    # seats kept for named players (invited ones, or the last game's): only they take them
    reserved: frozenset[int] = frozenset()
    seats: tuple[Seat | None, ...] = ()  # None: empty seat in the lobby
    # the game
    rng_draws: int = 0
    wounds: frozenset[int] = frozenset()  # card ids carrying a Wounded token (fourth edition)
    discarded: tuple[int, ...] = ()  # integrity cards out of the game (classic Defibrillator)
    deck: tuple[str, ...] = ()  # equipment deck, top first
    guns_in_centre: int = 0
    arms_in_centre: int = 0  # RULES §8: N-2 Arms with the Zombies expansion
    # knowledge (RULES §11): assembled from events, never derived from the true identities
    knowledge: tuple[dict[int, str], ...] = ()  # seat -> card id -> identity it learned
    public_cards: dict[int, str] = field(default_factory=dict)  # face-up / revealed to all
    seen: dict[int, tuple[tuple[int, str], ...]] = field(
        default_factory=dict
    )  # card -> (seat, means)
    # turn
    turn_seat: int = -1
    turn_number: int = 0
    marks: TurnMarks = TurnMarks()  # (read through the properties of its names below)
    guns_locked: frozenset[int] = frozenset()  # seats whose gun may not shoot this turn
    investigated: tuple[int, ...] = ()  # card ids viewed by an investigation since holders
    # were last asked (RULES §7.2: the next asking, ``Window.after_investigation``, answers them)
    alarms: tuple[tuple[int, int, int], ...] = ()  # Alarm Clock: (seat, turn it was set, set by)
    turn_since: int = 0
    declared: Declared | None = None
    window: Window | None = None
    prompts: tuple[Prompt, ...] = ()
    aim_since: int = 0
    arrange_since: int = 0
    outcome: Outcome = Outcome()  # the end (read through the properties of its names below)
    chat: Trail = field(default_factory=lambda: Trail())  # (seat, text)
    log: Trail = field(default_factory=lambda: Trail())  # every event folded, rendered per viewer
    unseen: tuple[int, ...] = ()  # per seat, then the public: events it never sees (log.PRIVATE)

    # the table's setup by name (``setup``: a struct of its own, so that the ~700 states a game
    # folds copy 14 fields less each; so are ``marks`` and ``outcome``, 10 fields)
    @property
    def table_id(self) -> str:
        return self.setup.table_id

    @property
    def seat_count(self) -> int:
        return self.setup.seat_count

    @property
    def options(self) -> TableOptions:
        return self.setup.options

    @property
    def deadlines(self) -> Deadlines:
        return self.setup.deadlines

    @property
    def deal(self) -> Deal | None:
        return self.setup.deal

    @property
    def first_seat_choice(self) -> int | None:
        return self.setup.first_seat_choice

    @property
    def requested_seed(self) -> int | None:
        return self.setup.requested_seed

    @property
    def chat_per_seat(self) -> int | None:
        return self.setup.chat_per_seat

    @property
    def house_bots(self) -> HouseBots | None:
        return self.setup.house_bots

    @property
    def rematch_of(self) -> str | None:
        return self.setup.rematch_of

    @property
    def rated(self) -> bool:
        return self.setup.rated

    @property
    def random_seed(self) -> int:
        return self.setup.random_seed

    @property
    def identities(self) -> tuple[str, ...]:
        return self.setup.identities

    @property
    def leader_ids(self) -> tuple[int, int]:
        return self.setup.leader_ids

    @property
    def burned(self) -> tuple[int, ...]:
        return self.setup.burned

    # the turn's marks and the outcome by name (structs of their own: seldom changed)
    @property
    def direction(self) -> int:
        return self.marks.direction

    @property
    def reverse_pending(self) -> bool:
        return self.marks.reverse_pending

    @property
    def coffee_seat(self) -> int | None:
        return self.marks.coffee_seat

    @property
    def arm_barred(self) -> int | None:
        return self.marks.arm_barred

    @property
    def reaim_from(self) -> int | None:
        return self.marks.reaim_from

    @property
    def turn_fell(self) -> bool:
        return self.marks.turn_fell

    @property
    def standing(self) -> Declared | None:
        return self.marks.standing

    @property
    def winners(self) -> tuple[int, ...] | None:
        return self.outcome.winners

    @property
    def win_team(self) -> str | None:
        return self.outcome.win_team

    @property
    def win_reason(self) -> str | None:
        return self.outcome.win_reason

    def seat(self, i: int) -> Seat:
        s = self.seats[i]
        assert s is not None
        return s


def initial_state() -> State:
    return State()


def is_terminal(state: State) -> bool:
    return state.step == FINISHED
