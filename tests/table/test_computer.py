"""Playing against the computer at the table: a computer seat chooses its action off the lock,
a person carries it out as the lights and the bar say, and it counts only once the sensors see
it done; anything else is a disagreement to put right. Hints show the advised action and why.

A scripted person plays the other seat: a random legal action of the rules, made on the board as
a family would make it (put a piece down and tap its number, lift and set down, turn over).
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from sudoku_table.ai import ComputerConfig
from sudoku_table.rules.actions import Blank, Discard, EndTurn, Joker, Move, Place, action_from_json
from sudoku_table.rules.game import new_game
from sudoku_table.table import InputError, Table
from sudoku_table.table.journal import Journal

from .helpers import Clock, lift, make_table, put, wait

pytestmark = pytest.mark.integration

QUICK = ComputerConfig(**{f"{level}_{part}": value for level in ("easy", "normal", "strong")
                          for part, value in (("positions", 60), ("seconds", 5.0))})
"""Small searches: the tests are about the table, not the engine's strength."""


def start(variant: str, computers: dict[Any, str], journal: Any = None,
          **kwargs: Any) -> tuple[Table, Clock]:
    table, clock, _ = make_table(journal, computer=QUICK)
    table.new_game(variant, computers=computers, **kwargs)
    game = new_game(variant, kwargs.get("players"), kwargs.get("options"))
    setup = game.default_setup()
    if setup:
        for square in setup:
            put(table, clock, square)
    return table, clock


def settled(table: Table) -> dict[str, Any]:
    assert table.wait_for_computer(30.0)
    return table.view()


def turn_over(table: Table, clock: Clock, view: dict[str, Any]) -> dict[str, Any]:
    """Turn every piece the table asks to be turned (a lift and a set-down)."""
    while view["table"]["next"]["code"] == "turn_over":
        for square in view["table"]["next"]["params"]["squares"]:
            lift(table, clock, square)
            view = put(table, clock, square)
    return view


def carry_out(table: Table, clock: Clock, action: Any) -> dict[str, Any]:
    """Make ``action`` on the board as a person would (the number only when the table asks)."""
    if isinstance(action, Place | Blank | Joker):
        view = put(table, clock, action.cell)
        prompt = view["table"]["prompt"]
        if isinstance(action, Place) and prompt and prompt["kind"] == "number":
            view = table.input({"type": "number", "square": action.cell, "number": action.number})
        elif isinstance(action, Joker) and prompt and prompt["kind"] == "number":
            view = table.input({"type": "joker", "square": action.cell, "number": action.number})
        elif isinstance(action, Blank) and prompt and prompt["kind"] == "blank" and \
                action.owner is not None:
            view = table.input({"type": "blank", "square": action.cell, "owner": action.owner})
        return view
    if isinstance(action, Move):
        lift(table, clock, action.path[0])
        for square in action.path[1:]:
            if square == "off":
                return table.input({"type": "bear_off"})
            put(table, clock, square)
            if square != action.path[-1]:
                lift(table, clock, square)
        return wait(table, clock, 1.5)
    if isinstance(action, Discard):
        return table.input({"type": "discard", "number": action.number})
    assert isinstance(action, EndTurn)
    return table.input({"type": "end_turn"})


def person_action(table: Table, rng: random.Random) -> Any:
    """A random legal action of the rules for the person to move (a drawn card where the game
    hides it)."""
    record = table.record()
    assert record is not None
    from sudoku_table.rules.record import Record, replay
    game, states = replay(Record.from_json(record))
    state = states[-1]
    actions = list(game.legal_actions(state))
    supply = game.hand_supply(state, state.to_move) if state.to_move is not None else None
    if supply:
        hand = rng.choice(sorted(n for n, k in supply.items() if k > 0))
        numbered = [a for a in actions if getattr(a, "number", None) == hand]
        actions = numbered or actions
    return rng.choice(actions)


