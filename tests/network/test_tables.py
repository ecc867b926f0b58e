"""Two tables play one game through a real Mosquitto: the host orders it, the guest's seat
plays at the other table, each remote action arrives as a plan that a person there carries
out, and both tables end with the same game, after a broker restart and a table restart too."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest

from sudoku_table.network.config import NetworkConfig
from sudoku_table.rules.actions import action_from_json
from sudoku_table.rules.game import new_game
from sudoku_table.table import InputError, Table, remote

from ..table.helpers import Clock, make_table, put
from ..table.test_computer import QUICK, carry_out, person_action, turn_over
from ..waiting import until
from .conftest import Mosquitto

pytestmark = [pytest.mark.integration, pytest.mark.slow]


def may_take_over(guest: Table) -> bool:
    """The host's table has been away long enough for ``guest`` to take the game over."""
    shared = guest.remote.shared
    away = shared.host_away() if shared is not None else None
    return away is not None and away >= remote.TAKE_OVER_AFTER


def a_table(folder: Path, name: str, broker: str) -> tuple[Table, Clock]:
    table, clock, _ = make_table(folder / "journal.db", computer=QUICK,
                                 network=NetworkConfig(broker=broker, name=name))
    return table, clock


def connected(table: Table) -> bool:
    seats = table.view()["table"].get("seats") or []
    return bool(seats) and all(s["connected"] for s in seats)


def host_and_guest(tmp_path: Path, mosquitto: Mosquitto, variant: str,
                   **kwargs: Any) -> tuple[Table, Clock, Table, Clock]:
    host, host_clock = a_table(tmp_path / "anna", "Anna's table", mosquitto.url)
    view = host.new_game(variant, remote=[1], **kwargs)
    code = view["table"]["join"]["codes"][0]["code"]
    guest, guest_clock = a_table(tmp_path / "ben", "Ben's table", mosquitto.url)
    guest.join(code)
    assert until(lambda: connected(host) and connected(guest))
    return host, host_clock, guest, guest_clock


def step(table: Table, clock: Clock, rng: random.Random) -> bool:
    """Whatever a person at ``table`` does now: carry out the other table's move, or play
    the own seat's turn; False when nothing is to be done here."""
    view = turn_over(table, clock, table.view())
    if view["game"]["over"]:
        return False
    nxt = view["table"]["next"]
    if nxt["code"].startswith("remote_"):
        if view["table"]["plan"] is None:
            return False
        carry_out(table, clock, action_from_json(view["table"]["plan"]))
        return True
    if nxt["code"].startswith("computer_"):
        return False  # the computer's turn at the host: its search runs by itself
    seats = {s["seat"]: s["kind"] for s in view["table"]["seats"]}
    if seats.get(nxt["actor"]) != "here":
        return False
    hand = table.hand(nxt["actor"])  # where the table deals: the card it dealt this seat
    if hand is not None:
        carry_out(table, clock, rng.choice([a for a in playable(table)
                                            if getattr(a, "number", None) == hand["number"]]))
        return True
    if nxt["code"] == "place_dealt":
        return False  # its card is on its way from the host
    carry_out(table, clock, person_action(table, rng))
    return True


def carried_out(tables: list[tuple[Table, Clock]]) -> bool:
    """Every move from another table carried out where it waits; True once all tables have
    the same actions."""
    def done() -> bool:
        for table, clock in tables:
            view = table.view()
            if view["table"]["next"]["code"].startswith("remote_") and view["table"]["plan"]:
                carry_out(table, clock, action_from_json(view["table"]["plan"]))
        return all(actions(t) == actions(tables[0][0]) for t, _c in tables)
    return bool(until(done))


def actions(table: Table) -> list[Any]:
    record = table.record()
    assert record is not None
    return list(record["actions"])


