"""A seat's token once its seat is left: every endpoint that takes a seat's token answers it the
same way (docs/api.md, "Tokens")."""

from __future__ import annotations

import threading
import time

import httpx
import pytest

from tests.e2e.conftest import auth

pytestmark = pytest.mark.timeout(120)


def _left_seat(http: httpx.Client) -> tuple[str, str, str]:
    """A lobby table whose seat 1 was taken and left: (table id, the left token, a ticket that
    token got while it held its seat)."""
    r = http.post("/tables", json={"seats": 4})
    assert r.status_code == 201, r.text
    table_id = r.json()["table_id"]
    http.post(f"/tables/{table_id}/seats", json={"name": "stays"}).raise_for_status()
    r = http.post(f"/tables/{table_id}/seats", json={"name": "leaves"})
    assert r.status_code == 201 and r.json()["seat"] == 1, r.text
    token = r.json()["token"]
    r = http.post(f"/tables/{table_id}/tickets", headers=auth(token))
    assert r.status_code == 201, r.text
    ticket = r.json()["ticket"]
    r = http.delete(f"/tables/{table_id}/seats/1", headers=auth(token))
    assert r.status_code == 204, r.text
    return table_id, token, ticket


def test_a_left_seats_token_is_403_forbidden_on_every_endpoint(http):
    table_id, token, ticket = _left_seat(http)
    base, bearer = f"/tables/{table_id}", auth(token)
    asked = {
        "view": http.get(f"{base}/view", headers=bearer),
        "long-poll": http.get(f"{base}/view?after=0&timeout=1", headers=bearer),
        "stream": http.get(f"{base}/stream", headers=bearer),
        "stream by ticket": http.get(f"{base}/stream?ticket={ticket}"),
        "ticket": http.post(f"{base}/tickets", headers=bearer),
        "command": http.post(f"{base}/commands", headers=bearer, json={"type": "pass"}),
        "chat": http.post(f"{base}/chat", headers=bearer, json={"text": "hello"}),
        "start": http.post(f"{base}/start", headers=bearer),
        "leave": http.delete(f"{base}/seats/1", headers=bearer),
        "rematch": http.post(f"{base}/rematch", headers=bearer),
    }
    answers = {
        what: (r.status_code, r.headers.get("content-type"), r.json().get("code"))
        for what, r in asked.items()
    }
    forbidden = (403, "application/problem+json", "forbidden")
    assert answers == dict.fromkeys(asked, forbidden), answers


def test_a_left_seats_long_poll_waiting_as_it_leaves_is_403_forbidden(http):
    """Its view goes with the seat: the long-poll waiting on it is refused like the rest, as
    the seat leaves (not when its minute runs out)."""
    r = http.post("/tables", json={"seats": 4})
    table_id = r.json()["table_id"]
    token = http.post(f"/tables/{table_id}/seats", json={"name": "leaves"}).json()["token"]
    version = http.get(f"/tables/{table_id}/view", headers=auth(token)).json()["version"]
    got: dict[str, httpx.Response] = {}

    def wait() -> None:
        got["poll"] = http.get(
            f"/tables/{table_id}/view?after={version}&timeout=60",
            headers=auth(token),
            timeout=90,
        )

    poll = threading.Thread(target=wait)
    poll.start()
    time.sleep(0.5)
    assert http.delete(f"/tables/{table_id}/seats/0", headers=auth(token)).status_code == 204
    poll.join(30)
    assert not poll.is_alive(), "the long-poll outlived its seat"
    r = got["poll"]
    assert (r.status_code, r.json()["code"]) == (403, "forbidden"), r.text
