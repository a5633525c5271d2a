"""Settings from the environment: each field from GCBC_<FIELD>, typed by the field."""

from __future__ import annotations

import pytest

from services.common.settings import OPTIONS, Settings


def test_unset_variables_leave_the_defaults(monkeypatch):
    for name in Settings.__struct_fields__:
        monkeypatch.delenv(f"GCBC_{name.upper()}", raising=False)
    assert Settings.from_env() == Settings()
    assert Settings().options_offered == OPTIONS


def test_each_variable_is_read_as_its_fields_kind(monkeypatch):
    given = {
        "GCBC_PARTITIONS": "4",
        "GCBC_BOT_THINK": "0.5",
        "GCBC_ALLOW_SCENARIOS": "yes",
        "GCBC_HOUSE_ONLY_TABLES": "0",
        "GCBC_CORS_ORIGINS": "https://a.example, https://b.example,,",
        "GCBC_OPTIONS_OFFERED": "zombies,classic",
        "GCBC_RATE_CHAT": "",
        "GCBC_NATS_URL": "nats://elsewhere:4222",
    }
    for k, v in given.items():
        monkeypatch.setenv(k, v)
    s = Settings.from_env()
    assert (s.partitions, s.bot_think, s.allow_scenarios, s.house_only_tables) == (
        4,
        0.5,
        True,
        False,
    )
    assert s.cors_origins == ("https://a.example", "https://b.example")
    assert s.options_offered == ("zombies", "classic")
    assert (s.rate_chat, s.nats_url) == ("", "nats://elsewhere:4222")


@pytest.mark.parametrize(
    ("variable", "value"), [("GCBC_PARTITIONS", "many"), ("GCBC_OPTIONS_OFFERED", "chess")]
)
def test_a_value_not_of_its_kind_names_its_variable(monkeypatch, variable, value):
    monkeypatch.setenv(variable, value)
    with pytest.raises(ValueError, match=variable):
        Settings.from_env()
