"""Running the ops CLI on the in-memory twins (no server)."""

from __future__ import annotations

from typing import Any

from click.testing import CliRunner, Result

from gcbc.eventlog.port import EventLog
from gcbc.readmodel.port import ReadModel
from services.common.settings import Settings
from services.ops.cli import Ops, cli


def invoke(
    runner: CliRunner,
    log: EventLog,
    model: ReadModel | None,
    args: list[str],
    settings: Settings | None = None,
    workers: int = 0,
    **kwargs: Any,
) -> Result:
    async def connect_log() -> EventLog:
        return log

    async def connect_model() -> ReadModel:
        assert model is not None, "this command needs no read model"
        return model

    ops = Ops(settings or Settings(), connect_log, connect_model, workers)
    ops.close = _keep  # type: ignore[method-assign]  (the twins live on between commands)
    return runner.invoke(cli, args, obj=ops, catch_exceptions=False, **kwargs)


async def _keep() -> None:
    pass
