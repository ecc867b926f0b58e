"""How surely a closed switch reads low: the matrix's voltages from the diodes' datasheets.

With row ``r`` driven low, a column with a closed switch on that row is pulled down through the
switch, its diode and the row's driver; the Pi's own pull-up (50-65 kOhm, Raspberry Pi's GPIO
documentation) feeds only some 60 uA into it. The column must then read below the input-low
limit, 0.8 V (the Pi 4's BCM2711 and the Pi 5's RP1 at 3.3 V). What it reads is the sum of:

- the driven row's output low level: all nine columns of a full rank sink into it (at most
  9 x 60 uA), through the output's resistance (the BCM2711 guarantees 0.4 V at its 8 mA drive,
  so at most 50 Ohm) and the row's series resistor;
- the diode's forward drop at that current;
- the column's series resistor (one switch's current).

Diode drops come from datasheet points (maximum forward voltage at a current), interpolated
and extrapolated on a logarithmic current scale, the way a diode's curve runs.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

V_SUPPLY = 3.3
V_IL = 0.8
"""The highest voltage the Pi reads as low."""
PULL_UP_MIN_OHM = 50_000.0
"""The lowest of the Pi's pull-up resistances: the most current, the largest drop."""
OUTPUT_OHM = 50.0
"""A GPIO's output resistance at its default 8 mA drive (0.4 V at 8 mA)."""
ROW_OHM = 330.0
"""The series resistor in each row line: 330 Ohm keeps a row shorted to 5 V while driven low
below 15 mA, inside what a GPIO survives."""
COLUMN_OHM = 1000.0
"""The series resistor in each column line: a column touching 5 V feeds at most 1.4 mA into
the input's clamp diode."""
SIZE = 9


@dataclass(frozen=True)
class Diode:
    """A diode as its datasheet gives it: maximum forward voltages at forward currents, and the
    maximum reverse leakage at a reverse voltage (25 degrees C)."""

    name: str
    forward: tuple[tuple[float, float], ...]
    """(current in A, voltage in V), rising currents."""
    leakage_a: float
    leakage_at_v: float
    source: str

    def drop(self, current: float) -> float:
        """The forward voltage at ``current`` amperes, log-linear between (and beyond) the
        datasheet's two nearest points."""
        points = self.forward
        pair = next(((a, b) for a, b in zip(points, points[1:], strict=False)
                     if current <= b[0]), (points[-2], points[-1]))
        (i1, v1), (i2, v2) = pair
        slope = (v2 - v1) / math.log10(i2 / i1)
        return v1 + slope * math.log10(current / i1)


BAT85 = Diode("BAT85", ((1e-4, 0.24), (1e-3, 0.32), (1e-2, 0.40), (3e-2, 0.50)), 2e-6, 25.0,
              "Vishay/Nexperia BAT85 datasheet: VF max 240 mV at 0.1 mA, 320 mV at 1 mA, "
              "400 mV at 10 mA; IR max 2 uA at 25 V")
N4148 = Diode("1N4148", ((1e-4, 0.50), (1e-3, 0.62), (1e-2, 0.74)), 25e-9, 20.0,
              "typical curve of the 1N4148 (NXP's SPICE model IS = 4.35 nA, N = 1.91, with "
              "rounding up); the datasheet's maximum, 1 V, is given only at 10 mA")


@dataclass(frozen=True)
class ColumnLow:
    """What a column with a closed switch on the driven row reads, part by part."""

    diode: Diode
    current_a: float
    row_v: float
    diode_v: float
    column_v: float
    leakage_a: float
    """The most the other eight diodes on the column can leak into it (they push the column
    up, never down: their rows are driven high)."""

    @property
    def total_v(self) -> float:
        return self.row_v + self.diode_v + self.column_v

    @property
    def margin_v(self) -> float:
        return V_IL - self.total_v


def column_low(diode: Diode, row_ohm: float = ROW_OHM,
               column_ohm: float = COLUMN_OHM) -> ColumnLow:
    """The worst case: a full rank (all nine columns sinking into the driven row), the lowest
    pull-up, the datasheet's maximum drops."""
    current = (V_SUPPLY - 0.3) / PULL_UP_MIN_OHM  # the column sits a few tenths above ground
    row = SIZE * current * (OUTPUT_OHM + row_ohm)
    return ColumnLow(diode, current, row, diode.drop(current), current * column_ohm,
                     (SIZE - 1) * diode.leakage_a)
