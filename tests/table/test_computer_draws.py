"""The table draws the computer's card: in the games where each player has a pile of their own
(KOSMOS SUDOKU, Duell der Meister) the computer's cards can lie face up beside the board, and on
its turn the table draws one at random from what it has left, journals it, and the bar names it
together with where it goes. A restart or a replay of the journal gives the same card; a
take-back puts it back and the next draw is a fresh, fair and journaled one.
"""

from __future__ import annotations

import random
import sqlite3
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from sudoku_table.rules.actions import Discard, Place, action_from_json
from sudoku_table.rules.game import new_game
from sudoku_table.table import InputError, Table
from sudoku_table.table.computer import draw_card
from sudoku_table.table.journal import DRAW, Journal

from .helpers import Clock, lift, make_table, put
from .test_computer import QUICK, carry_out, person_action, put_elsewhere, settled


def start(variant: str, seat: int, journal: Any = None, **kwargs: Any) -> tuple[Table, Clock]:
    table, clock, _ = make_table(journal, computer=QUICK)
    table.new_game(variant, computers={seat: "normal"}, computer_draws=True, **kwargs)
    for square in new_game(variant, kwargs.get("players"), kwargs.get("options")).default_setup():
        put(table, clock, square)
    return table, clock


def supply_now(table: Table, seat: int | None = None) -> dict[int, int]:
    """What ``seat`` (default: the mover) has left to draw from, as the rules say for the
    recorded game."""
    from sudoku_table.rules.record import Record, replay
    record = table.record()
    assert record is not None
    game, states = replay(Record.from_json(record))
    state = states[-1]
    seat = state.to_move if seat is None else seat
    assert seat is not None
    return game.hand_supply(state, seat) or {}


def draws(path: Path) -> list[dict[str, Any]]:
    journal = Journal(path)
    stored = journal.running_game()
    journal.close()
    assert stored is not None
    return [data for kind, data in stored.entries if kind == DRAW]


def person_moves(table: Table, clock: Clock, seed: int = 3) -> dict[str, Any]:
    settled(table)
    action = person_action(table, random.Random(seed))
    carry_out(table, clock, action)
    return settled(table)


@pytest.mark.integration
@pytest.mark.parametrize("variant", ["classic-sudoku", "duell-der-meister"])
def test_the_table_draws_the_computers_card_and_the_bar_names_it(variant: str,
                                                                  tmp_path: Path) -> None:
    path = tmp_path / "journal.db"
    table, clock = start(variant, 0, path)
    view = settled(table)
    assert view["table"]["computer_draws"] is True
    nxt = view["table"]["next"]
    plan = action_from_json(view["table"]["plan"])
    assert isinstance(plan, Place | Discard)
    assert nxt["actor"] == 0
    assert view["table"]["prompt"] is None or view["table"]["prompt"]["kind"] == "discard"
    supply = supply_now(table)
    assert supply.get(plan.number, 0) > 0, "the drawn card is one the computer has left"
    assert draws(path) == [{"seat": 0, "number": plan.number}], "journaled, once"
    if isinstance(plan, Place):
        assert nxt == {"code": "computer_draw_place", "actor": 0,
                       "params": {"number": plan.number, "square": plan.cell}}
        assert view["table"]["next_text"] == (f"take the computer's {plan.number} and put it "
                                              f"on {plan.cell}")
        assert view["table"]["signals"][plan.cell] == "computer"
        before = len(table.record()["actions"])  # type: ignore[index]
        view = put(table, clock, plan.cell)
        assert table.record()["actions"][before:] == [plan.to_json()]  # type: ignore[index]
        assert view["game"]["cells"][plan.cell]["number"] == plan.number
    table.close()


@pytest.mark.integration
def test_the_start_says_to_lay_the_computers_cards_face_up() -> None:
    table, clock, _ = make_table(computer=QUICK)
    view = table.new_game("classic-sudoku", computers={1: "easy"}, computer_draws=True)
    assert view["table"]["message_code"]["code"] == "new_game_draws"  # type: ignore[index]
    assert "face up beside the board" in view["table"]["message"]
    table.close()
    table, clock, _ = make_table(computer=QUICK)
    view = table.new_game("duell-der-meister", computers={1: "easy"}, computer_draws=True)
    assert view["table"]["message_code"]["code"] == "set_up_board_draws"  # type: ignore[index]
    table.close()


