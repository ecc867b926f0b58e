"""The table speaks through the panel: ``table.say`` in every view in the phone's language, the
Table page's speech settings (PIN like the other settings), and Repeat."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from flask.testing import FlaskClient

from sudoku_table.config import ConfigError, from_mapping

from .helpers import place


def say(client: FlaskClient, language: str) -> dict[str, Any]:
    return client.get("/api/state", headers={"Accept-Language": language}).get_json()[
        "table"]["say"]


@pytest.mark.integration
def test_every_view_carries_the_last_announcement_in_the_phone_s_language(
        client: FlaskClient) -> None:
    assert say(client, "en") == {"id": None, "text": "", "parts": []}
    client.post("/api/game", json={"variant": "classic-sudoku", "players": 2,
                                   "names": ["Anna", "Ben"]})
    first = say(client, "en")
    assert first["text"] == "Classic-Sudoku: new game. Anna's turn."
    assert say(client, "de")["text"] == "Classic-Sudoku: neues Spiel. Anna ist dran."
    assert say(client, "de")["id"] == first["id"] and say(client, "de")["language"] == "de"
    view = place(client, "c4", 7)
    assert view["table"]["say"]["text"] == "Anna: 7 on c4. Ben's turn."
    german = say(client, "de")
    assert german["text"] == "Anna: 7 auf c4. Ben ist dran."
    assert german["id"] != first["id"]
    assert [(p["kind"], p["seat"], p["text"]) for p in german["parts"]] == [
        ("action", None, "Anna: 7 auf c4."), ("turn", 1, "Ben ist dran.")]
    # Leftovers of the last game: the table says how many to take away.
    client.post("/api/game", json={"variant": "vierer-dominari", "replace": True})
    assert say(client, "en")["text"] == "Vierer-Dominari: first take the 1 piece left on the " \
        "board away."


@pytest.mark.integration
def test_the_speech_settings_without_a_speaker_say_why(client: FlaskClient,
                                                       tmp_path: Path) -> None:
    speech = client.get("/api/table/speech").get_json()["speech"]
    assert speech["available"] is False and speech["problem"] == "this table has no speaker"
    assert (speech["on"], speech["volume"], speech["language"]) == (False, 0.6, "en")
    german = client.get("/api/table/speech", headers={"Accept-Language": "de"}).get_json()
    assert german["speech"]["problem"] == "dieser Tisch hat keinen Lautsprecher"
    # Never chosen: the speaker would speak the page's language, and takes it once set there.
    assert german["speech"]["language"] == "de"
    set_there = client.post("/api/table/speech", json={"volume": 0.5},
                            headers={"Accept-Language": "de"}).get_json()["speech"]
    assert set_there["language"] == "de"
    assert client.get("/api/table/speech").get_json()["speech"]["language"] == "de"
    repeat = client.post("/api/speech/repeat", json={}).get_json()
    assert repeat["repeated"] is False and "no speaker" in repeat["reason"]


@pytest.mark.integration
@pytest.mark.parametrize(("body", "error"), [
    ({}, "needs one of on, volume, language"),
    ({"on": "yes"}, "on must be true or false"),
    ({"volume": 1.5}, "volume must be a number from 0 to 1"),
    ({"volume": True}, "volume must be a number from 0 to 1"),
    ({"language": "fr"}, "language must be one of en, de"),
    ({"loud": True}, "has no field 'loud'"),
])
def test_bad_speech_settings_are_refused_and_change_nothing(client: FlaskClient, tmp_path: Path,
                                                            body: dict[str, Any],
                                                            error: str) -> None:
    client.post("/api/table/speech", json={"on": True, "volume": 0.4, "language": "de"})
    answer = client.post("/api/table/speech", json=body)
    assert answer.status_code == 400 and error in answer.get_json()["error"]
    kept = json.loads((tmp_path / "settings.json").read_text())["speech"]
    assert kept == {"on": True, "volume": 0.4, "language": "de"}


@pytest.mark.integration
def test_the_speech_settings_need_the_pin(pin_client: FlaskClient) -> None:
    refused = pin_client.post("/api/table/speech", json={"on": True})
    assert refused.status_code == 401
    assert pin_client.get("/api/table/speech").get_json()["speech"]["on"] is False
    allowed = pin_client.post("/api/table/speech", json={"on": True, "pin": "4711"})
    assert allowed.status_code == 200 and allowed.get_json()["speech"]["on"] is True
    # Repeat changes nothing at the table: no PIN.
    assert pin_client.post("/api/speech/repeat", json={}).status_code == 200


@pytest.fixture
def pin_client(table: Any, hardware: Any, tmp_path: Path) -> FlaskClient:
    from sudoku_table.web import create_app

    return create_app(table, hardware=hardware, test_config={
        "TESTING": True, "PANEL_PIN": "4711",
        "SETTINGS_PATH": tmp_path / "settings.json"}).test_client()


@pytest.mark.integration
def test_the_table_speaks_in_its_own_language_once_switched_on(composed: Any) -> None:
    client = composed.app.test_client()
    speaker = composed.speaker
    client.post("/api/game", json={"variant": "classic-sudoku", "players": 2,
                                   "names": ["Anna", "Ben"]})
    assert speaker.idle(20) and not speaker.said  # off by default
    answer = client.post("/api/table/speech", json={"on": True, "language": "de",
                                                    "volume": 0.8})
    speech = answer.get_json()["speech"]
    assert speech["available"] is True and speech["engine"] == "espeak-ng"
    assert speaker.idle(20)
    assert [s.text for s in speaker.said] == ["Die Sprache am Tisch ist an."]
    place(client, "c4", 7)
    assert speaker.idle(30)
    assert [s.text for s in speaker.said][1:] == ["Anna: 7 auf c4.", "Ben ist dran."]
    assert all(s.seconds > 0.5 and s.language == "de" for s in speaker.said)
    # Repeat: the last announcement once more, in the table's language.
    assert client.post("/api/speech/repeat", json={}).get_json() == {"repeated": True,
                                                                     "reason": None}
    assert speaker.idle(30)
    assert [s.text for s in speaker.said][-2:] == ["Anna: 7 auf c4.", "Ben ist dran."]
    status = client.get("/api/table/speech").get_json()["speech"]
    assert status["said"][-1]["text"] == "Ben ist dran."
    client.post("/api/table/speech", json={"on": False})
    off = client.post("/api/speech/repeat", json={}, headers={"Accept-Language": "de"})
    assert off.get_json()["repeated"] is False
    assert off.get_json()["reason"].startswith("die Sprache am Tisch ist aus")


def test_the_speech_section_of_the_config_is_checked() -> None:
    config = from_mapping({"speech": {"rate": 170, "voices": {"en": "en-us"}},
                           "speaker": {"device": "plughw:CARD=Headphones"}})
    assert config.hardware.speaker.device == "plughw:CARD=Headphones"
    assert dict(config.speech.voices) == {"de": "de", "en": "en-us"}
    for bad, key in ((
            {"engine": "festival"}, "speech.engine"), ({"rate": 20}, "speech.rate"),
            ({"voices": {"de": 3}}, "speech.voices"),
            ({"loud": 1}, "loud")):
        with pytest.raises(ConfigError, match=key):
            from_mapping({"speech": bad})
    with pytest.raises(ConfigError, match="speaker.device"):
        from_mapping({"speaker": {"device": "hw;rm -rf"}})


@pytest.mark.integration
def test_settings_changed_at_once_from_two_phones_are_all_kept(
        client: FlaskClient, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The speaker switched on while its language is chosen (two requests at once, as the
    Table page sends them): each change is kept, none written over by the other's older read
    (the language was lost before)."""
    import threading

    from sudoku_table.web import settings

    real_load = settings.load
    both_read = threading.Barrier(2, timeout=2)

    def slow_load(path: Any) -> dict[str, Any]:
        data = real_load(path)
        try:  # both requests have read the file before either writes (when nothing stops it)
            both_read.wait()
        except threading.BrokenBarrierError:
            pass
        return data

    monkeypatch.setattr(settings, "load", slow_load)
    app = client.application
    bodies = [{"on": True}, {"language": "de"}, {"volume": 0.8}, {"brightness": 0.5}]

    def send(body: dict[str, Any]) -> None:
        with app.test_client() as own:
            if "brightness" in body:
                own.post("/api/table/brightness", json={"level": body["brightness"]})
            else:
                own.post("/api/table/speech", json=body)

    threads = [threading.Thread(target=send, args=(b,)) for b in bodies]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    kept = json.loads((tmp_path / "settings.json").read_text())
    assert kept["speech"] == {"on": True, "volume": 0.8, "language": "de"}
    assert kept["brightness"] == 0.5


