"""Stream tickets: a browser's EventSource cannot send an Authorization header, and a seat's
long-lived token must never sit in a URL (logs, history, referrers keep URLs). An authenticated
POST trades the token for a ticket that opens that seat's stream of that table only, for a
minute, and stops working as soon as the seat changes hands.

A ticket is signed, not stored: ``<payload>.<mac>``, the payload naming the table, the seat, a
fingerprint of the seat's token and the expiry, and, for a ticket a registered player's token
asked for, that token's fingerprint (the ticket stops working once the player's token is
replaced); HMAC-SHA256 with the service's secret (every process of the table service must share
it: GCBC_TICKET_SECRET)."""

from __future__ import annotations

import base64
import hashlib
import hmac
import json
from typing import NamedTuple


def _b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def _unb64(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def mint(
    secret: bytes,
    table_id: str,
    seat: int,
    token_hash: str,
    expires: float,
    player_token_hash: str | None = None,
) -> str:
    fields: list[object] = [table_id, seat, token_hash[:16], int(expires)]
    if player_token_hash:
        fields.append(player_token_hash[:16])
    payload = _b64(json.dumps(fields).encode())
    mac = hmac.new(secret, payload.encode(), hashlib.sha256).digest()[:16]
    return f"{payload}.{_b64(mac)}"


class Ticket(NamedTuple):
    seat: int
    fingerprint: str  # the seat's token's
    player: str | None  # the player's token's, when a player's token asked for it


def read(secret: bytes, ticket: str, table_id: str, now: float) -> Ticket | None:
    """A valid, unexpired ticket of this table, else None."""
    try:
        payload, mac = ticket.split(".", 1)
        expected = hmac.new(secret, payload.encode(), hashlib.sha256).digest()[:16]
        if not hmac.compare_digest(_unb64(mac), expected):
            return None
        table, seat, fingerprint, expires, *player = json.loads(_unb64(payload))
    except (ValueError, TypeError):
        return None
    if table != table_id or now > expires or not isinstance(seat, int) or len(player) > 1:
        return None
    return Ticket(seat, fingerprint, player[0] if player else None)
