"""The review's words are words a player can use, in German and English: each noun in the form
its number needs (one Vierergruppe, two Vierergruppen), the players by their names (never
"you"), the places as the board shows them (never an internal line or triangle number), and a
reason for every computer move it shows."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

import pytest
from babel.messages.pofile import read_po

from sudoku_table.ai import Budget
from sudoku_table.ai.review import review
from sudoku_table.rules.game import all_variants, new_game
from sudoku_table.rules.geometry import NUMBERED_KINDS
from sudoku_table.rules.record import Record, replay
from sudoku_table.web import i18n
from sudoku_table.web.review_words import document, move_lines, summary_lines

EXAMPLES = Path(__file__).parent.parent / "data" / "examples"

ONE_OF_EACH_FAMILY = {
    "halma-dominari-7-33": False, "vierer-dominari-8-17": False, "revers-dominari-7-35": False,
    "score-dominari-8-40": False, "sudoku-family-7-34": False,
    "classic-sudoku-7-66": True, "duell-der-meister-7-62": True}
"""A whole reference game of each family, and whether reviewing it is slow (KOSMOS and Duell
weigh the next player's best reply to every card: several seconds even with one look)."""

CHEAP = Budget(positions=1, seconds=60.0)
"""The computer's move at one look: the words do not depend on how hard it searched."""

INTERNAL = re.compile(rf"\b({'|'.join(NUMBERED_KINDS)}|Linie|Dreieck|Käfig|Region) \d+\b",
                      re.IGNORECASE)
"""An area named by an internal running number, which no board prints."""
ADDRESS = re.compile(r"\b(you|your|du|dir|dich|dein\w*)\b", re.IGNORECASE)
"""Speaking to a player rather than naming them."""


def _plural_nouns(language: str) -> list[tuple[str, str]]:
    """From every wording of the catalog that changes with a number: the word right after
    the number in its singular and in its plural form, where the two differ ("Punkt",
    "Punkte")."""
    if language == i18n.SOURCE:
        return [("point", "points"), ("piece", "pieces"), ("group", "groups"),
                ("move", "moves"), ("marker", "markers"), ("step", "steps")]
    path = i18n.TRANSLATIONS / language / "LC_MESSAGES" / "messages.po"
    with path.open("rb") as f:
        entries = [m for m in read_po(f) if isinstance(m.id, tuple)]
    found = set()
    for entry in entries:
        one, many = entry.string[0], entry.string[1]
        after_one = re.findall(r"\{\w+\} (\w+)", one)
        after_many = re.findall(r"\{\w+\} (\w+)", many)
        for a, b in zip(after_one, after_many, strict=False):
            if a != b:
                found.add((a, b))
    assert found, f"the {language} catalog has no wording that changes with a number"
    return sorted(found)


def agreement_errors(text: str, nouns: list[tuple[str, str]]) -> list[str]:
    """Every "1 Punkte" and "2 Punkt" in ``text``."""
    errors = []
    for one, many in nouns:
        errors += re.findall(rf"(?<![\d.,])[+-]?1 {many}\b", text)
        errors += re.findall(rf"(?<![\d.,])[+-]?(?:[02-9]|\d\d+) {one}\b", text)
    return errors


def _texts(doc: Mapping[str, Any]) -> Iterator[str]:
    for move in doc["moves"]:
        yield from move_lines(move)
        for key in ("reasons", "played_reasons"):
            yield from (r["text"] for r in move.get(key) or ())
    yield from summary_lines(doc, "en")


def _reviewed(stem: str, language: str) -> tuple[dict[str, Any], list[str]]:
    record = Record.from_json(json.loads((EXAMPLES / f"{stem}.json").read_text(
        encoding="utf-8"))["record"])
    game, states = replay(record)
    judged = list(review(game, states, record.actions, level="easy", budget=CHEAP))
    doc = document(game, states, record.actions, judged, ["Anna", "Ben"], language)
    return doc, list(_texts(doc))


def _families() -> list[object]:
    return [pytest.param(stem, id=stem, marks=[pytest.mark.slow] if slow else [])
            for stem, slow in ONE_OF_EACH_FAMILY.items()]


@pytest.mark.parametrize("stem", _families())
@pytest.mark.parametrize("language", ["de", "en"])
def test_a_whole_review_uses_words_a_player_can_use(stem: str, language: str) -> None:
    doc, texts = _reviewed(stem, language)
    nouns = _plural_nouns(language)
    for text in texts:
        assert not INTERNAL.search(text), text
        assert not ADDRESS.search(text), text
        assert not agreement_errors(text, nouns), text
    for move in doc["moves"]:
        if move["verdict"] not in ("best", "forced"):
            assert move["reasons"], f"move {move['move']}: the computer's move has no reason"


def test_the_agreement_check_finds_what_the_catalog_forbids() -> None:
    nouns = _plural_nouns("de")
    assert ("Punkt", "Punkte") in nouns and ("Vierergruppe", "Vierergruppen") in nouns
    assert agreement_errors("zählt für 1 Vierergruppen", nouns) == ["1 Vierergruppen"]
    assert agreement_errors("+1 Punkte jetzt; +2 Punkt", nouns) == ["+1 Punkte", "+2 Punkt"]
    assert not agreement_errors("+1 Punkt jetzt, +11 Punkte später, 21 Punkte", nouns)


@pytest.mark.parametrize("cls", all_variants(), ids=lambda cls: cls.id)
def test_every_area_is_named_as_the_board_shows_it(cls: type) -> None:
    geometry = new_game(cls.id).geometry
    areas = {**geometry.regions, **geometry.bonus, **geometry.sections, **geometry.houses}
    named: dict[str, frozenset[str]] = {}
    for name, cells in areas.items():
        place = geometry.place_name(name)
        assert not INTERNAL.search(place), (name, place)
        assert named.setdefault(place, frozenset(cells)) == frozenset(cells), \
            f"{place} names two different areas"


def test_a_line_is_named_by_its_ends_and_an_area_by_its_corner() -> None:
    family = new_game("sudoku-family").geometry
    assert family.place_name("line 1") == "line b5-b8"
    assert family.place_name("triangle 1").startswith("triangle ")
    killer = new_game("killer-sudoku").geometry
    corner = killer.place_name("cage 1")
    assert corner == "cage a1" and "a1" in killer.houses["cage 1"]
    assert killer.place_name("rank 4") == "rank 4" and killer.place_name("file c") == "file c"
