"""Players: an identity across tables (docs/api.md, "Players"), as the HTTP API takes and gives it,
and the entries of the players' own log.

A player registers once (``POST /players``) and gets a secret token, shown once; the server keeps
only its hash. With it the player takes seats (each seat still gets its own token), lists its
tables and acts for the seat it holds at any of them, from any device. Anonymous play stays.

The players' log is apart from the tables' (a stream of its own): each player's entries under its
id, and each name's claim under the name's own key, so two players cannot both claim a name (the
second append expects an empty history and is refused)."""

from __future__ import annotations

from typing import Annotated

import msgspec
from msgspec import Meta

from gcbc_contract.fields import Options, Seat, TableId, WinReasonField, WinTeam
from gcbc_contract.queue import QueueState
from gcbc_contract.vocabulary import Pool as PoolName
from gcbc_contract.vocabulary import Status, Team

PLAYER_ID_PATTERN = r"^[0-9a-f]{16}$"  # as OpenAPI states it: the server's own, like a table's

PlayerId = Annotated[
    str, Meta(description="the player's id: 16 hexadecimal digits, the server's own")
]
PlayerName = Annotated[
    str, Meta(description="the player's name, normalised as seat names are, unique among players")
]
PlayerToken = Annotated[
    str,
    Meta(
        description="the player's bearer token (Authorization: Bearer <token>): a secret shown"
        " once; it takes seats as this player and acts for the seat the player holds at a table"
    ),
]
IsBot = Annotated[
    bool,
    Meta(description="the player said a program plays it: every seat it takes shows `bot`"),
]


# --- what the HTTP API takes and gives ------------------------------------------------------------
class Register(msgspec.Struct, forbid_unknown_fields=True):
    name: Annotated[
        str,
        Meta(
            min_length=1,
            max_length=40,
            description="1 to 40 printable characters, kept normalised as a seat's name; 409"
            " name_taken if it looks like a registered player's (any case, width or script),"
            " 422 name_reserved for the house's (House bot 3)",
        ),
    ]
    bot: Annotated[
        bool,
        Meta(
            description="true: a program plays as this player, and every seat it takes shows"
            " `bot` (as Lichess shows its bot accounts); false: a person"
        ),
    ] = False
    registration_key: (
        Annotated[
            str,
            Meta(
                min_length=16,
                max_length=64,
                pattern=r"^[A-Za-z0-9_-]+$",
                description="a secret the client makes up for this registration (say 32 random"
                " characters): sent again after an answer that never came, the same registration"
                " answers again with the same player and a new token, instead of 409 name_taken",
            ),
        ]
        | None
    ) = None


class Registered(msgspec.Struct):
    """201: the player's id and its token (shown once: the server keeps only its hash)."""

    player_id: PlayerId
    name: PlayerName
    bot: IsBot
    token: PlayerToken


class PlayerProfile(msgspec.Struct):
    """A player as everyone may see it."""

    player_id: PlayerId
    name: PlayerName
    bot: IsBot


class MyProfile(PlayerProfile):
    """The player the bearer token is (``GET /players/me``): its profile and its place in the
    queue."""

    queue: Annotated[
        QueueState | None,
        Meta(
            description="its place in quick play's queue: waiting (since when, what it asked),"
            " seated (the table and seat the queue gave it), or null (not in the queue); GET"
            " /queue long-polls it"
        ),
    ] = None


class TokenIssued(msgspec.Struct):
    """201: the player's new token (the one sent stops working)."""

    player_id: PlayerId
    token: PlayerToken


TableStatus = Annotated[
    Status, Meta(description="waiting for players (the lobby), in play, or over")
]


class MyTable(msgspec.Struct):
    """A table where the player holds a seat. The player's token acts for that seat there (view,
    stream, ticket, commands, chat, start, leave): a table in play is picked up from any device."""

    table_id: TableId
    seat: Seat
    status: TableStatus
    view_url: Annotated[str, Meta(description="the seat's view (GET, with the player's token)")]


class MyTables(msgspec.Struct):
    """The player's tables, newest first."""

    tables: Annotated[list[MyTable], Meta(description="each table where the player holds a seat")]


class GameSeat(msgspec.Struct):
    """A seat of a finished game, as its end revealed it."""

    seat: Seat
    name: Annotated[str, Meta(description="the seat's name at the end")]
    bot: Annotated[bool, Meta(description="a program played it (the house, or its player said)")]
    player: Annotated[
        str | None, Meta(description="the registered player holding it at the end (null: none)")
    ]
    team: Annotated[Team | None, Meta(description="its team at the end (RULES §2, §8, §9)")]
    eliminated: Annotated[bool, Meta(description="it was eliminated")]
    won: Annotated[bool, Meta(description="it is among the winners")]


