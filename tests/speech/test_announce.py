"""What the table says: the right things, once each, in German and English.

Announcements are made from one moment of the game to the next (``sudoku_table.table.announce``);
the panel says them in each phone's language and the table's speaker in its own. Every next step,
message and end reason has its spoken words in both languages, with every placeholder filled.
"""

from __future__ import annotations

import re
import string
from typing import Any

import pytest

from sudoku_table.rules.game import END_REASONS
from sudoku_table.table import announce
from sudoku_table.table.view import MESSAGES, NEXT_STEPS, count
from sudoku_table.web.speech import CatalogVoice
from tests.table.helpers import lift, make_table, put, wait

from .games import FAMILIES, play_to_the_end

LANGUAGES = ("en", "de")
NAMES = ["Anna", "Ben"]

SAMPLES: dict[str, Any] = {
    "square": "c4", "squares": ["d3", "e3"], "number": 7, "start": "a1", "via": ["b2", "c3"],
    "left": 3, "pieces": count(12, "piece"), "actions": count(5, "action"),
    "entries": count(2, "damaged entry"), "games": count(1, "finished game"), "player": 1,
    "piece": {"owner": 0, "number": 4, "blank": False}, "reason": "board_full", "game": "Kakuro",
    "action": {"type": "place", "cell": "c4", "number": 7}, "detail": "disk full",
    "file": "journal.sqlite3", "kept": "journal.damaged", "error": "denied", "seq": 4,
    "resume": 17, "first": 3, "name": "Kakuro", "variant": "kakuro", "winners": [0],
    "missing": ["a1"], "extra": ["b2"], "choices": [1, 2], "take_away": ["c6"],
    "put_back": ["b2"], "turn": ["c3", "c4"], "table": "Anna's table", "count": 4,
}
"""A value for every parameter a message or next step takes."""


def placeholders(template: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(template) if name}


SAID_THE_SAME = ("{action}", "{reason}", "{detail}", "{square}: {reason}")
"""Messages that are only their parameters: the same in every language."""


@pytest.mark.integration
@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize(("table", "code"), [("next", c) for c in sorted(NEXT_STEPS)]
                         + [("message", c) for c in sorted(MESSAGES)])
def test_every_next_step_and_message_is_said_in_both_languages(table: str, code: str,
                                                               language: str) -> None:
    voice = CatalogVoice(language)
    template, say = ((NEXT_STEPS[code], announce.say_step) if table == "next"
                     else (MESSAGES[code], announce.say_message))
    text = say(code, {k: SAMPLES[k] for k in placeholders(template)}, voice, NAMES)
    assert text and "{" not in text, (code, text)
    if language == "de" and template not in SAID_THE_SAME:
        assert voice.text(template) != template, f"no German for {code}"


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("reason", sorted(END_REASONS))
def test_every_end_is_said_in_both_languages(reason: str, language: str) -> None:
    voice = CatalogVoice(language)
    for winners in ([0], [0, 1], []):
        part: announce.Part = {"kind": "end", "code": "end", "seat": None,
                               "params": {"winners": winners, "reason": reason}}
        text = announce.say_part(part, voice, NAMES)
        assert voice.text(END_REASONS[reason]) in text
        assert "{" not in text
        if language == "de":
            assert voice.text(END_REASONS[reason]) != END_REASONS[reason]
            assert "wins" not in text and "draw" not in text


@pytest.mark.parametrize("code", sorted(announce.PHRASES))
def test_every_phrase_has_its_german(code: str) -> None:
    english = announce.PHRASES[code]
    german = CatalogVoice("de").text(english)
    assert german != english or english in ("{player}: {action}", "plus {points}",
                                            "minus {points}", "{player} plus {points}",
                                            "{player} minus {points}")
    assert placeholders(german) == placeholders(english)


