"""``gcbc-ops players``: the players, as their log and their read model hold them: how far the
projection is (``status``), who registered (``list``), a player's entries (``show``), a pool's
ratings (``leaderboard``), the read model and the ratings made again from the logs
(``rebuild``) and the ratings checked against them (``verify``), a registration whose token was
never handed out withdrawn (``withdraw``)."""

from __future__ import annotations

import sys
import time

import click
import msgspec

from gcbc.playermodel.memory import MemoryPlayerModel
from gcbc.playermodel.port import POOLS, Rating, RatingBoard, RatingsHeld
from gcbc.players.folded import FoldedPlayer
from gcbc.players.log import InUse, PlayerLog
from gcbc.players.projection import DURABLE
from gcbc.players.projection import rebuild as rebuild_model
from gcbc_contract.players import decode_player_entry
from services.common.ratings import rate_log, rebuild_ratings
from services.ops import show, travel
from services.ops.command import Found, Ops, cli, json_option, run
from services.ops.show import printable


@cli.group()
def players() -> None:
    """The players: their log, their read model."""


@players.command("status")
@json_option
@run
async def status(ops: Ops, as_json: bool) -> int:
    """The players' log (entries, last position), the projection's lag, the read model (players,
    position)."""
    log = await ops.players()
    model = await ops.player_model()
    ls = await log.status()
    group = await log.group(DURABLE)
    position = await model.position()
    out = {
        "log": {"entries": ls.entries, "last": ls.last, "last_at": ls.last_at},
        "consumer": None
        if group is None
        else {"name": group.name, "lag_entries": group.lag, "acked": group.acked},
        "read_model": {
            "players": await model.count(),
            "position": position,
            "behind_log": max(0, ls.last - position),
        },
    }
    if as_json:
        show.emit(out)
        return 0
    last = f", last {show.ago(time.time() - ls.last_at)} ago" if ls.last_at else ""
    click.echo(f"log        {ls.entries:,} entries, last position {ls.last}{last}")
    if group is not None:
        click.echo(f"consumer   {group.name:<14} lag {group.lag:,} entries")
    rm = out["read_model"]
    click.echo(
        f"read model {rm['players']:,} players, position {position}"  # type: ignore[index]
        f" ({rm['behind_log']:,} behind the log)"  # type: ignore[index]
    )
    return 0


@players.command("list")
@click.option("--limit", default=100, show_default=True, help="at most this many.")
@click.option("--after", default=0, help="players registered after this position.")
@json_option
@run
async def list_players(ops: Ops, limit: int, after: int, as_json: bool) -> int:
    """Players in the order they registered (the read model's)."""
    model = await ops.player_model()
    for record in await model.players(limit, after):
        if as_json:
            show.emit(msgspec.to_builtins(record))
        else:
            bot = "  bot" if record.bot else ""
            click.echo(f"{record.player_id}  {printable(record.name)}{bot}  (#{record.registered})")
    return 0


@players.command("show")
@click.argument("player_id")
@json_option
@run
async def show_player(ops: Ops, player_id: str, as_json: bool) -> int:
    """A player's entries in the log, and the player they fold to."""
    log = await ops.players()
    entries = await log.read(player_id)
    if not entries:
        raise travel.NotFound(f"no player {player_id} in the players' log")
    p = FoldedPlayer(player_id)
    for stored in entries:
        p.apply(stored)
        try:
            entry: object = msgspec.to_builtins(decode_player_entry(stored.data))
        except msgspec.DecodeError:
            entry = {"not_an_entry": stored.data.decode(errors="replace")}
        if as_json:
            show.emit({"seq": stored.seq, "entry": entry})
        else:
            click.echo(f"#{stored.seq:<8} {printable(msgspec.json.encode(entry).decode())}")
    folded = {
        "player_id": player_id,
        "registered": p.registered,
        "name": p.name,
        "bot": p.bot,
        "tables": list(p.tables),
    }
    if as_json:
        show.emit(folded)
    else:
        click.echo(printable(msgspec.json.encode(folded).decode()))
    return 0


