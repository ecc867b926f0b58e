"""The firmware's config: which pins, which LEDs, how they are laid out, and how fast to scan.

The table has one TOML file (``src/sudoku_table/firmware/table.example.toml`` documents every key)
read with ``tomllib``; the firmware reads its sections, ``[sensors]``, ``[leds]`` and
``[simulator]``, and the other layers read theirs (``sudoku_table.config`` puts the whole together).
Each section is a pydantic model (:class:`sudoku_table.sections.Section`): its fields declare
the types, bounds and choices, and the JSON schema in ``docs/config.schema.json`` comes from them.
The file is found at the path given, else at ``$SUDOKU_TABLE_CONFIG``, else the defaults below are
used, which match the example file and the wiring in ``hardware/``. Every value is checked when
loading, so a typo stops the start with one clear line naming the key instead of a wrong pin being
driven: unknown keys, wrong types, pins out of range or used twice, and an LED data pin on a matrix
line are all errors.
"""

from __future__ import annotations

import os
import tomllib
import typing
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Annotated, Any, Literal

from pydantic import (
    BeforeValidator,
    Field,
    Strict,
    StrictBool,
    ValidationError,
    ValidationInfo,
    field_validator,
    model_validator,
)

from sudoku_table.sections import Says, Section, first_problem, whole_number

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


Gpio = Annotated[int, Strict(), Field(ge=0, le=27), Says("must be a GPIO number from 0 to 27")]
"""A header GPIO (:data:`GPIO_RANGE`)."""
Ms = Annotated[float, Strict(), Field(gt=0, allow_inf_nan=False)]
"""A time in milliseconds, above 0."""
BounceMs = Annotated[float, Strict(), Field(ge=0, le=100, allow_inf_nan=False)]
Fraction = Annotated[float, Strict(), Field(ge=0, le=1, allow_inf_nan=False)]
MatrixLines = Annotated[tuple[Gpio, ...], Field(min_length=SIZE, max_length=SIZE)]
"""The nine GPIOs of the matrix's rows or columns."""


class SensorConfig(Section):
    """The reed-switch matrix: rows driven one at a time, columns read with pull-ups."""

    rows: MatrixLines = (4, 5, 6, 12, 13, 16, 17, 22, 23)
    """GPIOs of the row lines, for ranks 1..9 in that order."""
    columns: MatrixLines = (24, 25, 26, 27, 18, 19, 20, 21, 7)
    """GPIOs of the column lines, for files a..i in that order."""
    scan_interval_ms: Ms = 4.0
    """Time from the start of one full scan to the start of the next while nothing changes."""
    fast_scan_ms: Ms = 1.0
    """The scan interval while a square reads differently from what its LED shows."""
    feedback_ms: Ms = 2.0
    """Tentative state: a square that reads the same this long lights its LED (feedback only)."""
    bounce_ms: BounceMs = 5.0
    """Contact bounce lasts at most this long: a tentative change stands at least this long,
    and a square's changes closer together than this count once towards chatter."""
    settle_ms: Ms = 150.0
    """Confirmation: a square must read the same this long before its change is reported and
    counts in the game; longer than a sliding magnet stays on one square (see DESIGN.md)."""
    chatter_changes: Annotated[int, Strict(), Field(ge=2, le=1000)] = 8
    """A square changing more often than this within ``chatter_window_ms`` is chattering."""
    chatter_window_ms: Ms = 500.0
    """The window in which ``chatter_changes`` are counted."""
    chatter_quiet_ms: Ms = 1000.0
    """A chattering square is ignored until it has been quiet this long."""
    line_changes: Annotated[int, Strict(), Field(ge=2, le=SIZE)] = 4
    """This many squares of one row or column changing in the same scan is a line fault."""
    line_settle_us: Annotated[float, Strict(), Field(ge=1, le=1000, allow_inf_nan=False),
                              Says("must be from 1 to 1000 microseconds")] = 20.0
    """After each row change the lines get this long before the columns are read. A column
    that a closed switch held low rises through the Pi's pull-up (33-73 kOhm) into 50-150 pF:
    from the diode's 0.45 V to the input's 2.0 V takes up to 8.6 us; 20 us leaves room for
    twice the capacitance. Nine of them per pass: 180 us of a scan interval."""

    @field_validator("rows", "columns")
    @classmethod
    def _no_fixed_pull_ups(cls, pins: tuple[int, ...], info: ValidationInfo) -> tuple[int, ...]:
        for i, pin in enumerate(pins):
            if pin in FIXED_PULL_UPS:
                raise ConfigError(f"sensors.{info.field_name}[{i}] is GPIO{pin}, which has a "
                                    "fixed pull-up resistor and cannot read the matrix: choose "
                                    "another GPIO")
        return pins


