"""Errors as RFC 9457 problem+json with a stable ``code``, mapped in one table."""

from __future__ import annotations

from typing import Any

import msgspec
from litestar import Request, Response
from litestar.exceptions import HTTPException, ValidationException

from gcbc.rules import RuleViolation

# rule violations about timing (the table is not there yet) are 409; the rest are 422
CONFLICT = frozenset(
    {
        "game_already_started",
        "seats_not_filled",
        "table_full",
        "not_your_turn",
        "wrong_phase",
        "prompt_pending",
        "must_discard",
        "not_waiting_for_you",
        "game_over",
        "game_not_started",
        "stale_deadline",
        "already_arranged",
        "table_busy",
        "not_absent",
    }
)
NOT_FOUND = frozenset({"no_table", "not_finished_yet"})


class Problem(msgspec.Struct, omit_defaults=True):
    type: str
    title: str
    status: int
    code: str
    detail: str
    field: str | None = None


class ApiError(Exception):
    def __init__(self, status: int, code: str, detail: str, field: str | None = None) -> None:
        super().__init__(detail)
        self.status, self.code, self.detail, self.field = status, code, detail, field


def status_for(code: str) -> int:
    if code == "internal_error":
        return 500
    if code in NOT_FOUND:
        return 404
    return 409 if code in CONFLICT else 422


def problem(status: int, code: str, detail: str, field: str | None = None) -> Response[Any]:
    body = Problem(
        type=f"https://gcbc.example/problems/{code}",
        title=code.replace("_", " "),
        status=status,
        code=code,
        detail=detail,
        field=field,
    )
    return Response(
        content=msgspec.json.encode(body), status_code=status, media_type="application/problem+json"
    )


def from_violation(v: RuleViolation) -> ApiError:
    return ApiError(status_for(v.code), v.code, v.message)


def handle_api_error(_: Request, e: ApiError) -> Response[Any]:
    return problem(e.status, e.code, e.detail, e.field)


def handle_violation(_: Request, e: RuleViolation) -> Response[Any]:
    return problem(status_for(e.code), e.code, e.message)


def handle_validation(_: Request, e: ValidationException) -> Response[Any]:
    field = None
    detail = e.detail
    extra = e.extra if isinstance(e.extra, list) else []
    if extra and isinstance(extra[0], dict):
        field = extra[0].get("key")
        detail = str(extra[0].get("message", detail))
    code = (
        "malformed_json"
        if "JSON" in str(detail) and "malformed" in str(detail).lower()
        else "invalid_body"
    )
    return problem(400 if code == "malformed_json" else 422, code, detail, field)


def handle_http(_: Request, e: HTTPException) -> Response[Any]:
    codes = {
        404: "not_found",
        405: "method_not_allowed",
        413: "body_too_large",
        401: "unauthorized",
    }
    return problem(e.status_code, codes.get(e.status_code, "http_error"), str(e.detail))


def handle_unexpected(request: Request, e: Exception) -> Response[Any]:
    import logging

    logging.getLogger("gcbc.table").exception(
        "%s %s failed: %s (%s)", request.method, request.url.path, e, getattr(e, "err_code", "")
    )
    return problem(
        500, "internal_error", "the server failed; nothing was recorded unless an answer said so"
    )


HANDLERS = {
    ApiError: handle_api_error,
    RuleViolation: handle_violation,
    ValidationException: handle_validation,
    HTTPException: handle_http,
    Exception: handle_unexpected,
}
