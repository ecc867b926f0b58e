"""Generate ``hardware/wiring.svg``, the table's wiring diagram, from the firmware's pin defaults.

    python hardware/wiring.py            # rewrite hardware/wiring.svg
    python hardware/wiring.py --check    # exit 1 if the committed file is out of date
    python hardware/wiring.py --config table.toml --output my-wiring.svg   # your own pins
    python hardware/wiring.py --config hardware/speaker-i2s.toml --output hardware/wiring-i2s.svg

The pins come from ``sudoku_table.firmware.config`` (the defaults, which
``src/sudoku_table/firmware/table.example.toml`` documents), so the diagram cannot drift from what
the firmware drives. Nets are drawn the way schematics do it: a labelled stub at the Pi's header and
the same label at the matrix line.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from xml.sax.saxutils import escape

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT / "src") not in sys.path:  # run as a script from anywhere
    sys.path.insert(0, str(ROOT / "src"))

from sudoku_table.firmware.config import (  # noqa: E402
    I2S_PINS,
    BuzzerConfig,
    LedConfig,
    SensorConfig,
    SpeakerConfig,
)

OUTPUT = Path(__file__).with_name("wiring.svg")
FILES = "abcdefghi"

# The 40-pin header (Pi 4, Pi 5, Zero 2 W alike): physical pin -> BCM GPIO, or a supply name.
HEADER: dict[int, int | str] = {
    1: "3V3", 2: "5V", 3: 2, 4: "5V", 5: 3, 6: "GND", 7: 4, 8: 14, 9: "GND", 10: 15,
    11: 17, 12: 18, 13: 27, 14: "GND", 15: 22, 16: 23, 17: "3V3", 18: 24, 19: 10, 20: "GND",
    21: 9, 22: 25, 23: 11, 24: 8, 25: "GND", 26: 7, 27: 0, 28: 1, 29: 5, 30: "GND",
    31: 6, 32: 12, 33: 13, 34: "GND", 35: 19, 36: 16, 37: 26, 38: 20, 39: "GND", 40: 21,
}
PHYSICAL = {gpio: pin for pin, gpio in HEADER.items() if isinstance(gpio, int)}

ROW_COLOUR = "#1f5fbf"
COLUMN_COLOUR = "#1d8a3a"
DATA_COLOUR = "#8a2be2"
POWER_COLOUR = "#d62728"
GROUND_COLOUR = "#222222"
BUZZER_COLOUR = "#b35900"
SPEAKER_COLOUR = "#008b8b"
FAINT = "#999999"


def physical_pin(gpio: int) -> int:
    """The header pin number of a BCM GPIO."""
    return PHYSICAL[gpio]


class Drawing:
    """A tiny SVG builder: elements in order, numbers rounded for a stable, diffable file."""

    def __init__(self) -> None:
        self.parts: list[str] = []

    def add(self, tag: str, content: str | None = None, /, **attrs: object) -> None:
        def fmt(v: object) -> str:
            if isinstance(v, float):
                return f"{v:.1f}".rstrip("0").rstrip(".")
            return escape(str(v), {'"': "&quot;"})
        attributes = " ".join(f'{k.rstrip("_").replace("_", "-")}="{fmt(v)}"'
                              for k, v in attrs.items())
        if content is None:
            self.parts.append(f"<{tag} {attributes}/>")
        else:
            self.parts.append(f"<{tag} {attributes}>{escape(content)}</{tag}>")

    def line(self, x1: float, y1: float, x2: float, y2: float, colour: str = GROUND_COLOUR,
             width: float = 1.5, **attrs: object) -> None:
        self.add("line", x1=x1, y1=y1, x2=x2, y2=y2, stroke=colour, stroke_width=width, **attrs)

    def text(self, x: float, y: float, text: str, size: float = 12, anchor: str = "start",
             colour: str = GROUND_COLOUR, **attrs: object) -> None:
        self.add("text", text, x=x, y=y, font_size=size, text_anchor=anchor, fill=colour,
                 **attrs)

    def open(self, tag: str, **attrs: object) -> None:
        attributes = " ".join(f'{k.rstrip("_").replace("_", "-")}="{v}"' for k, v in attrs.items())
        self.parts.append(f"<{tag} {attributes}>" if attributes else f"<{tag}>")

    def close(self, tag: str) -> None:
        self.parts.append(f"</{tag}>")


def pin_roles(sensors: SensorConfig, leds: LedConfig,
              buzzer: BuzzerConfig | None = None,
              speaker: SpeakerConfig | None = None) -> dict[int, tuple[str, str]]:
    """Header pin -> (label, colour) for every pin the table uses."""
    buzzer = buzzer or BuzzerConfig()
    speaker = speaker or SpeakerConfig()
    roles: dict[int, tuple[str, str]] = {}
    for rank, gpio in enumerate(sensors.rows, 1):
        roles[physical_pin(gpio)] = (f"GPIO{gpio} ROW{rank}", ROW_COLOUR)
    for i, gpio in enumerate(sensors.columns):
        roles[physical_pin(gpio)] = (f"GPIO{gpio} COL{FILES[i]}", COLUMN_COLOUR)
    roles[physical_pin(leds.data_pin)] = (f"GPIO{leds.data_pin} LED DATA", DATA_COLOUR)
    roles[physical_pin(buzzer.pin)] = (f"GPIO{buzzer.pin} BUZZER", BUZZER_COLOUR)
    if speaker.i2s:
        for gpio, line in I2S_PINS.items():
            roles[physical_pin(gpio)] = (f"GPIO{gpio} I2S {line}", SPEAKER_COLOUR)
    roles[6] = ("GND common", GROUND_COLOUR)
    return roles


def draw_header(d: Drawing, roles: dict[int, tuple[str, str]], x: float, y: float) -> None:
    """The 40-pin header, pin 1 top left, with the table's nets labelled."""
    d.open("g", id="pi-header")
    d.text(x + 30, y - 40, "Raspberry Pi 40-pin header", 15, "middle", font_weight="bold")
    d.text(x + 30, y - 22, "(Pi 4, Pi 5, Zero 2 W; BCM numbers)", 11, "middle")
    d.add("rect", x=x, y=y - 12, width=60, height=20 * 22 + 4, fill="#f4f1e8",
          stroke=GROUND_COLOUR, stroke_width=1.5, rx=4)
    for pin in range(1, 41):
        row = (pin - 1) // 2
        left = pin % 2 == 1
        px = x + (18 if left else 42)
        py = y + row * 22
        label, colour = roles.get(pin, ("", FAINT))
        kind = HEADER[pin]
        if not label:
            label = kind if isinstance(kind, str) else f"GPIO{kind}"
            colour = POWER_COLOUR if kind in ("5V", "3V3") else (
                GROUND_COLOUR if kind == "GND" else FAINT)
        d.add("circle", cx=px, cy=py, r=7, fill="#ffffff" if pin not in roles else colour,
              stroke=colour, stroke_width=1.5)
        d.text(px, py + 3.5, str(pin), 8, "middle",
               colour="#ffffff" if pin in roles else GROUND_COLOUR)
        stub_end = px - 40 if left else px + 40
        if pin in roles:
            d.line(px + (-7 if left else 7), py, stub_end, py, colour, 2)
        d.text(stub_end + (-4 if left else 4), py + 4, label, 11, "end" if left else "start",
               colour, data_pin=pin)
    d.close("g")


