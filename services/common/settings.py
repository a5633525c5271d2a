"""Settings from the environment, shared by the services. Every limit a client meets is here, with
its variable; docs/limits.md lists them."""

from __future__ import annotations

import os
from typing import Any

import msgspec
from msgspec import Struct

from gcbc.eventlog.leases import LEASE_TTL
from gcbc.eventlog.partitions import PARTITIONS

DEFAULT_NATS = "nats://127.0.0.1:4222"
DEFAULT_REDIS = "redis://127.0.0.1:6379/0"
LOG_LIMIT = 50  # the most recent log entries a view carries (the history has them all)
CHAT_LIMIT = 50  # the most recent chat messages a view carries (the history has them all)
STUCK_AFTER = 3.0  # seconds a command may wait for its answer before any rules worker answers it
# the durable consumers: the rules worker's, the projection's
DURABLES = ("rules-worker", "projection")
DEADLINE_GRACE = 5.0  # seconds past a deadline before a wait without `deadline passed` is stuck
# the table options a server may offer (docs/api.md); GCBC_OPTIONS_OFFERED narrows them
OPTIONS = ("classic", "zombies", "bombers_traitors", "extra_equipment", "wounds")
# "wounds": the wound placement that is not the edition's default (RULES §4; that one always is)


class Settings(Struct, frozen=True):
    nats_url: str = DEFAULT_NATS
    # one Redis (redis://…), or a Redis Cluster: redis+cluster://user:password@host:port,host:port
    # (any of its nodes; the read model and the rate limits find the rest)
    redis_url: str = DEFAULT_REDIS
    http_host: str = "127.0.0.1"
    http_port: int = 8000
    allow_scenarios: bool = False  # deals and seeds chosen by the creator (tests, tutorials)
    stream_replicas: int = 1
    # tables are divided into this many partitions (gcbc.eventlog.partitions), each processed by
    # one rules-worker and one projection instance at a time; fixed when the stream is created
    partitions: int = PARTITIONS
    instance: str = ""  # this process's name among its service's instances ("": one is drawn)
    # seconds a partition lease lasts unless renewed (a third of it between renewals): how long
    # a dead instance's partitions wait for another; fixed when the lease bucket is made
    lease_seconds: float = LEASE_TTL
    log_limit: int = LOG_LIMIT
    chat_limit: int = CHAT_LIMIT
    # seconds a finished table's views stay in the read model (0: for good): a game's views are
    # made from its log if asked for later, so Redis holds the games in play and the recent
    # ones, not every game ever played
    finished_views_seconds: float = 3600.0
    options_offered: tuple[str, ...] = OPTIONS  # the rest are refused with 422
    # --- what one client may ask (DESIGN property 7) ---
    min_deadline: float = 5.0  # seconds a table's waits may last, at least …
    max_deadline: float = 3600.0  # … and at most
    chat_per_seat: int = 200  # messages a seat may post at a table (recorded with the table)
    lobby_ttl: float = 1800.0  # seconds a table may wait for players before it closes
    # seconds a place in quick play's queue lasts unmatched (0: for ever): a player who walked
    # away is not seated at a table of players who came to play, nor kept in every look
    queue_wait: float = 7200.0
    lobby_page: int = 50  # tables GET /tables lists per page by default (at most 200)
    # open streams and long-polls, per table-service process (0: no cap): a table's spectators,
    # each seat's own (its player's tabs: never crowded out by spectators), one client address's;
    # a table's spectators are many places (each gets at most four frames a second, the same
    # bytes for all), so that a handful of addresses cannot shut everyone else out of watching
    streams_per_table: int = 500
    streams_per_seat: int = 5
    streams_per_client: int = 50
    # a table's spectator places one client address may hold (0: no cap): several share them
    streams_per_table_client: int = 10
    # the lobby's stream, per process (0: no cap): every watcher is handed the same bytes of one
    # poll, so it has places of its own, many more than a table's spectators
    lobby_streams: int = 1000
    # connections (services/table/connections.py): one client address's open ones, the process's
    # (0: its descriptor limit less a reserve), the seconds a request's head (then its body) may
    # take to arrive, and the head's size (request line and headers) in bytes
    connections_per_client: int = 100
    max_connections: int = 0
    head_timeout: float = 5.0
    body_timeout: float = 10.0  # seconds a request's body may take to arrive, after its head
    max_head: int = 32 * 1024
    # requests one client address sends a process, per second on average and at once (0: no
    # cap): every request costs the event loop, the cheapest too (a 404, a look at the lobby)
    client_requests: float = 100.0
    client_requests_burst: int = 200
    # what one client address holds at once in tables not over (0: no cap): seats, and house
    # seats at the tables it opened (the house's seats are one pool for every client); and the
    # tables it opened still waiting for players
    seats_per_client: int = 16
    house_seats_per_client: int = 8
    lobby_tables_per_client: int = 5
    forwarded_allow_ips: str = ""  # proxies trusted for X-Forwarded-For ("": none)
    # browsers: origins allowed to write and send tokens (comma-separated; "": none; public reads
    # are open to every origin, services/table/cors.py)
    cors_origins: tuple[str, ...] = ()
    # stream tickets (services/table/tickets.py): the key that signs them ("": one drawn per
    # process, enough for one process; several must share one) and how long one lasts
    ticket_secret: str = ""
    ticket_seconds: float = 60.0
    # house bots (the sandbox): the secret the table service and the bot worker derive the
    # house seats' tokens from ("": no house bots offered); the bot worker's way to the API
    bot_secret: str = ""
    api_url: str = "http://127.0.0.1:8000"
    # a table needs a seat for a client: a table of house seats only (a game to watch) is opened
    # only where the operator allows it (demo and test servers)
    house_only_tables: bool = False
    # seconds a house bot thinks before each action unless its table asks otherwise, and the
    # least a table may ask (0 on test and bench stacks, whose bots play at machine speed)
    bot_think: float = 2.0
    bot_think_min: float = 1.0
    # a table with house bots holds the house's seats as long as its game lasts: its bots think
    # at most this long, and each of its deadlines lasts at most ``house_max_deadline``
    bot_think_max: float = 10.0
    house_max_deadline: float = 120.0
    # the most actions a second the bot worker sends over all its tables, taken by the tables
    # in turn (0: no cap), so the house's load stays bounded however many tables it plays
    bot_actions: float = 10.0
    # house seats in play over the whole server, counted from each table's start (0: no cap):
    # past it a table's start is refused (503 house_full), and an opening that asks for more
    # than are free, as every one of them shares those actions a second (at 10 a second, a
    # reaction window that asks all of them at once is answered in 12 of its 20 s)
    house_seats: int = 120
    # rate limits in the limits library's syntax ("20/minute", "10 per 10 seconds"; "": none),
    # per client address for the lobby, per seat for chat and commands
    rate_create: str = "20/minute"
    rate_seat: str = "60/minute"
    # seats taken at one table per client address: each take and each leave of a waiting table
    # is an entry of its log, kept for good, so a few addresses coming and going at someone's
    # table could lengthen its log past what its history and replays are made of
    rate_table_seat: str = "20/hour"
    # games started per client address (a start, or a place asked in quick play, which may start
    # one): each game's log is kept for good, and one whose every seat left is played out by the
    # autopilot at once, so one address could otherwise write a game's log every few seconds
    rate_start: str = "60/hour"
    rate_register: str = "10/hour"  # players registered per client address
    rate_token: str = "10/hour"  # a player's tokens reissued (each one an entry of its log)
    rate_chat: str = "10/10 seconds"
    # chat messages per client address, over all its seats: each is sent again to every stream
    # of its table, so one address's many seats must not multiply it
    rate_client_chat: str = "20/10 seconds"
    rate_command: str = "30/second"
    # per seat: auto-pass turned on or off, and leaving a game in play (each one logged, and
    # none moves the game on: without it a seat could lengthen its table's log at will)
    rate_presence: str = "20/hour"
    # commands per client address, over all its seats (the house's seats are the bot worker's):
    # each costs the log, the rules worker and every view of its table, so a handful of addresses
    # at a machine's pace must stay far from the server's whole capacity
    rate_client_command: str = "10/second"
    # replays (per client address): every step (a view made, not one stored), and the replays
    # and histories that read and fold a whole log (a table the replay worker does not keep)
    rate_replay: str = "30/second"
    rate_log_read: str = "10/minute"
    # a player's finished games folded for its history (per client address): each one not kept
    # folded yet is a whole log folded by the replay worker, which every replay shares
    rate_game_fold: str = "120/minute"
    # leaderboard pages (per client address): each reads its ratings and players' records
    rate_leaderboard: str = "60/minute"
    # a player's list of its tables (per client address): each reads up to 200 tables' views
    rate_player_tables: str = "60/minute"
    # tokens a table refused, per client address: each may have cost a fold of a log this
    # process did not hold, so past the budget a token for such a table is not looked at
    rate_refused_token: str = "10/minute"
    # replays and histories are folded in a worker process of each table-service process: the
    # longest log they are made of, the log entries' worth it keeps folded (``replay_worker``'s
    # ``ENTRY_BYTES`` each), and the requests that may wait for it
    replay_max_entries: int = 20_000
    replay_keep_entries: int = 200_000
    replay_queue: int = 16

    def finished_ttl(self) -> float | None:
        """The read model's ``finished_ttl``: None when finished tables' views stay for good."""
        return self.finished_views_seconds if self.finished_views_seconds > 0 else None

    @classmethod
    def from_env(cls) -> Settings:
        """Each field from GCBC_<FIELD> where it is set: numbers as numbers, flags on as 1, true
        or yes, lists comma-separated."""
        given: dict[str, Any] = {}
        for f in msgspec.structs.fields(cls):
            variable = f"GCBC_{f.name.upper()}"
            text = os.environ.get(variable)
            if text is None:
                continue
            try:
                given[f.name] = _parsed(f.name, f.type, text)
            except msgspec.ValidationError as e:
                raise ValueError(f"{variable}: {e}") from None
        return cls(**given)


def _parsed(name: str, kind: Any, text: str) -> Any:
    if name == "options_offered":
        return _options(text)
    if kind is bool:
        return text in ("1", "true", "yes")
    if kind == tuple[str, ...]:
        return tuple(x.strip() for x in text.split(",") if x.strip())
    return msgspec.convert(text, kind, strict=False)


def _options(text: str) -> tuple[str, ...]:
    """A comma-separated list of OPTIONS (empty: none)."""
    names = tuple(x.strip() for x in text.split(",") if x.strip())
    unknown = set(names) - set(OPTIONS)
    if unknown:
        raise ValueError(f"GCBC_OPTIONS_OFFERED: unknown option(s) {sorted(unknown)}")
    return names
