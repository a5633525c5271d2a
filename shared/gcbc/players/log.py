"""The players' log: a player's entries under its id, each name's claim under the name's key, in a
stream apart from the tables' (``STREAM``, subjects ``gcbc.player.<p>.<key>``). It goes through the
event log's port (``EventLog``): the JetStream adapter on the players' stream, or the in-memory
twin.

Registering appends the player's ``PlayerRegistered`` (a new id: nothing there to race), then its
name's claim expecting the name's key as it was read: of two players claiming one name, one wins;
the other's registration is withdrawn, and it never was a player. A name is held by the first
claim of its key whose player was not withdrawn, so a name is only ever held by a player whose
token was handed out: a claim whose append went unanswered is looked for again until the log
tells, and a registration that cannot tell withdraws its player (its token was never shown),
which frees the name even if that claim was stored. A token is replaced with the player's last
entry expected, so of two replacements sent with one token, one wins."""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import logging
import re
import secrets
import time
from collections import OrderedDict
from collections.abc import Callable

import msgspec

from gcbc.clock import now_ms
from gcbc.eventlog.port import (
    EventLog,
    LogUnavailable,
    OutcomeUnknown,
    WrongExpectedSequence,
)
from gcbc.players.folded import (
    FoldedPlayer,
    snapshot_decoder,
    snapshot_key,
    token_hash,
)
from gcbc.rules import names
from gcbc_contract.players import (
    AnyPlayerEntry,
    NameClaimed,
    PlayerRegistered,
    RegistrationWithdrawn,
    TableJoined,
    TokenReissued,
    decode_player_entry,
    encode_player_entry,
)

STREAM = "GCBC_PLAYERS"
PREFIX = "gcbc.player"
PARTITIONS = 1  # one consumer reads every player's entries (a player's writes are rare)
# how a composition root names this stream to the event log's adapter: connect(url, **STREAM_NAMES)
STREAM_NAMES = {"stream": STREAM, "prefix": PREFIX, "partitions": PARTITIONS}
RETRIES = 8
# waits before looking again at a name's key whose claim went unanswered (seconds)
SETTLE = (0.05, 0.2, 0.5, 1.0)
# waits between tries of a withdrawal the log did not take at once (seconds, the last repeated)
WITHDRAW_RETRY = (1.0, 5.0, 30.0)
WITHDRAW_TRIES = 40

# entries of a player read past its last snapshot before a new one is written: a player's log
# grows with every table it joins, and a process that does not hold it reads from its snapshot
SNAPSHOT_EVERY = 500
PAGE = 1000  # a player's entries read at once (the event loop turns between pages)

_encoder = msgspec.json.Encoder()
log = logging.getLogger("gcbc.players")

_TOKEN = re.compile(r"([0-9a-f]{16})\.[A-Za-z0-9_-]{32}")
_PLAYER_ID = re.compile(r"[0-9a-f]{16}")


class NameTaken(Exception):
    """Another player's name looks like this one."""


class StaleToken(Exception):
    """The token changed meanwhile (replaced by another request)."""


class InUse(Exception):
    """The player used its token (a seat taken, its token replaced): it was handed out."""


class TokenUnknown(OutcomeUnknown):
    """A replacement the log may or may not have taken: ``token`` is the new one if it did."""

    def __init__(self, token: str, why: str) -> None:
        super().__init__(why)
        self.token = token


def new_player_id() -> str:
    return secrets.token_hex(8)


def is_player_id(text: str) -> bool:
    return _PLAYER_ID.fullmatch(text) is not None


def new_token(player_id: str) -> str:
    """A player's token names its player (so it is checked on that player's entries alone) and
    holds 192 random bits."""
    return f"{player_id}.{secrets.token_urlsafe(24)}"


def player_of_token(token: str | None) -> str | None:
    """The player a token of a player's form names (None: not a player's token, a seat's)."""
    if not token:
        return None
    m = _TOKEN.fullmatch(token)
    return m[1] if m else None


def name_key(name: str) -> str:
    """The key a name's claim is appended under: names that look alike share it."""
    return "n" + hashlib.sha256(names.look(name).encode()).hexdigest()[:32]


class _Turn:
    """One player's table notes in this process, one at a time (``users``: those holding or
    waiting for it)."""

    __slots__ = ("lock", "users")

    def __init__(self) -> None:
        self.lock = asyncio.Lock()
        self.users = 0


