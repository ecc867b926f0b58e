"""A hint's reasons are true: its points are the points ``apply`` awards, a blocked four was a
real threat, the flips are the pieces that turn."""

from __future__ import annotations

import pytest

from sudoku_table.ai import WORDINGS, Advice, Budget, Motive, advise
from sudoku_table.ai.heuristics import heuristic_for
from sudoku_table.ai.heuristics.dominari import crossed
from sudoku_table.ai.heuristics.dominari import movable_pieces as movable
from sudoku_table.ai.heuristics.family import areas_to_complete, threat
from sudoku_table.ai.heuristics.kosmos import section_leader as kosmos_leader
from sudoku_table.rules.actions import Move, Place
from sudoku_table.rules.dominari.vierer import FOURS
from sudoku_table.rules.game import Piece, new_game, variant_class

from .positions import GAMES, VARIANTS, random_position

QUICK = Budget(positions=200, seconds=30.0)


def _check_against_apply(game, state, advice: Advice) -> None:  # type: ignore[no-untyped-def]
    mover = state.to_move
    after = game.apply(state, advice.action)
    codes = [r.code for r in advice.reasons]
    assert codes[-1] == "chance"
    for reason in advice.reasons:
        assert reason.code in WORDINGS
        reason.text()  # every template fills from its parameters
        if reason.code == "points":
            assert reason.params["points"] == after.last.points[mover]
            assert reason.params["areas"] == list(after.last.completed)
        if reason.code == "gives":
            assert after.last.points[reason.params["player"]] == reason.params["points"]
        if reason.code == "flips":
            assert reason.params["count"] == len(after.last.flipped) > 0
        if reason.code == "wins":
            assert after.over and after.winners == (mover,)
        _check_position_reason(game, state, advice.action, after, reason)
    if any(p > 0 for p in after.last.points[mover:mover + 1]) and \
            game.family not in ("DOMINARI", "Duell der Meister"):
        assert "points" in codes or "points_plain" in codes


def _check_position_reason(game, state, action, after, reason: Motive) -> None:  # type: ignore[no-untyped-def]
    """The reasons that speak of the position (leads, groups, pieces that can move, areas
    left one stone from full) say what the position really holds."""
    mover = state.to_move
    code, params = reason.code, reason.params
    if code in ("leads", "extends_lead") and game.family not in ("Duell der Meister",):
        for name in params["areas"]:
            cells = game.geometry.sections[name]
            assert kosmos_leader(after, cells) == mover
            assert (kosmos_leader(state, cells) == mover) == (code == "extends_lead")
    if code == "builds_four":
        groups = [g for g in FOURS if action.cell in g
                  and any(after.board.get(c) is not None and after.board[c].owner == mover
                          for c in g)
                  and not any(after.board.get(c) is not None
                              and after.board[c].owner not in (None, mover) for c in g)]
        assert params["count"] == len(groups) > 0
    if code in ("frees", "hinders"):
        player = mover if code == "frees" else params["player"]
        change = movable(game, after, player) - movable(game, state, player)
        assert change == (params["count"] if code == "frees" else -params["count"]) != 0
    if code == "crosses":
        number = params["number"]
        assert state.board[action.start].number == number
        assert params["player"] == 1 - mover
        twin = next(c for c, p in state.board.items()
                    if p.number == number and p.owner == params["player"])
        pairs = [(action.start, twin), (action.path[-1], twin)]
        if mover == 1:
            pairs = [(t, m) for m, t in pairs]
        assert not crossed(*pairs[0]) and crossed(*pairs[1])
    if code == "safe":
        assert after.to_move == params["player"] != mover and threat(game, after) == 0
    if code == "least_given":
        assert after.to_move == params["player"] != mover
        assert params["points"] == threat(game, after) > 0
        for other in game.legal_actions(state):
            if getattr(other, "number", None) == action.number:
                assert threat(game, game.apply(state, other)) >= params["points"]
    if code == "prepares":
        assert after.to_move == mover
        assert params["areas"] and all(a in areas_to_complete(game, after)
                                       and a not in areas_to_complete(game, state)
                                       for a in params["areas"])


@pytest.mark.parametrize("variant,players", GAMES)
def test_reasons_match_what_apply_does(variant: str, players: int) -> None:
    for seed in range(4):
        game, state = random_position(variant, players, 8 + 9 * seed, seed)
        _check_against_apply(game, state, advise(game, state, seed=seed, budget=QUICK))


def test_kosmos_points_name_the_areas_completed() -> None:
    game = new_game("classic-sudoku")
    state = game.initial_state(None)
    # player 0 holds a1 and b1 (1, 2); player 1 holds a2 (4): c1 closes the line a1-c1
    for cell, number in (("a1", 1), ("a2", 4), ("b1", 2), ("d9", 4)):
        state = game.apply(state, Place(cell, number))
    advice = advise(game, state, hand=3, budget=QUICK)
    assert advice.action == Place("c1", 3)
    points = next(r for r in advice.reasons if r.code == "points")
    after = game.apply(state, advice.action)
    assert points.params == {"points": after.last.points[0], "areas": list(after.last.completed)}
    assert "line a1-c1" in points.params["areas"]
    assert points.text().startswith(f"+{after.last.points[0]}: completes ")