def draw_matrix(d: Drawing, sensors: SensorConfig, x: float, y: float, step: float) -> None:
    """The 9x9 reed matrix: a reed switch and a diode (cathode to the row) at every square."""
    d.open("g", id="matrix")
    size = 8 * step
    d.text(x + size / 2, y - 72, "Reed-switch matrix (seen from above, a1 bottom left)", 15,
           "middle", font_weight="bold")
    d.text(x + size / 2, y - 54, "every square: reed switch + BAT85, cathode towards the row",
           11, "middle")
    for rank in range(9):
        ry = y + (8 - rank) * step
        d.line(x - 30, ry, x + size + 14, ry, ROW_COLOUR, 2, data_net=f"ROW{rank + 1}")
        d.text(x - 34, ry + 4, f"ROW{rank + 1} GPIO{sensors.rows[rank]}", 11, "end",
               ROW_COLOUR)
    for file in range(9):
        cx = x + file * step - 14
        d.line(cx, y - 14, cx, y + size + 30, COLUMN_COLOUR, 2, data_net=f"COL{FILES[file]}")
        d.text(cx, y + size + 44, f"COL{FILES[file]}", 11, "middle", COLUMN_COLOUR)
        d.text(cx, y + size + 57, f"GPIO{sensors.columns[file]}", 10, "middle", COLUMN_COLOUR)
    for rank in range(9):
        for file in range(9):
            draw_square(d, x + file * step - 14, y + (8 - rank) * step, f"{FILES[file]}{rank + 1}")
    d.text(x + size / 2, y + size + 76, "columns: inputs with pull-ups; rows: driven low one "
           "at a time", 11, "middle")
    d.close("g")


