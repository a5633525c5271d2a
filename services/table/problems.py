"""Errors as RFC 9457 problem+json with a stable ``code``, mapped in one table."""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from typing import Any

import msgspec
from litestar import Request, Response
from litestar.exceptions import HTTPException, ValidationException

from gcbc.eventlog.port import LogUnavailable, OutcomeUnknown
from gcbc.readmodel.port import ModelUnavailable
from gcbc.rules import RuleViolation
from gcbc.rules.errors import CODES, HttpClass, http_class
from gcbc_contract.http import Problem
from gcbc_contract.ids import InvalidTableId

log = logging.getLogger("gcbc.table")
RETRY_AFTER = "1"  # seconds a client waits before retrying when a dependency is away

# A refusal is 422 only when the command could never be valid at this table, whatever happens
# (its shape, a name that does not exist, aiming at oneself). Every other refusal depends on the
# table's state, which a client may have seen stale (a card since turned, a target since gone):
# that is 409, "not now", never 422. The engine says which is which (``http_class``), once.
_STATUS: dict[HttpClass, int] = {"invalid": 422, "conflict": 409, "not_found": 404}
NEVER_VALID = frozenset(code for code in CODES if http_class(code) == "invalid")
NOT_FOUND = frozenset(code for code in CODES if http_class(code) == "not_found")


class ApiError(Exception):
    def __init__(
        self,
        status: int,
        code: str,
        detail: str,
        field: str | None = None,
        headers: dict[str, str] | None = None,
        extra: dict[str, Any] | None = None,
    ) -> None:
        super().__init__(detail)
        self.status, self.code, self.detail, self.field = status, code, detail, field
        self.headers = headers
        self.extra = extra  # RFC 9457 extension members (e.g. the table_id a 503 may have made)


# the request field a refusal is about, where it is about one
FIELD_OF = {"bad_name": "name", "name_reserved": "name", "name_taken": "name"}


def type_of(code: str) -> str:
    """A problem's ``type``: its code's page on this server (a reference relative to the
    request's URI, so it holds behind any host or proxy)."""
    return f"/problems/{code}"


def status_for(code: str) -> int:
    if code == "internal_error":
        return 500
    return _STATUS[http_class(code)] if code in CODES else 409


def problem(
    status: int,
    code: str,
    detail: str,
    field: str | None = None,
    headers: dict[str, str] | None = None,
    extra: dict[str, Any] | None = None,
) -> Response[Any]:
    body = Problem(
        type=type_of(code),
        title=code.replace("_", " "),
        status=status,
        code=code,
        detail=detail,
        field=field,
    )
    content = msgspec.json.encode({**msgspec.to_builtins(body), **extra} if extra else body)
    return Response(
        content=content,
        status_code=status,
        media_type="application/problem+json",
        headers=headers,
    )


def retry_later(code: str, detail: str, **extra: Any) -> ApiError:
    """A 503 with Retry-After, for a dependency away or an answer it never gave; ``extra``: what a
    request may have made (the table or the token that tells whether it did)."""
    return ApiError(503, code, detail, headers={"Retry-After": RETRY_AFTER}, extra=extra or None)


def too_many(code: str, detail: str, retry: int) -> ApiError:
    """A 429: over a limit of the client's, ``retry`` seconds before it may try again."""
    return ApiError(429, code, detail, headers={"Retry-After": str(retry)})


def not_a_seat() -> ApiError:
    """The one answer to a token that names no seat of the table, whether it never did or its
    seat was left (the table keeps only its seats' current tokens, so it cannot tell which)."""
    return ApiError(403, "forbidden", "that token is not a seat of this table")


def refusal(code: str, message: str) -> ApiError:
    """A refusal of the rules (before the log or in its answer) as the problem a client gets."""
    if code == "not_seated":  # a token's seat left (since this process last looked): as above
        return not_a_seat()
    return ApiError(status_for(code), code, message, FIELD_OF.get(code))


def handle_api_error(_: Request, e: ApiError) -> Response[Any]:
    return problem(e.status, e.code, e.detail, e.field, e.headers, e.extra)


