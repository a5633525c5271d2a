"""Quick play (docs/api.md, "Quick play"): a player asks for a game, waits in the queue and is
seated at a table of matching players, as the HTTP API takes and gives it, and the queue's entries
in the players' log (one key of its own, ``queue``, so every entry of the queue is one ordered
history that each matchmaker appends to expecting the last entry it read)."""

from __future__ import annotations

from typing import Annotated

import msgspec
from msgspec import Meta

from gcbc_contract.cards import MAX_SEATS, MIN_SEATS
from gcbc_contract.fields import Seat, TableId
from gcbc_contract.options import TableOptions
from gcbc_contract.vocabulary import QueueStatus

SeatCount = Annotated[int, Meta(ge=MIN_SEATS, le=MAX_SEATS, description="4 to 8 players")]


BotsAfter = Annotated[float, Meta(ge=0, le=3600)]


class SeatRange(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """Any seat count from ``min`` to ``max`` (both included)."""

    min: Annotated[SeatCount, Meta(description="the fewest seats the player accepts")]
    max: Annotated[SeatCount, Meta(description="the most seats the player accepts")]


class JoinQueue(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    seats: Annotated[
        list[SeatCount] | SeatRange,
        Meta(
            description="the seat counts the player accepts: a list ([4, 6]: 4 or 6) or a range"
            ' ({"min": 4, "max": 6}); a table is made with a count every player at it accepts'
        ),
    ]
    options: Annotated[
        TableOptions,
        Meta(description="the table options: players are matched with the same options only"),
    ] = TableOptions()
    rated: Annotated[
        bool,
        Meta(
            description="true: matched only with others asking for a rated game, ratings close"
            " (in the options' pool), the gap allowed widening with the wait; false: with anyone"
            " asking for an unrated one"
        ),
    ] = False
    bots_after: Annotated[
        BotsAfter | None,
        Meta(
            description="seconds after which the house's bots fill the rest of a table for the"
            " player (only where the server offers house bots); null: wait for players only",
        ),
    ] = None


class QueueState(msgspec.Struct, omit_defaults=True):
    """The player's place in the queue: waiting (since when, for what), seated (the table and seat
    the queue gave it), or none (never queued, or left)."""

    status: Annotated[
        QueueStatus,
        Meta(
            description="waiting: in the queue; seated: the queue seated the player (`table_id`,"
            " `seat`); none: not in the queue"
        ),
    ]
    version: Annotated[
        int,
        Meta(
            description="the position of the player's last queue entry in the players' log: GET"
            " /queue?after=<version>&timeout=<s> answers once it changes"
        ),
    ]
    since: Annotated[
        int | None, Meta(description="when the player joined the queue (ms since the epoch)")
    ] = None
    seats: Annotated[
        list[int] | None, Meta(description="the seat counts the player accepts, smallest first")
    ] = None
    options: Annotated[TableOptions | None, Meta(description="the options asked for")] = None
    rated: Annotated[bool | None, Meta(description="a rated game was asked for")] = None
    bots_after: Annotated[
        float | None,
        Meta(description="seconds before the house's bots fill the table (null: never)"),
    ] = None
    table_id: Annotated[TableId | None, Meta(description="the table the queue seated it at")] = None
    seat: Annotated[Seat | None, Meta(description="its seat there")] = None
    view_url: Annotated[
        str | None, Meta(description="the seat's view (GET, with the player's token)")
    ] = None


# --- the queue's entries in the players' log ------------------------------------------------------
class Queued(msgspec.Struct, tag="queued", frozen=True):
    """A player joined the queue; ``mu``: its rating in the options' pool then (rated only), so
    that matching is a function of the log alone."""

    player_id: str
    name: str
    bot: bool
    seats: tuple[int, ...]
    options: TableOptions
    rated: bool
    bots_after: float | None
    at: int
    mu: float = 25.0


class QueueLeft(msgspec.Struct, tag="queue_left", frozen=True):
    player_id: str
    at: int


class Matched(msgspec.Struct, tag="matched", frozen=True):
    """A table made of waiting players: ``players[i]`` takes seat ``seats_of[i]``; the house's bots
    take ``bots`` (empty: none). Recorded before the table opens, so that a matchmaker that stops
    halfway is finished by the next one (``TableSeated`` then says it is done)."""

    table_id: str
    seats: int
    players: tuple[str, ...]
    seats_of: tuple[int, ...]
    bots: tuple[int, ...]
    at: int


class TableSeated(msgspec.Struct, tag="table_seated", frozen=True):
    table_id: str
    at: int


AnyQueueEntry = Queued | QueueLeft | Matched | TableSeated

_encoder = msgspec.json.Encoder()
_decoder = msgspec.json.Decoder(AnyQueueEntry)


def encode_queue_entry(entry: AnyQueueEntry) -> bytes:
    return _encoder.encode(entry)


def decode_queue_entry(data: bytes) -> AnyQueueEntry:
    """An entry of the queue (msgspec.DecodeError: not one)."""
    return _decoder.decode(data)