class PlayerLog:
    """The players' entries appended and read, and the players folded from them (the ones this
    process read, kept up to date with one read of each player's last entry)."""

    KEEP = 10_000  # players kept folded in memory
    # how long a player read from the log answers ``authenticate`` without asking for its last
    # entry again (an ask of NATS per request, each a client's to make): a token replaced by
    # another process is refused here that much later at most; one replaced here, at once
    FRESH = 1.0

    def __init__(self, events: EventLog, clock: Callable[[], float] = time.monotonic) -> None:
        self.events = events
        self.clock = clock
        self.folded: OrderedDict[str, FoldedPlayer] = OrderedDict()
        self._read_at: dict[str, float] = {}  # player -> when its last entry was last asked for
        self._appended_at: dict[str, float] = {}  # key -> when an append to it was last answered
        self.withdrawing: set[asyncio.Task[None]] = set()
        self._joining: dict[str, _Turn] = {}  # the players whose tables are being noted
        self.snapshotting: set[asyncio.Task[None]] = set()

    async def player(self, player_id: str) -> FoldedPlayer | None:
        """The player as the log tells now (None: no such player)."""
        p = await self._folded(player_id)
        return p if p is not None and p.registered else None

    async def _folded(self, player_id: str) -> FoldedPlayer | None:
        """The player's entries folded as the log tells now, registered or not (None: none)."""
        p = self.folded.get(player_id)
        asked = self.clock()
        last = await self.events.last(player_id)
        if last is None:
            return None
        if p is None or p.seq > last.seq:
            p = await self._restored(player_id, last.seq)
        elif p.seq < last.seq:
            # a new object: one handed out before stays as it was read (a replacement expects
            # the entry its request read, never a later one)
            p = p.copy()
        while p.seq < last.seq:  # page by page: a long log never holds the event loop long
            got = await self.events.read(player_id, after=p.seq, most=PAGE)
            for stored in got:
                p.apply(stored)
            if len(got) < PAGE:
                break
            await asyncio.sleep(0)
        if p.since_snapshot >= SNAPSHOT_EVERY:
            p.since_snapshot = 0
            self._snapshot(p)
        self._keep(p)
        if asked > self._appended_at.get(player_id, float("-inf")):
            self._read_at[player_id] = asked  # (a read begun before an append is not fresh)
        return p

    async def _restored(self, player_id: str, last: int) -> FoldedPlayer:
        """The player from its last snapshot (one past its last entry ``last`` is of another
        log: not taken), or from nothing."""
        stored = await self.events.last(snapshot_key(player_id))
        if stored is not None:
            try:
                snapshot = snapshot_decoder.decode(stored.data)
            except msgspec.DecodeError:
                snapshot = None  # not a snapshot (only an operator could have put it there)
            if snapshot is not None and snapshot.upto <= last:
                return FoldedPlayer.restored(player_id, snapshot)
        return FoldedPlayer(player_id)

    def _snapshot(self, p: FoldedPlayer) -> None:
        """Write the player's snapshot in the background (best effort: without it, the next
        process to read the player reads more of its log)."""

        async def write() -> None:
            key = snapshot_key(p.player_id)
            with contextlib.suppress(LogUnavailable, OutcomeUnknown, WrongExpectedSequence):
                last = await self.events.last(key)
                if last is not None:
                    with contextlib.suppress(msgspec.DecodeError):
                        if snapshot_decoder.decode(last.data).upto >= p.seq:
                            return  # another process wrote as far
                data = _encoder.encode(p.snapshot())
                await self.events.append(key, data, expected=last.seq if last else 0)

        task = asyncio.create_task(write())
        self.snapshotting.add(task)
        task.add_done_callback(self.snapshotting.discard)

    def held(self, player_id: str) -> FoldedPlayer | None:
        """The player as this process last read it (no trip to the log)."""
        p = self.folded.get(player_id)
        return p if p is not None and p.registered else None

    def _keep(self, p: FoldedPlayer) -> None:
        self.folded[p.player_id] = p
        self.folded.move_to_end(p.player_id)
        while len(self.folded) > self.KEEP:
            gone, _ = self.folded.popitem(last=False)
            self._read_at.pop(gone, None)

    async def authenticate(self, token: str) -> FoldedPlayer | None:
        """The player whose current token this is (None: none: not a player's, unknown, or
        replaced since)."""
        player_id = player_of_token(token)
        if player_id is None:
            return None
        p = self.folded.get(player_id)
        read_at = self._read_at.get(player_id)
        if p is None or read_at is None or self.clock() - read_at > self.FRESH:
            p = await self.player(player_id)
        elif not p.registered:
            return None
        return p if p is not None and p.holds(token) else None

    async def claim(self, name: str) -> NameClaimed | None:
        """The claim holding a name (or one that looks like it), if one does."""
        return (await self._holder(name))[0]

    async def _holder(self, name: str) -> tuple[NameClaimed | None, int]:
        """The claim holding the name (the first of its key whose player was not withdrawn) and
        the sequence of the key's last entry (what a claim appended next expects)."""
        got = await self.events.read(name_key(name))
        for stored in got:
            try:
                entry = decode_player_entry(stored.data)
            except msgspec.DecodeError:
                continue  # not an entry: stepped over
            if isinstance(entry, NameClaimed):
                p = await self._folded(entry.player_id)
                if p is None or not p.withdrawn:
                    return entry, got[-1].seq
        return None, got[-1].seq if got else 0

    async def register(
        self, name: str, bot: bool, key: str | None = None
    ) -> tuple[FoldedPlayer, str]:
        """A new player under ``name`` (normalised, checked by the caller), and its token;
        NameTaken if another player has the name. LogUnavailable or OutcomeUnknown: no player
        (one that came to be in part is withdrawn, now or as soon as the log takes it). ``key``:
        the client's registration key; the registration that holds the name sent again with it
        is answered again, with a new token (its first answer may never have arrived)."""
        held, last = await self._holder(name)
        if held is not None:
            p = await self.player(held.player_id)
            if p is not None and p.registered_with(key):
                return p, await self.reissue(p)
            raise NameTaken(name)
        player_id = new_player_id()
        token = new_token(player_id)
        at = now_ms()
        registered = PlayerRegistered(
            player_id=player_id,
            name=name,
            bot=bot,
            token_hash=token_hash(token),
            registration=token_hash(key) if key else "",
            at=at,
        )
        await self._append(player_id, registered, 0)
        claim = NameClaimed(player_id=player_id, name=name, bot=bot, at=at)
        try:
            await self._claim(claim, last)
        except (NameTaken, LogUnavailable, OutcomeUnknown):
            # its token is unknown to all: withdrawn, it never was a player, and a claim of its
            # that was stored after all holds nothing
            await self._withdraw(player_id)
            raise
        p = await self.player(player_id)
        assert p is not None
        return p, token

    async def _claim(self, claim: NameClaimed, last: int) -> None:
        """Append the name's claim after ``last``; once an append went unanswered or lost a race,
        the name's key is read again to tell whether the claim is there (NameTaken: another
        player's holds the name; OutcomeUnknown: the log never told)."""
        for wait in (None, *SETTLE):
            if wait is not None:
                await asyncio.sleep(wait)
                try:
                    held, last = await self._holder(claim.name)
                except LogUnavailable:
                    continue
                if held is not None and held.player_id == claim.player_id:
                    return  # stored after all
                if held is not None:
                    raise NameTaken(claim.name)
            try:
                await self._append(name_key(claim.name), claim, last)
                return
            except (WrongExpectedSequence, LogUnavailable, OutcomeUnknown):
                continue  # look again
        raise OutcomeUnknown(f"the claim of {claim.name!r} went unanswered")

    async def _withdraw(self, player_id: str) -> None:
        """Withdraw a registration that never handed out its token: now, or in the background
        as soon as the log takes it."""
        try:
            await self._append(player_id, RegistrationWithdrawn(player_id=player_id, at=now_ms()))
        except (LogUnavailable, OutcomeUnknown, WrongExpectedSequence):
            task = asyncio.create_task(self._withdraw_later(player_id))
            self.withdrawing.add(task)
            task.add_done_callback(self.withdrawing.discard)

    async def withdraw_unused(self, player_id: str) -> bool:
        """Withdraw a registration that is all its player's log holds (no seat taken, no token
        replaced), as one whose withdrawal was lost with the process that owed it (logged: "its
        registration could not be withdrawn"): its name is free again. False: withdrawn already;
        LookupError: no such player; InUse: the player used its token, which it was handed."""
        entries = await self.events.read(player_id)
        p = FoldedPlayer(player_id)
        for stored in entries:
            p.apply(stored)
        if not p.name:
            raise LookupError(player_id)
        if p.withdrawn:
            return False
        if len(entries) > 1:
            raise InUse(player_id)
        entry = RegistrationWithdrawn(player_id=player_id, at=now_ms())
        try:  # expecting its registration: a token replaced meanwhile is a player using it
            await self._append(player_id, entry, p.seq)
        except WrongExpectedSequence:
            raise InUse(player_id) from None
        self.folded.pop(player_id, None)
        return True

    async def _withdraw_later(self, player_id: str) -> None:
        entry = RegistrationWithdrawn(player_id=player_id, at=now_ms())
        for attempt in range(WITHDRAW_TRIES):
            await asyncio.sleep(WITHDRAW_RETRY[min(attempt, len(WITHDRAW_RETRY) - 1)])
            with contextlib.suppress(LogUnavailable, OutcomeUnknown, WrongExpectedSequence):
                await self._append(player_id, entry)  # a second one changes nothing
                return
        log.error(
            "player %s: its registration could not be withdrawn (its name is held:"
            " gcbc-ops players withdraw %s frees it)",
            player_id,
            player_id,
        )

    async def reissue(self, p: FoldedPlayer) -> str:
        """A new token for the player (the one before stops working); StaleToken if it was
        replaced since ``p`` was read (a table noted meanwhile is no replacement: tried again);
        TokenUnknown, with the new token, if the log may or may not have taken it."""
        token = new_token(p.player_id)
        entry = TokenReissued(player_id=p.player_id, token_hash=token_hash(token), at=now_ms())
        for _ in range(RETRIES):
            try:
                await self._append(p.player_id, entry, p.seq)
            except WrongExpectedSequence:
                fresh = await self.player(p.player_id)
                if fresh is None or fresh.token_hash != p.token_hash:
                    raise StaleToken(p.player_id) from None
                p = fresh
                continue
            except OutcomeUnknown as e:
                raise TokenUnknown(token, str(e)) from None
            # the token is the player's now: a log away for the read that follows loses nothing
            with contextlib.suppress(LogUnavailable):
                await self.player(p.player_id)
            return token
        raise WrongExpectedSequence(p.player_id, p.seq)

    async def joined(self, p: FoldedPlayer, table_id: str) -> None:
        """Note a table the player takes a seat at (before the seat is taken: the player's
        tables are those noted where the table's log says it holds a seat). One player's notes
        are appended one at a time in a process (each expects the last: of many at once, all
        but one would have to try again)."""
        turn = self._joining.setdefault(p.player_id, _Turn())
        turn.users += 1
        try:
            async with turn.lock:
                held = self.folded.get(p.player_id)  # as the note before this one left it
                await self._joined(held if held is not None and held.seq > p.seq else p, table_id)
        finally:
            turn.users -= 1
            if not turn.users:
                del self._joining[p.player_id]

    async def _joined(self, p: FoldedPlayer, table_id: str) -> None:
        if next(reversed(p.tables), None) == table_id:
            return  # joined last already (a table joined again moves up: GET /players/me/tables)
        entry = TableJoined(player_id=p.player_id, table_id=table_id, at=now_ms())
        for _ in range(RETRIES):
            try:
                await self._append(p.player_id, entry, p.seq)
            except WrongExpectedSequence:
                fresh = await self.player(p.player_id)
                if fresh is None:
                    raise StaleToken(p.player_id) from None
                p = fresh
                continue
            await self.player(p.player_id)
            return
        raise WrongExpectedSequence(p.player_id, p.seq)

    async def _append(self, key: str, entry: AnyPlayerEntry, expected: int | None = None) -> int:
        """Append after the key's last entry (``expected``; None: whatever it is)."""
        if expected is None:
            last = await self.events.last(key)
            expected = last.seq if last is not None else 0
        try:
            got = await self.events.append(key, encode_player_entry(entry), expected=expected)
        finally:
            # the key's next read asks the log, which holds this entry then (or may: unknown)
            self._read_at.pop(key, None)
            if len(self._appended_at) > self.KEEP:
                since = self.clock() - self.FRESH
                self._appended_at = {k: t for k, t in self._appended_at.items() if t > since}
            self._appended_at[key] = self.clock()
        return got.seq