def draw_square(d: Drawing, cx: float, ry: float, square: str) -> None:
    """One switch and diode between column line ``cx`` and row line ``ry``."""
    d.open("g", class_="square", data_square=square)
    top = ry - 30
    d.add("circle", cx=cx, cy=top, r=2, fill=COLUMN_COLOUR)
    d.line(cx, top, cx + 10, top, GROUND_COLOUR, 1)
    # The reed switch: two contacts in a glass outline.
    d.add("rect", x=cx + 6, y=top + 1, width=8, height=12, fill="none", stroke=FAINT,
          stroke_width=0.8, rx=3)
    d.line(cx + 10, top, cx + 10, top + 6, GROUND_COLOUR, 1)
    d.line(cx + 10, top + 14, cx + 12, top + 7, GROUND_COLOUR, 1)
    # The diode pointing down to the row: triangle then the cathode bar.
    d.add("polygon", points=f"{cx + 6},{top + 16} {cx + 14},{top + 16} {cx + 10},{top + 23}",
          fill=GROUND_COLOUR)
    d.line(cx + 6, top + 23, cx + 14, top + 23, GROUND_COLOUR, 1.5)
    d.line(cx + 10, top + 14, cx + 10, top + 16, GROUND_COLOUR, 1)
    d.line(cx + 10, top + 23, cx + 10, ry, GROUND_COLOUR, 1)
    d.add("circle", cx=cx + 10, cy=ry, r=2, fill=ROW_COLOUR)
    d.close("g")


