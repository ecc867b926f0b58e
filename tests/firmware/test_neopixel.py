"""The real ``neopixel.NeoPixel`` wrapper, driven as on a Pi but with its writer replaced.

Blinka's OS-agnostic mode must be chosen before ``board`` is first imported, so this runs in a
fresh interpreter; it prints what the replaced ``neopixel_write`` received as JSON.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from sudoku_table.firmware import leds
from sudoku_table.firmware.config import LedConfig
from sudoku_table.firmware.exc import HardwareUnavailable
from sudoku_table.firmware.layout import led_indices
from sudoku_table.firmware.leds import SPI_BIT0, SPI_BIT1, SPI_HZ, LedDisplay, spi_chain, wire_color
from sudoku_table.firmware.ports import Light

ROOT = Path(__file__).resolve().parents[2]

SCRIPT = r"""
import json
import board
import neopixel

writes = []
neopixel.neopixel_write = lambda pin, buf: writes.append(bytes(buf).hex())

from sudoku_table.firmware.config import LedConfig
from sudoku_table.firmware.leds import neopixel_display
from sudoku_table.firmware.ports import Light

config = LedConfig(gamma=1.0, brightness=1.0, pixel_order="GRB", start_corner="top_right",
                   serpentine=True, rotation=90)
display = neopixel_display(config, pin=board.NEOPIXEL)
kind = type(display.pixels).__module__ + "." + type(display.pixels).__name__
display.show({"b2": Light((255, 0, 0)), "i9": Light((0, 0, 200), level=0.5)})
display.set_brightness(0.5)
display.close()
try:
    neopixel_display(config)  # board.D10 does not exist off a Pi
    missing = None
except ValueError as e:
    missing = str(e)
# The whole real backend: gpiozero devices on plain mock pins, the NeoPixel chain on D10.
from gpiozero.pins.mock import MockFactory
from sudoku_table.firmware.backend import open_real
from sudoku_table.firmware.config import HardwareConfig, LedConfig as Leds

board.D10 = board.NEOPIXEL
before = len(writes)
hardware = open_real(HardwareConfig(leds=Leds(driver="neopixel")), pin_factory=MockFactory())
real = {"simulated": hardware.is_simulated, "occupied": sorted(hardware.sensors.occupied()),
        "pixels": type(hardware.display.pixels).__name__}
