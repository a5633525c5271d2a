"""Every problem's ``type`` opens its code's page on the server itself (docs/api.md, "Errors"):
followed from real problems the stack answered, as a browser and as a client."""

from __future__ import annotations

from urllib.parse import urljoin

import pytest

pytestmark = pytest.mark.timeout(60)


def test_a_problems_type_opens_its_codes_page(http):
    table_id = http.post("/tables", json={"seats": 4}).json()["table_id"]
    refusals = [
        http.get("/tables/0123456789abcdef"),  # 404 no_table
        http.post("/tables", json={"seats": 3}),  # 422 invalid_body
        http.post("/tables", content=b"{", headers={"Content-Type": "application/json"}),
        http.post(f"/tables/{table_id}/chat", json={"text": "hi"}),  # 401
    ]
    codes = set()
    for r in refusals:
        problem = r.json()
        assert problem["type"] == f"/problems/{problem['code']}", problem
        page = urljoin(str(r.url), problem["type"])  # RFC 9457: relative to the request's URI
        as_json = http.get(page, headers={"Accept": "application/json"})
        assert as_json.status_code == 200, as_json.text
        entry = as_json.json()
        assert entry["code"] == problem["code"] and problem["status"] in entry["statuses"]
        assert entry["meaning"] and entry["what_to_do"]
        browser = http.get(page, headers={"Accept": "text/html,*/*;q=0.8"})
        assert browser.headers["content-type"].startswith("text/html")
        assert browser.headers["content-security-policy"].startswith("default-src 'self'")
        codes.add(problem["code"])
    assert codes == {"no_table", "invalid_body", "malformed_json", "unauthorized"}


def test_an_unknown_code_has_no_page(http):
    r = http.get("/problems/not_a_code")
    assert r.status_code == 404 and r.json()["code"] == "not_found"
