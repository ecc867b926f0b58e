"""The firmware's config: which pins, which LEDs, how they are laid out, and how fast to scan.

The table has one TOML file (``src/sudoku_table/firmware/table.example.toml`` documents every key)
read with ``tomllib``; the firmware reads its sections, ``[sensors]``, ``[leds]`` and
``[simulator]``, and the other layers read theirs (``sudoku_table.config`` puts the whole together).
The file is found at the path given, else at ``$SUDOKU_TABLE_CONFIG``, else the defaults below are
used, which match the example file and the wiring in ``hardware/``. Every value is checked when
loading, so a typo stops the start with one clear line naming the key instead of a wrong pin being
driven: unknown keys, wrong types, pins out of range or used twice, and an LED data pin on a matrix
line are all errors.
"""

from __future__ import annotations

import math
import os
import tomllib
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, fields
from pathlib import Path
from typing import Any

from .exc import ConfigError

ENV_VAR = "SUDOKU_TABLE_CONFIG"
SIZE = 9
GPIO_RANGE = range(0, 28)
"""The Raspberry Pi's header GPIOs (BCM numbers)."""
FIXED_PULL_UPS = frozenset({2, 3})
"""GPIO2 and GPIO3 carry fixed 1.8 kOhm pull-ups (I2C): useless for matrix lines."""
SPI_MOSI = 10
SPI_OTHERS = (9, 11)
"""SPI0's MISO and SCLK: taken by the kernel when the LEDs use SPI. Its chip selects (GPIO7, 8)
stay free: the installer turns SPI0 on with ``dtoverlay=spi0-0cs``, which claims none."""
DRIVERS = ("spi", "neopixel")
"""How the LED data line is driven: ``spi`` (Blinka's ``neopixel_spi`` on SPI0's MOSI, GPIO10;
every Pi, no root) or ``neopixel`` (Adafruit's ``neopixel``: PWM/PCM through ``rpi_ws281x`` on
a Pi 4, which needs root, or PIO on a Pi 5; any data pin)."""
CORNERS = ("bottom_left", "bottom_right", "top_left", "top_right")
ROTATIONS = (0, 90, 180, 270)
PIXEL_ORDERS = ("RGB", "RBG", "GRB", "GBR", "BRG", "BGR")


@dataclass(frozen=True, slots=True)
class SensorConfig:
    """The reed-switch matrix: rows driven one at a time, columns read with pull-ups."""

    rows: tuple[int, ...] = (4, 5, 6, 12, 13, 16, 17, 22, 23)
    """GPIOs of the row lines, for ranks 1..9 in that order."""
    columns: tuple[int, ...] = (24, 25, 26, 27, 18, 19, 20, 21, 7)
    """GPIOs of the column lines, for files a..i in that order."""
    scan_interval_ms: float = 4.0
    """Time from the start of one full scan to the start of the next while nothing changes."""
    fast_scan_ms: float = 1.0
    """The scan interval while a square reads differently from what its LED shows."""
    feedback_ms: float = 2.0
    """Tentative state: a square that reads the same this long lights its LED (feedback only)."""
    bounce_ms: float = 5.0
    """Contact bounce lasts at most this long: a tentative change stands at least this long,
    and a square's changes closer together than this count once towards chatter."""
    settle_ms: float = 150.0
    """Confirmation: a square must read the same this long before its change is reported and
    counts in the game; longer than a sliding magnet stays on one square (see DESIGN.md)."""
    chatter_changes: int = 8
    """A square changing more often than this within ``chatter_window_ms`` is chattering."""
    chatter_window_ms: float = 500.0
    chatter_quiet_ms: float = 1000.0
    """A chattering square is ignored until it has been quiet this long."""
    line_changes: int = 4
    """This many squares of one row or column changing in the same scan is a line fault."""


