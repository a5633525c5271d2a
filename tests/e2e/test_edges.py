"""The edges (DESIGN property 7): one client cannot take the service from the others, whatever it
does with connections, request heads, bodies, seats, commands, house tables and spectator places.
Each probe is a regression test of what an attacker did from outside, bounded in time and count,
on loopback. Each client is an address of its own (127.0.0.N), as the limits count addresses."""

from __future__ import annotations

import contextlib
import secrets
import socket
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from services.common.house_bots import HOUSE_HEADER, house_key
from services.table.apidocs import SWAGGER
from tests.e2e.conftest import auth, from_address
from tools.launcher import Stack

HEAD_TIMEOUT = 1.0
BODY_TIMEOUT = 1.0
PER_CLIENT = 20
LIMITS = {
    "GCBC_HEAD_TIMEOUT": str(HEAD_TIMEOUT),
    "GCBC_BODY_TIMEOUT": str(BODY_TIMEOUT),
    "GCBC_CONNECTIONS_PER_CLIENT": str(PER_CLIENT),
    "GCBC_SEATS_PER_CLIENT": "3",
    "GCBC_HOUSE_SEATS_PER_CLIENT": "4",
    "GCBC_LOBBY_TABLES_PER_CLIENT": "5",
    "GCBC_RATE_CLIENT_COMMAND": "6/second",
    "GCBC_STREAMS_PER_TABLE": "5",
    "GCBC_STREAMS_PER_TABLE_CLIENT": "2",
    "GCBC_RATE_CREATE": "1000/minute",
    "GCBC_RATE_SEAT": "1000/minute",
}


@pytest.fixture(scope="module")
def edge(tmp_path_factory) -> Iterator[Stack]:
    s = Stack(Path(tmp_path_factory.mktemp("edges")), env=LIMITS).start()
    yield s
    s.stop()


def raw(stack: Stack, n: int) -> socket.socket:
    """A bare connection from 127.0.0.``n``."""
    s = socket.socket()
    s.settimeout(10)
    s.bind((f"127.0.0.{n}", 0))
    s.connect(("127.0.0.1", stack.http_port))
    return s


def answer_of(s: socket.socket) -> bytes:
    """What the server says before it closes (b"" if it closed without a word)."""
    out = b""
    try:
        while chunk := s.recv(65536):
            out += chunk
    except (ConnectionResetError, TimeoutError):
        pass
    return out


def rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    raise AssertionError("no VmRSS")


# --- connections ---------------------------------------------------------------------------------
def test_idle_connections_are_capped_per_address_and_closed_when_their_head_is_late(edge):
    """Before: ~20,000 connections that sent nothing took every descriptor of the table service
    (every other request was reset) and were never closed."""
    idle = [raw(edge, 2) for _ in range(PER_CLIENT + 20)]
    partial = idle[0]
    partial.sendall(b"GET /tab")  # an unfinished request line is no better
    time.sleep(0.3)
    refused = idle[PER_CLIENT:]
    for s in refused:  # past the cap: a clear refusal at once, then closed
        said = answer_of(s)
        assert said.startswith(b"HTTP/1.1 429 "), said[:100]
        assert b'"code":"too_many_connections"' in said and b"retry-after" in said.lower()
    with from_address(edge, 3) as other:  # another address is served throughout
        assert other.get("/healthz").status_code == 200
        assert other.post("/tables", json={"seats": 4}).status_code == 201
    started = time.monotonic()
    for s in idle[:PER_CLIENT]:  # the head never came: 408, closed
        said = answer_of(s)
        assert said.startswith(b"HTTP/1.1 408 "), said[:100]
    assert time.monotonic() - started < HEAD_TIMEOUT + 5
    for s in idle:
        s.close()
    with from_address(edge, 2) as again:  # its places are given back
        assert again.get("/healthz").status_code == 200


