"""From raw matrix readings to tentative and confirmed sensor events and faults (no I/O, no
clock).

A reading is an 81-bit mask (bit ``rank * 9 + file`` set: the switch is closed) taken at a time
in seconds. Each square has two debounced states:

- the **tentative** (felt) state follows a change once the square has read the same for
  ``feedback_ms`` (2 ms: three fast scans); it only lights the square's LED. Once changed it
  stands for at least ``bounce_ms``, so the rest of a contact's bounce cannot flip it back.
- the **confirmed** (reported) state follows once the square has read the same for
  ``settle_ms`` (150 ms, less a quarter scan interval for the jitter of scans): longer than a
  magnet sliding over the square at hand speed keeps its reed closed, and longer than a weak
  magnet's flicker runs. Only confirmed changes are sensor events: only they count in a game.

While any square reads differently from its tentative state, :attr:`Debouncer.busy` asks the
scanner for fast scans (``fast_scan_ms``), so that the LED reacts within a few ms.
What a hand cannot do is reported as a fault and never as a move:

- a square that changes more than ``chatter_changes`` times within ``chatter_window_ms`` (changes
  closer together than ``bounce_ms`` count once: one bounce is one change) chatters; it is
  ignored, its tentative state put back, until it has been quiet for ``chatter_quiet_ms``;
- ``line_changes`` or more squares of one row or column changing within one scan mean a broken
  or shorted line (``dead_row`` / ``dead_column``); that line is ignored until it has been
  quiet for ``chatter_quiet_ms`` and differs from the reported board in fewer squares than
  ``line_changes`` (what a hand may have moved meanwhile, reported then);
- a column that reads closed while no row is driven is shorted (``dead_column``); it is ignored
  while the short lasts.

Most scans change nothing; they cost one comparison.
"""

from __future__ import annotations

import math
from collections import deque
from dataclasses import dataclass

from .config import SensorConfig
from .layout import SIZE, SQUARES
from .ports import SensorEvent, SensorFault

ALL = (1 << SIZE * SIZE) - 1
ROW_MASKS = tuple(((1 << SIZE) - 1) << (r * SIZE) for r in range(SIZE))
COLUMN_MASKS = tuple(sum(1 << (r * SIZE + c) for r in range(SIZE)) for c in range(SIZE))


def bits(mask: int) -> list[int]:
    """The indices of the set bits of ``mask``, lowest first."""
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


@dataclass(frozen=True, slots=True)
class Update:
    """What one reading brought: confirmed changes, tentative changes and new faults."""

    events: tuple[SensorEvent, ...] = ()
    faults: tuple[SensorFault, ...] = ()
    felt: tuple[SensorEvent, ...] = ()
    """Tentative changes (LED feedback only), in the order they happened; a confirmed change
    whose tentative one came in the same scan has both."""


NOTHING = Update()


