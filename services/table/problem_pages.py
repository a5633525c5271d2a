"""Each problem code's page, ``/problems/{code}``: every problem's ``type`` opens it. What the code
means and what to do, from one catalogue; HTML for a browser (an Accept preferring ``text/html``),
JSON otherwise; ``/problems`` lists them all."""

from __future__ import annotations

from html import escape
from typing import Annotated

import msgspec
from litestar import MediaType, Request, Response, get
from litestar.params import PathParameter

from gcbc_contract.http import ProblemPage
from services.table import openapi as doc
from services.table import webtable
from services.table.problems import ApiError, type_of

REREAD = "Re-read your view (its legal_commands lists what you may send now) and choose again."

# code -> (what it means, what to do)
CATALOGUE: dict[str, tuple[str, str]] = {
    # --- the request itself
    "malformed_json": ("The body is not JSON.", "Send one JSON object, UTF-8 encoded."),
    "malformed_request": (
        "The request is not valid HTTP/1.1 (its line or a header cannot be parsed): the"
        " connection was closed.",
        "Send a well-formed request line and headers.",
    ),
    "json_too_deep": ("The body's JSON nests too deeply.", "Send a flat body as documented."),
    "duplicate_key": (
        "An object in the body gives the same key twice (`field` names it).",
        "Give each key once.",
    ),
    "invalid_parameter": (
        "A query or path parameter is out of its range, or the query names a parameter its"
        " operation does not take, or one twice (`field` names it).",
        "Send each parameter the API document gives once, in its range.",
    ),
    "invalid_body": (
        "A field of the body is missing, of the wrong type, out of its range or unknown (`field`"
        " names it); bodies are strict: nothing is converted.",
        "Fix that field as the API document gives it; nothing was recorded.",
    ),
    "body_too_large": ("The body is over 64 KiB.", "Send a smaller body."),
    "unsupported_media_type": (
        "A body that is not JSON.",
        "Send the body with Content-Type: application/json.",
    ),
    "method_not_allowed": (
        "The route does not take this method.",
        "Use a method the API document lists for the route.",
    ),
    "request_timeout": (
        "The request's head came too slowly: the connection was closed.",
        "Send the request again, whole, on a new connection.",
    ),
    "headers_too_large": (
        "The request's head is too large: the connection was closed.",
        "Send fewer or smaller headers.",
    ),
    "uri_too_long": (
        "The request's target (its path and query) is too long: the connection was closed.",
        "Send a shorter query: no parameter of the API needs more than a few hundred bytes.",
    ),
    "not_found": ("There is nothing at this route.", "Check the path against the API document."),
    "http_error": ("The request failed at the HTTP level.", "Check the request against the API."),
    # --- who is asking
    "unauthorized": (
        "This needs a seat's bearer token (or a valid stream ticket), and none came.",
        "Send Authorization: Bearer <token>, the token taking the seat gave; a stream ticket"
        " expires: ask for a new one.",
    ),
    "forbidden": (
        "The token is not a seat of this table: it never was, or its seat was left in the lobby"
        " (or it is another seat than the one the route names); or a player's token that is not"
        " its current one (replaced since), or whose player holds no seat at this table.",
        "Take a seat again (POST /tables/{id}/seats) for a new token, or use the token of the"
        " seat the route names; a player uses its current token (POST /players/me/token gave"
        " it).",
    ),
    "scenarios_not_allowed": (
        "A chosen seed, deal or first seat, on a server that opens no scenario tables.",
        "Leave those fields out, or use a server run with GCBC_ALLOW_SCENARIOS=1.",
    ),
    # --- tables and seats
    "no_table": (
        "There is no such table (any id not of the server's 16-hex-digit form too).",
        "Check the table id; the lobby (GET /tables) lists the tables waiting for players.",
    ),
    "no_player": (
        "There is no such player (any id not of the server's 16-hex-digit form too).",
        "Check the player id: POST /players gave it.",
    ),
    "already_seated": (
        "This player holds a seat at this table already: one player, one seat.",
        "Play the seat you hold (GET /players/me/tables lists it), or take a seat without your"
        " player's token.",
    ),
    "already_queued": (
        "This player waits in the queue already: one place per player.",
        "Wait for the table it gives (GET /queue), or leave it (DELETE /queue) to ask again.",
    ),
    "already_playing": (
        "This player holds a seat at a table waiting or in play: the queue would seat it twice.",
        "Play that table (GET /players/me/tables lists it), or leave it before its start, then"
        " join the queue.",
    ),
    "not_queued": (
        "This player is not waiting in the queue (it never joined, left, or was seated).",
        "GET /queue says where the queue seated it, if it did.",
    ),
    "table_starting": (
        "Quick play matched this table's players and starts it as soon as they are seated: a"
        " seat left before then would keep it from starting.",
        "Play it: once it has started, leaving makes your seat away (the autopilot plays it).",
    ),
    "queue_busy": (
        "The queue changed under this request too many times in a row.",
        "Try again.",
    ),
    "table_exists": ("A table with this id already exists.", "Open the table that is there."),
    "table_full": (
        "Every seat is taken (or kept for invited players, or a rematch's).",
        "Pick another table from the lobby, or open one.",
    ),
    "seat_taken": (
        "That seat is not kept for you, or was claimed already.",
        "Ask for the rematch with your own seat's token.",
    ),
    "players_only": (
        "A rated table's seats are taken by registered players only (its result moves their"
        " ratings).",
        "Register (POST /players) and take the seat with your player's token, or pick an unrated"
        " table.",
    ),
    "bad_invitation": (
        "That invitation code is not one of this table's.",
        "Check the code with whoever invited you, and the table id it came with.",
    ),
    "invitation_used": (
        "That invitation's seat was taken already: a code takes its seat once.",
        "If it was not you, ask whoever invited you for another table.",
    ),
    "seats_not_filled": (
        "The game starts only once every seat is taken.",
        "Wait for players (or open a table with house bots), then start.",
    ),
    "game_already_started": (
        "The game has started: this is for the lobby only.",
        "Join another table, or follow this one as a spectator.",
    ),
    "game_not_started": (
        "The game has not started yet.",
        "Wait until every seat is taken and someone starts it.",
    ),
    "game_over": ("The game is over.", "Read its history or replay, or ask for a rematch."),
    "not_finished_yet": (
        "The history, replays and rematches come once the game is over.",
        "Wait for the end (your view's status says `finished`).",
    ),
    "name_taken": (
        "That name looks like one already at the table (or kept for a rematch's player), or, on"
        " registering, a registered player's: names are compared whatever their case, width or"
        " script.",
        "Choose another name.",
    ),
    "name_reserved": ("Names like 'House bot 3' are the house's.", "Choose another name."),
    "bad_name": (
        "A name has 1 to 40 printable characters.",
        "Choose a name of printable characters.",
    ),
    "bad_seat_count": ("A table has 4 to 8 seats.", "Ask for 4 to 8 seats."),
    "option_not_offered": (
        "This server does not offer that option (`field` names it), or it is unknown.",
        "Leave it out; the server's operator chooses what it offers (GCBC_OPTIONS_OFFERED).",
    ),
    "invalid_deal": (
        "A deal the real deal could not produce (wrong counts, the Agent and the Kingpin in one"
        " hand, an unknown card).",
        "Fix the deal as docs/api.md's scenario tables give it.",
    ),
    "bad_parameters": (
        "The command's parameters do not fit it (a card asked for what it does not take, seats"
        " that are not the table's).",
        "Send the parameters the card or command takes; legal_commands lists them.",
    ),
    "no_seat_for_you": (
        "The house bots would take every seat: a table keeps one for a client.",
        "Ask for fewer house seats.",
    ),
    # --- commands: never valid
    "target_is_self": ("You aimed at yourself.", "Choose another seat."),
    "unknown_card": ("There is no such card.", "Use the cards' snake_case names (docs/rules.md)."),
    "invalid_arrangement": (
        "An arrangement names your three positions, each once.",
        "Send `positions` as an order of 1, 2 and 3.",
    ),
    "bad_text": (
        "A chat message has 1 to 500 printable characters.",
        "Send a shorter message of printable characters.",
    ),
    # --- commands: not now (the table's state, which a view may show stale)
    "not_your_turn": ("It is another seat's turn.", REREAD),
    "wrong_phase": ("The table is not in the phase this command belongs to.", REREAD),
    "not_waiting_for_you": ("Nothing waits for your answer.", REREAD),
    "prompt_pending": ("A prompt waits for an answer first.", REREAD),
    "must_discard": ("Your prompt asks for a discard first.", "Send a `discard`."),
    "stale_deadline": ("That wait is over.", REREAD),
    "already_arranged": ("Your cards are arranged already.", REREAD),
    "already_away": ("Your seat is away already.", "Send `resume` (or any command) to come back."),
    "not_absent": ("Your seat is not away.", "Nothing to resume: play on."),
    "invalid_target": ("That seat is not a target for this now.", REREAD),
    "invalid_position": ("The seat has no card at that position now.", REREAD),
    "invalid_choice": ("That is not an answer this prompt takes now.", REREAD),
    "target_eliminated": ("That seat is eliminated.", REREAD),
    "target_is_leader": ("That seat shows a face-up Leader card, which this spares.", REREAD),
    "target_is_zombie": ("That seat is a zombie.", REREAD),
    "target_wounded": ("That seat is wounded already.", REREAD),
    "target_disguised": ("That seat cannot be investigated now.", REREAD),
    "card_not_face_down": ("That card is face up already.", REREAD),
    "card_not_face_up": ("That card is not face up.", REREAD),
    "card_is_leader": ("That card is a Leader: only Honest and Crooked cards.", REREAD),
    "card_not_in_hand": ("You do not hold that card (now).", REREAD),
    "no_gun": ("The seat holds no gun.", REREAD),
    "has_gun": ("You hold a gun already.", REREAD),
    "no_gun_in_centre": ("No gun is left in the centre.", REREAD),
    "not_aimed": ("Your gun aims at nobody.", REREAD),
    "gun_locked": ("This gun cannot shoot this turn.", REREAD),
    "arm_barred": ("You may not take a gun this turn (K-9 Unit).", REREAD),
    "zombie_cannot": ("A zombie cannot do this.", REREAD),
    "not_a_zombie": ("Only a zombie does this.", REREAD),
    "not_aimed_to_bite": ("Your Arms point at nobody to bite.", REREAD),
    "must_reaim": ("You just hit that seat: aim at another (RULES §8).", REREAD),
    "not_playable_now": ("You may not play that equipment now.", REREAD),
    "not_enough_seats": ("Too few living seats are left for this card.", REREAD),
    "no_effect": ("The command would change nothing (auto-pass is already so).", REREAD),
    "chat_full": (
        "Your seat posted all the messages a seat may post at a table.",
        "Talk at the next table.",
    ),
    # --- the server's answers
    "command_id_reused": (
        "This command_id was sent before with another command (`field: command_id`).",
        "Give each new command a new command_id; a retry sends the same command with it.",
    ),
    "table_busy": ("The table changed under many tries at once.", "Retry."),
    "log_too_long": (
        "The table's log is longer than the server folds for a replay or history.",
        "Ask the server's operator (gcbc-ops export).",
    ),
    "rate_limited": ("Over a rate limit.", "Wait the Retry-After seconds, then retry."),
    "too_many_streams": (
        "Over the open streams or long-polls allowed per table, seat or client.",
        "Close a stream you no longer read; retry after Retry-After.",
    ),
    "too_many_held": (
        "This client holds as many seats (or house seats) as it may.",
        "Finish or leave one first.",
    ),
    "too_many_connections": (
        "Over the connections allowed per client (429), or the server's (503): the connection"
        " was closed.",
        "Reuse your connections; retry after Retry-After.",
    ),
    "log_unavailable": (
        "The event log cannot be reached: nothing was recorded.",
        "Retry after Retry-After.",
    ),
    "outcome_unknown": (
        "The command was sent to the log and not acknowledged: it may or may not be recorded.",
        "Retry with the same command_id to learn its outcome (a seat or rematch: the problem's"
        " token tells).",
    ),
    "views_unavailable": ("The views cannot be read right now.", "Retry after Retry-After."),
    "replays_busy": ("The replays' queue is full.", "Retry after Retry-After."),
    "house_full": (
        "The house plays as many seats as it may over the whole server: a table's opening"
        " (`field: bots.seats`) or its start.",
        "Open the table with fewer house seats, or retry after Retry-After (a table refused its"
        " start waits on).",
    ),
    "internal_error": (
        "The server failed.",
        "Retry a command with the same command_id to learn its outcome.",
    ),
}

