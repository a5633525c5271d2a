"""What one client address holds at once (DESIGN property 7): its seats at tables not over, the
tables it opened with house bots still in play (each costs the bot worker's time), and the tables
it opened still waiting for players (the lobby lists the oldest first: one address must not fill
it).

Counted by this process, as the open streams are: what it granted, forgotten once the table is
over or the seat left. A client at its cap has its holdings looked at again (each table as the
log has it) before it is refused, so a finished game or a left seat gives its place back without
any bookkeeping on the way.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable

from services.table.problems import too_many

# (table, the seat's token hash or None) -> whether the client still holds it
StillHeld = Callable[[str, str | None], Awaitable[bool]]


class Holdings:
    RETRY = 30  # seconds a refused client is told to wait (a game goes on for minutes)
    KEEP_CLIENTS = 100_000  # addresses remembered, the oldest forgotten first

    def __init__(
        self, seats_per_client: int, house_tables_per_client: int, lobby_tables_per_client: int = 0
    ) -> None:
        self.seats_cap, self.house_cap = seats_per_client, house_tables_per_client
        self.lobby_cap = lobby_tables_per_client
        # client -> its seats, as (table, token hash), oldest first
        self.seats: dict[str, dict[tuple[str, str], None]] = {}
        # client -> the tables it opened with house bots; the tables it opened
        self.house: dict[str, dict[str, None]] = {}
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
            for seat in list(held):
                if not await still_held(*seat):
                    held.pop(seat, None)
            if len(held) >= self.seats_cap:
                self._refuse(f"your address holds {self.seats_cap} seats at tables not over")
        _book(self.seats, client, self.KEEP_CLIENTS)[(table, token_hash)] = None

    async def hold_table(
        self, client: str, table: str, house: bool, in_lobby: StillHeld, still_held: StillHeld
    ) -> None:
        """429 if ``client`` has its cap of tables waiting for players (or, ``house``, of tables
        with house bots in play); else the table is noted at once as the client's, before its
        append, as the room for it was found: requests sent together all count."""
        if house:
            await self.room_for_house_table(client, still_held)
            self.opened_house_table(client, table)
        await self.room_for_lobby_table(client, in_lobby)
        self.opened_table(client, table)

    async def room_for_house_table(self, client: str, still_held: StillHeld) -> None:
        """429 if ``client`` has its cap of tables with house bots in play."""
        why = f"your address has {self.house_cap} tables with house bots not over yet"
        await self._room_for_table(self.house, self.house_cap, client, still_held, why)

    def opened_house_table(self, client: str, table: str) -> None:
        if self.house_cap:
            _book(self.house, client, self.KEEP_CLIENTS)[table] = None

    async def room_for_lobby_table(self, client: str, in_lobby: StillHeld) -> None:
        """429 if ``client`` has its cap of tables it opened still waiting for players."""
        why = f"your address has {self.lobby_cap} tables waiting for players"
        await self._room_for_table(self.lobby, self.lobby_cap, client, in_lobby, why)

    def opened_table(self, client: str, table: str) -> None:
        if self.lobby_cap:
            _book(self.lobby, client, self.KEEP_CLIENTS)[table] = None

    async def _room_for_table(
        self, books: dict[str, dict[str, None]], cap: int, client: str, held: StillHeld, why: str
    ) -> None:
        if not cap:
            return
        book = books.get(client, {})
        if len(book) >= cap:
            for table in list(book):
                if not await held(table, None):
                    book.pop(table, None)
            if len(book) >= cap:
                self._refuse(why)

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
