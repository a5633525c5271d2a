"""The table service's composition root: its HTTP API (docs/api.md) as thin controllers over
``TableService`` (``lobby``, ``seats``, ``play``, ``history``), the real adapters connected in
the lifespan; every error leaves as problem+json with a stable code."""

from __future__ import annotations

import asyncio
import logging
import os
import secrets
from collections.abc import AsyncIterator
from contextlib import AsyncExitStack, asynccontextmanager
from typing import Any

from litestar import Litestar
from litestar.datastructures import State as AppState
from litestar.openapi import OpenAPIConfig

from gcbc.eventlog.port import EventLog
from gcbc.keyvalue.port import KeyValue
from gcbc.players.log import PlayerLog
from gcbc.queue.log import QueueLog
from gcbc.readmodel.port import ReadModel
from services.common import house_tables, operators
from services.common.operators import Readiness
from services.common.rules import ENGINE, Rules
from services.common.runner import tune_gc
from services.common.settings import DURABLES, Settings
from services.table import (
    answers,
    apidocs,
    charged,
    connections,
    cors,
    edge,
    monitoring,
    problem_pages,
    webtable,
)
from services.table import openapi as doc
from services.table.dependencies import DEPENDENCIES
from services.table.games import Games
from services.table.history import Histories
from services.table.holdings import Holdings
from services.table.identities import Identities
from services.table.limits import OpenStreams, RateLimits
from services.table.lobby import Lobby
from services.table.lobby_feed import LOBBY, LobbyFeed
from services.table.matchmaker import Matchmaker
from services.table.play import Play
from services.table.players import Players
from services.table.positions import Positions
from services.table.problems import HANDLERS
from services.table.queue import Queue
from services.table.ratings import Ratings
from services.table.replay_worker import Setup as ReplaySetup
from services.table.replays import Replays
from services.table.seats import Seats
from services.table.service import TableService

MAX_BODY = 64 * 1024
# /readyz and /metrics (the rules worker's are on 9101, the projection's 9102)
OPERATORS_PORT = 9100


def create_app(settings: Settings | None = None, rules: Rules = ENGINE) -> Litestar:
    """The app with the real adapters, connected in its lifespan; ``rules``: what checks a
    command before it is appended (the engine)."""
    from gcbc.eventlog.jetstream import JetStreamEventLog
    from gcbc.keyvalue.jetstream import JetStreamKeyValue
    from gcbc.playermodel.redis import RedisPlayerModel
    from gcbc.players.log import STREAM_NAMES as PLAYERS_STREAM
    from gcbc.readmodel.redis import RedisReadModel

    settings = settings or Settings.from_env()

    @asynccontextmanager
    async def lifespan(app: Litestar) -> AsyncIterator[None]:
        async with AsyncExitStack() as stack:
            events = await JetStreamEventLog.connect(settings.nats_url, settings.stream_replicas)
            model = RedisReadModel.connect(settings.redis_url)
            stack.push_async_callback(model.close)  # closed last, after the log
            stack.push_async_callback(events.close)
            # the players' log: a stream of its own beside the tables'
            player_log = await JetStreamEventLog.connect(
                settings.nats_url, settings.stream_replicas, **PLAYERS_STREAM
            )
            stack.push_async_callback(player_log.close)
            identities = Identities(PlayerLog(player_log), RedisPlayerModel(model.redis))
            await _wake_ups(model.wakeups)
            house = None  # the house's tables, noted for the bot worker (offered with the secret)
            if settings.bot_secret:
                replicas = settings.stream_replicas
                house = await JetStreamKeyValue.open(events.nc, house_tables.BUCKET, replicas)
            pool = getattr(model.redis, "connection_pool", None)  # a cluster client has its own
            await _serve(app.state, settings, rules, events, model, house, pool, stack)
            app.state.identities = identities
            app.state.games = Games(app.state.service, model, identities.model)
            app.state.service.player_of = identities.player_of
            # quick play: the queue's entries live in the players' log, under a key of their own
            queue = QueueLog(identities.log.events)
            in_play = await _house_in_play(house, stack)
            app.state.house_in_play = in_play
            matchmaker = Matchmaker(queue, app.state.service, identities, settings, in_play)
            app.state.matchmaker = matchmaker
            matching = asyncio.create_task(matchmaker.run())
            stack.callback(matching.cancel)
            # the API's documents rendered off the event loop, as the service starts serving
            plugins = app.openapi_config.render_plugins if app.openapi_config else []
            preparing = asyncio.create_task(
                apidocs.prepare(plugins, app.openapi_schema.to_schema())
            )
            stack.callback(preparing.cancel)
            yield

    return _litestar(settings, lifespan)