def draw_leds(d: Drawing, leds: LedConfig, x: float, y: float) -> None:
    """Level shifter, resistor, supply, fuse, capacitor and the serpentine LED chain."""
    d.open("g", id="leds")
    d.text(x + 200, y - 40, "LED chain and its 5 V supply", 15, "middle", font_weight="bold")
    # Level shifter 74AHCT125.
    d.add("rect", x=x, y=y, width=110, height=120, fill="#f4f1e8", stroke=GROUND_COLOUR,
          stroke_width=1.5, id="level-shifter")
    d.text(x + 55, y + 18, "74AHCT125N", 12, "middle", font_weight="bold")
    pins = [(1, "1OE", "GND"), (2, "1A", f"GPIO{leds.data_pin} LED DATA"), (7, "GND", "GND"),
            (14, "VCC", "+5V")]
    for i, (number, name, net) in enumerate(pins):
        py = y + 40 + i * 22
        d.text(x + 6, py + 4, f"{number} {name}", 10)
        colour = {"GND": GROUND_COLOUR, "+5V": POWER_COLOUR}.get(net, DATA_COLOUR)
        d.line(x - 50, py, x, py, colour, 2)
        d.text(x - 54, py + 4, net, 10, "end", colour)
    d.text(x + 55, y + 135, "unused 2A/3A/4A to GND, 2OE/3OE/4OE to +5V", 9, "middle")
    d.text(x + 55, y + 147, "100 nF from pin 14 to pin 7", 9, "middle")
    out_y = y + 62
    d.text(x + 104, out_y + 4, "1Y 3", 10, "end")
    # 330 ohm series resistor to DIN.
    d.line(x + 110, out_y, x + 140, out_y, DATA_COLOUR, 2)
    d.add("rect", x=x + 140, y=out_y - 6, width=36, height=12, fill="#ffffff",
          stroke=GROUND_COLOUR, stroke_width=1.5, id="resistor")
    d.text(x + 158, out_y - 10, "330 ohm", 10, "middle")
    d.line(x + 176, out_y, x + 214, out_y, DATA_COLOUR, 2)
    d.text(x + 190, out_y + 16, "DIN", 10, "middle", DATA_COLOUR)

    # The chain: 9 x 9 LEDs under the squares, serpentine from a1 (config start corner).
    gx, gy, step = x + 220, y + 40, 24
    d.add("rect", x=gx - 14, y=gy - 14, width=9 * step + 4, height=9 * step + 4, fill="none",
          stroke=FAINT, stroke_dasharray="4 3")
    order: list[tuple[int, int]] = []
    for rank in range(9):
        files = range(9) if (rank % 2 == 0 or not leds.serpentine) else range(8, -1, -1)
        order += [(f, rank) for f in files]
    centres = [(gx + f * step, gy + (8 - r) * step) for f, r in order]
    path = " ".join(f"{'M' if i == 0 else 'L'}{px},{py}" for i, (px, py) in enumerate(centres))
    d.add("path", d=path, fill="none", stroke=DATA_COLOUR, stroke_width=1, id="chain")
    for i, (px, py) in enumerate(centres):
        d.add("rect", x=px - 6, y=py - 6, width=12, height=12, fill="#ffffff",
              stroke=GROUND_COLOUR, stroke_width=1, class_="led", data_index=i)
    first, last = centres[0], centres[-1]
    d.line(x + 214, out_y, x + 214, first[1], DATA_COLOUR, 2)
    d.line(x + 214, first[1], first[0] - 6, first[1], DATA_COLOUR, 2)
    d.text(first[0], first[1] + 20, "1 (a1)", 9, "middle")
    d.text(last[0] + 4, last[1] - 9, "81", 9, "middle")
    d.text(gx + 4 * step, gy + 9 * step + 6, f"{leds.count} x WS2812B, {leds.pixel_order}, "
           "serpentine from a1", 10, "middle")

    # Supply, fuse, capacitor, injection points.
    sx, sy = x, y + 290
    d.add("rect", x=sx, y=sy, width=150, height=60, fill="#fdecea", stroke=POWER_COLOUR,
          stroke_width=1.5, id="supply")
    d.text(sx + 75, sy + 22, "5 V LED supply", 12, "middle", font_weight="bold")
    d.text(sx + 75, sy + 40, "Mean Well GST60A05 (6 A)", 10, "middle")
    rail_y, ground_y = sy + 10, sy + 50
    d.line(sx + 150, rail_y, sx + 180, rail_y, POWER_COLOUR, 3)
    d.add("rect", x=sx + 180, y=rail_y - 6, width=30, height=12, fill="#ffffff",
          stroke=POWER_COLOUR, stroke_width=1.5, id="fuse")
    d.text(sx + 195, rail_y - 10, "fuse 5 A", 10, "middle")
    right = gx + 9 * step + 20
    d.line(sx + 210, rail_y, right, rail_y, POWER_COLOUR, 3)
    d.text(right + 4, rail_y + 4, "+5V", 11, "start", POWER_COLOUR)
    d.line(sx + 150, ground_y, right, ground_y, GROUND_COLOUR, 3)
    d.text(right + 4, ground_y + 4, "GND", 11, "start", GROUND_COLOUR)
    # The capacitor across the rails at the chain's input.
    cap_x = sx + 240
    d.line(cap_x, rail_y, cap_x, rail_y + 16, POWER_COLOUR, 1.5)
    d.line(cap_x - 10, rail_y + 16, cap_x + 10, rail_y + 16, GROUND_COLOUR, 2)
    d.add("path", d=f"M{cap_x - 10},{rail_y + 26} Q{cap_x},{rail_y + 20} {cap_x + 10},"
          f"{rail_y + 26}", fill="none", stroke=GROUND_COLOUR, stroke_width=2, id="capacitor")
    d.line(cap_x, rail_y + 23, cap_x, ground_y, GROUND_COLOUR, 1.5)
    d.text(cap_x + 14, rail_y + 26, "1000 uF", 10)
    # Injection at the start of ranks 1, 4 and 7 and at the chain's end: +5V and GND wired
    # from the rails to these LEDs (marked), so no LED is more than 27 away from a feed.
    injected = (1, 28, 55, 81)
    for number in injected:
        px, py = centres[number - 1]
        d.add("circle", cx=px, cy=py, r=9, fill="none", stroke=POWER_COLOUR, stroke_width=2,
              class_="injection", data_led=number)
    feed_x = gx + 9 * step - 4
    d.line(feed_x, rail_y, feed_x, gy + 9 * step - 8, POWER_COLOUR, 2, stroke_dasharray="5 3")
    d.text(feed_x - 6, rail_y - 24, "+5V and GND feeds to the circled LEDs", 9, "end",
           POWER_COLOUR)
    d.text(feed_x - 6, rail_y - 12, f"(chain positions {', '.join(map(str, injected))})", 9,
           "end", POWER_COLOUR)
    d.text(sx + 75, ground_y + 30, "GND also to the Pi (header pin 6) and the 74AHCT125", 10,
           "start")
    d.text(sx + 75, ground_y + 44, "The Pi keeps its own USB-C / micro-USB supply", 10, "start")
    d.close("g")


