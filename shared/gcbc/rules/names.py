"""Seat names (1 to 40 printable characters). A name is kept normalised, so a view shows it as
everyone reads it; two names at a table are the same when they look the same (whatever
their case, width, spacing or script: ``ann``, ``Ann``, ``ａｎｎ`` and Cyrillic ``аnn`` are one
name); and the house's names (``House bot 3``) are the house's alone."""

from __future__ import annotations

import re
import unicodedata
from functools import lru_cache

import disarm

from gcbc.rules.state import HOUSE_BOT

MAX_NAME = 40


def normalise(raw: str) -> str:
    """NFKC (full-width and styled letters as the plain ones), then every run of whitespace (any
    Unicode space, a no-break one too) as one space, none at either end."""
    return " ".join(unicodedata.normalize("NFKC", raw).split())


@lru_cache(maxsize=4096)  # a seat's name is compared again at every newcomer to its table
def look(name: str) -> str:
    """What a name looks like: its Unicode TR39 skeleton (confusables.txt), case folded, with
    ``1``/``l`` and ``0``/``o`` as one, whitespace collapsed; equal looks are the same name."""
    return disarm.skeleton_key(name, digit_policy="tr39")


def _letters(look: str) -> str:
    # the house's names are refused however they are spaced or punctuated
    return "".join(ch for ch in look if ch.isalnum())


_HOUSE = re.compile(
    re.escape(_letters(look(HOUSE_BOT)))
    + "(?:"
    + "|".join(sorted({re.escape(look(d)) for d in "0123456789"}))
    + ")+"
)


def well_formed(name: str) -> bool:
    """A normalised name has 1 to MAX_NAME printable characters, some of them visible."""
    return 0 < len(name) <= MAX_NAME and name.isprintable() and bool(look(name))


def is_the_house(name: str) -> bool:
    """Whether the name reads as one of the house's (``House bot <n>``)."""
    return _HOUSE.fullmatch(_letters(look(name))) is not None


def same(a: str, b: str) -> bool:
    return look(a) == look(b)
