"""The table's speaker: queued off the table's lock, the newest part of each kind only, and
silent unless switched on."""

from __future__ import annotations

import threading
from typing import Any

import pytest

from sudoku_table.speech import Speaker, SpeechSettings
from sudoku_table.speech.engine import SpeechError
from sudoku_table.table import announce
from tests.table.helpers import make_table, put

SEATS: announce.Seats = {"players": 2, "names": ["Anna", "Ben"], "labels": [], "computers": {}}


class FakeEngine:
    name = "fake"

    def __init__(self) -> None:
        self.texts: list[tuple[str, str, float]] = []

    def problem(self) -> str | None:
        return None

    def render(self, text: str, language: str, volume: float = 0.5) -> bytes:
        from sudoku_table.speech.engine import repack

        self.texts.append((text, language, volume))
        header = (b"RIFF" + (36 + 200).to_bytes(4, "little") + b"WAVEfmt " +
                  (16).to_bytes(4, "little") + (1).to_bytes(2, "little") +
                  (1).to_bytes(2, "little") + (22050).to_bytes(4, "little") +
                  (44100).to_bytes(4, "little") + (2).to_bytes(2, "little") +
                  (16).to_bytes(2, "little") + b"data" + (200).to_bytes(4, "little"))
        return repack(header + b"\x10\x20" * 100)


class GatePlayer:
    """Plays nothing until the test opens the gate: a speaker that is still talking."""

    def __init__(self) -> None:
        self.gate = threading.Event()
        self.started = threading.Event()
        self.finished = threading.Event()  # the sentence has ended (or the gate never opened)
        self.played = 0

    def problem(self) -> str | None:
        return None

    def play(self, wav: bytes) -> None:
        self.started.set()
        try:
            assert self.gate.wait(10)
            self.played += 1
        finally:
            self.finished.set()


def part(kind: str, code: str, **params: Any) -> announce.Part:
    return {"kind": kind, "code": code, "params": params, "seat": None}


def said(n: int, *parts: announce.Part) -> announce.Announcement:
    return {"id": f"t-{n}", "parts": list(parts), "seats": SEATS}


def words(p: announce.Part, seats: announce.Seats, language: str) -> str:
    return announce.sentence(announce.say_part(p, announce.Voice(), ["Anna", "Ben"]))


def test_a_newer_part_of_the_same_kind_replaces_one_not_yet_said() -> None:
    engine, player = FakeEngine(), GatePlayer()
    speaker = Speaker(engine, player, words, lambda: SpeechSettings(on=True, language="en"))
    speaker.announce(said(1, part("turn", "turn", player=0)))
    assert player.started.wait(5)  # "Anna's turn" is being said now
    speaker.announce(said(2, part("action", "action", player=0, points=[0, 0], completed=[],
                                  action={"type": "place", "cell": "c4", "number": 7}),
                          part("turn", "turn", player=1)))
    speaker.announce(said(3, part("action", "action", player=1, points=[0, 0], completed=[],
                                  action={"type": "place", "cell": "d5", "number": 3}),
                          part("turn", "turn", player=0)))
    player.gate.set()
    assert speaker.idle(5)
    assert [t for t, _, _ in engine.texts] == ["Anna's turn.", "Ben: 3 on d5.", "Anna's turn."]
    assert speaker.dropped == 2
    speaker.close()


@pytest.mark.integration
def test_announce_returns_at_once_while_the_speaker_talks() -> None:
    engine, player = FakeEngine(), GatePlayer()
    speaker = Speaker(engine, player, words, lambda: SpeechSettings(on=True))
    table, clock, _ = make_table()
    table.announcer.listen(speaker.announce)
    table.new_game("classic-sudoku", 2, names=["Anna", "Ben"])
    assert player.started.wait(5)
    played = threading.Thread(target=lambda: (  # the table's lock is never held by the speaker
        put(table, clock, "c4"), table.input({"type": "number", "square": "c4", "number": 7})))
    played.start()
    played.join(30)  # a guard only: it returns at once, while the speaker is still talking
    assert not played.is_alive() and not player.finished.is_set()
    player.gate.set()
    assert speaker.idle(5)
    assert engine.texts[-1][0] == "Ben's turn."
    speaker.close()
    table.close()


def test_nothing_is_said_while_speech_is_off_and_the_settings_are_read_each_time() -> None:
    engine, player = FakeEngine(), GatePlayer()
    player.gate.set()
    chosen = {"settings": SpeechSettings(on=False)}
    speaker = Speaker(engine, player, words, lambda: chosen["settings"])
    speaker.announce(said(1, part("turn", "turn", player=0)))
    assert speaker.idle(5)
    assert engine.texts == []
    chosen["settings"] = SpeechSettings(on=True, volume=0.3, language="de")
    speaker.announce(said(2, part("turn", "turn", player=1)))
    assert speaker.idle(5)
    assert engine.texts == [("Ben's turn.", "de", 0.3)]
    assert speaker.status()["said"][-1]["text"] == "Ben's turn."
    speaker.close()


def test_a_failing_engine_is_reported_and_the_speaker_goes_on() -> None:
    class Broken(FakeEngine):
        def render(self, text: str, language: str, volume: float = 0.5) -> bytes:
            raise SpeechError("no voice")

    player = GatePlayer()
    player.gate.set()
    speaker = Speaker(Broken(), player, words, lambda: SpeechSettings(on=True))
    speaker.announce(said(1, part("turn", "turn", player=0)))
    assert speaker.idle(5)
    assert speaker.error == "no voice"
    speaker.close()
    speaker.close()  # idempotent


@pytest.mark.integration
def test_repeat_says_the_last_announcement_again() -> None:
    engine, player = FakeEngine(), GatePlayer()
    player.gate.set()
    speaker = Speaker(engine, player, words, lambda: SpeechSettings(on=True))
    table, clock, _ = make_table()
    assert not table.announcer.repeat()  # nothing said yet
    table.announcer.listen(speaker.announce)
    table.new_game("classic-sudoku", 2, names=["Anna", "Ben"])
    assert speaker.idle(5)
    count = len(engine.texts)
    assert table.announcer.repeat()
    assert speaker.idle(5)
    assert [t for t, _, _ in engine.texts[count:]] == ["Classic-Sudoku: new game.",
                                                       "Anna's turn."]
    speaker.close()
    table.close()