def play_whole_game(variant: str, seat: int, level: str = "easy", seed: int = 1,
                    **kwargs: Any) -> tuple[Table, dict[str, Any], int]:
    """The computer on ``seat`` against a scripted person, to the end; the computer's actions
    carried out as the view's plan says."""
    table, clock = start(variant, {seat: level}, **kwargs)
    rng = random.Random(seed)
    computer_actions = 0
    view = settled(table)
    for _ in range(400):
        view = turn_over(table, clock, settled(table))
        if view["game"]["over"]:
            return table, view, computer_actions
        nxt = view["table"]["next"]
        if nxt["actor"] == seat:
            if nxt["code"] == "computer_hand":
                choices = view["table"]["prompt"]["choices"]
                table.input({"type": "hand", "number": rng.choice(choices)})
                view = settled(table)
                nxt = view["table"]["next"]
            if view["game"]["over"] or view["table"]["next"]["actor"] != seat:
                continue  # the computer's end of turn counted by itself
            assert nxt["code"].startswith("computer_"), nxt
            plan = view["table"]["plan"]
            assert plan is not None, nxt
            before = len(table.record()["actions"])  # type: ignore[index]
            carry_out(table, clock, action_from_json(plan))
            after = table.record()["actions"]  # type: ignore[index]
            # The plan counted, once; the computer's end of turn, which needs nothing on the
            # board, may already have counted by itself after it (its thread does not wait).
            assert after[before] == plan
            assert all(a.get("type") == "end_turn" for a in after[before + 1:]), after[before:]
            computer_actions += 1
        else:
            assert not nxt["code"].startswith("computer_"), nxt
            carry_out(table, clock, person_action(table, rng))
    raise AssertionError("the game did not end")


@pytest.mark.parametrize(("variant", "kwargs"), [
    ("vierer-dominari", {}),
    ("halma-dominari", {}),
    ("revers-dominari", {}),
    ("classic-sudoku", {}),
    ("duell-der-meister", {}),
    ("sudoku-family", {}),
])
def test_the_computer_plays_a_whole_game_against_a_person(variant: str,
                                                          kwargs: dict[str, Any]) -> None:
    table, view, count = play_whole_game(variant, 1, **kwargs)
    assert view["game"]["over"] and count > 0
    table.close()


def computer_to_move(variant: str, **kwargs: Any) -> tuple[Table, Clock, dict[str, Any]]:
    """A game where the computer (seat 0) moves first, its plan known."""
    table, clock = start(variant, {0: "normal"}, **kwargs)
    view = settled(table)
    if view["table"]["next"]["code"] == "computer_hand":
        table.input({"type": "hand", "number": view["table"]["prompt"]["choices"][0]})
        view = settled(table)
    assert view["table"]["plan"] is not None
    return table, clock, view


def test_the_plan_lights_with_its_own_word_and_the_bar_says_it() -> None:
    table, clock, view = computer_to_move("vierer-dominari")
    plan = action_from_json(view["table"]["plan"])
    assert isinstance(plan, Place)
    assert view["table"]["signals"][plan.cell] == "computer"
    nxt = view["table"]["next"]
    assert nxt == {"code": "computer_place", "actor": 0,
                   "params": {"number": plan.number, "square": plan.cell}}
    assert view["table"]["next_text"] == f"put the computer's {plan.number} on {plan.cell}"
    assert view["table"]["prompt"] is None, "the computer's number is never asked"
    assert view["table"]["computers"] == {"0": "normal"}
    table.close()


def put_elsewhere(table: Table, clock: Clock, view: Any,
                  variant: str) -> tuple[Any, str, Any]:
    """A piece put on another square than the computer's plan: shown as a piece to take
    away, and the game unchanged. Returns the plan, the square and the view."""
    plan = action_from_json(view["table"]["plan"])
    before = view["game"]
    wrong = next(c for c in new_game(variant).geometry.cells if c != plan.cell)
    view = put(table, clock, wrong)
    assert view["game"] == before
    assert view["table"]["signals"][wrong] == "illegal"
    assert view["table"]["next"]["code"] == "computer_take_away"
    return plan, wrong, view


