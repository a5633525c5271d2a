"""gcbc-ops on the in-memory twins: what the end-to-end tests (tests/e2e/test_ops_cli.py) cannot
arrange cheaply: a stuck table, a table the engine cannot fold, the question before --all."""

from __future__ import annotations

import asyncio
import base64
import json
import time

import pytest
from click.testing import CliRunner

from gcbc.eventlog.memory import MemoryEventLog
from gcbc.readmodel.memory import MemoryReadModel
from gcbc.readmodel.port import Replacement
from gcbc_contract import commands as C
from gcbc_contract import events as E
from gcbc_contract.entries import CommandEntry, OutcomeEntry, encode_entry
from gcbc_contract.options import TableOptions
from services.ops import transfer
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


BAD = "00000000000000b0"


def _broken(log: MemoryEventLog) -> None:
    """A table whose log the engine cannot fold: an answer no engine could have given."""

    async def write() -> None:
        opened = CommandEntry(command=C.OpenTable(table_id=BAD, seats=4))
        seq = (await log.append(BAD, encode_entry(opened), 0)).seq
        wrong = OutcomeEntry(answers=seq, events=[E.SeatTaken(seat=9, name="ghost")], prev=seq)
        await log.append(BAD, encode_entry(wrong), seq)

    asyncio.run(write())


def test_rebuild_goes_on_past_a_table_it_cannot_fold_and_reports_it():
    log, model = _filled()
    bad = BAD
    _broken(log)
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


def test_verify_diff_and_tables_report_a_table_they_cannot_fold_and_go_on():
    log, model = _filled()
    _broken(log)
    runner = CliRunner()
    for args in (["verify", "--all"], ["diff", "--all"], ["tables"]):
        done = invoke(runner, log, model, [*args, "--json"])
        assert done.exit_code == 1, (args, done.output)
        lines = _json(done)
        assert [x["failed"] for x in lines if "failed" in x] == [BAD], args
        if args[0] != "tables":
            assert lines[-1]["summary"]["failed"] == 1 and lines[-1]["summary"]["tables"] >= 3
        else:
            assert len([x for x in lines if "status" in x]) == 3  # the others still listed
    text = invoke(runner, log, model, ["verify", "--all"])
    assert text.exit_code == 1 and f"failed: {BAD}" in text.stderr and "1 failed" in text.stderr


def test_tables_refuses_a_bad_duration_or_option_before_reading_the_log():
    log, model = _filled()
    runner = CliRunner()
    idle = invoke(runner, log, model, ["tables", "--idle", "10x"])
    assert idle.exit_code == 2 and "not a duration" in idle.output
    # an option no table is checked against (the status leaves none) is still a typo
    typo = invoke(runner, log, model, ["tables", "--status", "lobby", "--option", "zombeis"])
    assert typo.exit_code == 2 and "zombeis" in typo.output


def _exported(log: MemoryEventLog, table: str) -> list[bytes]:
    return list(transfer.export_lines(table, asyncio.run(log.read(table))))


def test_import_checks_the_whole_file_before_it_writes_anything(tmp_path):
    log, model = _filled()
    lines = _exported(log, "00000000000000a1")
    runner = CliRunner()

    def imported(rows: list[bytes], as_id: str) -> tuple[int, str]:
        counted = json.loads(rows[0])
        counted["entries"] = len(rows) - 1  # the header counts what the file holds
        rows = [json.dumps(counted).encode(), *rows[1:]]
        path = tmp_path / f"{as_id}.jsonl"
        path.write_bytes(b"\n".join(rows) + b"\n")
        done = invoke(runner, log, model, ["import", str(path), "--as", as_id])
        return done.exit_code, done.output

    header, first, *rest = lines
    broken = {
        "00000000000000c1": [header, first, b'{"seq":2,"at":1.0,"entry":{"kind":"nonsense"}}'],
        "00000000000000c2": [header, first, b'{"seq":2,"at":1.0,"entry":[1,2,3]}'],
        "00000000000000c3": [header, first, rest[0].replace(b'"seq":', b'"seq":"x', 1)],
        "00000000000000c4": [header, first, b'{"seq":2,"at":1.0,"raw":"not base64!"}'],
        "00000000000000c5": [header.replace(b'"table":"', b'"table":"../', 1), first],
        # an empty record (the server's own flow-control messages are empty: every reader of
        # the log would stall on it), and a raw record that is an entry (read as one, unchecked)
        "00000000000000c8": [header, first, b'{"seq":2,"at":1.0,"raw":""}'],
        "00000000000000c9": [
            header,
            first,
            b'{"seq":2,"at":1.0,"raw":"%s"}'
            % base64.b64encode(transfer._encode(json.loads(rest[0])["entry"])),
        ],
    }
    for as_id, rows in broken.items():
        code, output = imported(rows, as_id)
        assert code == 2 and "Traceback" not in output, (as_id, output)
        assert asyncio.run(log.last(as_id)) is None, as_id  # nothing written
    # an answer the engine cannot fold: refused whole, before the first append
    wrong = json.loads(rest[0])
    wrong["entry"]["events"] = [{"type": "seat_taken", "seat": 9, "name": "ghost"}]
    code, output = imported([header, first, json.dumps(wrong).encode()], "00000000000000c6")
    assert code == 2 and "cannot fold" in output
    assert asyncio.run(log.last("00000000000000c6")) is None
    code, output = imported(lines, "00000000000000c7")  # the file as exported goes in whole
    assert code == 0, output
    assert len(asyncio.run(log.read("00000000000000c7"))) == len(lines) - 1


