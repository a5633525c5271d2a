"""The house's tables: every table with house seats (the sandbox), in a keyed store, so the bot
worker learns of them without following the whole log (that follow cost a delivery of
every entry to one more process, for one entry in hundreds it needed).

The table service notes a table (its house seats and its size) before it appends the table's
opening command, marks the note started once it has appended its start (the bot worker marks
one it finds in play unmarked), and the bot worker removes the note once the table is finished.
A note whose table never opened (its opening refused, or lost with the table service) is found so
by the worker, which removes it: a note always comes first, so no opened house table goes unseen.

``BUILT``: the store holds every house table of the log (a log from before the store: the worker
scans it once for openings, then marks it).
"""

from __future__ import annotations

import hashlib
from typing import Any

import msgspec

from gcbc.keyvalue.port import KeyValue
from gcbc_contract import commands as C
from gcbc_contract.options import HouseBots

BUCKET = "GCBC_HOUSE"
BUILT = "index.built"  # no table id holds a dot


class HouseTable(msgspec.Struct, array_like=True, frozen=True):
    bots: HouseBots
    seats: int
    # whose table it is, as a digest (of the client address, or of the player the queue opened
    # it for: no address is kept in the store): the bot worker's actions go to owners in turn,
    # then to each owner's tables in turn
    owner: str = ""
    # its start was appended: its bots play now, and count against the house's cap from then on
    started: bool = False


encode = msgspec.msgpack.encode
decode = msgspec.msgpack.Decoder(HouseTable).decode


def house_table(command: Any, owner: str = "") -> HouseTable | None:
    """What a table's opening command notes (None: it names no house seats)."""
    if type(command) is C.OpenTable and command.bots is not None:
        return HouseTable(command.bots, command.seats, _digest(owner) if owner else "")
    return None


def _digest(owner: str) -> str:
    return hashlib.sha256(owner.encode()).hexdigest()[:16]


def marked_started(noted: HouseTable) -> HouseTable:
    return msgspec.structs.replace(noted, started=True)


async def mark_started(
    store: KeyValue, table_id: str, bots: HouseBots | None = None, seats: int = 0
) -> None:
    """The table's note marked started: its house seats count from now on (a note missing is
    written anew from ``bots`` and ``seats``, if given; one not the house's is left alone)."""
    data = await store.get(table_id)
    try:
        noted = decode(data) if data is not None else None
    except msgspec.DecodeError:
        return
    if noted is None and bots is not None:
        noted = HouseTable(bots, seats)
    if noted is not None and not noted.started:
        await store.put(table_id, encode(marked_started(noted)))


class InPlay:
    """The house seats of every table started (in play), over the whole server, kept by a watch
    of the house's tables (``noted`` is its handler): the table service starts no house table past
    the house's cap, as its bot worker's actions a second are shared by all of them. A table
    waiting for players holds no house seat here (its bots do nothing yet): tables opened and
    never started must not keep everyone else's from being played."""

    def __init__(self) -> None:
        self._seats: dict[str, int] = {}  # table -> its house seats
        self.seats = 0

    def noted(self, table: str, value: bytes | None) -> None:
        if table == BUILT:
            return
        self.seats -= self._seats.pop(table, 0)
        if value is None:
            return
        try:
            noted = decode(value)
        except msgspec.DecodeError:
            return  # not the house's: the bot worker ignores it too
        if not noted.started:
            return
        seats = len(noted.bots.seats)
        self._seats[table] = seats
        self.seats += seats

    def room(self, cap: int, table: str = "") -> int | None:
        """House seats that may still be started under ``cap`` (0: no cap, None), ``table``'s
        own left out (a start asked again)."""
        return max(0, cap - self.seats + self._seats.get(table, 0)) if cap else None
