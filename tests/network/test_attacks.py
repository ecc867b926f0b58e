"""Anyone else on the broker: what they see and what they can do to a game. A client that
records every message of a game and plays them back, sends random bytes to every topic,
proposes with the wrong seat's key, forges log entries with a key of its own, or (holding the
watch code) proposes: nothing of it changes either table's game, and hidden cards stay
unreadable without the seat's key."""

from __future__ import annotations

import base64
import os
import random
import threading
from pathlib import Path

import pytest

from sudoku_table.network.codes import SeatKeys, read_code
from sudoku_table.network.endpoints import topics
from sudoku_table.network.link import Link, parse_broker
from sudoku_table.network.sealing import HostKey, Refused, mac, seal, unseal

from .conftest import Mosquitto
from .test_tables import actions, carried_out, host_and_guest, play, until

pytestmark = [pytest.mark.integration, pytest.mark.slow]


def test_nothing_from_anyone_else_on_the_broker_changes_the_game(
        tmp_path: Path, mosquitto: Mosquitto) -> None:
    recorded: list[tuple[str, bytes]] = []
    lock = threading.Lock()

    def record(topic: str, payload: bytes) -> None:
        with lock:
            recorded.append((topic, payload))

    spy = Link(parse_broker(mosquitto.url), "spy", record, clean=True)
    spy.subscribe("sudoku-table/#")
    spy.start()
    assert spy.connected.wait(10)
    host, hc, guest, gc = host_and_guest(tmp_path, mosquitto, "classic-sudoku", deal=True)
    rng = random.Random(8)
    try:
        view = host.view()
        watch = read_code(view["table"]["join"]["watch"])
        keys = watch.game
        names = topics(keys)
        play(host, hc, guest, gc, rng, 6)
        assert carried_out([(host, hc), (guest, gc)])
        before = actions(host)
        refused_before = host.remote.shared.end.refused + guest.remote.shared.end.refused
        # What the spy saw: topic names that say nothing, and nothing it can open.
        with lock:
            seen = list(recorded)
        assert seen and all(keys.game in t for t, _p in seen if "/club/" not in t)
        assert all(b"place" not in p and b"Anna" not in p for _t, p in seen)
        # 1. Every recorded message played back, twice (old entries, old proposals).
        for topic, payload in seen * 2:
            spy.publish(topic, payload)
        # 2. Random bytes and wrong-key messages on every topic.
        for name in ("log", "sync", "hello", "cards"):
            topic = names[name] if name != "cards" else f"{names['cards']}/1"
            spy.publish(topic, os.urandom(80))
            spy.publish(topic, seal(os.urandom(32), topic, {"seq": 99}))
        # 3. A proposal for seat 1 made with another key, and one by the watcher (who can seal
        #    but holds no seat key), for the very action seat 1 could play.
        topic = f"{names['propose']}/1"
        for key in (SeatKeys.new(1).proposing, os.urandom(32)):
            proposal = mac(key, {"seat": 1, "n": 2**40, "at": len(before),
                                 "action": {"type": "place", "cell": "a1", "number": 1}})
            spy.publish(topic, seal(keys.sealing, topic, proposal))
        # 4. A log entry signed with a key of its own, sealed correctly (the watcher could).
        forged = HostKey().sign({"seq": len(before) + 50, "kind": "undo", "data": None,
                                 "hash": "0" * 32})
        spy.publish(names["log"], seal(keys.sealing, names["log"], forged))
        assert until(lambda: host.remote.shared.end.refused + guest.remote.shared.end.refused
                     > refused_before + 5)
        assert actions(host) == actions(guest) == before
        assert guest.view()["table"]["network"]["diverged"] is None
        # The dealt cards passed the spy sealed twice: the game's key opens only the outer
        # layer.
        cards = [(t, p) for t, p in seen if "/cards/" in t]
        assert cards
        for t, p in cards:
            outer = unseal(keys.sealing, t, p)
            with pytest.raises(Refused):
                unseal(keys.sealing, t, base64.b64decode(outer["sealed"]))
        # And the game plays on.
        play(host, hc, guest, gc, rng, 2)
        assert carried_out([(host, hc), (guest, gc)])
    finally:
        spy.stop()
        host.close()
        guest.close()
