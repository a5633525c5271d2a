"""Public reads' CORS (services/table/cors.py): a read is public unless it carries a token or a
stream ticket, the ticket's key read as the handler reads it."""

from __future__ import annotations

import pytest

from services.table.cors import _has_ticket


@pytest.mark.parametrize(
    ("query", "ticket"),
    [
        (b"", False),
        (b"ticket=abc", True),
        (b"after=3&ticket=abc", True),
        (b"ticket", True),  # a key without a value is still the key
        (b"%74icket=abc", True),  # escaped, as the handler decodes it
        (b"t%69cket=abc&x=1", True),
        (b"tickets=abc", False),
        (b"a=ticket", False),  # a value, not a key
        (b"+ticket=abc", False),  # " ticket"
        (b"a&" * 4_000, False),
    ],
)
def test_a_ticket_is_found_among_the_keys(query, ticket):
    assert _has_ticket(query) is ticket
