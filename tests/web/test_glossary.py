"""The German catalog speaks as the rule books do: a tested glossary.

Each entry names the English word of the code, the German word the rule books use for it, and
the words a German family stumbled over instead (DOMINARI's rules call a blank a Blankostein
and a piece a Stein; the KOSMOS and Family games have Karten, Zahlenkärtchen and Joker, and set
a card aside: beiseitelegen). A German sentence of the catalog must never use a word it
replaces, and the word itself must be the catalog's translation of its English term.
"""

from __future__ import annotations

import re

import pytest
from babel.messages.pofile import read_po

from sudoku_table.web import i18n

GLOSSARY: dict[str, tuple[str, tuple[str, ...]]] = {
    "blank": ("Blankostein", ("Leerstein", "leerer Stein")),
    "piece": ("Stein", ("Figur",)),
    "stone": ("Stein", ("Figur",)),
    "card": ("Karte", ("Spielkarte",)),
    "joker": ("Joker", ("Platzhalter",)),
}
"""English term: (the German word, the words it replaces)."""


def german() -> dict[str, str]:
    path = i18n.TRANSLATIONS / "de" / "LC_MESSAGES" / "messages.po"
    with path.open("rb") as f:
        return {m.id: m.string for m in read_po(f) if m.id and isinstance(m.string, str)}


@pytest.mark.parametrize("term", GLOSSARY)
def test_the_catalog_translates_each_term_with_the_rule_books_word(term: str) -> None:
    word, _ = GLOSSARY[term]
    assert word in german()[term], (term, german()[term], word)


@pytest.mark.parametrize("term", GLOSSARY)
def test_no_german_sentence_uses_a_word_the_glossary_replaces(term: str) -> None:
    word, replaced = GLOSSARY[term]
    found = {english: text for english, text in german().items()
             if any(re.search(rf"\b{re.escape(old)}", text) for old in replaced)}
    assert not found, f"say {word!r}: {found}"


def test_set_aside_is_beiseitelegen() -> None:
    said = [text for english, text in german().items() if "set aside" in english.lower()
            or "set it aside" in english.lower()]
    assert said and all("beiseite" in text.lower() for text in said), said
