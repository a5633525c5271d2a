"""Each refusal's HTTP class: 422 only for what could never be valid at the
table; every refusal that depends on the table's state — which a client may have seen stale — is
409 "not now"."""

from __future__ import annotations

import pytest

from gcbc.rules.errors import CODES
from services.table.problems import NEVER_VALID, NOT_FOUND, refusal, status_for


def test_every_code_has_a_class_and_never_valid_codes_exist():
    assert NEVER_VALID <= CODES
    assert {status_for(code) for code in CODES} <= {404, 409, 422}


@pytest.mark.parametrize(
    "code",
    [
        "card_not_face_down",  # turned face up since the client looked
        "target_eliminated",
        "no_gun",  # taken since
        "card_not_in_hand",
        "invalid_choice",  # the prompt changed
        "invalid_target",
        "invalid_position",  # a seat holds fewer cards now (classic Defibrillator)
        "not_your_turn",
        "table_full",
    ],
)
def test_a_refusal_a_stale_view_explains_is_409(code):
    assert status_for(code) == 409


@pytest.mark.parametrize("code", ["target_is_self", "unknown_card", "invalid_arrangement"])
def test_a_command_that_can_never_be_valid_is_422(code):
    assert status_for(code) == 422


def test_unknown_tables_are_404():
    assert {status_for(code) for code in NOT_FOUND} == {404}


def test_a_seat_the_rules_find_empty_is_the_left_tokens_403_forbidden():
    """A token's seat left since this process last folded its table: the rules refuse the
    command as ``not_seated``, and the client gets what every seat endpoint answers such a
    token (docs/api.md, "Tokens")."""
    got = refusal("not_seated", "you have no seat at this table")
    assert (got.status, got.code) == (403, "forbidden")
