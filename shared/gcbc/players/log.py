"""The players' log: a player's entries under its id, each name's claim under the name's key, in a
stream apart from the tables' (``STREAM``, subjects ``gcbc.player.<p>.<key>``). It goes through the
event log's port (``EventLog``): the JetStream adapter on the players' stream, or the in-memory
twin.

Registering appends the player's ``PlayerRegistered`` (a new id: nothing there to race), then its
name's claim expecting an empty key: of two players claiming one name, one wins; the other's
registration is withdrawn, and it never was a player. A token is replaced with the player's last
entry expected, so of two replacements sent with one token, one wins."""

from __future__ import annotations

import hashlib
import hmac
import re
import secrets
import time
from collections import OrderedDict

import msgspec

from gcbc.eventlog.port import EventLog, Stored, WrongExpectedSequence
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
RETRIES = 8

_TOKEN = re.compile(r"([0-9a-f]{16})\.[A-Za-z0-9_-]{32}")
_PLAYER_ID = re.compile(r"[0-9a-f]{16}")


class NameTaken(Exception):
    """Another player's name looks like this one."""


class StaleToken(Exception):
    """The token changed meanwhile (replaced by another request)."""


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


def token_hash(token: str) -> str:
    """What the log records of a token."""
    return hashlib.sha256(token.encode()).hexdigest()


def name_key(name: str) -> str:
    """The key a name's claim is appended under: names that look alike share it."""
    return "n" + hashlib.sha256(names.look(name).encode()).hexdigest()[:32]


def now_ms() -> int:
    return int(time.time() * 1000)


class FoldedPlayer:
    """A player as its entries tell: registered (and not withdrawn), its token's hash, the
    tables it joined (oldest first, each once)."""

    __slots__ = ("bot", "name", "player_id", "seq", "tables", "token_hash", "withdrawn")

    def __init__(self, player_id: str) -> None:
        self.player_id = player_id
        self.name = ""
        self.bot = False
        self.token_hash = ""
        self.withdrawn = False
        self.tables: dict[str, None] = {}
        self.seq = 0

    def copy(self) -> FoldedPlayer:
        other = FoldedPlayer(self.player_id)
        other.name, other.bot, other.token_hash = self.name, self.bot, self.token_hash
        other.withdrawn, other.tables, other.seq = self.withdrawn, dict(self.tables), self.seq
        return other

    @property
    def registered(self) -> bool:
        return bool(self.name) and not self.withdrawn

    def apply(self, stored: Stored) -> None:
        self.seq = stored.seq
        try:
            entry = decode_player_entry(stored.data)
        except msgspec.DecodeError:
            return  # not an entry (only an operator could have put it there): stepped over
        self.fold(entry)

    def fold(self, entry: AnyPlayerEntry) -> None:
        if isinstance(entry, PlayerRegistered):
            self.name, self.bot, self.token_hash = entry.name, entry.bot, entry.token_hash
        elif isinstance(entry, RegistrationWithdrawn):
            self.withdrawn = True
        elif isinstance(entry, TokenReissued):
            self.token_hash = entry.token_hash
        elif isinstance(entry, TableJoined):
            self.tables.pop(entry.table_id, None)
            self.tables[entry.table_id] = None  # the last joined last

    def holds(self, token: str) -> bool:
        return self.registered and hmac.compare_digest(self.token_hash, token_hash(token))


class PlayerLog:
    """The players' entries appended and read, and the players folded from them (the ones this
    process read, kept up to date with one read of each player's last entry)."""

    KEEP = 10_000  # players kept folded in memory

    def __init__(self, events: EventLog) -> None:
        self.events = events
        self.folded: OrderedDict[str, FoldedPlayer] = OrderedDict()

    async def player(self, player_id: str) -> FoldedPlayer | None:
        """The player as the log tells now (None: no such player)."""
        p = self.folded.get(player_id)
        last = await self.events.last(player_id)
        if last is None:
            return None
        if p is None or p.seq > last.seq:
            p = FoldedPlayer(player_id)
        if p.seq < last.seq:
            # a new object: one handed out before stays as it was read (a replacement expects
            # the entry its request read, never a later one)
            p = p.copy()
            for stored in await self.events.read(player_id, after=p.seq):
                p.apply(stored)
        self._keep(p)
        return p if p.registered else None

    def held(self, player_id: str) -> FoldedPlayer | None:
        """The player as this process last read it (no trip to the log)."""
        p = self.folded.get(player_id)
        return p if p is not None and p.registered else None

    def _keep(self, p: FoldedPlayer) -> None:
        self.folded[p.player_id] = p
        self.folded.move_to_end(p.player_id)
        while len(self.folded) > self.KEEP:
            self.folded.popitem(last=False)

    async def authenticate(self, token: str) -> FoldedPlayer | None:
        """The player whose current token this is (None: none: not a player's, unknown, or
        replaced since)."""
        player_id = player_of_token(token)
        if player_id is None:
            return None
        p = await self.player(player_id)
        return p if p is not None and p.holds(token) else None

    async def claim(self, name: str) -> NameClaimed | None:
        """The claim of a name (or of one that looks like it), if there is one."""
        got = await self.events.read(name_key(name))
        for stored in got[:1]:
            try:
                entry = decode_player_entry(stored.data)
            except msgspec.DecodeError:
                return None
            return entry if isinstance(entry, NameClaimed) else None
        return None

    async def register(self, name: str, bot: bool) -> tuple[FoldedPlayer, str]:
        """A new player under ``name`` (normalised, checked by the caller), and its token;
        NameTaken if another player has the name."""
        if await self.claim(name) is not None:
            raise NameTaken(name)
        player_id = new_player_id()
        token = new_token(player_id)
        at = now_ms()
        registered = PlayerRegistered(
            player_id=player_id, name=name, bot=bot, token_hash=token_hash(token), at=at
        )
        await self._append(player_id, registered, 0)
        try:
            claim = NameClaimed(player_id=player_id, name=name, bot=bot, at=at)
            await self._append(name_key(name), claim, 0)
        except WrongExpectedSequence:
            # another player claimed it meanwhile: this one never was (its token is unknown to
            # all, so a withdrawal lost with the log away harms nobody)
            await self._append(player_id, RegistrationWithdrawn(player_id=player_id, at=now_ms()))
            raise NameTaken(name) from None
        p = await self.player(player_id)
        assert p is not None
        return p, token

    async def reissue(self, p: FoldedPlayer) -> str:
        """A new token for the player (the one before stops working); StaleToken if it was
        replaced since ``p`` was read."""
        token = new_token(p.player_id)
        entry = TokenReissued(player_id=p.player_id, token_hash=token_hash(token), at=now_ms())
        try:
            await self._append(p.player_id, entry, p.seq)
        except WrongExpectedSequence:
            raise StaleToken(p.player_id) from None
        await self.player(p.player_id)
        return token

    async def joined(self, p: FoldedPlayer, table_id: str) -> None:
        """Note a table the player takes a seat at (before the seat is taken: the player's
        tables are those noted where the table's log says it holds a seat)."""
        if table_id in p.tables:
            return
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
        got = await self.events.append(key, encode_player_entry(entry), expected=expected)
        return got.seq
