"""``GET /api/say``: questions answered in the request's language, for the device that asks; a
bad question refused with a clear 400 that changes nothing; ``speak=1`` said by the table's
speaker, never with what only one seat may know."""

from __future__ import annotations

from typing import Any

import pytest
from flask.testing import FlaskClient

from .helpers import place
from .test_seats import _as, _kosmos, _phone

pytestmark = pytest.mark.integration


def _say(client: FlaskClient, language: str = "en", headers: dict[str, str] | None = None,
         **query: str) -> Any:
    return client.get("/api/say", query_string=query,
                      headers={"Accept-Language": language, **(headers or {})})


def _text(client: FlaskClient, language: str = "en", **query: str) -> str:
    answer = _say(client, language, **query)
    assert answer.status_code == 200, answer.get_json()
    return str(answer.get_json()["text"])


def test_every_question_is_answered_in_english_and_german(client: FlaskClient) -> None:
    client.post("/api/game", json={"variant": "classic-sudoku", "players": 2,
                                   "names": ["Anna", "Ben"]})
    client.post("/api/sim/clear", json={})
    place(client, "c3", 5)
    assert _text(client, q="square", square="c3").startswith("c3: Anna's 5")
    assert _text(client, "de", q="square", square="c3").startswith("c3: die 5 von Anna")
    assert _text(client, q="rank", rank="3").startswith("Rank 3: c3 Anna's 5; empty: a3")
    assert _text(client, "de", q="file", file="c").startswith("Spalte c: c3 die 5 von Anna")
    assert _text(client, q="block", square="b2").startswith("Block a1: c3 Anna's 5")
    assert "5" not in _text(client, q="may", square="c9").split("take")[1]
    assert "c1" not in _text(client, q="where", number="5")
    assert _text(client, q="scores").startswith("Scores: Anna ")
    assert _text(client, q="now") == "Ben's turn: put a piece down, then tap its number."
    assert _text(client, "de", q="now").startswith("Ben ist dran: ")
    assert _text(client, q="repeat").startswith("Anna: 5 on c3")


def test_before_a_game_the_answer_says_there_is_none(client: FlaskClient) -> None:
    assert _text(client, q="scores") == "No game is running: start one on the New game page."


@pytest.mark.parametrize("query", [
    {}, {"q": "colour"}, {"q": "square"}, {"q": "square", "square": "j1"},
    {"q": "square", "square": "c3", "rank": "4"}, {"q": "rank", "rank": "0"},
    {"q": "file", "file": "abc"}, {"q": "where", "number": "10"}, {"q": "now", "speak": "2"},
    {"q": "now", "seat": "1"},
])
def test_a_bad_question_is_a_clear_400_that_changes_nothing(client: FlaskClient,
                                                            query: dict[str, str]) -> None:
    client.post("/api/game", json={"variant": "classic-sudoku", "players": 2})
    before = client.get("/api/state").get_json()
    answer = _say(client, **query)
    assert answer.status_code == 400
    error = answer.get_json()["error"]
    assert isinstance(error, str) and len(error) > 10
    assert client.get("/api/state").get_json()["version"] == before["version"]


def test_a_bad_question_is_refused_in_german_too(client: FlaskClient) -> None:
    answer = _say(client, "de", q="rank")
    assert answer.status_code == 400
    assert answer.get_json()["error"] == "die Frage 'rank' braucht den Parameter 'rank'"


def test_a_seat_hears_its_own_card_and_nobody_else_does(client: FlaskClient) -> None:
    _kosmos(client)
    phones = [_phone(client, seat) for seat in range(3)]
    view = client.get("/api/state").get_json()
    mover = view["game"]["to_move"]
    card = client.get("/api/state", headers=_as(phones[mover])).get_json()["table"]["hand"]
    own = _say(client, headers=_as(phones[mover]), q="now").get_json()["text"]
    assert own.startswith("Your turn: ") and own.endswith(f"Your card: {card}.")
    for other in (s for s in range(3) if s != mover):
        said = _say(client, headers=_as(phones[other]), q="now").get_json()["text"]
        assert "card:" not in said and "Your turn" not in said
    assert "card:" not in _text(client, q="now")


def test_without_a_speaker_speak_says_why(client: FlaskClient) -> None:
    client.post("/api/game", json={"variant": "classic-sudoku", "players": 2})
    answer = _say(client, q="scores", speak="1").get_json()
    assert answer["spoken"] is False and "no speaker" in answer["reason"]


def test_speak_has_the_table_say_the_shared_panels_answer_in_its_language(
        composed: Any) -> None:
    client = composed.app.test_client()
    speaker = composed.speaker
    _kosmos(client)
    client.post("/api/table/speech", json={"on": True, "language": "de"})
    phones = [_phone(client, seat) for seat in range(3)]
    mover = client.get("/api/state").get_json()["game"]["to_move"]
    assert speaker.idle(30)
    heard = len(speaker.said)
    answer = _say(client, headers=_as(phones[mover]), q="now", speak="1").get_json()
    assert answer["spoken"] is True and answer["reason"] is None
    assert "Your card" in answer["text"]  # the phone's own answer has it ...
    assert speaker.idle(30)
    said = [s.text for s in speaker.said][heard:]
    shared = _text(client, "de", q="now")
    assert said == [shared] and "Deine Karte" not in shared  # ... the table's speaker never
