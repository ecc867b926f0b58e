"""No input of any kind yields a 500, and a refused request changes nothing.

The attack run found three kinds of input that gave a 500: JSON nested 999 deep on every POST,
``?seed=²`` on the setup endpoint and ``{"square": "a٣"}`` (a digit of another script). Every
POST route of the app is tried here, so a route added later is covered without a change.
"""

from __future__ import annotations

from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from sudoku_table.rules.squares import is_square, parse_square
from sudoku_table.safejson import json_depth, parse_json

BAD_BODIES: list[tuple[str, bytes]] = [
    ("nested 999 deep", b"[" * 999 + b"]" * 999),
    ("objects nested 999 deep", b'{"a":' * 999 + b"1" + b"}" * 999),
    ("nested in a field", b'{"type": "number", "square": "a1", "number": ' + b"[" * 500
     + b"]" * 500 + b"}"),
    ("an integer of 5,000 digits", b'{"type": "number", "number": ' + b"9" * 5000 + b"}"),
    ("NaN", b'{"type": "number", "number": NaN}'),
    ("Infinity", b'{"level": Infinity}'),
    ("not UTF-8", b'{"variant": "\xff\xfe"}'),
    ("empty", b""),
    ("a bare string", b'"undo"'),
    ("a Unicode digit in a square", '{"type": "number", "square": "a٣", "number": 3}'.encode()),
    ("a Unicode digit on the simulated board", '{"square": "a٣", "occupied": true}'.encode()),
    ("a superscript digit in a square", '{"square": "b²", "occupied": true}'.encode()),
    ("a fullwidth file", '{"square": "ａ1", "occupied": true}'.encode()),
]


def post_routes(app: Flask) -> list[str]:
    routes = []
    for rule in app.url_map.iter_rules():
        if "POST" in (rule.methods or ()) and rule.rule.startswith("/api/"):
            routes.append(rule.rule.replace("<int:game_id>", "1").replace("<variant_id>", "kakuro"))
    return sorted(routes)


@pytest.mark.integration
def test_every_post_route_is_tried(app: Flask) -> None:
    assert {"/api/game", "/api/input", "/api/sim/square", "/api/table/brightness",
            "/api/table/led-test"} <= set(post_routes(app))


@pytest.mark.integration
@pytest.mark.parametrize(("name", "body"), BAD_BODIES, ids=[n for n, _ in BAD_BODIES])
def test_bad_bodies_get_a_clear_4xx_and_change_nothing(
        app: Flask, client: FlaskClient, name: str, body: bytes) -> None:
    client.post("/api/game", json={"variant": "vierer-dominari"})
    before = client.get("/api/state").get_json()
    for route in post_routes(app):
        response = client.post(route, data=body, content_type="application/json")
        assert 400 <= response.status_code < 500, (route, response.get_json())
        assert isinstance(response.get_json()["error"], str)
    assert client.get("/api/state").get_json() == before


@pytest.mark.integration
@pytest.mark.parametrize("query", ["seed=²", "seed=٣", "seed=-1", "seed=1e3", "seed=",
                                   "seed=1&seed=2", "seed=" + "9" * 40, "colour=red"])
def test_bad_query_parameters_are_a_400(client: FlaskClient, query: str) -> None:
    response = client.get(f"/api/variants/duell-der-meister/setup?{query}")
    assert response.status_code == 400, response.get_json()
    assert "query parameter" in response.get_json()["error"]


@pytest.mark.integration
def test_good_query_parameters_still_work(client: FlaskClient) -> None:
    assert client.get("/api/variants/duell-der-meister/setup?seed=12").status_code == 200
    client.post("/api/game", json={"variant": "vierer-dominari"})
    assert client.get("/api/record?download=1").status_code == 200
    assert client.get("/api/record?download=yes").status_code == 400
    assert client.get("/api/state?x=1").status_code == 400


@pytest.mark.parametrize("name", ["a٣", "a²", "ａ1", "a0", "j1", "a10", "A1", " a1", "", None, 11])
def test_square_names_are_ascii_only(name: Any) -> None:
    assert not is_square(name)
    with pytest.raises(ValueError):
        parse_square(name)


def test_parse_json_bounds() -> None:
    assert parse_json('{"a": [1, {"b": "[[[["}]}') == {"a": [1, {"b": "[[[["}]}
    assert json_depth('{"a": "\\"[[["}') == 1
    for text in ("[" * 9 + "]" * 9, "1" * 5000, "NaN", "-Infinity", "{"):
        with pytest.raises(ValueError):
            parse_json(text)