def test_halma_says_when_a_piece_gets_past_its_twin() -> None:
    # White's 5 on b3 jumps over Black's 5 on c4 to d5: right of it and above it, the two
    # can no longer block each other. White's 1 stepping to b2 is still below and left of
    # Black's 1 on e6. The words count right: one jump, two steps, one step.
    game = new_game("halma-dominari")
    state = game.initial_state({"b3": Piece(0, 5), "a1": Piece(0, 1), "c4": Piece(1, 5),
                                "e6": Piece(1, 1)})
    heuristic = heuristic_for(game)
    jump = Move(("b3", "d5"))
    step = Move(("a1", "b2"))
    for move, expected in ((jump, True), (step, False)):
        assert game.check(state, move) is None
        after = game.apply(state, move)
        reasons = heuristic.reasons(game, state, move, after, 0)
        crossing = [r for r in reasons if r.code == "crosses"]
        assert bool(crossing) is expected, reasons
        for reason in crossing:
            _check_position_reason(game, state, move, after, reason)
            assert reason.text(seats=("White", "Black")) == \
                "gets your 5 past Black's 5: the two can no longer block each other"
        texts = [r.text() for r in reasons]
        assert texts == (["gets your 5 past player 2's 5: the two can no longer block each "
                          "other", "jumps over one piece",
                          "brings the piece 2 steps nearer the exit"] if expected
                         else ["brings the piece one step nearer the exit"]), texts


def test_vierer_blocks_a_real_four() -> None:
    game = new_game("vierer-dominari")
    board = {"a1": Piece(1, 1), "b1": Piece(1, 2), "c1": Piece(1, 3),
             "a3": Piece(0, 2), "c3": Piece(0, 4)}
    state = game.initial_state(board)
    assert state.to_move == 0
    advice = advise(game, state, budget=Budget(600, 30.0))
    assert isinstance(advice.action, Place) and advice.action.cell == "d1"
    block = next(r for r in advice.reasons if r.code == "blocks_four")
    assert block.params["player"] == 1
    cells = block.params["cells"]
    assert "d1" in cells
    owners = [state.board[c].owner for c in cells if c != "d1"]
    assert owners == [1, 1, 1], "Black really held the other three"
    assert block.text(seats=("White", "Black")) == \
        f"blocks Black's four in a row ({', '.join(cells)})"


def test_revers_counts_its_flips() -> None:
    game = new_game("revers-dominari")
    state = game.initial_state(None)
    advice = advise(game, state, budget=QUICK)
    after = game.apply(state, advice.action)
    flips = next(r for r in advice.reasons if r.code == "flips")
    assert flips.params["count"] == len(after.last.flipped) >= 1


def test_duell_reasons_name_markers_and_leads() -> None:
    game, state = random_position("duell-der-meister", 2, 60, seed=2)
    advice = advise(game, state, budget=QUICK)
    after = game.apply(state, advice.action)
    for reason in advice.reasons:
        if reason.code == "markers":
            assert all(after.markers[h] == state.to_move for h in reason.params["areas"])
        if reason.code == "overtakes":
            assert reason.params["player"] == 1 - state.to_move


def test_a_reason_reads_in_german_through_the_catalog() -> None:
    from sudoku_table.web.i18n import translate

    reason = Motive("points", {"points": 3, "areas": ["rank 4", "block b4"]})
    assert reason.text() == "+3: completes rank 4, block b4"
    german = reason.text(lambda s: translate(s, "de"))
    assert german != reason.text() and "rank 4, block b4" in german
    seat = Motive("gives", {"player": 2, "points": 1})
    assert seat.text() == "also gives player 3 +1"


def test_advice_as_json() -> None:
    game, state = random_position("sudoku-family", 2, 10, seed=1)
    data = advise(game, state, hand=None, seed=2, budget=QUICK).to_json()
    assert set(data) == {"action", "reasons", "chance"}
    assert all(set(r) == {"code", "params", "text"} for r in data["reasons"])


@pytest.mark.slow  # hints over whole games of the game
@pytest.mark.parametrize("variant", [v for v in VARIANTS if variant_class(v).max_players >= 2])
def test_a_hint_says_more_than_its_chance(variant: str) -> None:
    """A new user asking for a hint learns what the move does, not only the search's
    percentage: in every game at most a quarter of the positions along a game are left with
    the chance alone; in SUDOKU FAMILY, whose first stone of a pair is often quiet (nothing to
    complete, nothing left to the others yet), at most half."""
    import random

    from sudoku_table.ai.engine import candidates, draw
    from sudoku_table.rules.actions import action_number

    game = new_game(variant, 2)
    rng = random.Random(7)
    state = game.initial_state(None)
    asked = bare = 0
    ply = 0
    while not state.over and asked < 8:
        supply = game.hand_supply(state, state.to_move)
        hand = draw(supply, rng) if supply and state.phase is None else None
        if ply % 3 == 1:
            advice = advise(game, state, hand=hand, seed=ply, budget=QUICK)
            asked += 1
            bare += [r.code for r in advice.reasons] == ["chance"]
        actions = [a for a in candidates(game, state)
                   if hand is None or action_number(a) == hand]
        state = game.apply(state, actions[rng.randrange(len(actions))])
        ply += 1
    assert asked >= 3
    share = 2 if variant == "sudoku-family" else 4
    assert share * bare <= asked, \
        f"{bare} of {asked} hints in {variant} gave only the chance to win"
