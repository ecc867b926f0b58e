"""A game shared with other tables, as one table plays it: its role (host or guest), the
broker's ends, its copy of the log, the seats and where each is played, and the codes.

The table (``sudoku_table.table.remote``) asks it for the log's actions (``actions``) and
hands it what its own seats did (``act``, ``take_back``); everything else happens here and in
``endpoints``. ``saved`` is what the table's journal keeps with the game so that a restarted
table joins its game again by itself (the secrets stay on the table's own card).
"""

from __future__ import annotations

import secrets
import threading
import time
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from sudoku_table.rules.actions import Action
from sudoku_table.rules.game import Game
from sudoku_table.rules.wording import N_

from .club import Club
from .codes import BadCode, GameKeys, JoinCode, SeatKeys, WatchCode, read_code
from .endpoints import Changed, GuestEnd, HostEnd, topics
from .hosting import GameLine, Guest, Host
from .link import Broker, Link
from .sealing import HostKey, Refused, unseal
from .store import LogFile

HERE, REMOTE, COMPUTER = "here", "remote", "computer"


class JoinFailed(RuntimeError):
    """The host's table did not answer a join code (off, or on another broker)."""


@dataclass(frozen=True)
class Start:
    """What a game is at its start, as the host's ``hello`` carries it to other tables."""

    variant: str
    players: int
    options: dict[str, Any]
    setup: dict[str, Any]
    hints: bool
    names: list[str]
    colors: list[str]
    computers: dict[str, str]
    deal: bool = False
    """The host's table deals every seat's cards (a remote seat's arrive sealed for it)."""

    def to_json(self) -> dict[str, Any]:
        return dict(self.__dict__)

    @classmethod
    def from_json(cls, data: Any) -> Start:
        if not isinstance(data, dict):
            raise Refused("the host's hello is not a game")
        try:
            return cls(str(data["variant"]), int(data["players"]), dict(data["options"]),
                       dict(data["setup"]), bool(data["hints"]),
                       [str(n) for n in data["names"]], [str(c) for c in data["colors"]],
                       {str(k): str(v) for k, v in dict(data["computers"]).items()},
                       data.get("deal") is True)
        except (KeyError, TypeError, ValueError) as e:
            raise Refused("the host's hello is damaged") from e


