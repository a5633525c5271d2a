"""One pass over the log for many tables: every entry read once, in order (``LogAdmin.scan``),
each table folded by a job (``services.ops.jobs``) and its result given as soon as the table is
whole (the sizes snapshot says when), so memory holds only the tables still open in the pass.

With ``workers``, the folding runs in that many processes (tables are spread by id, each folded
by one process, in order): the reading and writing process only reads the log and routes entries,
which is what lets ``rebuild --all`` reach its target on two cores (folding, the engine's work,
costs more per entry than reading).

A few tables (``only``) are read one by one instead (``EventLog.read``).
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import multiprocessing
import threading
from collections.abc import AsyncIterator
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from gcbc.eventlog.port import FullLog, Stored
from services.ops.jobs import Job, JobKind

BATCH = 2000  # entries sent to a worker process at once
# batches per worker process sent and not answered, or answered and not taken, before the log's
# reading waits: a reader slower than the folding (a rebuild writing to a slow Redis) holds a
# bounded number of results, not every table's
AHEAD = 8
FEW = 64  # up to this many tables named: read one by one rather than a pass over the log


class Pass:
    """A pass of ``kind`` over ``only`` (None: every table). ``start()``, then ``results()``;
    ``entries``/``tables`` tell how far it is (of ``total_entries``/``total_tables``)."""

    def __init__(
        self,
        events: FullLog,
        kind: JobKind,
        only: set[str] | None = None,
        workers: int = 0,
    ) -> None:
        self.events, self.kind, self.only, self.workers = events, kind, only, workers
        self.last = 0
        self.sizes: dict[str, int] = {}
        self.entries = 0  # entries folded so far
        self.tables = 0  # tables whole so far
        self.total_entries = 0
        self.total_tables = 0

    async def start(self) -> Pass:
        self.last, sizes = await self.events.sizes()
        if self.only is not None:
            sizes = {t: n for t, n in sizes.items() if t in self.only}
        self.sizes = sizes
        self.total_tables = len(sizes)
        self.total_entries = sum(sizes.values())
        return self

    def results(self) -> AsyncIterator[Any]:
        """Each table's result (None results are left out) as its table is whole."""
        if self.only is not None and len(self.only) <= FEW:
            return self._one_by_one()
        if self.workers > 0 and self.total_entries > BATCH:
            return self._in_processes()
        return self._here()

    async def _one_by_one(self) -> AsyncIterator[Any]:
        for table in sorted(self.sizes):
            job = self.kind(table)
            for stored in await self.events.read(table):
                job.feed(stored)
                self.entries += 1
            self.tables += 1
            result = job.finish()
            if result is not None:
                yield result

    async def _here(self) -> AsyncIterator[Any]:
        tables = _Open(self.kind, self.sizes)
        async for batch in self.events.scan(until=self.last):
            for stored in batch:
                job = tables.feed(stored)
                self.entries = tables.fed
                if job is not None:
                    self.tables += 1
                    result = job.finish()
                    if result is not None:
                        yield result
            await asyncio.sleep(0)
        for job in tables.jobs.values():  # the snapshot counted entries the scan did not reach
            self.tables += 1
            result = job.finish()
            if result is not None:
                yield result

    async def _in_processes(self) -> AsyncIterator[Any]:
        pool = _Workers(self.kind, self.workers)
        try:
            pool.start(self.sizes)
            feeder = asyncio.create_task(self._feed(pool))
            async for kind, payload in pool.answers():
                if kind == "results":
                    folded, whole, results = payload
                    self.entries += folded
                    self.tables += whole
                    for result in results:
                        yield result
                elif kind == "failed":  # reading the log failed (LogUnavailable: said as such)
                    with contextlib.suppress(BaseException):
                        await feeder  # (its failure, taken)
                    raise payload
                elif kind == "error":
                    raise RuntimeError(f"a worker process failed: {payload}")
            await feeder
        finally:
            pool.stop()

    async def _feed(self, pool: _Workers) -> None:
        try:
            async for batch in self.events.scan(until=self.last):
                await pool.route(batch)
            await pool.finish()
        except BaseException as e:
            pool.fail(e)
            raise


class _Open:
    """The tables of a pass still being folded: each entry fed to its table's job, given back
    once its table is whole (the sizes snapshot says when); an entry of a table not in the pass,
    or appended since the snapshot, is passed over."""

    def __init__(self, kind: JobKind, sizes: dict[str, int]) -> None:
        self.kind, self.sizes = kind, sizes
        self.jobs: dict[str, Job] = {}
        self.seen: dict[str, int] = {}
        self.fed = 0  # entries fed

    def feed(self, stored: Stored) -> Job | None:
        table = stored.table
        size = self.sizes.get(table)
        if size is None:
            return None
        job = self.jobs.get(table)
        if job is None:
            if self.seen.get(table, 0) >= size:
                return None  # whole already (entries appended since the snapshot)
            job = self.jobs[table] = self.kind(table)
        job.feed(stored)
        self.fed += 1
        n = self.seen[table] = self.seen.get(table, 0) + 1
        if n < size:
            return None
        del self.jobs[table]
        return job


