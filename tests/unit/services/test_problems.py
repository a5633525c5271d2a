"""Each refusal's HTTP class: 422 only for what could never be valid at the
table; every refusal that depends on the table's state — which a client may have seen stale — is
409 "not now"."""

from __future__ import annotations

import logging
import types

import pytest
from litestar.testing import TestClient

from gcbc.rules.errors import CODES
from services.common.settings import Settings
from services.table import problems
from services.table.app import create_app
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


def test_an_unexpected_failure_s_traceback_is_logged_once_a_minute_where_it_comes_from(
    caplog, monkeypatch
):
    """One client repeating a request that fails (500) wrote a traceback (2.4 KB) to the log at
    each: gigabytes an hour. The same failure from the same line is traced once a minute, its
    repeats counted in the next; a failure elsewhere is traced at once."""
    now = [1000.0]
    monkeypatch.setattr(problems.time, "monotonic", lambda: now[0])
    monkeypatch.setattr(problems, "_traced", {})
    request = types.SimpleNamespace(method="GET", url=types.SimpleNamespace(path="/x"))

    def failed(kind: type[Exception]) -> Exception:
        try:
            raise kind("broken")
        except Exception as e:  # noqa: BLE001
            return e

    def traced() -> list[str]:
        return [r.getMessage() for r in caplog.records if r.exc_info]

    with caplog.at_level(logging.ERROR, logger="gcbc.table"):
        for _ in range(5):
            assert problems.handle_unexpected(request, failed(OverflowError)).status_code == 500
        assert len(traced()) == 1
        problems.handle_unexpected(request, failed(KeyError))  # another failure: traced
        assert len(traced()) == 2
        now[0] += problems.TRACEBACK_EVERY
        problems.handle_unexpected(request, failed(OverflowError))
        assert len(traced()) == 3 and "4 more times" in traced()[-1]


def test_a_method_a_route_does_not_take_is_405_naming_those_it_takes():
    """RFC 9110: a 405 carries ``Allow``; it came with neither that nor the methods' names."""
    client = TestClient(create_app(Settings()))  # (no lifespan: neither NATS nor Redis)
    r = client.put("/problems")
    assert r.status_code == 405 and r.json()["code"] == "method_not_allowed"
    allow = r.headers["allow"]
    assert "GET" in allow and "PUT" not in allow
    assert r.json()["detail"] == f"PUT is not a method of /problems: it takes {allow}"
    # a load balancer's or uptime monitor's probe may ask with HEAD
    r = client.head("/healthz")
    assert r.status_code == 200 and r.content == b""