def play(host: Table, host_clock: Clock, guest: Table, guest_clock: Clock, rng: random.Random,
         count: int) -> None:
    """Play on at both tables until the game has ``count`` more actions (or is over)."""
    goal = len(actions(host)) + count
    while len(actions(host)) < goal and not host.view()["game"]["over"]:
        done = until(lambda: step(host, host_clock, rng) or step(guest, guest_clock, rng)
                     or host.view()["game"]["over"], 20.0)
        assert done, (host.view()["table"]["next"], guest.view()["table"]["next"])


VARIANTS = ['halma-dominari', 'vierer-dominari', 'revers-dominari', 'score-dominari',
            'classic-sudoku', 'labyrinth-sudoku', 'killer-sudoku', 'kakuro', '3d-sudoku',
            'hexa-sudoku', 'duell-der-meister', 'sudoku-family']
"""Every game of the table, played between two tables."""


@pytest.mark.parametrize("variant", VARIANTS)
def test_two_tables_play_one_game_and_end_the_same(tmp_path: Path, mosquitto: Mosquitto,
                                                  variant: str) -> None:
    host, hc, guest, gc = host_and_guest(tmp_path, mosquitto, variant)
    setup = host.view()["table"]
    if setup.get("setting_up"):  # the start position set up at both tables
        for square in new_game(variant).default_setup():
            put(host, hc, square)
            put(guest, gc, square)
    try:
        guest_view = guest.view()
        assert [s["kind"] for s in guest_view["table"]["seats"]] == ["remote", "here"]
        assert guest_view["table"]["seats"][0]["table"] == "Anna's table"
        assert host.view()["table"]["seats"][1]["table"] == "Ben's table"
        play(host, hc, guest, gc, random.Random(4), 12)
        assert carried_out([(host, hc), (guest, gc)]) and len(actions(host)) >= 12
        assert host.view()["game"] == guest.view()["game"]
    finally:
        host.close()
        guest.close()


def test_a_remote_move_is_carried_out_as_the_lights_say_and_nothing_else_counts(
        tmp_path: Path, mosquitto: Mosquitto) -> None:
    host, hc, guest, gc = host_and_guest(tmp_path, mosquitto, "vierer-dominari")
    try:
        rng = random.Random(1)
        assert step(host, hc, rng)  # Anna's first move, made at her table
        view = until(lambda: guest.view()["table"]["plan"] is not None and guest.view())
        assert view["table"]["next"]["code"].startswith("remote_")
        assert view["table"]["next"]["params"]["table"] == "Anna's table"
        assert view["table"]["signals"]  # the squares of the move light
        with pytest.raises(InputError):
            guest.input({"type": "redo"})
        plan = action_from_json(view["table"]["plan"])
        # Another move than the lights show does not count, and says whose move it is.
        from sudoku_table.rules.errors import RulesError
        from sudoku_table.table.computer import plan_squares

        from ..table.helpers import lift, place
        lit = plan_squares(plan)
        elsewhere = next(sq for sq in ("a1", "f6", "c3", "d4") if sq not in lit
                         and sq not in guest.view()["table"]["occupied"])
        with pytest.raises((RulesError, InputError), match="the move comes from Anna's table: "
                                                            "carry it out as the bar"):
            place(guest, gc, elsewhere, 1)
        lift(guest, gc, elsewhere)
        carry_out(guest, gc, plan)
        assert actions(guest) == actions(host)
    finally:
        host.close()
        guest.close()


