"""The review credits every move to the player who made it, in every reference record.

The owner of a move is read from the replayed game itself: the piece a number piece or a
Halma move leaves on the board is its player's colour; a blank, an end of turn, a card set
aside or laid as a joker is the mover's. A DOMINARI number piece put down in the previous
player's blank phase ends that turn first, so it is the next player's move: the review must
show it as theirs and judge it against their best move, never against the previous player's
best blank.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from sudoku_table.ai import Budget
from sudoku_table.ai.engine import candidates
from sudoku_table.ai.review import review
from sudoku_table.rules.actions import Action, Blank, EndTurn, Move, Place
from sudoku_table.rules.game import BLANKS_PHASE, Game, State
from sudoku_table.rules.record import Record, replay
from sudoku_table.web.review_words import move_entry, player_names

EXAMPLES = Path(__file__).parent.parent / "data" / "examples"

CHEAP = Budget(positions=1, seconds=60.0)
"""One look for the computer's move: which player a move is credited to does not depend on how
hard the computer searches, and the review of a whole record stays short."""

SLOW_FAMILIES = ("classic-sudoku", "duell-der-meister")
"""Their review weighs the next player's best reply to each card they may hold: several
seconds per record even with one look."""


def _records() -> list[object]:
    found: list[object] = []
    for path in sorted(EXAMPLES.glob("*.json")):
        marks = [pytest.mark.slow] if path.name.startswith(SLOW_FAMILIES) else []
        found.append(pytest.param(path, id=path.stem, marks=marks))
    return found


def _load(path: Path) -> tuple[Game, list[State], list[Action]]:
    record = Record.from_json(json.loads(path.read_text(encoding="utf-8"))["record"])
    game, states = replay(record)
    return game, states, list(record.actions)


def owner(states: list[State], index: int, action: Action) -> int | None:
    """Whose move ``action`` was, as the replayed board shows it."""
    after = states[index + 1]
    if isinstance(action, Place):
        return after.board[action.cell].owner
    if isinstance(action, Move):
        return after.board[action.path[-1]].owner if action.path[-1] != "off" else \
            states[index].to_move
    return states[index].to_move


@pytest.mark.parametrize("path", _records())
def test_every_reviewed_move_is_credited_to_its_owner(path: Path) -> None:
    game, states, actions = _load(path)
    seats = player_names(game, (), "en")
    judged = list(review(game, states, actions, level="easy", budget=CHEAP))
    assert [j.index for j in judged] == list(range(len(actions)))
    for j in judged:
        expected = owner(states, j.index, actions[j.index])
        assert j.player == expected, f"move {j.index + 1}: credited to {j.player}"
        entry = move_entry(game, states, actions, j.index, j, seats, "en")
        assert entry["player"] == expected, f"move {j.index + 1} shown as {entry['player']}"
        assert entry["text"].startswith(f"Move {j.index + 1}: {seats[expected]}: ")


def test_the_reference_records_hold_moves_that_hand_the_turn_on() -> None:
    """The test above covers the case it was written for: number pieces put down in the
    previous player's blank phase."""
    handed_on = []
    for path in sorted(EXAMPLES.glob("*-dominari-*.json")):
        game, states, actions = _load(path)
        handed_on += [(path.stem, i + 1) for i, action in enumerate(actions)
                      if owner(states, i, action) != states[i].to_move]
    assert ("revers-dominari-7-17", 8) in handed_on and len(handed_on) >= 10, handed_on


def test_a_piece_put_down_in_a_blank_phase_is_judged_against_its_players_best_move() -> None:
    game, states, actions = _load(EXAMPLES / "revers-dominari-7-17.json")
    before, action = states[7], actions[7]
    assert before.phase == BLANKS_PHASE and isinstance(action, Place)
    (judged,) = review(game, states[:9], actions[:8], level="easy", budget=CHEAP, start=7)
    assert judged.player == 1 != before.to_move
    assert isinstance(judged.best, Place), "the computer's move is a number piece, no blank"
    assert not isinstance(judged.best, Blank | EndTurn)
    handed_over = game.apply(before, EndTurn())
    assert judged.best in candidates(game, handed_over)