class SharedGame:
    """One game shared through ``link``: the host's (``end`` a ``HostEnd``) or a guest's."""

    def __init__(self, role: str, end: HostEnd | GuestEnd, link: Link, saved: dict[str, Any],
                 seats: dict[int, str], host_table: str, host_name: str) -> None:
        self.role, self.end, self.link = role, end, link
        self.saved = saved
        self.seats = seats
        """Each seat's kind as this table sees it: here, remote (another table) or computer
        (the host's computer, for a guest)."""
        self._host_table, self._host_name = host_table, host_name

    # --- what the table asks -------------------------------------------------------------

    def actions(self) -> list[Action]:
        """The game's actions as the log has them now."""
        return self.end.actions()

    def act(self, action: Action, at: int) -> None:
        """An action of a seat here (the ``at``-th of the game), journaled here: the host
        orders it, a guest proposes it."""
        if isinstance(self.end, HostEnd):
            self.end.act(action)
        else:
            self.end.propose(action, at)

    def line_state(self) -> tuple[Any, int]:
        """The game's state as the log has it, and its number of actions."""
        line = self.end.host.line if isinstance(self.end, HostEnd) else self.end.guest.line
        return line.state, len(line.actions)

    def send_card(self, seat: int, at: int, card: int) -> None:
        """At the host: the card dealt to the remote ``seat`` after ``at`` actions, sealed so
        that only that seat's table reads it."""
        if isinstance(self.end, HostEnd):
            secret = self.saved["seats"].get(str(seat))
            if secret is not None:
                self.end.send_card(SeatKeys(seat, bytes.fromhex(secret)), at, card)

    def take_cards(self) -> list[tuple[int, int]]:
        """At a guest: the cards dealt to its seat since the last call (at, card)."""
        if not isinstance(self.end, GuestEnd):
            return []
        cards, self.end.cards = self.end.cards, []
        return cards

    def take_back(self, at: int) -> None:
        """The last action was taken back here (the game had ``at``)."""
        if isinstance(self.end, HostEnd):
            self.end.undo()
        else:
            self.end.propose_undo(at)

    @property
    def caught_up(self) -> bool:
        """This table has the whole log as the host last told it (a host always has)."""
        return not isinstance(self.end, GuestEnd) or self.end.caught_up

    @property
    def awaiting(self) -> bool:
        """A guest's proposal has no answer yet."""
        return isinstance(self.end, GuestEnd) and bool(self.end.awaiting)

    def take_declined(self) -> list[str]:
        """Why the host refused this table's proposals since the last call."""
        if not isinstance(self.end, GuestEnd):
            return []
        declined, self.end.declined = self.end.declined, []
        return declined

    @property
    def diverged(self) -> str | None:
        if isinstance(self.end, GuestEnd) and self.end.diverged is not None:
            return str(self.end.diverged)
        return None

    def table_of(self, seat: int) -> tuple[str, str | None]:
        """The id and name of the table that plays ``seat`` (id "" while unknown)."""
        for table, info in self.end.presence.tables.items():
            if seat in info.get("seats", []):
                return table, info.get("name") or None
        if self.role == "guest":
            return self._host_table, self._host_name
        return "", None

    def seat_view(self, seat: int, here_name: str) -> dict[str, Any]:
        """``table.seats``' entry for ``seat``."""
        kind = self.seats.get(seat, HERE)
        if kind == HERE:
            return {"seat": seat, "kind": HERE, "table": here_name,
                    "connected": self.link.connected.is_set(),
                    "offline": None if self.link.connected.is_set()
                    else round(self.link.offline_seconds(), 1)}
        table, name = self.table_of(seat)
        offline = self.end.presence.offline(table) if table else 0.0
        if not self.link.connected.is_set():
            offline = max(offline or 0.0, self.link.offline_seconds())
        return {"seat": seat, "kind": kind, "table": name or "",
                "connected": offline is None,
                "offline": None if offline is None else round(offline, 1)}

    @property
    def host_name(self) -> str:
        """The name of the host's table."""
        return self._host_name

    @property
    def closed(self) -> bool:
        """The host left the game (a guest's view; the host's own ``closed`` is its leaving)."""
        return isinstance(self.end, GuestEnd) and self.end.closed

    def network_view(self) -> dict[str, Any]:
        connected = self.link.connected.is_set()
        return {"role": self.role, "connected": connected,
                "offline": None if connected else round(self.link.offline_seconds(), 1),
                "diverged": self.diverged, "awaiting": self.awaiting, "closed": self.closed}

    def join_view(self) -> dict[str, Any] | None:
        """The host's codes for the other tables (None at a guest)."""
        if self.role != "host":
            return None
        codes = [{"seat": seat, "code": code} for seat, code in join_codes(self.saved).items()]
        return {"codes": codes,
                "watch": WatchCode(GameKeys(bytes.fromhex(self.saved["read"]))).text()}

    @property
    def moved(self) -> dict[str, Any] | None:
        """At a host that was away: ``{"code", "name"}`` once another table took its game
        over (the code of this table's seat there), else None."""
        return self.end.moved if isinstance(self.end, HostEnd) else None

    def hand_over(self, saved: Mapping[str, Any], name: str) -> None:
        """At a guest taking the game over (``saved``: the game as it goes on here): tell the
        old host's table, for when it comes back, the codes to join it with."""
        if isinstance(self.end, GuestEnd):
            self.end.hand_over(join_codes(saved), name)

    def close(self, leaving: bool = False, following: Mapping[str, Any] | None = None) -> None:
        """Say this table is away and let go of the broker (``leaving``: it leaves the game
        for good; a host's last entry then tells every table; ``following``: the next game
        this host shares, whose remote seats' tables the entry hands their codes to)."""
        if leaving and isinstance(self.end, HostEnd):
            codes = None
            if following is not None:
                old = set(self.saved.get("seats", {}))
                codes = {seat: code for seat, code in join_codes(following).items()
                         if str(seat) in old}
            self.end.end_game(codes)
        self.end.leave()

    @property
    def next_code(self) -> str | None:
        """At a guest: its seat's join code of the host's next game (a rematch with the same
        tables), or None."""
        return self.end.next_code if isinstance(self.end, GuestEnd) else None

    def host_away(self) -> float | None:
        """At a guest: seconds since the host's table went away (None: it is connected)."""
        return self.end.presence.offline(self._host_table)