def test_a_body_that_does_not_arrive_in_time_is_408_and_its_connection_closed(edge):
    """Before: a POST sending a byte of its body every few seconds held its connection (and its
    handler) for as long as it went on."""
    slow = raw(edge, 30)
    slow.sendall(
        b"POST /tables HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
        b"Content-Length: 20\r\n\r\n{"
    )
    started = time.monotonic()
    for byte in b' "seats"':  # a byte every 0.4 s: never the whole body in time
        time.sleep(0.4)
        try:
            slow.sendall(bytes([byte]))
        except (BrokenPipeError, ConnectionResetError):
            break  # closed already: the point
    said = answer_of(slow)
    slow.close()
    assert said.startswith(b"HTTP/1.1 408 "), said[:100]
    assert b'"code":"request_timeout"' in said and b"body" in said
    assert time.monotonic() - started < BODY_TIMEOUT + 5
    with from_address(edge, 30) as again:  # a body sent at once is served, on the same address
        assert again.post("/tables", json={"seats": 4}).status_code == 201


def test_a_pipelined_body_the_server_holds_back_is_not_late(edge):
    """A request pipelined behind a slow one: the server reads its body only once the first is
    answered, so the body's deadline does not run meanwhile (a 408 would answer the first)."""
    with from_address(edge, 31) as c:
        table_id = _table(c)
    s = raw(edge, 31)
    body = b'{"seats": 4}'
    s.sendall(
        f"GET /tables/{table_id}/view?after=1000000&timeout=2.5 HTTP/1.1\r\nHost: x\r\n\r\n"
        "POST /tables HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
        f"Content-Length: {len(body)}\r\n\r\n".encode()
    )
    time.sleep(0.3)  # the body after its head: by then the server holds it back
    s.sendall(body)
    s.settimeout(10)
    said = b""
    while said.count(b"HTTP/1.1 ") < 2:
        chunk = s.recv(65536)
        assert chunk, said[:300]
        said += chunk
    s.close()
    statuses = [part.split(b" ", 1)[0] for part in said.split(b"HTTP/1.1 ")[1:]]
    assert statuses == [b"200", b"201"], said[:300]


def test_a_request_head_is_capped_and_an_oversize_one_is_not_buffered(edge):
    """Before: a 10 MiB header was answered 200, and 20 connections each sending 10 MiB of one
    unfinished header took 174 MB of the table service's memory."""
    with from_address(edge, 4) as c:
        r = c.get("/healthz", headers={"X-Big": "a" * (1 << 20)})
        assert r.status_code == 431 and r.json()["code"] == "headers_too_large", r.text[:200]
        assert c.get("/healthz").status_code == 200
    pid = edge.procs["table"].pid
    before = rss_mb(pid)
    conns = []
    for i in range(20):
        s = raw(edge, 5 + i % 10)
        s.sendall(b"GET /healthz HTTP/1.1\r\nHost: x\r\nX-Big: ")
        conns.append(s)
    chunk = b"a" * (1 << 20)
    for s in conns:  # 4 MiB each, never ended
        try:
            for _ in range(4):
                s.sendall(chunk)
        except (BrokenPipeError, ConnectionResetError):
            pass  # refused and closed before all of it was sent: the point
    grown = rss_mb(pid) - before
    for s in conns:
        s.close()
    assert grown < 20, f"the table service grew {grown:.0f} MB"


# --- bodies --------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    "content_type", ["text/plain", "application/x-www-form-urlencoded", "multipart/form-data", None]
)
def test_a_body_is_json_only(edge, content_type):
    """Before: text/plain and form bodies were taken from any origin, so a web page could make
    its visitors' browsers open tables and take seats without CORS's consent."""
    with from_address(edge, 30) as c:
        before = len(c.get("/tables", params={"limit": 200}).json())
        headers = {"content-type": content_type} if content_type else {}
        r = c.post("/tables", content=b'{"seats": 4}', headers=headers)
        assert r.status_code == 415, r.text
        assert r.json()["code"] == "unsupported_media_type" and r.json()["field"] == "content-type"
        assert len(c.get("/tables", params={"limit": 200}).json()) == before
        r = c.post("/tables", content=b'{"seats": 4}', headers={"content-type": "application/json"})
        assert r.status_code == 201


def test_a_body_said_to_be_in_another_encoding_than_utf8_is_refused(edge):
    """Before: `application/json; charset=utf-16` was taken and its body read as UTF-8 (a body
    in that encoding misread). JSON is UTF-8 (RFC 8259): another charset is refused, naming it."""
    with from_address(edge, 31) as c:
        before = len(c.get("/tables", params={"limit": 200}).json())
        for charset in ("utf-16", "latin-1"):
            headers = {"content-type": f"application/json; charset={charset}"}
            r = c.post("/tables", content=b'{"seats": 4}', headers=headers)
            assert r.status_code == 415 and charset in r.json()["detail"], r.text
        assert len(c.get("/tables", params={"limit": 200}).json()) == before
        headers = {"content-type": 'application/json; charset="UTF-8"'}
        assert c.post("/tables", content=b'{"seats": 4}', headers=headers).status_code == 201


