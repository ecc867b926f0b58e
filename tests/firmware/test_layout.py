"""Squares on the matrix and on the LED chain: every corner, serpentine and rotation."""

from __future__ import annotations

import itertools

import pytest

from sudoku_table.firmware.config import CORNERS, ROTATIONS, LedConfig
from sudoku_table.firmware.layout import SQUARES, led_indices, led_order, square_at, square_index


def test_squares_are_rank_major_like_the_matrix() -> None:
    assert SQUARES[:3] == ("a1", "b1", "c1")
    assert SQUARES[9] == "a2" and SQUARES[-1] == "i9"
    assert square_at(0, 0) == "a1" and square_at(8, 2) == "c9"
    assert square_index("b2") == 10
    for bad in ("j1", "a0", "a10", "", "A1", None):
        with pytest.raises(ValueError, match="is not a square"):
            square_index(bad)  # type: ignore[arg-type]


@pytest.mark.parametrize(("corner", "serpentine", "rotation"),
                         list(itertools.product(CORNERS, (False, True), ROTATIONS)))
def test_every_layout_puts_every_square_under_exactly_one_led(
        corner: str, serpentine: bool, rotation: int) -> None:
    order = led_order(corner, serpentine, rotation)
    assert sorted(order) == sorted(SQUARES)
    # Neighbours on the chain are neighbours on the board, except at a row's end without
    # serpentine (where the chain jumps back across the board).
    for k in range(80):
        (f1, r1), (f2, r2) = [(ord(s[0]), int(s[1])) for s in order[k:k + 2]]
        distance = abs(f1 - f2) + abs(r1 - r2)
        if serpentine or k % 9 != 8:
            assert distance == 1, (k, order[k], order[k + 1])


EXPECTED = {
    # (corner, serpentine, rotation): the first ten squares of the chain
    ("bottom_left", False, 0): ("a1", "b1", "c1", "d1", "e1", "f1", "g1", "h1", "i1", "a2"),
    ("bottom_left", True, 0): ("a1", "b1", "c1", "d1", "e1", "f1", "g1", "h1", "i1", "i2"),
    ("top_left", True, 0): ("a9", "b9", "c9", "d9", "e9", "f9", "g9", "h9", "i9", "i8"),
    ("top_right", False, 0): ("i9", "h9", "g9", "f9", "e9", "d9", "c9", "b9", "a9", "i8"),
    ("bottom_right", True, 0): ("i1", "h1", "g1", "f1", "e1", "d1", "c1", "b1", "a1", "a2"),
    # The panel turned a quarter clockwise: its top row now runs down the board's file i.
    ("top_left", False, 90): ("i9", "i8", "i7", "i6", "i5", "i4", "i3", "i2", "i1", "h9"),
    ("bottom_left", True, 90): ("a9", "a8", "a7", "a6", "a5", "a4", "a3", "a2", "a1", "b1"),
    ("top_left", True, 180): ("i1", "h1", "g1", "f1", "e1", "d1", "c1", "b1", "a1", "a2"),
    ("top_left", False, 270): ("a1", "a2", "a3", "a4", "a5", "a6", "a7", "a8", "a9", "b1"),
}


@pytest.mark.parametrize("key", list(EXPECTED), ids=[f"{c}-{s}-{r}" for c, s, r in EXPECTED])
def test_known_layouts(key: tuple[str, bool, int]) -> None:
    assert led_order(*key)[:10] == EXPECTED[key]


def test_a_half_turn_reverses_a_plain_chain() -> None:
    for corner in CORNERS:
        plain = led_order(corner, False, 0)
        assert led_order(corner, False, 180) == tuple(reversed(plain))


def test_led_indices_skip_the_leds_before_the_first_square() -> None:
    indices = led_indices(LedConfig(count=83, first=2))
    assert indices["a1"] == 2 and indices["i1"] == 10 and indices["i2"] == 11
    assert sorted(indices.values()) == list(range(2, 83))


def test_bad_layouts_are_refused() -> None:
    with pytest.raises(ValueError, match="start_corner"):
        led_order("left", True, 0)
    with pytest.raises(ValueError, match="rotation"):
        led_order("top_left", True, 45)
