"""Refusals and failures as exceptions, one class per HTTP status, each carrying the problem's
stable ``code`` (RFC 9457 problem+json, docs/api.md)."""

from __future__ import annotations

import msgspec

from gcbc_contract.http import Problem

_problem = msgspec.json.Decoder(Problem)


class ApiProblem(Exception):
    """A problem the server answered. ``code`` is stable; ``detail`` is for people. An unknown
    outcome (``503 outcome_unknown``) names what the request may have made: ``table_id``,
    ``token``; a command given up on after its retries carries its ``command_id`` (send it again
    with it: it is recorded once)."""

    status = 0

    def __init__(self, problem: Problem, retry_after: float | None = None) -> None:
        super().__init__(f"{problem.status} {problem.code}: {problem.detail}")
        self.problem = problem
        self.code = problem.code
        self.detail = problem.detail
        self.field = problem.field
        self.retry_after = retry_after
        self.table_id = problem.table_id
        self.token = problem.token
        self.command_id: str | None = None


class BadRequest(ApiProblem):
    status = 400


class Unauthorized(ApiProblem):
    status = 401


class Forbidden(ApiProblem):
    status = 403


class NotFound(ApiProblem):
    status = 404


class Conflict(ApiProblem):
    """Not now: the table's state refuses it (a stale view causes these)."""

    status = 409


class TooLarge(ApiProblem):
    status = 413


class Invalid(ApiProblem):
    """Never valid at this table, whatever happens."""

    status = 422


class RateLimited(ApiProblem):
    status = 429


class Unavailable(ApiProblem):
    """NATS or Redis is away (``outcome_unknown``: retry with the same command_id)."""

    status = 503


class ServerError(ApiProblem):
    status = 500


BY_STATUS = {cls.status: cls for cls in ApiProblem.__subclasses__()}


def raise_for(status: int, body: bytes, retry_after: str | None) -> None:
    """Raise the problem an error answer carries."""
    try:
        problem = _problem.decode(body)
    except msgspec.DecodeError:
        problem = Problem(
            type="about:blank",
            title="error",
            status=status,
            code="http_error",
            detail=body[:200].decode(errors="replace"),
        )
    cls = BY_STATUS.get(status, ServerError if status >= 500 else ApiProblem)
    wait = float(retry_after) if retry_after and retry_after.replace(".", "", 1).isdigit() else None
    raise cls(problem, wait)
