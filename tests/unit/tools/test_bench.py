"""tools.bench's measuring harness (the runs themselves are make bench's)."""

from __future__ import annotations

import gc

import pytest

from tools.bench import collections_paused


def test_the_load_generator_collects_no_garbage_while_it_measures_and_does_after():
    assert gc.isenabled()
    with collections_paused():
        assert not gc.isenabled()
        assert gc.get_freeze_count() > 0  # what was made before is never looked at again
    assert gc.isenabled() and gc.get_freeze_count() == 0
    with pytest.raises(RuntimeError), collections_paused():
        raise RuntimeError("a run that fails")
    assert gc.isenabled()  # collections resume whatever happened
