"""Every registered variant keeps the promises of the Game protocol in random games.

Hypothesis plays random games (each action drawn among the legal ones) and checks, at every
position: no house holds a number twice; the listed actions pass ``check`` and ``apply``;
actions that are not listed are refused with a reason and change nothing; the player to move
always has an action unless the game is over; the state document is JSON with the keys of
the records contract. Each game ends within a bound, and replaying its record (through JSON)
reproduces the same documents. For the DOMINARI games the scores are also counted a second
time, plainly, in this file.
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from sudoku_table.rules.actions import OFF, Action, Blank, Discard, EndTurn, Joker, Move, Place
from sudoku_table.rules.errors import IllegalActionError
from sudoku_table.rules.game import Game, State, all_variants, new_game
from sudoku_table.rules.record import Record, replay
from sudoku_table.rules.squares import SQUARES

VARIANTS = [cls.id for cls in all_variants()]
DOCUMENT_KEYS = {"variant", "players", "to_move", "over", "winners", "scores", "cells", "dead",
                 "last"}
LEGAL_CHECKED_PER_POSITION = 12
STRANGERS_PER_POSITION = 8


# --- a second, plain count of the DOMINARI scores ------------------------------------------------

def _owner_grid(state: State) -> dict[tuple[int, int], tuple[int | None, bool]]:
    """(file, rank) -> (owner, is_blank) for every occupied cell of a 6x6 board."""
    grid = {}
    for cell, piece in state.board.items():
        grid[("abcdef".index(cell[0]), int(cell[1]) - 1)] = (piece.owner, piece.number is None)
    return grid


def table_count(state: State) -> list[int]:
    """Revers and Score: count pieces, single-coloured blocks, ranks and files by hand."""
    grid = _owner_grid(state)
    points = [0, 0]
    for owner, is_blank in grid.values():
        if not is_blank:
            points[owner] += 1  # type: ignore[index]
    areas: list[tuple[list[tuple[int, int]], int, int]] = []
    for bf in (0, 2, 4):
        for br in (0, 2, 4):
            block = [(bf, br), (bf + 1, br), (bf, br + 1), (bf + 1, br + 1)]
            areas.append((block, 2, 1))
    for i in range(6):
        areas.append(([(f, i) for f in range(6)], 3, 2))
        areas.append(([(i, r) for r in range(6)], 3, 2))
    for cells, full, with_blank in areas:
        if not all(c in grid for c in cells):
            continue
        owners = {grid[c][0] for c in cells}
        if len(owners) != 1:
            continue
        (owner,) = owners
        points[owner] += with_blank if any(grid[c][1] for c in cells) else full  # type: ignore
    return points


def halma_count(state: State) -> list[int]:
    """Halma: a full set is six pieces; whatever is not on the board has been borne off."""
    return [6 - sum(1 for p in state.board.values() if p.owner == player) for player in (0, 1)]


def vierer_count(state: State) -> list[int]:
    """Vierer: 1 for a player owning four in a row, a column or a printed block."""
    grid = _owner_grid(state)
    groups = []
    for i in range(6):
        for start in range(3):
            groups.append([(start + k, i) for k in range(4)])
            groups.append([(i, start + k) for k in range(4)])
    for bf in (0, 2, 4):
        for br in (0, 2, 4):
            groups.append([(bf, br), (bf + 1, br), (bf, br + 1), (bf + 1, br + 1)])
    result = [0, 0]
    for player in (0, 1):
        if any(all(grid.get(c, (None,))[0] == player for c in g) for g in groups):
            result[player] = 1
    return result


PLAIN_SCORES: dict[str, Callable[[State], list[int]]] = {
    "halma-dominari": halma_count,
    "vierer-dominari": vierer_count,
    "revers-dominari": table_count,
    "score-dominari": table_count,
}


# --- helpers ----------------------------------------------------------------------------------

def bound(game: Game) -> int:
    """No game of any variant needs more actions than this."""
    return 10 * len(game.geometry.cells) + 100


def strangers(rng: random.Random, game: Game) -> Iterator[Action]:
    """Random actions of every kind, mostly illegal, some on and some off the board."""
    cells = list(game.geometry.cells)
    for _ in range(STRANGERS_PER_POSITION):
        cell = rng.choice(cells) if rng.random() < 0.8 else rng.choice(SQUARES)
        number = rng.randint(-1, 11)
        kind = rng.randrange(6)
        if kind == 0:
            yield Place(cell, number)
        elif kind == 1:
            yield Blank(cell, rng.choice([None, 0, 1, 2]))
        elif kind == 2:
            other = rng.choice(cells)
            yield Move((cell, other) if rng.random() < 0.8 else (cell, OFF))
        elif kind == 3:
            yield EndTurn()
        elif kind == 4:
            yield Discard(number)
        else:
            yield Joker(cell, number)


def normalised(action: Action, state: State) -> Action:
    """A blank of the mover's own colour written with its owner is the plain blank."""
    if isinstance(action, Blank) and action.owner is not None and action.owner == state.to_move:
        return Blank(action.cell)
    return action


