"""The rebuild bench: how many log entries a second ``gcbc-ops rebuild --all`` turns
into views, on this machine. A NATS and a Redis of its own (local servers on free ports, data in
a temporary directory), filled with realistic table logs by ``tools.tablelogs`` (bots play whole
tables on the engine; about a tenth stay in the lobby), then ``gcbc-ops rebuild --all --yes
--json`` as an operator runs it (its own process, the admin users), twice: onto an empty read
model, and again over the views it wrote. Prints the rates and the machine's figures and whether
the best rate meets the target (50,000 entries/s; ``--strict``: exit 1 if not). A machine busy
with other work measures less: the load average is printed too.

``python -m tools.rebuildbench --tables 300``
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from tools import devservers, tablelogs
from tools.bench.machine import described, load_average

ROOT = Path(__file__).resolve().parent.parent
TARGET = 50_000  # log entries a second


def rebuild(env: dict[str, str]) -> dict[str, float]:
    out = subprocess.run(
        [sys.executable, "-m", "services.ops", "rebuild", "--all", "--yes", "--json"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        check=False,
        timeout=600,
    )
    if out.returncode != 0:
        raise SystemExit(f"rebuild failed ({out.returncode}): {out.stderr.decode()[-2000:]}")
    for line in out.stdout.decode().splitlines():
        got = json.loads(line)
        if "summary" in got:
            return got["summary"]
    raise SystemExit("rebuild printed no summary")


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m tools.rebuildbench", description=__doc__)
    p.add_argument("--tables", type=int, default=300, help="tables in the log (default 300)")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--strict", action="store_true", help="exit 1 under the target")
    p.add_argument(
        "--out", metavar="FILE", help="also write the figures there, as JSON (make bench's summary)"
    )
    args = p.parse_args(argv)

    with tempfile.TemporaryDirectory(prefix="gcbc-rebuild-bench-") as tmp:
        nats = devservers.start_nats(Path(tmp) / "nats")
        redis = devservers.start_redis(Path(tmp) / "redis")
        try:
            env = {
                **os.environ,
                "GCBC_NATS_URL": nats.url_for("admin"),
                "GCBC_REDIS_URL": redis.url_for("admin"),
            }
            started = time.monotonic()
            mix = tablelogs.table_mix(args.tables, args.seed)
            entries = asyncio.run(tablelogs.fill_at(env["GCBC_NATS_URL"], mix))
            print(
                f"rebuild bench: {args.tables:,} tables, {entries:,} log entries written in"
                f" {time.monotonic() - started:.1f} s (tools.tablelogs)",
                flush=True,
            )
            best = 0.0
            for what in ("onto an empty read model", "over its own views"):
                got = rebuild(env)
                best = max(best, got["entries_per_second"])
                print(
                    f"  rebuild --all {what}: {got['written']:,} tables, {got['entries']:,}"
                    f" entries in {got['seconds']:.2f} s: {got['entries_per_second']:,.0f}"
                    f" entries/s, {got['tables_per_second']:,.0f} tables/s",
                    flush=True,
                )
        finally:
            redis.stop()
            nats.stop()
    verdict = "ok" if best >= TARGET else "UNDER TARGET"
    load = load_average()
    if args.out:
        figures = {"entries_per_second": round(best), "target": TARGET, "load_average": load}
        Path(args.out).write_text(json.dumps(figures))
    print(
        f"rebuild rate: {best:,.0f} log entries/s (target {TARGET:,}: {verdict}) on {described()};"
        f" load average {load}"
    )
    return 1 if args.strict and best < TARGET else 0


if __name__ == "__main__":
    sys.exit(main())