@dataclass(frozen=True, slots=True)
class LedConfig:
    """The NeoPixel chain under the squares and how its light is shaped."""

    driver: str = "spi"
    """How the data line is driven (:data:`DRIVERS`)."""
    data_pin: int = 10
    """GPIO of the data line: 10 (SPI0's MOSI) with the ``spi`` driver."""
    count: int = 81
    """LEDs on the chain; more than 81 when the chain has LEDs before or after the squares."""
    first: int = 0
    """Index on the chain of the first square's LED."""
    pixel_order: str = "GRB"
    start_corner: str = "bottom_left"
    """The board corner, seen from the first player, where the chain's first square LED sits,
    before ``rotation``; the chain then runs along the board's rows (ranks)."""
    serpentine: bool = True
    """Every second row runs back the other way (the usual zig-zag of LED panels)."""
    rotation: int = 0
    """Clockwise rotation, in degrees, of the LED panel relative to the board."""
    brightness: float = 0.6
    gamma: float = 2.2
    balance: tuple[float, float, float] = (1.0, 1.0, 1.0)
    """Per-channel factors (red, green, blue) to even out the colours of the chips."""
    max_current_ma: float = 2500.0
    """The LED supply's budget: every frame is dimmed to stay below it."""
    channel_ma: float = 20.0
    """Current of one fully lit colour channel (white is three of them)."""
    idle_ma: float = 1.0
    """Current of one dark LED (its controller)."""


@dataclass(frozen=True, slots=True)
class BuzzerConfig:
    """The optional piezo buzzer (a passive transducer); silent until the panel switches the
    table's sound on."""

    pin: int = 8
    """GPIO of the buzzer (8 is SPI0's CE0, free with the installer's ``spi0-0cs``)."""


I2S_PINS: dict[int, str] = {18: "BCLK", 19: "LRC", 21: "DIN"}
"""The Pi's I2S (PCM) lines an I2S amplifier uses: bit clock, left/right clock, data out.
Fixed in the chip: they cannot be moved to other GPIOs."""


@dataclass(frozen=True, slots=True)
class SpeakerConfig:
    """The optional speaker the table speaks through (the voice itself is ``[speech]``)."""

    i2s: bool = False
    """True: a MAX98357A I2S amplifier on GPIO18 (BCLK), GPIO19 (LRC) and GPIO21 (DIN), which
    are then the amplifier's: the matrix must use other pins (``hardware/speaker-i2s.toml``).
    False: a USB sound adapter or a Pi 4's 3.5 mm jack, on no GPIO at all."""
    device: str = ""
    """The ALSA device (``aplay -D``): empty for the system's default on the real table and
    for silence on the simulated one (what it says is kept and shown, not played);
    ``plughw:CARD=Headphones`` (a Pi 4's jack), ``plughw:CARD=MAX98357A`` (the I2S
    amplifier), ``plughw:CARD=Device`` (a USB sound adapter), ``default``."""


@dataclass(frozen=True, slots=True)
class SimulatorConfig:
    """The simulated table (used off a Pi or with ``--sim``)."""

    bounce_ms: float = 5.0
    """A simulated reed contact bounces for a random time up to this long after every make and
    break (closures and openings of 0.05-3 ms each)."""
    seed: int = 1
    """The seed of the simulated noise: the same seed and the same hand give the same bounces,
    slides and flickers."""


@dataclass(frozen=True, slots=True)
class HardwareConfig:
    """The firmware's part of the config; ``source`` is the file it came from (None: the
    defaults)."""

    sensors: SensorConfig = field(default_factory=SensorConfig)
    leds: LedConfig = field(default_factory=LedConfig)
    buzzer: BuzzerConfig = field(default_factory=BuzzerConfig)
    speaker: SpeakerConfig = field(default_factory=SpeakerConfig)
    simulator: SimulatorConfig = field(default_factory=SimulatorConfig)
    source: str | None = field(default=None, compare=False)


SECTIONS: dict[str, type] = {
    "sensors": SensorConfig,
    "leds": LedConfig,
    "buzzer": BuzzerConfig,
    "speaker": SpeakerConfig,
    "simulator": SimulatorConfig,
}
"""The sections of the config file that belong to the firmware."""


# --- reading values --------------------------------------------------------------------------


def _int(key: str, value: Any) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise ConfigError(f"{key} must be a whole number, got {value!r}")
    return value


def _float(key: str, value: Any) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise ConfigError(f"{key} must be a number, got {value!r}")
    if not math.isfinite(value):
        raise ConfigError(f"{key} must be a finite number, got {value!r}")
    return float(value)


def _positive(key: str, value: Any) -> float:
    number = _float(key, value)
    if number <= 0:
        raise ConfigError(f"{key} must be greater than 0, got {value!r}")
    return number


def _between(key: str, value: Any, low: float, high: float) -> float:
    number = _float(key, value)
    if not low <= number <= high:
        raise ConfigError(f"{key} must be between {low:g} and {high:g}, got {value!r}")
    return number


