"""The LEDs: frames of lights to bytes on the NeoPixel chain, animated only while needed.

:class:`LedDisplay` satisfies ``sudoku_table.firmware.ports.Display`` on top of any Adafruit
``PixelBuf``: on a Pi the real chain of the configured driver (:func:`spi_chain`, Blinka's
``neopixel_spi`` on SPI0, or :func:`neopixel_chain`, Adafruit's ``neopixel``: the only places that
import them and ``board``), or :class:`RecordingPixels`, whose ``_transmit`` records the wire bytes
instead of sending them. The colour math is done here, not by the pixel buffer (which is left at
brightness 1.0): level x pattern x global brightness, then gamma, then the per-channel balance, then
the current cap, which dims a whole frame evenly when its estimated current would exceed the
supply's budget.

Patterns are drawn by a ticker thread that exists only while some light animates; a steady
frame is written once and then nothing wakes up.
"""

from __future__ import annotations

import logging
import math
import os
import threading
import time
from collections import deque
from collections.abc import Callable, Sequence
from pathlib import Path
from types import MappingProxyType
from typing import Any

import adafruit_pixelbuf

from .config import LedConfig
from .exc import ConfigError, FrameError, HardwareUnavailable
from .layout import INDEX, led_indices
from .ports import PATTERNS, RGB, Frame, Light

log = logging.getLogger(__name__)

BLINK_FAST = 0.25
"""Period of ``blink_fast`` in seconds (4 Hz), half on and half off."""
BLINK_SLOW = 1.0
PULSE = 1.6
"""Period of ``pulse``: breathing between ``PULSE_FLOOR`` and full."""
PULSE_FLOOR = 0.25
PULSE_STEP = 1 / 30
"""Time between the frames of a pulse (30 per second)."""
FLASH = ((0.0, 0.15, 1.0), (0.15, 0.25, 0.0), (0.25, 0.4, 1.0), (0.4, 0.5, 0.0),
         (0.5, 0.65, 1.0))
"""``flash``: three short bursts (start, end, intensity) from when the light appeared, then dark."""
FLASH_END = FLASH[-1][1]
DOUBLE_BLINK = 1.6
"""Period of ``double_blink``: on, off, on for ``DOUBLE_ON`` each, then dark for the rest."""
DOUBLE_ON = 0.15
CACHE_SIZE = 1024
"""Bound of the display's small caches (checked lights, shaped colours)."""


def pattern_intensity(pattern: str, now: float, since: float) -> tuple[float, float | None]:
    """How much of its level a light shows at ``now`` and when that next changes (None: never).

    Blinks and pulses run on the shared clock so that all squares blink together; a flash runs
    from ``since``, the moment its light appeared.
    """
    if pattern == "steady":
        return 1.0, None
    if pattern in ("blink_fast", "blink_slow"):
        period = BLINK_FAST if pattern == "blink_fast" else BLINK_SLOW
        half = period / 2
        k = math.floor(now / half)
        return (1.0 if k % 2 == 0 else 0.0), (k + 1) * half
    if pattern == "pulse":
        phase = (now % PULSE) / PULSE
        wave = 0.5 - 0.5 * math.cos(2 * math.pi * phase)
        return PULSE_FLOOR + (1 - PULSE_FLOOR) * wave, now + PULSE_STEP
    if pattern == "double_blink":
        start = math.floor(now / DOUBLE_BLINK) * DOUBLE_BLINK
        for k, value in enumerate((1.0, 0.0, 1.0)):
            if now < start + (k + 1) * DOUBLE_ON:
                return value, start + (k + 1) * DOUBLE_ON
        return 0.0, start + DOUBLE_BLINK
    if pattern == "flash":
        age = now - since
        for start, end, value in FLASH:
            if start <= age < end:
                return value, since + end
        return (1.0, since + FLASH[0][1]) if age < 0 else (0.0, None)
    raise FrameError(f"unknown pattern {pattern!r} (known: {', '.join(PATTERNS)})")


def shape_color(color: RGB, level: float, config: LedConfig, brightness: float) -> RGB:
    """The 8-bit channels for ``color`` at ``level`` under brightness, gamma and balance.

    A light that is on never rounds to black: its brightest channel keeps at least 1.
    """
    scale = level * brightness
    if scale <= 0 or not any(color):
        return (0, 0, 0)
    gamma = config.gamma
    out = [round(((c / 255 * scale) ** gamma) * b * 255)
           for c, b in zip(color, config.balance, strict=True)]
    if not any(out):
        weighted = [c * b for c, b in zip(color, config.balance, strict=True)]
        if max(weighted) > 0:
            out[weighted.index(max(weighted))] = 1
    return (out[0], out[1], out[2])


