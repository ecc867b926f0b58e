"""The LED bytes on the wire, decoded as a WS2812B decodes them: the SPI byte stream the table
sends (one byte per LED bit, at the 6.25 MHz a Pi makes of 6.4 MHz) turned into high and low
pulse widths, with clock jitter and with gaps between bytes, and read back against the
datasheet's timing (Worldsemi WS2812B: T0H 0.4 us, T1H 0.8 us, T0L 0.85 us, T1L 0.45 us, each
+-150 ns; a reset is a low of at least 50 us, 280 us on the newer WS2812B-V5).

Both bit patterns end low, so a gap between two SPI bytes (the controller waiting for its FIFO)
only lengthens a low: the highs, which carry the bits, keep their widths. A low far longer than
the datasheet's is still read as a low by the chips up to some microseconds; a low of several
microseconds is taken as a reset, and the frame is cut there. The decoder below does the same.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass

import pytest

from sudoku_table.firmware.config import LedConfig
from sudoku_table.firmware.leds import SPI_BIT1, LedDisplay, spi_chain
from sudoku_table.firmware.ports import Light

from .test_neopixel import FakeSpiBus

PI_SPI_HZ = 6_250_000
"""What a Pi's even clock divider makes of the requested 6.4 MHz (Pi 4 and Zero 2 W at their
pinned core clocks, 500 and 400 MHz; the Pi 5's RP1 at 200 MHz)."""
T0H = (250, 550)
T1H = (650, 950)
T0L = (700, 1000)
T1L = (300, 600)
RESET_NS = 50_000
"""A WS2812B's reset (latch): a low at least this long (the datasheet)."""
TAKEN_AS_RESET_NS = 5_000
"""A low a chip may already take as a reset (measured on WS2812 parts: some 5-9 us): a gap
inside a frame must stay below it."""


@dataclass(frozen=True)
class Pulse:
    high: bool
    ns: float


def waveform(data: bytes, spi_hz: float, gap_ns: Callable[[int], float] = lambda i: 0.0,
             jitter_ns: Callable[[], float] = lambda: 0.0) -> list[Pulse]:
    """The MOSI line for ``data``, most significant bit first: each SPI bit lasts one clock
    (plus ``jitter_ns()``); after byte ``i`` the line rests low for ``gap_ns(i)``."""
    bit_ns = 1e9 / spi_hz
    pulses: list[Pulse] = []

    def add(high: bool, ns: float) -> None:
        if pulses and pulses[-1].high == high:
            pulses[-1] = Pulse(high, pulses[-1].ns + ns)
        else:
            pulses.append(Pulse(high, ns))

    for i, byte in enumerate(data):
        for bit in range(7, -1, -1):
            add(bool(byte >> bit & 1), bit_ns + jitter_ns())
        gap = gap_ns(i)
        if gap:
            add(False, gap)
    return pulses


@dataclass
class Decoded:
    frames: list[bytes]
    """The bytes each latch showed."""
    highs: list[float]
    lows: list[float]
    """Every high, and every low inside a frame."""
    bad_highs: list[float]


def decode(pulses: list[Pulse]) -> Decoded:
    """Read ``pulses`` as a WS2812B does: a high of T0H is a 0, of T1H a 1; a long low latches
    what came (a reset)."""
    frames: list[bytes] = []
    bits: list[int] = []
    highs: list[float] = []
    lows: list[float] = []
    bad: list[float] = []

    def latch() -> None:
        if bits:
            frames.append(bytes(int("".join(map(str, bits[i:i + 8])), 2)
                                for i in range(0, len(bits) - len(bits) % 8, 8)))
            bits.clear()

    for pulse in pulses:
        if pulse.high:
            highs.append(pulse.ns)
            if T0H[0] <= pulse.ns <= T0H[1]:
                bits.append(0)
            elif T1H[0] <= pulse.ns <= T1H[1]:
                bits.append(1)
            else:
                bad.append(pulse.ns)
        elif pulse.ns >= TAKEN_AS_RESET_NS:
            latch()
        else:
            lows.append(pulse.ns)
    latch()
    return Decoded(frames, highs, lows, bad)