class Debouncer:
    """Debounces matrix readings; feed it every scan with :meth:`update`."""

    def __init__(self, config: SensorConfig, initial: int = 0, now: float = 0.0) -> None:
        # Scans come every scan_interval_ms, each a little late or early: a quarter interval
        # of slack keeps that jitter from costing a whole extra scan.
        self.settle = (config.settle_ms - config.scan_interval_ms / 4) / 1000
        self.feedback = (config.feedback_ms - config.fast_scan_ms / 4) / 1000
        self.bounce = config.bounce_ms / 1000
        self.window = config.chatter_window_ms / 1000
        self.quiet = config.chatter_quiet_ms / 1000
        self.chatter_changes = config.chatter_changes
        self.line_changes = config.line_changes
        self.reported = initial & ALL
        """The confirmed board: what has been reported."""
        self.felt = self.reported
        """The tentative board: what the LEDs have been told."""
        self.raw = self.reported
        self.changed_at = [now] * (SIZE * SIZE)
        self.felt_at = [-math.inf] * (SIZE * SIZE)
        self.history: dict[int, deque[float]] = {}
        self.chattering = 0
        """Squares ignored for chatter (a mask)."""
        self.broken_lines: dict[tuple[str, int], float] = {}
        """Lines ignored after a line fault, to the time of their last change."""
        self.shorted_columns = 0
        """Columns (a mask of column bits 0..8) that read closed with no row driven."""
        self._blocked = 0

    @property
    def busy(self) -> bool:
        """Whether a square reads differently from its tentative state (scan fast now)."""
        return bool((self.raw ^ self.felt) & ~self._blocked)

    def _block_mask(self) -> int:
        mask = self.chattering
        for (kind, n), _ in self.broken_lines.items():
            mask |= ROW_MASKS[n] if kind == "row" else COLUMN_MASKS[n]
        for c in bits(self.shorted_columns):
            mask |= COLUMN_MASKS[c]
        return mask

    def update(self, raw: int, now: float, idle_columns: int = 0) -> Update:
        """Take one full reading; ``idle_columns`` has a bit per column read closed while no
        row was driven."""
        raw &= ALL
        changed = raw ^ self.raw
        if (not changed and raw == self.reported and raw == self.felt and not self._blocked
                and idle_columns == self.shorted_columns):
            return NOTHING
        faults: list[SensorFault] = []
        if idle_columns != self.shorted_columns:
            self._shorts(idle_columns, now, faults)
        if changed:
            self._changes(changed, now, faults)
            self.raw = raw
        if self._blocked:
            self._release(now)
        blocked = self._blocked
        felt: list[SensorEvent] = []
        # An ignored square's feedback goes back to what was confirmed.
        for i in bits((self.felt ^ self.reported) & blocked):
            bit = 1 << i
            self.felt ^= bit
            self.felt_at[i] = now
            felt.append(SensorEvent(SQUARES[i], bool(self.reported & bit), now))
        for i in bits((raw ^ self.felt) & ~blocked):
            if now - self.changed_at[i] >= self.feedback and now - self.felt_at[i] >= self.bounce:
                bit = 1 << i
                self.felt ^= bit
                self.felt_at[i] = now
                felt.append(SensorEvent(SQUARES[i], bool(raw & bit), now))
        events = []
        for i in bits((raw ^ self.reported) & ~blocked):
            if now - self.changed_at[i] >= self.settle:
                bit = 1 << i
                if (self.felt ^ raw) & bit:  # never confirmed without its feedback first
                    self.felt ^= bit
                    self.felt_at[i] = now
                    felt.append(SensorEvent(SQUARES[i], bool(raw & bit), now))
                self.reported ^= bit
                events.append(SensorEvent(SQUARES[i], bool(raw & bit), now))
        if not events and not faults and not felt:
            return NOTHING
        return Update(tuple(events), tuple(faults), tuple(felt))

    def _shorts(self, idle_columns: int, now: float, faults: list[SensorFault]) -> None:
        for c in bits(idle_columns & ~self.shorted_columns):
            faults.append(SensorFault(None, "dead_column",
                                      f"column {c + 1} (file {SQUARES[c][0]}) reads closed with no "
                                      "row driven: the column, or a row under a piece on it, is "
                                      "shorted to ground; its squares are ignored until it reads "
                                      "open", now,
                                      line=SQUARES[c][0], shorted=True))
        for c in bits(self.shorted_columns & ~idle_columns):
            # Its squares must settle afresh before they count again.
            for i in bits(COLUMN_MASKS[c]):
                self.changed_at[i] = now
        self.shorted_columns = idle_columns
        self._blocked = self._block_mask()

    def _changes(self, changed: int, now: float, faults: list[SensorFault]) -> None:
        shorted = 0
        for c in bits(self.shorted_columns):
            shorted |= COLUMN_MASKS[c]
        for kind, masks in (("row", ROW_MASKS), ("column", COLUMN_MASKS)):
            for n, mask in enumerate(masks):
                count = (changed & mask & ~shorted).bit_count()
                if not count:
                    continue
                key = (kind, n)
                if key in self.broken_lines:
                    self.broken_lines[key] = now
                elif count >= self.line_changes:
                    self.broken_lines[key] = now
                    name = (f"row {n + 1} (rank {n + 1})" if kind == "row"
                            else f"column {n + 1} (file {SQUARES[n][0]})")
                    faults.append(SensorFault(
                        None, f"dead_{kind}",
                        f"{name}: {count} squares changed in the same scan, which no hand does; "
                        "its squares are ignored until they match the board again", now,
                        line=str(n + 1) if kind == "row" else SQUARES[n][0]))
        for i in bits(changed):
            self.changed_at[i] = now
            history = self.history.get(i)
            if history is None:
                history = self.history[i] = deque()
            if history and now - history[-1] < self.bounce:
                continue  # the same bounce: one change
            history.append(now)
            while history and now - history[0] > self.window:
                history.popleft()
            bit = 1 << i
            if len(history) > self.chatter_changes and not self.chattering & bit:
                self.chattering |= bit
                faults.append(SensorFault(
                    SQUARES[i], "chatter",
                    f"{SQUARES[i]} changed {len(history)} times within "
                    f"{self.window * 1000:g} ms: a weak magnet or a failing switch; ignored "
                    f"until it has been quiet for {self.quiet * 1000:g} ms", now))
        for i in [i for i, h in self.history.items() if now - h[-1] > self.window]:
            del self.history[i]
        self._blocked = self._block_mask()

    def _release(self, now: float) -> None:
        released = False
        for i in bits(self.chattering):
            if now - self.changed_at[i] >= self.quiet:
                self.chattering &= ~(1 << i)
                self.history.pop(i, None)
                released = True
        for key, last in list(self.broken_lines.items()):
            kind, n = key
            mask = ROW_MASKS[n] if kind == "row" else COLUMN_MASKS[n]
            differences = ((self.raw ^ self.reported) & mask).bit_count()
            if now - last >= self.quiet and differences < self.line_changes:
                del self.broken_lines[key]
                released = True
        if released:
            self._blocked = self._block_mask()
