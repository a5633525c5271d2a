"""Views (RULES §11): what one seat, or the public, knows of a table: the one place a view is
produced. A card's identity comes only from what the viewer learned (its knowledge, filled by
events it witnessed) or from what everyone saw (face-up cards); never from the true deal."""

from __future__ import annotations

import functools
from collections.abc import Mapping
from datetime import UTC, datetime
from typing import Any, NamedTuple

import msgspec

from gcbc.rules.evolve import seen_only_by
from gcbc.rules.legal import legal_commands
from gcbc.rules.log import render, sees
from gcbc.rules.state import FINISHED, LOBBY, State
from gcbc.rules.teams import team_of, true_team
from gcbc.rules.waits import current_wait
from gcbc_contract import commands as C
from gcbc_contract.log import LogEntry
from gcbc_contract.views import (
    AlarmView,
    ArmsView,
    CardView,
    DeclaredView,
    GunView,
    PromptView,
    SeatView,
    View,
    Waiting,
    WindowView,
    You,
)
from gcbc_contract.views import (
    Seen as SeenView,
)

_encode = msgspec.json.Encoder().encode

# A prompt can hold the table in a transient step (a wound's choice after a shot): the view
# shows the phase the turn is in, so the phase stays within the contract's vocabulary.
_PHASES = {
    "window": "reaction",
    "declared": "action",
    "resolve": "action",
    "after_action": "action",
    "turn_start": "action",
    "turn_end": "action",
}


def _identity(s: State, viewer: int | None, card_id: int) -> str | None:
    card = s.public_cards.get(card_id)
    if card is None and viewer is not None:
        card = s.knowledge[viewer].get(card_id)
    return card


def _card_views(s: State, viewer: int | None, seat: int) -> list[CardView]:
    st = s.seat(seat)
    out = []
    for p, cid in enumerate(st.cards):
        seen = [SeenView(seat=w, by=by) for w, by in s.seen.get(cid, ()) if w != seat]
        out.append(
            CardView(
                position=p + 1,
                face_up=st.face_up[p],
                card=_identity(s, viewer, cid),
                seen_by=[x.seat for x in seen],
                seen=seen,
                wounded=cid in s.wounds,
            )
        )
    return out


def _seat_views(
    s: State, viewer: int | None, players: Mapping[int, str] | None = None
) -> list[SeatView]:
    out = []
    bots = s.setup.house_bots
    over = s.step == FINISHED  # the end reveals every card (RULES §10), so the teams too
    for i, st in enumerate(s.seats):
        if st is None:
            out.append(SeatView(i, None, False, False, False, None, 0, [], []))
            continue
        cards = _card_views(s, viewer, i) if st.cards else []
        out.append(
            SeatView(
                seat=i,
                name=st.name,
                eliminated=st.eliminated,
                wounded=st.wounded or any(c.wounded for c in cards),
                zombie=st.zombie,
                gun=GunView(aimed_at=st.aim, locked=i in s.guns_locked) if st.gun else None,
                arms=ArmsView(aimed_at=st.arms_aim) if st.zombie else None,
                equipment_count=len(st.hand),
                in_play=list(st.in_play),
                cards=cards,
                absent=st.absent,
                bot=st.bot or (bots is not None and i in bots.seats),
                team=true_team(s, i) if over and st.cards else None,
                eliminated_by=st.fallen_by if over and st.eliminated else None,
                player=players.get(i) if players else None,
            )
        )
    return out


def _seat_views_of(s: State, viewer: int | None, public: list[SeatView]) -> list[SeatView]:
    """``viewer``'s seats from the public ones: only a card the viewer knows and the public does
    not differs (everything else of a seat is the same for every viewer)."""
    if viewer is None or not s.knowledge:
        return public
    known = s.knowledge[viewer]
    if not known:
        return public
    secret = known.keys() - s.public_cards.keys()  # what the viewer knows and the public not
    if not secret:
        return public
    out = []
    for i, seat_view in enumerate(public):
        st = s.seats[i]
        if st is None or secret.isdisjoint(st.cards):
            out.append(seat_view)
            continue
        cards = [
            msgspec.structs.replace(cv, card=_identity(s, viewer, cid))
            for cv, cid in zip(seat_view.cards, st.cards, strict=True)
        ]
        out.append(msgspec.structs.replace(seat_view, cards=cards))
    return out


