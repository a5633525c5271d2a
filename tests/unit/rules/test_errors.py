"""Every refusal code carries its HTTP class in one table (``gcbc.rules.errors``)."""

from __future__ import annotations

import pytest

from gcbc.rules.errors import CODES, HTTP_CLASS, http_class

STATUS = {"invalid": 422, "conflict": 409, "not_found": 404}


def test_every_code_has_a_class() -> None:
    assert set(HTTP_CLASS) == CODES
    assert set(HTTP_CLASS.values()) == set(STATUS)


@pytest.mark.parametrize(
    "code",
    [
        "bad_seat_count",
        "option_not_offered",
        "invalid_deal",
        "bad_name",
        "bad_text",
        "target_is_self",
        "invalid_arrangement",
        "unknown_card",
        "bad_parameters",
    ],
)
def test_what_can_never_be_valid_at_a_table_is_invalid(code: str) -> None:
    assert http_class(code) == "invalid"


@pytest.mark.parametrize(
    "code", ["card_not_face_down", "invalid_target", "invalid_position", "not_your_turn"]
)
def test_what_a_stale_view_explains_is_a_conflict(code: str) -> None:
    assert http_class(code) == "conflict"


def test_no_table_is_not_found() -> None:
    assert [c for c in CODES if http_class(c) == "not_found"] == ["no_table"]


def test_the_table_service_answers_each_code_with_its_class() -> None:
    """The table service answers each code with the HTTP status of its class in this table."""
    from services.table import problems

    for code in CODES:
        assert problems.status_for(code) == STATUS[http_class(code)], code
