"""hardware/check_overlays.py reads compiled overlays as the Pi's firmware applies them: an
overlay written here for the purpose (compiled with Debian's dtc) has a GPIO-taking device, a
pin group it changes, a controller it switches on, and parameters that swap fragments and move
a pin."""

from __future__ import annotations

import importlib.util
import shutil
import subprocess
import sys
from pathlib import Path
from types import ModuleType

import pytest

ROOT = Path(__file__).resolve().parents[2]

OVERLAY = """/dts-v1/;
/plugin/;
/ {
    compatible = "brcm,bcm2835";
    fragment@0 { target = <&i2s>; __overlay__ { status = "okay"; }; };
    fragment@1 {
        target-path = "/";
        __overlay__ { amp: amp { compatible = "test,amp"; enable-gpios = <&gpio 4 0>; }; };
    };
    fragment@2 {
        target-path = "/";
        __dormant__ { amp_plain: amp { compatible = "test,amp"; }; };
    };
    fragment@3 { target = <&spi0_cs_pins>; __overlay__ { brcm,pins; }; };
    fragment@4 { target = <&spi0>; __overlay__ { status = "okay"; }; };
    __overrides__ {
        no-enable = <0>, "-1+2";
        enable-pin = <&amp>, "enable-gpios:4";
    };
};
"""


def load_tool() -> ModuleType:
    spec = importlib.util.spec_from_file_location("check_overlays",
                                                  ROOT / "hardware" / "check_overlays.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["check_overlays"] = module
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="module")
def compiled(tmp_path_factory: pytest.TempPathFactory) -> bytes:
    dtc = shutil.which("dtc")
    assert dtc, "Debian's device-tree-compiler is needed: sudo apt-get install device-tree-compiler"
    folder = tmp_path_factory.mktemp("overlay")
    (folder / "test-overlay.dts").write_text(OVERLAY, encoding="utf-8")
    subprocess.run([dtc, "-@", "-q", "-I", "dts", "-O", "dtb", "-o", str(folder / "t.dtbo"),
                    str(folder / "test-overlay.dts")], check=True)
    return (folder / "t.dtbo").read_bytes()


def test_the_active_fragments_claim_their_gpios_and_groups(compiled: bytes) -> None:
    tool = load_tool()
    pins = tool.Overlay.load(compiled, {}).claimed()
    # enable-gpios GPIO4; I2S on: 18-21; SPI0 on with its CS group emptied: 9-11 only.
    assert pins == {4, 9, 10, 11, 18, 19, 20, 21}


def test_a_parameter_swaps_fragments_as_the_firmware_does(compiled: bytes) -> None:
    tool = load_tool()
    assert 4 not in tool.Overlay.load(compiled, {"no-enable": "on"}).claimed()
    assert 4 in tool.Overlay.load(compiled, {"no-enable": "off"}).claimed()


def test_a_parameter_moves_a_pin(compiled: bytes) -> None:
    tool = load_tool()
    pins = tool.Overlay.load(compiled, {"enable-pin": "26"}).claimed()
    assert 26 in pins and 4 not in pins


def test_an_unknown_parameter_or_file_is_refused(compiled: bytes) -> None:
    tool = load_tool()
    with pytest.raises(ValueError, match="no parameter"):
        tool.Overlay.load(compiled, {"nonsense": "on"})
    with pytest.raises(ValueError, match="not a flattened device tree"):
        tool.read_fdt(b"\0" * 64)
