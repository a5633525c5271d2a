"""Players as the table service knows them: registered, authenticated by their token (checked on
the player's own entries in the players' log, one read of its last entry when nothing changed),
their names checked as seat names are, and the seats they hold (the tables' logs record them)."""

from __future__ import annotations

from gcbc.eventlog.port import LogUnavailable, OutcomeUnknown, WrongExpectedSequence
from gcbc.playermodel.port import PlayerModel, PlayerRecord
from gcbc.players.folded import FoldedPlayer
from gcbc.players.log import (
    NameTaken,
    PlayerLog,
    StaleToken,
    TokenUnknown,
    player_of_token,
)
from gcbc.readmodel.port import ModelUnavailable
from gcbc.rules import names
from gcbc_contract.players import PlayerProfile
from services.common.folded import FoldedTable
from services.table.problems import ApiError, retry_later
from services.table.service import TableService, already_seated


def no_player(player_id: str) -> ApiError:
    return ApiError(404, "no_player", f"there is no player {player_id}")


def not_this_player() -> ApiError:
    """A token that is no player's current token: refused as a seat's token not of the table is
    (403: the request is understood, the credentials are not)."""
    return ApiError(403, "forbidden", "that token is not a player's (or it was replaced since)")


def log_away(e: Exception) -> ApiError:
    return retry_later("log_unavailable", f"the players' log is away ({e}): try again")


def busy() -> ApiError:
    """The player's log changed under every try (its requests from several processes at once)."""
    return ApiError(409, "table_busy", "the player's log changed under many tries at once: retry")


class Identities:
    def __init__(self, log: PlayerLog, model: PlayerModel | None = None) -> None:
        self.log = log
        self.model = model

    def player_of(self, token: str) -> str | None:
        """The player whose token this was when this process last checked it (no trip to the
        log: a stream or long-poll checking its seat again)."""
        player_id = player_of_token(token)
        p = self.log.held(player_id) if player_id is not None else None
        return p.player_id if p is not None and p.holds(token) else None

    async def authenticate(self, token: str | None) -> FoldedPlayer:
        """The player the bearer token is the current token of: 401 without a token, 403 with
        one that is not."""
        if token is None:
            raise ApiError(401, "unauthorized", "this needs your player's bearer token")
        try:
            p = await self.log.authenticate(token)
        except LogUnavailable as e:
            raise log_away(e) from None
        if p is None:
            raise not_this_player()
        return p

    async def seating(self, t: FoldedTable, token: str | None) -> FoldedPlayer | None:
        """The player taking a seat at ``t`` with its token (None: anonymous, or a bearer that is
        not a player's); 409 if it holds a seat there already. Noted as joining the table
        (``joined``) once every other check passed, right before the seat is taken."""
        if player_of_token(token) is None:
            return None
        p = await self.authenticate(token)
        if TableService.player_seat(t, p.player_id) is not None:
            raise already_seated()  # (checked again right before the append: two asks at once)
        return p

    async def rejoining(self, player_id: str | None, table_id: str) -> str | None:
        """A finished table's seat taken again at its rematch: its player (None: anonymous),
        noted in its log as joining the rematch."""
        if player_id is None:
            return None
        try:
            p = await self.log.player(player_id)
        except LogUnavailable as e:
            raise log_away(e) from None
        if p is None:
            return None
        await self.joined(p, table_id)
        return player_id

    async def register(
        self, raw_name: str, bot: bool, key: str | None = None
    ) -> tuple[FoldedPlayer, str]:
        name = names.normalise(raw_name)
        if not names.well_formed(name):
            raise ApiError(422, "bad_name", "a name has 1 to 40 printable characters", "name")
        if names.is_the_house(name):
            raise ApiError(422, "name_reserved", "names like 'House bot 3' are the house's", "name")
        try:
            return await self.log.register(name, bot, key)
        except StaleToken:  # the same registration, sent again twice at once
            raise ApiError(
                409, "name_taken", "that registration was answered again just now", "name"
            ) from None
        except NameTaken:
            raise ApiError(
                409, "name_taken", "that name looks like a registered player's", "name"
            ) from None
        except LogUnavailable as e:
            raise log_away(e) from None
        except OutcomeUnknown:
            # the log never told whether the name's claim was stored: the registration is
            # withdrawn, so no player holds the name by it
            raise retry_later(
                "log_unavailable",
                "the players' log did not answer: no player was registered, register again",
            ) from None

    async def reissue(self, p: FoldedPlayer) -> str:
        try:
            return await self.log.reissue(p)
        except StaleToken:
            raise not_this_player() from None
        except TokenUnknown as e:  # the new token may be the player's: it must not be lost
            raise retry_later(
                "outcome_unknown",
                "the token may or may not have been replaced: GET /players/me with this token"
                " tells (403: it was not, and the one sent still holds)",
                token=e.token,
            ) from None
        except (LogUnavailable, OutcomeUnknown) as e:
            raise log_away(e) from None
        except WrongExpectedSequence:
            raise busy() from None

    async def joined(self, p: FoldedPlayer, table_id: str) -> None:
        try:
            await self.log.joined(p, table_id)
        except StaleToken:
            raise not_this_player() from None
        except (LogUnavailable, OutcomeUnknown) as e:
            raise log_away(e) from None
        except WrongExpectedSequence:
            raise busy() from None

    async def profile(self, player_id: str) -> PlayerProfile:
        """A player's public profile: from the read model, or from the log (the truth) when the
        read model has not projected it yet."""
        record: PlayerRecord | None = None
        if self.model is not None:
            try:
                record = await self.model.player(player_id)
            except ModelUnavailable:
                record = None  # the log answers
        if record is not None:
            return PlayerProfile(player_id=record.player_id, name=record.name, bot=record.bot)
        try:
            p = await self.log.player(player_id)
            claim = await self.log.claim(p.name) if p is not None else None
        except LogUnavailable as e:
            raise log_away(e) from None
        if p is None or claim is None or claim.player_id != player_id:
            raise no_player(player_id)
        return PlayerProfile(player_id=p.player_id, name=p.name, bot=p.bot)
