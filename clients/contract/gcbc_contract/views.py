"""A view (docs/api.md "Views"): what one seat, or a spectator, may know of a table. Hidden values
are null. Produced only by ``gcbc.rules.views``."""

from __future__ import annotations

from typing import Annotated, Any

import msgspec

from gcbc_contract.commands import LegalCommand, SeatCommand
from gcbc_contract.fields import (
    About,
    Action,
    Bots,
    EquipmentName,
    Forced,
    IntegrityName,
    Locked,
    Options,
    Position,
    Prompt,
    Seat,
    TableId,
    Target,
    WaitId,
    Window,
    WinReasonField,
    WinTeam,
    described,
)
from gcbc_contract.log import AnyLogEntry
from gcbc_contract.vocabulary import Direction, Phase, SeenBy, Status, Team, WaitKind

Wounded = Annotated[bool, described("the seat (or this card) carries a wound (RULES §4)")]


class Waiting(msgspec.Struct, frozen=True, omit_defaults=True):
    """The table waits for ``seat``: for what, since which version, until when."""

    seat: Annotated[int, described("the seat the table waits for (from 0)")]
    reason: Annotated[
        WaitKind,
        described(
            "what it waits for: arrange (the cards' order), turn (an action), aim (where a gun"
            " points), reaction (a window's answer), prompt (an answer to a card's question)"
        ),
    ]
    wait: WaitId
    seconds: Annotated[float, described("how long the wait lasts, in seconds")]
    deadline: Annotated[
        str | None,
        described("when the wait ends (ISO 8601 time); then the autopilot acts (RULES §10)"),
    ] = None
    prompt: Annotated[Prompt | None, described("for a prompt: what asks (as prompt.kind)")] = None


class Seen(msgspec.Struct, frozen=True):
    """One seat that has looked at a card, and how."""

    seat: Annotated[int, described("the seat that looked (from 0)")]
    by: Annotated[
        SeenBy, described("how: the action or card it used, or held (it gave the card away)")
    ]


class CardView(msgspec.Struct, frozen=True):
    """One integrity card in front of a seat."""

    position: Position
    face_up: Annotated[bool, described("turned face up: everyone knows it")]
    card: Annotated[
        IntegrityName | None,
        described(
            "the card's name when this viewer may know it (its own, face up, or seen and not"
            " hidden since); null otherwise"
        ),
    ]
    seen_by: Annotated[list[int], described("the seats that have looked at it (from 0)")]
    seen: Annotated[list[Seen], described("who has looked at it, and how")]
    wounded: Annotated[bool, described("a wound lies on this card (RULES §4, wounds: token)")] = (
        False
    )


class GunView(msgspec.Struct, frozen=True):
    """A seat's gun."""

    aimed_at: Annotated[int | None, described("the seat the gun aims at (from 0); null: none yet")]
    locked: Locked = False


class ArmsView(msgspec.Struct, frozen=True):
    """A zombie's Arms (RULES §8): aimed at itself, it cannot bite."""

    aimed_at: Annotated[
        int | None, described("the seat the Arms aim at (from 0; itself: it cannot bite)")
    ]


class SeatView(msgspec.Struct, frozen=True):
    """One seat as this viewer sees it."""

    seat: Seat
    name: Annotated[str | None, described("its player's name; null: the seat is free")]
    eliminated: Annotated[bool, described("out of the game (RULES §3.3)")]
    wounded: Wounded
    zombie: Annotated[bool, described("the seat plays as a zombie (RULES §8)")]
    gun: Annotated[GunView | None, described("its gun; null: it holds none")]
    equipment_count: Annotated[int, described("how many equipment cards it holds in hand")]
    in_play: Annotated[
        list[EquipmentName], described("equipment cards in play in front of it, by name")
    ]
    cards: Annotated[list[CardView], described("its integrity cards, by position 1 to 3")]
    absent: Annotated[bool, described("the autopilot plays it until it resumes (RULES §10)")] = (
        False
    )
    arms: Annotated[ArmsView | None, described("a zombie's Arms (RULES §8); null: none")] = None
    bot: Annotated[
        bool, described("a program plays it: its player said so when taking it, or the house")
    ] = False
    team: Annotated[
        Team | None,
        described(
            "once the game is over, its team as the rules decide it (RULES §2, §8, §9);"
            " null before, and at a table closed before its deal"
        ),
    ] = None
    eliminated_by: Annotated[
        int | None,
        described(
            "once the game is over, for a seat eliminated then: the seat that eliminated it (from"
            " 0; itself: it fell by its own hand); null before, for a seat in the game, or when no"
            " seat did"
        ),
    ] = None
    player: Annotated[
        str | None,
        described(
            "the registered player holding it (its public profile: GET /players/{player_id});"
            " null: the seat is free or taken without a player's token"
        ),
    ] = None


