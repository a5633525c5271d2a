"""A player as the players' log tells (``FoldedPlayer``), and its snapshot: what a process that
does not hold the player starts from, so that no request reads a player's whole history."""

from __future__ import annotations

import copy
import hashlib
import hmac

import msgspec

from gcbc.eventlog.port import Stored
from gcbc_contract.players import (
    AnyPlayerEntry,
    PlayerRegistered,
    RegistrationWithdrawn,
    TableJoined,
    TokenReissued,
    decode_player_entry,
)

# a player's latest tables kept folded: all that is asked of them (its list of tables, quick
# play's look for the table it plays at); every table it joined stays in the log and the read model
KEEP_TABLES = 200


def token_hash(token: str) -> str:
    """What the log records of a token."""
    return hashlib.sha256(token.encode()).hexdigest()


def snapshot_key(player_id: str) -> str:
    """The key a player's snapshots are appended under, beside its own."""
    return "s" + player_id


class PlayerSnapshot(msgspec.Struct, tag="player_snapshot", frozen=True):
    """A player folded up to ``upto`` (its last entry then): what ``FoldedPlayer`` holds. Not a
    player's entry (the players' projection steps over it): any process may write one."""

    upto: int
    name: str
    bot: bool
    token_hash: str
    registration: str
    withdrawn: bool
    tables: list[str]


snapshot_decoder = msgspec.json.Decoder(PlayerSnapshot)


class FoldedPlayer:
    """A player as its entries tell: registered (and not withdrawn), its token's hash, the
    tables it joined (oldest first, each once)."""

    __slots__ = (
        "bot",
        "name",
        "player_id",
        "registration",
        "seq",
        "since_snapshot",
        "tables",
        "token_hash",
        "withdrawn",
    )

    def __init__(self, player_id: str) -> None:
        self.player_id = player_id
        self.name = ""
        self.bot = False
        self.token_hash = ""
        self.registration = ""  # the hash of the key its registration was sent with
        self.withdrawn = False
        self.tables: dict[str, None] = {}
        self.seq = 0
        self.since_snapshot = 0  # entries folded since its last snapshot (or since nothing)

    def copy(self) -> FoldedPlayer:
        other = copy.copy(self)
        other.tables = dict(self.tables)
        return other

    @property
    def registered(self) -> bool:
        return bool(self.name) and not self.withdrawn

    def apply(self, stored: Stored) -> None:
        self.seq = stored.seq
        self.since_snapshot += 1
        try:
            entry = decode_player_entry(stored.data)
        except msgspec.DecodeError:
            return  # not an entry (only an operator could have put it there): stepped over
        self.fold(entry)

    def fold(self, entry: AnyPlayerEntry) -> None:
        if isinstance(entry, PlayerRegistered):
            self.name, self.bot, self.token_hash = entry.name, entry.bot, entry.token_hash
            self.registration = entry.registration
        elif isinstance(entry, RegistrationWithdrawn):
            self.withdrawn = True
        elif isinstance(entry, TokenReissued):
            self.token_hash = entry.token_hash
        elif isinstance(entry, TableJoined):
            self.tables.pop(entry.table_id, None)
            self.tables[entry.table_id] = None  # the last joined last
            if len(self.tables) > KEEP_TABLES:
                del self.tables[next(iter(self.tables))]

    def snapshot(self) -> PlayerSnapshot:
        return PlayerSnapshot(
            upto=self.seq,
            name=self.name,
            bot=self.bot,
            token_hash=self.token_hash,
            registration=self.registration,
            withdrawn=self.withdrawn,
            tables=list(self.tables),
        )

    @classmethod
    def restored(cls, player_id: str, snapshot: PlayerSnapshot) -> FoldedPlayer:
        p = cls(player_id)
        p.seq, p.name, p.bot = snapshot.upto, snapshot.name, snapshot.bot
        p.token_hash, p.registration = snapshot.token_hash, snapshot.registration
        p.withdrawn = snapshot.withdrawn
        p.tables = dict.fromkeys(snapshot.tables[-KEEP_TABLES:])
        return p

    def holds(self, token: str) -> bool:
        return self.registered and hmac.compare_digest(self.token_hash, token_hash(token))

    def registered_with(self, key: str | None) -> bool:
        """Whether its registration was sent with ``key``."""
        return bool(key and self.registration) and hmac.compare_digest(
            self.registration, token_hash(key or "")
        )
