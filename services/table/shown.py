"""What a table's public view, or a finished table's seated record, shows of it: its status and
where a player sits, read without decoding the rest (a list of a player's tables reads many)."""

from __future__ import annotations

from typing import NamedTuple

import msgspec


class _Status(msgspec.Struct):
    """A view's status alone (the rest of it is skipped, not decoded)."""

    status: str


_STATUS = msgspec.json.Decoder(_Status)


def shows_finished(view: bytes) -> bool:
    """Whether a view (its JSON) shows the game over, its other fields left undecoded."""
    return b'"finished"' in view and _STATUS.decode(view).status == "finished"


class _Held(msgspec.Struct):
    player: str | None = None


class _Seats(msgspec.Struct):
    """A view's status and who holds its seats (the rest of it is skipped, not decoded)."""

    status: str
    seats: list[_Held] = []


_SEATS = msgspec.json.Decoder(_Seats)


class PlayerAt(NamedTuple):
    """A table as its public view shows it to one player: its status (waiting, playing,
    finished) and the seat the player holds there (None: none)."""

    status: str
    seat: int | None


def player_at(view: bytes, player_id: str) -> PlayerAt:
    """What a public view (its JSON) shows of the player: no fold of the table's log."""
    shown = _SEATS.decode(view)
    seat = next((i for i, s in enumerate(shown.seats) if s.player == player_id), None)
    return PlayerAt(shown.status, seat)


_SEATED = msgspec.json.Decoder(dict[str, int])


def player_at_end(seated: bytes, player_id: str) -> PlayerAt:
    """What a finished table's seated record (the read model's, kept after its views) shows of
    the player."""
    return PlayerAt("finished", _SEATED.decode(seated).get(player_id))