def test_a_broker_restart_and_a_guest_and_a_host_restart_lose_nothing(
        tmp_path: Path, mosquitto: Mosquitto) -> None:
    host, hc, guest, gc = host_and_guest(tmp_path, mosquitto, "classic-sudoku")
    rng = random.Random(7)
    try:
        play(host, hc, guest, gc, rng, 4)
        mosquitto.stop()
        assert until(lambda: guest.view()["table"]["network"]["connected"] is False)
        offline = guest.view()["table"]["seats"][0]
        assert offline["connected"] is False
        mosquitto.start()
        assert until(lambda: connected(host) and connected(guest), 30.0)
        play(host, hc, guest, gc, rng, 4)
        board = guest.view()["table"]["occupied"]
        guest.close()
        guest, gc = a_table(tmp_path / "ben", "Ben's table", mosquitto.url)
        guest.set_board(board)  # the pieces stood on while the table was off
        assert until(lambda: connected(guest), 30.0)
        assert guest.view()["table"]["network"]["role"] == "guest"
        play(host, hc, guest, gc, rng, 4)
        # The host's table is switched off mid-game and on again.
        board = host.view()["table"]["occupied"]
        host.close()
        host, hc = a_table(tmp_path / "anna", "Anna's table", mosquitto.url)
        host.set_board(board)
        assert host.view()["table"]["network"]["role"] == "host"
        assert until(lambda: connected(host) and connected(guest), 30.0)
        play(host, hc, guest, gc, rng, 4)
        assert carried_out([(host, hc), (guest, gc)]) and len(actions(host)) >= 16
    finally:
        host.close()
        guest.close()


def test_a_join_code_is_checked_and_a_silent_host_is_told(tmp_path: Path,
                                                         mosquitto: Mosquitto) -> None:
    from sudoku_table.table.errors import NoAnswer

    table, _ = a_table(tmp_path, "Ben's table", mosquitto.url)
    lone, _clock, _ = make_table()
    try:
        with pytest.raises(InputError, match="not a join code"):
            table.join("ABCD-EFGH-JKMN")
        from sudoku_table.network.codes import GameKeys, JoinCode, SeatKeys
        nobody = JoinCode(GameKeys.new(), SeatKeys.new(1)).text()
        with pytest.raises(NoAnswer):
            table.remote.joined(nobody, timeout=1.0)
        with pytest.raises(InputError, match="broker"):
            lone.new_game("vierer-dominari", remote=[1])
        with pytest.raises(InputError, match="computer"):
            table.new_game("vierer-dominari", remote=[1], computers={1: "easy"})
        assert table.view()["game"] is None
    finally:
        table.close()
        lone.close()


def test_a_take_back_at_either_table_is_taken_back_at_both(tmp_path: Path,
                                                          mosquitto: Mosquitto) -> None:
    host, hc, guest, gc = host_and_guest(tmp_path, mosquitto, "classic-sudoku")
    rng = random.Random(3)
    try:
        play(host, hc, guest, gc, rng, 2)  # Anna's action, then Ben's (carried out at both)
        assert until(lambda: len(actions(guest)) == len(actions(host)) == 2)
        # Ben takes back his own last action at his table: the host takes it back too, and
        # Anna's table says what to put right on its board.
        guest.input({"type": "undo", "confirm": True})
        assert until(lambda: len(actions(host)) == 1)
        assert host.view()["table"]["next"]["code"] == "undo_on_board"
        assert actions(guest) == actions(host)
        # Anna takes back her own action at the host: Ben's table follows.
        square = host.view()["table"]["next"]["params"]["take_away"][0]
        hc.now += 0.1
        from sudoku_table.firmware.ports import SensorEvent
        host.handle_sensor(SensorEvent(square, False, hc.now))
        host.input({"type": "undo", "confirm": True})
        assert until(lambda: actions(guest) == [] and actions(host) == [])
        assert guest.view()["table"]["next"]["code"] in ("undo_on_board", "put_right")
    finally:
        host.close()
        guest.close()


