"""One game's host and guests talking through the broker (``link.Link``), sealed.

Topics under ``sudoku-table/v1/<game>/``: ``log`` (the host's entries), ``propose/<seat>`` (a
remote seat's proposals) and ``sync`` (a guest asking for the entries from a number on, after
a gap or a reconnect). Every payload is sealed for the game and its topic
(``sealing.seal``); anything that does not open, verify or apply is dropped and counted in
``refused``, and changes nothing. Both ends are safe to call from the table's thread while
paho delivers on its own.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable
from typing import Any

from sudoku_table.rules.actions import Action
from sudoku_table.rules.errors import RulesError

from .codes import GameKeys, SeatKeys
from .hosting import Diverged, Guest, Host
from .link import Link
from .sealing import Refused, mac, seal, unseal

log = logging.getLogger(__name__)

ROOT = "sudoku-table/v1"


def topics(keys: GameKeys) -> dict[str, str]:
    base = f"{ROOT}/{keys.game}"
    return {"log": f"{base}/log", "propose": f"{base}/propose", "sync": f"{base}/sync"}


class HostEnd:
    """The host's end: publishes every entry, takes proposals, answers catch-ups."""

    def __init__(self, link: Link, keys: GameKeys, host: Host,
                 on_entry: Callable[[dict[str, Any]], None] | None = None) -> None:
        self._link, self._keys, self.host = link, keys, host
        self._topics = topics(keys)
        self._lock = threading.Lock()
        self._on_entry = on_entry
        self.refused = 0
        link.subscribe(f"{self._topics['propose']}/+")
        link.subscribe(self._topics["sync"])

    def _publish(self, entry: dict[str, Any]) -> None:
        topic = self._topics["log"]
        self._link.publish(topic, seal(self._keys.sealing, topic, entry))

    def act(self, action: Action) -> dict[str, Any]:
        """An action made at the host's table: journaled by the caller, then sent."""
        with self._lock:
            entry = self.host.act(action)
        self._publish(entry)
        return entry

    def undo(self) -> dict[str, Any]:
        with self._lock:
            entry = self.host.undo()
        self._publish(entry)
        return entry

    def handle(self, topic: str, payload: bytes) -> None:
        """paho's thread: a proposal or a catch-up request."""
        try:
            data = unseal(self._keys.sealing, topic, payload)
            if topic.startswith(self._topics["propose"] + "/"):
                with self._lock:
                    entry = self.host.propose(data)
                self._publish(entry)
                if self._on_entry is not None:
                    self._on_entry(entry)
            elif topic == self._topics["sync"]:
                start = data.get("from") if isinstance(data, dict) else None
                if isinstance(start, int) and not isinstance(start, bool):
                    with self._lock:
                        entries = self.host.since(start)
                    for entry in entries:
                        self._publish(entry)
        except (Refused, RulesError, ValueError) as e:
            self.refused += 1
            log.info("refused a message on %s: %s", topic, e)


class GuestEnd:
    """A guest's end: follows the log, proposes its seat's actions, asks again after a gap."""

    def __init__(self, link: Link, keys: GameKeys, seat: SeatKeys, guest: Guest,
                 on_entry: Callable[[dict[str, Any]], None] | None = None) -> None:
        self._link, self._keys, self._seat, self.guest = link, keys, seat, guest
        self._topics = topics(keys)
        self._lock = threading.Lock()
        self._on_entry = on_entry
        self._counter = 0
        self.refused = 0
        self.diverged: Diverged | None = None
        link.subscribe(self._topics["log"])

    def propose(self, action: Action, counter: int | None = None) -> None:
        """Send this seat's action to the host (it counts once its entry comes back)."""
        with self._lock:
            self._counter = counter if counter is not None else self._counter + 1
            proposal = mac(self._seat.proposing, {"seat": self._seat.seat, "n": self._counter,
                                                  "action": action.to_json()})
        topic = f"{self._topics['propose']}/{self._seat.seat}"
        self._link.publish(topic, seal(self._keys.sealing, topic, proposal))

    def catch_up(self) -> None:
        """Ask the host for every entry from the next one this table lacks."""
        topic = self._topics["sync"]
        with self._lock:
            start = self.guest.inbox.next
        self._link.publish(topic, seal(self._keys.sealing, topic, {"from": start}))

    def handle(self, topic: str, payload: bytes) -> None:
        """paho's thread: an entry of the host's log."""
        if topic != self._topics["log"]:
            return
        try:
            entry = unseal(self._keys.sealing, topic, payload)
            with self._lock:
                applied = self.guest.receive(entry)
                missing = self.guest.inbox.missing
        except Diverged as e:
            self.diverged = e
            log.error("%s", e)
            return
        except (Refused, RulesError, ValueError) as e:
            self.refused += 1
            log.info("refused an entry: %s", e)
            return
        for done in applied:
            if self._on_entry is not None:
                self._on_entry(done)
        if missing is not None:
            self.catch_up()