class PlayedGame(msgspec.Struct):
    """A finished game of a player: the table's options, every seat as the end revealed it, the
    player's seat and result. A table still waiting or in play is never listed."""

    table_id: TableId
    finished_at: Annotated[str, Meta(description="when the game ended (ISO 8601, UTC)")]
    options: Options
    seat: Annotated[int, Meta(description="the player's seat (numbered from 0)")]
    team: Annotated[Team | None, Meta(description="the player's team at the end")]
    won: Annotated[bool, Meta(description="the player's seat is among the winners")]
    win_team: WinTeam | None
    win_reason: WinReasonField | None
    seats: Annotated[list[GameSeat], Meta(description="every seat, in seat order")]
    history_url: Annotated[
        str, Meta(description="the table's whole history (GET), every event and every card")
    ] = ""
    rating_change: Annotated[
        float | None, Meta(description="the player's rating change (null: an unrated table)")
    ] = None


class PlayedGames(msgspec.Struct):
    """A page of a player's finished games, newest first."""

    games: Annotated[list[PlayedGame], Meta(description="the player's finished games")]
    next: Annotated[
        int | None,
        Meta(description="the `before` of the next (older) page: an opaque number; null: last"),
    ] = None


Pool = Annotated[
    PoolName,
    Meta(
        description="a rating pool: the expansions played (they change the teams and how a team"
        " wins); the edition, the extra equipment and where wounds live share a pool"
    ),
]
Mu = Annotated[float, Meta(description="the rating's mean (OpenSkill Plackett-Luce; 25 at first)")]
Sigma = Annotated[float, Meta(description="the rating's uncertainty (25/3 at first, shrinking)")]
Ordinal = Annotated[
    float, Meta(description="mu - 3 sigma: what leaderboards rank by (a cautious rating)")
]
Games = Annotated[int, Meta(description="rated games played in the pool")]


class PoolRating(msgspec.Struct):
    """A rating in one pool."""

    pool: Pool
    mu: Mu
    sigma: Sigma
    ordinal: Ordinal
    games: Games


class PlayerRatings(msgspec.Struct):
    """A player's ratings: one per pool it has played a rated game in."""

    player_id: PlayerId
    ratings: Annotated[list[PoolRating], Meta(description="each pool's rating")]


class LeaderboardEntry(msgspec.Struct):
    """A rater on a leaderboard: a player, or the house's bots of one kind (a baseline)."""

    rank: Annotated[int, Meta(description="its place, from 1")]
    player_id: Annotated[str | None, Meta(description="the player (null: the house's bots)")]
    name: Annotated[str, Meta(description="the player's name, or the house's bots' kind")]
    bot: IsBot
    mu: Mu
    sigma: Sigma
    ordinal: Ordinal
    games: Games


class Leaderboard(msgspec.Struct):
    """A page of a pool's leaderboard, the highest ordinal first."""

    pool: Pool
    entries: Annotated[list[LeaderboardEntry], Meta(description="the raters of this page")]
    next: Annotated[
        int | None, Meta(description="the `offset` of the next page (null: the last)")
    ] = None


# --- the players' log -----------------------------------------------------------------------------
class PlayerEntry(msgspec.Struct, frozen=True, kw_only=True, tag_field="kind", omit_defaults=True):
    at: int = 0  # milliseconds since the epoch, stamped by the writer
    schema: int = 1  # the version it was written in (this log began at 1)


class PlayerRegistered(PlayerEntry, tag="registered"):
    """A player's first entry, under its id (it counts once its name's claim is its)."""

    player_id: str
    name: str
    token_hash: str  # the hash of its token (the token itself is never stored)
    bot: bool = False
    registration: str = ""  # the hash of the client's registration key (empty: none sent)


class NameClaimed(PlayerEntry, tag="name_claimed"):
    """A name's claim, under the name's key: the first entry there wins the name."""

    player_id: str
    name: str
    bot: bool = False


class RegistrationWithdrawn(PlayerEntry, tag="withdrawn"):
    """A registration that never handed out its token (another player claimed its name first,
    or its own claim went unanswered): it never was a player, and its claim holds nothing."""

    player_id: str


class TokenReissued(PlayerEntry, tag="token_reissued"):
    """The player's token replaced: the one before stops working."""

    player_id: str
    token_hash: str


class TableJoined(PlayerEntry, tag="table_joined"):
    """The player took a seat at a table (the table's log records which seat, and whether it
    still holds it)."""

    player_id: str
    table_id: str


AnyPlayerEntry = (
    PlayerRegistered | NameClaimed | RegistrationWithdrawn | TokenReissued | TableJoined
)

_encoder = msgspec.json.Encoder()
_decoder = msgspec.json.Decoder(AnyPlayerEntry)


def encode_player_entry(entry: AnyPlayerEntry) -> bytes:
    return _encoder.encode(entry)


def decode_player_entry(data: bytes) -> AnyPlayerEntry:
    """An entry of the players' log (msgspec.DecodeError: not one)."""
    return _decoder.decode(data)