def test_players_rebuild_asks_first():
    """It clears the players' read model and every rating before it makes them again."""
    log, model = _filled()
    asked = invoke(CliRunner(), log, model, ["players", "rebuild"])
    assert asked.exit_code == 2 and "--yes" in asked.output  # no terminal to ask on


def test_following_a_table_the_log_lacks_is_said_at_once():
    """A typo in ``tail``'s table: said (exit 2), as by every command naming a table, not
    followed silently for ever."""
    log, model = _filled()
    done = invoke(CliRunner(), log, model, ["tail", "ffffffffffffffff"])
    assert done.exit_code == 2 and "no table ffffffffffffffff" in done.output, done.output


def test_a_view_as_a_seat_the_table_lacks_is_refused():
    """Not the spectators' view under that seat's name."""
    log, model = _filled()
    runner = CliRunner()
    for args in (["state", "--as", "9"], ["state", "--as", "-1"], ["replay", "--as", "4"]):
        done = invoke(runner, log, model, [args[0], "00000000000000a1", *args[1:]])
        assert done.exit_code == 2 and "has no seat" in done.output, args
    assert invoke(runner, log, model, ["state", "00000000000000a1", "--as", "3"]).exit_code == 0


def test_a_number_of_worker_processes_that_is_not_one_is_said_so(monkeypatch, capsys):
    from services.ops.cli import main

    monkeypatch.setenv("GCBC_OPS_WORKERS", "two")
    assert main(["status"]) == 2
    assert "GCBC_OPS_WORKERS" in capsys.readouterr().err


class _Stopping(MemoryEventLog):
    """A log that stops answering at its ``stop_at``-th append (the entry not written)."""

    def __init__(self, stop_at: int) -> None:
        super().__init__()
        self.appends, self.stop_at = 0, stop_at

    async def append(self, *args, **kwargs):  # type: ignore[no-untyped-def]
        self.appends += 1
        if self.appends == self.stop_at:
            raise transfer.OutcomeUnknown("the log went away")
        return await super().append(*args, **kwargs)


def test_an_import_stopped_part_way_is_completed_by_importing_the_file_again():
    """Before: an import the log stopped answering half-way left a table of its first entries,
    and a second import was refused (the table existed): nothing could finish it."""
    source, _ = _filled()
    header, rows = transfer.read_lines(_exported(source, "00000000000000a1"))
    log = _Stopping(stop_at=len(rows) // 2)
    with pytest.raises(transfer.ImportError_) as stopped:
        asyncio.run(transfer.import_rows(log, header, rows, "00000000000000d1"))
    assert "import the same file again" in str(stopped.value)
    held = len(asyncio.run(log.read("00000000000000d1")))
    assert 0 < held < len(rows)
    table, appended, before = asyncio.run(
        transfer.import_rows(log, header, rows, "00000000000000d1")
    )
    assert (table, appended, before) == ("00000000000000d1", len(rows) - held, held)
    whole = MemoryEventLog()
    asyncio.run(transfer.import_rows(whole, header, rows, "00000000000000d1"))
    assert [x.data for x in asyncio.run(log.read(table))] == [
        x.data for x in asyncio.run(whole.read(table))
    ]  # as one import in one go
    # again: nothing more to append; a table holding something else is refused
    assert asyncio.run(transfer.import_rows(log, header, rows, table))[1:] == (0, len(rows))
    other = [rows[0], {**rows[1], "entry": {**rows[1]["entry"], "at": 1}}, *rows[2:]]
    with pytest.raises(transfer.ImportError_, match="differs from the file at entry 2"):
        asyncio.run(transfer.import_rows(log, header, other, table))
    with pytest.raises(transfer.ImportError_, match="longer than the file"):
        asyncio.run(transfer.import_rows(log, header, rows[:3], table))


def test_diff_takes_a_finished_table_whose_views_expired_as_it_should_be():
    log, _ = _filled()
    now = [1000.0]
    model = MemoryReadModel(60, lambda: now[0])
    runner = CliRunner()
    assert invoke(runner, log, model, ["rebuild", "--all", "--yes"]).exit_code == 0
    table = "00000000000000a0"
    ((held,), (seated,)) = asyncio.run(model.snapshots([table])), asyncio.run(model.seated([table]))
    now[0] += 61  # the two finished tables' views expire, their seated records stay
    assert asyncio.run(model.snapshots(["00000000000000a0"])) == [None]
    assert invoke(runner, log, model, ["diff", "--all"]).exit_code == 0
    model.wipe()  # nothing left of them: differences
    assert invoke(runner, log, model, ["diff", "--all"]).exit_code == 1
    # as a re-projection after a wipe writes a finished table: its record, no views
    item = Replacement(table, {}, held.position, status="finished", seated=seated)
    asyncio.run(model.replace([item]))
    assert invoke(runner, log, model, ["diff", table]).exit_code == 0
