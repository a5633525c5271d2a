"""The players' log on the in-memory twin: a player registered under a name no one else may
take (whatever its look), its token checked on its own entries, replaced once of two tries, its
tables noted once each; a registration that lost its name's race never was a player."""

from __future__ import annotations

import asyncio

import pytest

from gcbc.eventlog.memory import MemoryEventLog
from gcbc.players.log import (
    FoldedPlayer,
    NameTaken,
    PlayerLog,
    StaleToken,
    name_key,
    player_of_token,
)
from gcbc_contract.players import NameClaimed, encode_player_entry


def run(coro):
    return asyncio.run(coro)


def test_a_player_is_registered_and_authenticated_by_its_token_only():
    async def go():
        log = PlayerLog(MemoryEventLog())
        p, token = await log.register("ann", bot=True)
        assert (p.name, p.bot, p.registered) == ("ann", True, True)
        assert player_of_token(token) == p.player_id
        assert (await log.authenticate(token)).player_id == p.player_id
        assert await log.authenticate(token[:-1] + ("A" if token[-1] != "A" else "B")) is None
        assert await log.authenticate("not a token") is None
        assert await log.authenticate(f"{'0' * 16}.{'a' * 32}") is None
        claim = await log.claim("ANN")
        assert claim is not None and claim.player_id == p.player_id

    run(go())


@pytest.mark.parametrize("look_alike", ["ann", "ANN", "\u0430nn", "ａｎｎ"])
def test_a_name_that_looks_like_a_players_is_taken(look_alike):
    async def go():
        log = PlayerLog(MemoryEventLog())
        await log.register("ann", bot=False)
        with pytest.raises(NameTaken):
            await log.register(look_alike, bot=False)

    run(go())


def test_of_two_registrations_racing_for_a_name_the_loser_never_was_a_player():
    async def go():
        events = MemoryEventLog()
        log = PlayerLog(events)
        # another process claims the name between this one's look and its claim
        real_claim = log.claim

        async def no_claim_yet(name):
            got = await real_claim(name)
            if got is None:
                entry = NameClaimed(player_id="f" * 16, name="ann")
                await events.append(name_key("ann"), encode_player_entry(entry), expected=0)
            return None

        log.claim = no_claim_yet  # type: ignore[method-assign]
        with pytest.raises(NameTaken):
            await log.register("ann", bot=False)
        loser = [t for t in [s.table async for s in _scan(events)] if t != name_key("ann")]
        assert len(set(loser)) == 1
        assert await PlayerLog(events).player(loser[0]) is None  # withdrawn

    run(go())


async def _scan(events):
    async for batch in events.scan():
        for stored in batch:
            yield stored


def test_the_token_is_replaced_once_and_the_old_one_stops_working():
    async def go():
        log = PlayerLog(MemoryEventLog())
        p, old = await log.register("ann", bot=False)
        seen = await log.player(p.player_id)
        new = await log.reissue(seen)
        assert await log.authenticate(old) is None
        assert (await log.authenticate(new)).player_id == p.player_id
        with pytest.raises(StaleToken):  # a second replacement sent with the old token's read
            await log.reissue(seen)
        # another process (its own cache) sees the replacement at once
        other = PlayerLog(log.events)
        assert await other.authenticate(old) is None
        assert await other.authenticate(new) is not None

    run(go())


def test_the_tables_a_player_joins_are_noted_once_each_newest_last():
    async def go():
        log = PlayerLog(MemoryEventLog())
        p, _ = await log.register("ann", bot=False)
        for table in ("a" * 16, "b" * 16, "a" * 16):
            await log.joined(await log.player(p.player_id), table)
        again = await PlayerLog(log.events).player(p.player_id)
        assert list(again.tables) == ["a" * 16, "b" * 16]

    run(go())


def test_what_is_not_an_entry_is_stepped_over():
    from gcbc.eventlog.port import Stored

    p = FoldedPlayer("0" * 16)
    p.apply(Stored(seq=3, table="0" * 16, data=b"not json"))
    assert p.seq == 3 and not p.registered
