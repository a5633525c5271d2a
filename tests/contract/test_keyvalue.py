"""One contract for every keyed-value adapter (snapshots, the deadline index): the in-memory twin
and JetStream KV behave alike."""

from __future__ import annotations

import asyncio
import uuid

import pytest

from gcbc.eventlog.jetstream import JetStreamEventLog
from gcbc.keyvalue.jetstream import JetStreamKeyValue, key_of, stored_key
from gcbc.keyvalue.memory import MemoryKeyValue


@pytest.fixture(params=["memory", "jetstream"])
def store_factory(request, nats_url):
    opened = []

    async def make():
        if request.param == "memory":
            return MemoryKeyValue()
        # a bucket of its own, on a connection of its own (closed at the end of the test)
        name = uuid.uuid4().hex[:12]
        log = await JetStreamEventLog.connect(nats_url, stream=f"TEST_{name}", prefix=f"t.{name}")
        opened.append(log)
        return await JetStreamKeyValue.open(log.nc, f"TEST_{name}")

    async def close():
        for log in opened:
            await log.close()

    make.close = close  # type: ignore[attr-defined]
    return make


def run(coro):
    return asyncio.run(coro)


KEYS = ("plain-key_1", "t!~odd(key)", "index.built", "_x.looks-encoded", "=")


def test_a_value_put_is_got_back_and_replaced(store_factory):
    async def go():
        store = await store_factory()
        try:
            for key in KEYS:
                assert await store.get(key) is None
                await store.put(key, b"one " + key.encode())
                await store.put(key, b"two " + key.encode())
            for key in KEYS:  # each key its own value: no two keys collide
                assert await store.get(key) == b"two " + key.encode()
            await store.put("empty", b"")
            assert await store.get("empty") == b""
        finally:
            await store.close()
            await store_factory.close()

    run(go())


def test_a_deleted_key_is_gone_and_deleting_a_missing_key_is_no_error(store_factory):
    async def go():
        store = await store_factory()
        try:
            await store.put("k", b"v")
            await store.delete("k")
            assert await store.get("k") is None
            await store.delete("never-there")
            await store.put("k", b"again")
            assert await store.get("k") == b"again"
        finally:
            await store.close()
            await store_factory.close()

    run(go())


def test_a_watch_hands_over_every_current_value_then_each_change(store_factory):
    async def go():
        store = await store_factory()
        try:
            await store.put("a", b"1")
            await store.put("b", b"1")
            await store.put("a", b"2")
            await store.put("gone", b"x")
            await store.delete("gone")
            seen: dict[str, bytes | None] = {}
            changed = asyncio.Event()

            def handle(key: str, value: bytes | None) -> None:
                seen[key] = value
                changed.set()

            watch = await store.watch(handle)
            await asyncio.wait_for(watch.ready.wait(), 5)
            assert seen["a"] == b"2" and seen["b"] == b"1"
            assert seen.get("gone") is None
            changed.clear()
            await store.put("c", b"3")
            await store.delete("b")
            while "c" not in seen or seen.get("b") is not None:
                await asyncio.wait_for(changed.wait(), 5)
                changed.clear()
            assert seen["c"] == b"3" and seen["b"] is None
            await watch.close()
        finally:
            await store.close()
            await store_factory.close()

    run(go())


def test_old_deletions_are_purged_and_a_value_put_since_is_kept(store_factory):
    async def go():
        store = await store_factory()
        try:
            for key in ("gone", "back", "kept", "t!~odd(key)"):
                await store.put(key, b"1")
            for key in ("gone", "back", "t!~odd(key)"):
                await store.delete(key)
            await store.put("back", b"2")  # put again after its deletion
            purged = await store.purge_deletes(0.0)
            assert purged in (0, 2)  # (the twin keeps no deletion to purge)
            assert await store.purge_deletes(0.0) == 0  # nothing left to purge
            seen: dict[str, bytes | None] = {}
            watch = await store.watch(lambda key, value: seen.__setitem__(key, value))
            await asyncio.wait_for(watch.ready.wait(), 5)
            assert seen == {"back": b"2", "kept": b"1"}  # no deletion read at the start
            assert await store.get("back") == b"2" and await store.get("gone") is None
            await watch.close()
        finally:
            await store.close()
            await store_factory.close()

    run(go())


def test_a_watch_on_an_empty_store_is_ready_at_once(store_factory):
    async def go():
        store = await store_factory()
        try:
            watch = await store.watch(lambda key, value: None)
            await asyncio.wait_for(watch.ready.wait(), 5)
            await watch.close()
        finally:
            await store.close()
            await store_factory.close()

    run(go())


def test_keys_the_store_does_not_allow_are_mapped_one_to_one():
    for key in KEYS:
        assert key_of(stored_key(key)) == key
    assert len({stored_key(k) for k in KEYS}) == len(KEYS)
    assert stored_key("abc-1_2") == "abc-1_2"


def test_a_value_put_with_a_ttl_goes_after_it_unless_put_again(store_factory):
    async def go():
        store = await store_factory()
        try:
            await store.put("brief", b"1", ttl=1)
            await store.put("kept again", b"1", ttl=1)
            await store.put("kept again", b"2")  # put again without one: kept
            await store.put("kept", b"1")
            assert await store.get("brief") == b"1"
            deadline = asyncio.get_running_loop().time() + 6
            while await store.get("brief") is not None:
                assert asyncio.get_running_loop().time() < deadline, "not gone"
                await asyncio.sleep(0.1)
            assert await store.get("kept again") == b"2" and await store.get("kept") == b"1"
            seen: dict[str, bytes | None] = {}
            watch = await store.watch(lambda key, value: seen.__setitem__(key, value))
            await asyncio.wait_for(watch.ready.wait(), 5)
            assert seen == {"kept again": b"2", "kept": b"1"}
            await watch.close()
        finally:
            await store.close()
            await store_factory.close()

    run(go())
