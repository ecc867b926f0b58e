"""One game's host and guests talking through the broker (``link.Link``), sealed.

Topics under ``sudoku-table/v1/<game>/``: ``hello`` (retained: the game as the host started
it and the host's public key), ``log`` (the host's entries), ``propose/<seat>`` (a remote
seat's proposals), ``sync`` (a guest asking for the entries from a number on, after a gap, a
reconnect, or the host's table coming online), ``presence/<table>`` (retained, with a last
will: whether that table is connected), ``cards/<seat>`` (retained: a dealt card sealed again
for its seat) and ``archive`` (retained: every entry so far, as the host signed them,
published when the game ends and whenever the host's table leaves the broker: by the host as
it closes or leaves the game, by a guest when the host's table goes without a word; so that a
watcher who comes later follows the whole game without its host; a guest also catches up from
it). Every payload is sealed for the game and its topic (``sealing.seal``); anything that
does not open, verify or apply is dropped and counted in ``refused``, and changes nothing.
Each end keeps its copy of the log (``store.LogFile``) before it sends or counts an entry.
Both ends are safe to call from the table's thread while paho delivers on its own.
"""

from __future__ import annotations

import base64
import logging
import threading
import time
from collections.abc import Callable
from typing import Any

from sudoku_table.rules.actions import Action
from sudoku_table.rules.errors import RulesError

from .codes import GameKeys, SeatKeys
from .hosting import Declined, Diverged, Guest, Host
from .link import Link
from .sealing import Proposals, Refused, mac, seal, unseal, verify
from .store import LogFile

log = logging.getLogger(__name__)

ROOT = "sudoku-table/v1"

Changed = Callable[[], None]
"""Called on paho's thread after the game's log or a table's presence changed."""


def topics(keys: GameKeys) -> dict[str, str]:
    base = f"{ROOT}/{keys.game}"
    return {"hello": f"{base}/hello", "log": f"{base}/log", "propose": f"{base}/propose",
            "sync": f"{base}/sync", "presence": f"{base}/presence", "cards": f"{base}/cards",
            "archive": f"{base}/archive", "moved": f"{base}/moved"}


class Presence:
    """Which tables of the game are connected (their retained ``presence``), and since when
    one is not, by this table's clock."""

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self._clock = clock
        self.tables: dict[str, dict[str, Any]] = {}
        self._since: dict[str, float] = {}

    def heard(self, table: str, data: Any) -> None:
        if not isinstance(data, dict):
            return
        online = data.get("online") is True
        seats = data.get("seats")
        self.tables[table] = {"name": str(data.get("name", ""))[:60], "online": online,
                              "seats": [s for s in seats if isinstance(s, int)]
                              if isinstance(seats, list) else []}
        if online:
            self._since.pop(table, None)
        else:
            self._since.setdefault(table, self._clock())

    def offline(self, table: str) -> float | None:
        """Seconds since ``table`` went away (None: connected; 0 for a table never heard)."""
        if self.tables.get(table, {}).get("online"):
            return None
        since = self._since.get(table)
        return 0.0 if since is None else self._clock() - since


class _End:
    """What both ends share: the link, the game's topics, sealing, presence, the lock."""

    def __init__(self, link: Link, keys: GameKeys, table: str, name: str, seats: list[int],
                 on_change: Changed | None) -> None:
        self._link, self._keys = link, keys
        self._seats = list(seats)
        self._topics = topics(keys)
        self._lock = threading.Lock()
        self._on_change = on_change
        self.table, self.name = table, name
        self.presence = Presence()
        self.refused = 0
        link.subscribe(f"{self._topics['presence']}/+")
        topic = f"{self._topics['presence']}/{table}"
        link.will(topic, seal(keys.sealing, topic, {"online": False, "name": name,
                                                     "seats": self._seats}))
        link.on_connected(self._online)

    def _online(self) -> None:
        self.publish_sealed(f"{self._topics['presence']}/{self.table}",
                            {"online": True, "name": self.name, "seats": self._seats},
                            retain=True)

    def publish_sealed(self, topic: str, data: Any, retain: bool = False,
                       wait: float = 0.0) -> None:
        self._link.publish(topic, seal(self._keys.sealing, topic, data), retain=retain,
                           wait=wait)

    def leave(self) -> None:
        """Say that this table is away (it closes, or left the game), then let go of the
        broker (a table that goes without a word is told by its last will)."""
        self.publish_sealed(f"{self._topics['presence']}/{self.table}",
                            {"online": False, "name": self.name, "seats": self._seats},
                            retain=True, wait=2.0)
        self._link.stop()

    def _changed(self) -> None:
        if self._on_change is not None:
            self._on_change()

    def _presence(self, topic: str, payload: bytes) -> bool:
        prefix = self._topics["presence"] + "/"
        if not topic.startswith(prefix):
            return False
        try:
            self.presence.heard(topic[len(prefix):], unseal(self._keys.sealing, topic, payload))
        except Refused:
            self.refused += 1
            return True
        self._changed()
        return True


