"""The network's foundations: codes, sealing, the ordered log, and a link to a real broker."""

from __future__ import annotations

import threading
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from sudoku_table.network.codes import BadCode, GameKeys, JoinCode, SeatKeys, WatchCode, read_code
from sudoku_table.network.link import BadBroker, Link, parse_broker
from sudoku_table.network.log import Inbox
from sudoku_table.network.sealing import HostKey, Proposals, Refused, mac, seal, unseal, verify

from ..waiting import until
from .conftest import Mosquitto


def test_a_join_code_round_trips_and_a_typo_is_caught() -> None:
    code = JoinCode(GameKeys.new(), SeatKeys.new(2))
    text = code.text()
    assert read_code(text) == code
    assert read_code(text.lower().replace("-", " ")) == code
    typo = text[:5] + ("0" if text[5] != "0" else "1") + text[6:]
    with pytest.raises(BadCode):
        read_code(typo)
    watch = WatchCode(code.game)
    assert read_code(watch.text()) == watch
    assert len(watch.text()) < len(text)


def test_a_message_is_read_only_with_the_games_key_and_on_its_topic() -> None:
    keys, other = GameKeys.new(), GameKeys.new()
    sealed = seal(keys.sealing, "t/log", {"seq": 1})
    assert unseal(keys.sealing, "t/log", sealed) == {"seq": 1}
    with pytest.raises(Refused):
        unseal(other.sealing, "t/log", sealed)
    with pytest.raises(Refused):
        unseal(keys.sealing, "t/other", sealed)  # moved to another topic
    with pytest.raises(Refused):
        unseal(keys.sealing, "t/log", sealed[:-1] + bytes([sealed[-1] ^ 1]))


def test_only_the_host_signs_log_entries() -> None:
    host, impostor = HostKey(), HostKey()
    entry = host.sign({"seq": 3, "action": {"type": "place"}})
    assert verify(host.public(), entry) == {"seq": 3, "action": {"type": "place"}}
    with pytest.raises(Refused):
        verify(host.public(), impostor.sign({"seq": 3, "action": {"type": "place"}}))
    with pytest.raises(Refused):
        verify(host.public(), {**entry, "seq": 4})
    assert HostKey.from_bytes(host.private_bytes()).public() == host.public()


def test_a_seats_proposal_counts_once_and_only_from_its_table() -> None:
    one, two = SeatKeys.new(1), SeatKeys.new(2)
    proposals = Proposals({1: one.proposing, 2: two.proposing})
    first = mac(one.proposing, {"seat": 1, "n": 1, "action": {"type": "end_turn"}})
    assert proposals.check(first)["seat"] == 1
    proposals.taken(proposals.check(first))
    with pytest.raises(Refused, match="old proposal"):
        proposals.check(first)  # a replay
    with pytest.raises(Refused, match="not from the table"):
        proposals.check(mac(two.proposing, {"seat": 1, "n": 2, "action": {}}))
    with pytest.raises(Refused):
        proposals.check(mac(one.proposing, {"seat": 3, "n": 2, "action": {}}))


@given(st.permutations(list(range(1, 13))), st.lists(st.integers(1, 12), max_size=12))
def test_the_inbox_hands_on_every_entry_once_in_order(order: list[int],
                                                     again: list[int]) -> None:
    inbox = Inbox()
    out: list[int] = []
    for seq in order + again:  # any order, with duplicates (QoS 1)
        out += [e["seq"] for e in inbox.receive({"seq": seq})]
    assert out == list(range(1, 13))
    assert inbox.missing is None


def test_the_inbox_says_what_to_ask_again() -> None:
    inbox = Inbox(applied=4)
    assert inbox.receive({"seq": 7}) == []
    assert inbox.missing == 5
    assert [e["seq"] for e in inbox.receive({"seq": 5})] == [5]
    assert inbox.missing == 6


@pytest.mark.parametrize("url", ["http://x", "mqtt://", "mqtt://host:port", "broker:1883"])
def test_a_broker_address_is_checked(url: str) -> None:
    with pytest.raises(BadBroker):
        parse_broker(url)


def test_a_login_and_tls_are_read_from_the_address() -> None:
    broker = parse_broker("mqtts://ben%40home:s%3Acret@broker.example:8884")
    assert (broker.host, broker.port, broker.tls) == ("broker.example", 8884, True)
    assert (broker.username, broker.password) == ("ben@home", "s:cret")
    assert parse_broker("mqtt://127.0.0.1").port == 1883


def _collect() -> tuple[list[tuple[str, bytes]], threading.Event, Any]:
    got: list[tuple[str, bytes]] = []
    arrived = threading.Event()

    def handler(topic: str, payload: bytes) -> None:
        got.append((topic, payload))
        arrived.set()
    return got, arrived, handler


