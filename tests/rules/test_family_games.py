"""SUDOKU FAMILY random games, checked against a plain second referee written in this file.

The plain referee knows the board only from docs/RULINGS.md (axial points, sensor squares, wedges,
straight lines) and judges every stone from scratch. Hypothesis plays games the way the table
sees them: one stone per player is removed unseen, the rest come out of the bag in a random
order, and each stone goes on a random cell where it may go, or down as a joker when it fits
nowhere. At every position the game's legal actions must equal the plain referee's; at the end
the scores must equal a plain count, and replaying the record must reproduce every state.
"""

from __future__ import annotations

import json
import random

from hypothesis import given, settings
from hypothesis import strategies as st

from sudoku_table.rules.actions import Action, Joker, Place
from sudoku_table.rules.family import SudokuFamily
from sudoku_table.rules.game import Board
from sudoku_table.rules.record import Record, replay

FILES = "abcdefghi"
D = [(1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1)]


def square(q: int, r: int) -> str:
    return f"{FILES[q + 4]}{r + 5}"


POINTS = [(q, r) for q in range(-3, 4) for r in range(-3, 4)
          if abs(q + r) <= 3 and (q, r) != (0, 0)]
CELLS = [square(q, r) for q, r in POINTS]
TRIANGLES = [{square(a * D[k][0] + b * D[(k + 1) % 6][0], a * D[k][1] + b * D[(k + 1) % 6][1])
              for a in range(1, 4) for b in range(0, 4 - a)} for k in range(6)]
LINES = [{square(q, r) for q, r in POINTS if key(q, r) == value}
         for key in (lambda q, r: q, lambda q, r: r, lambda q, r: q + r)
         for value in range(-3, 4)]
DOTS = {square(*d) for d in D}


def plain_legal(board: Board, number: int, on_board: int) -> set[Action]:
    """Where a stone ``number`` may go, judged from scratch; jokers when it fits nowhere."""
    if on_board >= 6:
        return set()
    empty = [c for c in CELLS if c not in board]

    def house_ok(cell: str) -> bool:
        return all(not any(board.get(o) is not None and board[o].number == number
                           for o in house) for house in TRIANGLES + LINES if cell in house)

    if not board:
        return {Place(c, number) for c in DOTS}
    started = [k for k in range(6) if any(c in board for c in TRIANGLES[k])]
    fits = [c for k in started for c in TRIANGLES[k] if c not in board and house_ok(c)]
    if not fits:
        fresh = [k for k in range(6) if k not in started
                 and ((k + 1) % 6 in started or (k + 5) % 6 in started)]
        fits = [c for k in fresh for c in TRIANGLES[k] if c not in board and house_ok(c)]
    if fits:
        return {Place(c, number) for c in fits}
    return {Joker(c, number) for c in empty}


def plain_scores(players: int, actions: list[Action]) -> list[int]:
    """Replay the placements by hand: whoever fills a triangle's or line's last cell scores."""
    filled: set[str] = set()
    scores = [0] * players
    for i, action in enumerate(actions):
        assert isinstance(action, Place | Joker)
        player = ((i + 1) // 2) % 2 if players == 2 else i % players
        cell = action.cell
        filled.add(cell)
        points = sum(6 for t in TRIANGLES if cell in t and t <= filled)
        points += sum(len(line) for line in LINES if cell in line and line <= filled)
        scores[player] += (points + 1) // 2 if isinstance(action, Joker) else points
    return scores


@settings(max_examples=25, deadline=None)
@given(players=st.integers(2, 4), seed=st.integers(0, 2**32 - 1))
def test_random_games_follow_the_plain_referee(players: int, seed: int) -> None:
    rng = random.Random(seed)
    bag = [n for n in range(1, 7) for _ in range(6)]
    rng.shuffle(bag)
    del bag[:players]  # one stone per player stays in the box, unseen
    game = SudokuFamily(players)
    state = game.initial_state()
    actions: list[Action] = []
    counts = [0] * 7
    documents = [game.document(state)]
    for number in bag:
        assert not state.over
        legal = set(game.legal_actions(state))
        expected: set[Action] = set()
        for n in range(1, 7):
            expected |= plain_legal(state.board, n, counts[n])
        assert legal == expected
        mine = sorted((a for a in legal if a.number == number), key=str)  # type: ignore
        assert mine, f"the stone {number} has nowhere to go"
        action = rng.choice(mine)
        state = game.apply(state, action)  # type: ignore[assignment]
        actions.append(action)
        counts[number] += 1
        documents.append(game.document(state))
        for house in TRIANGLES + LINES:
            shown = [state.board[c].number for c in house
                     if c in state.board and state.board[c].number is not None]
            assert len(shown) == len(set(shown))
    assert state.over and state.to_move is None
    assert list(game.legal_actions(state)) == []
    assert list(state.scores) == plain_scores(players, actions)
    best = max(state.scores)
    assert state.winners == tuple(p for p, s in enumerate(state.scores) if s == best)
    record = Record(game.id, players, {}, {}, actions)
    again, states = replay(Record.from_json(json.loads(json.dumps(record.to_json()))))
    assert [again.document(s) for s in states] == documents
