"""A view (docs/api.md "Views"): what one seat, or a spectator, may know of a table. Hidden values
are null. Produced only by ``gcbc.rules.views``."""

from __future__ import annotations

from typing import Any

import msgspec

from gcbc_contract.commands import LegalCommand, SeatCommand
from gcbc_contract.log import AnyLogEntry
from gcbc_contract.options import HouseBots, TableOptions
from gcbc_contract.vocabulary import (
    ActionName,
    Direction,
    Phase,
    SeenBy,
    Status,
    Team,
    WaitKind,
    WindowKind,
    Winners,
)


class Waiting(msgspec.Struct, frozen=True, omit_defaults=True):
    seat: int
    reason: WaitKind
    wait: int  # the wait's id: the viewer's version when it began (moves only with what it sees)
    seconds: float  # how long the wait lasts
    deadline: str | None = None  # ISO time, filled in by a service that knows the clock
    prompt: str | None = None


class Seen(msgspec.Struct, frozen=True):
    seat: int
    by: SeenBy


class CardView(msgspec.Struct, frozen=True):
    position: int
    face_up: bool
    card: str | None
    seen_by: list[int]
    seen: list[Seen]
    wounded: bool = False


class GunView(msgspec.Struct, frozen=True):
    aimed_at: int | None
    locked: bool = False


class ArmsView(msgspec.Struct, frozen=True):
    """A zombie's Arms (RULES §8): aimed at itself, it cannot bite."""

    aimed_at: int | None


class SeatView(msgspec.Struct, frozen=True):
    seat: int
    name: str | None
    eliminated: bool
    wounded: bool
    zombie: bool
    gun: GunView | None
    equipment_count: int
    in_play: list[str]
    cards: list[CardView]
    absent: bool = False
    arms: ArmsView | None = None
    # a program plays it: its player said so when taking it, or the house plays it
    bot: bool = False


class You(msgspec.Struct, frozen=True):
    seat: int
    team: Team | None  # None: not known to the seat yet (RULES §2, §8, §9)
    hand: list[str]
    auto_pass: bool = False


class WindowView(msgspec.Struct, frozen=True):
    kind: WindowKind
    asked: list[int]
    wait: int  # the window's wait id, as ``Waiting.wait``


class PromptView(msgspec.Struct, frozen=True):
    seat: int
    kind: str
    options: list[int]
    about: int | None = None


class DeclaredView(msgspec.Struct, frozen=True):
    seat: int
    action: ActionName
    target: int | None = None
    position: int | None = None
    forced: bool = False


class AlarmView(msgspec.Struct, frozen=True):
    """A pending Alarm Clock (RULES §8.1), public: it rings at the end of ``seat``'s next turn
    after ``turn``, the turn it was set in, by ``set_by``."""

    seat: int
    set_by: int
    turn: int


class View(msgspec.Struct, frozen=True):
    table_id: str
    version: int
    status: Status
    phase: Phase
    options: TableOptions
    turn: int | None  # the seat whose turn it is
    turn_number: int
    direction: Direction
    waiting_for: list[Waiting]
    window: WindowView | None
    prompt: PromptView | None
    declared: DeclaredView | None
    you: You | None
    seats: list[SeatView]
    guns_in_centre: int
    deck_count: int
    # the game's moves open to this seat now, each ready to send (a template: fill its ``choose``)
    legal_commands: list[LegalCommand]
    log: list[AnyLogEntry]  # each event as this viewer may see it (``gcbc_contract.log``)
    chat: list[dict[str, Any]]
    winners: list[int] | None
    win_team: Winners | None = None
    win_reason: str | None = None
    alarms: list[AlarmView] = []  # pending Alarm Clocks (extra equipment), oldest first
    arms_in_centre: int = 0
    # the deal was chosen, not drawn from the server's secret entropy: a scenario table whose
    # creator chose the seed or the deal (only where GCBC_ALLOW_SCENARIOS=1); its cards may be known
    seeded: bool = False
    # the seats the house plays, and how (the sandbox: POST /tables ``bots``); None: no house bots
    bots: HouseBots | None = None
    # this seat's settings and presence (auto-pass, resume), open whether or not it must act
    seat_commands: list[SeatCommand] = []
    # the table waits for this seat: one of ``legal_commands`` (a pass counts) before its deadline
    must_act: bool = False
