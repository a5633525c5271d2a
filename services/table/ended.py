"""Views of finished tables whose views have expired from the read model, made here from their
folded logs as the projection made them (the projection stays the one writer of views), and kept
a while for their next readers."""

from __future__ import annotations

from collections import OrderedDict

from gcbc.readmodel.port import StoredView, encode_answers, viewer_key
from services.common import view_writer
from services.common.folded import FoldedTable


class EndedViews:
    # views kept: at most these many, in at most these many bytes
    KEEP, KEEP_BYTES = 1024, 32 << 20

    def __init__(self, view_limits: tuple[int | None, int | None]) -> None:
        """``view_limits``: the log entries and chat messages in a view (the projection's)."""
        self.view_limits = view_limits
        self._made: OrderedDict[tuple[str, int | None], StoredView] = OrderedDict()
        self._bytes = 0

    def kept(self, table_id: str, seat: int | None, stored: int) -> StoredView | None:
        """The view made before, if nothing was written of the table since (``stored``: the
        position the read model holds of it: a chat after the end leaves its position there)."""
        made = self._made.get((table_id, seat))
        if made is None or stored > made.position:
            return None
        self._made.move_to_end((table_id, seat))
        return made

    def made(self, t: FoldedTable, seat: int | None) -> StoredView:
        """The finished table's view for ``seat`` (None: the public one), as of ``t``."""
        key = (t.table_id, seat)
        made = self._made.get(key)
        if made is None or made.position != t.seq:
            data = view_writer.render_view(t, seat, *self.view_limits)
            recent = t.recent.get(viewer_key(seat))
            made = StoredView(t.seq, data, encode_answers(recent) if recent else None)
            old = self._made.pop(key, None)
            self._bytes += len(made.data) - (len(old.data) if old is not None else 0)
            self._made[key] = made
            while len(self._made) > 1 and (
                len(self._made) > self.KEEP or self._bytes > self.KEEP_BYTES
            ):
                _, dropped = self._made.popitem(last=False)
                self._bytes -= len(dropped.data)
        self._made.move_to_end(key)
        return made