@pytest.mark.integration
def test_a_setting_the_card_cannot_keep_is_refused_in_words_and_changes_nothing(
        client: FlaskClient, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import os

    client.post("/api/table/speech", json={"on": True, "volume": 0.4, "language": "de"})
    client.post("/api/table/brightness", json={"level": 0.3})
    before = (tmp_path / "settings.json").read_text()

    def full(fd: int) -> None:  # the card fills as the new file is flushed to it
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "fsync", full)
    for path, body in (("/api/table/speech", {"volume": 0.9}),
                       ("/api/table/brightness", {"level": 0.9}),
                       ("/api/table/sound", {"on": True})):
        answer = client.post(path, json=body, headers={"Accept-Language": "de"})
        assert answer.status_code == 503, path
        assert "kann nicht gespeichert werden" in answer.get_json()["error"], path
    monkeypatch.undo()
    assert (tmp_path / "settings.json").read_text() == before
    assert not (tmp_path / "settings.json.tmp").exists()
    assert client.get("/api/table/speech").get_json()["speech"]["volume"] == 0.4


@pytest.mark.integration
def test_a_full_card_keeps_the_old_settings_and_no_half_written_file() -> None:
    """On a real full card: the change is refused, the old file stays, and the new file's
    beginning is not left beside it taking space (it was before)."""
    from sudoku_table.web import settings
    from tests.table.faults import small_disk

    with small_disk() as disk:
        path = disk.path / "settings.json"
        settings.update(path, brightness=0.5)
        disk.fill()
        with pytest.raises(settings.NotSaved):
            settings.update(path, brightness=0.7, names=["Anna"] * 2000)
        assert sorted(p.name for p in disk.path.iterdir()) == ["filler", "settings.json"]
        assert settings.load(path) == {"brightness": 0.5}
