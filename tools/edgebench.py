"""``python -m tools.edgebench``: what the table service's edge costs per request.

- The connection guard (``services/table/connections.py``): the same small app is served by
  uvicorn with its plain httptools protocol and with the guarded one, in turns; a client sends
  requests over kept-alive connections, then over a new connection each; the figure is the
  server's CPU time per request (user + system, from /proc), so the client's own cost and the
  machine's other work are left out.
- A refused body (``services/table/edge.py``): the CPU the edge spends refusing the largest body
  it reads (64 KiB) of each of the dearest shapes found, the dearest of them the figure. Such a
  body is charged to its client as 16 requests (one per 4 KiB): docs/benchmarks.md sets the
  figure beside what 16 of the cheapest requests cost.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import subprocess
import sys
import time
from pathlib import Path

from services.table.app import MAX_BODY
from tools import devservers
from tools.bench.machine import cpu_seconds

ROOT = Path(__file__).resolve().parents[1]
PROTOCOLS = {"plain": "httptools", "guarded": "services.table.connections:GuardedHttp"}
REQUEST = b"GET /tables/0123456789abcdef HTTP/1.1\r\nHost: bench\r\nUser-Agent: edgebench\r\n\r\n"

SERVER = """
import sys, uvicorn
async def app(scope, receive, send):
    if scope["type"] != "http":
        return
    body = b'{"table_id":"0123456789abcdef","version":1}'
    await send({"type": "http.response.start", "status": 200,
                "headers": [(b"content-type", b"application/json"),
                            (b"content-length", str(len(body)).encode())]})
    await send({"type": "http.response.body", "body": body})
uvicorn.run(app, host="127.0.0.1", port=int(sys.argv[1]), http=sys.argv[2], loop="uvloop",
            log_level="warning", lifespan="off", access_log=False)
"""


async def _one(port: int, requests: int, keep_alive: bool) -> None:
    reader = writer = None
    for i in range(requests):
        if writer is None:
            reader, writer = await asyncio.open_connection("127.0.0.1", port)
        writer.write(REQUEST)
        head = await reader.readuntil(b"\r\n\r\n")
        length = int(head.lower().split(b"content-length:")[1].split(b"\r\n")[0])
        await reader.readexactly(length)
        if not keep_alive or i == requests - 1:
            writer.close()
            await writer.wait_closed()
            writer = None


async def _load(port: int, connections: int, requests: int, keep_alive: bool) -> None:
    each = requests // connections
    await asyncio.gather(*(_one(port, each, keep_alive) for _ in range(connections)))


def run(protocol: str, requests: int, keep_alive: bool) -> float:
    """Server CPU microseconds per request."""
    port = devservers.free_port()
    env = {
        **os.environ,
        "GCBC_CONNECTIONS_PER_CLIENT": "0",
        "GCBC_CLIENT_REQUESTS": "1e9",  # counted, never refused: its cost is measured too
        "PYTHONPATH": f"{ROOT}:{ROOT}/shared",
    }
    proc = subprocess.Popen([sys.executable, "-c", SERVER, str(port), protocol], env=env, cwd=ROOT)
    try:
        for _ in range(100):
            try:
                asyncio.run(_load(port, 1, 1, True))
                break
            except OSError:
                time.sleep(0.1)
        asyncio.run(_load(port, 20, 2000, keep_alive))  # warm
        before = cpu_seconds(proc.pid, children=False)
        asyncio.run(_load(port, 20, requests, keep_alive))
        return (cpu_seconds(proc.pid, children=False) - before) / requests * 1e6
    finally:
        proc.terminate()
        proc.wait(10)


BODY = MAX_BODY  # the largest body the table service reads


def _filled(head: bytes, item: bytes, tail: bytes) -> bytes:
    """``head``, as many ``item`` (comma-separated) as fit in BODY, ``tail``."""
    n = (BODY - len(head) - len(tail)) // (len(item) + 1)
    return head + b",".join([item] * n) + tail


# bodies that cost the edge the most, each refused: numbers near the largest exponent, long
# floats, plain floats, numbers that underflow, many small integers, many keys, escaped
# characters, a deep nest
BODIES = {
    "exponents_near_308": _filled(b'{"text": [', b"1e308", b"]}"),
    "long_floats": _filled(b"[", b"1.7976931348623157e308", b"]"),
    "plain_floats": _filled(b"[", b"0.5", b"]"),
    "underflows": _filled(b"[", b"1e-400", b"]"),
    "small_numbers": _filled(b"[", b"1", b"]"),
    "keys": _filled(b'{"text": "x", "o": {', b'"k": 0', b"}}"),
    "escapes": _filled(b'{"text": ["', b"\\u00e9\\n", b'"]}'),
    "deep": b'{"text": ' + b"[" * 30_000 + b"]" * 30_000 + b"}",
}


def refusals(rounds: int = 20) -> dict[str, float]:
    """The edge's CPU per refusal of each body, ms (the least of ``rounds``)."""
    from gcbc_contract.http import Chat
    from services.table.edge import strict
    from services.table.problems import ApiError

    out = {}
    for name, body in BODIES.items():
        assert len(body) <= BODY, name
        runs = []
        for _ in range(rounds):
            started = time.process_time()
            try:
                strict(body, Chat)
            except ApiError:
                pass
            else:
                raise AssertionError(f"{name}: not refused")
            runs.append(time.process_time() - started)
        out[name] = round(min(runs) * 1000, 2)
    return out


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m tools.edgebench", description=__doc__)
    p.add_argument("--requests", type=int, default=40_000)
    p.add_argument("--rounds", type=int, default=3, help="alternated runs of each protocol")
    p.add_argument("--out", type=Path)
    a = p.parse_args(argv)
    figures: dict[str, dict[str, float]] = {}
    for mode, keep_alive in (("kept_alive", True), ("new_connection", False)):
        runs: dict[str, list[float]] = {name: [] for name in PROTOCOLS}
        for _ in range(a.rounds):
            for name, protocol in PROTOCOLS.items():
                runs[name].append(run(protocol, a.requests, keep_alive))
        plain, guarded = (min(runs[n]) for n in PROTOCOLS)  # the least disturbed run of each
        figures[mode] = {
            "plain_us": round(plain, 1),
            "guarded_us": round(guarded, 1),
            "cost_us": round(guarded - plain, 1),
            "runs": {n: [round(x, 1) for x in v] for n, v in runs.items()},
        }
        print(f"{mode}: {json.dumps(figures[mode])}", flush=True)
    bodies = refusals()
    refused = {"dearest_ms": max(bodies.values()), "ms": bodies}
    print(f"refused bodies: {json.dumps(refused)}", flush=True)
    if a.out:
        out = {"server_cpu_per_request": figures, "refused_body": refused}
        a.out.write_text(json.dumps(out, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