def test_a_wrong_placement_is_a_disagreement_never_the_computers_move() -> None:
    table, clock, view = computer_to_move("vierer-dominari")
    before = view["game"]
    plan, wrong, view = put_elsewhere(table, clock, view, "vierer-dominari")
    assert "not the computer's move" in view["table"]["message"]
    with pytest.raises(InputError, match="computer's turn"):
        table.input({"type": "number", "square": wrong, "number": 1})
    view = lift(table, clock, wrong)
    assert view["table"]["next"]["code"] == "computer_place"
    assert view["game"] == before
    view = put(table, clock, plan.cell)
    assert view["game"]["cells"][plan.cell]["number"] == plan.number
    assert table.record()["actions"] == [plan.to_json()]  # type: ignore[index]
    table.close()


def test_a_wrong_move_in_halma_must_go_back() -> None:
    table, clock, view = computer_to_move("halma-dominari")
    plan = action_from_json(view["table"]["plan"])
    assert isinstance(plan, Move)
    assert {plan.path[0], plan.path[-1]} <= {s for s, w in view["table"]["signals"].items()
                                            if w == "computer"}
    before = view["game"]
    mine = [c for c, p in view["game"]["cells"].items() if p["owner"] == 0]
    other = next(c for c in mine if c != plan.path[0])
    view = lift(table, clock, other)
    assert view["table"]["next"] == {"code": "computer_put_back", "actor": 0,
                                     "params": {"square": other}}
    view = put(table, clock, other)
    assert view["game"] == before
    lift(table, clock, plan.path[0])
    empty = next(c for c in new_game("halma-dominari").geometry.cells
                 if c not in view["game"]["cells"] and c not in plan.path)
    view = put(table, clock, empty)
    assert view["table"]["signals"][empty] == "illegal"
    assert view["table"]["next"]["code"] == "lift_again"
    view = wait(table, clock, 3)
    assert view["game"] == before, "a wrong landing never counts"
    lift(table, clock, empty)
    for square in plan.path[1:]:
        put(table, clock, square)
        if square != plan.path[-1]:
            lift(table, clock, square)
    view = wait(table, clock, 1.5)
    assert table.record()["actions"] == [plan.to_json()]  # type: ignore[index]
    table.close()


def test_the_computers_card_is_told_first_and_checked() -> None:
    table, clock = start("classic-sudoku", {0: "easy"})
    view = settled(table)
    assert view["table"]["next"]["code"] == "computer_hand"
    assert view["table"]["next"]["params"]["piece"] == "card"
    prompt = view["table"]["prompt"]
    assert prompt["kind"] == "hand" and prompt["choices"] == list(range(1, 10))
    assert view["table"]["plan"] is None
    with pytest.raises(InputError, match="numbers are 1 to 9, not 12"):
        table.input({"type": "hand", "number": 12})
    cell = new_game("classic-sudoku").geometry.cells[0]
    view = put(table, clock, cell)
    assert view["table"]["signals"][cell] == "illegal", "nothing counts before the card is told"
    lift(table, clock, cell)
    table.input({"type": "hand", "number": 7})
    view = settled(table)
    plan = action_from_json(view["table"]["plan"])
    assert getattr(plan, "number", None) == 7
    # Undo first forgets the card told, then the plan goes with it.
    view = table.input({"type": "undo", "confirm": True})
    assert view["table"]["next"]["code"] == "computer_hand" and view["table"]["plan"] is None
    table.close()


def test_undo_takes_back_the_computers_action_and_it_plays_the_same_again() -> None:
    table, clock, view = computer_to_move("vierer-dominari")
    plan = view["table"]["plan"]
    carry_out(table, clock, action_from_json(plan))
    view = settled(table)
    assert view["table"]["plan"] != plan
    view = table.input({"type": "undo", "confirm": True})
    view = settled(table)
    assert view["table"]["plan"] == plan, "same game, same action count: same choice"
    cell = plan["cell"]
    assert view["table"]["next"]["code"] == "undo_on_board"
    assert view["table"]["next"]["params"]["take_away"] == [cell]
    view = lift(table, clock, cell)
    assert view["table"]["next"]["code"] == "computer_place"
    assert view["table"]["signals"][cell] == "computer"
    table.close()


