"""The panel's colours for the players' pieces, chosen to stay apart for every eye.

Colour alone never tells players apart on the panel (each seat also has a mark drawn on its
pieces), but the colours themselves are picked from Okabe and Ito's and Paul Tol's palettes for
colour-blind readers, and ``closest_pair`` checks them under simulated deuteranopia, protanopia
and tritanopia (Machado, Oliveira and Fernandes 2009, severity 1.0): the tests hold every pair,
gold included, apart by a clear CIELAB distance under each. A player may choose any colour of
``CHOICES`` to match the real pieces; the start page offers them.
"""

from __future__ import annotations

from collections.abc import Sequence

SEATS: tuple[str, ...] = ("#99ddff", "#cc3311", "#009e73", "#aa4499")
"""The default colour of each seat: light blue, red, green, purple (from Okabe-Ito's and Tol's
palettes for colour-blind readers; the closest pair stays 27 apart under every deficiency)."""

GOLD = "#f0e442"
"""Pieces of nobody's (Duell der Meister's gold cards)."""

CHOICES: tuple[str, ...] = ("#99ddff", "#cc3311", "#009e73", "#aa4499", "#0072b2", "#ee7733",
                            "#cc6677", "#ffffff", "#8c8c8c")
"""Colours a player may choose to match the real pieces: the seats' own, dark blue, orange,
rose, white and grey."""

MARKS: tuple[str, ...] = ("circle", "triangle", "square", "diamond")
"""The mark drawn on each seat's pieces besides its colour; gold pieces carry a star."""

# Machado et al. 2009, severity 1.0, applied to linear RGB.
SIMULATIONS: dict[str, tuple[tuple[float, float, float], ...]] = {
    "deuteranopia": ((0.367322, 0.860646, -0.227968), (0.280085, 0.672501, 0.047413),
                     (-0.011820, 0.042940, 0.968881)),
    "protanopia": ((0.152286, 1.052583, -0.204868), (0.114503, 0.786281, 0.099216),
                   (-0.003882, -0.048116, 1.051998)),
    "tritanopia": ((1.255528, -0.076749, -0.178779), (-0.078411, 0.930809, 0.147602),
                   (0.004733, 0.691367, 0.303900)),
}


def _linear(hex_color: str) -> tuple[float, float, float]:
    channels = [int(hex_color[i:i + 2], 16) / 255 for i in (1, 3, 5)]
    lin = [c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4 for c in channels]
    return lin[0], lin[1], lin[2]


def simulate(hex_color: str, kind: str) -> tuple[float, float, float]:
    """The linear RGB a viewer with ``kind`` of colour blindness sees."""
    r, g, b = _linear(hex_color)
    return tuple(max(0.0, min(1.0, m[0] * r + m[1] * g + m[2] * b))  # type: ignore[return-value]
                 for m in SIMULATIONS[kind])


def lab(rgb: tuple[float, float, float]) -> tuple[float, float, float]:
    """CIELAB (D65) of a linear RGB colour."""
    r, g, b = rgb
    x = (0.4124 * r + 0.3576 * g + 0.1805 * b) / 0.95047
    y = 0.2126 * r + 0.7152 * g + 0.0722 * b
    z = (0.0193 * r + 0.1192 * g + 0.9505 * b) / 1.08883

    def f(t: float) -> float:
        return t ** (1 / 3) if t > 0.008856 else 7.787 * t + 16 / 116

    fx, fy, fz = f(x), f(y), f(z)
    return 116 * fy - 16, 500 * (fx - fy), 200 * (fy - fz)


def distance(a: str, b: str, kind: str | None = None) -> float:
    """CIELAB distance (delta E 1976) of two colours as seen normally or with ``kind``."""
    la = lab(simulate(a, kind) if kind else _linear(a))
    lb = lab(simulate(b, kind) if kind else _linear(b))
    return sum((p - q) ** 2 for p, q in zip(la, lb, strict=True)) ** 0.5


def closest_pair(colors: Sequence[str]) -> float:
    """The smallest distance between any two of ``colors`` under normal vision and every
    simulated deficiency."""
    kinds: list[str | None] = [None, *SIMULATIONS]
    return min(distance(a, b, kind) for kind in kinds
               for i, a in enumerate(colors) for b in colors[i + 1:])