@pytest.mark.integration
@pytest.mark.parametrize("variant", ["classic-sudoku", "duell-der-meister"])
def test_the_same_card_after_a_restart_and_only_one_draw(variant: str, tmp_path: Path) -> None:
    path = tmp_path / "journal.db"
    table, clock = start(variant, 1, path)
    person_moves(table, clock)
    view = settled(table)
    plan = view["table"]["plan"]
    assert view["table"]["next"]["actor"] == 1 and plan is not None
    drawn = draws(path)
    assert len(drawn) == 1
    occupied = view["table"]["occupied"]
    table.close()  # the power goes off before the computer's card is put down
    table, clock, _ = make_table(path, computer=QUICK)
    table.set_board(occupied)
    view = settled(table)
    assert view["table"]["computer_draws"] is True
    assert view["table"]["plan"] == plan, "the same card, and so the same move"
    assert draws(path) == drawn, "no new draw after the restart"
    assert view["table"]["next"]["code"].startswith("computer_draw_")
    table.close()


@pytest.mark.integration
def test_a_restart_between_the_draw_and_its_entry_draws_the_same_card(tmp_path: Path) -> None:
    """The draw depends only on the game's seed and how many cards were drawn before it."""
    path = tmp_path / "journal.db"
    table, clock = start("classic-sudoku", 1, path)
    person_moves(table, clock)
    number = action_from_json(settled(table)["table"]["plan"]).number  # type: ignore[attr-defined]
    table.close()
    journal = Journal(path)
    stored = journal.running_game()
    assert stored is not None and stored.draw_seed is not None
    assert draw_card(supply_now_of(stored), stored.draw_seed, 0) == number
    journal.close()


@pytest.mark.integration
def test_a_draw_the_journal_can_no_longer_use_loses_no_action(tmp_path: Path) -> None:
    """Start data damaged outside the chain (the seed of the draws gone): every action is
    replayed all the same, and a person tells the computer's card as without the choice."""
    path = tmp_path / "journal.db"
    table, clock = start("classic-sudoku", 1, path)
    person_moves(table, clock)
    plan = action_from_json(settled(table)["table"]["plan"])
    put(table, clock, plan.cell)  # type: ignore[attr-defined]
    person_moves(table, clock, seed=5)
    actions = table.record()["actions"]  # type: ignore[index]
    occupied = settled(table)["table"]["occupied"]
    table.close()
    assert len(draws(path)) == 2 and len(actions) == 3
    db = sqlite3.connect(path)
    db.execute("""UPDATE games SET names = '{"computers": {"1": "normal"}}'""")
    db.commit()
    db.close()
    table, clock, _ = make_table(path, computer=QUICK)
    table.set_board(occupied)
    view = settled(table)
    assert table.record()["actions"] == actions  # type: ignore[index]
    assert view["table"]["computer_draws"] is False
    assert view["table"]["next"]["code"] == "computer_hand"
    assert view["table"]["recovery"] is None, "nothing was set aside"
    table.close()


def supply_now_of(stored: Any) -> dict[int, int]:
    game = new_game(stored.variant, stored.players, stored.options)
    state = game.initial_state()
    for kind, data in stored.entries:
        if kind == "action":
            state = game.apply(state, action_from_json(data))
    return game.hand_supply(state, state.to_move) or {}


@pytest.mark.integration
def test_a_wrong_square_or_card_is_a_disagreement_and_changes_nothing() -> None:
    table, clock = start("classic-sudoku", 0)
    view = settled(table)
    before = view["game"]
    plan, wrong, view = put_elsewhere(table, clock, view, "classic-sudoku")
    assert isinstance(plan, Place)
    other = next(n for n in range(1, 10) if n != plan.number)
    with pytest.raises(InputError, match="the table draws the computer's cards"):
        table.input({"type": "hand", "number": other})
    with pytest.raises(InputError, match="computer's turn"):
        table.input({"type": "number", "square": wrong, "number": other})
    view = lift(table, clock, wrong)
    assert view["game"] == before
    assert view["table"]["plan"] == plan.to_json(), "still the same card and square"
    assert view["table"]["next"]["code"] == "computer_draw_place"
    assert not table.view()["table"]["can_undo"], "undo cannot draw the card again"
    table.close()


