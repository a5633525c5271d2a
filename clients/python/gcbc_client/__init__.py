"""A typed client for the Good Cop Bad Cop server (docs/api.md), blocking and asyncio.

    from gcbc_client import Client, commands

    with Client("http://127.0.0.1:8000") as client:
        table = client.create_table(seats=4)
        seat = client.join(table.table_id, "ann")

Views, commands and answers are the server's own msgspec Structs (``gcbc_contract``); a refusal
raises a ``gcbc_client.problems`` exception carrying its stable ``code``.
"""

from __future__ import annotations

from types import SimpleNamespace

from gcbc_client._core import filled
from gcbc_client.aio import AsyncClient, AsyncPlayer, AsyncSeat
from gcbc_client.problems import ApiProblem
from gcbc_client.sync import Client, Player, Seat
from gcbc_contract.commands import CLIENT_COMMANDS

# the commands a seat sends, by name: commands.Investigate(target=2, position=1), …
commands = SimpleNamespace(**{c.__name__: c for c in CLIENT_COMMANDS.values()})

__all__ = [
    "ApiProblem",
    "AsyncClient",
    "AsyncPlayer",
    "AsyncSeat",
    "Client",
    "Player",
    "Seat",
    "commands",
    "filled",
]
