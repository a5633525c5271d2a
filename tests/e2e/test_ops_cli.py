"""The operator's CLI end to end: every ``gcbc-ops`` command run as an operator runs it
(its own process, the admin users) against the real NATS and Redis of the session's stack, on
tables bots played through the HTTP API, and on a test stream of its own (tables written by
``tools.tablelogs``) where an answer can be tampered with."""

from __future__ import annotations

import asyncio
import contextlib
import io
import json
import os
import secrets
import subprocess
import sys
import threading
import time
from collections import defaultdict
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import msgspec
import pytest
import redis

from tests.e2e.conftest import auth, seated_table
from tools import devservers, tablelogs
from tools.demo import play_table

ROOT = Path(__file__).resolve().parents[2]


class Ran(msgspec.Struct):
    returncode: int
    stdout: str
    stderr: str


def ops(stack, *args: str, env: dict[str, str] | None = None) -> Ran:
    """``gcbc-ops ARGS`` as an operator runs it: its composition root (the real adapters, the
    admin users), in this process to spare the suite a Python start per command (``tail`` and
    the unreachable servers run it as a process of its own)."""
    from services.ops.cli import main

    settings = {
        "GCBC_NATS_URL": stack.nats_url,
        "GCBC_REDIS_URL": stack.redis_url,
        "GCBC_OPS_WORKERS": "0",
        **(env or {}),
    }
    saved = {k: os.environ.get(k) for k in settings}
    out, errors = io.TextIOWrapper(io.BytesIO(), encoding="utf-8"), io.StringIO()
    os.environ.update(settings)
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(errors):
            code = main(list(args))
    finally:
        for k, v in saved.items():
            if v is None:
                os.environ.pop(k, None)
            else:
                os.environ[k] = v
    out.flush()
    return Ran(code, out.buffer.getvalue().decode(), errors.getvalue())  # type: ignore[attr-defined]


def ops_process(
    stack, *args: str, env: dict[str, str] | None = None, timeout: float = 60
) -> subprocess.CompletedProcess[str]:
    """``python -m services.ops ARGS`` (what the gcbc-ops console script runs)."""
    return subprocess.run(
        [sys.executable, "-m", "services.ops", *args],
        cwd=ROOT,
        env={**stack.env("admin"), **(env or {})},
        capture_output=True,
        text=True,
        timeout=timeout,
        stdin=subprocess.DEVNULL,
        check=False,
    )


def lines(out: str) -> list[dict[str, Any]]:
    return [json.loads(x) for x in out.splitlines() if x.strip()]


def summary(out: str) -> dict[str, Any]:
    (found,) = [x["summary"] for x in lines(out) if "summary" in x]
    return found


MIX = tablelogs.table_mix(20, seed=7, lobby_share=0.1)  # the test stream's tables


class Played(msgspec.Struct):
    table_id: str
    responses: list[tuple[int | None, str, int, bytes]]


@pytest.fixture(scope="module")
def played(stack) -> list[Played]:
    """Two tables bots played to the end through the API, every response each seat got."""
    responses: dict[int, list[tuple[int | None, str, int, bytes]]] = defaultdict(list)

    def recorder(i: int):
        return lambda seat, what, status, body: responses[i].append((seat, what, status, body))

    async def play_all() -> list[str]:
        return await asyncio.gather(
            *(
                play_table(stack.api, 4 + i, "random", seed=500 + i, record=recorder(i))
                for i in range(2)
            )
        )

    ids = asyncio.run(play_all())
    return [Played(t, responses[i]) for i, t in enumerate(ids)]


@pytest.fixture(scope="module")
def test_stream(stack) -> Iterator[dict[str, str]]:
    """A stream of its own (the environment that points the CLI at it): 20 bot tables written
    as the services write them; deleted at the end."""
    name = f"OPS_TEST_{secrets.token_hex(4).upper()}"
    env = {"GCBC_STREAM": name, "GCBC_SUBJECT_PREFIX": f"opstest{name[-8:].lower()}"}

    async def fill() -> None:
        from gcbc.eventlog.jetstream import JetStreamEventLog

        log = await JetStreamEventLog.connect(
            stack.nats_url, stream=name, prefix=env["GCBC_SUBJECT_PREFIX"]
        )
        try:
            await tablelogs.fill(log, MIX)
        finally:
            await log.close()

    asyncio.run(fill())
    yield env

    async def drop() -> None:
        import nats

        nc = await nats.connect(stack.nats_url)
        try:
            await nc.jetstream().delete_stream(name)
        finally:
            await nc.close()

    asyncio.run(drop())


