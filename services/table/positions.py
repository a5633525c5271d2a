"""What a client is shown of the log's positions: never the log's own sequence numbers. One log
holds every table's entries, so its sequence counts what every table does (server-wide activity,
and between two commands of one table the others' hidden ones): a client sees numbers that tell
it nothing but what it needs.

- A ``202``'s position names the command's entry: a keyed hash of (table, sequence), under 2^53
  (a JavaScript number holds it), the same for a retry of the same ``command_id`` (its entry is
  the first one's).
- The lobby's cursor (``GET /tables?after=``) must lead back to a place in the log: the sequence
  enciphered by a keyed permutation of the numbers under 2^52 (a Feistel network), so the next
  page starts where this one ended and no cursor tells how far the log has come.

The key derives from the service's secret (every process of the table service must share it:
GCBC_TICKET_SECRET), apart from the tickets' own."""

from __future__ import annotations

import hashlib
import hmac

POSITION_BITS = 53
CURSOR_BITS = 52  # two halves of 26 bits; a sequence this large is never reached
_HALF = CURSOR_BITS // 2
_MASK = (1 << _HALF) - 1
_ROUNDS = 6
MAX_CURSOR = (1 << CURSOR_BITS) - 1


class Positions:
    __slots__ = ("_entries", "_rounds")

    def __init__(self, secret: bytes) -> None:
        self._entries = hmac.new(secret, b"gcbc: a 202's position", hashlib.sha256).digest()
        key = hmac.new(secret, b"gcbc: the lobby's cursor", hashlib.sha256).digest()
        self._rounds = [hmac.new(key, bytes([i]), hashlib.sha256) for i in range(_ROUNDS)]

    def of(self, table_id: str, seq: int) -> int:
        """The position a ``202`` names for the entry at ``seq`` of ``table_id``."""
        mac = hmac.new(self._entries, f"{table_id}:{seq}".encode(), hashlib.sha256).digest()
        return int.from_bytes(mac[:8], "big") >> (64 - POSITION_BITS)

    def cursor(self, seq: int) -> int:
        """The lobby cursor that lists the tables after ``seq`` (1 to MAX_CURSOR)."""
        if not 0 < seq <= MAX_CURSOR:
            raise ValueError(f"a sequence of 1 to {MAX_CURSOR}: {seq}")
        c = self._permute(seq)
        while c == 0:  # 0 stays the first page: a cursor never is (cycle-walking past it)
            c = self._permute(c)
        return c

    def after(self, cursor: int) -> int:
        """The sequence a cursor names (0: the first page); any other number names some place."""
        if cursor == 0:
            return 0
        seq = self._unpermute(cursor)
        while seq == 0:
            seq = self._unpermute(seq)
        return seq

    def _f(self, i: int, half: int) -> int:
        mac = self._rounds[i].copy()
        mac.update(half.to_bytes(4, "big"))
        return int.from_bytes(mac.digest()[:4], "big") & _MASK

    def _permute(self, x: int) -> int:
        left, right = x >> _HALF, x & _MASK
        for i in range(_ROUNDS):
            left, right = right, left ^ self._f(i, right)
        return (left << _HALF) | right

    def _unpermute(self, x: int) -> int:
        left, right = x >> _HALF, x & _MASK
        for i in reversed(range(_ROUNDS)):
            left, right = right ^ self._f(i, left), left
        return (left << _HALF) | right