def test_a_request_the_http_parser_refuses_is_answered_as_a_problem(edge):
    """Before: uvicorn's own text/plain 400, the one answer outside the documented problem+json
    (the schema fuzzer's find: an empty Transfer-Encoding header)."""
    s = raw(edge, 45)
    s.sendall(b"DELETE /tables/0123456789abcdef/seats/1 HTTP/1.1\r\nHost: x\r\n")
    s.sendall(b"Transfer-Encoding: \r\n\r\n")
    head, _, body = answer_of(s).partition(b"\r\n\r\n")
    assert head.startswith(b"HTTP/1.1 400") and b"application/problem+json" in head, head
    assert b'"code":"malformed_request"' in body


def test_a_key_twice_is_refused(edge):
    with from_address(edge, 31) as c:
        r = c.post(
            "/tables",
            content=b'{"seats": 4, "seats": 8}',
            headers={"content-type": "application/json"},
        )
        assert r.status_code == 400 and r.json()["code"] == "duplicate_key", r.text
        assert r.json()["field"] == "seats"


# --- what one client holds -----------------------------------------------------------------------
def _table(c: httpx.Client, **body) -> str:
    r = c.post("/tables", json={"seats": 4, **body})
    assert r.status_code == 201, r.text
    return r.json()["table_id"]


def _seat(c: httpx.Client, table_id: str, name: str) -> str:
    r = c.post(f"/tables/{table_id}/seats", json={"name": name})
    assert r.status_code == 201, r.text
    return r.json()["token"]


def _flood(stack: Stack, n: int, headers: dict[str, str], each: int = 150) -> list[httpx.Response]:
    """Cheap requests (404s) from 127.0.0.``n`` on eight connections at once, as fast as the
    server answers however busy the machine is; each connection stops at its first 429."""
    answers: list[httpx.Response] = []

    def one() -> None:
        with from_address(stack, n) as c:
            for _ in range(each):
                answers.append(r := c.get("/tables/0000000000000000", headers=headers))
                if r.status_code == 429:
                    return

    threads = [threading.Thread(target=one) for _ in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=120)
    return answers


def test_one_address_sending_requests_fast_is_refused_past_its_rate_and_no_other_is(edge):
    """Before: one address sent 3,700 cheap requests a second (404s) on its connections, and
    every other client's answers went from 4 to 48 ms. With the defaults (100 a second, 200 at
    once: this stack's) its requests past them are answered 429 and their connections closed."""
    answers = _flood(edge, 70, {})
    refused = [r for r in answers if r.status_code == 429]
    assert refused and {r.status_code for r in answers} == {404, 429}
    assert len(answers) - len(refused) >= 200  # its burst at least
    assert refused[0].json()["code"] == "rate_limited" and refused[0].headers["retry-after"] == "1"
    with from_address(edge, 71) as other:
        assert other.get("/tables").status_code == 200  # another address goes on
    time.sleep(1.0)  # its bucket fills again
    with from_address(edge, 70) as again:
        assert again.get("/tables").status_code == 200


def test_the_bot_workers_requests_are_left_to_its_own_pace(edge):
    """The house's seats are paced by the bot worker (its actions a second over all its tables),
    and at a full house its long-polls alone pass an address's rate: its requests carry the
    house's key, and are not counted. A wrong key is no key."""
    key = house_key(edge.bot_secret)
    wrong = key[:-1] + ("1" if key[-1] == "0" else "0")
    house = _flood(edge, 72, {HOUSE_HEADER: key})
    assert len(house) == 8 * 150 and {r.status_code for r in house} == {404}
    assert 429 in {r.status_code for r in _flood(edge, 73, {HOUSE_HEADER: wrong})}


