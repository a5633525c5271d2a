"""What the sync and async clients share: how each request is built and each answer read."""

from __future__ import annotations

import random
import uuid
from collections.abc import AsyncIterable, AsyncIterator, Callable, Iterable, Iterator, Sequence
from typing import Any

import msgspec

from gcbc_client.problems import ApiProblem, RateLimited, ServerError, Unavailable, raise_for
from gcbc_contract import commands as C
from gcbc_contract.commands import CLIENT_COMMANDS
from gcbc_contract.http import (
    History,
    LobbyEvent,
    LobbyListing,
    Position,
    Rematch,
    SeatGranted,
    SeatLater,
    TableCreated,
    TableCreatedLater,
)
from gcbc_contract.options import Deadlines, Deal, HouseBots, TableOptions
from gcbc_contract.views import View

RETRIES = 6  # attempts of a command whose outcome is unknown (same command_id every time)
RETRY_WAIT = 0.5  # seconds: the first pause's ceiling, doubling with each failure in a row
RETRY_MAX = 60.0  # seconds: the ceiling's most
SEAT_WAIT = 60.0  # seconds a seat recorded but not answered yet is looked for
# the problems that leave a request's outcome unknown, beside a dropped connection (a 500 too:
# its detail says to send it again); those that refuse a stream for a while (opened again later)
UNKNOWN = (Unavailable, ServerError)
DROPS = (Unavailable, RateLimited)

view_decoder = msgspec.json.Decoder(View)
_created = {201: msgspec.json.Decoder(TableCreated), 202: msgspec.json.Decoder(TableCreatedLater)}
listings_decoder = msgspec.json.Decoder(list[LobbyListing])
lobby_event_decoder = msgspec.json.Decoder(LobbyEvent)
rematch_decoder = msgspec.json.Decoder(Rematch)
_seat = {201: msgspec.json.Decoder(SeatGranted), 202: msgspec.json.Decoder(SeatLater)}
position_decoder = msgspec.json.Decoder(Position)
history_decoder = msgspec.json.Decoder(History)
encode = msgspec.json.Encoder().encode
JSON = {"content-type": "application/json"}
_tags = {c.__struct_config__.tag: c for c in CLIENT_COMMANDS.values()}


def create_body(
    seats: int,
    options: TableOptions | dict | None,
    deadlines: Deadlines | dict | None,
    seed: int | str | None,  # a string holds any seed (docs/api.md); an integer too
    deal: Deal | dict | None,
    first_seat: int | None,
    bots: HouseBots | dict | None = None,
    invitations: int = 0,
    rated: bool = False,
) -> bytes:
    body: dict[str, Any] = {"seats": seats}
    if invitations:
        body["invitations"] = invitations
    if rated:
        body["rated"] = True
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
    return encode(body)


def seat_body(name: str, bot: bool, invitation: str | None) -> dict[str, Any]:
    body: dict[str, Any] = {"name": name}
    if bot:
        body["bot"] = True
    if invitation is not None:
        body["invitation"] = invitation
    return body


def command_body(command: Any, command_id: str | None) -> tuple[bytes, str]:
    """A command (a client command Struct, or a dict as `legal_commands` lists them) with a
    command_id (a new one unless given): retries of it record nothing new."""
    data = dict(command) if isinstance(command, dict) else msgspec.to_builtins(command)
    if data.get("type") not in _tags:
        raise ValueError(f"not a command type: {data.get('type')!r}")
    if "choose" in data:
        raise ValueError("a template: fill its `choose` (one value each) before sending it")
    data["command_id"] = command_id or data.get("command_id") or uuid.uuid4().hex[:20]
    return encode(data), data["command_id"]


def created(status: int, body: bytes) -> TableCreated:
    """201: the table; 202: recorded, the table will be there (``position``: an opaque name of
    the entry, not a place in the log)."""
    return _created[status].decode(body)


def view_or_position(status: int, body: bytes, views: Any = view_decoder) -> View | Position:
    """A command's answer: the view once it shows the outcome (200), else the position (202)."""
    if status == 202:
        return position_decoder.decode(body)
    return views.decode(body)  # type: ignore[no-any-return]


