"""The players' read model folded from the players' log: what the projection does with each
entry, and what a rebuild does with the whole log (the same, from nothing)."""

from __future__ import annotations

import msgspec

from gcbc.eventlog.port import LogAdmin, Stored
from gcbc.playermodel.port import PlayerModel, PlayerRecord
from gcbc_contract.players import (
    NameClaimed,
    RegistrationWithdrawn,
    TableJoined,
    decode_player_entry,
)

DURABLE = "players"  # the projection's consumer of the players' log


async def project(model: PlayerModel, stored: Stored) -> None:
    """One entry of the players' log into the read model (again: the same writes). A player
    shows once its name's claim is its, and no more once its registration is withdrawn (one
    that never handed out its token: its claim holds nothing)."""
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


async def rebuild(log: LogAdmin, model: PlayerModel) -> int:
    """The read model made again from the whole players' log: how many entries were read."""
    await model.clear()
    count = 0
    async for batch in log.scan():
        for stored in batch:
            await project(model, stored)
            count += 1
    return count
