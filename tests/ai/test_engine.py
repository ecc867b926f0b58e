"""The engine answers every position of every game with a legal action, the same one for the
same seed, and plays DOMINARI turns of several actions consistently."""

from __future__ import annotations

import math
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from sudoku_table.ai import DEFAULT_BUDGETS, LEVELS, Budget, EngineError, choose, decide
from sudoku_table.ai.engine import blank_step, play_turn
from sudoku_table.ai.heuristics import heuristic_for
from sudoku_table.rules.actions import Action, Blank, EndTurn, action_number
from sudoku_table.rules.game import BLANKS_PHASE, Game, State, new_game

from .positions import GAMES, random_position

SMALL = Budget(positions=40, seconds=5.0)
"""Enough for the search to run several rounds, small enough for many examples."""


@pytest.mark.slow  # 150 random positions searched at every level
@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(game_index=st.integers(0, len(GAMES) - 1), plies=st.integers(0, 80),
       seed=st.integers(0, 10_000), level=st.sampled_from(LEVELS),
       with_hand=st.booleans())
def test_every_answer_is_legal(game_index: int, plies: int, seed: int, level: str,
                               with_hand: bool) -> None:
    variant, players = GAMES[game_index]
    game, state = random_position(variant, players, plies, seed)
    assert state.to_move is not None
    supply = game.hand_supply(state, state.to_move)
    hand = None
    if with_hand and supply and state.phase != BLANKS_PHASE:
        hand = random.Random(seed).choice(sorted(supply))
    action = choose(game, state, level=level, seed=seed, hand=hand, budget=SMALL)
    assert game.check(state, action) is None, (variant, action)
    if hand is not None:
        assert action_number(action) == hand
    if state.phase == BLANKS_PHASE:
        assert isinstance(action, Blank | EndTurn), "a blank phase is finished by its mover"


@pytest.mark.parametrize("variant,players", GAMES)
def test_the_same_seed_gives_the_same_action(variant: str, players: int) -> None:
    game, state = random_position(variant, players, 12, seed=7)
    # normal's positions without its clock stop: on a busy machine the clock would cut the
    # search short at a different position each time, and the effort is the positions
    budget = Budget(DEFAULT_BUDGETS["normal"].positions, math.inf)
    first = [choose(game, state, level="normal", seed=s, budget=budget) for s in (1, 2, 3)]
    again = [choose(game, state, level="normal", seed=s, budget=budget) for s in (1, 2, 3)]
    assert first == again


@pytest.mark.parametrize("variant", ["vierer-dominari", "duell-der-meister", "classic-sudoku"])
def test_strong_is_repeatable(variant: str) -> None:
    game, state = random_position(variant, 2, 10, seed=3)
    budget = Budget(positions=600, seconds=30.0)
    one = decide(game, state, level="strong", seed=11, budget=budget)
    two = decide(game, state, level="strong", seed=11, budget=budget)
    assert not one.clock_stop and one.action == two.action
    assert one.positions == two.positions >= 600


def test_a_hidden_hand_is_drawn_from_the_supply_when_not_given() -> None:
    game, state = random_position("classic-sudoku", 2, 5, seed=1)
    assert state.to_move is not None
    supply = game.hand_supply(state, state.to_move)
    assert supply
    numbers = {action_number(choose(game, state, level="easy", seed=s)) for s in range(30)}
    assert numbers <= set(supply) and len(numbers) > 1


def test_bad_input_is_refused_with_a_reason() -> None:
    game, state = random_position("classic-sudoku", 2, 0, seed=1)
    with pytest.raises(EngineError, match="cannot hold 12"):
        choose(game, state, hand=12)
    with pytest.raises(EngineError, match="unknown level"):
        choose(game, state, level="expert")
    halma = new_game("halma-dominari")
    with pytest.raises(EngineError, match="hides no card"):
        choose(halma, halma.initial_state(None), hand=3)
    game, state = random_position("duell-der-meister", 2, 0, seed=1)
    used = [list(c) for c in state.used]  # type: ignore[attr-defined]
    used[0][5] = 4
    spent = state.replace(used=tuple(tuple(c) for c in used))
    with pytest.raises(EngineError, match="cannot hold 5"):
        choose(game, spent, hand=5)