def _litestar(settings: Settings, lifespan: Any) -> Litestar:
    """The routes, their dependencies, the edge's guards and the schema, around ``lifespan``."""
    return Litestar(
        route_handlers=[
            Lobby,
            Seats,
            Play,
            Histories,
            Players,
            Ratings,
            Queue,
            *problem_pages.ROUTES,  # /problems/{code}: every problem's `type`
            *webtable.ROUTES,  # the reference web client (not in the OpenAPI document)
            *monitoring.ROUTES,  # /healthz (not in the OpenAPI document)
        ],
        dependencies=DEPENDENCIES,
        lifespan=[lifespan],
        middleware=[charged.charged_answers, monitoring.HttpMetrics(), cors.PublicReads()],
        exception_handlers={
            **monitoring.counted(HANDLERS),
            answers.ClientGone: answers.answer_gone,
        },
        before_request=edge.before_request,
        on_startup=[_learn_queries],
        cors_config=cors.operators(settings),
        request_max_body_size=MAX_BODY,
        openapi_config=_openapi(),
        plugins=[doc.VOCABULARIES],
        debug=False,
    )


def _learn_queries(app: Litestar) -> None:
    """The query parameters each operation takes, read from the API's document."""
    app.state.query_parameters = edge.query_parameters(app.openapi_schema.to_schema())


def _openapi() -> OpenAPIConfig:
    return OpenAPIConfig(
        title="Good Cop Bad Cop",
        version="1.0.0",
        path="/schema",
        render_plugins=apidocs.plugins(),  # Swagger UI, served by this service: nothing else
        openapi_router=apidocs.router(),
        components=doc.COMPONENTS,
        tags=doc.TAGS,
        # an operation is named after its handler (create_table, send_command...): what a
        # generated client calls it
        operation_id_creator=lambda handler, method, path: handler.handler_name,
        description="The public HTTP/JSON contract of the Good Cop Bad Cop server"
        " (docs/api.md). Errors are RFC 9457 problem+json with a stable `code`.",
    )


async def _serve(
    state: AppState,
    settings: Settings,
    rules: Rules,
    events: EventLog,
    model: ReadModel,
    house: KeyValue | None,
    pool: Any,
    stack: AsyncExitStack,
) -> None:
    """Put what the handlers use in the app's state and start the background work; ``stack``
    undoes it all when the app stops. ``pool``: the read model's Redis connections, shared by
    the rate limits."""
    state.settings = settings
    replays = _replays(settings)
    state.service = service = TableService(
        events,
        model,
        rules,
        bot_secret=settings.bot_secret,
        house=house,
        replays=replays,
        view_limits=(settings.log_limit, settings.chat_limit),
    )
    state.rates = await _rates(settings, pool)
    # several processes must share the key (GCBC_TICKET_SECRET); one alone may draw its own
    state.ticket_secret = (settings.ticket_secret or secrets.token_hex(32)).encode()
    state.positions = Positions(state.ticket_secret)
    state.streams = OpenStreams(
        settings.streams_per_table,
        settings.streams_per_seat,
        settings.streams_per_client,
        settings.streams_per_table_client,
        {LOBBY: (settings.lobby_streams, "the lobby's watchers have")},
    )
    state.holdings = Holdings(
        settings.seats_per_client,
        settings.house_seats_per_client,
        settings.lobby_tables_per_client,
    )
    state.lobby = LobbyFeed(service)
    tune_gc()
    follower = await service.follow()
    stack.push_async_callback(follower.close)
    stack.callback(replays.close)
    resting = asyncio.create_task(service.rest_tables())
    stack.callback(resting.cancel)
    # /readyz and /metrics for operators, on a port of their own (not the API's)
    readiness = Readiness(events, model, DURABLES)
    port = operators.metrics_port(OPERATORS_PORT)
    await stack.enter_async_context(operators.serve(readiness, port))


