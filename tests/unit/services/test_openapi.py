"""The generated OpenAPI document tells a client generator the truth: typed
bodies for every success, problem+json for every error status with its codes, the bearer scheme,
commands as a union on `type` without `seat`, and examples. (Schemathesis checks real responses
against it: tests/e2e/test_schema_fuzz.py.)"""

from __future__ import annotations

import asyncio
from typing import get_args

import msgspec
import pytest

from gcbc_contract import commands as C
from gcbc_contract.cards import EQUIPMENT_CARDS
from gcbc_contract.fields import PromptKind
from services.common.settings import Settings
from services.table.app import create_app
from services.table.openapi import PROBLEM_CODES
from services.table.problem_pages import CATALOGUE
from services.table.vocabularies import VOCABULARIES


@pytest.fixture(scope="module")
def schema() -> dict:
    return create_app(Settings()).openapi_schema.to_schema()


def _ref(response: dict) -> str:
    content = response["content"]
    media = next(iter(content.values()))
    return media["schema"].get("$ref", "") or str(media["schema"])


def test_every_success_is_typed_and_views_are_views(schema):
    paths = schema["paths"]
    assert _ref(paths["/tables/{table_id}"]["get"]["responses"]["200"]).endswith("/View")
    assert _ref(paths["/tables/{table_id}/view"]["get"]["responses"]["200"]).endswith("/View")
    command = paths["/tables/{table_id}/commands"]["post"]["responses"]
    assert _ref(command["200"]).endswith("/View") and _ref(command["202"]).endswith("/Position")
    assert _ref(paths["/tables"]["post"]["responses"]["201"]).endswith("/TableCreated")
    assert _ref(paths["/tables/{table_id}/history"]["get"]["responses"]["200"]).endswith("/History")
    assert "LobbyListing" in str(paths["/tables"]["get"]["responses"]["200"])
    export = paths["/players/{player_id}/games/export"]["get"]["responses"]["200"]["content"]
    assert export["application/x-ndjson"]["schema"]["$ref"].endswith("/PlayedGame")
    for path, operations in paths.items():
        for method, op in operations.items():
            for status, response in op["responses"].items():
                if status.startswith(("2",)) and status != "204" and "stream" not in path:
                    assert "string" not in _ref(response), (method, path, status)
                    # JSON, or JSON lines whose schema is one line's struct
                    media = set(response["content"])
                    assert media in ({"application/json"}, {"application/x-ndjson"}), (path, media)
                    if media == {"application/x-ndjson"}:
                        assert _ref(response).startswith("#/components/schemas/"), (path, status)
                if status.startswith(("4", "5")):
                    assert "application/problem+json" in response["content"], (path, status)
                    assert "`code`" in response["description"], (path, status)


def test_commands_are_a_union_on_type_without_seat_with_an_example_each(schema):
    components = schema["components"]["schemas"]
    body = schema["paths"]["/tables/{table_id}/commands"]["post"]["requestBody"]
    tags = {c.__struct_config__.tag for c in C.GameCommand.__args__}
    command = body["content"]["application/json"]["schema"]
    assert {e["type"] for e in command["examples"]} == tags
    assert command["discriminator"]["propertyName"] == "type"
    assert set(command["discriminator"]["mapping"]) == tags
    for command in C.GameCommand.__args__:
        component = components[command.__name__]
        assert "seat" not in component["properties"], command.__name__
        assert component["properties"]["type"]["const"] == command.__struct_config__.tag


def test_the_bearer_scheme_is_declared_and_used(schema):
    assert schema["components"]["securitySchemes"]["bearer"]["scheme"] == "bearer"
    assert {"bearer": []} in schema["paths"]["/tables/{table_id}/commands"]["post"]["security"]


def test_a_card_position_is_documented_as_1_to_3(schema):
    """RULES §1: a seat's cards lie in positions 1 to 3, so any other can never be valid (422):
    every command field naming a position says so."""
    components = schema["components"]["schemas"]
    for name in ("Investigate", "Equip", "Arm", "PlayEquipment", "Choose"):
        position = components[name]["properties"]["position"]
        assert (position["minimum"], position["maximum"]) == (1, 3), name
    for name in ("Arrange", "PlayEquipment"):
        assert "each 1 to 3" in components[name]["properties"]["positions"]["description"], name


def test_operations_are_grouped_by_tag_and_named_as_a_client_calls_them(schema):
    """A generator groups operations by their tag and names each by its operationId: every
    operation has one of the document's tags and a snake_case name, each name once."""
    tags = {t["name"] for t in schema["tags"]}
    assert tags == {"lobby", "seats", "play", "views", "history", "players", "queue", "problems"}
    names = []
    for path, operations in schema["paths"].items():
        for method, op in operations.items():
            assert len(op["tags"]) == 1 and op["tags"][0] in tags, (method, path)
            assert op["operationId"].replace("_", "").isalpha(), op["operationId"]
            assert op["operationId"].islower(), op["operationId"]
            names.append(op["operationId"])
    assert len(names) == len(set(names))
    ops = {(m, p): op["operationId"] for p, o in schema["paths"].items() for m, op in o.items()}
    assert ops[("post", "/tables/{table_id}/commands")] == "send_command"
    assert ops[("get", "/tables/{table_id}/view")] == "seat_view"