# the statuses of the codes no operation lists (the connection's guards, Litestar's own)
_OTHER_STATUSES = {
    "method_not_allowed": (405,),
    "request_timeout": (408,),
    "headers_too_large": (431,),
    "uri_too_long": (414,),
    "too_many_connections": (429, 503),
    "http_error": (),
}


def statuses(code: str) -> tuple[int, ...]:
    listed = tuple(s for s, codes in sorted(doc.PROBLEM_CODES.items()) if code in codes)
    return listed or _OTHER_STATUSES.get(code, ())


def _entry(code: str) -> ProblemPage:
    meaning, what_to_do = CATALOGUE[code]
    return ProblemPage(
        code=code,
        type=type_of(code),
        title=code.replace("_", " "),
        statuses=statuses(code),
        meaning=meaning,
        what_to_do=what_to_do,
    )


ENTRIES = {code: _entry(code) for code in CATALOGUE}


# the longest Accept weighed (a browser's is under 200 bytes): each of its items is parsed and
# sorted, so a long one would hold the event loop for everyone
ACCEPT_WEIGHED = 512


def _wants_html(request: Request) -> bool:
    """A browser asks for HTML by name; anything else (``*/*``, JSON, no Accept, an Accept longer
    than any browser's, or one whose weight Litestar cannot read: ``q=inf``) gets JSON."""
    if len(request.headers.get("accept", "")) > ACCEPT_WEIGHED:
        return False
    try:
        best = request.accept.best_match([MediaType.JSON, MediaType.HTML], default=MediaType.JSON)
    except (ValueError, OverflowError):
        return False
    return best == MediaType.HTML


