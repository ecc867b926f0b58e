"""The braille of the tactile parts comes from liblouis, in both the table's languages."""

from __future__ import annotations

import pytest

from sudoku_table.parts import braille, tactile

from .test_tactile import LABELS, UEB


def test_unicode_braille_round_trips_and_anything_else_is_refused() -> None:
    for text in UEB.values():
        assert braille.unicode_of(braille.cells_of(text)) == text
    assert braille.cells_of("⠼⠙") == (frozenset({3, 4, 5, 6}), frozenset({1, 4, 5}))
    with pytest.raises(braille.BrailleError, match="six-dot"):
        braille.cells_of("#d")


def test_a_machine_without_liblouis_is_told_what_to_install(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(braille.shutil, "which", lambda _name: None)
    with pytest.raises(braille.BrailleError, match="apt-get install liblouis-bin"):
        braille.translate(["a"])


def test_a_label_must_be_one_line() -> None:
    with pytest.raises(braille.BrailleError, match="one line"):
        braille.translate(["a\nb"])


@pytest.mark.integration  # runs liblouis' lou_translate
@pytest.mark.parametrize("table", [braille.TABLE, "de-g0.utb"])
def test_liblouis_writes_the_coordinates_and_numbers_the_tests_read(table: str) -> None:
    texts = list(dict.fromkeys([*tactile.COORDINATES, *(str(n) for n in range(1, 10))]))
    assert braille.translate(texts, table) == {text: LABELS[text] for text in texts}


@pytest.mark.integration  # runs liblouis' lou_translate
def test_an_unknown_table_fails_with_its_name() -> None:
    with pytest.raises(braille.BrailleError, match="no-such-table"):
        braille.translate(["a"], "no-such-table.ctb")