def test_the_computers_seats_are_kept_in_the_journal_and_resumed(tmp_path: Any) -> None:
    path = tmp_path / "journal.db"
    table, clock = start("vierer-dominari", {"1": "strong"}, journal=path)
    table.close()
    table, clock, _ = make_table(path, computer=QUICK)
    assert table.view()["table"]["computers"] == {"1": "strong"}
    table.close()
    journal = Journal(path)
    assert journal.running_game().computers == {"1": "strong"}  # type: ignore[union-attr]
    journal.close()


@pytest.mark.parametrize(("computers", "match"), [
    ({"2": "easy"}, "not a seat"),
    ({"1": "expert"}, "must be one of easy, normal, strong"),
    (["easy"], "must be an object"),
])
def test_bad_computer_seats_are_refused_and_change_nothing(computers: Any, match: str) -> None:
    table, clock, _ = make_table()
    with pytest.raises(InputError, match=match):
        table.new_game("vierer-dominari", computers=computers)
    assert table.view()["game"] is None
    table.close()


def test_a_hint_shows_the_advised_action_and_why_and_changes_nothing() -> None:
    table, clock = start("vierer-dominari", {}, hints=True)
    before = table.view()["game"]
    view = table.hint()
    assert view["table"]["hint"]["status"] in ("thinking", "ready")
    view = settled(table)
    hint = view["table"]["hint"]
    assert hint["status"] == "ready" and hint["player"] == 0
    action = action_from_json(hint["action"])
    assert isinstance(action, Place)
    assert view["table"]["signals"][action.cell] == "hint"
    assert hint["reasons"] and all({"code", "params", "text"} <= set(r) for r in hint["reasons"])
    assert view["game"] == before and table.record()["actions"] == []  # type: ignore[index]
    # The hint belongs to its position: once the game goes on, it is gone.
    carry_out(table, clock, action)
    assert table.view()["table"]["hint"] is None
    table.close()


def test_the_targets_step_back_on_the_leds_while_a_hint_shows() -> None:
    """With a number chosen, green lights every square where it fits (most of a KOSMOS board);
    the square the hint names must stand out of them: while the hint shows, the targets dim
    to their level behind a hint, and come back at their own level once it is gone."""
    from sudoku_table.table.signals import LIGHTS, STEP_BACK

    table, clock, display = make_table(computer=QUICK)
    table.new_game("classic-sudoku", hints=True)
    view = table.input({"type": "number", "number": 4})
    targets = [s for s, word in view["table"]["signals"].items() if word == "target"]
    assert len(targets) > 40
    assert {display.last_frame[s].level for s in targets} == {LIGHTS["target"].level}
    table.hint()
    view = settled(table)
    hinted = [s for s, word in view["table"]["signals"].items() if word == "hint"]
    assert len(hinted) == 1
    frame = display.last_frame
    assert frame[hinted[0]] == LIGHTS["hint"]
    assert {frame[s].level for s in targets if s not in hinted} == {STEP_BACK["target"]}
    assert STEP_BACK["target"] <= LIGHTS["target"].level / 3
    assert view["table"]["legend"]["target"]["behind_hint"] == STEP_BACK["target"]
    view = table.input({"type": "undo"})  # the number chosen is cancelled, and the hint with it
    assert "hint" not in view["table"]["signals"].values()
    table.close()


def test_hints_switched_off_are_refused_with_a_reason() -> None:
    table, clock = start("vierer-dominari", {1: "easy"}, hints=False)
    with pytest.raises(InputError, match="hints are switched off"):
        table.hint()
    table.close()


def test_a_hint_in_a_hidden_hand_game_needs_the_card_first() -> None:
    table, clock = start("classic-sudoku", {}, hints=True)
    with pytest.raises(InputError, match="first tap the number of your card"):
        table.hint()
    table.input({"type": "number", "number": 4})
    table.hint()
    view = settled(table)
    assert view["table"]["hint"]["status"] == "ready"
    assert action_from_json(view["table"]["hint"]["action"]).number == 4  # type: ignore[attr-defined]
    table.close()