def _html(title: str, body: str) -> bytes:
    return (
        '<!doctype html>\n<html lang="en"><head><meta charset="utf-8">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        f'<title>{escape(title)}</title><link rel="stylesheet" href="/web/style.css"></head>'
        f'<body><main class="problem">{body}</main></body></html>\n'
    ).encode()


def _page(e: ProblemPage) -> bytes:
    status = ", ".join(str(s) for s in e.statuses) or "any"
    return _html(
        f"{e.code} — Good Cop Bad Cop",
        f"<h1><code>{escape(e.code)}</code></h1><p>HTTP status: {status}</p>"
        f"<h2>What it means</h2><p>{escape(e.meaning)}</p>"
        f"<h2>What to do</h2><p>{escape(e.what_to_do)}</p>"
        '<p><a href="/problems">Every problem code</a></p>',
    )


def _index() -> bytes:
    items = "".join(
        f'<li><a href="{escape(e.type)}"><code>{escape(e.code)}</code></a>: {escape(e.meaning)}</li>'
        for e in ENTRIES.values()
    )
    return _html("Problem codes — Good Cop Bad Cop", f"<h1>Problem codes</h1><ul>{items}</ul>")


PAGES = {code: _page(e) for code, e in ENTRIES.items()}
INDEX = _index()
_JSON = {code: msgspec.json.encode(e) for code, e in ENTRIES.items()}
_INDEX_JSON = msgspec.json.encode(list(ENTRIES.values()))
VARY = {"Vary": "Accept"}


