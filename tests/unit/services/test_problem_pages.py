"""Each problem code's page (services/table/problem_pages.py): one catalogue covers every code
the API document lists, each page served as HTML (to a browser) with the pages' headers or as
JSON, and an unknown code is a 404 problem. In-process (no lifespan: the pages need neither NATS nor Redis)."""

from __future__ import annotations

import re
from collections.abc import Iterator

import msgspec
import pytest
from litestar.testing import TestClient

from gcbc_contract.http import ProblemPage
from services.common.settings import Settings
from services.table import problem_pages, webtable
from services.table.app import create_app
from services.table.openapi import PROBLEM_CODES

JSON = {"Accept": "application/json"}


@pytest.fixture(scope="module")
def client() -> Iterator[TestClient]:
    yield TestClient(create_app(Settings()))


def test_every_code_the_api_lists_has_a_meaning_and_what_to_do():
    listed = {code for codes in PROBLEM_CODES.values() for code in codes}
    assert listed - set(problem_pages.CATALOGUE) == set()
    for code, (meaning, what_to_do) in problem_pages.CATALOGUE.items():
        assert meaning.endswith(".") and what_to_do.endswith("."), code
        assert problem_pages.statuses(code) or code == "http_error", code


def test_a_codes_page_is_html_with_the_pages_headers(client):
    r = client.get("/problems/not_your_turn", headers={"Accept": "text/html,*/*;q=0.8"})
    assert r.status_code == 200 and r.headers["content-type"] == "text/html; charset=utf-8"
    for name, value in webtable.HEADERS.items():
        assert r.headers.get(name) == value, name
    assert "It is another seat&#x27;s turn." in r.text and "What to do" in r.text
    for url in re.findall(r'(?:src|href)="([^"]*)"', r.text):
        assert url.startswith("/") and client.get(url).status_code == 200, url
    assert "accept" in r.headers["vary"].lower()


def test_a_codes_page_is_json_when_asked(client):
    r = client.get("/problems/outcome_unknown", headers=JSON)
    assert r.status_code == 200 and r.headers["content-type"] == "application/json"
    got = msgspec.json.decode(r.content, type=ProblemPage)
    assert got.type == "/problems/outcome_unknown" and got.statuses == (503,)
    assert "command_id" in got.what_to_do
    every = msgspec.json.decode(
        client.get("/problems", headers=JSON).content, type=list[ProblemPage]
    )
    assert {e.code for e in every} == set(problem_pages.CATALOGUE)


def test_an_unknown_code_is_a_404_problem(client):
    r = client.get("/problems/no_such_code", headers=JSON)
    assert r.status_code == 404 and r.headers["content-type"] == "application/problem+json"
    assert r.json()["code"] == "not_found" and r.json()["type"] == "/problems/not_found"


def test_the_pages_are_in_the_api_document_under_their_tag():
    schema = create_app(Settings()).openapi_schema.to_schema()
    for path in ("/problems", "/problems/{code}"):
        assert schema["paths"][path]["get"]["tags"] == ["problems"], path
    example = schema["paths"]["/tables/{table_id}"]["get"]["responses"]["404"]
    assert "/problems/no_table" in str(example)


def test_an_accept_longer_than_any_browsers_is_answered_in_json_unweighed(client, monkeypatch):
    """Before: an Accept of 32,000 commas (under the head's cap) was parsed and sorted item by
    item, 0.1 s of the event loop per request to /problems. Past ``ACCEPT_WEIGHED`` bytes it is
    not weighed at all (Litestar's parser is not reached)."""

    def weighed(self):  # noqa: ANN001, ANN202
        raise AssertionError("a long Accept was parsed")

    monkeypatch.setattr("litestar.connection.request.Request.accept", property(weighed))
    long = "text/html," + "," * problem_pages.ACCEPT_WEIGHED
    r = client.get("/problems/not_your_turn", headers={"Accept": long})
    assert r.status_code == 200 and r.headers["content-type"].startswith("application/json")
    r = client.get("/problems", headers={"Accept": long})
    assert r.status_code == 200 and r.headers["content-type"].startswith("application/json")


@pytest.mark.parametrize("weight", ["inf", "-inf", "1e999", "nan", "high"])
def test_an_accept_whose_weight_is_not_a_number_is_answered(client, weight):
    """Litestar reads ``q=inf`` as ``int(100 * inf)``: the page failed (500, and a traceback in
    the log at each request). A weight it cannot count is no preference: JSON, as with none."""
    for path in ("/problems/not_your_turn", "/problems"):
        r = client.get(path, headers={"Accept": f"text/html;q={weight}"})
        assert r.status_code == 200, (path, r.text)
        if weight in ("inf", "-inf", "1e999"):
            assert r.headers["content-type"].startswith("application/json")
