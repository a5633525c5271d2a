"""The projection renders every view of a table at once (``views``): what they share is made
once. Each must equal the view made alone, and each seat's cards must equal the ones made from
that seat's knowledge card by card (the shortcut copies the public seats where the viewer knows
nothing more), and a log entry found again in the memo kept between a table's states must be
the one rendered anew."""

from __future__ import annotations

from typing import Any

import msgspec
from hypothesis import HealthCheck, given, settings

from gcbc.rules import view
from gcbc.rules.evolve import fold
from gcbc.rules.views import LogMemo, _seat_views, views
from tests.property.strategies import plans, play


def check(step: Any, memo: LogMemo) -> None:
    s = step.after
    seats: list[int | None] = [None, *range(len(s.seats))]
    together = views(s, seats, log_limit=20, wait_started=1_700_000_000.0, chat_limit=5)
    # with the log entries of earlier states found again in a memo kept across the game
    remembered = views(
        s, seats, log_limit=20, wait_started=1_700_000_000.0, chat_limit=5, memo=memo
    )
    for v, w in zip(together, remembered, strict=True):
        assert msgspec.json.encode(v) == msgspec.json.encode(w)
    for seat, v in zip(seats, together, strict=True):
        alone = view(s, seat, log_limit=20, wait_started=1_700_000_000.0, chat_limit=5)
        assert msgspec.json.encode(v) == msgspec.json.encode(alone)
        assert v.seats == _seat_views(s, seat)  # card by card from the seat's own knowledge


@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(plan=plans())
def test_every_view_made_together_equals_the_view_made_alone(plan: Any) -> None:
    memo = LogMemo()
    play(plan, lambda step: check(step, memo))
    assert memo.viewers  # it was used


@settings(max_examples=4, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(plan=plans())
def test_a_memo_given_an_older_state_or_another_fold_of_the_log_starts_over(plan: Any) -> None:
    """The memo follows one line of states; an older state (its log shorter than what the memo
    saw) or the same log folded again (its own list) is no extension: the memo starts over,
    and the views are still the ones made without it."""
    states: list[Any] = []
    play(plan, lambda step: states.append(step.after))
    middle = len(states) // 2
    again = fold(list(states[-1].log))  # the same events, another fold: another log list
    memo = LogMemo()
    for s in [*states, *states[middle:], again]:
        seats: list[int | None] = [None, *range(len(s.seats))]
        fresh = views(s, seats, log_limit=7)
        remembered = views(s, seats, log_limit=7, memo=memo)
        for v, w in zip(fresh, remembered, strict=True):
            assert msgspec.json.encode(v) == msgspec.json.encode(w)