def test_the_issue_s_own_example_in_both_languages() -> None:
    part: announce.Part = {"kind": "action", "code": "action", "seat": 0, "params": {
        "player": 0, "action": {"type": "place", "cell": "c4", "number": 7},
        "points": [3, 0], "completed": ["rank 3"]}}
    assert announce.sentence(announce.say_part(part, CatalogVoice("de"), NAMES)) == \
        "Anna: 7 auf c4, Zeile 3 komplett, plus 3."
    assert announce.sentence(announce.say_part(part, CatalogVoice("en"), NAMES)) == \
        "Anna: 7 on c4, rank 3 complete, plus 3."


def test_a_duell_house_decided_early_is_said_after_the_completed_ones() -> None:
    """The rule book's Duell example: the blue 9 fills file a and decides block a7, two markers
    with one card; the block is named as decided early, so the two points add up."""
    part: announce.Part = {"kind": "action", "code": "action", "seat": 0, "params": {
        "player": 0, "action": {"type": "place", "cell": "a8", "number": 9},
        "points": [2, 0], "completed": ["file a"], "claimed": ["block a7"]}}
    assert announce.say_part(part, CatalogVoice("en"), NAMES) == \
        "Anna: 9 on a8, file a complete, block a7 decided early, plus 2"
    assert announce.say_part(part, CatalogVoice("de"), NAMES) == \
        "Anna: 9 auf a8, Spalte a komplett, Block a7 vorzeitig entschieden, plus 2"
    # A house the opponent's card decided: said with that card, to its winner's credit.
    part["params"].update({"completed": [], "claimed": ["file i"], "points": [0, 1]})
    assert announce.say_part(part, CatalogVoice("de"), NAMES) == \
        "Anna: 9 auf a8, Spalte i vorzeitig entschieden, Ben plus 1"


def test_the_mover_s_points_come_first_then_the_others_by_name() -> None:
    part: announce.Part = {"kind": "action", "code": "action", "seat": 1, "params": {
        "player": 1, "action": {"type": "place", "cell": "c2", "number": 2},
        "points": [-1, 2], "completed": []}}
    assert announce.say_part(part, CatalogVoice("en"), NAMES) == \
        "Ben: 2 on c2, plus 2, Anna minus 1"
    assert announce.say_part(part, CatalogVoice("de"), NAMES) == \
        "Ben: 2 auf c2, plus 2, Anna minus 1"


def test_a_range_of_squares_is_said_as_from_to() -> None:
    assert CatalogVoice("en").area("line d8-f8") == "line d8 to f8"
    assert CatalogVoice("de").area("line d8-f8") == "Linie d8 nach f8"


# --- from one moment to the next ----------------------------------------------------------------


def texts(table: Any) -> list[str]:
    return [p["text"] for p in table.view()["table"]["say"]["parts"]]


@pytest.mark.integration
def test_a_new_game_says_the_game_and_whose_turn_then_each_move_once() -> None:
    table, clock, _ = make_table()
    said: list[announce.Announcement] = []
    table.announcer.listen(said.append)
    table.new_game("classic-sudoku", 2, names=NAMES)
    first = table.view()["table"]["say"]
    assert texts(table) == ["Classic-Sudoku: new game.", "Anna's turn."]
    put(table, clock, "c4")
    assert table.view()["table"]["say"]["id"] == first["id"], "a piece waiting says nothing"
    table.input({"type": "number", "square": "c4", "number": 7})
    assert texts(table) == ["Anna: 7 on c4.", "Ben's turn."]
    assert [p["seat"] for p in table.view()["table"]["say"]["parts"]] == [None, 1]
    # A piece slid aside and put back: the board is put right, Ben's turn is not said again.
    lift(table, clock, "c4")
    assert texts(table) == ["Put the board right: the blinking squares."]
    put(table, clock, "c4")
    wait(table, clock, 0.5)
    assert texts(table) == ["Put the board right: the blinking squares."]
    assert len(said) == 3
    assert len({a["id"] for a in said}) == 3
    table.close()


@pytest.mark.integration
def test_an_illegal_piece_is_said_with_why() -> None:
    table, clock, _ = make_table()
    table.new_game("classic-sudoku", 2, names=NAMES)
    put(table, clock, "a1")
    table.input({"type": "number", "square": "a1", "number": 5})
    put(table, clock, "b1")
    table.input({"type": "number", "square": "b1", "number": 5})
    say = table.view()["table"]["say"]
    assert say["parts"][0]["kind"] == "take_away"
    assert say["parts"][0]["seat"] == 1
    assert say["text"].startswith("Take the piece on b1 away: ")
    assert "a1" in say["text"]