def test_a_query_of_many_parameters_is_refused(edge):
    """Before: ``GET /tables?a0=1&…&a1099=1`` (under the target's 8 KiB) cost 2.1 ms of parsing,
    five times a plain request, and four addresses at their rate slowed everyone's commands
    threefold. A query has at most 32 parameters (400 at the 33rd, before Litestar parses it)."""
    with from_address(edge, 110) as c:
        query = "&".join(f"a{i}=1" for i in range(32))
        r = c.get(f"/tables?{query}")  # past the guard: the operation names what it does not take
        assert (r.status_code, r.json()["field"]) == (400, "a0"), r.text
        r = c.get(f"/tables?{query}&a32=1")
        assert r.status_code == 400 and r.json()["code"] == "invalid_parameter", r.text
        assert "at most 32 parameters" in r.json()["detail"]


def test_a_large_body_counts_as_several_requests_against_the_rate(edge):
    """Before: a 64 KB body (9,000 keys nobody asked for), refused 422, cost the service 2.5 ms,
    six times a cheap request, at the same rate: four addresses took a core. Each 4 KiB of a body
    counts one request more: the address's burst of 200 is 12 such bodies, not 200."""
    body = b"{" + b",".join(b'"k%d":0' % i for i in range(6500)) + b"}"
    assert 60_000 < len(body) < 64 * 1024
    statuses = []
    with from_address(edge, 111) as c:
        for _ in range(60):
            r = c.post("/tables", content=body, headers={"Content-Type": "application/json"})
            statuses.append(r.status_code)
            if r.status_code == 429:
                break
    assert statuses[0] == 422 and statuses[-1] == 429, statuses
    assert len(statuses) <= 20, statuses  # (its burst, and what filled again meanwhile)
    with from_address(edge, 112) as other:  # another address goes on
        assert other.get("/tables").status_code == 200


def test_a_large_answer_counts_as_several_requests_against_the_rate(edge):
    """Before: one address fetched the API documentation's 1.5 MB script 95 times a second,
    within its rate, and took 143 MB/s of the server's bandwidth. Each 16 KiB of an answer counts
    one request more: the address's burst of 200 is three such answers (each charged once sent),
    not 200."""
    path = f"/schema/{SWAGGER.name}/swagger-ui-bundle.js"
    statuses, sizes = [], []
    with from_address(edge, 115) as c:
        for _ in range(20):
            r = c.get(path, headers={"Accept-Encoding": "identity"})  # (not gzipped: 1.5 MB)
            statuses.append(r.status_code)
            sizes.append(r.num_bytes_downloaded)
            if r.status_code == 429:
                break
    assert sizes[0] > 1_000_000  # (sent whole)
    assert statuses[0] == 200 and statuses[-1] == 429, statuses
    assert len(statuses) <= 5, statuses
    with from_address(edge, 116) as other:  # another address goes on
        assert other.get("/tables").status_code == 200


def test_a_body_sent_in_many_chunks_costs_its_chunks(edge):
    """Before: a body was charged by its bytes only, and one of 64 KiB sent in one-byte chunks
    (a call into Python each) took the event loop a hundred times the same body in one. Each
    chunk costs as 512 bytes: 16 KiB in one-byte chunks spends the address's whole burst, and
    the body is refused where its address comes to owe it (before, it was parsed to its end,
    and a body sent on and on in one-byte chunks filled a core)."""
    body = b'{"seats": 4, "pad": "' + b"x" * (16 * 1024) + b'"}'
    s = raw(edge, 113)
    s.sendall(
        b"POST /tables HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
        b"Transfer-Encoding: chunked\r\nConnection: close\r\n\r\n"
        + b"".join(b"1\r\n%c\r\n" % byte for byte in body)
        + b"0\r\n\r\n"
    )
    got = answer_of(s)
    assert got[9:12] == b"429" and b'"code":"rate_limited"' in got, got[:300]
    s.close()
    with from_address(edge, 113) as c:
        r = c.get("/tables")
        assert r.status_code == 429 and r.json()["code"] == "rate_limited", r.text
    with from_address(edge, 114) as other:  # another address goes on
        assert other.get("/tables").status_code == 200


