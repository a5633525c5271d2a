"""Schemathesis over the generated OpenAPI document (the bounded hostile-input run):
every operation, with valid and invalid generated requests (a few hundred per operation under
``make bench``, sixty in make test's short version), some aimed at real tables (in play, in the
lobby, finished) and their seats' tokens. No answer is a server error, every request the document
calls invalid is refused, and every view any of them receives passes the leak audit.

Schemathesis' strategies are driven by Hypothesis directly (its pytest plugin does not run on
pytest 9 yet)."""

from __future__ import annotations

import asyncio

import httpx
import pytest
import schemathesis
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st
from hypothesis.errors import Unsatisfiable
from schemathesis import GenerationMode, checks
from schemathesis.core.failures import FailureGroup

from tests.e2e.audit import check_response, log_events, seat_of
from tests.e2e.conftest import auth, seated_table
from tools.demo import play_table

# what a response must be: no server error, a documented status, the documented media type and
# headers, a body of the documented schema; and a request the document says is invalid is refused
CHECKS = [
    checks.not_a_server_error,
    checks.status_code_conformance,
    checks.content_type_conformance,
    checks.response_headers_conformance,
    checks.response_schema_conformance,
    checks.negative_data_rejection,
]
EXAMPLES = 120  # per operation and generation mode: 240 requests per operation
SHORT_EXAMPLES = 30  # make test's version: the same operations, modes, targets and checks
VIEWS = ("/tables/{table_id}", "/tables/{table_id}/view", "/tables/{table_id}/commands")
FIXED = {"GET /problems", "GET /lobby/stream"}  # operations without parameters


def test_no_generated_request_is_a_server_error_and_no_view_leaks(stack, http):
    fuzz(stack, http, SHORT_EXAMPLES)


@pytest.mark.slow
def test_no_generated_request_of_a_few_hundred_per_operation_is_a_server_error(stack, http):
    fuzz(stack, http, EXAMPLES)


def fuzz(stack, http: httpx.Client, examples: int) -> None:
    api = schemathesis.openapi.from_url(f"{stack.api}/schema/openapi.json")
    playing, tokens = seated_table(http, 5)
    r = http.post(f"/tables/{playing}/start", headers=auth(tokens[0]))
    assert r.status_code == 200, r.text
    lobby, lobby_tokens = seated_table(http, 6)  # six seats: one left free
    http.delete(f"/tables/{lobby}/seats/5", headers=auth(lobby_tokens[5]))
    finished = asyncio.run(play_table(stack.api, 4, "random", seed=5))
    # what a generated request may aim at: a table in play with one of its seats, a table in the
    # lobby with one of its seats, a finished table; or its own generated id
    targets = {
        "playing": (playing, tokens[2]),
        "lobby": (lobby, lobby_tokens[1]),
        "finished": (finished, None),
    }
    received: list[tuple[str, bytes]] = []
    errors: list[str] = []
    operations = [result.ok() for result in api.get_all_operations()]
    ran: dict[str, int] = {}
    sent: dict[str, int] = {}
    violations: list[str] = []
    statuses: dict[str, set[int]] = {}
    assert len(operations) >= 11

    def probe(case, aim: str, as_seat: bool) -> None:
        sent[case.operation.label] = sent.get(case.operation.label, 0) + 1
        if "table_id" in (case.path_parameters or {}) and aim != "generated":
            table_id, token = targets[aim]
            case.path_parameters["table_id"] = table_id
            if as_seat and token:
                case.headers = {**(case.headers or {}), **auth(token)}
        if isinstance((case.query or {}).get("timeout"), int | float):
            case.query["timeout"] = min(case.query["timeout"], 0.2)  # long-polls: briefly
        table_id = (case.path_parameters or {}).get("table_id")
        if case.path.endswith("/stream"):  # a stream never ends: its first event is enough
            with httpx.stream(
                case.method,
                stack.api + case.formatted_path,
                params=case.query,
                headers={k: str(v) for k, v in (case.headers or {}).items()},
                timeout=httpx.Timeout(10, read=2),
            ) as response:
                if response.status_code == 200:
                    try:
                        first = _first_view(response.iter_lines())
                    except httpx.ReadTimeout:
                        pass  # resumed after a version not reached yet: nothing to send
                    else:
                        # None: resumed after a finished game's last view (the lobby's stream
                        # sends lobby events, not views)
                        if first is not None and table_id is not None:
                            received.append((table_id, first.removeprefix("data: ").encode()))
        else:
            response = case.call(timeout=30)
            if response.status_code == 200 and case.path in VIEWS:
                received.append((table_id, response.content))
            try:  # the document tells the truth: a documented status, a body of its schema
                case.validate_response(response, checks=CHECKS)
            except FailureGroup as e:  # every way the response breaks the document
                violations.append(f"{case.method} {case.formatted_path}: {str(e)[:600]}")
            statuses.setdefault(case.operation.label, set()).add(response.status_code)
        if response.status_code >= 500:
            errors.append(f"{case.method} {case.formatted_path}: {response.status_code}")

    for operation in operations:
        for mode in (GenerationMode.POSITIVE, GenerationMode.NEGATIVE):

            @given(
                case=operation.as_strategy(mode),
                aim=st.sampled_from(["generated", *targets]),
                as_seat=st.booleans(),
            )
            @settings(
                max_examples=examples,
                deadline=None,
                suppress_health_check=list(HealthCheck),
                derandomize=True,  # the same requests on every run: a failure reproduces
                database=None,
                phases=[Phase.explicit, Phase.generate],  # a 5xx is listed, not shrunk
            )
            def run(case, aim, as_seat):
                probe(case, aim, as_seat)

            try:
                run()
            except Unsatisfiable:  # nothing invalid to say (an operation without parameters)
                assert mode is GenerationMode.NEGATIVE, operation.label
                continue
            ran[operation.label] = ran.get(operation.label, 0) + 1
    print(  # the figures the issue notes quote (pytest -s shows them)
        f"schemathesis: {len(operations)} operations, {sum(sent.values())} requests,"
        f" {len(errors)} server errors, {len(violations)} schema violations,"
        f" {len(received)} views audited"
    )
    assert len(ran) == len(operations)
    # a few hundred each, but where Hypothesis runs out of distinct requests: an operation
    # without parameters has only the aims and the token to vary
    assert min(n for op, n in sent.items() if op not in FIXED) >= examples, sent
    assert all(sent[op] >= 8 for op in FIXED), sent
    assert errors == [], errors[:20]
    assert violations == [], violations[:5]
    assert {t for t, _ in received} >= {playing, lobby, finished}, "no view reached a target"
    events = {t: log_events(stack.nats_url, t) for t in {t for t, _ in received}}
    for table_id, body in received:
        check_response(events[table_id], seat_of(body), body)


def _first_view(lines) -> str | None:
    """A stream's first view's ``data:`` line; None if the stream ends first (``event: end``)."""
    for line in lines:
        if line.startswith("event: end"):
            return None
        if line.startswith("data:"):
            return line
    return None