def _choice(key: str, value: Any, choices: tuple[Any, ...]) -> Any:
    if isinstance(value, bool) or value not in choices:
        listed = ", ".join(repr(c) for c in choices)
        raise ConfigError(f"{key} must be one of {listed}, got {value!r}")
    return value


def _list(key: str, value: Any, length: int | None = None) -> list[Any]:
    if not isinstance(value, list):
        raise ConfigError(f"{key} must be a list, got {value!r}")
    if length is not None and len(value) != length:
        raise ConfigError(f"{key} must list exactly {length} values, got {len(value)}")
    return value


def _gpio(key: str, value: Any) -> int:
    pin = _int(key, value)
    if pin not in GPIO_RANGE:
        raise ConfigError(f"{key} must be a GPIO number from 0 to 27, got {pin}")
    return pin


def _matrix_lines(key: str, value: Any) -> tuple[int, ...]:
    pins = tuple(_gpio(f"{key}[{i}]", v) for i, v in enumerate(_list(key, value, SIZE)))
    for i, pin in enumerate(pins):
        if pin in FIXED_PULL_UPS:
            raise ConfigError(f"{key}[{i}] is GPIO{pin}, which has a fixed pull-up resistor "
                              "and cannot read the matrix: choose another GPIO")
    return pins


def _sensors(raw: Mapping[str, Any]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for name in ("rows", "columns"):
        if name in raw:
            out[name] = _matrix_lines(f"sensors.{name}", raw[name])
    for name in ("scan_interval_ms", "fast_scan_ms", "feedback_ms", "settle_ms",
                 "chatter_window_ms", "chatter_quiet_ms"):
        if name in raw:
            out[name] = _positive(f"sensors.{name}", raw[name])
    if "bounce_ms" in raw:
        out["bounce_ms"] = _between("sensors.bounce_ms", raw["bounce_ms"], 0.0, 100.0)
    for name in ("chatter_changes", "line_changes"):
        if name in raw:
            value = _int(f"sensors.{name}", raw[name])
            if not 2 <= value <= (SIZE if name == "line_changes" else 1000):
                limit = SIZE if name == "line_changes" else 1000
                raise ConfigError(f"sensors.{name} must be from 2 to {limit}, got {value}")
            out[name] = value
    return out


def _leds(raw: Mapping[str, Any]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    if "driver" in raw:
        out["driver"] = _choice("leds.driver", raw["driver"], DRIVERS)
    if "data_pin" in raw:
        out["data_pin"] = _gpio("leds.data_pin", raw["data_pin"])
    for name in ("count", "first"):
        if name in raw:
            value = _int(f"leds.{name}", raw[name])
            if value < 0 or value > 1024:
                raise ConfigError(f"leds.{name} must be from 0 to 1024, got {value}")
            out[name] = value
    if "pixel_order" in raw:
        out["pixel_order"] = _choice("leds.pixel_order", raw["pixel_order"], PIXEL_ORDERS)
    if "start_corner" in raw:
        out["start_corner"] = _choice("leds.start_corner", raw["start_corner"], CORNERS)
    if "serpentine" in raw:
        if not isinstance(raw["serpentine"], bool):
            raise ConfigError(f"leds.serpentine must be true or false, got {raw['serpentine']!r}")
        out["serpentine"] = raw["serpentine"]
    if "rotation" in raw:
        out["rotation"] = _choice("leds.rotation", _int("leds.rotation", raw["rotation"]),
                                  ROTATIONS)
    if "brightness" in raw:
        out["brightness"] = _between("leds.brightness", raw["brightness"], 0.0, 1.0)
    if "gamma" in raw:
        out["gamma"] = _between("leds.gamma", raw["gamma"], 1.0, 4.0)
    if "balance" in raw:
        values = _list("leds.balance", raw["balance"], 3)
        out["balance"] = tuple(_between(f"leds.balance[{i}]", v, 0.0, 1.0)
                               for i, v in enumerate(values))
    for name in ("max_current_ma", "channel_ma"):
        if name in raw:
            out[name] = _positive(f"leds.{name}", raw[name])
    if "idle_ma" in raw:
        out["idle_ma"] = _between("leds.idle_ma", raw["idle_ma"], 0.0, 100.0)
    return out


def _simulator(raw: Mapping[str, Any]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    if "bounce_ms" in raw:
        out["bounce_ms"] = _between("simulator.bounce_ms", raw["bounce_ms"], 0.0, 100.0)
    if "seed" in raw:
        seed = _int("simulator.seed", raw["seed"])
        if not 0 <= seed < 2**63:
            raise ConfigError(f"simulator.seed must be from 0 to 2**63 - 1, got {seed}")
        out["seed"] = seed
    return out


def _buzzer(raw: Mapping[str, Any]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    if "pin" in raw:
        out["pin"] = _gpio("buzzer.pin", raw["pin"])
    return out


def _speaker(raw: Mapping[str, Any]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    if "i2s" in raw:
        if not isinstance(raw["i2s"], bool):
            raise ConfigError(f"speaker.i2s must be true or false, got {raw['i2s']!r}")
        out["i2s"] = raw["i2s"]
    if "device" in raw:
        device = raw["device"]
        if not isinstance(device, str) or len(device) > 80 or not all(
                ch.isalnum() or ch in ":,=_-." for ch in device):
            raise ConfigError(f'speaker.device must be an ALSA device name such as "default" '
                              f'or "plughw:CARD=Headphones", got {device!r}')
        out["device"] = device
    return out


_READERS = {"sensors": _sensors, "leds": _leds, "buzzer": _buzzer, "speaker": _speaker,
            "simulator": _simulator}


def _check_whole(config: HardwareConfig) -> None:
    """The checks that need more than one key."""
    s, leds = config.sensors, config.leds
    seen: dict[int, str] = {}
    lines = [(f"sensors.rows[{i}]", p) for i, p in enumerate(s.rows)]
    lines += [(f"sensors.columns[{i}]", p) for i, p in enumerate(s.columns)]
    for key, pin in lines:
        if pin in seen:
            raise ConfigError(f"{key} uses GPIO{pin}, which {seen[pin]} already uses")
        seen[pin] = key
    if leds.driver == "spi" and leds.data_pin != SPI_MOSI:
        raise ConfigError(f"leds.data_pin is GPIO{leds.data_pin}, but the spi driver sends on "
                          f"SPI0's MOSI, GPIO{SPI_MOSI}: wire the data line there, or set "
                          'leds.driver = "neopixel"')
    if leds.data_pin == SPI_MOSI:
        for pin in SPI_OTHERS:
            if pin in seen:
                raise ConfigError(f"{seen[pin]} is GPIO{pin}, which SPI0 owns when the LEDs use "
                                  f"GPIO{SPI_MOSI} (SPI): choose another GPIO for it")
    if leds.data_pin in seen:
        raise ConfigError(f"leds.data_pin is GPIO{leds.data_pin}, which {seen[leds.data_pin]} "
                          "already uses: the LED data line needs a pin of its own")
    seen[leds.data_pin] = "leds.data_pin"
    buzzer = config.buzzer.pin
    if buzzer in seen:
        raise ConfigError(f"buzzer.pin is GPIO{buzzer}, which {seen[buzzer]} already uses: "
                          "the buzzer needs a pin of its own")
    if leds.data_pin == SPI_MOSI and buzzer in SPI_OTHERS:
        raise ConfigError(f"buzzer.pin is GPIO{buzzer}, which SPI0 owns when the LEDs use "
                          f"GPIO{SPI_MOSI} (SPI): choose another GPIO for it")
    if config.speaker.i2s:
        seen[buzzer] = "buzzer.pin"
        for pin, line in I2S_PINS.items():
            if pin in seen:
                raise ConfigError(f"{seen[pin]} is GPIO{pin}, the I2S amplifier's {line} "
                                  f"(speaker.i2s = true): move it to a free GPIO, as "
                                  "hardware/speaker-i2s.toml does")
    if leds.first + SIZE * SIZE > leds.count:
        raise ConfigError(f"leds.count must be at least leds.first + 81 = {leds.first + 81}, "
                          f"got {leds.count}")
    if s.settle_ms < s.scan_interval_ms:
        raise ConfigError(f"sensors.settle_ms ({s.settle_ms:g}) must be at least "
                          f"sensors.scan_interval_ms ({s.scan_interval_ms:g})")
    if s.fast_scan_ms > s.scan_interval_ms:
        raise ConfigError(f"sensors.fast_scan_ms ({s.fast_scan_ms:g}) must be at most "
                          f"sensors.scan_interval_ms ({s.scan_interval_ms:g})")
    if s.feedback_ms > s.settle_ms:
        raise ConfigError(f"sensors.feedback_ms ({s.feedback_ms:g}) must be at most "
                          f"sensors.settle_ms ({s.settle_ms:g})")
    if s.bounce_ms > s.settle_ms:
        raise ConfigError(f"sensors.bounce_ms ({s.bounce_ms:g}) must be at most "
                          f"sensors.settle_ms ({s.settle_ms:g})")
    if s.chatter_quiet_ms < s.settle_ms:
        raise ConfigError(f"sensors.chatter_quiet_ms ({s.chatter_quiet_ms:g}) must be at least "
                          f"sensors.settle_ms ({s.settle_ms:g})")
    dark = leds.count * leds.idle_ma
    if dark >= leds.max_current_ma:
        raise ConfigError(f"leds.max_current_ma ({leds.max_current_ma:g}) must be above the "
                          f"current of the dark chain ({dark:g} mA = leds.count x leds.idle_ma)")


def section(data: Mapping[str, Any], name: str, known_keys: Sequence[str]) -> Mapping[str, Any]:
    """The section ``name`` of parsed TOML (empty when absent), refusing keys not known."""
    raw = data.get(name, {})
    if not isinstance(raw, Mapping):
        raise ConfigError(f"{name} must be a section ([{name}]), got {raw!r}")
    for key in raw:
        if key not in known_keys:
            raise ConfigError(f"unknown key {name}.{key} (known: {', '.join(known_keys)})")
    return raw


def check_sections(data: Mapping[str, Any], known: Iterable[str]) -> None:
    """Refuse a section nobody reads (a typo such as ``[sensor]``)."""
    names = list(known)
    for name in data:
        if name not in names:
            raise ConfigError(f"unknown section [{name}] (known: {', '.join(names)})")


def from_mapping(data: Mapping[str, Any], source: str | None = None,
                 others: Iterable[str] = ()) -> HardwareConfig:
    """The firmware's checked config from parsed TOML (``ConfigError`` names the first bad
    key); ``others`` are the sections other layers read from the same file."""
    check_sections(data, [*SECTIONS, *others])
    parts: dict[str, Any] = {}
    for name, cls in SECTIONS.items():
        if name in data:
            raw = section(data, name, [f.name for f in fields(cls)])
            parts[name] = cls(**_READERS[name](raw))
    config = HardwareConfig(**parts, source=source)
    _check_whole(config)
    return config


def read_toml(path: str | os.PathLike[str] | None) -> tuple[dict[str, Any], str | None]:
    """The parsed config file at ``path``, else at ``$SUDOKU_TABLE_CONFIG``, and where it was
    found; ``({}, None)`` when neither is given (the defaults)."""
    if path is None:
        path = os.environ.get(ENV_VAR) or None
    if path is None:
        return {}, None
    where = Path(path)
    try:
        with where.open("rb") as f:
            data = tomllib.load(f)
    except FileNotFoundError:
        raise ConfigError(f"config file {where} does not exist") from None
    except OSError as e:
        raise ConfigError(f"cannot read config file {where}: {e.strerror or e}") from None
    except tomllib.TOMLDecodeError as e:
        raise ConfigError(f"config file {where} is not valid TOML: {e}") from None
    except UnicodeDecodeError:
        raise ConfigError(f"config file {where} is not UTF-8 text") from None
    except RecursionError:  # tomllib parses nested tables and arrays by recursion
        raise ConfigError(f"config file {where} is nested too deeply to be a config file "
                          f"(tables or arrays inside each other hundreds of times)") from None
    if _depth(data) > MAX_CONFIG_DEPTH:
        raise ConfigError(f"config file {where} is nested more than {MAX_CONFIG_DEPTH} levels "
                          f"deep; no config file is")
    return data, str(where)


MAX_CONFIG_DEPTH = 8
"""The deepest nesting of tables and arrays a config file may have (the file's sections are 2;
a list of pins inside them 3)."""


def _depth(value: object, limit: int = MAX_CONFIG_DEPTH + 1) -> int:
    """How deep ``value`` nests (stops counting past ``limit``, so it never recurses far)."""
    if limit <= 0 or not isinstance(value, dict | list):
        return 0
    children = value.values() if isinstance(value, dict) else value
    return 1 + max((_depth(v, limit - 1) for v in children), default=0)


def load_config(path: str | os.PathLike[str] | None = None,
                others: Iterable[str] = ()) -> HardwareConfig:
    """The firmware's config from the file at ``path``, else at ``$SUDOKU_TABLE_CONFIG``, else
    the defaults; ``others`` are the sections other layers read from the same file."""
    data, source = read_toml(path)
    try:
        return from_mapping(data, source=source, others=others)
    except ConfigError as e:
        raise ConfigError(f"{source}: {e}") from None