class LedConfig(Section):
    """The NeoPixel chain under the squares and how its light is shaped."""

    driver: Literal["spi", "neopixel"] = "spi"
    """How the data line is driven: ``spi`` (Blinka's ``neopixel_spi`` on SPI0's MOSI, GPIO10;
    every Pi, no root) or ``neopixel`` (Adafruit's ``neopixel``: PWM/PCM through
    ``rpi_ws281x`` on a Pi 4, which needs root, or PIO on a Pi 5; any data pin)."""
    data_pin: Gpio = 10
    """GPIO of the data line: 10 (SPI0's MOSI) with the ``spi`` driver."""
    count: Annotated[int, Strict(), Field(ge=0, le=1024)] = 81
    """LEDs on the chain; more than 81 when the chain has LEDs before or after the squares."""
    first: Annotated[int, Strict(), Field(ge=0, le=1024)] = 0
    """Index on the chain of the first square's LED."""
    pixel_order: Literal["RGB", "RBG", "GRB", "GBR", "BRG", "BGR"] = "GRB"
    """The order of the colour channels the chips expect."""
    start_corner: Literal["bottom_left", "bottom_right", "top_left", "top_right"] = "bottom_left"
    """The board corner, seen from the first player, where the chain's first square LED sits,
    before ``rotation``; the chain then runs along the board's rows (ranks)."""
    serpentine: StrictBool = True
    """Every second row runs back the other way (the usual zig-zag of LED panels)."""
    rotation: Annotated[Literal[0, 90, 180, 270], BeforeValidator(whole_number)] = 0
    """Clockwise rotation, in degrees, of the LED panel relative to the board."""
    brightness: Fraction = 0.6
    """The brightness of the whole chain, 0 (dark) to 1 (full)."""
    gamma: Annotated[float, Strict(), Field(ge=1, le=4, allow_inf_nan=False)] = 2.2
    """The gamma curve that makes half a value look half as bright."""
    balance: Annotated[tuple[Fraction, ...], Field(min_length=3, max_length=3)] = (1.0, 1.0, 1.0)
    """Per-channel factors (red, green, blue) to even out the colours of the chips."""
    max_current_ma: Ms = 2500.0
    """The LED supply's budget in mA: every frame is dimmed to stay below it."""
    channel_ma: Ms = 20.0
    """Current of one fully lit colour channel in mA (white is three of them)."""
    idle_ma: BounceMs = 1.0
    """Current of one dark LED (its controller) in mA."""


class BuzzerConfig(Section):
    """The optional piezo buzzer (a passive transducer); silent until the panel switches the
    table's sound on."""

    pin: Gpio = 8
    """GPIO of the buzzer (8 is SPI0's CE0, free with the installer's ``spi0-0cs``)."""


I2S_PINS: dict[int, str] = {18: "BCLK", 19: "LRC", 20: "PCM_DIN", 21: "DIN"}
"""The Pi's I2S (PCM) pin group: bit clock, left/right clock, the data input and the data out
an I2S amplifier uses. Fixed in the chip, and the sound overlays claim all four together
(GPIO20 too, though the amplifier leaves it unconnected)."""


class SpeakerConfig(Section):
    """The optional speaker the table speaks through (the voice itself is ``[speech]``)."""

    i2s: StrictBool = False
    """True: a MAX98357A I2S amplifier on GPIO18 (BCLK), GPIO19 (LRC) and GPIO21 (DIN), which
    are then the amplifier's: the matrix must use other pins (``hardware/speaker-i2s.toml``).
    False: a USB sound adapter or a Pi 4's 3.5 mm jack, on no GPIO at all."""
    device: Annotated[str, Strict(), Field(max_length=80, pattern=r"^[A-Za-z0-9:,=_.-]*$"),
                      Says('must be an ALSA device name such as "default" or '
                           '"plughw:CARD=Headphones"', always=True)] = ""
    """The ALSA device (``aplay -D``): empty for the system's default on the real table and
    for silence on the simulated one (what it says is kept and shown, not played);
    ``plughw:CARD=Headphones`` (a Pi 4's jack), ``plughw:CARD=MAX98357A`` (the I2S
    amplifier), ``plughw:CARD=Device`` (a USB sound adapter), ``default``."""


class SimulatorConfig(Section):
    """The simulated table (used off a Pi or with ``--sim``)."""

    bounce_ms: BounceMs = 5.0
    """A simulated reed contact bounces for a random time up to this long after every make and
    break (closures and openings of 0.05-3 ms each)."""
    seed: Annotated[int, Strict(), Field(ge=0, le=2**63 - 1),
                    Says("must be from 0 to 2**63 - 1")] = 1
    """The seed of the simulated noise: the same seed and the same hand give the same bounces,
    slides and flickers."""


class HardwareConfig(Section):
    """The firmware's part of the config; ``source`` is the file it came from (None: the
    defaults)."""

    sensors: SensorConfig = SensorConfig()
    leds: LedConfig = LedConfig()
    buzzer: BuzzerConfig = BuzzerConfig()
    speaker: SpeakerConfig = SpeakerConfig()
    simulator: SimulatorConfig = SimulatorConfig()
    source: str | None = Field(default=None, exclude=True)
    """Not a key of the file: where the file was found."""

    @model_validator(mode="after")
    def _whole(self) -> HardwareConfig:
        _check_whole(self)
        return self

    def __eq__(self, other: object) -> bool:
        """Equal when every section is (wherever the config came from)."""
        if not isinstance(other, HardwareConfig):
            return NotImplemented
        return all(getattr(self, name) == getattr(other, name) for name in SECTIONS)

    def __hash__(self) -> int:
        return hash(tuple(getattr(self, name) for name in SECTIONS))


SECTIONS: dict[str, type[Section]] = {
    "sensors": SensorConfig,
    "leds": LedConfig,
    "buzzer": BuzzerConfig,
    "speaker": SpeakerConfig,
    "simulator": SimulatorConfig,
}
"""The sections of the config file that belong to the firmware."""

DRIVERS: tuple[str, ...] = typing.get_args(LedConfig.model_fields["driver"].annotation)
CORNERS: tuple[str, ...] = typing.get_args(LedConfig.model_fields["start_corner"].annotation)
ROTATIONS: tuple[int, ...] = typing.get_args(LedConfig.model_fields["rotation"].annotation)
PIXEL_ORDERS: tuple[str, ...] = typing.get_args(
    LedConfig.model_fields["pixel_order"].annotation)


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
    try:
        config = HardwareConfig.model_validate({k: v for k, v in data.items() if k in SECTIONS})
    except ValidationError as e:
        raise ConfigError(first_problem(e, HardwareConfig)) from None
    return config.model_copy(update={"source": source})


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
