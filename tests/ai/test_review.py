"""The review judges each move against the computer's, with only what its player knew."""

from __future__ import annotations

import json
import random
from itertools import islice
from pathlib import Path

from sudoku_table.ai import Budget
from sudoku_table.ai.engine import candidates
from sudoku_table.ai.review import AS_GOOD, Judgement, judge, review, summarize
from sudoku_table.rules.actions import Place, action_number
from sudoku_table.rules.game import Piece, new_game
from sudoku_table.rules.record import Record, replay

STEADY = Budget(positions=300, seconds=60.0)
"""Enough positions to find the moves these tests know, and a clock that never stops the
search first (so every run judges alike, whatever else the machine does)."""

EXAMPLES = Path(__file__).parent.parent / "data" / "examples"


def _vierer_four_open():  # type: ignore[no-untyped-def]
    """White holds a1, b1, c1 with d1 empty and is to move: d1 wins at once."""
    game = new_game("vierer-dominari")
    state = game.initial_state({"a1": Piece(0, 1), "b1": Piece(0, 2), "c1": Piece(0, 3),
                                "a3": Piece(1, 2), "c3": Piece(1, 4), "e5": Piece(1, 5)})
    return game, state


def test_a_win_left_on_the_board_is_a_chance_missed() -> None:
    game, state = _vierer_four_open()
    elsewhere = next(a for a in candidates(game, state)
                     if isinstance(a, Place) and a.cell == "f5")
    judged = judge(game, state, elsewhere, index=0, budget=STEADY)
    assert isinstance(judged.best, Place) and judged.best.cell == "d1"
    assert judged.verdict == "miss" and not judged.as_good
    assert judged.measure == "chance"  # Vierer is won by four in a row, not by points
    assert judged.best_chance == 1.0 and judged.loss > 0.5
    codes = [r.code for r in judged.reasons]
    assert codes[:2] == ["wins", "four"]
    assert judged.reasons[1].params["cells"] == ["a1", "b1", "c1", "d1"]
    assert judged.points == (0, 0) and judged.best_points == game.apply(
        state, judged.best).last.points


def test_the_computers_own_move_is_best_and_loses_nothing() -> None:
    game, state = _vierer_four_open()
    winning = next(a for a in candidates(game, state) if isinstance(a, Place) and a.cell == "d1"
                   and a.number == 4)
    judged = judge(game, state, winning, index=0, budget=STEADY)
    assert judged.best == winning
    assert judged.verdict == "best" and judged.loss == 0.0
    assert [r.code for r in judged.played_reasons][:1] == ["wins"]


def _kosmos_line_open():  # type: ignore[no-untyped-def]
    """Classic: player 0 holds a1 and b1 (1, 2), player 1 holds a2: a 3 on c1 closes the line
    a1-c1 for player 0 (the position of the hints' test)."""
    game = new_game("classic-sudoku")
    state = game.initial_state(None)
    for cell, number in (("a1", 1), ("a2", 4), ("b1", 2), ("d9", 4)):
        state = game.apply(state, Place(cell, number))
    return game, state


def test_points_left_on_the_table_are_counted_in_points() -> None:
    game, state = _kosmos_line_open()
    elsewhere = Place("h8", 3)
    assert game.check(state, elsewhere) is None
    judged = judge(game, state, elsewhere, index=4, budget=STEADY)
    assert judged.best == Place("c1", 3)
    assert judged.hand == 3, "judged with the card the move played, the one in hand"
    assert judged.measure == "points"
    assert judged.best_points[0] > 0 and judged.points[0] == 0
    assert judged.loss >= judged.best_points[0] - 1, "the points now are most of the loss"
    assert judged.verdict in ("slip", "miss")
    points = next(r for r in judged.reasons if r.code == "points")
    assert "line a1-c1" in points.params["areas"]


def test_a_card_that_fits_one_square_only_is_forced() -> None:
    """Along a KOSMOS game, a card that fits one square only leaves no choice: the move is
    forced, as good as any, and never counted against its player."""
    game = new_game("kakuro", 2)
    rng = random.Random(5)
    state = game.initial_state(None)
    found = None
    while not state.over and found is None:
        actions = candidates(game, state)
        by_card: dict[int | None, list] = {}  # type: ignore[type-arg]
        for a in actions:
            by_card.setdefault(action_number(a), []).append(a)
        single = [group[0] for group in by_card.values() if len(group) == 1]
        if single:
            found = single[0]
            break
        state = game.apply(state, actions[rng.randrange(len(actions))])
    assert found is not None, "some card fits one square only along the game"
    judged = judge(game, state, found, index=0, budget=STEADY)
    assert judged.verdict == "forced" and judged.as_good and judged.loss == 0.0
    summary = summarize([judged], game.players)[state.to_move]
    assert (summary.moves, summary.choices, summary.forced) == (1, 0, 1)