class HostEnd(_End):
    """The host's end: keeps and publishes every entry, takes proposals, answers catch-ups."""

    def __init__(self, link: Link, keys: GameKeys, host: Host, store: LogFile, *,
                 table: str, name: str, seats: list[int], hello: dict[str, Any],
                 remote: dict[int, SeatKeys] | None = None,
                 on_change: Changed | None = None) -> None:
        super().__init__(link, keys, table, name, seats, on_change)
        self.host, self._store = host, store
        self._hello = hello
        self._remote = dict(remote or {})
        self.moved: dict[str, Any] | None = None
        """Another table took the game over while this one was away: ``{"code", "name"}``,
        the join code of this table's seat in the game as it goes on there."""
        link.subscribe(self._topics["moved"])
        self._archived = 0
        """How many entries the last archive had."""
        link.subscribe(f"{self._topics['propose']}/+")
        link.subscribe(self._topics["sync"])
        self.publish_sealed(self._topics["hello"], hello, retain=True)

    def _keep_and_send(self, entry: dict[str, Any]) -> None:
        self._store.append(entry)  # kept before anyone can see it
        self.publish_sealed(self._topics["log"], entry)
        if self.host.line.state.over or entry.get("kind") == "closed":
            self._archive()

    def _archive(self) -> None:
        """Every entry so far, retained: a watcher who comes after the end (or after the host
        left) checks and follows the whole game from it."""
        self._archived = len(self.host.entries)
        self.publish_sealed(self._topics["archive"], {"entries": list(self.host.entries)},
                            retain=True)

    def leave(self) -> None:
        """The host's table closes or leaves the game: what a watcher who comes while it is
        away reads (the archive, unless the last one has every entry), then away."""
        with self._lock:
            if self.host.entries and self._archived != len(self.host.entries):
                self._archive()
        super().leave()

    def act(self, action: Action) -> dict[str, Any]:
        """An action made at the host's table (already journaled there): kept, then sent."""
        with self._lock:
            entry = self.host.act(action)
            self._keep_and_send(entry)
        return entry

    def undo(self) -> dict[str, Any]:
        """The last action taken back at the host's table."""
        with self._lock:
            entry = self.host.undo()
            self._keep_and_send(entry)
        return entry

    def actions(self) -> list[Action]:
        with self._lock:
            return list(self.host.line.actions)

    def send_card(self, seat: SeatKeys, at: int, card: int) -> None:
        """The card dealt to ``seat`` after ``at`` actions: sealed under the seat's card key
        inside the game's sealing, retained (its table reads it again after a restart); the
        host refuses that seat's action with another number."""
        with self._lock:
            self.host.cards[(seat.seat, at)] = card
        topic = f"{self._topics['cards']}/{seat.seat}"
        inner = base64.b64encode(seal(seat.cards, topic, {"at": at, "card": card})).decode()
        self.publish_sealed(topic, {"sealed": inner}, retain=True)

    def end_game(self, next_codes: dict[int, str] | None = None) -> None:
        """The host starts another game: the log's last entry says so to every table; with
        ``next_codes`` (a rematch with the same tables), each remote seat's join code of the
        next game, sealed under that seat's card key so that only its table reads it."""
        data = None
        if next_codes:
            topic = self._topics["log"]
            data = {"next": {str(seat): base64.b64encode(seal(
                self._remote[seat].cards, topic, {"code": code})).decode()
                for seat, code in next_codes.items() if seat in self._remote}}
        with self._lock:
            if not self.host.entries or self.host.entries[-1].get("kind") != "closed":
                self._keep_and_send(self.host.close(data))

    def _moved(self, data: Any) -> None:
        """A guest took the game over (its host, this table, was away): its notice, with its
        seat's proposing key and sealed under its seat's card key, names this table's seat's
        code in the game as it goes on; anyone else's is refused."""
        seat = data.get("seat") if isinstance(data, dict) else None
        keys = self._remote.get(seat) if isinstance(seat, int) else None
        if keys is None or not isinstance(seat, int):
            raise Refused("a notice for no seat at another table")
        checked = Proposals({seat: keys.proposing})
        checked.check(data)
        inner = unseal(keys.cards, self._topics["moved"], base64.b64decode(data["sealed"]))
        codes = inner.get("codes") if isinstance(inner, dict) else None
        mine = [codes.get(str(s)) for s in self._seats] if isinstance(codes, dict) else []
        code = next((c for c in mine if isinstance(c, str)), None)
        if code is None:
            raise Refused("the notice names no seat of this table")
        with self._lock:
            self.moved = {"code": code, "name": str(inner.get("name", ""))[:60]}
        self._changed()

    def handle(self, topic: str, payload: bytes) -> None:
        """paho's thread: a proposal, a catch-up request, another table's notice that it
        took the game over, or a table's presence."""
        if self._presence(topic, payload):
            return
        try:
            data = unseal(self._keys.sealing, topic, payload)
            if topic == self._topics["moved"]:
                self._moved(data)
            elif topic.startswith(self._topics["propose"] + "/"):
                with self._lock:
                    try:
                        entry = self.host.propose(data)
                    except Declined as declined:
                        entry = self.host.refuse(declined)
                    self._keep_and_send(entry)
                self._changed()
            elif topic == self._topics["sync"]:
                start = data.get("from") if isinstance(data, dict) else None
                if isinstance(start, int) and not isinstance(start, bool):
                    with self._lock:
                        entries = self.host.since(start)
                        head = self.host.key.sign({"head": len(self.host.entries)})
                    for entry in entries:
                        self.publish_sealed(self._topics["log"], entry)
                    self.publish_sealed(self._topics["log"], head)  # "that was all, for now"
        except (Refused, RulesError, ValueError, TypeError, KeyError) as e:
            self.refused += 1
            log.info("refused a message on %s: %s", topic, e)


