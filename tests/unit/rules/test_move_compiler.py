"""The compiler of the moves' declarations (``gcbc.rules.move_compiler``): the functions it writes
read as the declaration (that they equal the declaration read one value after another is tested in
``test_moves.py``, for every move)."""

from __future__ import annotations

from gcbc.rules.equipment.registry import CARDS


def test_the_compiled_options_read_as_the_declaration() -> None:
    source = CARDS["blackmail"]._options.source
    assert "for v3 in values_3:" in source and "positions=(v2, v3,)" in source
