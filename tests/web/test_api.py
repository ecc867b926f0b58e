"""The JSON API of docs/api.md through Flask's test client, on the real table and simulator."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from flask.testing import FlaskClient

from sudoku_table.rules.game import all_variants, new_game
from sudoku_table.table import Table
from sudoku_table.web import create_app

from ..waiting import until
from .helpers import place, put

pytestmark = pytest.mark.integration

EXAMPLES = Path(__file__).parent.parent / "data" / "examples"


def load_example(name: str) -> dict:
    return json.loads((EXAMPLES / f"{name}.json").read_text())


def test_variants_list_every_registered_game_with_its_description(client: FlaskClient) -> None:
    answer = client.get("/api/variants").get_json()
    assert [v["id"] for v in answer] == [cls.id for cls in all_variants()]
    for entry in answer:
        cls = next(c for c in all_variants() if c.id == entry["id"])
        assert entry["name"] == cls.name
        assert entry["players"] == [cls.min_players, cls.max_players]
        assert set(entry["options"]) == set(cls.option_defaults)
        for key, option in entry["options"].items():
            assert option["default"] == cls.option_defaults[key]
        assert entry["description"]


def test_variant_geometry_is_the_rules_geometry(client: FlaskClient) -> None:
    for cls in all_variants():
        answer = client.get(f"/api/variants/{cls.id}").get_json()
        expected = json.loads(json.dumps(new_game(cls.id).geometry.to_json()))
        assert answer.pop("drawing")["cells"]  # added: the board as drawn (test_drawing.py)
        assert answer == expected


def test_unknown_variant_is_a_404_naming_the_known_ones(client: FlaskClient) -> None:
    response = client.get("/api/variants/chess")
    assert response.status_code == 404
    assert "chess" in response.get_json()["error"]
    assert "vierer-dominari" in response.get_json()["error"]


def test_state_before_any_game_has_no_game(client: FlaskClient) -> None:
    view = client.get("/api/state").get_json()
    assert view["game"] is None
    assert view["table"]["occupied"] == []


def test_new_game_answers_the_view_with_player_names(client: FlaskClient) -> None:
    response = client.post("/api/game", json={"variant": "vierer-dominari",
                                              "names": ["Ada", ""]})
    assert response.status_code == 200
    view = response.get_json()
    assert view["game"]["variant"] == "vierer-dominari"
    assert view["game"]["to_move"] == 0
    assert view["player_names"] == ["Ada", "Black"]
    assert client.get("/api/state").get_json()["player_names"] == ["Ada", "Black"]


def test_a_piece_put_down_asks_for_its_number_with_the_legal_choices(
        client: FlaskClient) -> None:
    client.post("/api/game", json={"variant": "vierer-dominari"})
    place(client, "c3", 3)
    view = put(client, "d3")
    prompt = view["table"]["prompt"]
    assert prompt["kind"] == "number" and prompt["square"] == "d3"
    assert 3 not in prompt["choices"] and prompt["choices"] == [1, 2, 4, 5]
    assert view["table"]["signals"]["d3"] == "number"
    view = client.post("/api/input", json={"type": "number", "square": "d3",
                                           "number": 4}).get_json()
    assert view["game"]["cells"]["d3"] == {"owner": 1, "number": 4}
    assert view["game"]["to_move"] == 0


def test_an_illegal_number_is_shown_on_the_board_and_changes_no_game(
        client: FlaskClient) -> None:
    client.post("/api/game", json={"variant": "vierer-dominari"})
    place(client, "c3", 3)
    put(client, "d3")
    before = client.get("/api/state").get_json()
    response = client.post("/api/input", json={"type": "number", "square": "d3", "number": 3})
    view = response.get_json()
    assert view["game"] == before["game"]
    assert view["table"]["signals"] == {"d3": "illegal", "c3": "conflict"}
    assert "3 is already in" in view["table"]["message"]


def test_an_unusable_input_is_a_422_that_changes_nothing(client: FlaskClient) -> None:
    client.post("/api/game", json={"variant": "vierer-dominari"})
    place(client, "c3", 3)
    put(client, "d3")
    before = client.get("/api/state").get_json()
    response = client.post("/api/input", json={"type": "number", "square": "d3", "number": 9})
    assert response.status_code == 422
    assert "1 to 5" in response.get_json()["error"]
    after = client.get("/api/state").get_json()
    assert after["game"] == before["game"]
    assert after["table"]["prompt"] == before["table"]["prompt"]


@pytest.mark.parametrize("body, fragment", [
    ({"type": "teleport"}, "unknown type 'teleport' (one of number, blank"),
    ({"type": "number"}, "needs 'number'"),
    ({"type": "number", "number": "4"}, "whole number"),
    ({"type": "number", "number": 4, "square": "z9"}, "sensor square"),
    ({"type": "number", "number": 4, "colour": "red"}, "no field 'colour'"),
    ({"type": "blank"}, "needs 'square'"),
    ({"type": "hints", "on": "yes"}, "true or false"),
    ([1, 2], "JSON object"),
])
def test_malformed_inputs_are_400_with_a_clear_message(
        client: FlaskClient, body: object, fragment: str) -> None:
    client.post("/api/game", json={"variant": "vierer-dominari"})
    before = client.get("/api/state").get_json()
    response = client.post("/api/input", json=body)
    assert response.status_code == 400
    assert fragment in response.get_json()["error"]
    assert client.get("/api/state").get_json()["game"] == before["game"]


@pytest.mark.parametrize("body, status", [
    ({"variant": "chess"}, 400),
    ({"variant": "vierer-dominari", "players": 3}, 422),
    ({"variant": "vierer-dominari", "players": True}, 400),
    ({"variant": "vierer-dominari", "options": {"speed": 2}}, 422),
    ({"variant": "vierer-dominari", "options": []}, 400),
    ({"variant": "vierer-dominari", "hints": "on"}, 400),
    ({"variant": "vierer-dominari", "names": ["x" * 40]}, 400),
    ({"variant": "revers-dominari", "setup": {"q9": {"owner": 0, "number": 1}}}, 400),
    ({"variant": "revers-dominari", "setup": {"c3": {"owner": 0, "number": 9}}}, 422),
])
def test_a_bad_new_game_is_refused_and_keeps_the_running_game(
        client: FlaskClient, body: dict, status: int) -> None:
    client.post("/api/game", json={"variant": "vierer-dominari"})
    place(client, "c3", 3)
    before = client.get("/api/state").get_json()
    response = client.post("/api/game", json=body)
    assert response.status_code == status
    assert response.get_json()["error"]
    assert client.get("/api/state").get_json()["game"] == before["game"]


def test_input_without_a_game_is_a_clear_422(client: FlaskClient) -> None:
    response = client.post("/api/input", json={"type": "undo"})
    assert response.status_code == 422
    assert "no game" in response.get_json()["error"]


def test_undo_takes_back_the_last_action(client: FlaskClient) -> None:
    client.post("/api/game", json={"variant": "vierer-dominari"})
    place(client, "c3", 3)
    # It is Black's turn: taking back White's action is asked first.
    asked = client.post("/api/input", json={"type": "undo"})
    assert asked.status_code == 409
    assert asked.get_json()["confirm"] == "undo" and asked.get_json()["code"] == "confirm_undo"
    assert "White" in asked.get_json()["error"] and "3 on c3" in asked.get_json()["error"]
    assert client.get("/api/state").get_json()["game"]["cells"] != {}
    view = client.post("/api/input", json={"type": "undo", "confirm": True}).get_json()
    assert view["game"]["cells"] == {}
    assert view["table"]["signals"]["c3"] == "extra"
    assert view["table"]["can_redo"]
    view = client.post("/api/input", json={"type": "redo"}).get_json()
    assert view["game"]["cells"] == {"c3": {"owner": 0, "number": 3}}
    assert not view["table"]["can_redo"]


def test_record_follows_the_game(client: FlaskClient) -> None:
    assert client.get("/api/record").status_code == 404
    client.post("/api/game", json={"variant": "vierer-dominari"})
    place(client, "c3", 3)
    record = client.get("/api/record").get_json()
    assert record["variant"] == "vierer-dominari"
    assert record["actions"] == [{"type": "place", "cell": "c3", "number": 3}]
    download = client.get("/api/record?download=1")
    assert "attachment" in download.headers["Content-Disposition"]
    assert json.loads(download.data) == record


def test_a_whole_game_played_through_the_api_ends_as_its_record_says(
        client: FlaskClient) -> None:
    example = load_example("vierer-dominari-7-12")
    client.post("/api/game", json={"variant": "vierer-dominari"})
    for action in example["record"]["actions"]:
        view = place(client, action["cell"], action["number"])
    state = example["state"]
    assert view["game"]["over"] is True
    assert view["game"]["winners"] == state["winners"]
    assert view["game"]["cells"] == state["cells"]
    games = client.get("/api/games").get_json()
    assert len(games) == 1 and games[0]["variant"] == "vierer-dominari"
    assert games[0]["winners"] == state["winners"]
    record = client.get(f"/api/games/{games[0]['id']}/record").get_json()
    assert record["actions"] == example["record"]["actions"]
    download = client.get(f"/api/games/{games[0]['id']}/record?download=1")
    assert download.headers["Content-Disposition"].startswith("attachment")
    assert client.get("/api/games/999/record").status_code == 404


def test_sim_square_answers_404_without_a_simulated_board(table: Table) -> None:
    client = create_app(table, hardware=None, test_config={"TESTING": True}).test_client()
    response = client.post("/api/sim/square", json={"square": "c3", "occupied": True})
    assert response.status_code == 404
    assert "real sensors" in response.get_json()["error"]


@pytest.mark.parametrize("body, fragment", [
    ({"square": "c3"}, "the request needs 'occupied'"),
    ({"square": "j1", "occupied": True}, "sensor square"),
    ({"square": "c3", "occupied": 1}, "occupied must be true or false"),
    ({"square": "c3", "occupied": True, "force": 1}, "no field 'force'"),
])
def test_sim_square_refuses_bad_bodies(client: FlaskClient, body: dict, fragment: str) -> None:
    response = client.post("/api/sim/square", json=body)
    assert response.status_code == 400
    assert fragment in response.get_json()["error"]
    assert client.get("/api/state").get_json()["table"]["occupied"] == []


def test_setup_proposals_come_from_the_rules(client: FlaskClient) -> None:
    answer = client.get("/api/variants/revers-dominari/setup").get_json()
    expected = {c: p.to_json() for c, p in new_game("revers-dominari").default_setup().items()}
    assert answer == expected
    assert client.get("/api/variants/revers-dominari/setup?seed=x").status_code == 400


def test_table_info_and_brightness(client: FlaskClient, tmp_path: Path) -> None:
    info = client.get("/api/table").get_json()
    assert info["simulated"] is True and info["pin"] is False
    assert client.post("/api/table/brightness", json={"level": 0.25}).get_json() == {
        "brightness": 0.25}
    assert client.get("/api/table").get_json()["brightness"] == 0.25
    assert json.loads((tmp_path / "settings.json").read_text())["brightness"] == 0.25
    response = client.post("/api/table/brightness", json={"level": 2})
    assert response.status_code == 400
    assert client.get("/api/table").get_json()["brightness"] == 0.25
    test = client.post("/api/table/led-test", json={}).get_json()
    assert test["ok"] and len(test["squares"]) == 81 and test["step"] > 0


def test_legend_gives_every_signal_word_its_light(client: FlaskClient) -> None:
    legend = client.get("/api/legend").get_json()
    assert set(legend["signals"]) == {"illegal", "conflict", "flip", "number", "dead", "target",
                                      "missing", "extra", "setup", "last", "computer", "hint",
                                      "unsaved", "replayed", "better"}
    assert legend["signals"]["illegal"]["pattern"] == "blink_fast"
    assert len(legend["players"]) == 4


def test_the_table_sound_is_off_until_switched_on_and_kept(client: FlaskClient, hardware: Any,
                                                           tmp_path: Path) -> None:
    sound = client.get("/api/table").get_json()["sound"]
    assert sound == {"available": True, "on": False, "problem": None}
    answer = client.post("/api/table/sound", json={"on": True})
    assert answer.status_code == 200 and answer.get_json()["sound"]["on"] is True
    assert json.loads((tmp_path / "settings.json").read_text())["table_sound"] is True
    assert hardware.buzzer.idle() and list(hardware.buzzer.played) == ["turn"]  # a sign of life
    bad = client.post("/api/table/sound", json={"on": "yes"})
    assert bad.status_code == 400 and "on must be true or false" in bad.get_json()["error"]
    assert client.get("/api/table").get_json()["sound"]["on"] is True  # unchanged
    client.post("/api/table/sound", json={"on": False})
    assert client.get("/api/table").get_json()["sound"]["on"] is False


def test_the_table_sounds_through_the_whole_panel(tmp_path: Path) -> None:
    """Composed as `sudoku-table serve --sim` composes it: switched on, a new game's first
    turn reaches the simulated buzzer."""
    from sudoku_table.assembly import open_panel

    panel = open_panel(sim=True, data=tmp_path / "data", config_path=None)
    try:
        client = panel.app.test_client()
        assert client.post("/api/table/sound", json={"on": True}).status_code == 200
        buzzer = panel.hardware.buzzer
        assert buzzer.idle()
        buzzer.played.clear()
        assert until(lambda: panel.sounds.following)  # it looks at the switch once a second
        client.post("/api/game", json={"variant": "classic-sudoku", "players": 2})
        assert until(lambda: buzzer.played)
        assert list(buzzer.played) == ["turn"]
    finally:
        panel.close()


def test_a_computer_seat_is_started_played_and_kept_by_the_api(client: FlaskClient) -> None:
    view = client.post("/api/game", json={"variant": "vierer-dominari",
                                          "computers": {"0": "easy"}}).get_json()
    assert view["table"]["computers"] == {"0": "easy"}
    assert view["player_names"][0] == "Computer (easy)"
    panel = client.application.extensions["sudoku_table"]
    assert panel.table.wait_for_computer(30)
    view = client.get("/api/state").get_json()
    plan = view["table"]["plan"]
    assert view["table"]["next"]["code"] == "computer_place"
    assert view["table"]["signals"][plan["cell"]] == "computer"
    # Another number, or a number typed on the pad, is refused; the board move counts.
    refused = client.post("/api/input", json={"type": "number", "number": 1})
    assert refused.status_code == 422 and "computer's turn" in refused.get_json()["error"]
    view = client.post("/api/sim/square", json={"square": plan["cell"],
                                                "occupied": True}).get_json()
    assert view["game"]["cells"][plan["cell"]]["number"] == plan["number"]


@pytest.mark.parametrize(("computers", "status"), [
    ({"5": "easy"}, 422), ({"1": "expert"}, 422), (["easy"], 400), ("strong", 400)])
def test_bad_computer_seats_are_refused_with_a_reason(client: FlaskClient, computers: Any,
                                                      status: int) -> None:
    response = client.post("/api/game", json={"variant": "vierer-dominari",
                                              "computers": computers})
    assert response.status_code == status
    assert "computers" in response.get_json()["error"]
    assert client.get("/api/state").get_json()["game"] is None


def test_the_table_draws_the_computers_card_through_the_api(client: FlaskClient) -> None:
    view = client.post("/api/game", json={"variant": "classic-sudoku", "computers": {"0": "easy"},
                                          "computer_draws": True}).get_json()
    assert view["table"]["computer_draws"] is True
    assert view["table"]["message_code"]["code"] == "new_game_draws"
    panel = client.application.extensions["sudoku_table"]
    assert panel.table.wait_for_computer(30)
    view = client.get("/api/state").get_json()
    plan = view["table"]["plan"]
    assert view["table"]["next"]["code"] in ("computer_draw_place", "computer_draw_set_aside")
    assert view["table"]["next"]["params"]["number"] == plan["number"]
    told = client.post("/api/input", json={"type": "hand", "number": plan["number"]})
    assert told.status_code == 422 and "draws the computer's cards" in told.get_json()["error"]
    de = client.post("/api/input", json={"type": "hand", "number": plan["number"]},
                     headers={"Accept-Language": "de"})
    assert "zieht" in de.get_json()["error"]
    # A rematch keeps the choice: the view carries it for the panel to send again.
    again = client.post("/api/game", json={"variant": "classic-sudoku", "replace": True,
                                           "computers": view["table"]["computers"],
                                           "computer_draws": view["table"]["computer_draws"]})
    assert again.get_json()["table"]["computer_draws"] is True


@pytest.mark.parametrize(("body", "status", "words"), [
    ({"variant": "classic-sudoku", "computers": {"1": "easy"}, "computer_draws": "yes"}, 400,
     "computer_draws must be true or false"),
    ({"variant": "classic-sudoku", "computers": {"1": "easy"}, "computer_draws": 1}, 400,
     "computer_draws must be true or false"),
    ({"variant": "sudoku-family", "computers": {"1": "easy"}, "computer_draws": True}, 422,
     "pile of their own"),
    ({"variant": "halma-dominari", "computers": {"1": "easy"}, "computer_draws": True}, 422,
     "pile of their own"),
    ({"variant": "duell-der-meister", "computer_draws": True}, 422, "only for the computer"),
])
def test_bad_draw_choices_are_refused_with_a_reason(client: FlaskClient, body: dict[str, Any],
                                                    status: int, words: str) -> None:
    response = client.post("/api/game", json=body)
    assert response.status_code == status
    assert words in response.get_json()["error"]
    assert client.get("/api/state").get_json()["game"] is None


def test_a_hint_is_asked_worded_and_refused_when_hints_are_off(client: FlaskClient) -> None:
    client.post("/api/game", json={"variant": "vierer-dominari", "hints": False})
    off = client.post("/api/hint", json={})
    assert off.status_code == 422 and "switched off" in off.get_json()["error"]
    de = client.post("/api/hint", json={}, headers={"Accept-Language": "de"})
    assert "ausgeschaltet" in de.get_json()["error"]
    client.post("/api/game", json={"variant": "vierer-dominari", "hints": True,
                                   "replace": True})
    view = client.post("/api/hint", json={}).get_json()
    assert view["table"]["hint"]["status"] in ("thinking", "ready")
    assert client.application.extensions["sudoku_table"].table.wait_for_computer(30)
    view = client.get("/api/state").get_json()
    hint = view["table"]["hint"]
    assert hint["status"] == "ready" and hint["reasons"]
    assert view["table"]["signals"][hint["action"]["cell"]] == "hint"
    assert view["game"]["cells"] == {}, "a hint changes nothing"
    words = client.get("/api/i18n", headers={"Accept-Language": "de"}).get_json()
    assert words["codes"]["reasons"]["flips"] == "flips {count}"
    assert words["strings"]["flips {count}"] == "dreht {count} um"


def test_a_replaced_game_is_kept_unfinished_with_its_record(client: FlaskClient) -> None:
    """A new game over a running one is asked first, in words that say what happens (no word
    of a journal); confirmed, the running game is kept with its record as far as it went and
    listed among the games, marked unfinished. The export holds finished games only."""
    client.post("/api/game", json={"variant": "vierer-dominari", "names": ["Anna", "Ben"]})
    place(client, "c3", 3)
    place(client, "d3", 2)
    asked = client.post("/api/game", json={"variant": "classic-sudoku"},
                        headers={"Accept-Language": "de"})
    assert asked.status_code == 409
    for language in ("en", "de"):
        words = client.post("/api/game", json={"variant": "classic-sudoku"},
                            headers={"Accept-Language": language}).get_json()["error"]
        assert "journal" not in words.lower()
        assert ("unfinished" in words) if language == "en" else ("unvollendet" in words)
    assert client.get("/api/games").get_json() == []
    assert client.post("/api/game", json={"variant": "classic-sudoku",
                                          "replace": True}).status_code == 200
    games = client.get("/api/games").get_json()
    assert len(games) == 1
    kept = games[0]
    assert kept["unfinished"] is True and kept["variant"] == "vierer-dominari"
    assert kept["winners"] == [] and kept["names"] == ["Anna", "Ben"]
    record = client.get(f"/api/games/{kept['id']}/record").get_json()
    assert record["actions"] == [{"type": "place", "cell": "c3", "number": 3},
                                 {"type": "place", "cell": "d3", "number": 2}]
    assert record["names"] == ["Anna", "Ben"]
    assert client.get("/api/games/export?download=0").get_json()["games"] == []
    # A game with nothing played yet is replaced without a trace.
    client.post("/api/game", json={"variant": "revers-dominari", "replace": True})
    assert len(client.get("/api/games").get_json()) == 1


def test_each_read_of_the_finished_games_opens_one_connection_and_closes_it(
        client: FlaskClient, table: Table, monkeypatch: pytest.MonkeyPatch) -> None:
    """A page, a record and the whole list each read the journal on one connection of their
    own, closed before the answer is done (a second one, left open, was opened for each)."""
    import sqlite3

    from tests.table.test_archive import FINISHED, file_of

    table.finished.import_document(file_of(*FINISHED))
    game = client.get("/api/games?limit=1").get_json()["games"][0]["id"]
    connect = sqlite3.connect
    opened: list[sqlite3.Connection] = []

    def counted(*args: Any, **kwargs: Any) -> sqlite3.Connection:
        opened.append(connect(*args, **kwargs))
        return opened[-1]

    monkeypatch.setattr(sqlite3, "connect", counted)
    for path in ("/api/games?limit=3", f"/api/games/{game}/record", "/api/games"):
        opened.clear()
        response = client.get(path)
        assert response.status_code == 200 and json.loads(response.get_data(as_text=True))
        assert len(opened) == 1, path
        with pytest.raises(sqlite3.ProgrammingError):  # closed
            opened[0].execute("SELECT 1")


def test_undo_asks_naming_the_other_players_action_in_the_readers_language(
        client: FlaskClient) -> None:
    from sudoku_table.web.i18n import translate

    client.post("/api/game", json={"variant": "vierer-dominari", "names": ["Anna", "Ben"]})
    place(client, "c3", 3)
    asked = {language: client.post("/api/input", json={"type": "undo"},
                                   headers={"Accept-Language": language})
             for language in ("en", "de")}
    assert {r.status_code for r in asked.values()} == {409}
    assert asked["en"].get_json()["error"] == "It is Ben's turn: take back Anna's 3 on c3?"
    assert "3 auf c3" in asked["de"].get_json()["error"]
    off = {"type": "move", "path": ["c3", "off"]}
    assert translate("{action}", "de", action=off) == "c3 aus dem Spiel"
    assert translate("{action}", "en", action={"type": "move", "path": ["a1", "c3"]}) \
        == "a1 \u2192 c3"