def draw_buzzer(d: Drawing, buzzer: BuzzerConfig, x: float, y: float) -> None:
    """The optional piezo: from its GPIO through 100 ohm to the transducer, back to GND."""
    d.open("g", id="buzzer")
    d.text(x, y - 30, "Buzzer (optional)", 13, font_weight="bold")
    d.line(x, y + 10, x + 30, y + 10, BUZZER_COLOUR, 2)
    d.text(x, y - 4, f"GPIO{buzzer.pin} BUZZER (header pin {physical_pin(buzzer.pin)})", 10,
           "start", BUZZER_COLOUR)
    d.add("rect", x=x + 30, y=y + 4, width=30, height=12, fill="#ffffff", stroke=GROUND_COLOUR,
          stroke_width=1.5, id="buzzer-resistor")
    d.text(x + 45, y + 30, "100 ohm", 9, "middle")
    d.line(x + 60, y + 10, x + 84, y + 10, BUZZER_COLOUR, 2)
    d.add("circle", cx=x + 100, cy=y + 10, r=16, fill="#fff4e5", stroke=BUZZER_COLOUR,
          stroke_width=2, id="piezo")
    d.text(x + 100, y + 14, "+", 12, "middle", BUZZER_COLOUR)
    d.line(x + 116, y + 10, x + 140, y + 10, GROUND_COLOUR, 2)
    d.text(x + 144, y + 14, "GND", 10, "start", GROUND_COLOUR)
    d.text(x, y + 46, "passive piezo transducer (not an active buzzer)", 9)
    d.close("g")


