"""Fair shares for a panel on a home network: no single host may take what everyone needs.

Waitress limits connections only for the whole server, so one host holding idle connections
could take all of them and stall every phone (an attack found about 98 idle connections enough
to block every request for two minutes), and live views, each holding a worker thread, could be
taken by one host the same way. ``HostCounter`` counts what each client address holds against a
share of its own and a total for everybody.
"""

from __future__ import annotations

import threading
from collections import Counter


class HostCounter:
    """Up to ``per_host`` places for each client address and ``total`` for everybody."""

    def __init__(self, total: int, per_host: int) -> None:
        if total < 1 or per_host < 1:
            raise ValueError("limits must be at least 1")
        self.total = total
        self.per_host = per_host
        self._lock = threading.Lock()
        self._held: Counter[str] = Counter()

    def acquire(self, host: str) -> str | None:
        """Take a place for ``host``; None when taken, else why not (a sentence)."""
        with self._lock:
            if self._held[host] >= self.per_host:
                return f"this device already holds {self.per_host}"
            if sum(self._held.values()) >= self.total:
                return f"all {self.total} are taken"
            self._held[host] += 1
            return None

    def release(self, host: str) -> None:
        with self._lock:
            if self._held[host] <= 1:
                self._held.pop(host, None)
            else:
                self._held[host] -= 1

    def held(self, host: str | None = None) -> int:
        """Places held by ``host``, or by everybody."""
        with self._lock:
            return self._held[host] if host is not None else sum(self._held.values())