def test_a_finished_game_has_no_move() -> None:
    game = new_game("vierer-dominari")
    state = game.initial_state(None).replace(over=True, to_move=None)
    with pytest.raises(EngineError, match="over"):
        choose(game, state)


def _blank_phase_position(variant: str) -> tuple[Game, State]:
    """A position in the middle of a blank phase, found by random play."""
    for seed in range(300):
        for plies in (15, 25, 35, 45):
            game, state = random_position(variant, 2, plies, seed)
            if not state.over and state.phase == BLANKS_PHASE:
                return game, state
    raise AssertionError(f"no blank phase found in {variant}")


def _finish_stepwise(game: Game, state: State) -> tuple[list[Action], State]:
    """Ask the engine again and again until the mover's turn is over."""
    mover = state.to_move
    heuristic = heuristic_for(game)
    steps: list[Action] = []
    while not state.over and state.phase == BLANKS_PHASE and state.to_move == mover:
        answers = {choose(game, state, level=lvl, seed=s) for lvl in LEVELS for s in (1, 2)}
        assert len(answers) == 1, "every level and seed finishes the turn the same way"
        (step,) = answers
        assert isinstance(step, Blank | EndTurn)
        assert step == blank_step(game, state, heuristic)[0]
        steps.append(step)
        state = game.apply(state, step)
    return steps, state


@pytest.mark.parametrize("variant", ["vierer-dominari", "revers-dominari", "score-dominari"])
def test_a_blank_phase_is_finished_as_planned(variant: str) -> None:
    game, state = _blank_phase_position(variant)
    heuristic = heuristic_for(game)
    planned = state
    while not planned.over and planned.phase == BLANKS_PHASE and \
            planned.to_move == state.to_move:
        planned = blank_step(game, planned, heuristic)[1]
    steps, played = _finish_stepwise(game, state)
    assert steps
    assert played.board == planned.board and played.to_move == planned.to_move


def test_the_number_piece_is_planned_with_its_blanks() -> None:
    """The search values a number piece by the whole turn it opens; asked on each following
    position, the engine plays exactly that turn."""
    found = 0
    for seed in range(300):
        game, state = random_position("vierer-dominari", 2, 10 + seed % 20, seed)
        if state.over or state.phase == BLANKS_PHASE:
            continue
        number = choose(game, state, level="normal", seed=seed)
        after = game.apply(state, number)
        if after.over or after.phase != BLANKS_PHASE:
            continue
        planned = play_turn(game, state, number, heuristic_for(game))
        _, played = _finish_stepwise(game, after)
        assert played.board == planned.board
        found += 1
        if found == 3:
            return
    raise AssertionError("no number piece opened a blank phase")


@pytest.mark.parametrize("variant", ["classic-sudoku", "hexa-sudoku"])
def test_kosmos_strong_weighs_every_card_of_the_next_player(variant: str) -> None:
    """KOSMOS's strong level is expectimax over the next player's card: no card is drawn, so
    any seed gives the same move for the card in hand, and the chances it reports for that
    move are the next player's best reply to each card they may hold, averaged by how many of
    it they have left (computed here by brute force over the rules)."""
    game, state = random_position(variant, 2, 24, seed=3)
    mover = state.to_move
    assert mover is not None
    hand = sorted(game.hand_supply(state, mover) or {})[0]
    budget = Budget(positions=600, seconds=60.0)
    found = decide(game, state, level="strong", seed=0, hand=hand, budget=budget)
    assert decide(game, state, level="strong", seed=99, hand=hand, budget=budget).action == \
        found.action
    assert action_number(found.action) == hand
    heuristic = heuristic_for(game)
    after = game.apply(state, found.action)
    nxt = after.to_move
    assert nxt is not None and nxt != mover
    supply = game.hand_supply(after, nxt) or {}
    total = sum(supply.values())
    expected = [0.0] * state.players
    for number, left in supply.items():
        replies = [game.apply(after, a) for a in game.legal_actions(after)
                   if action_number(a) == number]
        assert replies, "every card has an action (a placement or setting it aside)"
        best = max(replies, key=lambda s: (heuristic.values(game, s)[nxt],
                                           heuristic.margin(game, s, nxt)))
        for p, v in enumerate(heuristic.values(game, best)):
            expected[p] += v * left / total
    assert found.values == pytest.approx(expected)
    assert found.positions >= len([a for a in game.legal_actions(state)
                                   if action_number(a) == hand])