def draw_speaker(d: Drawing, speaker: SpeakerConfig, x: float, y: float) -> None:
    """The optional speaker: an I2S amplifier on the Pi's PCM pins, or no GPIO at all."""
    d.open("g", id="speaker")
    d.text(x, y, "Speaker (optional, for speech)", 13, font_weight="bold")
    if not speaker.i2s:
        d.text(x, y + 20, "No GPIO: a Pi 4's 3.5 mm jack, or a USB sound adapter on any Pi", 10,
               "start", SPEAKER_COLOUR)
        d.text(x, y + 36, "(Zero 2 W: through a micro-USB OTG adapter), each to a small", 10)
        d.text(x, y + 52, "powered speaker. An I2S amplifier needs GPIO18, 19, 21: see", 10)
        d.text(x, y + 68, "hardware/wiring-i2s.svg (matrix columns moved).", 10)
        d.close("g")
        return
    d.add("rect", x=x, y=y + 10, width=150, height=86, fill="#e6f6f6", stroke=SPEAKER_COLOUR,
          stroke_width=2, id="amplifier")
    d.text(x + 75, y + 26, "MAX98357A I2S amp", 11, "middle", font_weight="bold")
    pins = [("VIN", "5V (header pin 2)", POWER_COLOUR), ("GND", "GND (header pin 6)",
                                                          GROUND_COLOUR)]
    pins += [(line, f"GPIO{gpio} (header pin {physical_pin(gpio)})", SPEAKER_COLOUR)
             for gpio, line in I2S_PINS.items()]
    for i, (name, net, colour) in enumerate(pins):
        py = y + 40 + i * 12
        d.text(x + 8, py, name, 9)
        d.line(x + 150, py - 3, x + 176, py - 3, colour, 1.5)
        d.text(x + 180, py, net, 9, "start", colour)
    d.text(x, y + 112, "SD and GAIN open (always on, 9 dB); speaker 4-8 ohm, 3 W on + and -", 9)
    d.add("circle", cx=x + 330, cy=y + 50, r=18, fill="#ffffff", stroke=SPEAKER_COLOUR,
          stroke_width=2, id="loudspeaker")
    d.text(x + 330, y + 54, "4 ohm", 8, "middle")
    d.close("g")


def render(sensors: SensorConfig | None = None, leds: LedConfig | None = None,
           buzzer: BuzzerConfig | None = None, speaker: SpeakerConfig | None = None,
           source: str = "the firmware's default pins") -> str:
    """The wiring diagram for these pins (the firmware defaults when None), drawn from
    ``source``."""
    sensors = sensors or SensorConfig()
    leds = leds or LedConfig()
    buzzer = buzzer or BuzzerConfig()
    speaker = speaker or SpeakerConfig()
    d = Drawing()
    width, height = 1500, 720
    d.parts.append('<?xml version="1.0" encoding="UTF-8"?>')
    d.parts.append(f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
                   f'viewBox="0 0 {width} {height}" '
                   'font-family="DejaVu Sans, Helvetica, Arial, sans-serif">')
    d.parts.append("<title>Sudoku Table wiring: reed matrix, Raspberry Pi header, level "
                   "shifter, LED chain and supply</title>")
    d.add("rect", x=0, y=0, width=width, height=height, fill="#ffffff")
    d.text(20, 28, f"Sudoku Table wiring (generated by hardware/wiring.py from {source})", 16,
           font_weight="bold")
    draw_header(d, pin_roles(sensors, leds, buzzer, speaker), 150, 110)
    draw_buzzer(d, buzzer, 20, 640)
    draw_speaker(d, speaker, 1000, 575)
    draw_matrix(d, sensors, 500, 150, 50)
    draw_leds(d, leds, 1000, 140)
    d.parts.append("</svg>")
    return "\n".join(d.parts) + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Generate hardware/wiring.svg.")
    parser.add_argument("--check", action="store_true",
                        help="only check that the committed file is up to date")
    parser.add_argument("--config", default=None,
                        help="draw the pins of this table config (TOML) instead of the defaults")
    parser.add_argument("--output", default=None,
                        help="where to write the SVG (default: hardware/wiring.svg; - for stdout)")
    args = parser.parse_args(argv)
    if args.config is not None:
        from sudoku_table.config import ConfigError, load_config

        try:
            config = load_config(args.config).hardware
        except ConfigError as e:
            print(f"wiring.py: {e}", file=sys.stderr)
            return 2
        svg = render(config.sensors, config.leds, config.buzzer, config.speaker,
                     source=Path(args.config).name)
    else:
        svg = render()
    if args.output == "-":
        sys.stdout.write(svg)
        return 0
    if args.output is not None:
        Path(args.output).write_text(svg, encoding="utf-8")
        return 0
    if args.config is not None and not args.check:
        print("wiring.py: with --config, give --output (the committed diagram shows the "
              "defaults)", file=sys.stderr)
        return 2
    if args.check:
        current = OUTPUT.read_text(encoding="utf-8") if OUTPUT.exists() else ""
        if current != svg:
            print(f"{OUTPUT.name} is out of date: run python hardware/wiring.py", file=sys.stderr)
            return 1
        return 0
    OUTPUT.write_text(svg, encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
