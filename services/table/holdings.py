"""What one client address holds at once (DESIGN property 7): its seats at tables not over, the
house seats at the tables it opened still in play (the house's seats are one pool for every
client, and each costs the bot worker's time), and the tables
it opened still waiting for players (the lobby lists the oldest first: one address must not fill
it).

Counted by this process, as the open streams are: what it granted, forgotten once the table is
over or the seat left. A client at its cap has its holdings looked at again (each table as the
log has it) before it is refused, so a finished game or a left seat gives its place back without
any bookkeeping on the way.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable

from services.table.problems import ApiError, too_many

# (table, the seat's token hash or None) -> whether the client still holds it
StillHeld = Callable[[str, str | None], Awaitable[bool]]


class Holdings:
    RETRY = 30  # seconds a refused client is told to wait (a game goes on for minutes)
    KEEP_CLIENTS = 100_000  # addresses remembered, the oldest forgotten first

    def __init__(
        self, seats_per_client: int, house_seats_per_client: int, lobby_tables_per_client: int = 0
    ) -> None:
        self.seats_cap, self.house_cap = seats_per_client, house_seats_per_client
        self.lobby_cap = lobby_tables_per_client
        # client -> its seats, as (table, token hash), oldest first
        self.seats: dict[str, dict[tuple[str, str], None]] = {}
        # client -> the tables it opened with house bots, each with its house seats
        self.house: dict[str, dict[str, int]] = {}
        # client -> the tables it opened
        self.lobby: dict[str, dict[str, None]] = {}

    async def hold_seat(
        self, client: str, table: str, token_hash: str, still_held: StillHeld
    ) -> None:
        """429 if ``client`` holds its cap of seats in tables not over; else the seat (its
        token's hash) is noted at once, before its append, as the room for it was found:
        requests sent together all count (one refused later is found not held at the cap)."""
        if not self.seats_cap:
            return
        held = self.seats.get(client, {})
        if len(held) >= self.seats_cap:
            await _forget_given_back(held, still_held)
            if len(held) >= self.seats_cap:
                self._refuse(f"your address holds {self.seats_cap} seats at tables not over")
        _book(self.seats, client, self.KEEP_CLIENTS)[(table, token_hash)] = None

    async def hold_table(
        self, client: str, table: str, house_seats: int, in_lobby: StillHeld, still_held: StillHeld
    ) -> None:
        """429 if ``client`` has its cap of tables waiting for players (or, with ``house_seats``,
        of house seats in play); else the table is noted at once as the client's, before its
        append, as the room for it was found: requests sent together all count."""
        if house_seats:
            await self.hold_house_seats(client, table, house_seats, still_held)
        await self.room_for_lobby_table(client, in_lobby)
        self.opened_table(client, table)

    async def hold_house_seats(
        self, client: str, key: str, seats: int, still_held: StillHeld, field: str = "bots.seats"
    ) -> int | None:
        """429 if ``seats`` more house seats would pass ``client``'s cap of them in play (what
        ``key`` held before is replaced: a place asked again); else they are noted at once under
        ``key``. What ``key`` held before (None: nothing), for ``give_back_house_seats``."""
        cap = self.house_cap
        if not cap:
            return None
        if seats > cap:
            raise ApiError(
                422, "invalid_body", f"an address may have {cap} house seats in play at most", field
            )
        book = self.house.get(client, {})
        if sum(book.values()) - book.get(key, 0) + seats > cap:
            await _forget_given_back(book, still_held)
            if (held := sum(book.values()) - book.get(key, 0)) + seats > cap:
                self._refuse(
                    f"your address may have {cap} house seats in play and has {held}"
                    f" (asked {seats})"
                )
        book = _book(self.house, client, self.KEEP_CLIENTS)
        before, book[key] = book.get(key), seats
        return before

    def give_back_house_seats(self, client: str, key: str, before: int | None) -> None:
        """Undo ``hold_house_seats`` (what it noted was refused further on)."""
        book = self.house.get(client)
        if book is not None and key in book:
            if before is None:
                del book[key]
            else:
                book[key] = before

    async def room_for_lobby_table(self, client: str, in_lobby: StillHeld) -> None:
        """429 if ``client`` has its cap of tables it opened still waiting for players."""
        if not self.lobby_cap:
            return
        book = self.lobby.get(client, {})
        if len(book) >= self.lobby_cap:
            await _forget_given_back(book, in_lobby)
            if len(book) >= self.lobby_cap:
                self._refuse(f"your address has {self.lobby_cap} tables waiting for players")

    def opened_table(self, client: str, table: str) -> None:
        if self.lobby_cap:
            _book(self.lobby, client, self.KEEP_CLIENTS)[table] = None

    def _refuse(self, why: str) -> None:
        raise too_many("too_many_held", f"{why}: finish or leave one first", self.RETRY)


def _book(books: dict[str, dict], client: str, keep: int) -> dict:
    """``client``'s holdings, made if new (the oldest client forgotten past ``keep``)."""
    book = books.get(client)
    if book is None:
        if len(books) >= keep:
            del books[next(iter(books))]
        book = books[client] = {}
    return book


async def _forget_given_back(book: dict, still_held: StillHeld) -> None:
    """Forget what ``book`` holds no longer (a seat is a (table, token hash); a table its id)."""
    for key in list(book):
        if not await still_held(*(key if isinstance(key, tuple) else (key, None))):
            book.pop(key, None)
