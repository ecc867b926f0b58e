"""What the lights ask after a take-back, and a pass, said aloud: the board to put back as the
what-now bar words it (only the steps there are, once per take-back, not again for each piece
moved), and a player passed over, in English and German."""

from __future__ import annotations

from typing import Any

from sudoku_table.table import announce
from sudoku_table.table.view import Message, Next, message, step
from sudoku_table.web.speech import CatalogVoice

NAMES = ["Anna", "Ben", "Cleo"]
GAME = object()


def _moment(nxt: Next, actions: int, msg: Message | None = None, mover: int = 0,
            passed: tuple[int, ...] = ()) -> announce.Moment:
    return announce.Moment(GAME, actions, msg, nxt, mover, False, (), None, frozenset(),
                           frozenset(), None, passed)


def _words(parts: list[announce.Part], language: str = "en") -> list[str]:
    voice = announce.Voice() if language == "en" else CatalogVoice(language)
    return announce.words(parts, voice, NAMES)


PLACE = {"type": "place", "cell": "c3", "number": 5}


def _taken_back(**board: Any) -> announce.Moment:
    params = {"take_away": [], "put_back": [], "moves": [], "turn": [], **board}
    return _moment(step("undo_on_board", 0, **params), 4,
                   message("taken_back", action=PLACE))


def test_a_take_back_says_what_to_take_away_and_turn_back() -> None:
    before = _moment(step("place", 1), 5)
    now = _taken_back(take_away=["c3"], turn=["d3", "e3"])
    parts, _ = announce.announce(before, now, 1)
    said = _words(parts)
    assert said[:2] == ["5 on c3: taken back.", "Take away c3. Turn d3 and e3 back over."]
    assert "Nimm weg: c3. Dreh d3 und e3 wieder um." in _words(parts, "de")


def test_a_take_back_is_said_once_not_again_for_each_piece_put_right() -> None:
    before = _taken_back(take_away=["c3"], turn=["d3", "e3"])
    lifted = _taken_back(turn=["d3", "e3"])
    parts, _ = announce.announce(before, lifted, None)
    assert not any(p["code"] == "undo_on_board" for p in parts)
    # Another take-back at once (one action fewer): said again.
    again = announce.Moment(GAME, 3, message("taken_back", action=PLACE),
                            step("undo_on_board", 1, take_away=["b2"], put_back=[], moves=[],
                                 turn=[]), 1, False, (), None, frozenset(), frozenset())
    parts, _ = announce.announce(lifted, again, None)
    assert "Take away b2." in _words(parts)


def test_a_redo_says_what_to_put_back_and_move() -> None:
    before = _moment(step("place", 1), 4)
    now = _moment(step("redo_on_board", 0, take_away=[], put_back=["c3"],
                       moves=[{"from": "a1", "to": "a2"}], turn=["d3"]), 5,
                  message("redone", action=PLACE))
    parts, _ = announce.announce(before, now, 1)
    assert "Redone. Move the piece from a1 to a2. Put back c3. Turn d3 over." in _words(parts)


def test_a_player_passed_over_is_said_after_the_action() -> None:
    before = _moment(step("place", 0), 4)
    now = _moment(step("place", 2), 5, message("action", action=PLACE, player=0,
                                               points=[0, 0, 0]), mover=2, passed=(1,))
    parts, _ = announce.announce(before, now, 0)
    said = _words(parts)
    assert said[:2] == ["Anna: 5 on c3.", "Ben can play nothing and is passed over."]
    assert _words(parts, "de")[1] == "Ben kann nichts spielen und wird übersprungen."
    both = _moment(step("place", 0), 5, message("action", action=PLACE, player=0,
                                                points=[0, 0, 0]), mover=0, passed=(1, 2))
    parts, _ = announce.announce(before, both, 0)
    assert "Ben and Cleo can play nothing and are passed over." in _words(parts)


def test_a_pass_is_not_said_again_after_a_take_back() -> None:
    before = _moment(step("place", 2), 5, passed=(1,))
    now = _moment(step("place", 0), 4, message("taken_back", action=PLACE), passed=(1,))
    parts, _ = announce.announce(before, now, 2)
    assert not any(p["code"] == "passed" for p in parts)
