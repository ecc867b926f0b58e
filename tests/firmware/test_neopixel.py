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

from firmware.config import LedConfig
from firmware.layout import led_indices
from firmware.leds import wire_color

ROOT = Path(__file__).resolve().parents[2]

SCRIPT = r"""
import json
import board
import neopixel

writes = []
neopixel.neopixel_write = lambda pin, buf: writes.append(bytes(buf).hex())

from firmware.config import LedConfig
from firmware.leds import neopixel_display
from firmware.ports import Light

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
from firmware.backend import open_real
from firmware.config import HardwareConfig

board.D10 = board.NEOPIXEL
before = len(writes)
hardware = open_real(HardwareConfig(), pin_factory=MockFactory())
real = {"simulated": hardware.is_simulated, "occupied": sorted(hardware.sensors.occupied()),
        "pixels": type(hardware.display.pixels).__name__}
hardware.display.show({"a1": Light((0, 255, 0))})
hardware.close()
real["writes"] = len(writes) - before
print(json.dumps({"kind": kind, "writes": writes, "missing": missing, "real": real}))
"""


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
