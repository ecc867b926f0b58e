"""Helpers for the KOSMOS tests: positions as text, random games, a plain second score count.

``cards("R3 a9, B7 b8, U5 c1, Y2 d4, N8 e5")`` is Red's (player 0) 3 on a9, Black's (1) 7 on
b8, Blue's (2) 5 on c1, Yellow's (3) 2 on d4 and a card of nobody's 8 on e5 (as in the box's
colours).
"""

from __future__ import annotations

import random
from typing import Any

from sudoku_table.rules.actions import Action, Discard, Place, action_from_json
from sudoku_table.rules.game import Game, Piece, State, new_game
from sudoku_table.rules.kosmos.core import KosmosGame, KosmosState
from sudoku_table.rules.record import Record, replay

from .notation import parse_pieces

COLOURS = {"R": 0, "B": 1, "U": 2, "Y": 3, "N": None}


def cards(text: str) -> dict[str, Piece]:
    """Parse ``"R3 a9, B7 b8"`` into a board."""
    return parse_pieces(text, COLOURS)


def start(variant: str, text: str = "", players: int = 2,
          options: dict[str, Any] | None = None) -> tuple[KosmosGame, KosmosState]:
    game = new_game(variant, players, options)
    assert isinstance(game, KosmosGame)
    return game, game.initial_state(cards(text))


def play(game: Game, state: State, *actions: dict[str, Any]) -> KosmosState:
    for raw in actions:
        state = game.apply(state, action_from_json(raw))
    assert isinstance(state, KosmosState)
    return state


def place(cell: str, number: int) -> dict[str, Any]:
    return {"type": "place", "cell": cell, "number": number}


def discard(number: int) -> dict[str, Any]:
    return {"type": "discard", "number": number}


def random_game(game: KosmosGame, seed: int) -> tuple[list[Action], list[KosmosState]]:
    """A game where each action is drawn among the legal ones."""
    rng = random.Random(seed)
    state = game.initial_state(None)
    states = [state]
    actions: list[Action] = []
    for _ in range(400):
        if state.over:
            break
        action = rng.choice(list(game.legal_actions(state)))
        actions.append(action)
        state = game.apply(state, action)
        states.append(state)
    return actions, states


def plain_count(game: KosmosGame, actions: list[Action]) -> list[int]:
    """The scores after ``actions``, counted again without the rules' code: every full section
    is ranked from the cards on it; every full bonus area (and, with clues, every run that
    ended exactly on its clue) gives 1 to whoever placed its last card."""
    players = game.players
    owner: dict[str, int] = {}
    number: dict[str, int] = {}
    turn: dict[str, int] = {}
    to_move = 0
    for i, action in enumerate(actions):
        if isinstance(action, Place):
            owner[action.cell], number[action.cell], turn[action.cell] = to_move, action.number, i
        else:
            assert isinstance(action, Discard)
        to_move = (to_move + 1) % players
    points = [0] * players
    for cells in game.geometry.sections.values():
        if not all(c in owner for c in cells):
            continue
        sums = [sum(number[c] for c in cells if owner[c] == p) for p in range(players)]
        tops = [max([number[c] for c in cells if owner[c] == p], default=0)
                for p in range(players)]
        present = [p for p in range(players) if any(owner[c] == p for c in cells)]
        present.sort(key=lambda p: (sums[p], tops[p]), reverse=True)
        for place_, p in enumerate(present[:2]):
            points[p] += 2 - place_
    for cells in game.geometry.bonus.values():
        if all(c in owner for c in cells):
            points[owner[max(cells, key=lambda c: turn[c])]] += 1
    clues = getattr(game.geometry, "clues", {}) or {}
    if game.options.get("clues") == "B":
        for name, clue in clues.items():
            cells = game.geometry.houses[name]
            if all(c in owner for c in cells) and sum(number[c] for c in cells) == clue["sum"]:
                points[owner[max(cells, key=lambda c: turn[c])]] += 1
    return points


def check_random_game(variant: str, seed: int, players: int,
                      options: dict[str, Any] | None = None) -> None:
    """A random game keeps every house clean, ends, scores as the plain count says, and its
    record replays to the same state."""
    game = new_game(variant, players, options)
    assert isinstance(game, KosmosGame)
    actions, states = random_game(game, seed)
    final = states[-1]
    assert final.over, "the game did not end"
    for name, cells in game.geometry.houses.items():
        seen = [final.board[c].number for c in cells if c in final.board]
        assert len(seen) == len(set(seen)), f"{name} repeats a number"
    cards_used = sum(isinstance(a, Place) for a in actions) + final.discarded
    assert cards_used == len(actions)
    assert (final.discarded == 3 or len(final.board) == len(game.geometry.cells)
            or all(final.cards_left(p) == 0 for p in range(players)))
    assert game.scores(final) == plain_count(game, actions)
    assert list(final.section_points) == game.position_points(final.board)
    record = Record(game.id, players, dict(game.options), {}, actions)
    again, replayed = replay(Record.from_json(record.to_json()))
    assert again.document(replayed[-1]) == game.document(final)
    assert final.winners and all(
        game.scores(final)[w] == max(game.scores(final)) for w in final.winners)


def board_picture(game: Game) -> list[list[str]]:
    """The rows of a rules text's board picture, top rank first, as words: the rank, then the
    number of each cell's region (or cage)."""
    from sudoku_table.rules.squares import square_name

    geometry = game.geometry
    area = {c: name.split()[1] for name, cells in geometry.regions.items() for c in cells}
    return [[str(r + 1)] + [area[square_name(f, r)] for f in range(9)] for r in range(8, -1, -1)]


def pictured(text: str, rows: list[list[str]]) -> bool:
    """Whether ``text`` holds ``rows`` as consecutive lines (spacing aside)."""
    lines = [line.split() for line in text.splitlines()]
    return any(lines[i:i + len(rows)] == rows for i in range(len(lines)))


def rules_text(variant: str) -> str:
    from pathlib import Path

    import sudoku_table.rules

    return (Path(sudoku_table.rules.__file__).parent / "text" / f"{variant}.md").read_text()
