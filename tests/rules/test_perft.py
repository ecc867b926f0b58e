"""Perft-style counts: from each stored position, exactly this many legal actions.

Every file ``tests/data/perft/*.json`` holds a list of ``{"name", "record", "legal_actions"}``
(an optional ``note`` says how the count was reasoned). The record is replayed and the legal
actions of its last position are counted. A second count, by brute force, tries every action
of every kind the board admits and counts those ``check`` accepts: it must agree, so the list
of legal actions is complete and holds nothing ``check`` refuses.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from sudoku_table.rules.actions import OFF, Action, Blank, Discard, EndTurn, Joker, Move, Place
from sudoku_table.rules.game import Game, State
from sudoku_table.rules.record import Record, replay
from sudoku_table.rules.squares import parse_square, square_name

PERFT_DIR = Path(__file__).parent.parent / "data" / "perft"
JUMPS = [(df, dr) for df in (-2, 0, 2) for dr in (-2, 0, 2) if (df, dr) != (0, 0)]


def load_entries() -> list[tuple[str, dict[str, Any]]]:
    entries = []
    for path in sorted(PERFT_DIR.glob("*.json")):
        for entry in json.loads(path.read_text()):
            entries.append((f"{path.stem}: {entry['name']}", entry))
    return entries


ENTRIES = load_entries()


def position(entry: dict[str, Any]) -> tuple[Game, State]:
    game, states = replay(Record.from_json(entry["record"]))
    return game, states[-1]


def every_conceivable_action(game: Game, state: State) -> Iterator[Action]:
    """Each action of each kind on this board, legal or not, without asking the rules."""
    low, high = game.geometry.numbers
    numbers = range(low - 1, high + 2)
    cells = game.geometry.cells
    yield EndTurn()
    for number in numbers:
        yield Discard(number)
    for cell in cells:
        for number in numbers:
            yield Place(cell, number)
            yield Joker(cell, number)
        yield Blank(cell)
        for owner in range(game.players):
            yield Blank(cell, owner)
    if len(cells) > 36:
        return  # only the 6x6 boards have moving pieces; a 9x9 board would explode here
    for start in state.board:
        yield Move((start, OFF))
        for target in cells:
            if target != start:
                yield Move((start, target))
        yield from _jump_paths(game, state, (start,))


def _jump_paths(game: Game, state: State, path: tuple[str, ...]) -> Iterator[Move]:
    """Paths hopping two squares at a time over an occupied square onto a free one, in any
    direction, never revisiting a square; each may also end by leaving the board."""
    f, r = parse_square(path[-1])
    for df, dr in JUMPS:
        nf, nr = f + df, r + dr
        if not (0 <= nf < 9 and 0 <= nr < 9):
            continue
        landing = square_name(nf, nr)
        over = square_name(f + df // 2, r + dr // 2)
        if landing not in game.geometry.cell_set or landing in path[1:]:
            continue
        if over not in state.board or (landing in state.board and landing != path[0]):
            continue
        longer = path + (landing,)
        if len(longer) > 2:
            yield Move(longer)
            yield Move(longer + (OFF,))
        if len(longer) < 8:
            yield from _jump_paths(game, state, longer)


def brute_force_count(game: Game, state: State) -> int:
    accepted = set()
    for action in every_conceivable_action(game, state):
        if game.check(state, action) is None:
            if isinstance(action, Blank) and action.owner == state.to_move:
                action = Blank(action.cell)
            accepted.add(action)
    return len(accepted)


def test_there_are_perft_positions_for_every_dominari_game() -> None:
    variants = {entry["record"]["variant"] for _, entry in ENTRIES}
    assert {"halma-dominari", "vierer-dominari", "revers-dominari", "score-dominari"} <= variants


@pytest.mark.parametrize("name, entry", ENTRIES, ids=[name for name, _ in ENTRIES])
def test_legal_action_count(name: str, entry: dict[str, Any]) -> None:
    game, state = position(entry)
    listed = list(game.legal_actions(state))
    assert len(set(listed)) == len(listed), "an action is listed twice"
    assert len(listed) == entry["legal_actions"]


@pytest.mark.parametrize("name, entry", ENTRIES, ids=[name for name, _ in ENTRIES])
def test_brute_force_agrees(name: str, entry: dict[str, Any]) -> None:
    game, state = position(entry)
    assert brute_force_count(game, state) == entry["legal_actions"]
