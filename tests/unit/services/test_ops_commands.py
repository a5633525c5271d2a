"""gcbc-ops on the in-memory twins: what the end-to-end tests (tests/e2e/test_ops_cli.py) cannot
arrange cheaply: a stuck table, a table the engine cannot fold, the question before --all."""

from __future__ import annotations

import asyncio
import json
import time

from click.testing import CliRunner

from gcbc.eventlog.memory import MemoryEventLog
from gcbc.readmodel.memory import MemoryReadModel
from gcbc_contract import commands as C
from gcbc_contract import events as E
from gcbc_contract.entries import CommandEntry, OutcomeEntry, encode_entry
from gcbc_contract.options import TableOptions
from tests.unit.services.ops_support import invoke
from tools import tablelogs


def _filled() -> tuple[MemoryEventLog, MemoryReadModel]:
    log = MemoryEventLog()

    async def fill() -> None:
        for i, (finish, options) in enumerate(
            [(True, TableOptions(zombies=True)), (True, TableOptions()), (False, TableOptions())]
        ):
            table_id = f"00000000000000a{i}"
            await tablelogs.write_table(
                log, tablelogs.play(table_id, 4, i, options, finish), table_id
            )

    asyncio.run(fill())
    return log, MemoryReadModel()


def _json(result) -> list[dict]:
    return [json.loads(x) for x in result.stdout.splitlines() if x.strip()]


def test_tables_by_status_option_idle_and_stuck():
    log, model = _filled()
    runner = CliRunner()
    every = _json(invoke(runner, log, model, ["tables", "--json"]))
    assert {t["status"] for t in every} == {"finished", "lobby"} and len(every) == 3
    lobby = _json(invoke(runner, log, model, ["tables", "--status", "lobby", "--json"]))
    assert [t["table"] for t in lobby] == ["00000000000000a2"]
    zombies = _json(invoke(runner, log, model, ["tables", "--option", "zombies", "--json"]))
    assert [t["table"] for t in zombies] == ["00000000000000a0"]
    assert _json(invoke(runner, log, model, ["tables", "--idle", "1h", "--json"])) == []
    assert _json(invoke(runner, log, model, ["tables", "--stuck", "--json"])) == []
    # a command nobody answered, written a minute ago
    old = int(time.time() * 1000) - 60_000
    last = asyncio.run(log.last("00000000000000a2"))
    assert last is not None
    entry = CommandEntry(command=C.TakeSeat(name="late"), at=old, prev=last.seq)
    asyncio.run(log.append("00000000000000a2", encode_entry(entry), last.seq))
    stuck = _json(invoke(runner, log, model, ["tables", "--stuck", "--json"]))
    assert [t["table"] for t in stuck] == ["00000000000000a2"]
    assert "(take_seat) unanswered for 60 s" in stuck[0]["stuck"]
    text = invoke(runner, log, model, ["tables", "--stuck"])
    assert "STUCK: command" in text.stdout and "1 table(s) of 3" in text.stderr


def test_rebuild_goes_on_past_a_table_it_cannot_fold_and_reports_it():
    log, model = _filled()
    bad = "00000000000000b0"

    async def broken() -> None:
        opened = CommandEntry(command=C.OpenTable(table_id=bad, seats=4))
        seq = (await log.append(bad, encode_entry(opened), 0)).seq
        # an answer no engine could have given: a seat that does not exist
        wrong = OutcomeEntry(answers=seq, events=[E.SeatTaken(seat=9, name="ghost")], prev=seq)
        await log.append(bad, encode_entry(wrong), seq)

    asyncio.run(broken())
    runner = CliRunner()
    asked = invoke(runner, log, model, ["rebuild", "--all"])
    assert asked.exit_code == 2 and "--yes" in asked.output  # no terminal to ask on
    dry = invoke(runner, log, model, ["rebuild", "--all", "--dry-run", "--json"])
    assert _json(dry)[-1]["summary"]["would_change"] == 3
    assert asyncio.run(model.snapshots(["00000000000000a0"])) == [None]  # nothing written
    done = invoke(runner, log, model, ["rebuild", "--all", "--yes", "--json"])
    assert done.exit_code == 1, done.output
    lines = _json(done)
    assert [x["failed"] for x in lines if "failed" in x] == [bad]
    assert lines[-1]["summary"]["written"] == 3 and lines[-1]["summary"]["failed"] == 1
    assert invoke(runner, log, model, ["diff", "00000000000000a1"]).exit_code == 0
    again = invoke(runner, log, model, ["rebuild", "00000000000000a1", "--json"])
    assert again.exit_code == 0 and _json(again)[-1]["summary"]["written"] == 1


def test_verify_and_diff_need_a_table_or_all():
    log, model = _filled()
    for command in ("verify", "diff", "rebuild"):
        result = invoke(CliRunner(), log, model, [command])
        assert result.exit_code == 2 and "--all" in result.output
    missing = invoke(CliRunner(), log, model, ["verify", "00000000000000ff"])
    assert missing.exit_code == 2 and "no table" in missing.output
