"""The players' read model folded from the players' log: what the projection does with each
entry, and what a rebuild does with the whole log (the same, from nothing)."""

from __future__ import annotations

import msgspec

from gcbc.eventlog.port import LogAdmin, Stored
from gcbc.playermodel.port import PlayerDirectory, PlayerRecord
from gcbc_contract.players import (
    NameClaimed,
    RegistrationWithdrawn,
    TableJoined,
    decode_player_entry,
)

DURABLE = "players"  # the projection's consumer of the players' log
PAGE = 1000  # players read at once when a rebuild looks for those the log does not hold


async def project(model: PlayerDirectory, stored: Stored) -> object:
    """One entry of the players' log into the read model (again: the same writes): the entry
    (None: not one). A player shows once its name's claim is its, and no more once its
    registration is withdrawn (one that never handed out its token: its claim holds nothing)."""
    try:
        entry = decode_player_entry(stored.data)
    except msgspec.DecodeError:
        entry = None  # not an entry: stepped over
    if isinstance(entry, NameClaimed):
        await model.put_player(
            PlayerRecord(
                player_id=entry.player_id, name=entry.name, bot=entry.bot, registered=stored.seq
            )
        )
    elif isinstance(entry, RegistrationWithdrawn):
        await model.remove_player(entry.player_id)
    elif isinstance(entry, TableJoined):
        await model.joined(entry.player_id, entry.table_id, stored.seq)
    await model.advance(stored.seq)
    return entry


async def rebuild(log: LogAdmin, model: PlayerDirectory) -> int:
    """The read model made again from the whole players' log, over the one in use: every entry
    projected again (the same writes), then each player the log never registered removed. One
    that stops half-way leaves every player as it was or as the log has it, never missing (a
    registration withdrawn meanwhile may show till it is run again). How many entries were
    read."""
    count, last = 0, 0
    claimed: set[str] = set()
    async for batch in log.scan():
        for stored in batch:
            entry = await project(model, stored)
            if isinstance(entry, NameClaimed):
                claimed.add(entry.player_id)
            count, last = count + 1, stored.seq
    await _forget_unclaimed(model, claimed, last)
    return count


async def _forget_unclaimed(model: PlayerDirectory, claimed: set[str], last: int) -> None:
    """Remove the players registered up to ``last`` that the log never claimed a name for (one
    registered past it is the live projection's, from entries the rebuild did not read)."""
    after, unclaimed = 0, []
    while page := await model.players(PAGE, after):
        unclaimed += [
            r.player_id for r in page if r.registered <= last and r.player_id not in claimed
        ]
        after = page[-1].registered
    for player_id in unclaimed:
        await model.remove_player(player_id)
