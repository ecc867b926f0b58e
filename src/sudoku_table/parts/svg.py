"""A small SVG builder for drawings in millimetres: shapes, text, leaders and dimension lines.

Every drawing of the parts package is plain SVG with ``width``/``height`` in mm and a viewBox
in the same units, so it prints at 1:1 from a browser and svglib reads it for the tiled PDF.
Numbers are rounded to 1/1000 mm so the committed files diff cleanly.
"""

from __future__ import annotations

import math
from xml.sax.saxutils import escape, quoteattr

FONT = "DejaVu Sans, Helvetica, Arial, sans-serif"
INK = "#222222"
FAINT = "#9a9a9a"


def n(value: float) -> str:
    """A length in mm, short and exact enough for a printer."""
    text = f"{value:.3f}".rstrip("0").rstrip(".")
    return "0" if text in ("-0", "") else text


def attrs(**values: object) -> str:
    """SVG attributes from keyword arguments (``stroke_width`` becomes ``stroke-width``; a
    trailing underscore is dropped: ``class_``)."""
    out = []
    for key, value in values.items():
        if value is None:
            continue
        name = key.rstrip("_").replace("_", "-")
        text = n(value) if isinstance(value, float | int) and not isinstance(value, bool) \
            else str(value)
        out.append(f"{name}={quoteattr(text)}")
    return " ".join(out)


class Sheet:
    """An SVG document of ``width`` x ``height`` mm, built element by element."""

    def __init__(self, width: float, height: float, title: str, **root: object) -> None:
        self.width, self.height = width, height
        self.parts: list[str] = [
            '<?xml version="1.0" encoding="UTF-8"?>',
            f'<svg xmlns="http://www.w3.org/2000/svg" width="{n(width)}mm" '
            f'height="{n(height)}mm" viewBox="0 0 {n(width)} {n(height)}" {attrs(**root)}>'
            .replace(" >", ">"),
            f"<title>{escape(title)}</title>",
            f'<rect width="{n(width)}" height="{n(height)}" fill="#ffffff"/>',
            f'<g font-family="{FONT}">',
        ]

    def raw(self, text: str) -> None:
        self.parts.append(text)

    def open(self, **values: object) -> None:
        self.parts.append(f"<g {attrs(**values)}>")

    def close(self) -> None:
        self.parts.append("</g>")

    def rect(self, x: float, y: float, w: float, h: float, **style: object) -> None:
        self.parts.append(f'<rect {attrs(x=x, y=y, width=w, height=h, **style)}/>')

    def circle(self, cx: float, cy: float, r: float, **style: object) -> None:
        self.parts.append(f'<circle {attrs(cx=cx, cy=cy, r=r, **style)}/>')

    def line(self, x1: float, y1: float, x2: float, y2: float, **style: object) -> None:
        style.setdefault("stroke", INK)
        style.setdefault("stroke_width", 0.3)
        self.parts.append(f'<line {attrs(x1=x1, y1=y1, x2=x2, y2=y2, **style)}/>')

    def path(self, points: list[tuple[float, float]], closed: bool = False,
             **style: object) -> None:
        d = " ".join(f"{'M' if i == 0 else 'L'}{n(x)},{n(y)}" for i, (x, y) in enumerate(points))
        style.setdefault("fill", "none")
        self.parts.append(f'<path {attrs(d=d + (" Z" if closed else ""), **style)}/>')

    def text(self, x: float, y: float, words: str, size: float = 3.0, **style: object) -> None:
        style.setdefault("fill", INK)
        self.parts.append(f'<text {attrs(x=x, y=y, font_size=size, **style)}>'
                          f"{escape(words)}</text>")

    def arrow_head(self, x: float, y: float, angle: float, size: float = 1.6,
                   colour: str = INK) -> None:
        """A filled arrow head with its tip at (x, y), pointing along ``angle`` (radians)."""
        back, side = angle + math.pi, size * 0.35
        bx, by = x + size * math.cos(back), y + size * math.sin(back)
        px, py = -math.sin(angle) * side, math.cos(angle) * side
        self.path([(x, y), (bx + px, by + py), (bx - px, by - py)], closed=True, fill=colour,
                  stroke="none")

    def dimension(self, a: tuple[float, float], b: tuple[float, float], label: str,
                  offset: float, size: float = 2.8, kind: str = "", value: float | None = None,
                  colour: str = "#1f4e9a") -> None:
        """A dimension between points ``a`` and ``b``: extension lines, a line ``offset`` mm to
        the side (left of a->b) with arrows at both ends, and ``label`` beside its middle. The
        group carries ``data-kind`` and the measured ``data-value`` (mm) for tests."""
        (x1, y1), (x2, y2) = a, b
        length = math.hypot(x2 - x1, y2 - y1)
        ux, uy = (x2 - x1) / length, (y2 - y1) / length
        nx, ny = uy, -ux  # the side the dimension line sits on
        p1 = (x1 + nx * offset, y1 + ny * offset)
        p2 = (x2 + nx * offset, y2 + ny * offset)
        self.open(class_="dimension", data_kind=kind, data_value=length if value is None
                  else value, stroke=colour, fill=colour)
        over = 1.2 if offset >= 0 else -1.2
        for (x, y), (px, py) in ((a, p1), (b, p2)):
            self.line(x + nx * 0.8 * (1 if offset >= 0 else -1), y + ny * 0.8
                      * (1 if offset >= 0 else -1), px + nx * over, py + ny * over,
                      stroke=colour, stroke_width=0.18)
        self.line(*p1, *p2, stroke=colour, stroke_width=0.22)
        angle = math.atan2(uy, ux)
        if length >= 4:
            self.arrow_head(*p2, angle, colour=colour)
            self.arrow_head(*p1, angle + math.pi, colour=colour)
        else:  # too short for inner arrows: point at it from outside
            self.arrow_head(*p1, angle, colour=colour)
            self.arrow_head(*p2, angle + math.pi, colour=colour)
            self.line(p1[0] - ux * 3, p1[1] - uy * 3, *p1, stroke=colour, stroke_width=0.22)
            self.line(*p2, p2[0] + ux * 3, p2[1] + uy * 3, stroke=colour, stroke_width=0.22)
        mx, my = (p1[0] + p2[0]) / 2, (p1[1] + p2[1]) / 2
        if abs(ux) >= abs(uy):  # horizontal: the label above the line
            self.text(mx, my - 0.9 * (1 if ny <= 0 else -1) + (size if ny > 0 else 0), label,
                      size, text_anchor="middle", stroke="none", class_="dim-label")
        else:  # vertical: the label beside the line, on the outer side, reading horizontally
            left = nx < 0
            self.text(mx + (-1.2 if left else 1.2), my + size * 0.35, label, size,
                      text_anchor="end" if left else "start", stroke="none",
                      class_="dim-label")
        self.close()

    def render(self) -> str:
        return "\n".join([*self.parts, "</g>", "</svg>"]) + "\n"


def spread(targets: list[float], gap: float, low: float, high: float) -> list[float]:
    """Label positions near ``targets`` (sorted ascending) at least ``gap`` apart, inside
    [low, high]: leaders then never cross and labels never overlap."""
    out: list[float] = []
    for t in targets:
        out.append(max(t, out[-1] + gap) if out else max(t, low))
    overflow = out[-1] - high if out else 0
    if overflow > 0:  # push the whole column up, keeping the gaps
        out = [y - overflow for y in out]
        for i in range(len(out) - 2, -1, -1):
            out[i] = min(out[i], out[i + 1] - gap)
    return out
