"""What the read model shows of a table without its views being decoded: whether a view shows the
game over, and, from a table's roster or a finished table's seated record, its status and where a
player sits (a list of a player's tables reads many)."""

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


class _Roster(msgspec.Struct):
    """A table's roster (``gcbc.readmodel.port.ROSTER``)."""

    status: str
    players: dict[str, int] = {}


_ROSTER = msgspec.json.Decoder(_Roster)


class PlayerAt(NamedTuple):
    """A table as the read model shows it to one player: its status (waiting, playing,
    finished) and the seat the player holds there (None: none)."""

    status: str
    seat: int | None


def status_of(roster: bytes) -> str:
    """A table's status as its roster shows it: waiting, playing or finished."""
    return _ROSTER.decode(roster).status


def player_at(roster: bytes, player_id: str) -> PlayerAt:
    """What a table's roster shows of the player: no view read, no log folded."""
    shown = _ROSTER.decode(roster)
    return PlayerAt(shown.status, shown.players.get(player_id))


_SEATED = msgspec.json.Decoder(dict[str, int])


def player_at_end(seated: bytes, player_id: str) -> PlayerAt:
    """What a finished table's seated record (the read model's, kept after its views) shows of
    the player."""
    return PlayerAt("finished", _SEATED.decode(seated).get(player_id))
