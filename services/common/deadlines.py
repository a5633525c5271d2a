"""The deadline index: when each table next needs the rules worker without anyone asking (a wait
that times out, a lobby that closes, a command left unanswered), kept in a keyed store, so a
restarted worker knows every pending deadline without folding every table.

One key per table holds (when, the position it was computed at); a finished table has none.
What is stored is no later than the table's next deadline, and at most ``EARLY`` seconds before
it: a deadline that moves later is written only once it is that far from the stored one (most
commands move a table's deadline a little later, and a write per command costs a stored message,
its acknowledgement and a delivery to every watcher). A worker woken early folds the
table, finds nothing due and notes the real deadline; a restarted one folds no table more than
``EARLY`` seconds before it needs to.

A worker notes each table it folds (``note``), and the writes go out in batches in the
background (``run``); ``note`` hands back what the entry's acknowledgement waits for, so an entry the group
acknowledged is always in the index (a worker killed before the write gets the entry again). Every
worker watches the whole index: it learns the deadlines of tables another instance folded, and a
restarted one reads them all at start. The index says when to look; what fires is decided on the
table itself, folded then (its snapshot and the entries after it).

``BUILT``: the index holds every table's deadline (a log from before the index: the worker folds
every table once, then marks it).
"""

from __future__ import annotations

import asyncio
import heapq
import logging
from collections.abc import Callable

import msgspec

from gcbc.keyvalue.port import KeyValue
from services.common.folded import FoldedTable
from services.common.settings import STUCK_AFTER

log = logging.getLogger("gcbc.deadlines")
BUCKET = "GCBC_DEADLINES"
BUILT = "index.built"  # no table id holds a dot


class Due(msgspec.Struct, array_like=True, frozen=True):
    when: float  # seconds since the epoch
    seq: int  # the table's position it was computed at


_encode = msgspec.msgpack.encode
_decode = msgspec.msgpack.Decoder(Due).decode


def due(t: FoldedTable, lobby_seconds: float, since: float | None = None) -> float | None:
    """When the table next needs the worker (None: never, it is finished with every command
    answered, or has no table): a command unanswered ``STUCK_AFTER`` after ``since`` (when it
    began to wait), a lobby's closing, or the current wait's deadline."""
    if t.seq == 0:
        return None
    if not t.settled:  # (a finished table's too: a command sent as it ended waits for its answer)
        command = t.pending_command
        waiting = since if since is not None else (command.at / 1000 if command else 0.0)
        return waiting + STUCK_AFTER
    if t.state.step == "finished":
        return None
    closes = t.lobby_closes(lobby_seconds)
    if closes is not None:
        return closes
    deadline = t.deadline()
    return deadline[1] if deadline is not None else None


class HandedOver(Exception):
    """The deadlines an entry waited for were let go unwritten (their partition handed over)."""