def test_two_people_here_one_at_another_table_and_the_computer(tmp_path: Path,
                                                               mosquitto: Mosquitto) -> None:
    """Mixed tables: seats 0 and 2 at the host, seat 1 at Ben's, the host's computer in seat
    3; the computer's actions arrive at Ben's table as any other remote action."""
    host, host_clock = a_table(tmp_path / "anna", "Anna's table", mosquitto.url)
    view = host.new_game("classic-sudoku", players=4, remote=[1], computers={3: "easy"})
    guest, guest_clock = a_table(tmp_path / "ben", "Ben's table", mosquitto.url)
    guest.join(view["table"]["join"]["codes"][0]["code"])
    try:
        assert until(lambda: connected(host) and connected(guest))
        kinds = [s["kind"] for s in guest.view()["table"]["seats"]]
        assert kinds == ["remote", "here", "remote", "computer"]
        rng = random.Random(9)
        goal = 10
        while len(actions(host)) < goal:
            host.wait_for_computer(30.0)
            view = host.view()
            if view["table"]["next"]["code"] == "computer_hand":  # its card turned over
                host.input({"type": "hand",
                            "number": rng.choice(view["table"]["prompt"]["choices"])})
                continue
            plan = view["table"]["plan"]
            if view["table"]["next"]["code"].startswith("computer_") and plan:
                carry_out(host, host_clock, action_from_json(plan))
                continue
            assert until(lambda: step(host, host_clock, rng) or step(guest, guest_clock, rng)
                         or host.view()["table"]["next"]["code"].startswith("computer_"),
                         20.0)
        assert until(lambda: actions(guest) == actions(host))
    finally:
        host.close()
        guest.close()


def test_a_host_that_starts_another_game_tells_the_guest(tmp_path: Path,
                                                         mosquitto: Mosquitto) -> None:
    host, hc, guest, gc = host_and_guest(tmp_path, mosquitto, "vierer-dominari")
    try:
        play(host, hc, guest, gc, random.Random(2), 2)
        kept = actions(guest)
        host.new_game("vierer-dominari", replace=True)
        assert "network" in host.view()["table"] and "seats" not in host.view()["table"]
        view = until(lambda: guest.view()["table"]["network"]["closed"] and guest.view())
        assert "Anna's table left the game" in view["table"]["message"]
        assert actions(guest) == kept
    finally:
        host.close()
        guest.close()


def test_a_guest_takes_over_when_the_host_is_gone_and_the_old_host_rejoins(
        tmp_path: Path, mosquitto: Mosquitto, monkeypatch: pytest.MonkeyPatch) -> None:
    host, hc, guest, gc = host_and_guest(tmp_path, mosquitto, "classic-sudoku")
    rng = random.Random(11)
    try:
        play(host, hc, guest, gc, rng, 4)
        with pytest.raises(InputError, match="still hosts"):
            guest.take_over()
        board = host.view()["table"]["occupied"]
        host.close()  # the host's table is gone
        monkeypatch.setattr(remote, "TAKE_OVER_AFTER", 0.5)
        assert until(lambda: not guest.view()["table"]["seats"][0]["connected"])
        assert until(lambda: may_take_over(guest))
        kept = actions(guest)
        view = guest.take_over()
        assert view["table"]["network"]["role"] == "host"
        assert [c["seat"] for c in view["table"]["join"]["codes"]] == [0]
        assert "hosts the game now" in view["table"]["message"]
        assert actions(guest) == kept
        # Anna's table comes back: Ben's table left it the code of its seat in the game as it
        # goes on (only Anna's table can read it), so it joins the new host by itself, and
        # keeps its pieces where they stand.
        host, hc = a_table(tmp_path / "anna", "Anna's table", mosquitto.url)
        host.set_board(board)
        view = until(lambda: (v := host.view())["table"]["network"]["role"] == "guest" and v)
        assert view, host.view()["table"]["network"]
        assert "goes on with Ben's table" in view["table"]["message"]
        assert actions(host) == kept
        assert until(lambda: connected(host) and connected(guest))
        play(guest, gc, host, hc, rng, 4)
        assert carried_out([(host, hc), (guest, gc)]) and len(actions(host)) >= 8
    finally:
        host.close()
        guest.close()