@functools.lru_cache(maxsize=4096)  # a wait's deadline is shown in every view of each change
def _iso(t: float) -> str:
    return datetime.fromtimestamp(t, UTC).isoformat(timespec="milliseconds").replace("+00:00", "Z")


def _seen_ids(s: State, since: int) -> tuple[int, ...]:
    """The id of a wait that began at ``since`` as each viewer (the seats, then the public) is
    shown it: the viewer's own version then, so that it moves only with what the viewer sees
    (the engine's id counts every event, another seat's passes and arrangements included)."""
    viewers = len(s.seats) + 1
    if s.step == FINISHED or not s.unseen:  # every event is seen: the engine's, as the version
        return (since,) * viewers
    hidden = list(s.unseen)  # what each viewer did not see, less what it did not see since
    for e in s.log.since(since):
        owner = seen_only_by(e)
        if owner is not None:  # seen by one seat only, as ``evolve`` counts it
            for i in range(viewers):
                if i != owner:
                    hidden[i] -= 1
    return tuple(since - h for h in hidden)


def _waiting_of(
    s: State, viewer: int | None, w: Any, wait_id: int, deadline: str | None
) -> list[Waiting]:
    if w.kind == "reaction":
        # everyone asked is shown until the window closes: who has passed stays private (§6)
        assert s.window is not None
        seats = [i for i in s.window.asked if i != viewer or i in s.window.pending]
    elif w.kind == "arrange":
        seats = [i for i in range(len(s.seats)) if i != viewer or not s.seat(i).arranged]
    else:
        seats = list(w.seats)
    return [
        Waiting(
            seat=i,
            reason=w.kind,
            wait=wait_id,
            seconds=w.seconds,
            deadline=deadline,
            prompt=w.prompt,
        )
        for i in seats
    ]


def commands_json(commands: list[Any]) -> list[dict[str, Any]]:
    """Commands as a client sends them: JSON objects without ``seat`` (the token names it)."""
    out = msgspec.to_builtins(commands)
    for d in out:
        d.pop("seat", None)
    return out


_SETTINGS = frozenset(c.__struct_config__.tag for c in C.SETTINGS)


class Offered(NamedTuple):
    """What a seat's view offers it to send: the game's moves (``legal_commands``) apart from
    its settings and presence (``seat_commands``), each as a client sends it."""

    moves: list[dict[str, Any]]
    settings: list[dict[str, Any]]

    @classmethod
    def to(cls, s: State, seat: int | None) -> Offered:
        if seat is None:
            return cls([], [])
        moves, settings = [], []
        for command in commands_json(legal_commands(s, seat)):
            (settings if command["type"] in _SETTINGS else moves).append(command)
        return cls(moves, settings)


class _ViewerLog:
    __slots__ = ("done", "seen", "kept")

    def __init__(self) -> None:
        self.done = 0  # the log's events looked at
        self.seen = 0  # of which the viewer sees (its log numbers them 1, 2, ...)
        # the viewer's last entries, each as JSON (a view copies it as it is: encoded once, not
        # at every change of the table while it is among the last)
        self.kept: list[msgspec.Raw] = []


class LogMemo:
    """Each viewer's log of one table, kept between its states while the game goes on: an event
    keeps its entry and its number in a viewer's log as the log grows (the log only grows, and
    what a viewer sees of an event never changes before the end), so at each change only the new
    events are looked at, not every entry of every view (the projection renders every view of a
    table at each change). A state whose log is not an extension of the one followed (a fold
    started again, an older state) starts it over."""

    __slots__ = ("items", "viewers")

    def __init__(self) -> None:
        self.items: list | None = None
        self.viewers: dict[int | None, _ViewerLog] = {}

    def follow(self, s: State) -> None:
        """Ready for ``s`` (started over if its log is not the one followed)."""
        if not s.log.extends(self.items) or any(v.done > len(s.log) for v in self.viewers.values()):
            self.items = s.log.items_of()
            self.viewers = {}

    def entries(self, s: State, seat: int | None, version: int, limit: int | None) -> list:
        """``seat``'s last ``limit`` entries (None: all), as ``_entries`` makes them, encoded
        (a view with them encodes to the same bytes: what the projection writes)."""
        v = self.viewers.get(seat)
        if v is None:
            v = self.viewers[seat] = _ViewerLog()
        kept = v.kept
        for e in s.log.since(v.done):
            if sees(e, seat):
                v.seen += 1
                entry = render(e, seat, False, v.seen)
                if entry is not None:
                    kept.append(msgspec.Raw(_encode(entry)))
        v.done = len(s.log)
        if limit is not None and len(kept) > limit:
            del kept[: len(kept) - max(0, limit)]
        # the numbering is the version's (the events the viewer sees): one count, two ways
        assert v.seen == version, (v.seen, version)
        return kept[:]