def test_legal_commands_are_the_commands_union_with_templates_described(schema):
    components = schema["components"]["schemas"]
    items = components["View"]["properties"]["legal_commands"]["items"]
    listed = {ref["$ref"].rsplit("/", 1)[1] for ref in items["oneOf"]}
    assert {"Investigate", "Pass", "PlayEquipmentOffered"} <= listed
    assert not listed & {"SetAutoPass", "Resume", "PlayEquipment"}
    choose = components["PlayEquipmentOffered"]["properties"]["choose"]
    assert "template" in str(choose)
    assert components["View"]["properties"]["must_act"]["type"] == "boolean"


def _properties(schema: dict):
    for name, component in schema["components"]["schemas"].items():
        for field, prop in component.get("properties", {}).items():
            yield name, field, prop


def test_every_field_of_every_component_is_described(schema):
    """The schema documents itself: every property says what it means to a client."""
    undescribed = [
        f"{name}.{field}"
        for name, field, prop in _properties(schema)
        if not str(prop.get("description", "")).strip()
    ]
    assert not undescribed, undescribed


def test_closed_vocabularies_are_one_component_each_and_nullable_ones_a_ref_and_null(schema):
    """A generator makes one type per vocabulary: no field spells a vocabulary's values inline,
    and ``X | None`` is ``oneOf [$ref, null]`` (never an enum with null in it)."""
    components = schema["components"]["schemas"]
    vocabularies = {name for name, _ in VOCABULARIES.values()} | {"ProblemCode"}
    assert vocabularies <= set(components)
    for name in vocabularies:
        assert components[name]["enum"] and components[name]["description"], name
    text = msgspec.json.encode(schema["components"]["schemas"]).decode()
    for name, field, prop in _properties(schema):
        assert "enum" not in msgspec.json.encode(prop).decode(), (name, field)
    assert '"enum":[' in text  # the components themselves
    view = components["View"]["properties"]
    assert view["win_team"]["oneOf"] == [
        {"$ref": "#/components/schemas/Winners"},
        {"type": "null"},
    ]
    card = components["CardView"]["properties"]["card"]["oneOf"][0]
    assert card == {"$ref": "#/components/schemas/IntegrityCard"}
    codes = set(components["ProblemCode"]["enum"])
    assert {c for listed in PROBLEM_CODES.values() for c in listed} <= codes
    # every code the server can send (its catalogue's), those no operation lists among them
    assert codes == set(CATALOGUE)
    assert components["Problem"]["properties"]["code"]["allOf"] == [
        {"$ref": "#/components/schemas/ProblemCode"}
    ]


def test_prompt_kinds_are_the_cards_that_ask_and_discard():
    """Every prompt kind names an equipment card (or discard: the hand limit)."""
    kinds = set(get_args(PromptKind))
    assert "discard" in kinds and kinds - {"discard"} <= set(EQUIPMENT_CARDS)


def test_every_request_body_has_an_example_and_the_stream_says_what_its_events_carry(schema):
    for path, operations in schema["paths"].items():
        for method, op in operations.items():
            if "requestBody" in op:
                body = op["requestBody"]["content"]["application/json"]["schema"]
                assert body.get("examples"), (method, path)
    stream = schema["paths"]["/tables/{table_id}/stream"]["get"]["responses"]["200"]
    assert "`id: <version>`" in stream["description"] and "`data:" in stream["description"]
    example = next(iter(stream["content"]["text/event-stream"]["examples"].values()))["value"]
    assert example.startswith("id: ") and "\r\ndata: {" in example


def test_the_json_and_yaml_documents_are_rendered_once_per_app(monkeypatch, schema):
    from types import SimpleNamespace

    import services.table.apidocs as apidocs

    renders: list[str] = []
    for plugin in (apidocs.YamlRenderPlugin, apidocs.JsonRenderPlugin):
        real = plugin.render

        def counted(self, request, document, real=real):  # type: ignore[no-untyped-def]
            renders.append(type(self).__name__)
            return real(self, request, document)

        monkeypatch.setattr(plugin, "render", counted)
    request = SimpleNamespace(route_handler=SimpleNamespace(resolve_type_encoders=lambda: None))
    yaml, json = apidocs.YamlDocument(), apidocs.JsonDocument()
    first = yaml.render(request, schema)  # type: ignore[arg-type]
    assert first.startswith(b"components:") and b"openapi:" in first
    assert yaml.render(request, schema) is first  # type: ignore[arg-type]
    assert msgspec.json.decode(json.render(request, schema)) == msgspec.json.decode(  # type: ignore[arg-type]
        json.render(request, schema)  # type: ignore[arg-type]
    )
    assert renders == ["YamlDocument", "JsonDocument"]
    one, another = apidocs.plugins(), apidocs.plugins()  # each app its own
    assert [type(p) for p in one[1:]] == [apidocs.JsonDocument, apidocs.YamlDocument]
    assert not set(map(id, one)) & set(map(id, another))


def test_the_documents_are_rendered_as_the_app_starts_as_a_request_would_render_them(schema):
    """Before: the first GET /schema/openapi.yaml after a start rendered it on the event loop
    (half a second of PyYAML for everyone). They are rendered off the loop as the app starts,
    byte for byte as Litestar renders them for a request."""
    from litestar.testing import TestClient

    import services.table.apidocs as apidocs

    app = create_app(Settings())
    client = TestClient(app)  # (its lifespan not run: the documents are rendered on request)
    by_request = {name: client.get(f"/schema/openapi.{name}").content for name in ("json", "yaml")}
    plugins = apidocs.plugins()
    asyncio.run(apidocs.prepare(plugins, app.openapi_schema.to_schema()))
    prepared = {type(p).__name__: p._made for p in plugins[1:]}
    assert prepared == {"JsonDocument": by_request["json"], "YamlDocument": by_request["yaml"]}