@pytest.mark.integration
@pytest.mark.slow
def test_two_links_meet_through_a_real_broker_and_survive_its_restart(
        mosquitto: Mosquitto) -> None:
    keys = GameKeys.new()
    topic = f"sudoku-table/v1/{keys.game}/log"
    got, arrived, handler = _collect()
    reader = Link(parse_broker(mosquitto.url), "reader-table", handler)
    writer = Link(parse_broker(mosquitto.url), "writer-table", lambda t, p: None)
    for link in (reader, writer):
        link.subscribe(topic)
        link.start()
        assert link.connected.wait(10)
    try:
        writer.publish(topic, seal(keys.sealing, topic, {"seq": 1}))
        assert arrived.wait(10)
        assert unseal(keys.sealing, topic, got[0][1]) == {"seq": 1}
        mosquitto.stop()
        assert until(lambda: not reader.connected.is_set())
        assert reader.offline_seconds() >= 0
        arrived.clear()
        mosquitto.start()
        assert reader.connected.wait(20) and writer.connected.wait(20)
        writer.publish(topic, seal(keys.sealing, topic, {"seq": 2}))
        assert arrived.wait(10)  # subscribed again by itself after the restart
        assert [unseal(keys.sealing, topic, p)["seq"] for _t, p in got] == [1, 2]
    finally:
        reader.stop()
        writer.stop()


@pytest.mark.integration
@pytest.mark.slow
def test_a_link_sends_each_message_at_once(mosquitto: Mosquitto) -> None:
    """Nagle's algorithm is off on the link's socket, after a reconnect too: paho leaves it
    on, and each small message then waited for the broker's acknowledgement of the one
    before (bench/bench_network_latency.py measured a remote action three times as long)."""
    import socket

    link = Link(parse_broker(mosquitto.url), "nagle-table", lambda t, p: None)
    link.start()
    try:
        for _ in range(2):
            assert link.connected.wait(10)
            sock = link._client.socket()
            assert sock.getsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY) != 0
            mosquitto.stop()
            assert until(lambda: not link.connected.is_set())
            mosquitto.start()
    finally:
        link.stop()


@pytest.mark.integration
@pytest.mark.slow
def test_two_tables_play_one_game_through_a_real_broker_that_restarts(
        mosquitto: Mosquitto) -> None:
    """A guest table's seat proposes, the host orders, both lines stay the same; the broker
    is stopped and started mid-game and nothing is lost or doubled."""
    import random

    from sudoku_table.network.endpoints import GuestEnd, HostEnd
    from sudoku_table.network.hosting import GameLine, Guest, Host
    from sudoku_table.network.store import LogFile
    from sudoku_table.rules.game import variant_class

    keys, seat = GameKeys.new(), SeatKeys.new(1)
    game = variant_class("classic-sudoku")(2, {})
    host = Host(GameLine.start(game), HostKey(), {1: seat.proposing})
    guest = Guest(GameLine.start(variant_class("classic-sudoku")(2, {})), host.key.public())
    broker = parse_broker(mosquitto.url)
    ends: dict[str, Any] = {}
    host_link = Link(broker, "host-table", lambda t, p: ends["host"].handle(t, p))
    guest_link = Link(broker, "guest-table", lambda t, p: ends["guest"].handle(t, p))
    ends["host"] = HostEnd(host_link, keys, host, LogFile(None), table="host", name="Anna",
                           seats=[0], hello={})
    ends["guest"] = GuestEnd(guest_link, keys, seat, guest, LogFile(None), table="guest",
                             name="Ben", seats=[1])
    for link in (host_link, guest_link):
        link.start()
        assert link.connected.wait(10)
    rng = random.Random(3)
    try:
        for turn in range(16):
            if turn == 8:
                mosquitto.stop()
                assert until(lambda: not guest_link.connected.is_set())
                mosquitto.start()
                assert host_link.connected.wait(20) and guest_link.connected.wait(20)
                ends["guest"].catch_up()
            state = host.line.state
            action = rng.choice(list(game.legal_actions(state)))
            if game.actor(state, action) == 1:
                ends["guest"].propose(action, len(host.line.actions))
            else:
                ends["host"].act(action)
            assert until(lambda n=turn + 1: len(host.line.actions) == n
                         and guest.line.actions == host.line.actions), turn
        assert until(lambda: guest.line.actions == host.line.actions)
        assert guest.line.hash() == host.line.hash()
        assert ends["guest"].diverged is None
    finally:
        host_link.stop()
        guest_link.stop()


class _Recording:
    """A link that keeps what an end publishes (the broker's order is the test's)."""

    def __init__(self) -> None:
        self.published: list[tuple[str, bytes, bool]] = []

    def subscribe(self, topic: str) -> None:
        pass

    def will(self, topic: str, payload: bytes) -> None:
        pass

    def on_connected(self, hook: Any) -> None:
        pass

    def publish(self, topic: str, payload: bytes, retain: bool = False,
                wait: float = 0.0) -> None:
        self.published.append((topic, payload, retain))


