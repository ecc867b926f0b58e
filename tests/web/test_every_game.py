"""Every registered game through the panel's API on the simulated board: it starts (with its
start position put on the board where it has one), its geometry is drawable, the first legal
action of the rules is taken by putting pieces down and answering the prompt with a number the
pad offers, and undo takes it back."""

from __future__ import annotations

import pytest
from flask.testing import FlaskClient

from sudoku_table.rules.actions import Move, Place
from sudoku_table.rules.game import all_variants, new_game

from .helpers import put

pytestmark = pytest.mark.integration

VARIANTS = [cls.id for cls in all_variants()]


def post(client: FlaskClient, path: str, body: dict) -> dict:
    response = client.post(path, json=body)
    assert response.status_code == 200, response.get_json()
    return response.get_json()  # type: ignore[no-any-return]


@pytest.mark.parametrize("variant", VARIANTS)
def test_every_game_starts_takes_its_first_action_and_undoes_it(
        client: FlaskClient, variant: str) -> None:
    geometry = client.get(f"/api/variants/{variant}").get_json()
    assert geometry["cells"] and set(geometry["coords"]) == set(geometry["cells"])
    view = post(client, "/api/game", {"variant": variant})
    while view["table"]["prompt"] and view["table"]["prompt"]["kind"] == "setup":
        view = put(client, view["table"]["prompt"]["square"])
    start = view["game"]
    assert start["variant"] == variant and not start["over"]

    record = client.get("/api/record").get_json()
    rules = new_game(variant, record["players"], record["options"])
    state = rules.initial_state(rules.parse_setup(record["setup"]) or None)
    first = next(iter(rules.legal_actions(state)))
    if isinstance(first, Place):
        view = put(client, first.cell)
        prompt = view["table"]["prompt"]
        assert prompt["kind"] == "number" and prompt["square"] == first.cell
        assert prompt["choices"] == rules.placeable_numbers(state, first.cell)
        assert first.number in prompt["choices"]
        view = post(client, "/api/input", {"type": "number", "square": first.cell,
                                           "number": first.number})
        assert view["game"]["cells"][first.cell]["number"] == first.number
        moved = [first.cell]
    else:
        assert isinstance(first, Move), first
        path = [c for c in first.path if c != "off"]
        view = put(client, path[0], False)
        for cell in path[1:]:
            view = put(client, cell)
            if cell != path[-1]:
                view = put(client, cell, False)
        assert path[0] not in view["game"]["cells"]
        moved = [path[0], path[-1]]
    assert view["game"]["to_move"] != start["to_move"] or view["game"].get("phase") == "blanks" \
        or rules.players == 1
    assert client.get("/api/record").get_json()["actions"] == [first.to_json()]

    view = post(client, "/api/input", {"type": "undo", "confirm": True})
    assert view["game"]["cells"] == start["cells"]
    assert view["game"]["to_move"] == start["to_move"]
    assert client.get("/api/record").get_json()["actions"] == []
    # The board now differs from the game: the table says which pieces to put right.
    assert {view["table"]["signals"].get(c) for c in moved} <= {"extra", "missing"}
    assert all(view["table"]["signals"].get(c) for c in moved)