def seat_taken(status: int, body: bytes) -> SeatGranted | SeatLater:
    return _seat[status].decode(body)


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def check(status: int, body: bytes, headers: Any) -> None:
    if status >= 400:
        raise_for(status, body, headers.get("retry-after"))


def backoff(failures: int, error: BaseException | None = None) -> float:
    """Seconds before asking again after ``failures`` failures in a row: drawn below a ceiling
    that doubles from ``RETRY_WAIT`` to ``RETRY_MAX`` (so that clients dropped together do not
    come back together), and never before the server's Retry-After."""
    ceiling = min(RETRY_MAX, RETRY_WAIT * 2**failures)
    pause = random.uniform(ceiling / 2, ceiling)
    told = error.retry_after if isinstance(error, ApiProblem) else None
    return max(pause, told or 0.0)


def long_poll(after: int | None, timeout: float) -> str:
    """The query of a read answered once its version is past ``after`` (or after ``timeout``)."""
    return "" if after is None else f"?after={after}&timeout={timeout}"


def seat_of(view: View) -> int:
    """The seat a view is for (-1: none, a spectator's)."""
    return view.you.seat if view.you is not None else -1


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


class _Events:
    """Server-Sent Events read line by line (comments, such as keep-alives, are skipped)."""

    def __init__(self) -> None:
        self.event_id: str | None = None
        self.kind = "message"
        self.data: list[str] = []

    def feed(self, line: str) -> tuple[str | None, str] | None:
        """(id, data) once ``line`` ends an event; ``END`` for the stream's ``end`` event."""
        if line == "":
            got = (self.event_id, "\n".join(self.data)) if self.data else None
            if got is not None and self.kind == "end":
                got = END
            self.event_id, self.kind, self.data = None, "message", []
            return got
        if line.startswith("id:"):
            self.event_id = line[3:].strip()
        elif line.startswith("event:"):
            self.kind = line[6:].strip()
        elif line.startswith("data:"):
            self.data.append(line[5:].lstrip())
        return None


# the server's last event once the game is over (docs/api.md): the stream ends with it
END: tuple[str | None, str] = (None, "end")


def sse_events(lines: Iterable[str]) -> Iterator[tuple[str | None, str]]:
    """(id, data) of each Server-Sent Event in an iterable of lines, and ``END`` last if the
    server ended the stream (compare with ``is``)."""
    events = _Events()
    for line in lines:
        if (got := events.feed(line)) is not None:
            yield got
            if got is END:
                return


async def sse_events_from(lines: AsyncIterable[str]) -> AsyncIterator[tuple[str | None, str]]:
    """As ``sse_events``, from an async iterable of lines."""
    events = _Events()
    async for line in lines:
        if (got := events.feed(line)) is not None:
            yield got
            if got is END:
                return


def filled(command: Any, pick: Callable[[Sequence[Any]], Any] = random.choice) -> Any:
    """The command to send for a ``legal_commands`` entry: itself, or for a template (a
    play_equipment with ``choose``) the play with one value picked for each parameter left open
    (``pick``: among the allowed values; for a list parameter, per element)."""
    choose = getattr(command, "choose", None)
    if choose is None:
        return command
    fields = {k: v for k, v in msgspec.structs.asdict(command).items() if k != "choose"}
    for name, allowed in choose.items():
        if allowed and isinstance(allowed[0], list):
            fields[name] = tuple(pick(values) for values in allowed)
        else:
            fields[name] = pick(allowed)
    return CLIENT_COMMANDS[C.PlayEquipment](**fields)


def acting(view: View, version: int, acted: int) -> bool:
    """Whether a play loop acts on ``view``: the table waits for the seat, no newer view was
    seen (``version``: the newest so far), and it has not acted on this one (``acted``: the
    version it last acted on; a command answered later leaves the view as it was)."""
    waits = view.status != "finished" and view.must_act
    return waits and view.version >= version and view.version > acted
