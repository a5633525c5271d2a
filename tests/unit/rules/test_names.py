"""Seat names (``gcbc.rules.names``): kept normalised, the same when they look the same, the
house's names the house's alone."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from gcbc.rules import names
from gcbc.rules.state import house_bot_name

# the look-alikes of "ann" players sent: Cyrillic а, full width, a no-break space, padding, case
LOOK_ALIKES = ["ann", "\u0430nn", "ａｎｎ", "ann\u00a0", "  ann  ", "Ann", "ANN"]


@pytest.mark.parametrize(
    ("raw", "kept"),
    [
        ("ann", "ann"),
        ("  ann  ", "ann"),
        ("ann\u00a0", "ann"),
        ("ａｎｎ", "ann"),
        ("Zoë\u00a0\u00a0 Ray\t", "Zoë Ray"),
        ("a\u3000\u2003b", "a b"),  # ideographic and em spaces are spaces too
        ("Ａｎｎ　Ｌｅｅ", "Ann Lee"),
        ("\ufb01ona", "fiona"),  # the ligature is two letters
        ("Zoe\u0308", "Zoë"),  # composed
        ("\u00a0 \t", ""),
    ],
)
def test_a_name_is_kept_nfkc_trimmed_and_singly_spaced(raw, kept):
    assert names.normalise(raw) == kept


@given(st.text(max_size=60))
def test_normalising_twice_changes_nothing(raw):
    once = names.normalise(raw)
    assert names.normalise(once) == once
    assert once == once.strip() and "  " not in once


@pytest.mark.parametrize("other", LOOK_ALIKES)
def test_look_alikes_of_a_name_are_that_name(other):
    assert names.same("ann", names.normalise(other))


@pytest.mark.parametrize(
    ("a", "b"),
    [
        ("Olga", "\u039flga"),  # Greek capital omicron
        ("bob", "\u042c\u043eb"),  # Cyrillic soft sign and o
        ("Paul", "Pau1"),  # a one for an l
        ("Otto", "0tto"),  # a zero for an O
        ("Sepp", "\u0405\u0435\u0440\u0440"),  # all Cyrillic, all look-alikes
    ],
)
def test_letters_of_other_scripts_that_look_latin_collide(a, b):
    assert names.same(a, b)


@pytest.mark.parametrize(("a", "b"), [("ann", "anne"), ("Ann Lee", "AnnLee"), ("Zoë", "Zoe")])
def test_names_that_look_different_are_different(a, b):
    assert not names.same(a, b)


@pytest.mark.parametrize(
    "name",
    [
        house_bot_name(3),
        house_bot_name(0),
        house_bot_name(12),
        "house bot 3",
        "HOUSE BOT 3",
        "Housebot3",
        "House-bot #3",
        names.normalise("ＨＯＵＳＥ\u3000ｂｏｔ\u3000３"),
        names.normalise("House\u00a0bot  3"),
        "\u041d\u043eus\u0435 b\u043et 3",  # Cyrillic Н, о, е
        "House bot O",  # an O for the zero
    ],
)
def test_the_house_names_are_reserved_in_any_case_width_or_spacing(name):
    assert names.is_the_house(name)


@pytest.mark.parametrize("name", ["House", "House bot", "House bot 3 fan", "Housebot", "bot 3"])
def test_other_names_are_not_the_house(name):
    assert not names.is_the_house(name)


@pytest.mark.parametrize(
    ("name", "ok"),
    [
        ("a", True),
        ("x" * names.MAX_NAME, True),
        ("x" * (names.MAX_NAME + 1), False),
        ("", False),
        ("bell\a", False),
        ("zero\u200bwidth", False),  # invisible: two names would look alike and differ
        ("right\u202eleft", False),
        ("🙂", True),
    ],
)
def test_a_kept_name_is_1_to_40_printable_characters(name, ok):
    assert names.well_formed(name) is ok


def test_a_name_that_grows_past_40_when_normalised_is_too_long():
    raw = "\ufdfa" * 3  # one character each, eighteen once normalised
    assert len(raw) <= names.MAX_NAME and not names.well_formed(names.normalise(raw))
