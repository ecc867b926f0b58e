"""What a table asked or sent while the other table was away is not lost: a guest asks the host
for what it lacks, and sends its unanswered proposals again, whenever the host's table comes
(back) online, not only when the guest itself connects. A catch-up request or a proposal that
reaches the broker while the host is not subscribed (a broker killed and started again, the
host's table restarting) is otherwise gone for good, and both tables wait on each other
(found by bench/bench_network_faults.py)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from sudoku_table.network.codes import GameKeys, SeatKeys
from sudoku_table.network.endpoints import GuestEnd, HostEnd
from sudoku_table.network.hosting import GameLine, Guest, Host
from sudoku_table.network.link import Link, parse_broker
from sudoku_table.network.sealing import HostKey
from sudoku_table.network.store import LogFile
from sudoku_table.rules.actions import Action
from sudoku_table.rules.game import variant_class

from ..waiting import until
from .conftest import Mosquitto

pytestmark = [pytest.mark.integration, pytest.mark.slow]

VARIANT = "classic-sudoku"


class Game:
    """A host end (opened again from its own log after a restart) and a guest end."""

    def __init__(self, mosquitto: Mosquitto, folder: Path) -> None:
        self.broker = parse_broker(mosquitto.url)
        self.keys, self.seat, self.key = GameKeys.new(), SeatKeys.new(1), HostKey()
        self.store = LogFile(folder / "host.jsonl")
        self.host = self.open_host()
        self.guest = self.open_guest([])
        assert self.host_link.connected.wait(10) and self.guest_link.connected.wait(10)

    def open_host(self) -> HostEnd:
        """The host's table (again), its game read back from its own log."""
        host = Host(GameLine.start(variant_class(VARIANT)(2, {})), self.key,
                    {1: self.seat.proposing}, self.store.read())
        holder: dict[str, HostEnd] = {}
        self.host_link = Link(self.broker, "host-table",
                              lambda t, p: holder["end"].handle(t, p))
        holder["end"] = HostEnd(self.host_link, self.keys, host, self.store, table="host",
                                name="Anna", seats=[0], hello={})
        self.host_link.start()
        return holder["end"]

    def open_guest(self, entries: list[dict[str, Any]]) -> GuestEnd:
        """The guest's table (again), with the ``entries`` of its own copy of the log."""
        guest = Guest(GameLine.start(variant_class(VARIANT)(2, {})), self.key.public(),
                      entries)
        holder: dict[str, GuestEnd] = {}
        self.guest_link = Link(self.broker, "guest-table",
                               lambda t, p: holder["end"].handle(t, p))
        holder["end"] = GuestEnd(self.guest_link, self.keys, self.seat, guest,
                                 LogFile(None), table="guest", name="Ben", seats=[1])
        self.guest_link.start()
        return holder["end"]

    def move(self, seat: int) -> Action:
        line = self.host.host.line
        return next(a for a in line.game.legal_actions(line.state)
                    if line.game.actor(line.state, a) == seat)

    def same(self) -> bool:
        return bool(self.guest.actions() == self.host.actions() and not self.guest.awaiting)

    def stop(self) -> None:
        self.host_link.stop()
        self.guest_link.stop()


def test_an_entry_kept_but_never_sent_reaches_the_guest_once_the_host_is_back(
        mosquitto: Mosquitto, tmp_path: Path) -> None:
    game = Game(mosquitto, tmp_path)
    try:
        game.host.act(game.move(0))
        assert until(game.same)
        game.guest.propose(game.move(1), 1)
        assert until(game.same)
        # The host's table goes away: its next entry is kept on its card, never sent.
        game.host_link.stop()
        game.host.act(game.move(0))
        assert len(game.store.read()) == 3
        game.host = game.open_host()  # the host's table again, from its own log
        assert until(game.same), "the guest never asked for the entry it lacks"
        assert len(game.guest.actions()) == 3
    finally:
        game.stop()


def test_a_proposal_lost_with_the_broker_is_sent_again(
        mosquitto: Mosquitto, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    game = Game(mosquitto, tmp_path)
    try:
        game.host.act(game.move(0))
        assert until(game.same)
        # The host's table is away; Ben's proposal waits at the broker, which is then killed.
        game.host_link.stop()
        publish = game.guest_link.publish
        with monkeypatch.context() as patch:  # the proposal returns once the broker has it
            patch.setattr(game.guest_link, "publish", lambda topic, payload, retain=False,
                          wait=0.0: publish(topic, payload, retain, wait=30.0))
            game.guest.propose(game.move(1), 1)
        mosquitto.kill()
        mosquitto.start()
        assert game.guest_link.connected.wait(20)
        game.host = game.open_host()
        assert until(game.same), "the proposal never reached the host"
        assert len(game.host.actions()) == 2
    finally:
        game.stop()


def test_a_proposal_the_host_took_before_the_guest_restarted_is_not_told_as_refused(
        mosquitto: Mosquitto, tmp_path: Path) -> None:
    """The guest's table restarts before the host's answer reaches it, and sends its own act
    again (a new counter): the host refuses the copy as late, but the act counted where it
    was made, so the table must not say that it was refused."""
    game = Game(mosquitto, tmp_path)
    try:
        game.host.act(game.move(0))
        assert until(game.same)
        kept = list(game.host.host.entries)  # the guest's own copy: entry 1
        action = game.move(1)
        game.guest.propose(action, 1)
        assert until(lambda: len(game.host.actions()) == 2)
        game.guest_link.stop()
        game.guest = game.open_guest(kept)  # from its copy, without the answer
        game.guest.propose(action, 1)  # the table sends its own act again
        assert until(lambda: len(game.host.host.entries) == 3)  # the copy refused
        assert until(game.same)
        assert game.guest.declined == [], "an act that counted was told as refused"
    finally:
        game.stop()
