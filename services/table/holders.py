"""A seat's hold on its views while it waits for them: whether the token of a long-poll or a
stream (or a stream ticket's) still names its seat, and a stream's frames, which end once the
seat changes hands, or the player's token that opened it is replaced."""

from __future__ import annotations

import asyncio
import hmac
import random
import time
from collections.abc import AsyncIterator, Callable
from typing import NamedTuple

import msgspec
from litestar.datastructures import State as AppState

from gcbc.eventlog.port import LogUnavailable
from gcbc.players.log import player_of_token
from gcbc.readmodel.port import ModelUnavailable, StoredView
from services.common.folded import FoldedTable
from services.table import tickets
from services.table.identities import Identities, log_away
from services.table.problems import ApiError, not_a_seat
from services.table.service import TableService, token_hash
from services.table.shown import shows_finished

PLAYER_RECHECK = 30.0  # seconds between looks at whether a stream's player token still holds
FOLLOW_WAIT = 0.25  # seconds a check waits for this process to fold an entry, then reads it
SPECTATOR_GAP = 0.25  # seconds between two frames of a spectator's stream, at least
# bytes a second a spectator's stream sends at most: a table whose views are large (a full chat of
# long messages) would otherwise cost the service its views' size times its hundreds of
# spectators at every change
SPECTATOR_BYTES = 32 * 1024


async def still_holds(
    service: TableService,
    table_id: str,
    token: str | None,
    seat: int,
    position: int,
    fingerprint: str | None = None,
) -> bool:
    """Whether ``token`` (or a ticket's token ``fingerprint``) still names ``seat`` at the table
    as of ``position``: a seat may have been left and taken by someone else while its old
    holder's long-poll or stream waited."""
    t = service.cache.tables.get(table_id)
    if t is not None and t.seq < position:
        # the view was written before this process folded its entry: following the log, it
        # will in a moment (reading the log instead costs a round trip to NATS per stream)
        t = await service.cache.reached(table_id, position, FOLLOW_WAIT)
    if t is None or t.seq < position:
        t = await service.cache.get(table_id)
    if fingerprint is not None:
        return t.tokens.get(seat, "")[:16] == fingerprint
    return service.seat_of(t, token) == seat


async def ticket_seat(
    service: TableService, state: AppState, table_id: str, ticket: str
) -> tuple[int, str, PlayerToken | None]:
    """The ticket's seat, its token's fingerprint and the player's token that asked for it."""
    got = tickets.read(state.ticket_secret, ticket, table_id, time.time())
    if got is None:
        raise ApiError(
            401, "unauthorized", "that ticket is not valid (expired, or not this table's)"
        )
    t = await service.table(table_id)
    if not await still_holds(service, table_id, None, got.seat, 0, got.fingerprint):
        raise not_a_seat()  # the ticket's seat was left (and maybe taken) since it was made
    player = None
    if got.player is not None:
        player = PlayerToken(t.players.get(got.seat, ""), got.player)
        try:
            if not await _player_holds(state.identities, player):
                raise not_a_seat()  # the player's token that asked was replaced since
        except LogUnavailable as e:
            raise log_away(e) from None
    return got.seat, got.fingerprint, player


class PlayerToken(NamedTuple):
    """A registered player's token acting for its seat: whose, and its fingerprint."""

    player_id: str
    fingerprint: str


def player_token(t: FoldedTable, seat: int, token: str | None) -> PlayerToken | None:
    """The player's token ``token`` is, acting for ``seat`` (None: the seat's own, a house
    bot's, or none)."""
    if not token:
        return None
    digest = token_hash(token)
    if hmac.compare_digest(t.tokens.get(seat, ""), digest):
        return None
    player_id = player_of_token(token)
    return PlayerToken(player_id, digest[:16]) if player_id is not None else None


async def _player_holds(identities: Identities, player: PlayerToken) -> bool:
    """Whether the player's token is still its current one, as its log says now."""
    p = await identities.log.player(player.player_id)
    return p is not None and hmac.compare_digest(p.token_hash[:16], player.fingerprint)


class Holder:
    """Whether a stream's holder still holds its seat: the seat's token (or a ticket's) at each
    change; a player's token acting for it, also as the player's log says, every
    ``PLAYER_RECHECK`` seconds (a replaced token's stream, in any process, ends then)."""

    def __init__(
        self,
        service: TableService,
        table_id: str,
        seat: int | None,
        token: str | None,
        fingerprint: str | None,
        identities: Identities,
        player: PlayerToken | None,
    ) -> None:
        self.service, self.table_id, self.seat = service, table_id, seat
        self.token, self.fingerprint = token, fingerprint
        self.identities, self.player = identities, player
        self.recheck = time.monotonic() + PLAYER_RECHECK

    async def holds(self, position: int) -> bool:
        if self.seat is None:
            return True
        if not await still_holds(
            self.service, self.table_id, self.token, self.seat, position, self.fingerprint
        ):
            return False
        if self.player is None or time.monotonic() < self.recheck:
            return True
        self.recheck = time.monotonic() + PLAYER_RECHECK
        return await _player_holds(self.identities, self.player)


def end_frame(version: int) -> bytes:
    """The stream's last event once the game is over (docs/api.md): the server then closes it.
    Without an id, so a reconnect still goes on after the last view."""
    data = msgspec.json.encode({"reason": "finished", "version": version})
    return b"event: end\r\ndata: " + data + b"\r\n\r\n"


async def events(
    service: TableService,
    table_id: str,
    seat: int | None,
    holder: Holder,
    after: int,
    close: Callable[[], None],
    ended: StoredView | None = None,
) -> AsyncIterator[bytes]:
    """The stream's frames: the view at each change after version ``after``, a keep-alive
    comment when nothing changed (jittered ~15 s); once a view shows the game over, the ``end``
    event, and the stream closes; it ends too when the seat changes hands (``ended``: the last
    view of a finished table whose views expired, made from its log: it alone). A spectator's stream
    sends at most a frame each ``SPECTATOR_GAP`` seconds (longer for a large view: at most
    ``SPECTATOR_BYTES`` a second), the latest view then (it has nothing to
    answer: a fast table's every change sent to each of its hundreds of spectators would cost the
    service more than the table itself)."""
    version, last = after, None
    # a reconnect looks at once: the game it follows may have ended meanwhile
    wait = 0.0 if after >= 0 else random.uniform(12.0, 18.0)
    try:
        while True:
            got = ended or await service.view(table_id, seat, version, wait, last=last)
            if got is None:
                return
            last = got
            if not await holder.holds(got.position):
                return
            if got.version > version:
                version = got.version
                frame = got.frame()  # the same bytes for every stream woken by this change
                yield frame
                if seat is None and not shows_finished(got.data):  # (the end: at once)
                    await asyncio.sleep(max(SPECTATOR_GAP, len(frame) / SPECTATOR_BYTES))
            elif wait:
                yield b": keep-alive\r\n\r\n"  # a comment, not an event
            if shows_finished(got.data):
                yield end_frame(got.version)
                return
            wait = random.uniform(12.0, 18.0)
    except (LogUnavailable, ModelUnavailable):
        return  # the client reconnects (EventSource does so by itself)
    finally:
        close()
