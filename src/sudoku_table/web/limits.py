"""Fair shares for a panel on a home network: no group of hosts may take what everyone needs.

Waitress limits connections only for the whole server, so hosts holding idle connections could
take all of them and stall every phone (an attack found about 98 idle connections enough to
block every request for two minutes; later 13 addresses with 32 trickling connections each), and
live views, each holding a worker thread, could be taken by a few hosts the same way (6
addresses with 6 views each). ``HostCounter`` counts what each client address holds against a
share of its own and a total for everybody, and keeps room for addresses not yet seen:

- every host may take up to ``free_share`` places while any place is free;
- beyond that (up to ``per_host``) only while more than ``reserve`` places (at most a quarter
  of them) stay free, so that hosts that come later always find room;
- when every place is taken all the same (very many hosts), ``crowding`` names the host whose
  place a newcomer may take back: the one holding the most, which must hold more than the
  newcomer would; among equals the one whose newest place is the newest (hosts that keep
  reconnecting lose places to each other, a view held for long stays).
"""

from __future__ import annotations

import itertools
import threading
from collections import Counter


class HostCounter:
    """Up to ``per_host`` places for each client address and ``total`` for everybody, keeping
    ``reserve`` places for hosts holding fewer than ``free_share`` (see the module)."""

    def __init__(self, total: int, per_host: int, free_share: int | None = None,
                 reserve: int = 0) -> None:
        if total < 1 or per_host < 1:
            raise ValueError("limits must be at least 1")
        self.total = total
        self.per_host = per_host
        self.free_share = min(per_host, free_share if free_share is not None else per_host)
        self.reserve = max(0, min(reserve, total // 4))  # never more than a quarter
        self._lock = threading.Lock()
        self._held: Counter[str] = Counter()
        self._newest: dict[str, int] = {}
        self._ticks = itertools.count()

    def acquire(self, host: str) -> str | None:
        """Take a place for ``host``; None when taken, else why not (a sentence)."""
        with self._lock:
            held = self._held[host]
            if held >= self.per_host:
                return f"this device already holds {self.per_host}"
            taken = sum(self._held.values())
            if taken >= self.total:
                return f"all {self.total} are taken"
            if held >= self.free_share and self.total - taken <= self.reserve:
                return (f"the last {self.reserve} are kept for other devices; this one holds "
                        f"{held}")
            self._held[host] += 1
            self._newest[host] = next(self._ticks)
            return None

    def release(self, host: str) -> None:
        with self._lock:
            if self._held[host] <= 1:
                self._held.pop(host, None)
                self._newest.pop(host, None)
            else:
                self._held[host] -= 1

    def held(self, host: str | None = None) -> int:
        """Places held by ``host``, or by everybody."""
        with self._lock:
            return self._held[host] if host is not None else sum(self._held.values())

    def crowding(self, host: str) -> str | None:
        """When ``host`` is refused though it holds less than its free share: the host one of
        whose places it may take back (see the module), or None."""
        with self._lock:
            mine = self._held[host]
            if mine >= self.free_share or sum(self._held.values()) < self.total:
                return None
            others = [(n, self._newest.get(h, 0), h) for h, n in self._held.items()
                      if h != host and n > mine]
            if not others:
                return None
            return max(others)[2]


class Holders:
    """Who holds the places of a ``HostCounter`` that can be taken back (live views): each
    holder has an event that, once set, asks it to end."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._by_host: dict[str, list[threading.Event]] = {}

    def add(self, host: str) -> threading.Event:
        ended = threading.Event()
        with self._lock:
            self._by_host.setdefault(host, []).append(ended)
        return ended

    def remove(self, host: str, ended: threading.Event) -> None:
        with self._lock:
            mine = self._by_host.get(host, [])
            if ended in mine:
                mine.remove(ended)
            if not mine:
                self._by_host.pop(host, None)

    def end_newest(self, host: str) -> bool:
        """Ask the newest holder of ``host`` not yet asked to end; False when there is none."""
        with self._lock:
            for ended in reversed(self._by_host.get(host, [])):
                if not ended.is_set():
                    ended.set()
                    return True
        return False