def frame_current_ma(pixels: Sequence[RGB], config: LedConfig) -> float:
    """The estimated supply current of the whole chain showing ``pixels`` (dark LEDs too)."""
    channels = sum(map(sum, pixels))
    return config.count * config.idle_ma + channels / 255 * config.channel_ma


def cap_current(pixels: list[RGB], config: LedConfig) -> tuple[list[RGB], float]:
    """``pixels`` dimmed evenly (rounding down) to stay within ``max_current_ma``; the factor."""
    total = frame_current_ma(pixels, config)
    if total <= config.max_current_ma:
        return pixels, 1.0
    dark = config.count * config.idle_ma
    factor = (config.max_current_ma - dark) / (total - dark)
    return [(int(r * factor), int(g * factor), int(b * factor)) for r, g, b in pixels], factor


def check_light(square: str, light: Any) -> Light:
    """``light`` if it is a valid light for ``square``; ``ValueError`` naming what is wrong."""
    if square not in INDEX:
        raise FrameError(f"{square!r} is not a square a1..i9")
    if not isinstance(light, Light):
        raise FrameError(f"the light of {square} must be a Light, got {light!r}")
    color = light.color
    if (not isinstance(color, tuple) or len(color) != 3
            or not all(isinstance(c, int) and not isinstance(c, bool) and 0 <= c <= 255
                       for c in color)):
        raise FrameError(f"the colour of {square} must be three numbers 0..255, got {color!r}")
    if light.pattern not in PATTERNS:
        raise FrameError(f"the pattern of {square} must be one of {', '.join(PATTERNS)}, "
                         f"got {light.pattern!r}")
    level = light.level
    if (isinstance(level, bool) or not isinstance(level, int | float)
            or not 0 <= level <= 1):
        raise FrameError(f"the level of {square} must be from 0 to 1, got {level!r}")
    return light


class RecordingPixels(adafruit_pixelbuf.PixelBuf):
    """A NeoPixel chain that records what it would send: the simulator's LEDs."""

    def __init__(self, n: int, pixel_order: str = "GRB", history: int = 256) -> None:
        super().__init__(n, byteorder=pixel_order, brightness=1.0, auto_write=False)
        self.pixel_order = pixel_order
        self.transmitted: deque[tuple[float, bytes]] = deque(maxlen=history)
        """The last ``history`` transmissions: (monotonic time, wire bytes)."""
        self.transmit_count = 0

    def _transmit(self, buffer: bytearray) -> None:
        self.transmitted.append((time.monotonic(), bytes(buffer)))
        self.transmit_count += 1

    @property
    def last_bytes(self) -> bytes:
        """The bytes of the last transmission (all zero before the first)."""
        return self.transmitted[-1][1] if self.transmitted else bytes(3 * len(self))

    def deinit(self) -> None:
        self.fill(0)
        self.show()


def wire_color(data: bytes, index: int, pixel_order: str = "GRB") -> RGB:
    """The (red, green, blue) of LED ``index`` in wire bytes sent in ``pixel_order``."""
    chunk = data[3 * index:3 * index + 3]
    if len(chunk) != 3:
        raise IndexError(f"there is no LED {index} in {len(data)} bytes")
    values = dict(zip(pixel_order, chunk, strict=True))
    return (values["R"], values["G"], values["B"])