def answering(
    status: int, code: str, detail: str, retry: bool = False
) -> Callable[[Request, Exception], Response[Any]]:
    """The handler of an exception whose answer is always the same problem (``retry``: with
    Retry-After, for a dependency away: DESIGN property 7, answers stay true)."""

    def handle(_: Request, e: Exception) -> Response[Any]:
        headers = {"Retry-After": RETRY_AFTER} if retry else None
        return problem(status, code, detail, headers=headers)

    return handle


def handle_violation(_: Request, e: RuleViolation) -> Response[Any]:
    return handle_api_error(_, refusal(e.code, e.message))


def handle_validation(_: Request, e: ValidationException) -> Response[Any]:
    """Litestar's own checks: a query or path parameter out of its range is 400
    ``invalid_parameter``; a body that is not of its type is 422 ``invalid_body``."""
    field = source = None
    detail = e.detail
    extra = e.extra if isinstance(e.extra, list) else []
    if extra and isinstance(extra[0], dict):
        field = extra[0].get("key")
        source = extra[0].get("source")
        detail = str(extra[0].get("message", detail))
    if "JSON" in str(detail) and "malformed" in str(detail).lower():
        return problem(400, "malformed_json", detail, field)
    if source is not None and source != "body":
        return problem(400, "invalid_parameter", detail, field)
    return problem(422, "invalid_body", detail, field)


def handle_http(request: Request, e: HTTPException) -> Response[Any]:
    codes = {
        400: "malformed_json",  # Litestar's own decoding of a body that is not JSON
        404: "not_found",
        405: "method_not_allowed",
        413: "body_too_large",
        401: "unauthorized",
    }
    detail, headers = str(e.detail), e.headers or None
    if e.status_code == 405 and headers and "allow" in headers:  # RFC 9110: the methods it has
        detail = (
            f"{request.method} is not a method of {request.url.path}: it takes {headers['allow']}"
        )
    return problem(e.status_code, codes.get(e.status_code, "http_error"), detail, headers=headers)


# an unexpected failure's traceback is logged once a minute for each place in the code it comes
# from, its repeats counted meanwhile: a client repeating a request that fails cannot fill the disk
TRACEBACK_EVERY = 60.0
_traced: dict[tuple[str, str, int], list[float]] = {}  # where -> [when logged, repeats since]


def _where(e: BaseException) -> tuple[str, str, int]:
    """The exception's kind and the innermost line it was raised at."""
    tb, last = e.__traceback__, None
    while tb is not None:
        tb, last = tb.tb_next, tb
    if last is None:
        return type(e).__name__, "", 0
    return type(e).__name__, last.tb_frame.f_code.co_filename, last.tb_lineno


def handle_unexpected(request: Request, e: Exception) -> Response[Any]:
    where, now = _where(e), time.monotonic()
    traced = _traced.get(where)
    if traced is None or now - traced[0] >= TRACEBACK_EVERY:
        repeats = int(traced[1]) if traced is not None else 0
        _traced[where] = [now, 0]
        log.exception(
            "%s %s failed: %s (%s)%s",
            request.method,
            request.url.path,
            e,
            getattr(e, "err_code", ""),
            f"; the same failure {repeats} more times since it was last logged" if repeats else "",
        )
    else:
        traced[1] += 1
    return problem(
        500,
        "internal_error",
        "the server failed; if this was a command, retry it with the same command_id to learn"
        " its outcome",
    )


HANDLERS = {
    ApiError: handle_api_error,
    RuleViolation: handle_violation,
    RecursionError: answering(400, "json_too_deep", "the body's JSON nests too deeply"),
    # the adapters' second line: an id the edge let by still names no table
    InvalidTableId: answering(404, "no_table", "there is no such table"),
    LogUnavailable: answering(
        503,
        "log_unavailable",
        "the event log cannot be reached: nothing was recorded; retry",
        retry=True,
    ),
    OutcomeUnknown: answering(
        503,
        "outcome_unknown",
        "outcome unknown: retry with the same command_id (a command without one may or may not"
        " have been recorded)",
        retry=True,
    ),
    ModelUnavailable: answering(
        503, "views_unavailable", "the views cannot be read right now; retry", retry=True
    ),
    ValidationException: handle_validation,
    HTTPException: handle_http,
    Exception: handle_unexpected,
}
