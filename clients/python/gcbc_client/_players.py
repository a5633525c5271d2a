"""What the sync and async clients share about players: their answers' decoders."""

from __future__ import annotations

import secrets

import msgspec

from gcbc_client._core import encode
from gcbc_contract.options import TableOptions
from gcbc_contract.players import (
    MyProfile,
    MyTables,
    PlayedGame,
    PlayedGames,
    PlayerProfile,
    Registered,
    TokenIssued,
)
from gcbc_contract.queue import JoinQueue, QueueState, SeatRange

registered_decoder = msgspec.json.Decoder(Registered)
profile_decoder = msgspec.json.Decoder(PlayerProfile)
me_decoder = msgspec.json.Decoder(MyProfile)
token_decoder = msgspec.json.Decoder(TokenIssued)
tables_decoder = msgspec.json.Decoder(MyTables)
games_decoder = msgspec.json.Decoder(PlayedGames)
game_decoder = msgspec.json.Decoder(PlayedGame)  # one line of a player's games exported
queue_decoder = msgspec.json.Decoder(QueueState)


def join_queue(
    seats: list[int] | range | SeatRange,
    options: TableOptions | dict | None,
    rated: bool,
    bots_after: float | None,
) -> bytes:
    """POST /queue's body: ``seats`` a list of counts, a range, or a ``SeatRange``."""
    if isinstance(seats, range) and seats.step == 1 and seats:
        seats = SeatRange(min=seats.start, max=seats.stop - 1)  # (another step: its counts)
    if isinstance(options, dict):
        options = msgspec.convert(options, TableOptions)
    body = JoinQueue(
        seats=seats if isinstance(seats, SeatRange) else list(seats),
        options=options or TableOptions(),
        rated=rated,
        bots_after=bots_after,
    )
    return encode(body)


def games_url(player_id: str, page: int, before: int | None) -> str:
    """One page of a player's finished games, those before ``before`` (a page's ``next``)."""
    return f"/players/{player_id}/games?limit={page}" + (
        f"&before={before}" if before is not None else ""
    )


def export_url(player_id: str, most: int | None) -> str:
    return f"/players/{player_id}/games/export" + ("" if most is None else f"?max={most}")


def register_body(name: str, bot: bool) -> bytes:
    """POST /players's body, with a new registration key: sent again with a retry, it gets the
    same player."""
    return encode({"name": name, "bot": bot, "registration_key": secrets.token_urlsafe(24)})