class LedDisplay:
    """Frames of lights on a pixel chain: satisfies ``sudoku_table.firmware.ports.Display``."""

    def __init__(self, pixels: Any, config: LedConfig,
                 clock: Callable[[], float] = time.monotonic) -> None:
        if len(pixels) < config.count:
            raise ConfigError(f"the pixel chain has {len(pixels)} LEDs, the config says "
                             f"{config.count}")
        self.pixels = pixels
        self.config = config
        self.clock = clock
        self._index = led_indices(config)
        self._brightness = config.brightness
        self._frame: dict[str, Light] = {}
        self._since: dict[str, float] = {}
        self._shown: list[RGB] | None = None
        self._valid: set[Light] = set()
        """Lights already checked (the table reuses a handful of them)."""
        self._shapes: dict[tuple[RGB, float], RGB] = {}
        """Colour and level to channels, at the current brightness."""
        self._cond = threading.Condition()
        self._deadline: float | None = None
        self._ticker: threading.Thread | None = None
        self._closed = False
        self.renders = 0
        """Frames computed (by ``show`` or the ticker)."""
        self.writes = 0
        """Frames written to the chain (a render that changes nothing writes nothing)."""
        self.current_ma = frame_current_ma([], config)
        """The estimated current of the last frame written, after the cap."""
        self.cap_factor = 1.0
        """How much the current cap dimmed the last frame (1.0: not at all)."""

    # --- Display --------------------------------------------------------------------------------

    @property
    def last_frame(self) -> Frame:
        """The last frame given to :meth:`show` (read-only)."""
        return MappingProxyType(self._frame)

    @property
    def brightness(self) -> float:
        return self._brightness

    @property
    def ticking(self) -> bool:
        """Whether the ticker thread exists (only while a light animates)."""
        return self._ticker is not None

    def show(self, frame: Frame) -> None:
        """Show ``frame`` now; patterns go on animating in the ticker thread.

        After :meth:`close` a frame is checked and then ignored: the LEDs stay dark.
        """
        checked = {}
        for square, light in frame.items():
            try:
                known = light in self._valid
            except TypeError:  # unhashable parts: check_light names them
                known = False
            if square not in INDEX or not known:
                check_light(square, light)
                if len(self._valid) >= CACHE_SIZE:
                    self._valid.clear()
                self._valid.add(light)
            checked[square] = light
        with self._cond:
            if self._closed:  # a late frame (a thread still finishing) changes nothing
                return
            now = self.clock()
            previous = self._frame
            since = {}
            for square, light in checked.items():
                before = previous.get(square)
                since[square] = (self._since[square] if before is light or before == light
                                 else now)
            self._frame, self._since = checked, since
            self._render(now)

    def set_brightness(self, level: float) -> None:
        """Global brightness from 0.0 to 1.0."""
        if isinstance(level, bool) or not isinstance(level, int | float) or not 0 <= level <= 1:
            raise FrameError(f"brightness must be from 0 to 1, got {level!r}")
        with self._cond:
            self._brightness = float(level)
            self._shapes.clear()
            if not self._closed:
                self._render(self.clock())

    def close(self) -> None:
        """Darken every LED, end the ticker and release the chain; idempotent."""
        with self._cond:
            if self._closed:
                return
            self._closed = True
            self._deadline = None
            self._cond.notify_all()
            ticker = self._ticker
        if ticker is not None and ticker is not threading.current_thread():
            ticker.join(timeout=2)
        try:
            self.pixels.fill(0)
            self.pixels.show()
        finally:
            deinit = getattr(self.pixels, "deinit", None)
            if deinit is not None:
                deinit()

    # --- drawing --------------------------------------------------------------------------------

    def colors(self, now: float | None = None) -> dict[str, RGB]:
        """The colour each lit square shows at ``now`` before the current cap."""
        now = self.clock() if now is None else now
        out = {}
        for square, light in self._frame.items():
            intensity, _ = pattern_intensity(light.pattern, now, self._since[square])
            rgb = shape_color(light.color, light.level * intensity, self.config,
                              self._brightness)
            if any(rgb):
                out[square] = rgb
        return out

    def _render(self, now: float) -> None:
        """Write the frame for ``now`` and plan the next tick (the caller holds the lock)."""
        pixels: list[RGB] = [(0, 0, 0)] * self.config.count
        deadline: float | None = None
        for square, light in self._frame.items():
            intensity, next_change = pattern_intensity(light.pattern, now, self._since[square])
            if next_change is not None and (deadline is None or next_change < deadline):
                deadline = next_change
            if intensity > 0:
                key = (light.color, light.level * intensity)
                rgb = self._shapes.get(key)
                if rgb is None:
                    if len(self._shapes) >= CACHE_SIZE:
                        self._shapes.clear()
                    rgb = self._shapes[key] = shape_color(key[0], key[1], self.config,
                                                          self._brightness)
                pixels[self._index[square]] = rgb
        pixels, factor = cap_current(pixels, self.config)
        self.renders += 1
        shown = self._shown
        if pixels != shown:
            if shown is None:
                self.pixels[0:self.config.count] = pixels
            else:  # only the LEDs that change: most frames change a few squares
                for k, (new, old) in enumerate(zip(pixels, shown, strict=True)):
                    if new != old:
                        self.pixels[k] = new
            self.pixels.show()
            self._shown = pixels
            self.writes += 1
            self.cap_factor = factor
            self.current_ma = frame_current_ma(pixels, self.config)
        self._deadline = deadline
        if deadline is not None:
            if self._ticker is None:
                self._ticker = threading.Thread(target=self._tick, name="led-ticker",
                                                daemon=True)
                self._ticker.start()
            else:
                self._cond.notify_all()

    def _tick(self) -> None:
        with self._cond:
            try:
                while not self._closed and self._deadline is not None:
                    delay = self._deadline - self.clock()
                    if delay > 0:
                        self._cond.wait(delay)
                        continue
                    try:
                        now = self.clock()
                        self._render(now)
                        if self._deadline is not None and self._deadline <= now:
                            self._deadline = now + 0.001  # never spin on a rounding edge
                    except Exception:  # a failing chain must not spin: stop animating
                        log.exception("the LEDs could not be written")
                        self._deadline = None
            finally:
                self._ticker = None

    def __enter__(self) -> LedDisplay:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def recording_display(config: LedConfig, clock: Callable[[], float] = time.monotonic,
                      history: int = 256) -> LedDisplay:
    """The simulator's display: a :class:`LedDisplay` on :class:`RecordingPixels`."""
    return LedDisplay(RecordingPixels(config.count, config.pixel_order, history), config, clock)


