"""Duell der Meister random games against a plain second referee.

Hypothesis plays random games (each action drawn among the legal ones, on the documented and on
proposed gold cards). A plain referee written here follows the same rulings with none of the
game's code: it finds the opponent's best case in a house by listing every set of numbers the
opponent could still add there (no matching theory) and compares full card rankings. At every
step the markers, the houses claimed, scores, turn and result must agree; no house may hold a
number twice; the numbers offered for a cell must match the legal actions; the stacks must
match the cards played; every game ends; and replaying the record (through JSON) must
reproduce every state document.

Games from a full stack almost always end at twelve markers, so a second test starts random
games with short, uneven stacks: they run into the end by used-up stacks and into passes.
"""

from __future__ import annotations

import json
import random
from collections.abc import Mapping
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sudoku_table.rules.actions import Action, Discard, Place, action_from_json
from sudoku_table.rules.duell import DuellDerMeister, DuellState
from sudoku_table.rules.game import Piece, new_game
from sudoku_table.rules.geometry import Geometry
from sudoku_table.rules.record import Record, replay

MAX_ACTIONS = 72  # two stacks of 36 cards
ENDINGS: list[tuple[bool, bool]] = []
"""(ended by used-up stacks, had a pass) for each short-stack game, to check the coverage."""


def ranking(numbers: list[int]) -> tuple[int, list[int]]:
    return len(numbers), sorted(numbers, reverse=True)


class PlainReferee:
    """Markers by the rulings, counted the long way."""

    def __init__(self, geometry: Geometry, board: Mapping[str, Piece],
                 left: list[dict[int, int]] | None = None) -> None:
        self.geometry = geometry
        self.board: dict[str, tuple[int | None, int]] = {
            c: (p.owner, p.number) for c, p in board.items() if p.number is not None}
        self.left = left or [{n: 4 for n in range(1, 10)} for _ in range(2)]
        self.markers: dict[str, int] = {}
        self.to_move: int | None = 0
        self.winners: tuple[int, ...] = ()
        self.claimed: list[str] = []
        """The houses the last action brought in before they were full."""

    def cards(self, house: str, player: int) -> list[int]:
        return [self.board[c][1] for c in self.geometry.houses[house]
                if c in self.board and self.board[c][0] == player]

    def majority(self, house: str) -> int | None:
        a, b = ranking(self.cards(house, 0)), ranking(self.cards(house, 1))
        if a[0] == 0 and b[0] == 0 or a == b:
            return None
        return 0 if a > b else 1

    def fits(self, cell: str) -> set[int]:
        seen = {self.board[p][1] for p in self.geometry.peers[cell] if p in self.board}
        return set(range(1, 10)) - seen

    def decided_for(self, house: str, claimant: int) -> bool:
        mine = self.cards(house, claimant)
        if not mine:
            return False
        opponent = 1 - claimant
        theirs = self.cards(house, opponent)
        held = {n for n, k in self.left[opponent].items() if k > 0}
        empty = [self.fits(c) & held for c in self.geometry.houses[house] if c not in self.board]
        # A quick fill in cell order: if even that outnumbers the claimant, nothing to list.
        quick: set[int] = set()
        for options in empty:
            quick |= set(sorted(options - quick)[:1])
        if len(theirs) + len(quick) > len(mine):
            return False
        reachable: set[frozenset[int]] = {frozenset()}
        for options in empty:
            reachable |= {added | {n} for added in reachable for n in options if n not in added}
        best = max(ranking(theirs + list(added)) for added in reachable)
        return ranking(mine) > best

    def twelve(self, mover: int) -> bool:
        counts = [list(self.markers.values()).count(p) for p in (0, 1)]
        reached = [p for p in (0, 1) if counts[p] >= 12]
        if reached:
            self.winners = (mover,) if mover in reached else (reached[0],)
            self.to_move = None
        return bool(reached)

    def claim(self, player: int) -> None:
        for house in self.geometry.houses:
            if house not in self.markers and self.decided_for(house, player):
                self.markers[house] = player
                self.claimed.append(house)

    def play(self, action: Action) -> None:
        mover = self.to_move
        assert mover is not None
        self.claimed = []
        self.left[mover][action.number] -= 1  # type: ignore[union-attr]
        if isinstance(action, Place):
            self.board[action.cell] = (mover, action.number)
            for house in self.geometry.houses_of[action.cell]:
                full = all(c in self.board for c in self.geometry.houses[house])
                if full and house not in self.markers:
                    winner = self.majority(house)
                    if winner is not None:
                        self.markers[house] = winner
        self.claim(mover)  # in the same turn
        if self.twelve(mover):
            return
        stacks = [sum(self.left[p].values()) for p in (0, 1)]
        if stacks[1 - mover]:
            player = 1 - mover
        elif stacks[mover]:
            player = mover
        else:
            for house in self.geometry.houses:
                if house not in self.markers and (winner := self.majority(house)) is not None:
                    self.markers[house] = winner
            counts = [list(self.markers.values()).count(p) for p in (0, 1)]
            self.to_move = None
            self.winners = () if counts[0] == counts[1] else (counts.index(max(counts)),)
            return
        self.claim(player)  # as the next turn starts
        self.to_move = player
        self.twelve(mover)


