"""Looking on: a game followed from the broker with its read secret only (a watch code, or a join
code), and a club's list of games.

A ``Watcher`` reads the host's ``hello`` (retained) and follows its signed ``log`` (asking for
it from the first entry: the host answers every reader alike; a game that ended, or that its
host left, is read from its retained ``archive`` of the same signed entries); it checks every
entry as a guest does, and holds the game as it stands, but it has no seat key to propose with
and no host key to sign with: it can never act. A ``Club`` is a secret that the club's tables
share (the config's ``[network] club``): a host in a club announces each game it hosts
(retained, sealed under the club's key) with its watch code, so a club page finds every game on
the broker and follows each with a ``Watcher``; an announcement stays on the broker after the
game, so the club's finished games are listed with their records.
"""

from __future__ import annotations

import logging
import secrets
import threading
import time
from collections.abc import Callable
from typing import Any

from sudoku_table.rules.game import Game, variant_class

from .club import Club
from .codes import GameKeys, read_code
from .endpoints import ROOT, Presence, topics
from .hosting import Diverged, GameLine, Guest
from .link import Broker, Link
from .sealing import Refused, seal, unseal
from .shared import Start

log = logging.getLogger(__name__)

Resolve = Callable[[Start], Game]


def resolve_start(start: Start) -> Game:
    """The game a hello starts (the rules' own variants)."""
    return variant_class(start.variant)(start.players, start.options)


class Watcher:
    """One game followed read-only through ``link`` (see the module docstring)."""

    def __init__(self, keys: GameKeys, resolve: Resolve,
                 on_change: Callable[[], None] | None = None) -> None:
        self.keys = keys
        self._resolve = resolve
        self._topics = topics(keys)
        self._lock = threading.Lock()
        self._on_change = on_change
        self.start: Start | None = None
        self.host_name = ""
        self.guest: Guest | None = None
        self.presence = Presence()
        self.problem: str | None = None
        self.closed = False
        self.link: Link | None = None
        self._archived: list[Any] = []
        """The archive's entries when it came before the hello (both are retained)."""

    def _followed(self) -> tuple[str, ...]:
        return (self._topics["hello"], self._topics["log"], self._topics["archive"],
                f"{self._topics['presence']}/+")

    def attach(self, link: Link) -> None:
        """Follow the game through ``link`` (subscribed, then asking for the log once
        connected)."""
        self.link = link
        for topic in self._followed():
            link.subscribe(topic)
        link.on_connected(self.catch_up)

    def detach(self) -> None:
        """Stop following the game (its link goes on for other games)."""
        link, self.link = self.link, None
        if link is not None:
            link.off_connected(self.catch_up)
            for topic in self._followed():
                link.unsubscribe(topic)

    @property
    def ready(self) -> bool:
        """Whether the game's hello came (a code that names no game never gets one)."""
        with self._lock:
            return self.guest is not None

    @property
    def finished(self) -> bool:
        """Whether the game is over, or its host left it."""
        with self._lock:
            return self.closed or (self.guest is not None and self.guest.line.state.over)

    def catch_up(self) -> None:
        if self.link is None:
            return
        with self._lock:
            start = self.guest.inbox.next if self.guest is not None else 1
        topic = self._topics["sync"]
        self.link.publish(topic, seal(self.keys.sealing, topic, {"from": start}))

    def handle(self, topic: str, payload: bytes) -> None:
        """paho's thread: the hello, an entry, or a table's presence."""
        try:
            data = unseal(self.keys.sealing, topic, payload)
        except Refused:
            return
        changed = came_online = False
        with self._lock:
            if topic == self._topics["hello"] and self.guest is None:
                changed = self._hello(data)
                if self.guest is not None and self._archived:
                    changed = self._entries(self._archived) or changed
            elif topic == self._topics["log"] and self.guest is not None:
                changed = self._entry(data)
            elif topic == self._topics["archive"]:
                entries = data.get("entries") if isinstance(data, dict) else None
                if isinstance(entries, list):
                    if self.guest is None:
                        self._archived = entries
                    else:
                        changed = self._entries(entries)
            elif topic.startswith(self._topics["presence"] + "/"):
                table = topic.rsplit("/", 1)[1]
                was = self.presence.offline(table)
                self.presence.heard(table, data)
                came_online = was is not None and self.presence.offline(table) is None
                changed = True
        # Asked again whenever a table (the host's) comes online: a request that reached the
        # broker while the host was away is gone.
        if (topic == self._topics["hello"] and changed) or came_online:
            self.catch_up()
        if changed and self._on_change is not None:
            self._on_change()

    def _hello(self, data: Any) -> bool:
        try:
            start = Start.from_json(data.get("start") if isinstance(data, dict) else None)
            game = self._resolve(start)
            public = data["host_public"]
            if not isinstance(public, str):
                raise Refused("no host key")
        except (Refused, KeyError, ValueError, TypeError) as e:
            self.problem = f"the game's hello cannot be read: {e}"
            return True
        self.start, self.host_name = start, str(data.get("host_name", ""))[:60]
        self.guest = Guest(GameLine.start(game, start.setup), public)
        return True

    def _entries(self, entries: list[Any]) -> bool:
        """The archive's entries, each checked as one from the log (those already here are
        dropped as duplicates)."""
        self._archived = []
        changed = False
        for entry in entries:
            changed = self._entry(entry) or changed
            if self.problem is not None:
                break
        return changed

    def _entry(self, entry: Any) -> bool:
        assert self.guest is not None
        try:
            applied = self.guest.receive(entry)
        except Diverged as e:
            self.problem = str(e)
            return True
        except (Refused, ValueError) as e:
            log.info("a watcher refused an entry: %s", e)
            return False
        if any(e.get("kind") == "closed" for e in applied):
            self.closed = True
        return bool(applied)

    def view(self) -> dict[str, Any]:
        """The game as it stands: its start, state document, actions, and its tables."""
        with self._lock:
            if self.guest is None or self.start is None:
                return {"game": self.keys.game, "ready": False, "problem": self.problem}
            line = self.guest.line
            return {"game": self.keys.game, "ready": True, "problem": self.problem,
                    "closed": self.closed, "host": self.host_name,
                    "variant": self.start.variant, "name": line.game.name,
                    "names": list(self.start.names), "colors": list(self.start.colors),
                    "computers": dict(self.start.computers),
                    "document": line.game.document(line.state),
                    "record": {"variant": self.start.variant, "players": self.start.players,
                               "options": dict(self.start.options),
                               "setup": dict(self.start.setup),
                               "actions": [a.to_json() for a in line.actions],
                               "names": list(self.start.names)},
                    "tables": [{"name": table["name"], "online": table["online"],
                                "seats": list(table["seats"])}
                               for table in self.presence.tables.values()]}