def test_verify_all_passes_on_twenty_bot_tables_and_fails_on_a_tampered_answer(
    stack, test_stream, tmp_path
):
    r = ops(stack, "verify", "--all", "--json", env=test_stream)
    assert r.returncode == 0, r.stderr
    got = summary(r.stdout)
    assert got["tables"] == 20 and got["divergences"] == 0 and got["commands"] > 1000
    # one recorded answer tampered with: a table exported, the name in one seat_taken changed,
    # imported again
    source = next(t["table_id"] for t in MIX if t["finish"])
    exported = ops(stack, "export", source, env=test_stream).stdout.splitlines()
    tampered = next(
        i for i, line in enumerate(exported) if '"type":"seat_taken"' in line.replace(" ", "")
    )  # the line (0: the header)
    row = json.loads(exported[tampered])
    row["entry"]["events"][0]["name"] = "mallory"
    exported[tampered] = json.dumps(row)
    file = tmp_path / "tampered.jsonl"
    file.write_text("\n".join(exported) + "\n")
    copy = "7a" + secrets.token_hex(7)
    r = ops(stack, "import", str(file), "--as", copy, "--json", env=test_stream)
    assert r.returncode == 0, r.stderr
    r = ops(stack, "verify", "--all", "--json", env=test_stream)
    assert r.returncode == 1, r.stderr
    assert summary(r.stdout)["divergences"] == 1
    (divergence,) = [x for x in lines(r.stdout) if "summary" not in x]
    copied = lines(ops(stack, "export", copy, env=test_stream).stdout)
    assert divergence["table"] == copy and divergence["seq"] == copied[tampered]["seq"]
    assert "mallory" in json.dumps(divergence["expected"])


def test_verify_all_over_the_tables_the_services_wrote(stack, played):
    """Every table of the session's log (in a whole run: the bot tables of test_bot_games, one
    per option combination, too): each recorded answer is the one the engine gives again."""
    r = ops(stack, "verify", "--all", "--json")
    assert r.returncode == 0, r.stdout[-2000:]
    got = summary(r.stdout)
    assert got["divergences"] == 0 and got["tables"] >= len(played)


def test_export_import_gives_the_same_table_diff_and_verify_agree(stack, played, tmp_path):
    source = played[0].table_id
    file = tmp_path / "t.jsonl"
    r = ops(stack, "export", source)
    assert r.returncode == 0, r.stderr
    file.write_text(r.stdout)
    copy = "c0" + secrets.token_hex(7)
    r = ops(stack, "import", str(file), "--as", copy, "--json")
    assert r.returncode == 0, r.stderr
    entries = len(r_lines(file)) - 1
    assert lines(r.stdout) == [{"table": copy, "entries": entries, "held_already": 0}]
    http = httpx.Client(base_url=stack.api, timeout=30)
    original = http.get(f"/tables/{source}").json()
    for _ in range(100):  # the projection writes the imported table's views
        got = http.get(f"/tables/{copy}")
        if got.status_code == 200 and got.json()["version"] == original["version"]:
            break
        time.sleep(0.1)
    assert got.json() == json.loads(json.dumps(original).replace(source, copy))
    for command in ("verify", "diff"):
        r = ops(stack, command, copy, "--json")
        assert r.returncode == 0, (command, r.stdout, r.stderr)
    # the rules worker answered none of the imported commands: each kept its recorded answer
    again = ops(stack, "export", copy).stdout.splitlines()
    assert len(again) == len(r_lines(file))
    # imported again: the table holds it all already (an import stopped part-way is completed)
    r = ops(stack, "import", str(file), "--as", copy)
    assert r.returncode == 0 and f"first {entries} entries: 0 more" in r.stdout, r.stderr
    # a table that holds something else is refused, in one line
    r = ops(stack, "import", str(file), "--as", played[1].table_id)
    assert r.returncode == 2 and "exists already" in r.stderr and "Traceback" not in r.stderr


