"""Which GPIOs the Pi's boot config (``/boot/firmware/config.txt``) gives to the kernel, and
whether any of them is a line of the table's matrix.

The firmware applies the ``dtparam``/``dtoverlay`` lines of ``config.txt`` at boot; an
overlay that claims a pin (SPI's chip selects, the I2S group, a 1-wire bus on GPIO4, a fan)
takes it from the table, which then cannot open its matrix. The installer runs this file with
the system's Python before it touches ``config.txt`` and refuses to go on while a line claims a
matrix pin, naming the line and what to change.

The pins of each overlay are data (:data:`CLAIMS`), read from the overlays' sources in
Raspberry Pi's kernel tree (``arch/arm/boot/dts/overlays``, and the base trees' pin groups they
switch on); ``tests/hardware/test_overlays.py`` compiles the sources of the overlays the
installer writes and checks them against this table.

Standard library only: the installer runs it before the table's venv exists.

    python3 bootconfig.py --config /etc/sudoku-table/table.toml \
        --example .../table.example.toml /boot/firmware/config.txt
"""

from __future__ import annotations

import argparse
import sys
import tomllib
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path

Params = dict[str, str]
Claim = Callable[[Params], frozenset[int]]


def _pins(*pins: int) -> Claim:
    return lambda params: frozenset(pins)


def _one(param: str, default: int) -> Claim:
    """An overlay that claims one pin, moved by ``param``."""
    return lambda params: frozenset({int(params.get(param, default))})


def _max98357a(params: Params) -> frozenset[int]:
    """The I2S group, plus the amplifier's SD_MODE pin (GPIO4 unless moved or ``no-sdmode``)."""
    pins = {18, 19, 20, 21}
    if "no-sdmode" not in params:
        pins.add(int(params.get("sdmode-pin", 4)))
    return frozenset(pins)


def _spi0(cs: tuple[int, ...]) -> Claim:
    """SPI0 with chip selects ``cs`` (movable by cs0_pin/cs1_pin); ``no_miso`` frees GPIO9."""
    def claim(params: Params) -> frozenset[int]:
        pins = {10, 11} | ({9} if "no_miso" not in params else set())
        for i, pin in enumerate(cs):
            pins.add(int(params.get(f"cs{i}_pin", pin)))
        return frozenset(pins)
    return claim


I2S_GROUP = _pins(18, 19, 20, 21)

CLAIMS: dict[str, Claim] = {
    "dtparam=spi": _spi0((8, 7)),
    "dtparam=i2s": I2S_GROUP,
    "dtparam=i2c_arm": _pins(2, 3),
    "dtparam=i2c": _pins(2, 3),
    "enable_uart": _pins(14, 15),
    "dtoverlay=spi0-0cs": _spi0(()),
    "dtoverlay=spi0-1cs": _spi0((8,)),
    "dtoverlay=spi0-2cs": _spi0((8, 7)),
    "dtoverlay=spi1-1cs": _pins(18, 19, 20, 21),
    "dtoverlay=spi1-2cs": _pins(17, 18, 19, 20, 21),
    "dtoverlay=spi1-3cs": _pins(16, 17, 18, 19, 20, 21),
    "dtoverlay=max98357a": _max98357a,
    "dtoverlay=hifiberry-dac": I2S_GROUP,
    "dtoverlay=hifiberry-dacplus": I2S_GROUP,
    "dtoverlay=iqaudio-dac": I2S_GROUP,
    "dtoverlay=googlevoicehat-soundcard": I2S_GROUP,
    "dtoverlay=adau7002-simple": I2S_GROUP,
    "dtoverlay=i2s-mmap": I2S_GROUP,
    "dtoverlay=w1-gpio": _one("gpiopin", 4),
    "dtoverlay=w1-gpio-pullup": _one("gpiopin", 4),
    "dtoverlay=gpio-ir": _one("gpio_pin", 18),
    "dtoverlay=gpio-ir-tx": _one("gpio_pin", 18),
    "dtoverlay=pwm": _one("pin", 18),
    "dtoverlay=pwm-2chan": lambda p: frozenset({int(p.get("pin", 18)), int(p.get("pin2", 19))}),
    "dtoverlay=gpio-fan": _one("gpiopin", 12),
    "dtoverlay=gpio-shutdown": _one("gpio_pin", 3),
    "dtoverlay=gpio-poweroff": _one("gpiopin", 26),
    "dtoverlay=audremap": lambda p: frozenset({18, 19} if "pins_18_19" in p else {12, 13}),
    "dtoverlay=uart2": _pins(0, 1),
    "dtoverlay=uart3": _pins(4, 5),
    "dtoverlay=uart4": _pins(8, 9),
    "dtoverlay=uart5": _pins(12, 13),
    "dtoverlay=i2c-gpio": lambda p: frozenset({int(p.get("i2c_gpio_sda", 23)),
                                                int(p.get("i2c_gpio_scl", 24))}),
}
"""What a config.txt line claims, by its key (``dtparam=NAME`` turned on, ``dtoverlay=NAME``
loaded, ``enable_uart=1``), as a function of the line's parameters."""

OFF = {"off", "0", "false", "no"}


@dataclass(frozen=True)
class Conflict:
    """A config.txt line that claims GPIOs the table needs."""

    number: int
    line: str
    pins: dict[int, str]
    """GPIO -> the table's use of it."""

    def message(self, path: str) -> str:
        used = ", ".join(f"GPIO{pin} ({use})" for pin, use in sorted(self.pins.items()))
        return (f"{path} line {self.number}: '{self.line}' claims {used}. Comment the line out "
                f"(put '#' in front of it){_hint(self.line)}, then run the installer again.")


