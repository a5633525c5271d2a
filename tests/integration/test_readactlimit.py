"""tools/readactlimit.py: the design's physical limit with a view read before each command. The
limit's own script lives beside the repository (not in a clone), so a stand-in with the limit's
``table_app`` signature is loaded the same way; the added route reads the stored view from a real
Redis."""

from __future__ import annotations

import asyncio
import time
from pathlib import Path

import redis.asyncio as aioredis
from litestar.testing import TestClient

from tools.readactlimit import load_limit, table_app

STAND_IN = """
from typing import Annotated

from litestar import Litestar, post
from litestar.params import PathParameter

def table_app(nats_url, redis_url):
    @post("/tables/{table_id:str}/commands", status_code=200)
    async def command(table_id: Annotated[str, PathParameter()]) -> dict:
        return {}
    return Litestar([command])
"""


def test_the_view_route_answers_the_stored_view(tmp_path: Path, redis_url: str) -> None:
    script = tmp_path / "limit_stand_in.py"
    script.write_text(STAND_IN)

    async def put() -> None:
        r = aioredis.from_url(redis_url)
        await r.set("view:tb7:3", b'{"seat": 3}')
        await r.aclose()

    asyncio.run(put())
    app = table_app(load_limit(script), "nats://unused", redis_url)
    with TestClient(app) as client:
        assert client.get("/tables/tb7/view", params={"seat": 3}).json() == {"seat": 3}
        assert client.get("/tables/tb8/view").json() == {}  # nothing stored yet
        assert client.post("/tables/tb7/commands").status_code == 200  # the limit's own route


def test_the_load_reads_a_view_before_each_command(tmp_path: Path, redis_url: str) -> None:
    """The load generator, against the stand-in served on a port: each command is timed from
    its POST, after its seat's view was read (and decoded)."""
    import threading

    import uvicorn

    from tools.devservers import free_port
    from tools.readactlimit import load

    script = tmp_path / "limit_stand_in.py"
    script.write_text(STAND_IN)
    app = table_app(load_limit(script), "nats://unused", redis_url)
    port = free_port()
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning"))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    try:
        while not server.started:
            time.sleep(0.01)
        got = asyncio.run(load(f"http://127.0.0.1:{port}", 2, 0.5))
        assert got["tables"] == 2 and got["commands"] > 0
        assert got["commands_per_s"] > 0 and 0 < got["p50_ms"] <= got["p99_ms"]
    finally:
        server.should_exit = True
        thread.join(10)


def test_every_entry_hands_each_worker_its_kind_and_acknowledges_the_other(nats_url: str) -> None:
    """--every-entry: the limit's workers consume every entry (as this server's each get the
    whole log) and are handed their own kind only; the other kind is acknowledged unread, and the
    table service's follower receives every entry."""
    import types
    import uuid

    import nats
    from nats.js.errors import NotFoundError

    from tools import readactlimit

    async def go() -> None:
        nc = await nats.connect(nats_url)
        js = nc.jetstream()
        # the limit's subjects (t.<table>.cmd, t.<table>.out) under a prefix of this test's own
        prefix = f"limit{uuid.uuid4().hex[:8]}"
        stream = prefix.upper()
        await js.add_stream(name=stream, subjects=[f"{prefix}.>"])
        limit = types.ModuleType("limit_stand_in")
        readactlimit.every_entry(limit, prefix)
        handed: list[str] = []

        async def rules_out(js: object, msgs: list) -> None:
            handed.extend(m.subject for m in msgs)
            for m in msgs:
                await m.ack()

        worker = asyncio.create_task(limit.worker(nats_url, "t.*.cmd", rules_out))
        await readactlimit._follow_every_entry(nats_url, prefix)
        for kind in ("cmd", "out", "cmd", "out"):
            await js.publish(f"{prefix}.tb1.{kind}", b"x")
        info = None
        for _ in range(200):
            try:
                info = await js.consumer_info(stream, "every_cmd")
            except NotFoundError:  # the worker has not made its consumer yet
                pass
            if info is not None and info.ack_floor.stream_seq == 4:
                break
            await asyncio.sleep(0.05)
        assert info is not None
        worker.cancel()
        assert handed == [f"{prefix}.tb1.cmd"] * 2  # its own kind, in order
        assert info.ack_floor.stream_seq == 4 and info.num_pending == 0  # the answers acked too
        assert readactlimit._following[-1].delivered == 4  # the follower: every entry
        for held in readactlimit._following[::2]:
            await held.close()
        readactlimit._following.clear()
        await js.delete_stream(stream)
        await nc.close()

    asyncio.run(go())