@pytest.mark.integration
def test_flips_are_said_before_the_next_turn() -> None:
    said, table = play_to_the_end("revers-dominari", seed=3)
    flat = [p for a in said for p in a["parts"]]
    flips = [i for i, p in enumerate(flat) if p["kind"] == "flips"]
    assert flips, "a Revers game with no flips said"
    for i in flips:  # the next turn comes only once the flips are made
        if flat[i - 1]["code"] == "blank_question":  # a blank's colour, asked of its setter
            i -= 1
        assert flat[i - 1]["kind"] == "action"
        assert all(p["kind"] != "turn" for p in flat[i - 1:i])
    table.close()


@pytest.mark.integration
def test_the_end_is_said_with_the_winner() -> None:
    said, table = play_to_the_end("vierer-dominari", seed=2)
    last = said[-1]["parts"][-1]
    assert last["kind"] == "end"
    game = table.view()["game"]
    assert last["params"]["winners"] == game["winners"]
    text = table.view()["table"]["say"]["text"]
    assert text.split(". ")[-2].startswith("Game over: ")
    table.close()


@pytest.mark.integration
def test_the_computer_s_move_is_said_for_a_person_to_make() -> None:
    table, clock, _ = make_table()
    table.new_game("vierer-dominari", 2, names=NAMES, computers={1: "easy"})
    put(table, clock, "c3")
    table.input({"type": "number", "square": "c3", "number": 1})
    assert table.wait_for_computer(10)
    say = table.view()["table"]["say"]
    assert [p["kind"] for p in say["parts"]] == ["computer"]
    assert re.fullmatch(r"Put the computer's \d on [a-f][1-6]\.", say["text"]), say["text"]


@pytest.mark.integration
@pytest.mark.parametrize("variant", FAMILIES)
def test_nothing_is_said_twice_in_a_whole_game(variant: str) -> None:
    said, table = play_to_the_end(variant, seed=5)
    flat = [p for a in said for p in a["parts"]]
    record = table.record()
    assert record is not None
    said_actions = [p for p in flat if p["kind"] == "action"]
    # Every action is said once, in order; a blank whose colour is changed on the panel is said
    # again with the colour it has now.
    played = iter(record["actions"])
    expected = next(played, None)
    for i, part in enumerate(said_actions):
        action = part["params"]["action"]
        if expected is not None and action == expected:
            expected = next(played, None)
        else:
            again = said_actions[i + 1]["params"]["action"] if i + 1 < len(said_actions) else {}
            assert action["type"] == "blank" and again.get("cell") == action["cell"], action
    assert expected is None, f"never said: {expected}"
    assert sum(1 for p in flat if p["kind"] == "end") == 1
    for a, b in zip(flat, flat[1:], strict=False):
        assert (a["kind"], a["params"]) != (b["kind"], b["params"]) or a["kind"] == "action", \
            f"said twice in a row: {a}"
    table.close()


@pytest.mark.integration
def test_a_blank_s_colour_is_asked_of_its_setter_aloud() -> None:
    from tests.table.test_leading import played

    # Black's blank on c1 ends Black's turn: the question goes to Black, beside White's turn.
    table, clock, _ = played("revers-dominari-7-17", 9, turned=False)
    parts = table.view()["table"]["say"]["parts"]
    asked = [p for p in parts if p["code"] == "blank_question"]
    assert len(asked) == 1 and asked[0]["seat"] == 1
    assert asked[0]["params"] == {"square": "c1", "owner": 1}
    for language, words in (("en", "Ben: the blank on c1 counts as Ben's colour"),
                            ("de", "Ben: Der Blankostein auf c1 zählt als Farbe von Ben")):
        text = announce.say_part(asked[0], CatalogVoice(language), NAMES)
        assert text.startswith(words), text
    table.close()
