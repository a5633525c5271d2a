"""A long piece of a service's work (folding every table at a restart, re-projecting a wiped
read model, catching up a consumer) says how far it is, with a rate and an estimate: a log line
every few seconds."""

from __future__ import annotations

import logging
import time


class ProgressLog:
    def __init__(
        self, log: logging.Logger, what: str, total: int, unit: str = "tables", every: float = 2.0
    ) -> None:
        self.log, self.what, self.total, self.unit, self.every = log, what, total, unit, every
        self.started = self._last = time.monotonic()
        self.done = 0

    def rate(self) -> float:
        return self.done / max(time.monotonic() - self.started, 1e-6)

    def step(self, done: int | None = None) -> None:
        self.done = self.done + 1 if done is None else done
        now = time.monotonic()
        if now - self._last >= self.every:
            self._last = now
            self.report()

    def report(self) -> None:
        rate = self.rate()
        left = (self.total - self.done) / rate if rate and self.total else 0.0
        self.log.info(
            "%s: %d/%d %s (%.0f/s, about %.0f s left)",
            self.what,
            self.done,
            self.total,
            self.unit,
            rate,
            max(left, 0.0),
        )

    def finish(self) -> None:
        elapsed = time.monotonic() - self.started
        self.log.info(
            "%s: %d %s in %.1f s (%.0f/s)", self.what, self.done, self.unit, elapsed, self.rate()
        )