def frame_bytes() -> tuple[bytes, bytes]:
    """One real transfer of the table's SPI chain (a few squares lit, the rest dark) and the
    GRB bytes it stands for."""
    bus = FakeSpiBus()
    config = LedConfig(gamma=1.0, brightness=1.0)
    display = LedDisplay(spi_chain(config, spi=bus), config)
    display.show({"a1": Light((255, 0, 0)), "e5": Light((0, 255, 0)),
                  "i9": Light((10, 20, 255))})
    sent = bus.writes[-1]
    display.close()
    body = sent.strip(b"\x00")
    bits = "".join("1" if byte == SPI_BIT1 else "0" for byte in body)
    grb = bytes(int(bits[i:i + 8], 2) for i in range(0, len(bits), 8))
    return sent, grb


def test_the_stream_decodes_inside_the_datasheet_windows() -> None:
    sent, grb = frame_bytes()
    decoded = decode(waveform(sent, PI_SPI_HZ))
    assert decoded.frames == [grb] and decoded.bad_highs == []
    zeros = [low for low in decoded.lows if T0L[0] <= low <= T0L[1]]
    ones = [low for low in decoded.lows if T1L[0] <= low <= T1L[1]]
    assert len(zeros) + len(ones) == len(decoded.lows)  # every low inside its window
    bit_ns = 1e9 / PI_SPI_HZ
    leading = (len(sent) - len(sent.lstrip(b"\x00"))) * 8 * bit_ns
    trailing = (len(sent) - len(sent.rstrip(b"\x00"))) * 8 * bit_ns + 3 * bit_ns
    assert leading >= RESET_NS and trailing >= RESET_NS


@pytest.mark.parametrize("seed", range(5))
def test_clock_jitter_keeps_every_bit(seed: int) -> None:
    """+-15 ns on every SPI clock (far more than the Pi's PLL gives)."""
    sent, grb = frame_bytes()
    chance = random.Random(seed)
    decoded = decode(waveform(sent, PI_SPI_HZ, jitter_ns=lambda: chance.uniform(-15, 15)))
    assert decoded.frames == [grb] and decoded.bad_highs == []


@pytest.mark.parametrize("seed", range(5))
def test_gaps_between_bytes_only_lengthen_lows(seed: int) -> None:
    """Up to 3 us after any byte, at random (the controller's FIFO running dry), with jitter:
    every high keeps its width, every bit is read, the frame is not cut."""
    sent, grb = frame_bytes()
    chance = random.Random(seed)
    decoded = decode(waveform(sent, PI_SPI_HZ,
                              gap_ns=lambda i: chance.choice([0.0, 0.0, 160.0,
                                                              chance.uniform(0, 3000)]),
                              jitter_ns=lambda: chance.uniform(-15, 15)))
    assert decoded.frames == [grb] and decoded.bad_highs == []
    assert max(decoded.lows) < TAKEN_AS_RESET_NS


def test_at_the_requested_clock_too() -> None:
    """Should a board give the full 6.4 MHz, the highs still fit (0: 312 ns, 1: 781 ns)."""
    sent, grb = frame_bytes()
    decoded = decode(waveform(sent, 6_400_000))
    assert decoded.frames == [grb] and decoded.bad_highs == []


def test_a_gap_long_enough_to_latch_cuts_the_frame() -> None:
    """The decoder is no rubber stamp: a 6 us pause in the middle is a reset to the chips."""
    sent, grb = frame_bytes()
    middle = len(sent) // 2
    decoded = decode(waveform(sent, PI_SPI_HZ, gap_ns=lambda i: 6000.0 if i == middle else 0))
    assert len(decoded.frames) == 2 and decoded.frames[0] != grb


def test_a_slower_clock_breaks_the_ones() -> None:
    """A clock the core clock's changing would give (at 300 MHz: 4.69 MHz) stretches a 1's high
    past the window: why the installer pins the core clock on a Pi 4 and Zero 2 W."""
    sent, _ = frame_bytes()
    decoded = decode(waveform(sent, 300e6 / 64))
    assert decoded.bad_highs