@players.command("withdraw")
@click.argument("player_id")
@run
async def withdraw(ops: Ops, player_id: str) -> int:
    """Withdraw a registration whose token was never handed out, so its name is free again: the
    table service logs "its registration could not be withdrawn" when the players' log was away
    as a registration failed and it stopped before it could try again. Only a player whose log
    holds its registration alone (no seat taken, no token replaced) is withdrawn."""
    try:
        done = await PlayerLog(await ops.players()).withdraw_unused(player_id)
    except LookupError:
        raise travel.NotFound(f"no player {player_id} in the players' log") from None
    except InUse:
        click.echo(
            f"player {player_id} used its token (a seat taken or its token replaced): kept",
            err=True,
        )
        return 2
    click.echo(f"player {player_id}: " + ("withdrawn" if done else "withdrawn already"))
    return 0


@players.command("rebuild")
@click.option("--yes", is_flag=True, help="do not ask first.")
@run
async def rebuild(ops: Ops, yes: bool) -> int:
    """Make the players' read model again from their whole log, and their ratings from the whole
    tables' log (every rated table in the order it ended), while the projection runs. The
    players' writes are idempotent: each is written again over the one in use, then those the
    log never registered are removed. The ratings are made apart, under a hold (the projection's
    ratings wait, then go on from the rebuilt ones), and put in place in one step. One that stops
    half-way leaves the ratings as they were and no player missing."""
    if not yes:
        if not sys.stdin.isatty():
            raise click.UsageError("players rebuild asks first: answer on a terminal, or add --yes")
        if not click.confirm("Make the players' read model and every rating again?"):
            click.echo("nothing done", err=True)
            return 1
    log = await ops.players()
    model = await ops.player_model()
    count = await rebuild_model(log, model)
    click.echo(
        f"players' read model rebuilt from {count:,} entries: {await model.count():,} players"
    )
    try:
        rated = await rebuild_ratings(await ops.log(), model)
    except RatingsHeld as e:
        click.echo(f"ratings not rebuilt: {e}", err=True)
        return 2
    click.echo(f"ratings rebuilt from the tables' log: {rated:,} rated tables")
    return 0


async def _boards(model: RatingBoard) -> dict[str, list[tuple[str, Rating]]]:
    return {pool: await model.leaderboard(pool, 10**9) for pool in POOLS}


@players.command("verify")
@json_option
@run
async def verify(ops: Ops, as_json: bool) -> int:
    """Rate the whole tables' log again in memory and compare with the read model's ratings:
    exit 1 if they differ."""
    model = await ops.player_model()
    fresh = MemoryPlayerModel()
    rated = await rate_log(await ops.log(), fresh)
    held, made = await _boards(model), await _boards(fresh)
    differ = [pool for pool in POOLS if held[pool] != made[pool]]
    if as_json:
        show.emit({"rated_tables": rated, "pools_differ": differ})
    else:
        for pool in differ:
            click.echo(f"pool {pool}: the read model's ratings differ from the log's")
        click.echo(f"{rated:,} rated tables; {len(differ)} pools differ")
    if differ:
        raise Found()
    return 0


@players.command("leaderboard")
@click.argument("pool", type=click.Choice(POOLS), default="base")
@click.option("--limit", default=50, show_default=True, help="at most this many.")
@json_option
@run
async def leaderboard(ops: Ops, pool: str, limit: int, as_json: bool) -> int:
    """A pool's ratings, the highest ordinal first."""
    model = await ops.player_model()
    for place, (rater, rating) in enumerate(await model.leaderboard(pool, limit), start=1):
        if as_json:
            show.emit({"rank": place, "rater": rater, **msgspec.to_builtins(rating)})
        else:
            click.echo(
                f"{place:>4}  {printable(rater):<20} ordinal {rating.ordinal:7.2f}"
                f"  mu {rating.mu:6.2f}  sigma {rating.sigma:5.2f}  games {rating.games}"
            )
    return 0
