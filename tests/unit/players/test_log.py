"""The players' log on the in-memory twin: a player registered under a name no one else may
take (whatever its look), its token checked on its own entries, replaced once of two tries, its
tables noted once each; a registration that lost its name's race never was a player, and one
whose claim went unanswered is the player the log holds, or no player with its name free."""

from __future__ import annotations

import asyncio

import pytest

from gcbc.eventlog.memory import MemoryEventLog
from gcbc.eventlog.port import LogUnavailable, OutcomeUnknown
from gcbc.playermodel.memory import MemoryPlayerModel
from gcbc.players import folded as players_folded
from gcbc.players import log as players_log
from gcbc.players.folded import FoldedPlayer
from gcbc.players.log import (
    NameTaken,
    PlayerLog,
    StaleToken,
    TokenUnknown,
    name_key,
    player_of_token,
)
from gcbc.players.projection import rebuild
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


def test_a_registration_sent_again_with_its_key_is_answered_again_with_a_new_token():
    async def go():
        log = PlayerLog(MemoryEventLog())
        key = "k" * 32
        p, first = await log.register("ann", bot=False, key=key)
        again, second = await log.register("ANN", bot=False, key=key)  # its answer was lost
        assert again.player_id == p.player_id and second != first
        assert await log.authenticate(first) is None  # one token at a time
        assert (await log.authenticate(second)).player_id == p.player_id
        for other in ("x" * 32, None):  # another registration, or one without a key
            with pytest.raises(NameTaken):
                await log.register("ann", bot=False, key=other)
        plain, _ = await log.register("bea", bot=False)  # registered without a key
        with pytest.raises(NameTaken):
            await log.register("bea", bot=False, key="")
        assert not plain.registered_with(None) and not plain.registered_with("")

    run(go())


def test_of_two_registrations_racing_for_a_name_the_loser_never_was_a_player():
    async def go():
        events = MemoryEventLog()
        log = PlayerLog(events)
        # another process claims the name between this one's look and its claim
        real_holder = log._holder
        looked = []

        async def no_claim_yet(name):
            got = await real_holder(name)
            if not looked:
                looked.append(got)
                entry = NameClaimed(player_id="f" * 16, name="ann")
                await events.append(name_key("ann"), encode_player_entry(entry), expected=0)
            return got

        log._holder = no_claim_yet  # type: ignore[method-assign]
        with pytest.raises(NameTaken):
            await log.register("ann", bot=False)
        loser = [t for t in [s.table async for s in _scan(events)] if t != name_key("ann")]
        assert len(set(loser)) == 1
        assert await PlayerLog(events).player(loser[0]) is None  # withdrawn

    run(go())


class FaultyLog(MemoryEventLog):
    """The twin with faults at a name's key: appends stored whose answer is lost (``lost``),
    appends never stored nor answered (``dropped``), reads of it refused once an append went
    unanswered (``reads_away``); and a player's appends refused then (``player_away``)."""

    def __init__(self) -> None:
        super().__init__()
        self.lost = self.dropped = self.reads_away = self.player_away = 0
        self.unanswered = False

    async def append(self, table, data, expected, msg_id=None, answer=False):
        if table.startswith("n") and self.dropped:
            self.dropped -= 1
            self.unanswered = True
            raise OutcomeUnknown("timed out")
        if not table.startswith("n") and self.unanswered and self.player_away:
            self.player_away -= 1
            raise LogUnavailable("away")
        got = await super().append(table, data, expected, msg_id, answer)
        if table.startswith("n") and self.lost:
            self.lost -= 1
            self.unanswered = True
            raise OutcomeUnknown("timed out")
        return got

    async def read(self, table, after=0, most=None):
        if table.startswith("n") and self.unanswered and self.reads_away:
            self.reads_away -= 1
            raise LogUnavailable("away")
        return await super().read(table, after, most)


async def _profiles(events) -> list[str]:
    model = MemoryPlayerModel()
    await rebuild(events, model)
    return [r.name for r in await model.players()]


def test_a_claim_whose_answer_was_lost_is_found_and_the_player_is_registered():
    async def go():
        events = FaultyLog()
        log = PlayerLog(events)
        events.lost, events.reads_away = 1, 1  # stored, unanswered; the first look refused
        p, token = await log.register("ann", bot=False)
        assert (await PlayerLog(events).authenticate(token)).player_id == p.player_id
        assert (await log.claim("ann")).player_id == p.player_id
        events.dropped = 2  # never stored: appended again once the key shows no claim
        bob, _ = await log.register("bob", bot=False)
        assert (await log.claim("bob")).player_id == bob.player_id
        assert await _profiles(events) == ["ann", "bob"]
        with pytest.raises(NameTaken):
            await log.register("ANN", bot=False)

    run(go())