def assert_sound(game: DuellDerMeister, state: DuellState, plain: PlainReferee,
                 played: list[list[Action]], start: DuellState) -> None:
    for name, cells in game.geometry.houses.items():
        numbers = [state.board[c].number for c in cells if c in state.board]
        assert len(numbers) == len(set(numbers)), f"{name} holds {numbers}"
    assert dict(state.markers) == plain.markers
    assert list(state.last.claimed) == plain.claimed
    assert game.scores(state) == [list(plain.markers.values()).count(p) for p in (0, 1)]
    assert (state.to_move, state.over, state.winners) == \
        (plain.to_move, plain.to_move is None, plain.winners)
    for player in (0, 1):
        for n in range(1, 10):
            count = sum(1 for a in played[player]
                        if isinstance(a, (Place, Discard)) and a.number == n)
            assert state.used[player][n] == start.used[player][n] + count <= 4
    assert state.discarded == sum(isinstance(a, Discard) for p in played for a in p)


def play_out(game: DuellDerMeister, state: DuellState, plain: PlainReferee,
             rng: random.Random) -> tuple[list[Action], list[dict]]:
    """Play random actions to the end, checking every position; the actions and documents."""
    start = state
    played: list[list[Action]] = [[], []]
    actions: list[Action] = []
    documents = [game.document(state)]
    for _ in range(MAX_ACTIONS + 1):
        assert_sound(game, state, plain, played, start)
        legal = list(game.legal_actions(state))
        if state.over:
            assert legal == []
            return actions, documents
        assert legal and len(set(legal)) == len(legal)
        for cell in rng.sample(game.geometry.cells, 6):
            listed = sorted(a.number for a in legal if isinstance(a, Place) and a.cell == cell)
            assert game.placeable_numbers(state, cell) == listed
        # Prefer placing, so that games also run long enough to fill houses.
        places = [a for a in legal if isinstance(a, Place)]
        action = rng.choice(places if places and rng.random() < 0.9 else legal)
        assert state.to_move is not None
        played[state.to_move].append(action)
        plain.play(action)
        after = game.apply(state, action)
        assert isinstance(after, DuellState)
        state = after
        actions.append(action)
        documents.append(game.document(state))
    raise AssertionError("the game did not end after both stacks")


def duell() -> DuellDerMeister:
    game = new_game("duell-der-meister")
    assert isinstance(game, DuellDerMeister)
    return game


@pytest.mark.slow  # 25 whole random games against a second referee
@settings(max_examples=25, deadline=None, derandomize=True)
@given(seed=st.integers(0, 2**32 - 1),
       setup_seed=st.one_of(st.none(), st.integers(0, 2**32 - 1)))
def test_random_games_agree_with_a_plain_referee(seed: int, setup_seed: int | None) -> None:
    game = duell()
    setup = game.default_setup(setup_seed)
    state = game.initial_state(setup)
    actions, documents = play_out(game, state, PlainReferee(game.geometry, setup),
                                  random.Random(seed))
    record = Record(game.id, 2, {}, setup, actions)
    again = Record.from_json(json.loads(json.dumps(record.to_json())))
    replayed_game, states = replay(again)
    assert [replayed_game.document(s) for s in states] == documents


@settings(max_examples=60, deadline=None, derandomize=True)
@given(seed=st.integers(0, 2**32 - 1), stacks=st.tuples(st.integers(0, 12), st.integers(1, 12)))
def test_short_uneven_stacks_end_by_majorities(seed: int, stacks: tuple[int, int]) -> None:
    game = duell()
    rng = random.Random(seed)
    left: list[dict[int, int]] = []
    for size in stacks:
        cards = rng.sample([n for n in range(1, 10) for _ in range(4)], size)
        left.append({n: cards.count(n) for n in range(1, 10)})
    state = game.initial_state(None)
    state = state.replace(used=tuple(tuple(0 if n == 0 else 4 - hand[n] for n in range(10))
                                     for hand in left))
    if not stacks[0]:
        state = state.replace(to_move=1)  # the first player has nothing to play
    plain = PlainReferee(game.geometry, state.board, [dict(hand) for hand in left])
    plain.to_move = state.to_move
    _, documents = play_out(game, state, plain, rng)
    ENDINGS.append((documents[-1]["cards_left"] == [0, 0],
                    any(d["passed"] for d in documents)))
    final = documents[-1]
    assert final["over"]
    assert final["cards_left"] == [0, 0] or max(final["scores"]) >= 12
    assert len(documents) - 1 <= sum(stacks)


def test_short_stack_games_reached_the_end_by_stacks_and_passes() -> None:
    if not ENDINGS:
        test_short_uneven_stacks_end_by_majorities()
    assert any(by_stacks for by_stacks, _ in ENDINGS)
    assert any(passed for _, passed in ENDINGS)


EXAMPLES = sorted((Path(__file__).parent.parent / "data" / "examples").glob("duell-*.json"))


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.stem)
def test_the_reference_records_agree_with_the_plain_referee(path: Path) -> None:
    """The stored reference states (markers, scores, winner) are the plain referee's too, so
    they do not merely repeat what the game's own code says."""
    data = json.loads(path.read_text())
    game = duell()
    plain = PlainReferee(game.geometry, game.parse_setup(data["record"]["setup"]))
    for raw in data["record"]["actions"]:
        assert plain.to_move is not None, "the game ended before the record did"
        plain.play(action_from_json(raw))
    expected = data["state"]
    assert plain.markers == expected["markers"]
    assert [list(plain.markers.values()).count(p) for p in (0, 1)] == expected["scores"]
    assert (plain.to_move, list(plain.winners)) == (expected["to_move"], expected["winners"])
