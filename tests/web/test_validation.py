"""Request shapes come from the OpenAPI document alone, and every refusal is worded in both
languages.

``validation`` compiles each operation's ``requestBody`` schema and query parameters from
``openapi.yaml``; these tests take a field out of a copy of the document and see the panel
refuse it, drive every sentence the validator can say in English and in German, and check the
document's lists against the code that acts on them.
"""

from __future__ import annotations

import copy
from pathlib import Path
from typing import Any

import pytest
from babel.messages.extract import extract_from_file
from flask import Flask
from flask.testing import FlaskClient

from sudoku_table import power
from sudoku_table.web import i18n, palette, validation
from sudoku_table.web.api import openapi_document
from sudoku_table.web.errors import ApiError

SOURCE = Path(validation.__file__)

# (route, body, the English the answer must hold)
CASES: list[tuple[str, Any, str]] = [
    ("/api/input", [1, 2], "the request body must be a JSON object"),
    ("/api/input", {"type": "number", "number": 4, "colour": "red"},
     "the request has no field 'colour' (fields: number, pin, square, type, version)"),
    ("/api/input", {"type": "blank"}, "the request needs 'square'"),
    ("/api/game", {"variant": "classic-sudoku", "setup": {"a1": {"number": 3}}},
     "setup.a1 needs 'owner'"),
    ("/api/table/speech", {}, "the request needs one of on, volume, language"),
    ("/api/input", {"type": "teleport"}, "unknown type 'teleport' (one of number, blank,"),
    ("/api/game", {"variant": "classic-sudoku", "setup": {"z9": {"owner": 0, "number": 3}}},
     "setup cannot have the key 'z9'"),
    ("/api/game", {"variant": "classic-sudoku",
                   "computers": {"0": "easy", "1": "easy", "2": "easy", "3": "easy",
                                 "4": "easy"}},
     "computers can hold at most 4 entries"),
    ("/api/game", {"variant": "classic-sudoku", "colors": ["#cc3311", "#cc3311"]},
     "colors cannot hold the same value twice, got ['#cc3311', '#cc3311']"),
    ("/api/input", {"type": "number", "number": 4, "square": "z9"},
     "square must be a sensor square a1..i9, got 'z9'"),
    ("/api/hint", {"pin": 4711}, "pin must be the table's PIN as text of at most 12 digits"),
    ("/api/table/speech", {"language": "fr"}, "language must be one of en, de, got 'fr'"),
    ("/api/sim/square", {"square": "c3", "occupied": 1},
     "occupied must be true or false, got 1"),
    ("/api/input", {"type": "number", "number": "4"},
     "number must be a whole number from 0 to 99, got '4'"),
    ("/api/table/brightness", {"level": 1.5}, "level must be a number from 0 to 1, got 1.5"),
    ("/api/game", {"variant": "classic-sudoku", "setup": {"a1": {"owner": 0, "number": "x"}}},
     "setup.a1.number must be a whole number, got 'x'"),
    ("/api/game", {"variant": "classic-sudoku", "names": ["Anna", "B" * 25]},
     "names[1] must be text of at most 24 characters, spaces around it aside"),
    ("/api/game", {"variant": "classic-sudoku", "computers": {"1": "s" * 17}},
     "computers.1 must be text of at most 16 characters"),
    ("/api/game", {"variant": 5}, "variant must be text, got 5"),
    ("/api/game", {"variant": "classic-sudoku", "names": "Anna"},
     "names must be a list of at most 4 items, got 'Anna'"),
    ("/api/game", {"variant": "classic-sudoku", "options": 5},
     "options must be an object, got 5"),
]
QUERIES: list[tuple[str, str]] = [
    ("/api/state?x=1", "unknown query parameter 'x' (parameters: none)"),
    ("/api/variants/duell-der-meister/setup?seed=1&seed=2",
     "the query parameter 'seed' is given more than once"),
    ("/api/variants/duell-der-meister/setup?seed=%C2%B2",
     "the query parameter seed has a bad value"),
]
UNUSED = {"{name} has a bad value {value}"}
"""Said for a schema keyword the document's requests do not use yet."""


def _templates_said(app: Flask) -> set[str]:
    said = set()
    for route, body, _ in CASES:
        with app.test_request_context(route, method="POST", json=body):
            with pytest.raises(ApiError) as refused:
                validation.json_body()
            said.add(refused.value.template)
    for url, _ in QUERIES:
        with app.test_request_context(url), pytest.raises(ApiError) as refused:
            validation.query()
        said.add(refused.value.template)
    return said


@pytest.mark.integration
def test_every_sentence_of_the_validator_is_said_by_a_case(app: Flask) -> None:
    written = {m[1] for m in extract_from_file("python", str(SOURCE), keywords={"N_": None})}
    assert _templates_said(app) == written - UNUSED


@pytest.mark.integration
@pytest.mark.parametrize(("route", "body", "english"), CASES, ids=[c[2][:40] for c in CASES])
def test_a_refused_body_is_worded_in_both_languages(client: FlaskClient, route: str, body: Any,
                                                    english: str) -> None:
    before = client.get("/api/state").get_json()
    answer = client.post(route, json=body)
    assert answer.status_code == 400 and english in answer.get_json()["error"]
    german = client.post(route, json=body, headers={"Accept-Language": "de"}).get_json()["error"]
    assert german != answer.get_json()["error"]
    assert client.get("/api/state").get_json() == before