def join_codes(saved: Mapping[str, Any]) -> dict[int, str]:
    """A hosted game's join code for each seat at another table."""
    game = GameKeys(bytes.fromhex(saved["read"]))
    return {int(seat): JoinCode(game, SeatKeys(int(seat), bytes.fromhex(secret))).text()
            for seat, secret in sorted(saved["seats"].items(), key=lambda kv: int(kv[0]))}


def _folder_log(folder: Path | None, game: GameKeys) -> LogFile:
    return LogFile(None if folder is None else folder / f"{game.game}.jsonl")


def _link(broker: Broker, table: str, ends: dict[str, Any]) -> Link:
    return Link(broker, f"sudoku-table-{table}",
                lambda topic, payload: ends["end"].handle(topic, payload))


def new_host(name: str, start: Start, remote: list[int], lineage: str | None = None,
             generation: int = 0) -> dict[str, Any]:
    """What a host keeps of a new shared game: its secrets, its table's id and the start;
    ``lineage`` names the game across hosts (a game taken over keeps it; None: a new game),
    ``generation`` counts its hosts before this one."""
    return {"role": "host", "read": GameKeys.new().read.hex(),
            "lineage": lineage or secrets.token_hex(8), "generation": generation,
            "seats": {str(s): SeatKeys.new(s).secret.hex() for s in remote},
            "host_key": HostKey().private_bytes().hex(), "table": secrets.token_hex(6),
            "name": name, "start": start.to_json(),
            "started": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())}


def _count(value: Any) -> int:
    return value if isinstance(value, int) and not isinstance(value, bool) and value >= 0 else 0


def new_guest(name: str, join: JoinCode, hello: dict[str, Any]) -> dict[str, Any]:
    """What a guest keeps of the game it joins (``Refused`` for a damaged hello)."""
    start = Start.from_json(hello.get("start"))
    host_public = hello.get("host_public")
    if not isinstance(host_public, str):
        raise Refused("the host's hello has no key")
    if not 0 <= join.seat.seat < start.players:
        raise Refused("the code names no seat of that game")
    return {"role": "guest", "read": join.game.read.hex(), "seat": join.seat.seat,
            "lineage": str(hello.get("lineage") or join.game.game)[:64],
            "generation": _count(hello.get("generation")),
            "secret": join.seat.secret.hex(), "host_public": host_public,
            "host_table": str(hello.get("host_table", "")),
            "host_name": str(hello.get("host_name", ""))[:60],
            "table": secrets.token_hex(6), "name": name, "start": start.to_json()}


def open_shared(broker: Broker, saved: dict[str, Any], game: Game, folder: Path | None,
                on_change: Changed | None = None, club: str = "",
                adopt: list[Action] | None = None) -> SharedGame:
    """The shared game ``saved`` describes (a new one, or again after a restart), connecting
    in the background; ``game`` is its game as this table plays it; a host in a ``club``
    announces it there; ``adopt``: the actions a new host takes over (its log's first
    entries)."""
    if saved.get("role") == "host":
        return _host(broker, saved, game, folder, on_change, club, adopt or [])
    return _guest(broker, saved, game, folder, on_change)


