"""What one table-service process lets its clients hold and send (DESIGN property 7), counted
per client address: its connections open (and in all), and its requests a second (a token bucket,
as nginx's ``limit_req``). ``services.table.connections`` asks it at each connection and request.
"""

from __future__ import annotations

import ipaddress
import logging
import resource
import time
from collections import Counter
from typing import Any

from services.common import metrics
from services.common.house_bots import house_key
from services.common.settings import Settings

log = logging.getLogger("gcbc.table")

RESERVED_FDS = 256  # descriptors kept for NATS, Redis, logs and the refusals themselves


def client_of(address: str) -> str:
    """Whom a per-client limit counts for a peer's address: an IPv6 client by its /64 (one
    subscriber's network, where a host may take any address it likes), any other as it is."""
    if ":" not in address:
        return address
    try:
        ip = ipaddress.IPv6Address(address)
    except ValueError:
        return address
    if ip.ipv4_mapped is not None:
        return str(ip.ipv4_mapped)
    return str(ipaddress.IPv6Network((ip, 64), strict=False))


class ConnectionLimits:
    """This process's open connections, per client address and in all."""

    LOG_EVERY = 60.0  # seconds between two log lines about one address's refusals

    def __init__(
        self,
        per_client: int,
        total: int,
        head_timeout: float,
        max_head: int,
        trusted: str = "",
        body_timeout: float = 0.0,
        request_rate: float = 0.0,
        request_burst: int = 0,
        clock: Any = time.monotonic,
        house_key: str = "",
    ) -> None:
        self.per_client, self.total = per_client, total
        self.head_timeout, self.max_head = head_timeout, max_head
        self.body_timeout = body_timeout
        self.request_rate, self.request_burst = request_rate, max(1, request_burst)
        self.clock = clock
        # the bot worker's requests carry it (the house's pace is the bot worker's own)
        self.house_key = house_key.encode() if house_key else None
        # client -> [requests it may still send at once, when that was counted] (a token bucket)
        self._buckets: dict[str, list[float]] = {}
        self.open: Counter[str] = Counter()
        self.count = 0
        self.draining = 0  # refused connections being read and dropped (``DRAIN_SECONDS``)
        self._trusted = _networks(trusted)
        self._logged: dict[str, float] = {}

    @classmethod
    def from_settings(cls, settings: Settings) -> ConnectionLimits:
        total = settings.max_connections or descriptors() - RESERVED_FDS
        return cls(
            settings.connections_per_client,
            max(1, total),
            settings.head_timeout,
            settings.max_head,
            settings.forwarded_allow_ips,
            settings.body_timeout,
            settings.client_requests,
            settings.client_requests_burst,
            house_key=house_key(settings.bot_secret) if settings.bot_secret else "",
        )

    def admit(self, address: str) -> tuple[int, str, str] | None:
        """Count a new connection from ``address``: None, or the refusal (status, code, why)."""
        if self.total and self.count >= self.total:
            return 503, "too_many_connections", "the server has no connection left: retry soon"
        if not self._has_room(address):
            return 429, "rate_limited", self.too_fast()
        key = self._key(address)
        if self.per_client and not self._is_proxy(address) and self.open[key] >= self.per_client:
            return (
                429,
                "too_many_connections",
                f"your address has {self.per_client} connections open: close one first",
            )
        self.count += 1
        self.open[key] += 1
        metrics.CONNECTIONS.set(self.count)
        return None

    def release(self, address: str) -> None:
        self.count -= 1
        key = self._key(address)
        self.open[key] -= 1
        if self.open[key] <= 0:
            del self.open[key]  # nothing kept for an address gone
        metrics.CONNECTIONS.set(self.count)

    def request(self, address: str) -> bool:
        """Count a request from ``address``: False once it is past its rate (its bucket empty; a
        trusted proxy's requests are its clients', which it limits itself)."""
        if self.request_rate <= 0 or self._is_proxy(address):
            return True
        bucket, tokens = self._bucket(address)
        if tokens < 1:
            bucket[0] = tokens
            return False
        bucket[0] = tokens - 1
        return True

    def charge(self, address: str, requests: float) -> bool:
        """Count ``requests`` more against ``address``'s rate (what a large body costs): its
        bucket may go below empty, its next requests then waiting for it to fill again, down to
        owing a burst; False once it owes that (the request is not worth going on with)."""
        if self.request_rate <= 0 or self._is_proxy(address):
            return True
        bucket, tokens = self._bucket(address)
        floor = -float(self.request_burst)
        bucket[0] = max(tokens - requests, floor)
        return tokens - requests > floor

    def _bucket(self, address: str) -> tuple[list[float], float]:
        """``address``'s bucket (made full if new), stamped now, and the tokens it holds now."""
        key, now = client_of(address), self.clock()
        bucket = self._buckets.get(key)
        if bucket is None:
            if len(self._buckets) > 4 * len(self.open) + 1024:
                self._prune(now)
            bucket = self._buckets[key] = [float(self.request_burst), now]
        tokens = min(self.request_burst, bucket[0] + (now - bucket[1]) * self.request_rate)
        bucket[1] = now
        return bucket, tokens

    def _has_room(self, address: str) -> bool:
        """Whether ``address`` may send a request now (its bucket not empty), counting none: a
        client past its rate is refused its new connections before their heads are parsed."""
        if self.request_rate <= 0 or self._is_proxy(address):
            return True
        bucket = self._buckets.get(client_of(address))
        if bucket is None:
            return True
        return bucket[0] + (self.clock() - bucket[1]) * self.request_rate >= 1

    def too_fast(self) -> str:
        return (
            f"your address sends over {self.request_rate:g} requests a second"
            f" (at most {self.request_burst} at once)"
        )

    def _prune(self, now: float) -> None:
        """Forget the buckets of addresses with no connection that have filled again (nothing of
        theirs is lost: a new one starts full)."""
        for key, (tokens, at) in list(self._buckets.items()):
            full = tokens + (now - at) * self.request_rate >= self.request_burst
            if full and key not in self.open:
                del self._buckets[key]

    def refused(self, address: str, code: str, why: str) -> None:
        """Count and log (once a minute per address) a refused connection or request; a refused
        request counts against its address's rate as any other (the client connects again)."""
        metrics.CONNECTIONS_REFUSED.labels(code).inc()
        if code not in ("rate_limited", "too_many_connections"):
            self.request(address)
        now = time.monotonic()
        if now - self._logged.get(address, -self.LOG_EVERY) >= self.LOG_EVERY:
            if len(self._logged) > 10_000:
                self._logged.clear()
            self._logged[address] = now
            log.warning("connection refused: %s (%s)", why, code, extra={"client": address})

    def _key(self, address: str) -> str:
        """Where a connection is counted: a proxy's apart (its /64 holds other hosts)."""
        return address if self._is_proxy(address) else client_of(address)

    def _is_proxy(self, address: str) -> bool:
        """A trusted proxy's connections carry many clients: the proxy caps them itself."""
        if not self._trusted:
            return False
        if "*" in self._trusted:
            return True
        try:
            ip = ipaddress.ip_address(address)
        except ValueError:
            return False
        return any(ip in net for net in self._trusted if not isinstance(net, str))


def _networks(text: str) -> list[Any]:
    out: list[Any] = []
    for part in (p.strip() for p in text.split(",")):
        if part == "*":
            out.append("*")
        elif part:
            try:
                out.append(ipaddress.ip_network(part, strict=False))
            except ValueError:
                log.warning("GCBC_FORWARDED_ALLOW_IPS: %r is not an address or network", part)
    return out


def descriptors() -> int:
    """The process's descriptor limit, raised to the hard limit (a server's sockets need them)."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if hard == resource.RLIM_INFINITY:
        hard = max(soft, 1 << 20)
    if soft != resource.RLIM_INFINITY and soft < hard:
        try:
            resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
            soft = hard
        except (ValueError, OSError):
            pass
    return soft if soft != resource.RLIM_INFINITY else hard


_limits: ConnectionLimits | None = None


def limits() -> ConnectionLimits:
    """This process's limits, made once from the environment (uvicorn makes each protocol
    instance itself, with no way to hand it more than its own config)."""
    global _limits
    if _limits is None:
        _limits = ConnectionLimits.from_settings(Settings.from_env())
    return _limits