def test_a_registration_that_cannot_tell_leaves_no_player_and_its_name_free(monkeypatch):
    monkeypatch.setattr(players_log, "SETTLE", (0, 0))
    monkeypatch.setattr(players_log, "WITHDRAW_RETRY", (0.01,))

    async def go():
        events = FaultyLog()
        log = PlayerLog(events)
        # the claim stored but unanswered, and the name's key unreadable after
        events.lost, events.reads_away = 1, 2
        with pytest.raises(OutcomeUnknown):
            await log.register("ann", bot=False)
        assert await log.claim("ann") is None  # its claim holds nothing: withdrawn
        assert await _profiles(events) == []
        ann, _ = await log.register("ann", bot=False)
        assert (await log.claim("ann")).player_id == ann.player_id
        assert await _profiles(events) == ["ann"]
        # the same with the withdrawal refused at first: made as soon as the log takes it
        events.lost, events.reads_away, events.player_away = 1, 2, 1
        events.unanswered = False
        with pytest.raises(OutcomeUnknown):
            await log.register("bob", bot=False)
        assert log.withdrawing
        await asyncio.gather(*log.withdrawing)
        assert await log.claim("bob") is None and await _profiles(events) == ["ann"]
        assert (await log.register("bob", bot=False))[0].name == "bob"

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


def test_a_table_noted_meanwhile_is_no_replacement_and_a_read_lost_after_it_loses_no_token():
    async def go():
        events = MemoryEventLog()
        log = PlayerLog(events)
        p, old = await log.register("ann", bot=False)
        seen = await log.player(p.player_id)
        await PlayerLog(events).joined(seen, "a" * 16)  # another process notes a table
        new = await log.reissue(seen)  # the read is older than the log: not a replacement
        assert await log.authenticate(new) is not None and await log.authenticate(old) is None

        real_last = events.last

        async def away(key):
            raise LogUnavailable("connection closed")

        async def append_then_away(*args, **kwargs):
            got = await real_append(*args, **kwargs)
            events.last = away  # the log goes away right after taking the replacement
            return got

        real_append = events.append
        events.append = append_then_away
        newer = await log.reissue(await log.player(p.player_id))
        events.append, events.last = real_append, real_last
        assert (await PlayerLog(events).authenticate(newer)).player_id == p.player_id

        async def unknown(*args, **kwargs):
            raise OutcomeUnknown("timed out")

        events.append = unknown
        with pytest.raises(TokenUnknown) as told:  # the token it may have taken is told
            await log.reissue(await log.player(p.player_id))
        assert told.value.token.startswith(p.player_id)

    run(go())


def test_many_tables_noted_at_once_for_one_player_are_all_noted():
    async def go():
        events = MemoryEventLog()
        log = PlayerLog(events)
        p, token = await log.register("ann", bot=False)
        real_append = events.append

        async def slow_append(*args, **kwargs):
            await asyncio.sleep(0.001)  # a round trip: the others read the same last entry
            return await real_append(*args, **kwargs)

        events.append = slow_append
        player = await log.authenticate(token)
        tables = [f"{i:016x}" for i in range(16)]
        await asyncio.gather(*(log.joined(player, table) for table in tables))
        assert set((await PlayerLog(events).player(p.player_id)).tables) == set(tables)
        assert log._joining == {}  # nothing kept once they are noted

    run(go())


def test_the_tables_a_player_joins_are_noted_once_each_the_last_joined_last():
    """A table joined again moves up (GET /players/me/tables looks among the last joined);
    joining the table it joined last notes nothing more."""

    async def go():
        log = PlayerLog(MemoryEventLog())
        p, _ = await log.register("ann", bot=False)
        for table in ("a" * 16, "b" * 16, "a" * 16, "a" * 16):
            await log.joined(await log.player(p.player_id), table)
        again = await PlayerLog(log.events).player(p.player_id)
        assert list(again.tables) == ["b" * 16, "a" * 16]
        assert again.seq == (await log.player(p.player_id)).seq
        entries = await log.events.read(p.player_id)
        assert len(entries) == 4  # registered, then a, b and a again: the last join noted nothing

    run(go())


