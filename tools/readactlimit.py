"""``python -m tools.readactlimit``: the design's physical limit (``noop_pipeline.py``) played the
way this game is played: each command preceded by a read of the acting seat's view.

The limit measures one HTTP request per command: its load generator POSTs a command and its answer
is the next command's cue. In Good Cop Bad Cop the seat that acts next is another seat than the
one that just acted, and it must read its own view (its cards, its legal commands) before it can
choose: this server's closed loop makes about 2.2 requests per command (the bench driver reads
the acting seat's view, then sends its command). This runs the limit's very processes (its rules
worker and projection unchanged, its table service with one route more: ``GET
/tables/{id}/view?seat=n``, one Redis read answered as bytes) with a load generator that reads a
seat's view and decodes it before each POST. It is reported beside the limit, never instead of it
(the targets are against the limit itself): the difference between the two is what the
game's read-before-act protocol costs on this machine, with no rules and no real views.

The limit's own script is loaded from beside the repository (``tools.bench.LIMIT``) and run with
this module's roles; its ``bench`` starts NATS, Redis and the three processes by re-running the
file it is given, so ``__file__`` is pointed here for that.

``--every-entry`` (``GCBC_LIMIT_EVERY_ENTRY=1``, which the processes inherit): the same, with this
server's deliveries. The limit's commands and answers are on subjects of their own, so its rules
worker gets the commands alone and its projection the answers alone. This server's table has one
subject, so each of its consumers gets every entry, and its table service follows every entry too,
to keep its tables folded: six deliveries per command where the limit has two. Here the limit's
rules worker and projection each consume every entry (the other kind acknowledged unread), and its
table service follows every entry with an ordered consumer. The difference from the plain
read-first limit is what the one subject per table costs, with no rules at all (the bench's first
design change: commands and answers on subjects of their own).
"""

from __future__ import annotations

import argparse
import asyncio
import importlib.util
import json
import os
import sys
import time
from pathlib import Path
from types import ModuleType
from typing import Annotated, Any

import redis.asyncio as aioredis
from litestar import Response, get
from litestar.params import Parameter, PathParameter

SEATS = 6  # the limit's tables (its projection writes views 0..SEATS)
EVERY_ENTRY = "GCBC_LIMIT_EVERY_ENTRY"  # "1": every process gets every entry, as this server's do


def load_limit(script: Path) -> ModuleType:
    spec = importlib.util.spec_from_file_location("noop_pipeline", script)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # (Litestar resolves its handlers' annotations there)
    spec.loader.exec_module(module)
    return module


def table_app(limit: ModuleType, nats_url: str, redis_url: str) -> Any:
    """The limit's table service and a view route: the seat's view as stored (one Redis GET)."""
    app = limit.table_app(nats_url, redis_url)
    redis: list[Any] = []

    @get("/tables/{table_id:str}/view")
    async def view(
        table_id: Annotated[str, PathParameter()], seat: Annotated[int, Parameter(ge=0)] = 0
    ) -> Response[bytes]:
        if not redis:
            redis.append(aioredis.from_url(redis_url))
        raw = await redis[0].get(f"view:{table_id}:{seat}")
        return Response(raw or b"{}", media_type="application/json")

    app.register(view)
    if os.environ.get(EVERY_ENTRY) == "1":

        async def follow() -> None:
            await _follow_every_entry(nats_url)

        app.on_startup.append(follow)
    return app


_following: list[Any] = []  # the follower's connection and subscription, kept alive


async def _follow_every_entry(nats_url: str, prefix: str = "t") -> None:
    """Every entry of the log, as this server's table service follows it (an ordered consumer;
    the entry received, nothing folded: the limit has no rules)."""
    import nats

    nc = await nats.connect(nats_url)

    async def received(msg: Any) -> None:
        return None

    following = await nc.jetstream().subscribe(f"{prefix}.>", cb=received, ordered_consumer=True)
    _following.extend([nc, following])


