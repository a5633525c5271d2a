"""Logs written by an older engine fold to the same views ("a log written before the
change folds to the same views after it").

``tests/fixtures/golden`` holds complete tables recorded once (``record.py``): every option, both
editions and wound placements, a scenario deal, a closed lobby, chat, absent seats and the
autopilot. Their events are folded again and every recorded view (each seat's and the public one,
at several points, the full log just before and after the end) must come out byte for byte.
"""

from __future__ import annotations

import gzip
from pathlib import Path

import msgspec
import pytest

from gcbc.rules import evolve, view
from gcbc.rules.log import sees
from gcbc.rules.state import initial_state
from gcbc.rules.teams import team_from
from gcbc_contract import codec
from gcbc_contract import events as E
from tests.fixtures.golden.record import CHAT_LIMIT, LOG_LIMIT, WAIT_STARTED

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures" / "golden"
TABLES = sorted(p.name.removesuffix(".events.json") for p in FIXTURES.glob("*.events.json"))


# Deliberate changes to the views since the recording, each applied to the recorded bytes:
# a prompt held in a transient step shows the turn's action phase (the contract's vocabulary);
# views end with the house's seats (``bots``: none at these tables). And one to the
# logs of the views made with a limit (below); the wait ids (``seen_waits``); an
# eliminated seat's cards in play (``fallen_equipment``); the seed as a string (``wide_seeds``);
# each seat's team and eliminator at the end (``teams_at_the_end``).
AMENDED = [
    (f'"phase":"{step}"'.encode(), b'"phase":"action"')
    for step in ("declared", "resolve", "after_action", "turn_start", "turn_end")
] + [
    # a table closed unstarted: its reason is one of the schema's (WinReason)
    (b'"win_reason":"closed: not_started"', b'"win_reason":"closed_not_started"')
]


def amended(recorded: bytes) -> bytes:
    for old, new in AMENDED:
        recorded = recorded.replace(old, new)
    assert recorded.endswith(b'"seeded":false}') or recorded.endswith(b'"seeded":true}')
    return recorded[:-1] + b',"bots":null}'


def seen_waits(recorded: bytes, events: list, viewer: int | None) -> bytes:
    """A deliberate change since the recording: a wait's id in a view is the viewer's version
    when the wait began (the events before it that the viewer sees), not the engine's count of
    every event (another seat's passes and arrangements included), until the game is over."""
    was = msgspec.json.decode(recorded)
    if was["status"] == "finished":
        return recorded
    if viewer is not None and was["you"] is None:
        viewer = None  # an empty seat's view is the public one

    def seen(wait: int) -> int:
        return sum(1 for e in events[:wait] if sees(e, viewer))

    for w in was["waiting_for"]:
        w["wait"] = seen(w["wait"])
    if was["window"] is not None:
        was["window"]["wait"] = seen(was["window"]["wait"])
    return msgspec.json.encode(was)


def fallen_equipment(recorded: bytes) -> bytes:
    """A deliberate change since the recording (RULES §4, Decision): an eliminated seat's cards in
    play go to the bottom of the deck with its equipment, but Planted Evidence, which stays."""
    was = msgspec.json.decode(recorded)
    gone = 0
    for seat in was["seats"]:
        if seat["eliminated"]:
            stays = [c for c in seat["in_play"] if c == "planted_evidence"]
            gone += len(seat["in_play"]) - len(stays)
            seat["in_play"] = stays
    if not gone:
        return recorded
    was["deck_count"] += gone
    return msgspec.json.encode(was)


def settings_apart(recorded: bytes) -> bytes:
    """A deliberate change since the recording: the seat's settings and presence (auto-pass,
    resume) are listed apart from its moves (``seat_commands``), and a view says whether the
    table waits for its seat (``must_act``: it has a move)."""
    was = msgspec.json.decode(recorded)
    offered = was["legal_commands"]
    was["legal_commands"] = [c for c in offered if c["type"] not in SETTINGS]
    was["seat_commands"] = [c for c in offered if c["type"] in SETTINGS]
    was["must_act"] = bool(was["legal_commands"])
    return msgspec.json.encode(was)


def bots_shown(recorded: bytes) -> bytes:
    """A deliberate change since the recording: each seat says whether a program plays it
    (``bot``: none of the recorded games had one)."""
    was = msgspec.json.decode(recorded)
    for seat in was["seats"]:
        seat["bot"] = False
    return msgspec.json.encode(was)