def _generation(info: dict[str, Any]) -> int:
    """How many times the announced game was taken over (0: by the table that started it)."""
    generation = info.get("generation")
    return generation if isinstance(generation, int) and not isinstance(generation, bool) else 0


def watch_keys(code: str) -> GameKeys:
    """The game a watch or join code names (``BadCode`` for a mistyped one); a join code
    looks on too, but only its read secret is used here."""
    return read_code(code).game


class Following:
    """The games this panel looks on, over one link: each watched by its code (``watch``),
    and, with a ``club``, every game announced there. ``version`` grows with every change;
    ``wait`` blocks until it does (a page's long poll).

    A game taken over by another table is announced again under the same lineage with a
    higher generation: the club lists the newest one only, and the older one's view names it
    (``successor``).

    The games watched by a code and the club's games are held apart, each up to its limit:
    codes typed at a page (anyone who reaches it can type them) never push a club's game out.
    When one kind is full, a game that never said hello makes room first (a made-up code
    names no game), then a finished one, then the oldest."""

    LIMIT = 64
    """The most games followed by their codes at once."""
    CLUB_LIMIT = 256
    """The most of the club's games followed at once (live and finished)."""

    def __init__(self, broker: Broker, resolve: Resolve = resolve_start,
                 club: Club | None = None) -> None:
        self.club = club
        self._resolve = resolve
        self._cond = threading.Condition()
        self.version = 0
        self.games: dict[str, tuple[dict[str, Any], Watcher]] = {}
        self.link = Link(broker, f"sudoku-table-look-{secrets.token_hex(4)}", self._handle,
                         clean=True)
        if club is not None:
            self.link.subscribe(f"{club.topic}/+")
        self.link.start()

    def _changed(self) -> None:
        with self._cond:
            self.version += 1
            self._cond.notify_all()

    def wait(self, version: int, timeout: float) -> int:
        """The version once it differs from ``version`` (or after ``timeout`` seconds)."""
        with self._cond:
            self._cond.wait_for(lambda: self.version != version, timeout=timeout)
            return self.version

    def _handle(self, topic: str, payload: bytes) -> None:
        if self.club is not None and topic.startswith(self.club.topic + "/"):
            self._announced(topic, payload)
            return
        game = topic[len(ROOT) + 1:].split("/", 1)[0]
        with self._cond:
            found = self.games.get(game)
        if found is not None:
            found[1].handle(topic, payload)

    def _announced(self, topic: str, payload: bytes) -> None:
        assert self.club is not None
        try:
            info = unseal(self.club.key, topic, payload)
            keys = watch_keys(str(info.get("watch", "")))
        except (Refused, ValueError, AttributeError):
            return
        self._follow(keys, {k: v for k, v in info.items() if k != "watch"}, club=True)

    def watch(self, code: str) -> str:
        """Look on at the game of a watch (or join) ``code``: its id (``BadCode`` for a
        mistyped code)."""
        return self._follow(watch_keys(code), {}, club=False)

    def _follow(self, keys: GameKeys, info: dict[str, Any], club: bool) -> str:
        with self._cond:
            if keys.game in self.games:
                if club:  # watched by its code first, announced in the club since
                    known, watcher = self.games[keys.game]
                    self.games[keys.game] = ({**known, **info, "club": True}, watcher)
                    self.version += 1
                    self._cond.notify_all()
                return keys.game
            kind = [g for g, (known, _w) in self.games.items() if bool(known.get("club")) == club]
            if len(kind) >= (self.CLUB_LIMIT if club else self.LIMIT):
                self._make_room(kind)
            watcher = Watcher(keys, self._resolve, self._changed)
            self.games[keys.game] = ({**info, "club": club, "since": time.time()}, watcher)
        watcher.attach(self.link)
        if self.link.connected.is_set():
            watcher.catch_up()
        self._changed()
        return keys.game

    def _make_room(self, kind: list[str]) -> None:
        """One game of ``kind`` (all followed by code, or all the club's) stops being
        followed: one that never said hello, else a finished one, else the oldest."""
        def worth(game: str) -> tuple[bool, bool, float]:
            info, watcher = self.games[game]
            return watcher.ready, not watcher.finished, float(info["since"])
        _info, watcher = self.games.pop(min(kind, key=worth))
        watcher.detach()

    def _newest(self) -> dict[str, str]:
        """Each lineage of the club's games: the id of its newest game (the last table that
        took it over)."""
        newest: dict[str, tuple[int, float, str]] = {}
        for game, (info, _w) in self.games.items():
            if info.get("club"):
                mark = (_generation(info), float(info.get("since", 0)), game)
                lineage = str(info.get("lineage") or game)
                newest[lineage] = max(newest.get(lineage, mark), mark)
        return {lineage: mark[2] for lineage, mark in newest.items()}

    def game(self, game: str) -> dict[str, Any] | None:
        """One followed game's view (None: not followed); ``successor``: the game it goes on
        as, once another table of the club took it over."""
        with self._cond:
            found = self.games.get(game)
            newest = self._newest()
        if found is None:
            return None
        info = found[0]
        successor = newest.get(str(info.get("lineage") or game)) if info.get("club") else None
        view = {**found[1].view(), "announced": info}
        if successor is not None and successor != game:
            with self._cond:
                later = self.games.get(successor)
            view["successor"] = {"game": successor,
                                 "host": str(later[0].get("host", "")) if later else ""}
        return view

    def club_games(self) -> list[dict[str, Any]]:
        """Every game of the club (a game taken over: its newest host's only): live ones
        first, then finished, newest first."""
        with self._cond:
            newest = set(self._newest().values())
            games = [(info, w) for game, (info, w) in self.games.items()
                     if info.get("club") and game in newest]
        shown = [{**watcher.view(), "announced": info} for info, watcher in games]
        shown.sort(key=lambda g: (bool(g.get("document", {}).get("over") or g.get("closed")),
                                  -float(g["announced"].get("since", 0))))
        return shown

    @property
    def connected(self) -> bool:
        """Whether the broker is reached now (while not, what is shown may be old)."""
        return self.link.connected.is_set()

    def stop(self) -> None:
        self.link.stop()