# --- worker processes ---------------------------------------------------------------------------
def _worker(kind: JobKind, inbox: Any, outbox: Any) -> None:
    """A worker process: folds the tables routed to it, in order; sends results as tables end."""
    gc.freeze()
    gc.set_threshold(50_000, 20, 100)
    try:
        tables = _Open(kind, inbox.recv())
        while True:
            batch = inbox.recv()
            if batch is None:
                break
            results = []
            whole = 0
            for seq, table, data, at in batch:
                job = tables.feed(Stored(seq=seq, table=table, data=data, at=at))
                if job is not None:
                    whole += 1
                    result = job.finish()
                    if result is not None:
                        results.append(result)
            outbox.send(("results", (len(batch), whole, results)))
        results = [r for r in (job.finish() for job in tables.jobs.values()) if r is not None]
        outbox.send(("results", (0, len(tables.jobs), results)))
        outbox.send(("done", None))
    except BaseException as e:  # noqa: BLE001  (told to the pass, which stops)
        with contextlib.suppress(Exception):
            outbox.send(("error", f"{type(e).__name__}: {e}"))


class _Workers:
    def __init__(self, kind: JobKind, count: int) -> None:
        self.kind, self.count = kind, count
        self.ctx = multiprocessing.get_context("spawn")  # no fork of a process with a loop
        self.procs: list[Any] = []
        self.inboxes: list[Any] = []
        self.outboxes: list[Any] = []
        self.buffers: list[list[tuple[int, str, bytes, float]]] = [[] for _ in range(count)]
        # one thread per worker: a connection's messages go out one at a time, in order
        self.senders = [ThreadPoolExecutor(1, thread_name_prefix="ops-send") for _ in range(count)]
        self.queue: asyncio.Queue[tuple[str, Any]] = asyncio.Queue()
        self.taken = asyncio.Event()  # an answer was taken from the queue
        self.unanswered = 0  # messages sent whose results are not taken yet
        self.loop = asyncio.get_running_loop()
        self.route_of: dict[str, int] = {}

    def start(self, sizes: dict[str, int]) -> None:
        parts: list[dict[str, int]] = [{} for _ in range(self.count)]
        load = [0] * self.count
        for table, n in sorted(sizes.items(), key=lambda x: -x[1]):  # the same entries each
            k = load.index(min(load))
            load[k] += n
            parts[k][table] = n
            self.route_of[table] = k
        for k in range(self.count):
            receive, send = self.ctx.Pipe(duplex=False)
            answer_receive, answer_send = self.ctx.Pipe(duplex=False)
            proc = self.ctx.Process(
                target=_worker, args=(self.kind, receive, answer_send), daemon=True
            )
            proc.start()
            receive.close()
            answer_send.close()
            send.send(parts[k])
            self.procs.append(proc)
            self.inboxes.append(send)
            self.outboxes.append(answer_receive)
            threading.Thread(target=self._listen, args=(k,), daemon=True).start()

    def _listen(self, k: int) -> None:
        conn = self.outboxes[k]
        while True:
            try:
                message = conn.recv()
            except (EOFError, OSError):
                message = ("error", f"worker {k} ended")
            self.loop.call_soon_threadsafe(self.queue.put_nowait, message)
            if message[0] in ("done", "error"):
                return

    async def _send(self, k: int, message: Any) -> None:
        """One message to worker ``k``, once fewer than AHEAD per worker are unanswered (each
        message is answered once: its results)."""
        while self.unanswered >= AHEAD * self.count:
            self.taken.clear()
            await self.taken.wait()
        self.unanswered += 1
        await self.loop.run_in_executor(self.senders[k], self.inboxes[k].send, message)

    async def _send_all(self, k: int, messages: list[Any]) -> None:
        for message in messages:  # in order: a table's entries go to its worker as they came
            await self._send(k, message)

    async def route(self, batch: list[Stored]) -> None:
        route_of = self.route_of
        buffers = self.buffers
        full: dict[int, list[Any]] = {}
        for s in batch:
            k = route_of.get(s.table)
            if k is None:
                continue
            b = buffers[k]
            b.append((s.seq, s.table, s.data, s.at))
            if len(b) >= BATCH:
                buffers[k] = []
                full.setdefault(k, []).append(b)
        await asyncio.gather(*(self._send_all(k, messages) for k, messages in full.items()))

    async def finish(self) -> None:
        for k in range(self.count):
            if self.buffers[k]:
                await self._send(k, self.buffers[k])
                self.buffers[k] = []
            await self._send(k, None)

    def fail(self, e: BaseException) -> None:
        self.queue.put_nowait(("failed", e))

    async def answers(self) -> AsyncIterator[tuple[str, Any]]:
        done = 0
        while done < self.count:
            kind, payload = await self.queue.get()
            if kind == "results":
                self.unanswered -= 1
                self.taken.set()
            if kind == "done":
                done += 1
                continue
            yield kind, payload
            if kind in ("error", "failed"):
                return

    def stop(self) -> None:
        for conn in self.inboxes:
            with contextlib.suppress(Exception):
                conn.close()
        for proc in self.procs:
            proc.join(timeout=2)
            if proc.is_alive():
                proc.terminate()
        for sender in self.senders:
            sender.shutdown(wait=False, cancel_futures=True)