async def _house_in_play(
    house: KeyValue | None, stack: AsyncExitStack
) -> house_tables.InPlay | None:
    """The house's seats in play, counted from its tables' notes (None: no house offered)."""
    if house is None:
        return None
    in_play = house_tables.InPlay()
    watch = await house.watch(in_play.noted)
    stack.push_async_callback(watch.close)
    return in_play


async def _wake_ups(wakeups: Any) -> None:
    """The read model's wake-ups listening before the first request, so none is missed."""
    wakeups.start()
    try:
        await asyncio.wait_for(wakeups.ready.wait(), 10)
    except TimeoutError:
        logging.getLogger("gcbc.table").warning("wake-ups not subscribed yet: serving anyway")


def _replays(settings: Settings) -> Replays:
    """Replays and histories, folded by a worker process of their own (started here)."""
    replays = Replays(
        ReplaySetup(
            nats_url=settings.nats_url,
            stream_replicas=settings.stream_replicas,
            max_entries=settings.replay_max_entries,
            keep_entries=settings.replay_keep_entries,
            log_limit=settings.log_limit,
            chat_limit=settings.chat_limit,
        ),
        settings.replay_queue,
    )
    replays.start()
    return replays


async def _rates(settings: Settings, pool: Any) -> RateLimits:
    """Each kind of request a handler counts, and its limit: named here, not found by a setting's
    name, so a new setting is never taken for a limit by mistake."""
    limits = {
        "create": settings.rate_create,
        "seat": settings.rate_seat,
        "table_seat": settings.rate_table_seat,
        "start": settings.rate_start,
        "register": settings.rate_register,
        "token": settings.rate_token,
        "chat": settings.rate_chat,
        "client_chat": settings.rate_client_chat,
        "command": settings.rate_command,
        "presence": settings.rate_presence,
        "client_command": settings.rate_client_command,
        "replay": settings.rate_replay,
        "log_read": settings.rate_log_read,
        "game_fold": settings.rate_game_fold,
        "leaderboard": settings.rate_leaderboard,
        "player_tables": settings.rate_player_tables,
        "refused_token": settings.rate_refused_token,
    }
    rates = RateLimits.on_redis(settings.redis_url, pool, limits)
    await rates.warm()
    return rates


def main(factory: str = "services.table.app:create_app") -> None:
    """``python -m services.table``: the app that ``factory`` makes, served by uvicorn."""
    import uvicorn

    from services.common import logs

    logs.setup("table")
    settings = Settings.from_env()
    workers = int(os.environ.get("GCBC_HTTP_WORKERS", "1"))
    uvicorn.run(
        # several processes share the port; each follows the log and reads Redis on its own
        factory,
        factory=True,
        workers=workers,
        host=settings.http_host,
        port=settings.http_port,
        log_level="warning",
        log_config=None,  # uvicorn's own lines go through ours (JSON, or text)
        timeout_graceful_shutdown=2,
        # clients keep idle connections 5 s (httpx, aiohttp 15 s): closing an idle one
        # later than they do avoids the race where a request is sent as the server closes it
        timeout_keep_alive=20,
        loop="uvloop",
        # httptools with the connection limits: heads timed and capped, connections per address,
        # requests per address (``connections.UVICORN``)
        **connections.UVICORN,
        # X-Forwarded-For only from the proxies named: anyone else could pick its own address
        # and so its own per-client limits
        proxy_headers=bool(settings.forwarded_allow_ips),
        forwarded_allow_ips=settings.forwarded_allow_ips or None,
    )


if __name__ == "__main__":
    main()
