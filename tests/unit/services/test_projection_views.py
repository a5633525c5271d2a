"""The projection writes only the views that changed (services.projection): fed a golden game's
log as it grows, entry by entry or in batches, the read model holds after each batch exactly what
a full render of the log up to there gives (every view, every answer); a private step (a pass,
an arrangement) sends one view; a read model that is not as the projection left it (wiped) gets
every view again."""

from __future__ import annotations

import asyncio

import pytest

from gcbc.eventlog.memory import MemoryEventLog
from gcbc.readmodel.memory import MemoryReadModel
from gcbc.readmodel.port import PUBLIC, ROSTER, Put, answers_field
from gcbc_contract import commands as C
from services.common.folded import FoldedTable
from services.common.view_writer import replacement
from services.projection.service import Projection
from services.table.service import token_hash
from tests.unit.services.test_golden_logs import NAMES, _imported
from tests.unit.services.test_pipeline_on_twins import TABLE, pipeline


class Recording(MemoryReadModel):
    """The in-memory read model, keeping every put it was sent."""

    def __init__(self) -> None:
        super().__init__()
        self.sent: list[Put] = []

    async def put_many(self, puts: list[Put]) -> list[bool]:
        self.sent += puts
        return await super().put_many(puts)


async def _held(model: MemoryReadModel, table: str) -> tuple[int, dict[str, bytes]]:
    snapshot = (await model.snapshots([table]))[0]
    assert snapshot is not None
    return snapshot.position, snapshot.fields


def _full(t) -> tuple[int, dict[str, bytes]]:  # noqa: ANN001
    item = replacement(t)
    answers = {answers_field(k): v for k, v in (item.answers or {}).items()}
    return item.position, {**item.views, **answers}


@pytest.mark.parametrize("batch", [1, 3])
@pytest.mark.parametrize("name", [n for n in NAMES if n != "lobby_6"])
def test_the_read_model_is_a_full_render_after_every_batch(name: str, batch: int):
    golden, _ = _imported(name)
    entries = golden.all()

    async def go() -> None:
        table = entries[0].table
        log, model = MemoryEventLog(), Recording()
        projection = Projection(log, model)
        grown, partial, wiped = [], 0, False
        for i, stored in enumerate(entries):
            result = await log.append(table, stored.data, expected=grown[-1].seq if grown else 0)
            grown.append((await log.read(table, after=result.seq - 1))[0])
            if len(grown) % batch and i + 1 < len(entries):
                continue
            if not wiped and i > len(entries) // 2:
                model.wipe()  # Redis restarted empty: a put of changes only is refused
                wiped = True
            sent = len(model.sent)
            assert await projection.handle_batch(grown[-batch:]) == [None] * len(grown[-batch:])
            if not model.sent[sent:]:
                continue  # nothing opened yet, or a command alone (its answer makes the views)
            held = await _held(model, table)
            t = FoldedTable(table)  # the log up to what the views reflect (a settled table)
            for s in grown[: [x.seq for x in grown].index(held[0]) + 1]:
                t.apply(s)
            assert held == _full(t), f"at {t.seq}"
            put = model.sent[-1]
            partial += put.base is not None and len(put.item.views.keys() - {ROSTER}) == 1
        assert wiped and partial > 10  # most passes and arrangements wrote one view

    asyncio.run(go())


def test_a_seat_left_is_named_among_the_views_changed_so_its_waiters_wake():
    """A lobby seat left: its view goes, and the put names it, so a long-poll waiting on it
    ends then (with no view) rather than when its timeout runs out."""

    async def go() -> None:
        async with pipeline() as (_events, model, service, _clock):
            sent: list[Put] = []
            put_many = model.put_many

            async def recording(puts: list[Put]) -> list[bool]:
                sent.extend(puts)
                return await put_many(puts)

            model.put_many = recording  # type: ignore[method-assign]
            seq = await service.append_command(
                TABLE, C.OpenTable(table_id=TABLE, seats=4), new_table=True
            )
            assert await service.answered(TABLE, PUBLIC, seq, 5)
            for i in range(2):
                seq = await service.append_command(
                    TABLE, C.TakeSeat(name=f"p{i}"), token_hash_=token_hash(f"t{i}")
                )
                assert await service.answered(TABLE, PUBLIC, seq, 5)
            seq = await service.append_command(TABLE, C.LeaveSeat(seat=1))
            assert await service.answered(TABLE, PUBLIC, seq, 5)
            left = sent[-1]
            assert "seat:1" not in left.item.views
            assert left.changed is not None and "seat:1" in left.changed

    asyncio.run(go())
