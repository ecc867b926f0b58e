"""A game's session and its recovery from the journal, without a table, sensors or a disk: a new
game's session and a recovered one are built by the same code and come out the same; a stored
game is read back from its entries alone, up to the first the rules refuse."""

from __future__ import annotations

from typing import Any

import pytest

from sudoku_table.rules.actions import Action
from sudoku_table.table import recovery, sessions
from sudoku_table.table.errors import InputError
from sudoku_table.table.journal import ACTION, FINISHED, UNDO, StoredGame
from sudoku_table.table.sessions import Session

from .fakes import resolve


def _open(session: Session, lenient: bool = False) -> tuple[Session, Any]:
    return sessions.open_game(session, resolve, board=set(), record=None, settle=1.0,
                              lenient=lenient)


def _actions(variant: str, count: int) -> list[Action]:
    """``count`` legal actions of a new game of ``variant``, each the first the rules offer."""
    game = resolve(variant)(2, None)
    state = game.initial_state(game.default_setup())
    actions = []
    for _ in range(count):
        action = next(iter(game.legal_actions(state)))
        actions.append(action)
        state = game.apply(state, action)
    return actions


def _stored(session: Session, entries: list[tuple[str, Any]], status: str = "running",
            **changes: Any) -> StoredGame:
    """The journal's view of a game started with ``session`` (as ``Journal.start_game`` keeps
    it) and these entries."""
    game = resolve(session.variant)(session.players, session.options)
    fields: dict[str, Any] = {
        "id": session.id, "variant": session.variant, "players": game.players,
        "options": dict(game.options),
        "setup": dict(session.setup or {}),
        "hints": session.hints, "entries": entries, "status": status,
        "rows": [{"seq": i, "kind": k, "data": d} for i, (k, d) in enumerate(entries)],
        "names": list(session.names), "colors": list(session.colors),
        "computers": session.seats_json(), "draw_seed": session.draw_seed}
    fields.update(changes)
    return StoredGame(**fields)


def _recover(stored: StoredGame) -> recovery.Recovered | recovery.Unplayable | None:
    return recovery.recover(stored, resolve, board=set(), record=None, settle=1.0)


def test_a_new_game_and_its_recovery_have_the_same_session() -> None:
    asked = sessions.requested("fake-kosmos", 2, names=["Ann", "Ben", "a third"],
                               colors=["#ff0000"], hints=True, computers={"1": "easy"})
    started, companion = _open(asked)
    assert started.names == ("Ann", "Ben")  # cut to the game's seats
    assert started.colors == ("#ff0000",)
    assert companion.computers == {1: "easy"} and companion.hints
    started = started.started(7)

    found = _recover(_stored(started, [(ACTION, a.to_json()) for a in _actions("fake-kosmos",
                                                                              3)]))
    assert isinstance(found, recovery.Recovered)
    assert found.session == started
    assert found.running and found.replayed == 3 and found.failure is None
    assert not found.set_aside and not found.reopen
    assert len(found.companion.actions) == 3
    assert found.companion.computers == companion.computers
    assert found.companion.message is not None
    assert found.companion.message["code"] == "resumed"


def test_recovery_stops_at_the_first_entry_the_rules_refuse() -> None:
    started, _ = _open(sessions.requested("fake-kosmos", 2))
    actions = [(ACTION, a.to_json()) for a in _actions("fake-kosmos", 3)]
    entries = [actions[0], actions[1], ("nonsense", 1), actions[2]]
    found = _recover(_stored(started.started(3), entries))
    assert isinstance(found, recovery.Recovered)
    assert found.running and found.replayed == 2
    assert found.failure is not None and found.failure.startswith("entry 2 could not be")
    assert [row["seq"] for row in found.set_aside] == [2, 3]
    assert [row["reason"] for row in found.set_aside] == [found.failure, recovery.FOLLOWS]
    assert found.set_aside_params()["detail"] == found.failure
    assert len(found.companion.actions) == 2


def test_a_stored_game_that_cannot_be_played_again_is_told_not_raised() -> None:
    started, _ = _open(sessions.requested("fake-kosmos", 2))
    found = _recover(_stored(started.started(4), [], variant="no-such-game"))
    assert isinstance(found, recovery.Unplayable)
    assert "game 4 (no-such-game)" in found.note
    damaged = _recover(_stored(started.started(4), [], options=["not", "a", "dict"]))
    assert isinstance(damaged, recovery.Unplayable) and "damaged" in damaged.detail


def test_a_finished_game_is_shown_over_unless_its_last_action_was_taken_back() -> None:
    started, companion = _open(sessions.requested("fake-kosmos", 2))
    actions = [(ACTION, a.to_json()) for a in _actions("fake-kosmos", 2)]
    done = _recover(_stored(started.started(5), actions, status=FINISHED))
    assert isinstance(done, recovery.Recovered)
    # The fake game is not over after two actions: a finished status without an over state
    # is a take-back whose status was not written with it, so the game runs again.
    assert done.running and done.reopen and not done.set_aside
    damaged = _recover(_stored(started.started(5), actions + [("nonsense", 0)],
                               status=FINISHED))
    assert damaged is None  # its record stays among the finished games
    taken_back = _recover(_stored(started.started(5), actions + [(UNDO, None)]))
    assert isinstance(taken_back, recovery.Recovered)
    assert len(taken_back.companion.actions) == 1


def test_damaged_seats_are_people_when_recovered_but_refused_when_asked() -> None:
    with pytest.raises(InputError):
        _open(sessions.requested("fake-kosmos", 2, computers={"9": "easy"}))
    started, _ = _open(sessions.requested("fake-kosmos", 2))
    found = _recover(_stored(started.started(6), [], computers={"9": "easy"}))
    assert isinstance(found, recovery.Recovered)
    assert found.companion.computers == {} and found.session.computers == {}


def test_bad_switches_are_refused_before_any_game_is_built() -> None:
    with pytest.raises(InputError, match="hints"):
        sessions.requested("fake-kosmos", 2, hints="yes")  # type: ignore[arg-type]
    with pytest.raises(InputError, match="computer_draws"):
        sessions.requested("fake-kosmos", 2, computer_draws=1)  # type: ignore[arg-type]