def _hint(line: str) -> str:
    if line.startswith("dtoverlay=max98357a"):
        return (" or let the installer write the amplifier's line: set [speaker] i2s = true in "
                "table.toml (it writes 'dtoverlay=max98357a,no-sdmode' and the matrix moves off "
                "the I2S pins as hardware/speaker-i2s.toml shows)")
    if line.startswith("dtparam=spi"):
        return " (the installer turns SPI0 on with 'dtoverlay=spi0-0cs', which claims no CS pin)"
    if line.startswith("dtoverlay=w1-gpio"):
        return " or move the 1-wire bus to a free pin (',gpiopin=N')"
    return ""


def parse_line(line: str) -> tuple[str, Params] | None:
    """The claim key and parameters of one config.txt line, or None if it claims nothing we
    know (comments, filters like ``[pi4]``, other settings)."""
    line = line.split("#", 1)[0].strip()
    if not line or line.startswith("["):
        return None
    name, _, value = line.partition("=")
    name, value = name.strip(), value.strip()
    if name == "enable_uart":
        return ("enable_uart", {}) if value == "1" else None
    if name == "dtoverlay":
        overlay, *args = [part.strip() for part in value.split(",")]
        return f"dtoverlay={overlay}", _params(args)
    if name == "dtparam":
        for part in value.split(","):
            key, _, setting = part.strip().partition("=")
            if f"dtparam={key}" in CLAIMS and setting.lower() not in OFF:
                return f"dtparam={key}", {}
    return None


def _params(args: Iterable[str]) -> Params:
    params: Params = {}
    for arg in args:
        key, _, value = arg.partition("=")
        params[key.strip()] = value.strip()
    return params


def claimed(line: str) -> frozenset[int]:
    """The GPIOs a config.txt line claims (empty for a line we know claims none)."""
    parsed = parse_line(line)
    if parsed is None or parsed[0] not in CLAIMS:
        return frozenset()
    key, params = parsed
    return CLAIMS[key](params)


def conflicts(text: str, table_pins: dict[int, str], skip: Iterable[int] = ()) -> list[Conflict]:
    """Every active line of ``text`` (config.txt) that claims one of ``table_pins``; lines
    numbered in ``skip`` (the installer's own block) are left out. Every conditional section
    counts: a line under ``[pi4]`` claims the pin on the Pi 4 it is meant for."""
    skipped = set(skip)
    found = []
    for number, raw in enumerate(text.splitlines(), start=1):
        if number in skipped:
            continue
        hit = {pin: table_pins[pin] for pin in claimed(raw) if pin in table_pins}
        if hit:
            found.append(Conflict(number, raw.strip(), hit))
    return found


def block_lines(text: str, start: str, end: str) -> set[int]:
    """The line numbers of the installer's own block (from ``start`` to ``end``)."""
    inside, numbers = False, set()
    for number, line in enumerate(text.splitlines(), start=1):
        if line == start:
            inside = True
        if inside:
            numbers.add(number)
        if line == end:
            inside = False
    return numbers


def table_pins(config: dict[str, object], example: dict[str, object]) -> dict[int, str]:
    """The GPIOs the table uses and what for, from its config (the example's values where the
    config has none: they are the defaults)."""
    def section(name: str) -> dict[str, object]:
        merged = dict(_table(example, name))
        merged.update(_table(config, name))
        return merged

    sensors, leds, buzzer = section("sensors"), section("leds"), section("buzzer")
    pins: dict[int, str] = {}
    for kind, label in (("rows", "rank"), ("columns", "file")):
        lines = sensors.get(kind, [])
        for i, gpio in enumerate(lines if isinstance(lines, list) else []):
            name = str(i + 1) if kind == "rows" else "abcdefghi"[i]
            pins[int(gpio)] = f"matrix {kind[:-1]} {label} {name}"
    if isinstance(buzzer.get("pin"), int):
        pins.setdefault(int(buzzer["pin"]), "the buzzer")  # type: ignore[call-overload]
    if leds.get("driver", "spi") == "neopixel" and isinstance(leds.get("data_pin"), int):
        pins.setdefault(int(leds["data_pin"]), "the LED data line")  # type: ignore[call-overload]
    return pins


def _table(document: dict[str, object], name: str) -> dict[str, object]:
    value = document.get(name, {})
    return value if isinstance(value, dict) else {}


def _load(path: Path | None) -> dict[str, object]:
    if path is None or not path.exists():
        return {}
    with path.open("rb") as f:
        return tomllib.load(f)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("boot_config", type=Path)
    parser.add_argument("--config", type=Path, help="the table's table.toml (may not exist yet)")
    parser.add_argument("--example", type=Path, required=True,
                        help="table.example.toml: the defaults")
    parser.add_argument("--block-start", default="")
    parser.add_argument("--block-end", default="")
    args = parser.parse_args(argv)
    try:
        text = args.boot_config.read_text(encoding="utf-8", errors="replace")
    except FileNotFoundError:
        print(f"{args.boot_config} is missing: nothing claims a pin yet")
        return 0
    pins = table_pins(_load(args.config), _load(args.example))
    skip = (block_lines(text, args.block_start, args.block_end)
            if args.block_start and args.block_end else set())
    found = conflicts(text, pins, skip)
    for conflict in found:
        print(conflict.message(str(args.boot_config)), file=sys.stderr)
    if not found:
        print(f"{args.boot_config}: no line claims a pin of the table "
              f"({len(pins)} pins checked)")
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main())
