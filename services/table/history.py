"""A finished table, public once the game is over: its every event, and its replay."""

from __future__ import annotations

from typing import Annotated

from litestar import Controller, Request, Response, get
from litestar.datastructures import State as AppState
from litestar.params import Parameter

from gcbc_contract.http import History, ReplayStep
from services.table import answers
from services.table import openapi as doc
from services.table.dependencies import Service, client
from services.table.openapi import TableId


class Histories(Controller):
    @get(
        "/tables/{table_id:str}/history",
        tags=["history"],
        summary="Every event, once the game is over",
        responses=doc.responses(
            {200: doc.ok(History, "every event, every card")}, [404, 409, 429, 503]
        ),
    )
    async def read_history(
        self, table_id: TableId, request: Request, state: AppState, service: Service
    ) -> Response[bytes]:
        who = client(request)
        # a history kept in memory still costs its bytes, many for a short request: each counts
        # as a replay's step, and one folded from the log as a log read besides
        await state.rates.hit("replay", who)
        return answers.json(await service.history(table_id, lambda: _reading(state, who)))

    @get(
        "/tables/{table_id:str}/replay",
        tags=["history"],
        summary="A finished table, step by step, as a seat (or a spectator) saw it",
        description="Once the game is over nothing is secret any more: any seat's view after"
        " any answered command (`step` 1 to `steps`), for stepping through a game forward and"
        " back.",
        responses=doc.responses(
            {200: doc.ok(ReplayStep, "the view at that step")}, [404, 409, 429, 503]
        ),
    )
    async def replay_step(
        self,
        table_id: TableId,
        request: Request,
        state: AppState,
        service: Service,
        step: Annotated[int, Parameter(ge=1, le=100_000, description="1: the table opened")] = 1,
        seat: Annotated[
            int | None, Parameter(ge=0, le=7, description="whose view (none: the public one)")
        ] = None,
    ) -> Response[bytes]:
        who = client(request)
        await state.rates.hit("replay", who)  # each step is a view made, not one stored
        got = await service.replay(table_id, step, seat, lambda: _reading(state, who))
        return answers.json(got)


async def _reading(state: AppState, who: str) -> None:
    """A replay or history that reads and folds a whole log (not one kept folded) counts."""
    await state.rates.hit("log_read", who)
