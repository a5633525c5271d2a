"""Settings from the environment, shared by the services."""

from __future__ import annotations

import os

from msgspec import Struct

DEFAULT_NATS = "nats://127.0.0.1:4222"
DEFAULT_REDIS = "redis://127.0.0.1:6379/0"
LOG_LIMIT = 50  # the most recent log entries a view carries (the history has them all)
# the table options a server may offer (API.md); GCBC_OPTIONS_OFFERED narrows them
OPTIONS = ("classic", "zombies", "bombers_traitors", "extra_equipment", "wounds")
# "wounds": the wound placement that is not the edition's default (RULES §4; that one always is)


class Settings(Struct, frozen=True):
    nats_url: str = DEFAULT_NATS
    redis_url: str = DEFAULT_REDIS
    http_host: str = "127.0.0.1"
    http_port: int = 8000
    allow_scenarios: bool = False
    stream_replicas: int = 1
    log_limit: int = LOG_LIMIT
    noop_rules: bool = False  # benchmarks only: game commands skip the rules (same hops, no work)
    options_offered: tuple[str, ...] = OPTIONS  # the rest are refused with 422

    @classmethod
    def from_env(cls) -> Settings:
        env = os.environ
        return cls(
            nats_url=env.get("GCBC_NATS_URL", DEFAULT_NATS),
            redis_url=env.get("GCBC_REDIS_URL", DEFAULT_REDIS),
            http_host=env.get("GCBC_HTTP_HOST", "127.0.0.1"),
            http_port=int(env.get("GCBC_HTTP_PORT", "8000")),
            allow_scenarios=env.get("GCBC_ALLOW_SCENARIOS", "") in ("1", "true", "yes"),
            stream_replicas=int(env.get("GCBC_STREAM_REPLICAS", "1")),
            log_limit=int(env.get("GCBC_LOG_LIMIT", str(LOG_LIMIT))),
            noop_rules=env.get("GCBC_NOOP_RULES", "") == "1",
            options_offered=_options(env.get("GCBC_OPTIONS_OFFERED")),
        )


def _options(text: str | None) -> tuple[str, ...]:
    """A comma-separated list of OPTIONS (unset: all of them; empty: none)."""
    if text is None:
        return OPTIONS
    names = tuple(x.strip() for x in text.split(",") if x.strip())
    unknown = set(names) - set(OPTIONS)
    if unknown:
        raise ValueError(f"GCBC_OPTIONS_OFFERED: unknown option(s) {sorted(unknown)}")
    return names
