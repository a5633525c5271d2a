"""A finished table as its players' histories list it: every seat as the end revealed it."""

from __future__ import annotations

from datetime import UTC, datetime

from gcbc.rules.teams import true_team
from gcbc_contract.players import GameSeat, PlayedGame
from services.common.folded import FoldedTable


def game_of(t: FoldedTable, finished_at: float) -> PlayedGame | None:
    """A finished table as every seat's game (``seat`` and its result filled per player later);
    None for one that closed before its game began."""
    s = t.state
    if s.step != "finished" or (s.win_reason or "").startswith("closed"):
        return None
    winners = set(s.winners or ())
    seats = []
    for i, st in enumerate(s.seats):
        if st is None:
            continue
        seats.append(
            GameSeat(
                seat=i,
                name=st.name,
                bot=st.bot or (s.house_bots is not None and i in s.house_bots.seats),
                player=t.players.get(i),
                team=true_team(s, i),  # type: ignore[arg-type]
                eliminated=st.eliminated,
                won=i in winners,
            )
        )
    return PlayedGame(
        table_id=t.table_id,
        finished_at=datetime.fromtimestamp(finished_at, UTC).isoformat(timespec="seconds"),
        options=s.options,
        seat=-1,
        team=None,
        won=False,
        win_team=s.win_team,  # type: ignore[arg-type]
        win_reason=s.win_reason,  # type: ignore[arg-type]
        seats=seats,
        history_url=f"/tables/{t.table_id}/history",
    )
