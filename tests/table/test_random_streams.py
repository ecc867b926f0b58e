"""Random sensor streams and panel inputs never raise and never break the game.

Whatever arrives (bounce, pieces in twos, knocks, nonsense from the panel), the game the table
holds is always exactly the replay of its own record, every lit square carries a word of the
LED language, and a view is always available.
"""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from sudoku_table.rules.actions import action_from_json
from sudoku_table.rules.game import all_variants
from sudoku_table.table import InputError
from sudoku_table.table.signals import SIGNALS

from .fakes import FAKES, resolve
from .helpers import lift, make_table, put, wait
from .test_playthrough import play

VARIANTS = [*FAKES, *(cls.id for cls in all_variants())]
"""Every registered variant, so a renamed or new variant is played, never skipped."""
BOARD = [f"{f}{r}" for f in "abcdef" for r in range(1, 7)] + ["g7", "i9"]

sensor = st.tuples(st.just("sensor"), st.sampled_from(BOARD), st.booleans())
number = st.integers(min_value=0, max_value=10)
panel = st.one_of(
    st.builds(lambda n: {"type": "number", "number": n}, number),
    st.builds(lambda s, n: {"type": "number", "square": s, "number": n},
              st.sampled_from(BOARD), number),
    st.builds(lambda s, o: {"type": "blank", "square": s, "owner": o},
              st.sampled_from(BOARD), st.one_of(st.none(), st.integers(0, 2))),
    st.builds(lambda n: {"type": "discard", "number": n}, number),
    st.builds(lambda s, n: {"type": "joker", "square": s, "number": n},
              st.sampled_from(BOARD), number),
    st.sampled_from([{"type": "undo"}, {"type": "end_turn"}, {"type": "bear_off"},
                     {"type": "hints", "on": True}, {"type": "nonsense"}, {"number": 3}]),
)

pytestmark = pytest.mark.integration
step = st.one_of(sensor, sensor, sensor, st.tuples(st.just("input"), panel),
                 st.tuples(st.just("wait"), st.sampled_from([0.2, 1.5])))


def check_invariants(view: dict[str, Any]) -> None:
    table = view["table"]
    assert set(table["signals"].values()) <= set(SIGNALS)
    occupied = set(table["occupied"])
    for square, word in table["signals"].items():
        if word in ("extra", "illegal", "number"):  # a piece turned over may be in the air
            assert square in occupied, (square, word)
        if word in ("missing", "setup", "dead", "target"):
            assert square not in occupied, (square, word)
    assert not any("internal error" in n for n in table["notices"])


@pytest.mark.parametrize("variant", VARIANTS)
@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(start_set=st.booleans(), steps=st.lists(step, max_size=80))
def test_random_streams_never_break_the_game(variant: str, start_set: bool,
                                             steps: list[Any]) -> None:
    table, clock, _ = make_table()
    view = table.new_game(variant)
    if start_set:
        table.set_board(list(view["game"]["cells"]))
    for item in steps:
        if item[0] == "sensor":
            view = put(table, clock, item[1], item[2])
        elif item[0] == "input":
            try:
                view = table.input(item[1])
            except InputError:
                view = table.view()
        else:
            view = wait(table, clock, item[1])
        check_invariants(view)
    record = table.record()
    assert record is not None
    game = resolve(record["variant"])(record["players"], record["options"])
    state = game.initial_state(game.parse_setup(record["setup"]) or None)
    for action in record["actions"]:
        state = game.apply(state, action_from_json(action))
    assert game.document(state) == table.view()["game"]
    table.close()


def repair(table: Any, clock: Any) -> None:
    """Put the board right the way players would, following the signals."""
    companion = table._companion
    motion = companion.motion
    if motion is not None:
        if motion.at is not None:
            lift(table, clock, motion.at)
        put(table, clock, motion.start)
    for _ in range(6):
        signals = table.view()["table"]["signals"]
        todo = {s: w for s, w in signals.items()
                if w in ("missing", "extra", "illegal", "number", "flip", "setup")}
        if not todo:
            return
        for square, word in todo.items():
            if word in ("missing", "setup"):
                put(table, clock, square)
            elif word == "flip":
                lift(table, clock, square)
                put(table, clock, square)
            else:
                lift(table, clock, square)
    raise AssertionError(f"the board could not be put right: {table.view()['table']}")


noise_or_play = st.one_of(
    st.tuples(st.just("noise"), st.sampled_from(BOARD), st.booleans()),
    st.tuples(st.just("bounce"), st.sampled_from(BOARD), st.booleans()),
    st.tuples(st.just("play"), st.integers(0, 10_000), st.booleans()),
)


@pytest.mark.parametrize("variant", VARIANTS)
@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(steps=st.lists(noise_or_play, max_size=30))
def test_noise_between_real_moves_never_corrupts_the_game(variant: str, steps: list[Any]) -> None:
    table, clock, _ = make_table()
    view = table.new_game(variant)
    table.set_board(list(view["game"]["cells"]))
    for kind, a, b in steps:
        companion = table._companion
        if kind == "noise":
            put(table, clock, a, b)
        elif kind == "bounce":
            put(table, clock, a, b)
            put(table, clock, a, not b)
        else:
            repair(table, clock)
            if b:
                wait(table, clock, 1.5)  # let a take-back made by the repair happen
                repair(table, clock)
            state = companion.state
            legal = list(companion.game.legal_actions(state))
            if not legal:
                continue
            action = legal[a % len(legal)]
            before = table.record()["actions"]
            play(table, clock, action, state.to_move)
            expected = companion.game.apply(state, action)
            assert table.view()["game"] == companion.game.document(expected), action
            assert len(table.record()["actions"]) == len(before) + 1
        check_invariants(table.view())
    table.close()