def _continued(record: Record, keep: int, seed: int) -> Record:
    """``record``'s first ``keep`` actions, then random legal play to the end: the same game
    up to there, other cards drawn after it."""
    game, states = replay(Record(record.variant, record.players, record.options, record.setup,
                                 record.actions[:keep]))
    state = states[-1]
    actions = list(record.actions[:keep])
    rng = random.Random(seed)
    while not state.over:
        choices = candidates(game, state)
        action = choices[rng.randrange(len(choices))]
        actions.append(action)
        state = game.apply(state, action)
    return Record(record.variant, record.players, record.options, record.setup, actions)


def _same(a: Judgement, b: Judgement) -> dict[str, object]:
    first, second = a.to_json(), b.to_json()
    first.pop("seconds"), second.pop("seconds")
    return {k: (first[k], second[k]) for k in first if first[k] != second[k]}


def test_a_move_is_judged_without_the_cards_drawn_after_it() -> None:
    """The same game up to move 8 and other cards drawn from move 9 on (the next player's
    card, and every later one): the judgement of moves 6-8 does not change. A review that
    looked at the next draw or at anything later in the record fails here."""
    data = json.loads((EXAMPLES / "duell-der-meister-7-62.json").read_text())
    record = Record.from_json(data["record"])
    keep = 8
    other = _continued(record, keep, seed=11)
    assert other.actions[keep] != record.actions[keep], "the next card differs"
    judged = {}
    for name, rec in (("as played", record), ("other draws", other)):
        game, states = replay(rec)
        # the whole record goes in, later draws and all; moves 7 and 8 come out
        judged[name] = list(islice(review(game, states, rec.actions, budget=STEADY, start=6), 2))
    for a, b in zip(judged["as played"], judged["other draws"], strict=True):
        assert not _same(a, b), (a.index, _same(a, b))
    assert [j.index for j in judged["as played"]] == [6, 7]


def test_judged_with_the_card_played_not_a_drawn_one() -> None:
    """In a game that hides the hand, the engine is given the card the move played: every
    judged move's best move plays that same card."""
    data = json.loads((EXAMPLES / "sudoku-family-7-34.json").read_text())
    record = Record.from_json(data["record"])
    game, states = replay(record)
    for judged in review(game, states, record.actions[:6], budget=STEADY):
        assert judged.hand == action_number(judged.action)
        assert action_number(judged.best) == judged.hand


def test_a_judgement_keeps_as_json() -> None:
    game, state = _kosmos_line_open()
    judged = judge(game, state, Place("h8", 3), index=4, budget=STEADY)
    again = Judgement.from_json(json.loads(json.dumps(judged.to_json())))
    assert again.to_json() == judged.to_json()
    assert again.best == judged.best and again.reasons == judged.reasons


def test_the_summary_counts_choices_and_names_the_biggest_miss() -> None:
    def made(index: int, player: int, verdict: str, loss: float) -> Judgement:
        return Judgement(index=index, player=player, action=Place("a1", 1),
                         best=Place("c4", 7), verdict=verdict, measure="points", loss=loss)

    moves = [made(0, 0, "best", 0), made(1, 1, "miss", 3.0), made(2, 0, "forced", 0),
             made(3, 1, "slip", 1.0), made(4, 0, "good", 0.2), made(5, 1, "miss", 5.0),
             made(6, 0, "miss", 2.5)]
    anna, ben = summarize(moves, 2)
    assert (anna.moves, anna.choices, anna.as_good, anna.forced) == (4, 3, 2, 1)
    assert anna.biggest is not None and anna.biggest.index == 6
    assert (ben.moves, ben.choices, ben.as_good) == (3, 3, 0)
    assert ben.biggest is not None and ben.biggest.index == 5
    assert {"best", "good", "forced"} == set(AS_GOOD)
    assert summarize(moves[:1], 2)[1].biggest is None