def r_lines(file: Path) -> list[str]:
    return [x for x in file.read_text().splitlines() if x.strip()]


def test_state_at_a_version_and_position_is_the_view_the_seat_was_sent(stack, played):
    def answered(table: Played) -> list[tuple[int, bytes]]:
        return [
            (seat, body)
            for seat, what, status, body in table.responses
            if what == "command" and status == 200 and seat is not None
        ]

    # the longer game of the two (a random deal may end one after a few commands)
    table = max(played, key=lambda t: len(answered(t)))
    sent = answered(table)
    assert len(sent) > 10
    for seat, body in (sent[len(sent) // 2],):
        version = json.loads(body)["version"]
        r = ops(stack, "state", table.table_id, "--version", str(version), "--as", str(seat))
        assert r.returncode == 0, r.stderr
        position = int(r.stderr.split("#")[1].split()[0])
        for how in (("--version", str(version)), ("--at", str(position))):
            r = ops(stack, "state", table.table_id, *how, "--as", str(seat), "--json")
            assert r.returncode == 0, r.stderr
            assert r.stdout.strip().encode() == body, how
    r = ops(stack, "state", table.table_id, "--public", "--json")
    assert r.stdout.strip().encode() == httpx.get(f"{stack.api}/tables/{table.table_id}").content
    r = ops(stack, "state", table.table_id, "--at", str(position), "--json")  # the engine's
    assert r.returncode == 0, r.stderr
    engine = lines(r.stdout)[0]
    assert engine["position"] == position and engine["state"]["table_id"] == table.table_id
    assert engine["state"]["identities"]  # every secret: operators only


def test_diff_finds_a_view_edited_by_hand_and_rebuild_puts_it_back(stack, played):
    table = played[0].table_id
    r = redis.Redis.from_url(stack.redis_url)
    key = f"gcbc:views:{table}"
    public = json.loads(r.hget(key, "public"))
    public["log"] = public["log"][:-1]  # an entry gone from the public view
    r.hset(key, "public", json.dumps(public))
    got = ops(stack, "diff", table, "--json")
    assert got.returncode == 1, got.stderr
    assert [d["key"] for d in lines(got.stdout) if "summary" not in d] == ["public"]
    got = ops(stack, "diff", "--all", "--json")
    assert got.returncode == 1
    assert {"table": table, "key": "public"} in [
        {"table": d["table"], "key": d["key"]} for d in lines(got.stdout) if "summary" not in d
    ]
    dry = ops(stack, "rebuild", table, "--dry-run", "--json")
    assert dry.returncode == 0 and summary(dry.stdout)["would_change"] == 1
    assert ops(stack, "diff", table).returncode == 1  # a dry run writes nothing
    fixed = ops(stack, "rebuild", table, "--json")
    assert fixed.returncode == 0 and summary(fixed.stdout)["written"] == 1, fixed.stderr
    assert ops(stack, "diff", table).returncode == 0
    r.close()


def test_rebuild_all_under_live_traffic_never_serves_a_404(stack, played):
    stop = threading.Event()
    seen: list[int] = []
    urls = [f"/tables/{p.table_id}" for p in played]

    def watch() -> None:
        with httpx.Client(base_url=stack.api, timeout=30) as http:
            while not stop.is_set():
                for url in urls:
                    seen.append(http.get(url).status_code)
                seen.append(http.get("/tables").status_code)

    live: list[str] = []
    game = threading.Thread(
        target=lambda: live.append(asyncio.run(play_table(stack.api, 4, "random", seed=9))),
    )
    watchers = [threading.Thread(target=watch) for _ in range(2)]
    for t in (game, *watchers):
        t.start()
    try:
        assert ops(stack, "rebuild", "--all").returncode == 2  # asks first: no terminal here
        r = ops(stack, "rebuild", "--all", "--yes", "--json")
        assert r.returncode == 0, r.stderr
        figures = summary(r.stdout)
        assert figures["failed"] == 0 and figures["written"] >= 2
    finally:
        game.join(120)
        stop.set()
        for t in watchers:
            t.join(30)
    assert seen and set(seen) == {200}, {s: seen.count(s) for s in set(seen)}
    assert live and ops(stack, "diff", live[0]).returncode == 0  # no view older than the live one


def test_tables_inspect_replay_tail_status_and_scenario(stack, played, http):
    finished = {p.table_id for p in played}
    r = ops(stack, "tables", "--status", "finished", "--json")
    assert r.returncode == 0 and finished <= {x["table"] for x in lines(r.stdout)}
    stuck = ops(stack, "tables", "--stuck", "--json")
    assert not finished & {x["table"] for x in lines(stuck.stdout)}
    table = played[0].table_id
    timeline = lines(ops(stack, "inspect", table, "--json").stdout)
    positions = [x["seq"] for x in timeline]
    assert (
        positions == sorted(positions) and timeline[0]["entry"]["command"]["type"] == "open_table"
    )
    r = ops(stack, "inspect", table, "--from", str(positions[2]), "--to", str(positions[5]))
    assert r.returncode == 0 and "take_seat" in r.stdout and "open_table" not in r.stdout
    # the replay as seat 0 saw it ends with the view seat 0 has now
    changes = lines(ops(stack, "replay", table, "--as", "0", "--json").stdout)
    tokens = [b for s, w, st, b in played[0].responses if w == "seat" and st == 201]
    token = next(json.loads(b)["token"] for b in tokens if json.loads(b)["seat"] == 0)
    final = http.get(f"/tables/{table}/view", headers=auth(token)).json()
    assert changes[-1]["version"] == final["version"]
    # up to a view seat 0 was sent mid-game, the replay showed seat 0 exactly that view's log
    sent = [
        json.loads(b)
        for s, w, st, b in played[0].responses
        if s == 0 and w == "command" and st == 200
    ]
    then = sent[len(sent) // 2]
    seen = [e for c in changes if c["version"] <= then["version"] for e in c["log"]]
    assert [e["v"] for e in seen] == sorted({e["v"] for e in seen})
    assert seen[-len(then["log"]) :] == then["log"]
    # tail: new entries as they come (a lobby table's chat: a command and its answer); --public:
    # what spectators see (the message, not the entries and their token hashes)
    lobby, seat_tokens = seated_table(http, seats=4)
    tails = [
        subprocess.Popen(
            [sys.executable, "-m", "services.ops", "tail", lobby, "--count", "2", "--json", *more],
            cwd=ROOT,
            env=stack.env("admin"),
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for more in ([], ["--public"])
    ]
    deadline = time.monotonic() + 30
    while any(t.poll() is None for t in tails) and time.monotonic() < deadline:
        http.post(f"/tables/{lobby}/chat", headers=auth(seat_tokens[1]), json={"text": "hi"})
        time.sleep(0.5)
    (out, errors), (public, _) = (t.communicate(timeout=10) for t in tails)
    assert [t.returncode for t in tails] == [0, 0], errors
    kinds = [x["entry"]["kind"] for x in lines(out)]
    assert len(kinds) == 2 and "command" in kinds, out
    said = lines(public)
    assert said and all(set(x) == {"table", "seq", "chat"} for x in said), public
    assert said[0]["chat"]["text"] == "hi" and "token" not in public
    # status: the log, both consumers, the read model
    got = lines(ops(stack, "status", "--json").stdout)[0]
    assert got["log"]["entries"] >= got["log"]["tables"] > 0
    assert {"rules-worker", "projection"} <= {g["name"] for g in got["consumers"]}
    assert got["read_model"]["epoch"] and got["read_model"]["tables"].get("finished", 0) >= 2
    # export --scenario: a table dealt again the same way on a scenario server
    body = json.loads(ops(stack, "export", table, "--scenario").stdout)
    assert body["seed"].isdigit()  # as the API gives seeds: a JavaScript client holds any
    again = http.post("/tables", json=body)
    assert again.status_code == 201, again.text


def test_unreachable_servers_one_line_and_exit_2_within_seconds(stack):
    closed = f"127.0.0.1:{devservers.free_port()}"
    for env in ({"GCBC_NATS_URL": f"nats://{closed}"}, {"GCBC_REDIS_URL": f"redis://{closed}/0"}):
        started = time.monotonic()
        r = ops_process(stack, "status", env=env, timeout=30)
        assert r.returncode == 2, r
        assert time.monotonic() - started < 15
        assert "cannot be reached" in r.stderr and "Traceback" not in r.stderr
        assert len(r.stderr.strip().splitlines()) == 1, r.stderr