def _entries(s: State, seat: int | None, version: int, over: bool, limit: int | None) -> list:
    """The viewer's last ``limit`` log entries (None: all), oldest first, each numbered in the
    viewer's own log (``version`` is the newest's number). The last entries of its own log, not
    its entries among the last events: another seat's private events (a pass, an arrangement)
    must not push an entry out of it, or the view would change with them (RULES §11: they change
    nothing anyone else sees). Once the game is over everything is shown."""
    out: list[LogEntry] = []
    if limit is not None and limit <= 0:
        return out
    n = version
    for e in s.log.newest_first():
        if over or sees(e, seat):
            entry = render(e, seat, over, n)
            n -= 1
            if entry is not None:
                out.append(entry)
                if len(out) == limit:
                    break
    out.reverse()
    return out


class _Common:
    """What every viewer's view of one state has in common, made once for all of them (the
    projection renders every view of a table at each change)."""

    def __init__(
        self,
        s: State,
        log: bool,
        log_limit: int | None,
        wait_started: float | None,
        chat_limit: int | None,
        memo: LogMemo | None = None,
        players: Mapping[int, str] | None = None,
    ) -> None:
        self.over = s.step == FINISHED
        self.log_limit = log_limit
        self.log = log
        # once the game is over every entry changes (all is shown): rendered anew
        self.memo = memo if log and not self.over else None
        if self.memo is not None:
            self.memo.follow(s)
        self.wait = current_wait(s)
        self.deadline = (
            _iso(wait_started + self.wait.seconds)
            if self.wait is not None and wait_started
            else None
        )
        self.seats = _seat_views(s, None, players)
        chat = s.chat.tail(chat_limit) if chat_limit is not None else s.chat
        self.chat = [{"seat": who, "text": text} for who, text in chat]
        w = s.window
        p = s.prompts[0] if s.prompts else None
        d = s.declared
        # each viewer's ids, by its place among the viewers (the seats, then the public)
        self.wait_ids = _seen_ids(s, self.wait.id) if self.wait is not None else None
        self.windows: list[WindowView] | None = None
        if w is not None:
            ids = self.wait_ids
            if ids is None or self.wait is None or self.wait.id != w.since:  # a prompt came first
                ids = _seen_ids(s, w.since)
            asked = list(w.asked)
            made: dict[int, WindowView] = {}  # one for the viewers that are shown the same id
            for i in ids:
                if i not in made:
                    made[i] = WindowView(kind=w.kind, asked=asked, wait=i)
            self.windows = [made[i] for i in ids]
        self.prompt = PromptView(p.seat, p.kind, list(p.options), p.about) if p else None
        self.declared = (
            DeclaredView(
                seat=s.turn_seat,
                action=d.action,
                # where the shot or bite goes: a card that forced it sent it elsewhere
                target=d.target if d.forced_target is None else d.forced_target,
                position=d.position,
                forced=d.forced_target is not None,
            )
            if d
            else None
        )
        self.alarms = [AlarmView(seat=a, set_by=by, turn=turn) for a, turn, by in s.alarms]


def view(
    s: State,
    seat: int | None,
    log: bool = True,
    log_limit: int | None = None,
    wait_started: float | None = None,
    chat_limit: int | None = None,
    players: Mapping[int, str] | None = None,
) -> View:
    """The view of ``seat`` (None: the public, spectator view). ``wait_started``: when the
    current wait began (seconds since the epoch), known to services, never to the engine: it
    only turns into the deadline shown. ``players``: the registered player holding each seat
    (known to services, as ``wait_started``). ``log_limit``/``chat_limit``: the most recent log entries
    and chat messages it carries (None: all; the history has them all)."""
    return _view(s, seat, _Common(s, log, log_limit, wait_started, chat_limit, None, players))


