"""The services' wall clock as the log records it."""

from __future__ import annotations

import time


def now_ms() -> int:
    """Milliseconds since the epoch: an entry's ``at``."""
    return int(time.time() * 1000)
