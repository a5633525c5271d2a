"""``gcbc-ops`` (or ``python -m services.ops``): the operator's tools over the event log and the
read model. They show secrets: operators only (NATS's and Redis's admin users).

Every read command takes ``--json`` (JSON lines, or one JSON object); each says clearly, and
exits 2 within seconds, when NATS or Redis cannot be reached. Exit 1: a check found something
(``verify``, ``diff``, a table that ``rebuild`` could not write).
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import sys
from collections.abc import Awaitable, Callable
from typing import Any

import click

from gcbc.eventlog.port import FullLog, LogUnavailable, Stored
from gcbc.playermodel.port import PlayerModel
from gcbc.readmodel.port import ModelUnavailable, ReadModel
from gcbc_contract.ids import InvalidTableId
from services.common.settings import Settings
from services.ops import transfer, travel
from services.ops.show import err, printable

# --- connections (the composition root, ``main``, says which adapters) -------------------------


class Ops:
    """What the commands work with: settings, and how to reach the log and the read model."""

    def __init__(
        self,
        settings: Settings,
        connect_log: Callable[[], Awaitable[FullLog]],
        connect_model: Callable[[], Awaitable[ReadModel]],
        workers: int,
        connect_players: Callable[[], Awaitable[FullLog]] | None = None,
        player_model: Callable[[ReadModel], PlayerModel] | None = None,
    ) -> None:
        self.settings = settings
        self._connect_log, self._connect_model = connect_log, connect_model
        self.workers = workers
        self._log: FullLog | None = None
        self._model: ReadModel | None = None
        # the players' log and read model (services.ops.players)
        self._connect_players = connect_players
        self._player_model = player_model
        self._players: FullLog | None = None

    async def players(self) -> FullLog:
        """The players' log (a stream of its own)."""
        if self._players is None:
            if self._connect_players is None:
                raise LogUnavailable("no players' log configured")
            self._players = await self._connect_players()
        return self._players

    async def player_model(self) -> PlayerModel:
        """The players' read model (beside the tables', in the same store)."""
        if self._player_model is None:
            raise ModelUnavailable("no players' read model configured")
        return self._player_model(await self.model())

    async def log(self) -> FullLog:
        if self._log is None:
            self._log = await self._connect_log()
        return self._log

    async def model(self) -> ReadModel:
        if self._model is None:
            model = await self._connect_model()
            try:
                await model.ping()
            except ModelUnavailable:
                await model.close()
                raise
            self._model = model
        return self._model

    async def close(self) -> None:
        if self._players is not None:
            await self._players.close()
        if self._log is not None:
            await self._log.close()
        if self._model is not None:
            await self._model.close()


class Found(Exception):
    """A check found differences: exit 1 (after its report)."""


def run(fn: Callable[..., Awaitable[Any]]) -> Callable[..., Any]:
    """A command as a coroutine: connections closed at the end; NATS or Redis away, a bad id,
    a bad file: one line on stderr and exit 2, never a traceback."""

    @functools.wraps(fn)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        ops: Ops = click.get_current_context().obj

        async def go() -> Any:
            try:
                return await fn(ops, *args, **kwargs)
            finally:
                with contextlib.suppress(Exception):
                    await asyncio.wait_for(ops.close(), 3)

        try:
            code = asyncio.run(go())
        except LogUnavailable as e:
            err.print(f"[red]error:[/] the event log (NATS) cannot be reached: {printable(str(e))}")
            sys.exit(2)
        except ModelUnavailable as e:
            err.print(
                f"[red]error:[/] the read model (Redis) cannot be reached: {printable(str(e))}"
            )
            sys.exit(2)
        except (InvalidTableId, transfer.ImportError_, travel.NotFound) as e:
            err.print(f"[red]error:[/] {printable(str(e))}")
            sys.exit(2)
        except Found:
            sys.exit(1)
        except KeyboardInterrupt:
            sys.exit(130)
        sys.exit(code or 0)

    return wrapper


json_option = click.option("--json", "as_json", is_flag=True, help="JSON instead of text.")


@click.group(help=__doc__, context_settings={"help_option_names": ["-h", "--help"]})
def cli() -> None:
    pass


async def table_entries(ops: Ops, table: str) -> list[Stored]:
    """A table's entries; NotFound (exit 2) if the log has none."""
    entries = await (await ops.log()).read(table)
    if not entries:
        raise travel.NotFound(f"no table {table} in the log")
    return entries


def seated(stored: list[Stored], table: str, seat: int | None) -> int | None:
    """``seat`` if the table has it; NotFound (exit 2) if not (a view of no seat would be the
    spectators' one, under the seat's name)."""
    if seat is None:
        return None
    seats = len(travel.folded(stored, table).state.seats)
    if not 0 <= seat < seats:
        raise travel.NotFound(f"table {table} has no seat {seat} (its seats: 0 to {seats - 1})")
    return seat


def viewer(seat: int | None, public: bool) -> int | None:
    if seat is None and not public:
        raise click.UsageError("say whose view: --as SEAT or --public")
    return None if public else seat


def settings_views(ops: Ops) -> tuple[int | None, int | None]:
    return ops.settings.log_limit, ops.settings.chat_limit


def one_or_all(table: str | None, every: bool) -> set[str] | None:
    if bool(table) == every:
        raise click.UsageError("name a table or say --all")
    return None if every else {table}  # type: ignore[arg-type]
