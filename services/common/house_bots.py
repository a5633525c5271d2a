"""The house's seats (the sandbox): their tokens are derived, not stored.

A house bot's seat is taken when its table opens, so no take-seat answer ever carries its token.
The table service and the bot worker share a secret (GCBC_BOT_SECRET) and both derive the token of
seat ``n`` of table ``t`` from it; the bot worker then plays through the public API like any
client. Without the secret the server offers no house bots."""

from __future__ import annotations

import hashlib
import hmac


def bot_token(secret: str, table_id: str, seat: int) -> str:
    return hmac.new(secret.encode(), f"{table_id}:{seat}".encode(), hashlib.sha256).hexdigest()


def bot_seed(secret: str, table_id: str) -> int:
    """The seed of a table's house bots' choices: secret too, for a bot draws among its legal
    commands, which its hidden cards shape, and anyone could replay draws from a public seed."""
    digest = hmac.new(secret.encode(), f"seed:{table_id}".encode(), hashlib.sha256).digest()
    return int.from_bytes(digest[:6], "big")


def bot_seat(secret: str, table_id: str, seats: tuple[int, ...], token: str) -> int | None:
    """The house seat ``token`` acts for (None: not a house bot's token)."""
    for seat in seats:
        if hmac.compare_digest(bot_token(secret, table_id, seat), token):
            return seat
    return None


HOUSE_HEADER = "x-gcbc-house"


def house_key(secret: str) -> str:
    """What the bot worker's requests carry in ``HOUSE_HEADER``: the house's seats are paced by
    the bot worker, so the table service's per-address request rate does not count them."""
    return hmac.new(secret.encode(), b"house requests", hashlib.sha256).hexdigest()
