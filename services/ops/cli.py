"""``gcbc-ops`` (or ``python -m services.ops``): the operator's commands (``command``: the group,
``deployment``, ``timeline``, ``repair``, ``exchange``: its commands), over the real adapters."""

from __future__ import annotations

import logging
import os
import sys

from gcbc.eventlog.port import FullLog
from gcbc.playermodel.port import PlayerModel
from gcbc.readmodel.port import ReadModel
from services.common.settings import Settings
from services.ops import (  # noqa: F401  (the commands)
    deployment,
    exchange,
    players,
    repair,
    timeline,
)
from services.ops.command import Ops, cli

__all__ = ["Ops", "cli", "entry_point", "main"]


# --- the composition root -----------------------------------------------------------------------
def main(argv: list[str] | None = None) -> int:
    """``gcbc-ops``: the real adapters (NATS, Redis), chosen here."""
    from gcbc.eventlog.jetstream import PREFIX, STREAM, JetStreamEventLog
    from gcbc.playermodel.redis import RedisPlayerModel
    from gcbc.players.log import STREAM_NAMES as PLAYERS_STREAM
    from gcbc.readmodel.redis import RedisReadModel

    # the adapters' warnings (nats-py's retries) are not for an operator's terminal: the command
    # says in one line what could not be reached
    logging.basicConfig(level=logging.ERROR, format="%(message)s")
    settings = Settings.from_env()
    stream = os.environ.get("GCBC_STREAM", STREAM)
    prefix = os.environ.get("GCBC_SUBJECT_PREFIX", PREFIX)
    workers_text = os.environ.get("GCBC_OPS_WORKERS", str(min(2, os.cpu_count() or 1)))
    if not workers_text.strip().isdigit():
        print(
            f"error: GCBC_OPS_WORKERS is {workers_text!r}, not a number of processes",
            file=sys.stderr,
        )
        return 2
    workers = int(workers_text)

    async def connect_log() -> FullLog:
        return await JetStreamEventLog.connect(
            settings.nats_url, stream=stream, prefix=prefix, patient=False, create=False
        )

    async def connect_model() -> ReadModel:
        return RedisReadModel.connect(
            settings.redis_url, connections=8, finished_ttl=settings.finished_ttl()
        )

    async def connect_players() -> FullLog:
        return await JetStreamEventLog.connect(
            settings.nats_url, patient=False, create=False, **PLAYERS_STREAM
        )

    def player_model(model: ReadModel) -> PlayerModel:
        return RedisPlayerModel(model.redis)  # type: ignore[attr-defined]

    ops = Ops(settings, connect_log, connect_model, workers, connect_players, player_model)
    try:
        return cli.main(args=argv, prog_name="gcbc-ops", obj=ops, standalone_mode=True) or 0
    except SystemExit as e:
        return int(e.code or 0)


def entry_point() -> None:
    sys.exit(main())


if __name__ == "__main__":
    entry_point()