def _host(broker: Broker, saved: dict[str, Any], game: Game, folder: Path | None,
          on_change: Changed | None, club: str, adopt: list[Action]) -> SharedGame:
    start = Start.from_json(saved["start"])
    keys = GameKeys(bytes.fromhex(saved["read"]))
    seat_keys = {int(s): SeatKeys(int(s), bytes.fromhex(k)).proposing
                 for s, k in saved["seats"].items()}
    key = HostKey.from_bytes(bytes.fromhex(saved["host_key"]))
    store = _folder_log(folder, keys)
    host = Host(GameLine.start(game, start.setup), key, seat_keys, store.read())
    if not host.entries:
        for entry in host.adopt(adopt):
            store.append(entry)
    ends: dict[str, Any] = {}
    link = _link(broker, saved["table"], ends)
    hello = {"start": start.to_json(), "host_public": key.public(), "host_table": saved["table"],
             "host_name": saved["name"], "remote": sorted(seat_keys),
             "lineage": saved.get("lineage", keys.game),
             "generation": _count(saved.get("generation"))}
    here = [s for s in range(start.players) if s not in seat_keys]
    end = HostEnd(link, keys, host, store, table=saved["table"], name=saved["name"], seats=here,
                  hello=hello, on_change=on_change,
                  remote={int(s): SeatKeys(int(s), bytes.fromhex(k))
                          for s, k in saved["seats"].items()})
    ends["end"] = end
    seats = {s: (REMOTE if s in seat_keys else COMPUTER if str(s) in start.computers else HERE)
             for s in range(start.players)}
    shared = SharedGame("host", end, link, saved, seats, saved["table"], saved["name"])
    if club:
        Club(club).announce(link, keys, {"variant": start.variant, "names": start.names,
                                         "host": saved["name"], "started": saved.get("started"),
                                         "lineage": hello["lineage"],
                                         "generation": hello["generation"]})
    link.start()
    return shared


def _guest(broker: Broker, saved: dict[str, Any], game: Game, folder: Path | None,
           on_change: Changed | None) -> SharedGame:
    start = Start.from_json(saved["start"])
    keys = GameKeys(bytes.fromhex(saved["read"]))
    seat = SeatKeys(int(saved["seat"]), bytes.fromhex(saved["secret"]))
    store = _folder_log(folder, keys)
    guest = Guest(GameLine.start(game, start.setup), saved["host_public"], store.read())
    ends: dict[str, Any] = {}
    link = _link(broker, saved["table"], ends)
    end = GuestEnd(link, keys, seat, guest, store, table=saved["table"], name=saved["name"],
                   seats=[seat.seat], host_table=saved["host_table"], on_change=on_change)
    ends["end"] = end
    seats = {s: (HERE if s == seat.seat else COMPUTER if str(s) in start.computers
                 else REMOTE) for s in range(start.players)}
    shared = SharedGame("guest", end, link, saved, seats, saved["host_table"],
                        saved["host_name"])
    link.start()
    return shared


def hello_for(broker: Broker, code: str, timeout: float = 10.0) -> tuple[JoinCode, dict[str, Any]]:
    """The host's hello for a join ``code`` (``BadCode`` for a mistyped one, ``JoinFailed``
    when no host answers within ``timeout`` seconds)."""
    join = read_code(code)
    if not isinstance(join, JoinCode):
        raise BadCode(N_("a watch code looks on; to play, enter a join code"))
    topic = topics(join.game)["hello"]
    got: dict[str, Any] = {}
    arrived = threading.Event()

    def handler(t: str, payload: bytes) -> None:
        if t == topic:
            try:
                got["hello"] = unseal(join.game.sealing, topic, payload)
                arrived.set()
            except Refused:
                pass
    link = Link(broker, f"sudoku-table-join-{secrets.token_hex(4)}", handler, clean=True)
    link.subscribe(topic)
    link.start()
    try:
        if not arrived.wait(timeout):
            raise JoinFailed("the host's table did not answer: is it on, and connected to "
                             "the same broker?")
    finally:
        link.stop()
    return join, got["hello"]