class GuestEnd(_End):
    """A guest's end: follows the log, proposes its seat's actions, asks again after a gap."""

    def __init__(self, link: Link, keys: GameKeys, seat: SeatKeys, guest: Guest,
                 store: LogFile, *, table: str, name: str, seats: list[int],
                 host_table: str = "", on_change: Changed | None = None) -> None:
        super().__init__(link, keys, table, name, seats, on_change)
        self._seat, self.guest, self._store = seat, guest, store
        self._host_table = host_table
        self._archive_heard = 0
        """How many entries the last archive heard had (messages on a topic come in the
        broker's order, this table's own included: the last one heard is the one the broker
        keeps). While the host is away, a longer copy here is handed on again, so two guests
        that hand on at once end with the longer archive on the broker."""
        self._counter = 0
        self.awaiting: list[int] = []
        """The counters of this table's proposals not answered yet."""
        self._unanswered: dict[int, dict[str, Any]] = {}
        """Those proposals themselves, sent again by ``again``."""
        self.declined: list[str] = []
        """Why the host refused this table's proposals (read and cleared by the table)."""
        self.diverged: Diverged | None = None
        self.closed = False
        """The host left the game (it started another)."""
        self.next_code: str | None = None
        """The join code of this table's seat in the host's next game (a rematch with the
        same tables), once the host's last entry brought it."""
        self.head: int | None = None
        """The host's last entry as last heard (None: not since this table connected)."""
        self.cards: list[tuple[int, int]] = []
        """Cards dealt to this table's seat, not yet taken by the table (at, card)."""
        link.subscribe(f"{self._topics['cards']}/{seat.seat}")
        link.subscribe(self._topics["log"])
        link.subscribe(self._topics["archive"])
        link.on_connected(self.again)

    def actions(self) -> list[Action]:
        with self._lock:
            return list(self.guest.line.actions)

    def _propose(self, body: dict[str, Any]) -> None:
        with self._lock:
            self._counter = max(self._counter + 1, int(time.time() * 1000))  # grows past restarts
            proposal = mac(self._seat.proposing, {"seat": self._seat.seat, "n": self._counter,
                                                  **body})
            self.awaiting.append(self._counter)
            self._unanswered[self._counter] = proposal
        self.publish_sealed(f"{self._topics['propose']}/{self._seat.seat}", proposal)

    def propose(self, action: Action, at: int) -> None:
        """Send this seat's action, made after ``at`` actions, to the host (it counts once
        the host's entry comes back)."""
        self._propose({"at": at, "action": action.to_json()})

    def hand_over(self, codes: dict[int, str], name: str) -> None:
        """This table takes the game over (its host is gone): the host's table, when it comes
        back, reads the join codes of the game as it goes on here (retained, sealed under
        this seat's card key, which only the host shares, and with its proposing key)."""
        topic = self._topics["moved"]
        inner = seal(self._seat.cards, topic, {"codes": {str(s): c for s, c in codes.items()},
                                               "name": name})
        with self._lock:
            self._counter = max(self._counter + 1, int(time.time() * 1000))
            notice = mac(self._seat.proposing, {"seat": self._seat.seat, "n": self._counter,
                                                "sealed": base64.b64encode(inner).decode()})
        self.publish_sealed(topic, notice, retain=True, wait=2.0)

    def propose_undo(self, at: int) -> None:
        """Ask the host to take back this seat's own last action (the game has ``at``)."""
        self._propose({"at": at, "undo": True})

    @property
    def caught_up(self) -> bool:
        """This table has every entry the host had when it last answered (so an action the
        table has and the log has not was taken back, or refused, at the host)."""
        with self._lock:
            return self.head is not None and self.guest.inbox.next > self.head

    def catch_up(self) -> None:
        """Ask the host for every entry from the next one this table lacks."""
        with self._lock:
            self.head = None
            start = self.guest.inbox.next
        self.publish_sealed(self._topics["sync"], {"from": start})

    def again(self) -> None:
        """Ask for what this table lacks and send its unanswered proposals again: after every
        connect, and whenever another table (the host's) comes online. What reached the broker
        while the host's table was away (a broker restarted, the host's table restarting) may
        never reach the host, and both tables would wait on each other; a proposal the host
        took already is refused there as old and changes nothing."""
        self.catch_up()
        with self._lock:
            unanswered = list(self._unanswered.values())
        for proposal in unanswered:
            self.publish_sealed(f"{self._topics['propose']}/{self._seat.seat}", proposal)

    def handle(self, topic: str, payload: bytes) -> None:
        """paho's thread: an entry of the host's log, or a table's presence."""
        if self._presence(topic, payload):
            table = topic.rsplit("/", 1)[1]
            if table != self.table and self.presence.offline(table) is None:
                self.again()
            elif table == self._host_table:
                self._hand_on()
            return
        if topic == f"{self._topics['cards']}/{self._seat.seat}":
            self._card(topic, payload)
            return
        if topic == self._topics["archive"]:
            self._from_archive(topic, payload)
            return
        if topic != self._topics["log"]:
            return
        try:
            entry = unseal(self._keys.sealing, topic, payload)
            if isinstance(entry, dict) and "head" in entry and "seq" not in entry:
                head = verify(self.guest.host_public, entry)["head"]
                with self._lock:
                    if isinstance(head, int):
                        self.head = max(self.head or 0, head)
                self._changed()
                return
        except (Refused, ValueError) as e:
            self.refused += 1
            log.info("refused an entry: %s", e)
            return
        self._take([entry])

    def _take(self, entries: list[Any]) -> None:
        """Entries of the host's log (live, or from its archive): each checked, applied once
        and in order, and kept; a gap is asked for again."""
        applied: list[dict[str, Any]] = []
        missing = None
        try:
            with self._lock:
                try:
                    for entry in entries:
                        done = self.guest.receive(entry)
                        if self.head is not None and done:  # live entries once caught up
                            self.head = max(self.head, int(done[-1]["seq"]))
                        for each in done:
                            self._store.append(each)
                            self._answered(each)
                        applied += done
                finally:
                    missing = self.guest.inbox.missing
        except Diverged as e:
            self.diverged = e
            log.error("%s", e)
        except (Refused, RulesError, ValueError) as e:
            self.refused += 1
            log.info("refused an entry: %s", e)
        if applied or self.diverged is not None:
            self._changed()
        if missing is not None and self.diverged is None:
            self.catch_up()

    def _from_archive(self, topic: str, payload: bytes) -> None:
        """The host's archive (retained; or another guest's copy of the log): what this table
        lacks of it is taken as from the log; while the host is away, a longer copy here is
        handed on."""
        try:
            data = unseal(self._keys.sealing, topic, payload)
            entries = data.get("entries") if isinstance(data, dict) else None
            if not isinstance(entries, list):
                raise Refused("an archive must list entries")
        except Refused as e:
            self.refused += 1
            log.info("refused an archive: %s", e)
            return
        with self._lock:
            self._archive_heard = len(entries)  # the last heard is the one the broker keeps
        self._take(entries)
        if self.presence.offline(self._host_table) is not None:
            self._hand_on()

    def _hand_on(self) -> None:
        """The host's table is away (perhaps switched off without a word, so it could not
        archive): this table's copy of the log, as the host signed it, becomes the archive, so
        that a watcher who comes meanwhile follows the game so far."""
        with self._lock:
            entries = self.guest.signed()
            if not entries or len(entries) <= self._archive_heard:
                return  # the archive on the broker has as much
        self.publish_sealed(self._topics["archive"], {"entries": entries}, retain=True)

    def _card(self, topic: str, payload: bytes) -> None:
        try:
            outer = unseal(self._keys.sealing, topic, payload)
            inner = unseal(self._seat.cards, topic, base64.b64decode(outer["sealed"]))
            at, card = inner["at"], inner["card"]
        except (Refused, ValueError, TypeError, KeyError):
            self.refused += 1
            return
        if isinstance(at, int) and isinstance(card, int):
            with self._lock:
                self.cards.append((at, card))
            self._changed()

    def _answered(self, entry: dict[str, Any]) -> None:
        if entry.get("kind") == "closed":
            self.closed = True
            self.next_code = self._next_code(entry.get("data"))
        by = entry.get("by")
        if not isinstance(by, dict) or by.get("seat") != self._seat.seat:
            return
        counter = by.get("n")
        self.awaiting = [n for n in self.awaiting if n != counter]
        proposal = self._unanswered.pop(counter, None) if isinstance(counter, int) else None
        if entry.get("kind") == "refused" and not self._counted_after_all(proposal):
            data = entry.get("data")
            self.declined.append(str(data.get("reason", "")) if isinstance(data, dict) else "")

    def _next_code(self, data: Any) -> str | None:
        """This seat's join code of the host's next game, from its last entry (None: the
        host started a game without this table, or the code does not open)."""
        sealed = data.get("next", {}).get(str(self._seat.seat)) if isinstance(data, dict) \
            and isinstance(data.get("next"), dict) else None
        if not isinstance(sealed, str):
            return None
        try:
            inner = unseal(self._seat.cards, self._topics["log"], base64.b64decode(sealed))
        except (Refused, ValueError):
            return None
        code = inner.get("code") if isinstance(inner, dict) else None
        return code if isinstance(code, str) else None

    def _counted_after_all(self, proposal: dict[str, Any] | None) -> bool:
        """``proposal`` was refused as late, but its action stands in the log where it was
        made: the table sent its own act again after a restart, before the host's answer to
        the first copy reached it. Nothing was refused."""
        if proposal is None or "action" not in proposal:
            return False
        at, actions = proposal.get("at"), self.guest.line.actions
        return (isinstance(at, int) and 0 <= at < len(actions)
                and actions[at].to_json() == proposal["action"])
