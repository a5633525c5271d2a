"""Logs: one JSON object per line (time, level, service, logger, message, and ``table``,
``seq``, ``seat``, ``command`` where they apply: pass them as ``extra``), or plain text for a
terminal (``GCBC_LOG_FORMAT=text``). The standard library's logging with a formatter of ours:
every module already logs through it, and msgspec writes the JSON."""

from __future__ import annotations

import logging
import os
import sys
from datetime import UTC, datetime
from typing import Any

import msgspec

CONTEXT = ("table", "seq", "seat", "command", "consumer", "code", "position")
_encode = msgspec.json.Encoder().encode


class JsonFormatter(logging.Formatter):
    def __init__(self, service: str) -> None:
        super().__init__()
        self.service = service

    def format(self, record: logging.LogRecord) -> str:
        out: dict[str, Any] = {
            "time": datetime.fromtimestamp(record.created, UTC).isoformat(timespec="milliseconds"),
            "level": record.levelname.lower(),
            "service": self.service,
            "logger": record.name,
            "message": record.getMessage(),
        }
        for key in CONTEXT:
            value = record.__dict__.get(key)
            if value is not None:
                out[key] = value
        if record.exc_info:
            out["error"] = self.formatException(record.exc_info)
        try:
            return _encode(out).decode()
        except TypeError:
            return _encode({k: str(v) for k, v in out.items()}).decode()


class TextFormatter(logging.Formatter):
    def __init__(self, service: str) -> None:
        super().__init__(f"%(asctime)s {service}: %(message)s")

    def format(self, record: logging.LogRecord) -> str:
        line = super().format(record)
        context = " ".join(
            f"{k}={record.__dict__[k]}" for k in CONTEXT if record.__dict__.get(k) is not None
        )
        return f"{line} [{context}]" if context else line


def setup(service: str) -> None:
    """The process's logging: JSON lines on stderr (``GCBC_LOG_FORMAT=text``: text), from
    ``GCBC_LOG_LEVEL`` up (info; debug adds a line per command answered, refused or appended)."""
    text = os.environ.get("GCBC_LOG_FORMAT", "json").lower() == "text"
    name = os.environ.get("GCBC_LOG_LEVEL", "info").upper()
    level = logging.getLevelNamesMapping().get(name, logging.INFO)
    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(TextFormatter(service) if text else JsonFormatter(service))
    root = logging.getLogger()
    root.handlers[:] = [handler]
    root.setLevel(level)
    # a line per request a client library sends (the bot worker's actions, many a second) says
    # nothing the services' own metrics do not: only its warnings are kept
    logging.getLogger("httpx").setLevel(max(level, logging.WARNING))