SPI_DEVICE = Path("/dev/spidev0.0")
"""SPI0's device file: present once SPI0 is on (the installer's ``dtoverlay=spi0-0cs``)."""
SPI_HZ = 6_400_000
"""SPI clock for the ``spi`` driver: 8 SPI bits per WS2812 bit, so one bit lasts 1.25 us."""
SPI_BIT0 = 0b11000000
SPI_BIT1 = 0b11111000
"""The SPI byte for a WS2812 0 and 1 bit. The Pi's SPI clock is its source divided by an even
number, so 6.4 MHz comes out as 6.25 MHz (Pi 4 with the core clock pinned at 500 MHz, and the
Pi 5's 200 MHz RP1 clock): a 0 is high for 2 bits (320 ns; WS2812B: 250-550 ns) and a 1 for 5
(800 ns; WS2812B: 650-950 ns). The library's default 1 (4 bits, 640 ns) sits below the
WS2812B's minimum at that clock."""


def skip_blinka_install_prompt() -> None:
    """Blinka 10, imported in a terminal, stops at ``import board`` to offer to pip-install a
    backend the ``pi`` extra leaves out on purpose (``rpi_ws281x``, used only by the
    ``neopixel`` driver): the table installs its own backends, so it is never asked."""
    os.environ.setdefault("BLINKA_SKIP_DEPENDENCY_CHECK", "1")


def spi_chain(config: LedConfig, spi: Any = None) -> Any:
    """The ``spi`` driver's chain: Blinka's ``neopixel_spi.NeoPixel_SPI`` on SPI0 (only on a
    Pi; ``spi`` is a bus object for tests). Needs ``/dev/spidev0.0`` and the ``spi`` group,
    not root."""
    if spi is None:
        if not SPI_DEVICE.exists():
            raise HardwareUnavailable(
                f"{SPI_DEVICE} is missing: SPI0 is off. Add 'dtoverlay=spi0-0cs' to "
                "/boot/firmware/config.txt (the installer does) and reboot")
        skip_blinka_install_prompt()
        import board

        spi = board.SPI()
    import neopixel_spi

    return neopixel_spi.NeoPixel_SPI(spi, config.count, bpp=3, brightness=1.0,
                                     auto_write=False, pixel_order=config.pixel_order,
                                     frequency=SPI_HZ, bit0=SPI_BIT0, bit1=SPI_BIT1)


def neopixel_chain(config: LedConfig, pin: Any = None) -> Any:
    """The ``neopixel`` driver's chain: Adafruit's ``neopixel.NeoPixel`` (only on a Pi, or with
    Blinka's OS-agnostic mode in tests); ``pin`` overrides the board pin ``D<data_pin>``."""
    skip_blinka_install_prompt()
    import board
    import neopixel

    if pin is None:
        pin = getattr(board, f"D{config.data_pin}", None)
        if pin is None:
            raise ConfigError(f"leds.data_pin GPIO{config.data_pin} is not a pin of this board")
    return neopixel.NeoPixel(pin, config.count, bpp=3, brightness=1.0, auto_write=False,
                             pixel_order=config.pixel_order)


def pi_display(config: LedConfig) -> LedDisplay:
    """The Pi's display: a :class:`LedDisplay` on the chain of the configured driver."""
    if config.driver == "spi":
        return LedDisplay(spi_chain(config), config)
    return LedDisplay(neopixel_chain(config), config)


def neopixel_display(config: LedConfig, pin: Any = None) -> LedDisplay:
    """A display on Adafruit's ``neopixel`` chain (the ``neopixel`` driver)."""
    return LedDisplay(neopixel_chain(config, pin), config)