@pytest.mark.integration
@pytest.mark.parametrize(("url", "english"), QUERIES, ids=[q[1][:40] for q in QUERIES])
def test_a_refused_query_is_worded_in_both_languages(client: FlaskClient, url: str,
                                                     english: str) -> None:
    answer = client.get(url)
    assert answer.status_code == 400 and english in answer.get_json()["error"]
    german = client.get(url, headers={"Accept-Language": "de"}).get_json()["error"]
    assert "Abfrageparameter" in german


@pytest.mark.integration
def test_every_sentence_has_its_german(app: Flask) -> None:
    german = i18n.catalog("de")
    for template in _templates_said(app) | UNUSED:
        assert german.get(template) and german[template] != template, template


def _app_with(document: dict[str, Any], app: Flask) -> FlaskClient:
    app.extensions["sudoku_table_shapes"] = validation.Shapes.from_document(document)
    return app.test_client()


@pytest.mark.integration
def test_a_field_the_document_lacks_is_refused(app: Flask) -> None:
    """The document is the one source: take ``hints`` out of its new game, and the panel
    refuses a new game with hints, naming the field."""
    document = copy.deepcopy(openapi_document())
    del document["components"]["schemas"]["NewGame"]["properties"]["hints"]
    client = _app_with(document, app)
    answer = client.post("/api/game", json={"variant": "classic-sudoku", "hints": True})
    assert answer.status_code == 400
    assert "the request has no field 'hints'" in answer.get_json()["error"]
    assert client.get("/api/state").get_json()["game"] is None
    assert client.post("/api/game", json={"variant": "classic-sudoku"}).status_code == 200


@pytest.mark.integration
def test_a_query_parameter_the_document_lacks_is_refused(app: Flask) -> None:
    document = copy.deepcopy(openapi_document())
    document["paths"]["/api/variants/{variant_id}/setup"]["get"]["parameters"] = [
        {"$ref": "#/components/parameters/VariantId"}]
    client = _app_with(document, app)
    answer = client.get("/api/variants/duell-der-meister/setup?seed=12")
    assert answer.status_code == 400
    assert "unknown query parameter 'seed'" in answer.get_json()["error"]


@pytest.mark.integration
def test_every_post_route_refuses_a_field_it_does_not_know(client: FlaskClient,
                                                           app: Flask) -> None:
    for rule in app.url_map.iter_rules():
        if "POST" not in (rule.methods or ()) or rule.rule == "/api/games/import":
            continue
        route = rule.rule.replace("<int:game_id>", "1").replace("<int:seat>", "0")
        answer = client.post(route, json={"surprise": 1})
        assert answer.status_code == 400, route
        assert "'surprise'" in answer.get_json()["error"], (route, answer.get_json())


@pytest.mark.integration
@pytest.mark.parametrize("body", [
    {"type": "number", "square": "a1\n", "number": 3},  # "$" of a pattern ends the text
    {"type": "number", "square": "a1", "number": 3.0},  # a whole number is written as one
    {"type": "hints", "on": 1},
    {"type": "undo", "confirm": "yes"},
    {"type": "number", "number": 3, "version": -1},
])
def test_the_shape_is_as_strict_as_the_hand_written_checks(client: FlaskClient,
                                                          body: dict[str, Any]) -> None:
    client.post("/api/game", json={"variant": "classic-sudoku"})
    before = client.get("/api/state").get_json()
    assert client.post("/api/input", json=body).status_code == 400
    assert client.get("/api/state").get_json() == before


@pytest.mark.integration
def test_names_are_trimmed_and_the_table_gets_no_pin(client: FlaskClient) -> None:
    """A name is at most 24 characters once the spaces around it are trimmed, as before."""
    padded = "  " + "A" * 24 + "\t "
    view = client.post("/api/game", json={"variant": "classic-sudoku", "players": 2,
                                          "names": [padded, "Ben\n"], "pin": ""}).get_json()
    assert view["player_names"][:2] == ["A" * 24, "Ben"]
    long = client.post("/api/game", json={"variant": "classic-sudoku", "replace": True,
                                          "names": [" " + "A" * 25]})
    assert long.status_code == 400 and "names[0]" in long.get_json()["error"]


def test_the_document_lists_what_the_code_acts_on() -> None:
    schemas = openapi_document()["components"]["schemas"]
    assert schemas["NewGame"]["properties"]["colors"]["items"]["enum"] == list(palette.CHOICES)
    body = openapi_document()["paths"]["/api/table/power"]["post"]["requestBody"]
    action = body["content"]["application/json"]["schema"]["properties"]["action"]
    assert action["enum"] == list(power.ACTIONS)
    speech = openapi_document()["paths"]["/api/table/speech"]["post"]["requestBody"]
    language = speech["content"]["application/json"]["schema"]["properties"]["language"]
    assert language["enum"] == list(i18n.LANGUAGES)


@pytest.mark.integration
def test_the_document_is_compiled_once_for_every_app(app: Flask) -> None:
    assert app.extensions["sudoku_table_shapes"] is validation.compiled()