def test_a_head_of_many_headers_is_refused_and_refusals_count_against_the_rate(edge):
    """Before: a head of thousands of tiny headers under the byte cap cost 2.4 ms of parsing and
    0.7 MB held a connection, and each refusal, answered before the rate was counted, was sent
    again on a new connection (540 a second from one address kept the service at 100 % of a core).
    A head is at most 100 headers (431 at the 101st); every refusal counts against the address's
    rate, and past it its new connections are refused at once, 429, their heads never parsed."""
    head = b"GET /tables HTTP/1.1\r\nHost: x\r\n" + b"a: b\r\n" * 150 + b"\r\n"
    statuses: list[bytes] = []

    def one() -> None:
        for _ in range(60):
            s = raw(edge, 76)
            try:
                s.sendall(head)
            except OSError:
                pass  # refused at its connection: its answer is waiting
            got = answer_of(s)
            s.close()
            statuses.append(got[9:12])
            if got[9:12] == b"429":
                assert b'"code":"rate_limited"' in got, got[:300]
                return

    with from_address(edge, 77) as c:
        assert c.get("/tables", headers={f"h{i}": "v" for i in range(90)}).status_code == 200
    threads = [threading.Thread(target=one) for _ in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=120)
    assert statuses[0] == b"431" and set(statuses) == {b"431", b"429"}, set(statuses)
    assert statuses.count(b"431") >= 200  # its burst's worth, then refused at its connections


def test_one_address_holds_a_few_seats_at_once(edge):
    with from_address(edge, 40) as c:
        tables = [_table(c) for _ in range(4)]
        tokens = [_seat(c, t, "ann") for t in tables[:3]]
        r = c.post(f"/tables/{tables[3]}/seats", json={"name": "ann"})
        assert r.status_code == 429 and r.json()["code"] == "too_many_held", r.text
        assert int(r.headers["retry-after"]) >= 1
        # a seat left gives its place back
        r = c.delete(f"/tables/{tables[0]}/seats/0", headers=auth(tokens[0]))
        assert r.status_code == 204, r.text
        _seat(c, tables[3], "ann")


def test_one_address_coming_and_going_at_a_table_is_refused_past_its_takes(edge):
    """Before: eight addresses took and left seats at someone's waiting table (each take and
    leave an entry of its log, kept for good) and in 11 minutes wrote 22,152 entries, past the
    longest log a history or replay is made of: its game could never be replayed. An address
    takes at most 20 seats an hour at one table; another address still sits down there."""
    with from_address(edge, 117) as owner:
        table_id = _table(owner)
    codes = []
    with from_address(edge, 118) as c:
        for _ in range(25):
            r = c.post(f"/tables/{table_id}/seats", json={"name": "churn"})
            codes.append(r.status_code)
            if r.status_code != 201:
                break
            seat = r.json()["seat"]
            left = c.delete(f"/tables/{table_id}/seats/{seat}", headers=auth(r.json()["token"]))
            assert left.status_code == 204, left.text
        assert codes == [201] * 20 + [429], codes
        assert r.json()["code"] == "rate_limited" and "table_seat" in r.json()["detail"], r.text
        _seat(c, _table(c), "ann")  # (another table: its own budget)
    with from_address(edge, 119) as other:
        _seat(other, table_id, "bea")


