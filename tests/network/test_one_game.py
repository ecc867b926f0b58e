"""Two tables always hold one game: what people do with pieces at a guest table (a blank put
down and lifted again, the turn ended there) reaches the host as it was meant, and a table
whose game is not the host's says so at once, with the way back."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

from sudoku_table.rules.actions import Blank, EndTurn, Place
from sudoku_table.table import InputError, Table

from ..table.helpers import Clock, lift, put
from ..table.test_computer import carry_out
from ..waiting import until
from .conftest import Mosquitto
from .test_tables import actions, carried_out, host_and_guest

pytestmark = pytest.mark.integration

OPENING = [Place(cell, number) if number else Blank(cell) for cell, number in (
    ("a2", 5), ("a3", 2), ("a4", 4), ("a5", 1), ("b2", 2), ("b3", 3), ("b1", 1), ("c2", 4),
    ("c3", 5), ("b4", 5), ("b5", 4), ("b6", 0), ("d3", 4), ("d2", 1), ("a6", 3))]
"""A Vierer-Dominari opening after which Ben (seat 1, at the guest table) may lay one blank,
on a1, or end his turn."""


def played(tmp_path: Path, mosquitto: Mosquitto) -> tuple[Table, Clock, Table, Clock]:
    """Anna's table hosts, Ben's joined; the opening played, each seat at its own table."""
    host, hc, guest, gc = host_and_guest(tmp_path, mosquitto, "vierer-dominari")
    for n, action in enumerate(OPENING):
        table, clock = (host, hc) if host.view()["game"]["to_move"] == 0 else (guest, gc)
        carry_out(table, clock, action)
        assert carried_out([(host, hc), (guest, gc)]), n
    view = guest.view()
    assert view["game"]["phase"] == "blanks" and view["table"]["next"]["actor"] == 1
    return host, hc, guest, gc


def settle(table: Table, clock: Clock) -> dict[str, Any]:
    """The board left as it stands for the settle time (a take-back on the board counts)."""
    clock.now += 1.5
    table.tick()
    return table.view()


def one_game(host: Table, guest: Table) -> bool:
    """Both tables hold the same game and say nothing is wrong."""
    hv, gv = host.view(), guest.view()
    return (actions(host) == actions(guest) and hv["game"] == gv["game"]
            and hv["table"]["network"]["diverged"] is None
            and gv["table"]["network"]["diverged"] is None)


@contextmanager
def held_log(table: Table) -> Iterator[None]:
    """The host's entries reach ``table`` late: held while the block runs, then delivered in
    order (a slow link)."""
    shared = table.remote.shared
    assert shared is not None
    end = shared.end
    held: list[tuple[str, bytes]] = []
    lock = threading.Lock()
    real = end.handle

    def hold(topic: str, payload: bytes) -> None:
        with lock:
            if held is not None and topic.endswith("/log"):
                held.append((topic, payload))
                return
        real(topic, payload)

    end.handle = hold  # type: ignore[method-assign]
    try:
        yield
    finally:
        with lock:
            waiting = list(held)
            held.clear()
            end.handle = real  # type: ignore[method-assign]
        for topic, payload in waiting:
            real(topic, payload)


def test_a_blank_laid_and_lifted_at_the_guest_then_the_turn_ended_is_one_game(
        tmp_path: Path, mosquitto: Mosquitto) -> None:
    """Finding 1 of the two-table issue, step by step: each act reaches the host before the
    next. The host's plan follows its log: the blank taken back is no longer asked for, and
    the end of turn counts there too."""
    host, hc, guest, gc = played(tmp_path, mosquitto)
    try:
        for _ in range(2):
            put(guest, gc, "a1")
            assert until(lambda: host.view()["table"]["next"]["code"] == "remote_blank")
            lift(guest, gc, "a1")
            settle(guest, gc)
            # Taken back at the guest: the host's bar no longer asks for the blank.
            assert until(lambda: host.view()["table"]["next"]["code"] == "remote_waiting")
        guest.input({"type": "end_turn"})
        assert until(lambda: one_game(host, guest)), (host.view()["table"]["next"],
                                                      actions(host)[-1:], actions(guest)[-1:])
        assert actions(host)[-1] == {"type": "end_turn"}
        assert host.view()["table"]["next"]["code"] != "remote_blank"
    finally:
        host.close()
        guest.close()


def test_a_blank_laid_and_lifted_faster_than_the_host_answers_is_one_game(
        tmp_path: Path, mosquitto: Mosquitto) -> None:
    """The same acts while the host's answers reach the guest late: the guest proposes its
    second blank although its copy of the log still shows the first, so both tables end
    with the end of turn, and nothing is refused."""
    host, hc, guest, gc = played(tmp_path, mosquitto)
    try:
        put(guest, gc, "a1")
        assert until(lambda: len(guest.remote.shared.actions()) == len(OPENING) + 1)  # type: ignore[union-attr]
        with held_log(guest):  # its copy of the log shows the blank until the end of turn
            lift(guest, gc, "a1")
            settle(guest, gc)
            for _ in range(2):
                put(guest, gc, "a1")
                lift(guest, gc, "a1")
                settle(guest, gc)
            guest.input({"type": "end_turn"})
            assert until(lambda: host.remote.shared.actions()[-1:] == [EndTurn()])  # type: ignore[union-attr]
        assert until(lambda: one_game(host, guest)), (host.view()["table"]["next"],
                                                      actions(host)[-1:], actions(guest)[-1:])
        assert actions(host)[-1] == {"type": "end_turn"}
        assert "did not count" not in (guest.view()["table"]["message"] or "")
        entries = host.remote.shared.end.host.entries  # type: ignore[union-attr]
        assert [e["kind"] for e in entries[len(OPENING):]] == ["action", "undo"] * 3 + ["action"]
    finally:
        host.close()
        guest.close()


def test_a_table_whose_game_parts_from_the_hosts_says_so_at_once_and_follows_it_back(
        tmp_path: Path, mosquitto: Mosquitto, monkeypatch: pytest.MonkeyPatch) -> None:
    """Should the host's table fail to follow its log again (here: its plan no longer
    renewed from the log, the cause of finding 1 put back on purpose), it says at once what
    differs, never waits in silence, and one tap makes its game the shared one again; the
    bar then says how to put the board right."""
    from sudoku_table.table import remote

    monkeypatch.setattr(remote.Remote, "_drop_stale_plan", staticmethod(lambda c: None))
    real = remote.Remote._arrive

    def stale(self: remote.Remote, c: Any, action: Any) -> bool:
        if c.mover in c.computer.remote and c.expect is not None and c.expect != action:
            return False  # the old plan stays
        return real(self, c, action)

    monkeypatch.setattr(remote.Remote, "_arrive", stale)
    host, hc, guest, gc = played(tmp_path, mosquitto)
    try:
        with pytest.raises(InputError, match="nothing to follow"):
            host.follow_host()
        put(guest, gc, "a1")
        assert until(lambda: host.view()["table"]["next"]["code"] == "remote_blank")
        lift(guest, gc, "a1")
        settle(guest, gc)
        guest.input({"type": "end_turn"})
        view = until(lambda: (v := host.view())["table"]["network"]["diverged"] and v)
        assert view, host.view()["table"]
        words = view["table"]["network"]["diverged"]
        assert "action 16 is nothing at this table and end of turn in the shared game" in words
        assert view["table"]["network"]["follow"] is True
        assert guest.view()["table"]["network"]["diverged"] is None  # the guest is right
        view = host.follow_host()
        assert view["table"]["network"]["diverged"] is None
        assert "follows the shared game again" in view["table"]["message"], view["table"]
        assert until(lambda: one_game(host, guest))
    finally:
        host.close()
        guest.close()