class DeadlineIndex:
    AT_ONCE = 64  # writes in flight at once

    EARLY = 30.0  # seconds a stored deadline may come before the table's real one

    def __init__(self, store: KeyValue) -> None:
        self.store = store
        self.known: dict[str, Due] = {}  # table -> its deadline, as noted here or watched
        self.stored: dict[str, float] = {}  # table -> the deadline the store holds (or will)
        self._heap: list[tuple[float, str]] = []  # (when, table); stale items skipped
        self._dirty: dict[str, Due | None] = {}  # writes owed (None: delete)
        self._written: asyncio.Future[None] | None = None  # done once the owed are written
        self._wake = asyncio.Event()
        self.built = False
        self._watch = None

    async def start(self) -> None:
        """Watch the index: every deadline stored (read all at start), then each change."""
        self._watch = await self.store.watch(self._changed)
        await self._watch.ready.wait()

    async def close(self) -> None:
        if self._watch is not None:
            await self._watch.close()

    def _changed(self, key: str, value: bytes | None) -> None:
        if key == BUILT:
            self.built = self.built or value is not None
            return
        if key in self._dirty:
            return  # noted here since: this instance's write comes after
        if value is None:
            self.known.pop(key, None)  # finished
            self.stored.pop(key, None)
            return
        try:
            d = _decode(value)
        except msgspec.DecodeError:
            return
        self.stored[key] = d.when
        mine = self.known.get(key)
        if mine is None or d.seq > mine.seq:  # another instance folded the table further
            self._set(key, d)
        elif d.seq < mine.seq and d.when > mine.when:
            # a deadline from an older fold stored over a newer one (the last write of an
            # instance that handed the table over, landing late): the newer one again, or a
            # restart would fire it late
            self._owe(key, mine)

    def _set(self, table_id: str, d: Due) -> None:
        self.known[table_id] = d
        heapq.heappush(self._heap, (d.when, table_id))
        if len(self._heap) > 2 * len(self.known) + 1000:  # drop the stale items
            self._heap = [(x.when, t) for t, x in self.known.items()]
            heapq.heapify(self._heap)

    def note(self, table_id: str, when: float | None, seq: int) -> asyncio.Future[None] | None:
        """The table's deadline as of position ``seq``; what an acknowledgement waits for (None:
        the index already says so)."""
        mine = self.known.get(table_id)
        if mine is not None and seq < mine.seq:
            return self._pending(table_id)  # the index knows the table further on
        if when is None:
            if mine is not None or table_id in self._dirty or table_id in self.stored:
                self.known.pop(table_id, None)
                self._owe(table_id, None)
            return self._pending(table_id)
        if mine is None or mine.when != when:
            d = Due(when, seq)
            self._set(table_id, d)
            stored = self.stored.get(table_id)
            if stored is None or when < stored or when - stored > self.EARLY:
                self._owe(table_id, d)  # (a little later: the stored one still comes first)
        return self._pending(table_id)

    def forget(self, table_id: str, seq: int) -> asyncio.Future[None] | None:
        """The table needs no worker any more (finished at ``seq``)."""
        return self.note(table_id, None, seq)

    def _owe(self, table_id: str, d: Due | None) -> None:
        self._dirty[table_id] = d
        if d is None:
            self.stored.pop(table_id, None)
        else:
            self.stored[table_id] = d.when  # what the store holds once written
        self._wake.set()

    def _pending(self, table_id: str) -> asyncio.Future[None] | None:
        if table_id not in self._dirty:
            return None
        if self._written is None:
            self._written = asyncio.get_running_loop().create_future()
        return self._written

    def let_go(self, belongs: Callable[[str], bool]) -> None:
        """Owe no write for the tables ``belongs`` names (a partition handed over: its new owner
        writes their deadlines, and one owed here, written late, would overwrite a newer one).
        The entries waiting on the writes owed are not acknowledged (whatever tables they are
        of): delivered again, each to its owner, none is taken for one the index holds."""
        dropped = [t for t in self._dirty if belongs(t)]
        for table_id in dropped:
            del self._dirty[table_id]
            self.stored.pop(table_id, None)
        waiting = self._written
        if dropped and waiting is not None and not waiting.done():
            self._written = None
            waiting.set_exception(HandedOver(f"{len(dropped)} deadlines handed over unwritten"))
            waiting.exception()  # (retrieved: whoever waited gets the entry again)

    def owes(self, table_id: str) -> bool:
        """The table's deadline is not written yet."""
        return table_id in self._dirty

    @property
    def owed(self) -> int:
        """Changes not written yet."""
        return len(self._dirty)

    def again(self, table_id: str, at: float | None = None) -> None:
        """Hand the table over by ``soon`` again (it could not be looked at, or was another
        instance's), at ``at`` if that is later (here only: the store keeps its deadline)."""
        d = self.known.get(table_id)
        if d is None:
            return
        if at is not None and at > d.when:
            d = self.known[table_id] = Due(at, d.seq)
        heapq.heappush(self._heap, (d.when, table_id))

    def soon(self, until: float) -> list[str]:
        """The tables whose deadline comes by ``until`` (each once, as it comes)."""
        out: dict[str, None] = {}
        heap = self._heap
        while heap and heap[0][0] <= until:
            when, table_id = heapq.heappop(heap)
            d = self.known.get(table_id)
            if d is not None and d.when == when:
                out[table_id] = None
        return list(out)

    async def flush(self) -> int:
        """Write the changes owed; those waiting on them go on once they are stored (or are
        delivered again if the store failed: the changes stay owed)."""
        batch, self._dirty = self._dirty, {}
        waiting, self._written = self._written, None
        self._wake.clear()
        items = list(batch.items())
        failed: Exception | None = None
        for start in range(0, len(items), self.AT_ONCE):
            part = items[start : start + self.AT_ONCE]
            results = await asyncio.gather(
                *(
                    self.store.put(t, _encode(d)) if d is not None else self.store.delete(t)
                    for t, d in part
                ),
                return_exceptions=True,
            )
            for (t, d), result in zip(part, results, strict=True):
                if isinstance(result, Exception):
                    failed = result
                    self._dirty.setdefault(t, d)  # unless noted again since: owed still
        if waiting is not None and not waiting.done():
            if failed is None:
                waiting.set_result(None)
            else:
                waiting.set_exception(failed)
                waiting.exception()  # (retrieved: whoever waited gets the entry again)
        if failed is not None:
            log.warning("deadline index: %d writes failed: %s", len(self._dirty), failed)
        return len(items)

    async def mark_built(self) -> None:
        await self.store.put(BUILT, b"1")
        self.built = True

    async def run(self, stop: asyncio.Event, retry: float = 0.5) -> None:
        """Write what is owed as it comes (batched while a write is out) until ``stop``."""
        while not stop.is_set():
            if not self._dirty:
                waking = asyncio.ensure_future(self._wake.wait())
                stopping = asyncio.ensure_future(stop.wait())
                await asyncio.wait({waking, stopping}, return_when=asyncio.FIRST_COMPLETED)
                waking.cancel()
                stopping.cancel()
                continue
            await self.flush()
            if self._dirty and not self._wake.is_set():
                await asyncio.sleep(retry)  # the store failed: try again in a moment
        if self._dirty:
            await self.flush()
