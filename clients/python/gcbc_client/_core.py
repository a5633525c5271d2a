"""What the sync and async clients share: how each request is built and each answer read."""

from __future__ import annotations

import uuid
from typing import Any

import msgspec

from gcbc.contract.http import (
    CLIENT_COMMANDS,
    History,
    LobbyListing,
    Position,
    Rematch,
    SeatGranted,
    SeatLater,
    TableCreated,
    TableCreatedLater,
)
from gcbc.contract.options import Deadlines, Deal, HouseBots, TableOptions
from gcbc.contract.views import View
from gcbc_client.problems import raise_for

RETRIES = 5  # attempts of a command whose outcome is unknown (same command_id every time)
RETRY_WAIT = 0.5  # seconds between them when the server names none

view_decoder = msgspec.json.Decoder(View)
_created = {201: msgspec.json.Decoder(TableCreated), 202: msgspec.json.Decoder(TableCreatedLater)}
listings_decoder = msgspec.json.Decoder(list[LobbyListing])
rematch_decoder = msgspec.json.Decoder(Rematch)
_seat = {201: msgspec.json.Decoder(SeatGranted), 202: msgspec.json.Decoder(SeatLater)}
position_decoder = msgspec.json.Decoder(Position)
history_decoder = msgspec.json.Decoder(History)
_encode = msgspec.json.Encoder().encode
_tags = {c.__struct_config__.tag: c for c in CLIENT_COMMANDS.values()}


def create_body(
    seats: int,
    options: TableOptions | dict | None,
    deadlines: Deadlines | dict | None,
    seed: int | None,
    deal: Deal | dict | None,
    first_seat: int | None,
    bots: HouseBots | dict | None = None,
) -> bytes:
    body: dict[str, Any] = {"seats": seats}
    for name, value in (
        ("options", options),
        ("deadlines", deadlines),
        ("seed", seed),
        ("deal", deal),
        ("first_seat", first_seat),
        ("bots", bots),
    ):
        if value is not None:
            body[name] = msgspec.to_builtins(value)
    return _encode(body)


def command_body(command: Any, command_id: str | None) -> tuple[bytes, str]:
    """A command (a client command Struct, or a dict as `legal_commands` lists them) with a
    command_id (a new one unless given): retries of it record nothing new."""
    data = dict(command) if isinstance(command, dict) else msgspec.to_builtins(command)
    if data.get("type") not in _tags:
        raise ValueError(f"not a command type: {data.get('type')!r}")
    data["command_id"] = command_id or data.get("command_id") or uuid.uuid4().hex[:20]
    return _encode(data), data["command_id"]


def created(status: int, body: bytes) -> TableCreated:
    """201: the table; 202: recorded, the table will be there (``position`` says where)."""
    return _created[status].decode(body)


def seat_taken(status: int, body: bytes) -> SeatGranted | SeatLater:
    return _seat[status].decode(body)


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def check(status: int, body: bytes, headers: Any) -> None:
    if status >= 400:
        raise_for(status, body, headers.get("retry-after"))


def retry_after(headers: Any) -> float:
    value = headers.get("retry-after", "")
    return float(value) if value.replace(".", "", 1).isdigit() else RETRY_WAIT


def next_page(headers: Any) -> str | None:
    """The URL of the next lobby page (RFC 8288 Link rel="next"), if any."""
    link = headers.get("link", "")
    for part in link.split(","):
        if 'rel="next"' in part and "<" in part:
            return part[part.index("<") + 1 : part.index(">")]
    return None


def sse_events(lines: Any) -> Any:
    """(id, data) of each Server-Sent Event in an iterable of lines."""
    event_id, data = None, []
    for line in lines:
        if line == "":
            if data:
                yield event_id, "\n".join(data)
            event_id, data = None, []
        elif line.startswith("id:"):
            event_id = line[3:].strip()
        elif line.startswith("data:"):
            data.append(line[5:].lstrip())