@pytest.mark.integration
def test_undo_puts_the_card_back_and_the_next_draw_is_fresh_and_journaled(
        tmp_path: Path) -> None:
    path = tmp_path / "journal.db"
    table, clock = start("classic-sudoku", 0, path)
    view = settled(table)
    plan = action_from_json(view["table"]["plan"])
    assert isinstance(plan, Place)
    full = supply_now(table, 0)
    put(table, clock, plan.cell)
    assert supply_now(table, 0)[plan.number] == full[plan.number] - 1
    table.input({"type": "undo", "confirm": True})
    assert supply_now(table, 0) == full, "the card is back in the computer's supply"
    view = lift(table, clock, plan.cell)
    view = settled(table)
    assert [d["seat"] for d in draws(path)] == [0, 0], "a second draw, journaled"
    again = action_from_json(view["table"]["plan"])
    assert draws(path)[1]["number"] == again.number  # type: ignore[attr-defined]
    # The replay of the journal (draw, action, undo, draw) holds the second card.
    occupied = view["table"]["occupied"]
    table.close()
    table, clock, _ = make_table(path, computer=QUICK)
    table.set_board(occupied)
    assert settled(table)["table"]["plan"] == again.to_json()
    assert len(draws(path)) == 2
    table.close()


def test_the_draw_is_uniform_over_the_cards_left() -> None:
    supply = {1: 4, 2: 1, 5: 2, 9: 3}
    total = sum(supply.values())
    n = 20000
    counts = Counter(draw_card(supply, seed, i) for seed in range(200) for i in range(100))
    assert set(counts) == set(supply)
    chi2 = sum((counts[k] - n * v / total) ** 2 / (n * v / total) for k, v in supply.items())
    assert chi2 < 16.3, (counts, chi2)  # 3 degrees of freedom, p = 0.001
    assert draw_card(supply, 7, 3) == draw_card(dict(supply), 7, 3)
    with pytest.raises(ValueError, match="no card left"):
        draw_card({3: 0}, 1, 0)


@pytest.mark.integration
def test_the_draws_after_undos_are_uniform_too() -> None:
    """A draw after a take-back is a new draw from the full supply (not the old card again)."""
    table, clock = start("classic-sudoku", 0)
    counts: Counter[int] = Counter()
    for _ in range(30):
        view = settled(table)
        plan = action_from_json(view["table"]["plan"])
        counts[plan.number] += 1  # type: ignore[attr-defined]
        put(table, clock, plan.cell)  # type: ignore[attr-defined]
        table.input({"type": "undo", "confirm": True})
        lift(table, clock, plan.cell)  # type: ignore[attr-defined]
    assert len(counts) >= 5, counts
    table.close()


@pytest.mark.integration
def test_the_human_players_cards_stay_hidden() -> None:
    table, clock = start("classic-sudoku", 1)
    view = settled(table)
    assert view["table"]["next"]["code"] == "place"
    assert view["table"]["plan"] is None
    assert table.view()["table"]["next"]["actor"] == 0
    table.close()


@pytest.mark.integration
@pytest.mark.parametrize(("variant", "computers", "draws_", "match"), [
    ("sudoku-family", {1: "easy"}, True, "pile of their own"),
    ("vierer-dominari", {1: "easy"}, True, "pile of their own"),
    ("classic-sudoku", {}, True, "only for the computer"),
    ("classic-sudoku", {1: "easy"}, "yes", "true or false"),
])
def test_bad_draw_choices_are_refused_and_change_nothing(variant: str, computers: Any,
                                                         draws_: Any, match: str) -> None:
    table, clock, _ = make_table()
    with pytest.raises(InputError, match=match):
        table.new_game(variant, computers=computers, computer_draws=draws_)
    assert table.view()["game"] is None
    table.close()


@pytest.mark.integration
def test_without_the_choice_a_person_still_tells_the_card(tmp_path: Path) -> None:
    path = tmp_path / "journal.db"
    table, clock, _ = make_table(path, computer=QUICK)
    table.new_game("classic-sudoku", computers={0: "easy"})
    view = settled(table)
    assert view["table"]["computer_draws"] is False
    assert view["table"]["next"]["code"] == "computer_hand"
    assert draws(path) == []
    table.close()