def assert_document_is_sound(game: Game, state: State) -> dict[str, Any]:
    doc = game.document(state)
    assert DOCUMENT_KEYS <= set(doc), DOCUMENT_KEYS - set(doc)
    doc = json.loads(json.dumps(doc))
    assert doc["variant"] == game.id and doc["players"] == game.players
    assert len(doc["scores"]) == game.players
    assert set(doc["last"]) >= {"flipped", "completed", "points"}
    for cell, piece in doc["cells"].items():
        assert cell in game.geometry.cell_set
        assert "owner" in piece and (piece.get("blank") is True or "number" in piece)
    assert all(cell not in doc["cells"] for cell in doc["dead"])
    assert doc["dead"] == sorted(doc["dead"], key=lambda c: (c[0], int(c[1:])))
    if doc["over"]:
        assert doc["to_move"] is None
    else:
        assert doc["winners"] == [] and doc["to_move"] in range(game.players)
    if "phase" in doc:
        assert doc["phase"] in ("number", "blanks")
    return doc


def assert_houses_hold_each_number_once(game: Game, state: State) -> None:
    for name, cells in game.geometry.houses.items():
        numbers = [state.board[c].number for c in cells
                   if c in state.board and state.board[c].number is not None]
        assert len(numbers) == len(set(numbers)), f"{name} holds {numbers}"


def play_random_game(game: Game, rng: random.Random) -> tuple[list[Action], list[dict]]:
    state = game.initial_state(None)
    actions: list[Action] = []
    documents = [assert_document_is_sound(game, state)]
    plain = PLAIN_SCORES.get(game.id)
    for _ in range(bound(game)):
        assert_houses_hold_each_number_once(game, state)
        if plain is not None:
            assert game.scores(state) == plain(state)
        legal = list(game.legal_actions(state))
        if state.over:
            assert legal == []
            break
        assert legal, "the player to move has no action although the game is not over"
        assert len(set(legal)) == len(legal), "an action is listed twice"
        for action in rng.sample(legal, min(len(legal), LEGAL_CHECKED_PER_POSITION)):
            assert game.check(state, action) is None, action
        for action in rng.sample(legal, min(len(legal), 2)):
            game.apply(state, action)
        if state.phase == "blanks":
            # A place during a blank phase is judged as if the turn had ended first.
            ended = game.apply(state, EndTurn())
            for action in [a for a in legal if isinstance(a, Place)][:LEGAL_CHECKED_PER_POSITION]:
                assert ended.over or game.check(ended, action) is None
        listed = set(legal)
        before = documents[-1]
        for action in strangers(rng, game):
            if normalised(action, state) in listed:
                continue
            illegal = game.check(state, action)
            assert illegal is not None, f"{action} is accepted but not listed"
            assert illegal.reason
            with pytest.raises(IllegalActionError):
                game.apply(state, action)
            assert game.document(state) == before, "a refused action changed the state"
        action = rng.choice(legal)
        state = game.apply(state, action)
        actions.append(action)
        documents.append(assert_document_is_sound(game, state))
    else:
        pytest.fail(f"{game.id}: no end after {bound(game)} actions")
    assert_houses_hold_each_number_once(game, state)
    return actions, documents


@pytest.mark.slow  # 12 whole random games of each game
@pytest.mark.parametrize("variant_id", VARIANTS)
@settings(max_examples=12, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32 - 1), players_pick=st.integers(0, 10))
def test_random_games_keep_the_protocol(variant_id: str, seed: int, players_pick: int) -> None:
    cls = next(c for c in all_variants() if c.id == variant_id)
    players = cls.min_players + players_pick % (cls.max_players - cls.min_players + 1)
    game = new_game(variant_id, players)
    actions, documents = play_random_game(game, random.Random(seed))
    record = Record(game.id, game.players, dict(game.options), {}, actions)
    again = Record.from_json(json.loads(json.dumps(record.to_json())))
    replayed_game, states = replay(again)
    assert [replayed_game.document(s) for s in states] == documents


@pytest.mark.parametrize("variant_id", VARIANTS)
def test_every_variant_describes_itself(variant_id: str) -> None:
    game = new_game(variant_id)
    assert game.name and game.min_players <= game.players <= game.max_players
    geometry = json.loads(json.dumps(game.geometry.to_json()))
    assert geometry["id"] == variant_id
    assert set(geometry["cells"]) == set(game.geometry.cells)
