"""Table ids. The table service makes them (16 lowercase hex digits, 64 random bits); a client's id is
only ever matched against that format. A table id also names a NATS subject token and a Redis key,
so the adapters refuse anything that could widen either (DESIGN property 3: no client input
reaches another table's events)."""

from __future__ import annotations

import re

TABLE_ID_PATTERN = r"^[0-9a-f]{16}$"  # as OpenAPI states it
_TABLE_ID = re.compile(r"[0-9a-f]{16}")  # matched in full: "$" would let a final newline by
# one token of a subject or key: printable ASCII without a subject's wildcards or separator
_SAFE_TOKEN = re.compile(r"[!-)+-\-/-=?-~]+")


class InvalidTableId(ValueError):
    """A table id that could reach beyond one table (wildcard, dot, space, control character)."""

    def __init__(self, table: str) -> None:
        super().__init__(f"not a table id: {table!r}")
        self.table = table


def is_table_id(text: str) -> bool:
    """The server's own format: what the HTTP edge accepts."""
    return _TABLE_ID.fullmatch(text) is not None


def checked(table: str) -> str:
    """``table`` if it is safe as one subject token or key part, else InvalidTableId (the
    adapters' second line behind the HTTP edge)."""
    if not isinstance(table, str) or _SAFE_TOKEN.fullmatch(table) is None:
        raise InvalidTableId(table)
    return table
