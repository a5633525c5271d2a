"""The lease port: who processes what, decided in the log's own store.

A lease is a name (``rules.partition.3``, ``rules.member.<instance>``) held by one holder at a
time. ``take`` gets it if nobody holds it, or if it is held under the taker's own name (its
revision), ``renew`` keeps it for another ``ttl``
seconds if it is still the holder's at that revision (the new revision; None: lost, someone else
may hold it now), ``release`` gives it up at once. A lease not renewed within ``ttl`` lapses by
itself, which is how a dead instance's work is handed over. ``holders(prefix)``: every lease held
under ``prefix`` (name -> holder).

A holder's name is its process's: drawn, so unique, unless a supervisor gives each of its slots a
stable one (``GCBC_INSTANCE``) and runs one process per slot at a time. Then a slot's process
started again after a crash takes back at once what its predecessor held, instead of waiting for
it to lapse: nobody else may hold a lease under that name, and the predecessor is dead.

The JetStream adapter (jetstream_leases) keeps them in a KV bucket whose TTL is the lease's; the
twin here keeps them in a dict, with a clock the tests move.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Protocol

LEASE_TTL = 3.0  # seconds a lease lasts unless renewed (GCBC_LEASE_SECONDS; renewed thrice in it)


class Leases(Protocol):
    ttl: float

    async def take(self, name: str, holder: str) -> int | None: ...

    async def renew(self, name: str, holder: str, revision: int) -> int | None: ...

    async def release(self, name: str, revision: int) -> None: ...

    async def holders(self, prefix: str) -> dict[str, str]: ...


class MemoryLeases:
    """The twin: the same rules, on a clock of the caller's choice."""

    def __init__(self, ttl: float = LEASE_TTL, clock: Callable[[], float] = time.monotonic) -> None:
        self.ttl, self.clock = ttl, clock
        self._held: dict[str, tuple[str, int, float]] = {}  # name -> (holder, revision, until)
        self._revision = 0

    def _live(self, name: str) -> tuple[str, int, float] | None:
        held = self._held.get(name)
        if held is not None and held[2] <= self.clock():
            del self._held[name]  # lapsed
            return None
        return held

    def _write(self, name: str, holder: str) -> int:
        self._revision += 1
        self._held[name] = (holder, self._revision, self.clock() + self.ttl)
        return self._revision

    async def take(self, name: str, holder: str) -> int | None:
        held = self._live(name)
        return None if held is not None and held[0] != holder else self._write(name, holder)

    async def renew(self, name: str, holder: str, revision: int) -> int | None:
        held = self._live(name)
        if held is None or held[1] != revision:
            return None
        return self._write(name, holder)

    async def release(self, name: str, revision: int) -> None:
        held = self._live(name)
        if held is not None and held[1] == revision:
            del self._held[name]

    async def holders(self, prefix: str) -> dict[str, str]:
        return {
            name: held[0]
            for name in list(self._held)
            if name.startswith(prefix + ".") and (held := self._live(name)) is not None
        }