def test_the_host_deals_and_a_card_travels_only_to_its_seats_table(
        tmp_path: Path, mosquitto: Mosquitto) -> None:
    host, hc, guest, gc = host_and_guest(tmp_path, mosquitto, "classic-sudoku", deal=True)
    rng = random.Random(6)
    try:
        for _ in range(6):
            for table, clock, seat in ((host, hc, 0), (guest, gc, 1)):
                view = table.view()
                if view["table"]["next"]["actor"] != seat or \
                        view["table"]["next"]["code"].startswith("remote_"):
                    continue
                hand = until(lambda t=table, s=seat: t.hand(s))
                assert hand, f"no card dealt to seat {seat}"
                assert (host if table is guest else guest).hand(seat) is None
                legal = [a for a in playable(table) if getattr(a, "number", None) == hand["number"]]
                carry_out(table, clock, rng.choice(legal))
            assert carried_out([(host, hc), (guest, gc)])
        assert len(actions(host)) >= 6
        # The guest's table never received a card but its own seat's.
        assert all(at % 2 == 1 for at in guest.remote._companion.dealer.given)  # type: ignore
    finally:
        host.close()
        guest.close()


def playable(table: Table) -> list[Any]:
    from sudoku_table.rules.record import Record, replay

    game, states = replay(Record.from_json(table.record()))
    return list(game.legal_actions(states[-1]))


def test_a_broker_with_tls_and_a_login_is_used_as_the_config_says(tmp_path: Path) -> None:
    broker = Mosquitto(tmp_path, tls=True)
    broker.start()
    host = guest = None
    try:
        config = {"broker": broker.url, "ca": str(broker.ca)}
        host, hc, _ = make_table(tmp_path / "a.db", network=NetworkConfig(name="A", **config))
        view = host.new_game("vierer-dominari", remote=[1])
        guest, gc, _ = make_table(tmp_path / "b.db", network=NetworkConfig(name="B", **config))
        guest.join(view["table"]["join"]["codes"][0]["code"])
        assert until(lambda: connected(host) and connected(guest))
        play(host, hc, guest, gc, random.Random(1), 4)
        assert carried_out([(host, hc), (guest, gc)])
        # Without the login, or without TLS, the broker lets nobody in.
        wrong, _clock, _ = make_table(network=NetworkConfig(
            name="C", broker=broker.url.replace("s3cret", "wrong"), ca=str(broker.ca)))
        with pytest.raises(InputError, match="no answer"):
            wrong.remote.joined(view["table"]["join"]["codes"][0]["code"], timeout=1.0)
        wrong.close()
    finally:
        for table in (host, guest):
            if table is not None:
                table.close()
        broker.stop()


def test_a_move_from_another_table_is_said_aloud_with_its_tables_name(
        tmp_path: Path, mosquitto: Mosquitto) -> None:
    import re

    host, hc, guest, gc = host_and_guest(tmp_path, mosquitto, "vierer-dominari")
    try:
        assert step(host, hc, random.Random(2))
        say = until(lambda: guest.view()["table"]["plan"] and guest.view()["table"]["say"])
        assert [p["kind"] for p in say["parts"]][-1] == "computer"
        assert re.search(r"Anna's table played: put the \d on [a-f][1-6]\.", say["text"]), say
    finally:
        host.close()
        guest.close()


def test_a_new_game_of_the_same_variant_is_joined_as_a_new_game(
        tmp_path: Path, mosquitto: Mosquitto) -> None:
    """Two games of one variant start alike: joining the second is a new game, never the first
    one played on with another host (which would take the first game's actions back)."""
    host, hc, guest, gc = host_and_guest(tmp_path, mosquitto, "classic-sudoku")
    try:
        play(host, hc, guest, gc, random.Random(4), 2)
        assert carried_out([(host, hc), (guest, gc)])
        view = host.new_game("classic-sudoku", remote=[1], replace=True)
        joined = guest.join(view["table"]["join"]["codes"][0]["code"], replace=True)
        assert "goes on with" not in (joined["table"]["message"] or "")
        assert actions(guest) == [] and "taken back" not in (joined["table"]["message"] or "")
        assert joined["table"]["network"]["role"] == "guest"
    finally:
        host.close()
        guest.close()
