"""The web table's words (services/table/web/i18n/<lang>.json): one catalogue per language, each
with every key of the others and the same placeholders, holding every key the page's scripts
name and every word of the game a view can carry (cards, log entries, windows, teams...)."""

from __future__ import annotations

import json
import re
import typing
from pathlib import Path

import pytest

from gcbc_contract import fields, vocabulary
from gcbc_contract.cards import EQUIPMENT_CARDS, INTEGRITY_CARDS
from gcbc_contract.commands import CLIENT_COMMANDS
from gcbc_contract.log import ENTRY_TYPES
from services.table.problem_pages import CATALOGUE as PROBLEMS

WEB = Path(__file__).resolve().parents[3] / "services" / "table" / "web"
LANGUAGES = ("en", "it", "ja")
CATALOGUES = {
    lang: json.loads((WEB / "i18n" / f"{lang}.json").read_text("utf-8")) for lang in LANGUAGES
}
SCRIPTS = {p.name: p.read_text("utf-8") for p in WEB.glob("*.js") if p.name != "schema.js"}
NAMESPACES = {key.split(".")[0] for key in CATALOGUES["en"]}
PLACEHOLDER = re.compile(r"\{(\w+)\}")


def literal_keys() -> set[str]:
    """Every quoted string in the scripts that reads as a catalogue key (a known namespace, a dot)."""
    found = set()
    for text in SCRIPTS.values():
        for quoted in re.findall(r'"([a-z0-9_]+(?:\.[a-z0-9_]+)+)"', text):
            if quoted.split(".")[0] in NAMESPACES:
                found.add(quoted)
    return found


def words(literal: object) -> tuple[str, ...]:
    """The names a Literal (maybe inside Annotated) allows."""
    while typing.get_origin(literal) is typing.Annotated:
        literal = typing.get_args(literal)[0]
    return tuple(str(x) for x in typing.get_args(literal))


# the families of keys the scripts build from a view's words
FAMILIES = {
    "card": INTEGRITY_CARDS,
    "equipment": EQUIPMENT_CARDS,
    "equipment_text": EQUIPMENT_CARDS,
    "log": tuple(t.__struct_config__.tag for t in ENTRY_TYPES.values()),
    "window": words(vocabulary.WindowKind),
    "wait": words(vocabulary.WaitKind),
    "act": tuple(c.__struct_config__.tag for c in CLIENT_COMMANDS.values()),
    "means": words(vocabulary.SeenBy),
    # a seat's team, and the winners a game_won log entry names (both teams together too)
    "team": words(vocabulary.Team) + words(vocabulary.Winners),
    "end.team_won": words(vocabulary.Winners),
    "reason": words(vocabulary.WinReason) + words(vocabulary.CancelReason),
    "direction": words(vocabulary.Direction),
    "edition": words(vocabulary.Edition),
    "wounds": words(vocabulary.Wounds),
    "bot": words(vocabulary.BotKind),
    "icon": ("bomb", "knife"),
}


# the problems only a request the page never makes can meet (malformed, off the API's routes, a
# scenario's fields, a reused command id, a player's id): the page shows the server's own title
# for those
NOT_MET_BY_PLAYERS = {
    "malformed_request",
    "malformed_json",
    "json_too_deep",
    "duplicate_key",
    "invalid_parameter",
    "body_too_large",
    "unsupported_media_type",
    "method_not_allowed",
    "headers_too_large",
    "uri_too_long",
    "not_found",
    "http_error",
    "table_exists",
    "scenarios_not_allowed",
    "invalid_deal",
    "command_id_reused",
    "no_player",
}


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_language_has_every_key_with_the_same_placeholders(lang):
    english, other = CATALOGUES["en"], CATALOGUES[lang]
    assert sorted(set(english) - set(other)) == [], f"missing in {lang}"
    assert sorted(set(other) - set(english)) == [], f"only in {lang}"
    for key, text in english.items():
        assert set(PLACEHOLDER.findall(other[key])) == set(PLACEHOLDER.findall(text)), (lang, key)
        assert other[key].strip(), (lang, key)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_key_the_scripts_name_is_in_the_catalogue(lang):
    missing = sorted(literal_keys() - set(CATALOGUES[lang]))
    assert missing == [], f"used in the scripts, absent from {lang}.json: {missing}"


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_word_of_the_game_has_its_text(lang):
    catalogue = CATALOGUES[lang]
    missing = sorted(
        f"{family}.{word}"
        for family, names in FAMILIES.items()
        for word in names
        if f"{family}.{word}" not in catalogue
    )
    assert missing == [], missing
    prompts = [k for k in words(fields.PromptKind) if k != "discard"]
    assert all(f"equipment.{k}" in catalogue for k in prompts)  # a prompt is named by its card


def test_the_scan_finds_keys_in_every_script():
    # a guard on the scan itself: a renamed call would otherwise pass with nothing checked
    assert {"lobby.title", "cmd.arm", "log.title", "bar.your_turn", "end.title"} <= literal_keys()
    assert len(SCRIPTS) >= 5 and all(len(t.splitlines()) < 500 for t in SCRIPTS.values())


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_problem_a_player_can_meet_is_told_in_words(lang):
    assert NOT_MET_BY_PLAYERS <= set(PROBLEMS)  # a renamed code is not left out unseen
    missing = sorted(f"problem.{code}" for code in set(PROBLEMS) - NOT_MET_BY_PLAYERS)
    missing = [key for key in missing if key not in CATALOGUES[lang]]
    assert missing == [], missing
    told = {key.removeprefix("problem.") for key in CATALOGUES[lang] if key.startswith("problem.")}
    assert sorted(told - set(PROBLEMS) - {"unknown"}) == []  # no text for a code that is gone
