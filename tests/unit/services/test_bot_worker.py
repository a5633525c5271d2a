"""The bot worker follows the whole log but decodes only tables' opening commands: the marker
it looks for is where the encoder puts it, whatever the options, and nothing else carries it."""

from __future__ import annotations

import asyncio

from gcbc.contract import commands as C
from gcbc.contract.entries import CommandEntry, OutcomeEntry, RefusalEntry, encode_entry
from gcbc.contract.options import Deadlines, HouseBots, TableOptions
from gcbc.eventlog.port import Stored
from services.bots.worker import OPENING, BotWorker

TABLE = "00000000000000ab"


def opening(**more: object) -> bytes:
    command = C.OpenTable(table_id=TABLE, seats=8, **more)  # type: ignore[arg-type]
    return encode_entry(CommandEntry(command=command, token_hash="f" * 64, at=10**13))


def test_the_opening_command_carries_the_marker_near_its_start_whatever_its_options() -> None:
    options = TableOptions(edition="classic", zombies=True, extra_equipment=True)
    for data in (
        opening(),
        opening(bots=HouseBots(seats=[1, 2, 3], kind="heuristic")),
        opening(options=options, deadlines=Deadlines(), bots=HouseBots(seats=[0], kind="random")),
    ):
        assert OPENING in data[:128]


def test_answers_and_other_commands_are_not_decoded() -> None:
    others = [
        encode_entry(CommandEntry(command=C.TakeSeat(name="Ann"), at=1, prev=1)),
        encode_entry(RefusalEntry(answers=2, code="table_full", message="full", prev=2)),
        encode_entry(OutcomeEntry(answers=2, events=[], prev=3)),
    ]
    for data in others:
        assert OPENING not in data[:128]
    # a name that looks like it is decoded, then found not to open a table: only time is lost
    others.append(encode_entry(CommandEntry(command=C.TakeSeat(name="open_table"), at=1, prev=4)))

    class Worker(BotWorker):
        def __init__(self) -> None:
            self.playing, self.started = {}, []

        async def play_table(self, table, bots, seats):  # noqa: ANN001, ANN202
            self.started.append((table, bots, seats))

    async def go() -> None:
        worker = Worker()
        for n, data in enumerate(others, 2):
            await worker.handle(Stored(seq=n, table=TABLE, data=data))
        await worker.handle(Stored(seq=1, table=TABLE, data=opening()))  # no house seats
        assert worker.playing == {}
        bots = HouseBots(seats=(1, 2), kind="random")
        await worker.handle(Stored(seq=9, table=TABLE, data=opening(bots=bots)))
        await asyncio.sleep(0)
        assert worker.started == [(TABLE, bots, 8)]

    asyncio.run(go())
