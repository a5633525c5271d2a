"""What one process lets a client address hold and send (services/table/client_limits.py),
without a socket: connections counted per address and in all, and the requests' rate."""

from __future__ import annotations

from services.table.client_limits import ConnectionLimits, client_of


def limits(per_client: int = 2, total: int = 5, trusted: str = "") -> ConnectionLimits:
    return ConnectionLimits(per_client, total, head_timeout=5, max_head=1024, trusted=trusted)


def test_an_address_past_its_cap_is_refused_and_its_places_come_back():
    c = limits()
    assert c.admit("10.0.0.1") is None and c.admit("10.0.0.1") is None
    status, code, why = c.admit("10.0.0.1")
    assert (status, code) == (429, "too_many_connections") and "2 connections" in why
    assert c.admit("10.0.0.2") is None  # another address is not held back
    c.release("10.0.0.1")
    assert c.admit("10.0.0.1") is None
    for address in ("10.0.0.1", "10.0.0.1", "10.0.0.2"):
        c.release(address)
    assert c.count == 0 and not c.open  # nothing kept for addresses gone


def test_an_ipv6_client_is_counted_by_its_64_network():
    """A host may take any address of its /64: counted by address, one client would be many."""
    assert (
        client_of("2001:db8:1:2:aaaa::1")
        == client_of("2001:db8:1:2:bbbb::9")
        == ("2001:db8:1:2::/64")
    )
    assert client_of("2001:db8:1:3::1") != client_of("2001:db8:1:2::1")
    assert client_of("::ffff:10.0.0.1") == "10.0.0.1"  # an IPv4 client over IPv6
    assert client_of("10.0.0.1") == "10.0.0.1" and client_of("unknown") == "unknown"
    c = limits()
    assert c.admit("2001:db8::1") is None and c.admit("2001:db8::2") is None
    assert c.admit("2001:db8::3") is not None  # the same /64
    assert c.admit("2001:db8:0:1::1") is None
    for address in ("2001:db8::1", "2001:db8::2", "2001:db8:0:1::1"):
        c.release(address)
    assert c.count == 0 and not c.open


def test_the_process_total_keeps_descriptors_for_the_rest():
    c = limits(per_client=0, total=3)
    for i in range(3):
        assert c.admit(f"10.0.0.{i}") is None
    assert c.admit("10.0.0.9")[:2] == (503, "too_many_connections")


def test_a_trusted_proxy_is_not_capped_as_one_client():
    c = limits(per_client=1, trusted="10.1.0.0/16")
    assert c.admit("10.1.2.3") is None and c.admit("10.1.2.3") is None
    assert c.admit("10.2.0.1") is None and c.admit("10.2.0.1") is not None
    proxy = limits(per_client=1, trusted="2001:db8::10/128")
    assert proxy.admit("2001:db8::10") is None and proxy.admit("2001:db8::10") is None
    assert proxy.admit("2001:db8::20") is None, "the proxy's /64 is not held by its connections"


def test_an_address_sends_its_burst_at_once_then_its_rate_and_no_more():
    """Every request costs the event loop, a 404 too: one address sending cheap requests on its
    connections took every other client's answers from 4 to 48 ms. Its bucket holds
    ``request_burst`` requests, filled at ``request_rate`` a second; another address, an IPv6
    client's /64 as one, and a trusted proxy (its clients' requests) are apart."""
    now = [100.0]
    c = ConnectionLimits(
        0, 0, 5, 1024, trusted="10.9.0.0/16", request_rate=10, request_burst=20,
        clock=lambda: now[0],
    )  # fmt: skip
    assert [c.request("10.0.0.1") for _ in range(21)] == [True] * 20 + [False]
    assert c.request("10.0.0.2")  # another address
    now[0] += 0.5  # five more
    assert [c.request("10.0.0.1") for _ in range(6)] == [True] * 5 + [False]
    assert all(c.request("2001:db8::1") for _ in range(10))
    assert all(c.request("2001:db8::2") for _ in range(10)) and not c.request("2001:db8::3")
    assert all(c.request("10.9.1.1") for _ in range(100))  # a trusted proxy
    now[0] += 100  # all filled again: forgotten once the buckets are pruned, none lost
    c._prune(now[0])
    assert c._buckets == {}
    assert [c.request("10.0.0.1") for _ in range(21)] == [True] * 20 + [False]
    off = ConnectionLimits(0, 0, 5, 1024)  # no rate: nothing counted
    assert all(off.request("10.0.0.1") for _ in range(1000)) and off._buckets == {}


def test_a_charge_counts_as_requests_and_may_leave_the_bucket_below_empty():
    """A large body costs its decoding several times a small request's: it is charged as that
    many requests, and its address waits for its bucket to fill past what it spent."""
    now = [100.0]
    c = ConnectionLimits(0, 0, 5, 1024, request_rate=10, request_burst=20, clock=lambda: now[0])
    c.charge("10.0.0.1", 15)
    assert [c.request("10.0.0.1") for _ in range(6)] == [True] * 5 + [False]
    c.charge("10.0.0.1", 10)  # ten more than it has
    now[0] += 1.0  # ten back: still none to spend
    assert not c.request("10.0.0.1")
    now[0] += 0.2
    assert c.request("10.0.0.1")
    c.charge("10.0.0.2", 1000)  # spent far past its burst: it waits a burst's time at most
    now[0] += 2.0
    assert not c.request("10.0.0.2")
    now[0] += 0.2
    assert c.request("10.0.0.2")