def test_commands_are_budgeted_per_address_across_its_seats(edge):
    """Before: one client with 40 seats sent 177 set_auto_pass toggles a second, no 429, and
    every other player's commands slowed 4x."""
    mine: list[tuple[str, str]] = []
    with from_address(edge, 50) as me:
        for _ in range(3):
            table_id = _table(me)
            token = _seat(me, table_id, "me")
            for j in range(1, 4):
                with from_address(edge, 51 + j) as other:
                    _seat(other, table_id, f"p{j}")
            assert me.post(f"/tables/{table_id}/start", headers=auth(token)).status_code == 200
            mine.append((table_id, token))
        # the same value again changes nothing: refused, never logged
        table_id, token = mine[0]
        version = me.get(f"/tables/{table_id}/view", headers=auth(token)).json()["version"]
        r = me.post(
            f"/tables/{table_id}/commands",
            headers=auth(token),
            json={"type": "set_auto_pass", "enabled": False},
        )
        assert r.status_code == 409 and r.json()["code"] == "no_effect", r.text
        assert me.get(f"/tables/{table_id}/view", headers=auth(token)).json()["version"] == version
        time.sleep(1.1)  # a fresh window for the budget
        statuses = []
        for k in range(12):  # two a seat is far below its own 30 a second
            table_id, token = mine[k % 3]
            r = me.post(
                f"/tables/{table_id}/commands",
                headers=auth(token),
                json={"type": "set_auto_pass", "enabled": (k // 3) % 2 == 0},  # a toggle
            )
            statuses.append(r.status_code)
            if r.status_code == 429:
                assert r.json()["code"] == "rate_limited" and "retry-after" in r.headers
        assert statuses[0] == 200 and 429 in statuses, statuses


def test_one_address_has_a_few_house_seats_in_play_at_once(edge):
    """Before: an address's cap was of tables with house bots (three), whatever their size:
    six addresses' tables of seven bots held every one of the house's 120 seats for a game's
    length. The cap counts the house's seats now."""
    with from_address(edge, 60) as c:
        _table(c, bots={"seats": [1, 2, 3], "kind": "random"})  # 3 of the address's 4
        r = c.post("/tables", json={"seats": 4, "bots": {"seats": [1, 2], "kind": "random"}})
        assert r.status_code == 429 and r.json()["code"] == "too_many_held", r.text
        assert "4 house seats in play and has 3 (asked 2)" in r.json()["detail"]
        _table(c, bots={"seats": [1], "kind": "random"})  # the fourth
        with from_address(edge, 61) as other:  # another address is not held back
            _table(other, bots={"seats": [1, 2, 3], "kind": "random"})


def test_a_place_in_the_queue_with_house_bots_holds_its_addresses_house_seats(edge):
    """Before: quick play opened a table of house bots for each of an address's players queued
    with ``bots_after``, past the address's cap. A place holds the house seats its table may
    have (all but the asker's at the fewest seats it accepts) until its table is over."""

    def player(c: httpx.Client) -> str:
        r = c.post("/players", json={"name": f"edge{secrets.token_hex(4)}"})
        assert r.status_code == 201, r.text
        return r.json()["token"]

    body = {"seats": [4], "bots_after": 0}
    with from_address(edge, 64) as c:
        first, second = player(c), player(c)
        r = c.post("/queue", json=body, headers=auth(first))
        assert r.status_code == 201, r.text
        r = c.post("/queue", json=body, headers=auth(second))
        assert r.status_code == 429 and r.json()["code"] == "too_many_held", r.text
        r = c.post("/tables", json={"seats": 4, "bots": {"seats": [1, 2, 3], "kind": "random"}})
        assert r.status_code == 429 and r.json()["code"] == "too_many_held", r.text
        # without house bots a place holds none
        assert c.post("/queue", json={"seats": [4]}, headers=auth(second)).status_code == 201
        with from_address(edge, 65) as other:  # another address is not held back
            r = other.post("/queue", json=body, headers=auth(player(other)))
            assert r.status_code == 201, r.text


def test_a_place_in_the_queue_is_one_of_its_addresses_seats(edge):
    """Before: quick play seated an address's players past its cap of seats (24 players of one
    address queued and seated at six tables, then 16 lobby seats more: 40 against 16). A place
    in the queue counts as a seat from the moment it is asked until its table is over."""
    with from_address(edge, 66) as c:
        players = []
        for _ in range(4):
            r = c.post("/players", json={"name": f"edge{secrets.token_hex(4)}"})
            assert r.status_code == 201, r.text
            players.append(r.json()["token"])
        for token in players[:3]:  # (eight seats: nobody else waits for those here)
            r = c.post("/queue", json={"seats": [8]}, headers=auth(token))
            assert r.status_code == 201, r.text
        r = c.post("/queue", json={"seats": [8]}, headers=auth(players[3]))
        assert r.status_code == 429 and r.json()["code"] == "too_many_held", r.text
        r = c.post(f"/tables/{_table(c)}/seats", json={"name": "ann"})
        assert r.status_code == 429 and r.json()["code"] == "too_many_held", r.text
        # a place given up gives its seat back
        assert c.delete("/queue", headers=auth(players[0])).status_code == 204
        r = c.post("/queue", json={"seats": [8]}, headers=auth(players[3]))
        assert r.status_code == 201, r.text
        for token in players[1:]:
            assert c.delete("/queue", headers=auth(token)).status_code == 204


def test_one_address_has_a_few_tables_waiting_for_players(edge):
    """Before: one address kept 600 tables in the lobby (20 a minute, each open half an hour),
    and two such addresses filled the lobby's feed, which reads the oldest 1,000."""
    with from_address(edge, 80) as c:
        waiting = [_table(c) for _ in range(5)]
        r = c.post("/tables", json={"seats": 4})
        assert r.status_code == 429 and r.json()["code"] == "too_many_held", r.text
        with from_address(edge, 81) as other:  # another address is not held back
            _table(other)
        # a table that starts leaves the lobby: its place is given back
        tokens = []
        for j in range(4):
            with from_address(edge, 82 + j) as player:
                tokens.append(_seat(player, waiting[0], f"p{j}"))
        assert c.post(f"/tables/{waiting[0]}/start", headers=auth(tokens[0])).status_code == 200
        _table(c)


def test_leaderboard_pages_are_budgeted_per_address(edge):
    """Before: a leaderboard page (its ratings and every player's record read, 13x a view's
    cost) had no budget: one address with eight connections took a core."""
    with from_address(edge, 90) as c:
        codes = [c.get("/leaderboards/base", params={"limit": 200}).status_code for _ in range(61)]
        assert codes[:60] == [200] * 60 and codes[60] == 429
        with from_address(edge, 91) as other:  # another address is not held back
            assert other.get("/leaderboards/base").status_code == 200


def test_a_players_table_list_is_budgeted_per_address_and_per_player(edge):
    """Before: GET /players/me/tables (up to 200 tables' public views read and decoded, 13x a
    lobby page) had no budget: eight connections of one address took most of a core; then it
    was budgeted per address only, and ten addresses sharing one player's token had ten."""
    with from_address(edge, 92) as c:
        r = c.post("/players", json={"name": f"lister{secrets.token_hex(3)}"})
        assert r.status_code == 201, r.text
        mine = auth(r.json()["token"])
        codes = [
            c.get("/players/me/tables", params={"limit": 200}, headers=mine).status_code
            for _ in range(61)
        ]
        assert codes[:60] == [200] * 60 and codes[60] == 429
        with from_address(edge, 93) as other:
            r = other.get("/players/me/tables", headers=mine)  # the same player elsewhere
            assert r.status_code == 429 and r.json()["code"] == "rate_limited", r.text
            r = other.post("/players", json={"name": f"lister{secrets.token_hex(3)}"})
            theirs = auth(r.json()["token"])  # another player, another address: not held back
            assert other.get("/players/me/tables", headers=theirs).status_code == 200


def test_a_long_request_target_is_refused_before_its_query_is_parsed(edge):
    """Before: a 32 KB query of empty fields on any public read (its ticket looked for in every
    field, then Litestar's own parse) cost 21 ms of the event loop a request."""
    with from_address(edge, 94) as c:
        r = c.get("/tables?" + "a&" * 4_500)
        assert r.status_code == 414 and r.json()["code"] == "uri_too_long", r.text[:200]
        assert r.headers["content-type"].startswith("application/problem+json")
    with from_address(edge, 94) as c:  # (the refused connection closed) a long query under the cap
        r = c.get("/tables?after=" + "9" * 7_000)  # is parsed, and its value found out of range
        assert (r.status_code, r.json()["field"]) == (400, "after"), r.text[:200]


def test_the_lobbys_stream_has_places_of_its_own(edge):
    """Before: the lobby's stream counted as one table's spectators (100 places a process), so
    ten addresses holding ten each shut every other client out of it. Here a table has 5
    spectator places: the lobby has many more, an address still 2 of them."""
    with from_address(edge, 95) as a, from_address(edge, 96) as b, from_address(edge, 97) as c:
        with contextlib.ExitStack() as held:
            for watcher in (a, a, b, b):
                r = held.enter_context(watcher.stream("GET", "/lobby/stream"))
                assert r.status_code == 200
            r = held.enter_context(a.stream("GET", "/lobby/stream"))
            assert r.status_code == 429 and "2 of this table" in r.read().decode()
            r = held.enter_context(c.stream("GET", "/lobby/stream"))
            assert r.status_code == 200
            r = held.enter_context(c.stream("GET", "/lobby/stream"))  # a sixth: past a table's 5
            assert r.status_code == 200


def test_one_addresss_chat_is_budgeted_over_all_its_seats(edge):
    """Before: chat was counted per seat only, and each message is sent again to every stream
    of its table (3 MB a message to 140 streams): one address's many seats multiplied it."""
    with from_address(edge, 98) as c, from_address(edge, 99) as other:
        table_id = _table(c)
        tokens = [_seat(c, table_id, f"talker{i}") for i in range(3)]
        codes = [
            c.post(
                f"/tables/{table_id}/chat", json={"text": f"m{i}"}, headers=auth(tokens[i % 3])
            ).status_code
            for i in range(21)  # 7 a seat: each seat under its own 10
        ]
        assert codes[:20] == [202] * 20 and codes[20] == 429
        mine = _seat(other, table_id, "listener")  # another address is not held back
        r = other.post(f"/tables/{table_id}/chat", json={"text": "hi"}, headers=auth(mine))
        assert r.status_code == 202, r.text


def test_a_long_polls_place_is_given_back_when_its_client_goes(edge):
    """Before: a long-poll held its place (a seat has 5) and its wait until its timeout, though
    its client had gone: a page reloaded a few times was refused its seat's view for a minute."""
    with from_address(edge, 100) as c:
        table_id = _table(c)
        token = _seat(c, table_id, "reloader")
        version = c.get(f"/tables/{table_id}/view", headers=auth(token)).json()["version"]
        poll = (
            f"GET /tables/{table_id}/view?after={version}&timeout=60 HTTP/1.1\r\n"
            f"Host: x\r\nAuthorization: Bearer {token}\r\n\r\n"
        ).encode()
        for _ in range(5):  # every place of the seat, each client then gone
            s = raw(edge, 100)
            s.sendall(poll)
            time.sleep(0.2)
            s.close()
        time.sleep(0.5)
        r = c.get(
            f"/tables/{table_id}/view",
            params={"after": version, "timeout": 0.2},
            headers=auth(token),
        )
        assert r.status_code == 200, r.text


def test_a_connection_queueing_requests_it_never_reads_is_closed(edge):
    """Before: 400 requests pipelined in one write, their answers never read, were each answered
    into the connection's buffers: 100 such connections held 375 MB of the host's memory."""
    with from_address(edge, 101) as c:
        table_id = _table(c)
    s = raw(edge, 101)
    s.sendall(f"GET /tables/{table_id} HTTP/1.1\r\nHost: x\r\n\r\n".encode() * 40)
    time.sleep(1.0)
    s.settimeout(5)
    said, closed = b"", False
    try:
        while chunk := s.recv(65536):
            said += chunk
        closed = True
    except ConnectionResetError:
        closed = True
    except TimeoutError:
        pass
    s.close()
    assert closed, "the connection was kept open"
    assert said.count(b"HTTP/1.1 200") < 40


def test_a_tables_spectator_places_are_shared_among_addresses(edge):
    """Before: two addresses took all 100 spectator places of a table."""
    with from_address(edge, 70) as c:
        table_id = _table(c)
    streams = []
    try:
        for n in (71, 71):
            one = from_address(edge, n)
            streams.append(one)
            r = one.send(one.build_request("GET", f"/tables/{table_id}/stream"), stream=True)
            assert r.status_code == 200
            streams.append(r)
        with from_address(edge, 71) as more:
            r = more.get(f"/tables/{table_id}/stream")
            assert r.status_code == 429 and r.json()["code"] == "too_many_streams", r.text
        with from_address(edge, 72) as other:
            r = other.send(other.build_request("GET", f"/tables/{table_id}/stream"), stream=True)
            assert r.status_code == 200
            r.close()
    finally:
        for s in streams:
            s.close()


# --- the operators' endpoints --------------------------------------------------------------------
def test_metrics_and_readiness_are_on_the_operators_port_only(edge):
    """Before: /metrics and /readyz answered anyone on the API port (consumer names, lag)."""
    with from_address(edge, 80) as c:
        assert c.get("/healthz").status_code == 200  # a load balancer's probe stays
        assert c.get("/metrics").status_code == 404
        assert c.get("/readyz").status_code == 404
    ops = edge.metrics_url("table")
    assert ops != edge.api
    assert "gcbc_http_connections" in httpx.get(f"{ops}/metrics", timeout=10).text
    assert httpx.get(f"{ops}/readyz", timeout=10).status_code in (200, 503)