def test_guests_that_hand_on_the_log_at_once_leave_the_longest_archive() -> None:
    """The host's table is gone without a word; two guests hand on their copies of the log as
    the archive at once, one of them behind. Whatever order the broker keeps them in, the
    last archive on it is the longest, and the guest that was behind catches up from it."""
    import random

    from sudoku_table.network.endpoints import GuestEnd, topics
    from sudoku_table.network.hosting import GameLine, Guest, Host
    from sudoku_table.network.sealing import seal, unseal
    from sudoku_table.network.store import LogFile
    from sudoku_table.rules.game import variant_class

    keys = GameKeys.new()
    new_game = lambda: variant_class("classic-sudoku")(3, {})  # noqa: E731
    host = Host(GameLine.start(new_game()), HostKey(), {})
    rng = random.Random(4)
    for _ in range(6):
        host.act(rng.choice(list(host.line.game.legal_actions(host.line.state))))
    where = topics(keys)
    away = f"{where['presence']}/host"

    def guest(seat: int, known: int) -> tuple[GuestEnd, _Recording]:
        link = _Recording()
        line = GameLine.start(new_game())
        end = GuestEnd(link, keys, SeatKeys.new(seat), Guest(line, host.key.public(),
                                                              host.entries[:known]),
                       LogFile(None), table=f"t{seat}", name=f"Table {seat}", seats=[seat],
                       host_table="host")
        end.handle(away, seal(keys.sealing, away, {"online": False, "name": "Anna"}))
        return end, link

    def archive(entries: list[dict[str, Any]]) -> bytes:
        return seal(keys.sealing, where["archive"], {"entries": entries})

    def handed(link: _Recording) -> list[int]:
        return [len(unseal(keys.sealing, t, p)["entries"]) for t, p, retained in link.published
                if t == where["archive"] and retained]

    ahead, ahead_link = guest(1, 6)
    behind, behind_link = guest(2, 3)
    assert handed(ahead_link) == [6] and handed(behind_link) == [3]
    # The broker keeps the ahead one's first, then the behind one's: both hear both, in order.
    for end in (ahead, behind):
        end.handle(where["archive"], archive(host.entries[:6]))
        end.handle(where["archive"], archive(host.entries[:3]))
    assert handed(ahead_link) == [6, 6], "the shorter one on the broker is replaced"
    assert len(behind.guest.entries) == 6, "the guest behind caught up from the archive"
    assert handed(behind_link)[-1] == 6
    # Once the longest is heard last, nobody hands on again.
    for end in (ahead, behind):
        end.handle(where["archive"], archive(host.entries[:6]))
    assert handed(ahead_link) == [6, 6] and handed(behind_link)[-1] == 6


def test_only_the_seats_table_can_tell_the_host_its_game_went_on_elsewhere() -> None:
    """A guest that took the game over leaves the old host the code of its seat there, sealed
    under its own seat's card key and with its proposing key: a watcher (who has the game's
    read secret, never a seat's) can neither read nor forge it."""
    import base64

    from sudoku_table.network.endpoints import GuestEnd, HostEnd, topics
    from sudoku_table.network.hosting import GameLine, Guest, Host
    from sudoku_table.network.sealing import mac, seal
    from sudoku_table.network.store import LogFile
    from sudoku_table.rules.game import variant_class

    keys, seat = GameKeys.new(), SeatKeys.new(1)
    new_game = lambda: variant_class("classic-sudoku")(2, {})  # noqa: E731
    host_key = HostKey()
    host_link, guest_link = _Recording(), _Recording()
    host = HostEnd(host_link, keys, Host(GameLine.start(new_game()), host_key, {1: seat.proposing}),
                   LogFile(None), table="anna", name="Anna's table", seats=[0], hello={},
                   remote={1: seat})
    guest = GuestEnd(guest_link, keys, seat, Guest(GameLine.start(new_game()), host_key.public()),
                     LogFile(None), table="ben", name="Ben's table", seats=[1], host_table="anna")
    topic = topics(keys)["moved"]
    forged = [  # a watcher's tries: another key, no inner seal, a seat of nobody
        mac(SeatKeys.new(1).proposing, {"seat": 1, "n": 5, "sealed": base64.b64encode(
            seal(SeatKeys.new(1).cards, topic, {"codes": {"0": "X" * 30}})).decode()}),
        {"seat": 1, "n": 6, "sealed": "", "mac": "00"},
        mac(seat.proposing, {"seat": 0, "n": 7, "sealed": ""}),
    ]
    for notice in forged:
        host.handle(topic, seal(keys.sealing, topic, notice))
    assert host.moved is None and host.refused == len(forged)
    guest.hand_over({0: "CODE-OF-ANNAS-SEAT"}, "Ben's table")
    (sent_topic, payload, retained), = guest_link.published
    assert sent_topic == topic and retained
    host.handle(topic, payload)
    assert host.moved == {"code": "CODE-OF-ANNAS-SEAT", "name": "Ben's table"}
