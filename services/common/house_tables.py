"""The house's tables: every table with house seats (the sandbox), in a keyed store, so the bot
worker learns of them without following the whole log (that follow cost a delivery of
every entry to one more process, for one entry in hundreds it needed).

The table service notes a table (its house seats and its size) before it appends the table's
opening command, and the bot worker removes the note once the table is finished. A note whose
table never opened (its opening refused, or lost with the table service) is found so by the
worker, which removes it: a note always comes first, so no opened house table goes unseen.

``BUILT``: the store holds every house table of the log (a log from before the store: the worker
scans it once for openings, then marks it).
"""

from __future__ import annotations

from typing import Any

import msgspec

from gcbc_contract import commands as C
from gcbc_contract.options import HouseBots

BUCKET = "GCBC_HOUSE"
BUILT = "index.built"  # no table id holds a dot


class HouseTable(msgspec.Struct, array_like=True, frozen=True):
    bots: HouseBots
    seats: int


encode = msgspec.msgpack.encode
decode = msgspec.msgpack.Decoder(HouseTable).decode


def house_table(command: Any) -> HouseTable | None:
    """What a table's opening command notes (None: it names no house seats)."""
    if type(command) is C.OpenTable and command.bots is not None:
        return HouseTable(command.bots, command.seats)
    return None