def every_entry(limit: ModuleType, prefix: str = "t") -> None:
    """The limit's rules worker and projection each on every entry of the log: a consumer of
    their own on ``t.*.*`` (commands and answers; ``prefix``: the limit's ``t``), handing the
    limit's code the kind it consumes (its subject's last token) and acknowledging the others
    unread."""

    async def worker(nats_url: str, in_subj: str, out_fn: Any) -> None:
        import nats

        kind = "." + in_subj.rsplit(".", 1)[1]  # .cmd (the rules worker) or .out (the projection)
        nc = await nats.connect(nats_url)
        js = nc.jetstream()
        durable = f"every{kind.replace('.', '_')}"
        sub = await js.pull_subscribe(f"{prefix}.*.*", durable=durable)
        while True:
            try:
                msgs = await sub.fetch(100, timeout=1)
            except Exception:  # noqa: BLE001  (as the limit's own loop: none came, ask again)
                continue
            others = [m for m in msgs if not m.subject.endswith(kind)]
            await asyncio.gather(*(m.ack() for m in others))
            mine = [m for m in msgs if m.subject.endswith(kind)]
            if mine:
                await out_fn(js, mine)

    limit.worker = worker


async def load(base: str, tables: int, seconds: float) -> dict[str, Any]:
    """The limit's load, each command preceded by its seat's view, read and decoded."""
    import aiohttp

    lat: list[float] = []
    stop = time.perf_counter() + seconds
    async with aiohttp.ClientSession(connector=aiohttp.TCPConnector(limit=0)) as s:

        async def table(i: int) -> None:
            n = 0
            while time.perf_counter() < stop:
                n += 1
                seat = n % SEATS  # the next seat to act reads its own view first
                async with s.get(f"{base}/tables/tb{i}/view", params={"seat": seat}) as resp:
                    json.loads(await resp.read())
                t0 = time.perf_counter()
                command = {"type": "investigate", "target": 1, "command_id": f"{i}-{n}"}
                async with s.post(f"{base}/tables/tb{i}/commands", json=command) as resp:
                    await resp.read()
                lat.append(time.perf_counter() - t0)

        t0 = time.perf_counter()
        await asyncio.gather(*(table(i) for i in range(tables)))
        elapsed = time.perf_counter() - t0
    lat.sort()

    def q(p: float) -> float:
        return round(lat[int(p * (len(lat) - 1))] * 1000, 2)

    return {
        "tables": tables,
        "commands": len(lat),
        "commands_per_s": round(len(lat) / elapsed, 1),
        "p50_ms": q(0.5),
        "p95_ms": q(0.95),
        "p99_ms": q(0.99),
    }


def main(argv: list[str] | None = None) -> int:
    # the limit's bench runs this file as a script for each process: the repository is its root
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
    from tools.bench import LIMIT

    p = argparse.ArgumentParser(prog="python -m tools.readactlimit", description=__doc__)
    p.add_argument("role", choices=["bench", "table", "rules", "projection", "load"])
    p.add_argument(
        "--limit",
        default=os.environ.get("GCBC_LIMIT_SCRIPT", str(LIMIT)),
        help="the limit's script (noop_pipeline.py)",
    )
    p.add_argument("--nats")
    p.add_argument("--redis")
    p.add_argument("--port", type=int)
    p.add_argument("--tables", type=int, default=50)
    p.add_argument("--seconds", type=float, default=20)
    p.add_argument(
        "--every-entry",
        action="store_true",
        help="every process gets every entry, as this server's do (see the module's docstring)",
    )
    a = p.parse_args(argv)
    if a.every_entry:
        os.environ[EVERY_ENTRY] = "1"  # the processes the limit's bench starts inherit it
    limit = load_limit(Path(a.limit))
    if os.environ.get(EVERY_ENTRY) == "1":
        every_entry(limit)
    if a.role == "table":
        import uvicorn

        app = table_app(limit, a.nats, a.redis)
        uvicorn.run(app, host="127.0.0.1", port=a.port, log_level="warning", loop="uvloop")
    elif a.role == "rules":
        asyncio.run(limit.rules_worker(a.nats))
    elif a.role == "projection":
        asyncio.run(limit.projection(a.nats, a.redis))
    elif a.role == "load":
        base = f"http://127.0.0.1:{a.port}"
        print(json.dumps(asyncio.run(load(base, a.tables, a.seconds))))
    else:
        # the limit's bench re-runs ``__file__ <role>`` for each process: this module's roles,
        # on the same limit script
        os.environ["GCBC_LIMIT_SCRIPT"] = a.limit
        limit.__file__ = str(Path(__file__).resolve())
        limit.bench(a)
    return 0


if __name__ == "__main__":
    sys.exit(main())