def views(
    s: State,
    seats: list[int | None],
    log: bool = True,
    log_limit: int | None = None,
    wait_started: float | None = None,
    chat_limit: int | None = None,
    memo: LogMemo | None = None,
    players: Mapping[int, str] | None = None,
) -> list[View]:
    """``view`` of each of ``seats`` (None: the public one), what they share made once: equal,
    view by view, to calling ``view`` for each. ``memo``: each viewer's log entries, kept by the
    caller between the states of one table (``LogMemo``): only events new since are looked at."""
    common = _Common(s, log, log_limit, wait_started, chat_limit, memo, players)
    return [_view(s, seat, common) for seat in seats]


def _viewer(s: State, seat: int | None) -> int | None:
    """Whose view ``seat`` asks for: that seat's if it is taken, else the public one (None)."""
    if seat is not None and (not 0 <= seat < len(s.seats) or s.seats[seat] is None):
        return None
    return seat


def version_of(s: State, seat: int | None) -> int:
    """The version of ``seat``'s view (None: the public one's; an unseated seat's is the public
    one's): the events it sees (``seen_by``), all of them once the game is over. A view changes
    only with its version (RULES §11: what a viewer does not see changes nothing it is shown), so
    a view whose version did not move need not be made again."""
    seat = _viewer(s, seat)
    if s.step == FINISHED or not s.unseen:
        return s.version
    return s.version - s.unseen[len(s.seats) if seat is None else seat]


def _view(s: State, seat: int | None, common: _Common) -> View:
    seat = _viewer(s, seat)
    over = common.over
    status = "waiting" if s.step == LOBBY else "finished" if over else "playing"
    you = None
    if seat is not None and s.seats[seat] is not None:
        st = s.seat(seat)
        known = s.knowledge[seat] if s.knowledge else {}
        team = team_of(tuple(map(known.get, st.cards)), st.in_play, st.zombie) if st.cards else None
        you = You(seat=seat, team=team, hand=list(st.hand), auto_pass=st.auto_pass)
    offered = Offered.to(s, seat)
    version = version_of(s, seat)
    i = len(s.seats) if seat is None else seat  # its place among the viewers
    entries: list[LogEntry] = []
    if common.memo is not None:
        entries = common.memo.entries(s, seat, version, common.log_limit)
    elif common.log:
        entries = _entries(s, seat, version, over, common.log_limit)
    return View(
        table_id=s.setup.table_id,
        version=version,
        status=status,
        phase=_PHASES.get(s.step, s.step),
        options=s.setup.options,
        turn=s.turn_seat if s.turn_seat >= 0 and s.step not in (LOBBY,) else None,
        turn_number=s.turn_number,
        direction="clockwise" if s.marks.direction == 1 else "counter_clockwise",
        waiting_for=_waiting_of(s, seat, common.wait, common.wait_ids[i], common.deadline)
        if common.wait_ids is not None
        else [],
        window=common.windows[i] if common.windows is not None else None,
        prompt=common.prompt,
        declared=common.declared,
        you=you,
        seats=_seat_views_of(s, seat, common.seats),
        guns_in_centre=s.guns_in_centre,
        arms_in_centre=s.arms_in_centre,
        alarms=common.alarms,
        deck_count=len(s.deck),
        legal_commands=offered.moves,
        log=entries,
        chat=common.chat,
        winners=list(s.outcome.winners) if s.outcome.winners is not None else None,
        win_team=s.outcome.win_team,
        win_reason=s.outcome.win_reason,
        seeded=s.setup.requested_seed is not None or s.setup.deal is not None,
        bots=s.setup.house_bots,
        seat_commands=offered.settings,
        must_act=bool(offered.moves),
    )


def public_view(
    s: State,
    log: bool = True,
    log_limit: int | None = None,
    wait_started: float | None = None,
    chat_limit: int | None = None,
) -> View:
    return view(s, None, log, log_limit, wait_started, chat_limit)