hardware.display.show({"a1": Light((0, 255, 0))})
hardware.close()
real["writes"] = len(writes) - before
print(json.dumps({"kind": kind, "writes": writes, "missing": missing, "real": real}))
"""


@pytest.mark.integration
def test_the_neopixel_chain_receives_mapped_grb_bytes() -> None:
    env = {**os.environ, "BLINKA_OS_AGNOSTIC": "1", "BLINKA_SKIP_DEPENDENCY_CHECK": "1",
           "PYTHONPATH": str(ROOT)}
    result = subprocess.run([sys.executable, "-c", SCRIPT], cwd=ROOT, env=env,
                            capture_output=True, text=True, timeout=60)
    assert result.returncode == 0, result.stderr
    data = json.loads(result.stdout.strip().splitlines()[-1])
    assert data["kind"] == "neopixel.NeoPixel"
    writes = [bytes.fromhex(w) for w in data["writes"]]
    config = LedConfig(start_corner="top_right", serpentine=True, rotation=90)
    index = led_indices(config)
    shown, dimmed, *closing = writes
    assert len(shown) == 81 * 3
    assert wire_color(shown, index["b2"], "GRB") == (255, 0, 0)
    assert shown[3 * index["b2"]:3 * index["b2"] + 3] == bytes([0, 255, 0])  # G, R, B
    assert wire_color(shown, index["i9"], "GRB") == (0, 0, 100)
    assert sum(shown) == 255 + 100
    assert wire_color(dimmed, index["b2"], "GRB") == (128, 0, 0)
    assert closing and not any(closing[-1])  # dark when closed
    assert "leds.data_pin GPIO10 is not a pin of this board" in data["missing"]
    real = data["real"]
    assert real["simulated"] is False and real["occupied"] == []
    assert real["pixels"] == "NeoPixel" and real["writes"] >= 2  # the frame, then dark


class FakeSpiBus:
    """A Blinka ``busio.SPI`` as ``adafruit_bus_device`` uses it, recording what is written."""

    def __init__(self) -> None:
        self.writes: list[bytes] = []
        self.baudrate = 0
        self.frequency = 6_250_000  # what a Pi's even divider makes of 6.4 MHz

    def try_lock(self) -> bool:
        return True

    def unlock(self) -> None:
        pass

    def configure(self, *, baudrate: int = 0, polarity: int = 0, phase: int = 0,
                  bits: int = 8) -> None:
        self.baudrate = baudrate

    def write(self, buffer: bytes, start: int = 0, end: int | None = None) -> None:
        self.writes.append(bytes(buffer[start:end]))


def decode_spi(data: bytes) -> bytes:
    """The WS2812 bytes an SPI transfer carries: one SPI byte per bit, reset bytes around it."""
    body = data.strip(b"\x00")
    bits = []
    for byte in body:
        assert byte in (SPI_BIT0, SPI_BIT1), f"not a WS2812 bit pattern: {byte:#04x}"
        bits.append(1 if byte == SPI_BIT1 else 0)
    assert len(bits) % 8 == 0
    return bytes(int("".join(map(str, bits[i:i + 8])), 2) for i in range(0, len(bits), 8))


def test_the_spi_driver_sends_each_bit_as_one_timed_spi_byte() -> None:
    bus = FakeSpiBus()
    config = LedConfig(gamma=1.0, brightness=1.0, start_corner="top_right", rotation=90)
    display = LedDisplay(spi_chain(config, spi=bus), config)
    display.show({"b2": Light((255, 0, 0)), "i9": Light((0, 0, 200), level=0.5)})
    assert bus.baudrate == SPI_HZ == 6_400_000
    sent = bus.writes[-1]
    # Reset (low) for at least 80 us before and after the 81 x 24 bit bytes.
    reset = round(6_250_000 * 80e-6 / 8)
    assert sent[:reset] == bytes(reset) and sent[-reset:] == bytes(reset)
    assert len(sent) == 2 * reset + 81 * 24
    wire = decode_spi(sent)
    index = led_indices(config)
    assert wire_color(wire, index["b2"], "GRB") == (255, 0, 0)
    assert wire_color(wire, index["i9"], "GRB") == (0, 0, 100)
    assert sum(wire) == 255 + 100
    display.close()
    assert not any(decode_spi(bus.writes[-1]))  # dark when closed


def test_the_spi_bit_timing_is_inside_the_ws2812b_windows() -> None:
    """At the 6.25 MHz a Pi makes of 6.4 MHz, a 0 is high 250-550 ns and a 1 650-950 ns."""
    bit_ns = 1e9 / 6_250_000
    high0 = bin(SPI_BIT0).count("1") * bit_ns
    high1 = bin(SPI_BIT1).count("1") * bit_ns
    assert 250 <= high0 <= 550 and 650 <= high1 <= 950
    # The high time comes first: the patterns are runs of ones from the top bit.
    for pattern in (SPI_BIT0, SPI_BIT1):
        text = f"{pattern:08b}"
        assert text == text.rstrip("0") + "0" * (8 - len(text.rstrip("0")))
        assert "0" not in text.rstrip("0")


def test_without_spi0_the_spi_driver_says_how_to_turn_it_on(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(leds, "SPI_DEVICE", tmp_path / "spidev0.0")
    with pytest.raises(HardwareUnavailable, match="SPI0 is off.*dtoverlay=spi0-0cs"):
        leds.pi_display(LedConfig())


def test_blinka_never_stops_to_offer_an_install(tmp_path: Path,
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    """Run by hand in a terminal, Blinka 10 would stop at ``import board`` and offer to
    pip-install a backend the table leaves out on purpose: the firmware turns that off before
    it imports ``board``."""
    import types

    seen: list[str | None] = []
    board = types.ModuleType("board")

    def spi() -> FakeSpiBus:
        seen.append(os.environ.get("BLINKA_SKIP_DEPENDENCY_CHECK"))
        return FakeSpiBus()

    board.SPI = spi  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "board", board)
    monkeypatch.delenv("BLINKA_SKIP_DEPENDENCY_CHECK", raising=False)
    device = tmp_path / "spidev0.0"
    device.touch()
    monkeypatch.setattr(leds, "SPI_DEVICE", device)
    chain = leds.spi_chain(LedConfig())
    assert seen == ["1"] and len(chain) == 81