def test_a_long_players_log_is_read_from_its_snapshot_by_a_process_that_does_not_hold_it(
    monkeypatch,
):
    """A player's log grows with every table it joins (any client taking and leaving seats with
    its token adds to it): a process that did not hold the player read the whole of it, on the
    event loop, at its first request. Once a read goes past ``SNAPSHOT_EVERY`` entries a snapshot
    is written beside the player's key; the next process to read the player starts there and
    reads only what came after it, and folds the same player (its latest ``KEEP_TABLES`` tables)."""
    monkeypatch.setattr(players_log, "SNAPSHOT_EVERY", 20)
    monkeypatch.setattr(players_log, "PAGE", 7)
    monkeypatch.setattr(players_folded, "KEEP_TABLES", 5)

    async def go():
        events = MemoryEventLog()
        log = PlayerLog(events)
        p, token = await log.register("ann", bot=False)
        for i in range(30):
            await log.joined(await log.player(p.player_id), f"{i:016x}")
        read: list[int] = []
        real_read = events.read

        async def counted(table, after=0, most=None):
            got = await real_read(table, after, most)
            read.append(len(got))
            return got

        events.read = counted
        first = PlayerLog(events)  # another process: reads the whole log, in pages
        whole = await first.player(p.player_id)
        assert read == [7, 7, 7, 7, 3] and max(read) <= players_log.PAGE
        assert list(whole.tables) == [f"{i:016x}" for i in range(25, 30)]
        await asyncio.gather(*first.snapshotting)
        assert await events.last(players_folded.snapshot_key(p.player_id)) is not None
        read.clear()
        second = PlayerLog(events)  # and another: from the snapshot
        restored = await second.player(p.player_id)
        assert sum(read) == 0
        assert restored.snapshot() == whole.snapshot() and restored.seq == whole.seq
        assert (await second.authenticate(token)).player_id == p.player_id
        await second.joined(restored, "f" * 16)  # appended after the snapshot: it expects its seq
        read.clear()
        third = await PlayerLog(events).player(p.player_id)
        assert sum(read) == 1 and list(third.tables)[-1] == "f" * 16
        assert await PlayerLog(events).reissue(third)  # a token replaced on a restored player
        # a process that holds the player and reads a little at a time writes one too
        snapshots = len(await events.read(players_folded.snapshot_key(p.player_id)))
        for i in range(25):
            await second.joined(await second.player(p.player_id), f"{100 + i:016x}")
        await asyncio.gather(*second.snapshotting)
        assert len(await events.read(players_folded.snapshot_key(p.player_id))) == snapshots + 1

    run(go())


def test_what_is_not_an_entry_is_stepped_over():
    from gcbc.eventlog.port import Stored

    p = FoldedPlayer("0" * 16)
    p.apply(Stored(seq=3, table="0" * 16, data=b"not json"))
    assert p.seq == 3 and not p.registered


def test_a_token_is_checked_on_the_log_once_a_second_and_a_replacement_here_counts_at_once():
    """Each request authenticated by a player's token asked NATS for the player's last entry:
    a client's requests made as many asks. A player read within ``FRESH`` answers without one; a
    token replaced in this process is refused at once, one replaced in another process once
    ``FRESH`` has passed."""
    now = [100.0]
    events = MemoryEventLog()
    asks = []
    last = events.last

    async def counted(key):
        asks.append(key)
        return await last(key)

    events.last = counted  # type: ignore[method-assign]

    async def go():
        log = PlayerLog(events, clock=lambda: now[0])
        p, old = await log.register("ann", bot=False)
        now[0] += 0.01
        assert (await log.authenticate(old)).player_id == p.player_id
        before = len(asks)
        for _ in range(5):
            assert await log.authenticate(old) is not None
        assert len(asks) == before  # none asked within FRESH
        new = await log.reissue(await log.player(p.player_id))
        now[0] += 0.01
        assert await log.authenticate(old) is None  # replaced here: at once
        assert await log.authenticate(new) is not None
        other = PlayerLog(events, clock=lambda: now[0])  # another process
        newer = await other.reissue(await other.player(p.player_id))
        now[0] += 0.01
        assert await log.authenticate(new) is not None  # within FRESH of its last ask
        now[0] += PlayerLog.FRESH + 0.1
        assert await log.authenticate(new) is None
        assert await log.authenticate(newer) is not None

    run(go())