def teams_at_the_end(recorded: bytes, events: list) -> bytes:
    """A deliberate change since the recording: once the game is over each seat shows its team
    (told by its cards, all face up then) and, eliminated, the seat that eliminated it (its last
    elimination's ``by``); both null before."""
    was = msgspec.json.decode(recorded)
    over = was["status"] == "finished"
    fallen = {e.seat: e.by for e in events if isinstance(e, E.SeatEliminated)}
    for seat in was["seats"]:
        names = [c["card"] for c in seat["cards"]]
        dealt = over and bool(names)
        seat["team"] = team_from(names, seat["in_play"], seat["zombie"]) if dealt else None
        seat["eliminated_by"] = fallen.get(seat["seat"]) if over and seat["eliminated"] else None
    return msgspec.json.encode(was)


def players_shown(recorded: bytes) -> bytes:
    """A deliberate change since the recording: each seat shows the registered player holding it
    (``player``; null at these tables, whose seats no player's token took)."""
    was = msgspec.json.decode(recorded)
    for seat in was["seats"]:
        seat["player"] = None
    return msgspec.json.encode(was)


SETTINGS = ("set_auto_pass", "resume")
OPTIONS = {"edition": "fourth", "zombies": False, "bombers_traitors": False}


def options_whole(recorded: bytes) -> bytes:
    """A deliberate change since the recording (API: ``edition`` defaults to ``fourth``): a
    view's options, and its log's opening, show every one, defaults too (a client reads
    ``options.edition`` as is)."""
    was = msgspec.json.decode(recorded)
    for holder in [was, *(e for e in was["log"] if e.get("type") == "table_opened")]:
        shown = holder["options"]
        holder["options"] = {
            **{k: shown.get(k, v) for k, v in OPTIONS.items()},
            "extra_equipment": shown.get("extra_equipment", False),
            "wounds": shown.get("wounds"),
        }
    return msgspec.json.encode(was)


def wide_seeds(recorded: bytes) -> bytes:
    """A deliberate change since the recording (docs/api.md): a log entry's seed, an integer a
    JavaScript number cannot hold, is a decimal string (the events keep it as an integer)."""
    if b'"random_seed":' not in recorded:
        return recorded
    was = msgspec.json.decode(recorded)
    for entry in was["log"]:
        if isinstance(entry.get("random_seed"), int):
            entry["random_seed"] = str(entry["random_seed"])
    return msgspec.json.encode(was)


class Point(msgspec.Struct):
    events: int
    viewer: int | None
    full: bool


def test_fixtures_found() -> None:
    assert len(TABLES) >= 10


@pytest.mark.parametrize("name", TABLES)
def test_recorded_log_folds_to_the_recorded_views(name: str) -> None:
    events = codec.decode_events((FIXTURES / f"{name}.events.json").read_bytes())
    lines = gzip.decompress((FIXTURES / f"{name}.views.gz").read_bytes()).splitlines()
    s, folded = initial_state(), 0
    for line in lines:
        header, recorded = line.split(b"\t", 1)
        at = msgspec.json.decode(header, type=Point)
        while folded < at.events:
            s = evolve(s, events[folded])
            folded += 1
        limit = None if at.full else LOG_LIMIT
        chat = None if at.full else CHAT_LIMIT
        v = view(s, at.viewer, log_limit=limit, wait_started=WAIT_STARTED, chat_limit=chat)
        recorded = wide_seeds(
            bots_shown(
                settings_apart(fallen_equipment(seen_waits(amended(recorded), events, at.viewer)))
            )
        )
        recorded = players_shown(teams_at_the_end(recorded, events[: at.events]))
        recorded = options_whole(recorded)
        if at.full:
            assert msgspec.json.encode(v) == recorded, f"{name}: {at}"
            continue
        # a deliberate change since the recording: a view's log is the viewer's last LOG_LIMIT
        # entries of its own log (it was its entries among the last LOG_LIMIT events: another
        # seat's private events pushed entries out, so a view changed with them)
        was = msgspec.json.decode(recorded)
        now = msgspec.json.decode(msgspec.json.encode(v))
        whole = view(s, at.viewer, wait_started=WAIT_STARTED, chat_limit=chat)
        mine = msgspec.json.decode(msgspec.json.encode(whole.log))
        assert now.pop("log") == mine[-LOG_LIMIT:], f"{name}: {at}"
        log = was.pop("log")
        assert mine[len(mine) - len(log) :] == log, f"{name}: {at}"  # what it showed, it shows
        assert msgspec.json.encode(now) == msgspec.json.encode(was), f"{name}: {at}"