class You(msgspec.Struct, frozen=True):
    """The viewer's own seat."""

    seat: Annotated[int, described("your seat (from 0)")]
    team: Annotated[Team | None, described("your team; null until you know it (RULES §2, §8, §9)")]
    hand: Annotated[list[EquipmentName], described("the equipment cards in your hand, by name")]
    auto_pass: Annotated[bool, described("you pass reaction windows automatically")] = False


class WindowView(msgspec.Struct, frozen=True):
    """An open reaction window (RULES §6)."""

    kind: Window
    asked: Annotated[list[int], described("the seats asked to react (from 0)")]
    wait: WaitId


class PromptView(msgspec.Struct, frozen=True):
    """An open prompt: a card's question to one seat, answered with ``choose``."""

    seat: Annotated[int, described("the seat asked (from 0)")]
    kind: Prompt
    options: Annotated[
        list[int], described("the values it allows: seats or positions, by its kind")
    ]
    about: About | None = None


class DeclaredView(msgspec.Struct, frozen=True):
    """The action declared, awaiting its window before it resolves."""

    seat: Annotated[int, described("the seat that declared it (from 0)")]
    action: Action
    target: Target | None = None
    position: Position | None = None
    forced: Forced = False


class AlarmView(msgspec.Struct, frozen=True):
    """A pending Alarm Clock (RULES §8.1), public: it rings at the end of ``seat``'s next turn
    after ``turn``, the turn it was set in, by ``set_by``."""

    seat: Annotated[int, described("the seat at whose next turn's end it rings (from 0)")]
    set_by: Annotated[int, described("the seat that played the Alarm Clock (from 0)")]
    turn: Annotated[int, described("the turn it was set in")]


class View(msgspec.Struct, frozen=True):
    """What one seat (or a spectator) may know of a table now; what it may not know is null."""

    table_id: TableId
    version: Annotated[
        int,
        described(
            "how many events this viewer can see: it moves only with what the viewer sees (a long"
            " poll's after, a stream's event id)"
        ),
    ]
    status: Annotated[Status, described("waiting for players, playing, or finished")]
    phase: Annotated[
        Phase,
        described(
            "where the game is: lobby, arrange (cards' order, RULES §1), action (a turn), reaction"
            " (a window is open), aim (a gun to point), finished"
        ),
    ]
    options: Options
    turn: Annotated[int | None, described("the seat whose turn it is (from 0); null: no turn")]
    turn_number: Annotated[int, described("which turn it is, counted from 1 (0: not started)")]
    direction: Annotated[Direction, described("the order of play round the table")]
    waiting_for: Annotated[
        list[Waiting], described("who the table waits for, why and until when (RULES §10)")
    ]
    window: Annotated[WindowView | None, described("the open reaction window; null: none")]
    prompt: Annotated[PromptView | None, described("the open prompt; null: none")]
    declared: Annotated[
        DeclaredView | None, described("the action declared, awaiting its window; null: none")
    ]
    you: Annotated[You | None, described("your own seat; null for a spectator")]
    seats: Annotated[list[SeatView], described("every seat, in seat order (from 0)")]
    guns_in_centre: Annotated[int, described("guns lying in the centre of the table")]
    deck_count: Annotated[int, described("equipment cards left in the deck")]
    # the game's moves open to this seat now, each ready to send (a template: fill its ``choose``)
    legal_commands: Annotated[
        list[LegalCommand],
        described(
            "the game's moves open to your seat now, each a command ready to send as it is (or a"
            " template with choose to fill)"
        ),
    ]
    log: Annotated[
        list[AnyLogEntry],
        described("the table's last events as this viewer may see them, oldest first"),
    ]
    chat: Annotated[
        list[dict[str, Any]], described("the last chat messages, oldest first: seat and text")
    ]
    winners: Annotated[
        list[int] | None, described("once finished: the winning seats (from 0); null before")
    ]
    win_team: WinTeam | None = None
    win_reason: WinReasonField | None = None
    alarms: Annotated[
        list[AlarmView], described("pending Alarm Clocks (extra equipment), oldest first")
    ] = []
    arms_in_centre: Annotated[int, described("zombie Arms lying in the centre (RULES §8)")] = 0
    seeded: Annotated[
        bool,
        described(
            "a scenario table: its creator chose the seed or the deal, so its cards may be known"
        ),
    ] = False
    bots: Bots | None = None
    seat_commands: Annotated[
        list[SeatCommand],
        described("your seat's settings and presence (set_auto_pass, resume), always open"),
    ] = []
    must_act: Annotated[
        bool,
        described(
            "the table waits for your seat: send one of legal_commands (a pass counts) before"
            " its deadline"
        ),
    ] = False
