"""The house's seats (services/common/house_bots.py): tokens and the bots' seed derived from the
shared secret, so that nobody without it can act for a house seat or replay its bots' draws."""

from __future__ import annotations

from services.common.house_bots import bot_seat, bot_seed, bot_token

TABLE = "4f2a9c1e7b3d5a60"


def test_a_house_seats_token_is_its_own_and_the_secrets():
    token = bot_token("secret", TABLE, 2)
    assert bot_seat("secret", TABLE, (1, 2, 3), token) == 2
    assert bot_seat("other", TABLE, (1, 2, 3), token) is None
    assert bot_seat("secret", "4f2a9c1e7b3d5a61", (1, 2, 3), token) is None


def test_the_bots_seed_is_the_tables_own_and_cannot_be_made_without_the_secret():
    """A bot draws among its legal commands, which its hidden cards shape: a seed anyone can make
    (the table id's digits, once) lets anyone replay its draws and read its hand from its moves."""
    seed = bot_seed("secret", TABLE)
    assert seed == bot_seed("secret", TABLE)  # a restarted worker plays on with the same one
    assert seed != bot_seed("other", TABLE)
    assert seed != bot_seed("secret", "4f2a9c1e7b3d5a61")
    assert seed != int(TABLE[:8], 16)