def _answer(request: Request, html: bytes, json: bytes) -> Response[bytes]:
    if _wants_html(request):
        return Response(html, media_type=MediaType.HTML, headers={**webtable.HEADERS, **VARY})
    return Response(json, media_type=MediaType.JSON, headers=VARY)


@get(
    "/problems",
    summary="Every problem code: what it means and what to do",
    description="JSON; HTML for a browser (an Accept that prefers `text/html`).",
    tags=["problems"],
    sync_to_thread=False,
    responses=doc.responses({200: doc.ok(list[ProblemPage], "every problem code")}),
)
def problem_codes(request: Request) -> Response[bytes]:
    return _answer(request, INDEX, _INDEX_JSON)


@get(
    "/problems/{code:str}",
    summary="A problem code: what it means and what to do (every problem's `type` opens it)",
    description="JSON; HTML for a browser (an Accept that prefers `text/html`).",
    tags=["problems"],
    sync_to_thread=False,
    responses={
        **doc.responses({200: doc.ok(ProblemPage, "the code's meaning and what to do")}),
        404: doc.problem(404, "not_found"),
    },
)
def problem_code(
    code: Annotated[str, PathParameter(description="a problem's code")], request: Request
) -> Response[bytes]:
    if code not in ENTRIES:
        raise ApiError(404, "not_found", "there is no such problem code")
    return _answer(request, PAGES[code], _JSON[code])


ROUTES = [problem_codes, problem_code]
