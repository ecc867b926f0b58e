"""The build guide and the wiring diagram (``hardware/``) agree with the firmware's pins."""

from __future__ import annotations

import importlib.util
import re
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path
from types import ModuleType

import pytest

from sudoku_table.firmware.config import FIXED_PULL_UPS, BuzzerConfig, LedConfig, SensorConfig
from sudoku_table.firmware.leds import cap_current, frame_current_ma

ROOT = Path(__file__).resolve().parents[2]
HARDWARE = ROOT / "hardware"
SVG = "{http://www.w3.org/2000/svg}"
FILES = "abcdefghi"


@pytest.fixture(scope="module")
def wiring() -> ModuleType:
    spec = importlib.util.spec_from_file_location("hardware_wiring", HARDWARE / "wiring.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="module")
def guide() -> str:
    return (HARDWARE / "README.md").read_text(encoding="utf-8")


@pytest.mark.integration
def test_the_committed_diagram_is_up_to_date_and_well_formed(wiring: ModuleType) -> None:
    committed = (HARDWARE / "wiring.svg").read_text(encoding="utf-8")
    assert committed == wiring.render(), "run: python hardware/wiring.py"
    root = ET.fromstring(committed.encode())
    assert root.tag == SVG + "svg"
    result = subprocess.run([sys.executable, str(HARDWARE / "wiring.py"), "--check"],
                            capture_output=True, text=True, timeout=30)
    assert result.returncode == 0, result.stderr


def test_the_diagram_shows_a_switch_and_diode_per_square_and_81_leds(wiring: ModuleType) -> None:
    root = ET.fromstring(wiring.render().encode())
    squares = [g for g in root.iter(SVG + "g") if g.get("class") == "square"]
    assert sorted(g.get("data-square", "") for g in squares) == sorted(
        f"{f}{r}" for f in FILES for r in range(1, 10))
    for g in squares:
        assert len(g.findall(f"{SVG}polygon")) == 1  # the diode
    leds = [e for e in root.iter(SVG + "rect") if e.get("class") == "led"]
    assert [int(e.get("data-index", "-1")) for e in leds] == list(range(81))
    for part in ("level-shifter", "resistor", "supply", "fuse", "capacitor", "chain"):
        assert root.find(f".//*[@id='{part}']") is not None, part
    texts = " ".join(t.text or "" for t in root.iter(SVG + "text"))
    assert "74AHCT125N" in texts and "330 ohm" in texts and "1000 uF" in texts


def test_the_header_labels_each_gpio_at_its_physical_pin(wiring: ModuleType) -> None:
    sensors, leds = SensorConfig(), LedConfig()
    root = ET.fromstring(wiring.render(sensors, leds).encode())
    labels = {int(t.get("data-pin", "0")): t.text for t in root.iter(SVG + "text")
              if t.get("data-pin")}
    assert len(labels) == 40
    for rank, gpio in enumerate(sensors.rows, 1):
        assert labels[wiring.physical_pin(gpio)] == f"GPIO{gpio} ROW{rank}"
    for i, gpio in enumerate(sensors.columns):
        assert labels[wiring.physical_pin(gpio)] == f"GPIO{gpio} COL{FILES[i]}"
    assert labels[wiring.physical_pin(leds.data_pin)] == f"GPIO{leds.data_pin} LED DATA"
    # The header map itself: 28 GPIOs once each, the supply pins where every Pi has them.
    gpios = [v for v in wiring.HEADER.values() if isinstance(v, int)]
    assert sorted(gpios) == list(range(28))
    assert [p for p, v in wiring.HEADER.items() if v == "5V"] == [2, 4]
    assert [p for p, v in wiring.HEADER.items() if v == "GND"] == [6, 9, 14, 20, 25, 30, 34, 39]


def test_a_different_config_redraws_the_pins(wiring: ModuleType) -> None:
    sensors = SensorConfig(rows=(4, 5, 6, 14, 8, 9, 11, 16, 17))
    root = ET.fromstring(wiring.render(sensors, LedConfig(data_pin=18)).encode())
    labels = {int(t.get("data-pin", "0")): t.text for t in root.iter(SVG + "text")
              if t.get("data-pin")}
    assert labels[8] == "GPIO14 ROW4" and labels[12] == "GPIO18 LED DATA"


def test_the_guide_pin_table_matches_the_firmware_defaults(wiring: ModuleType,
                                                          guide: str) -> None:
    sensors, leds = SensorConfig(), LedConfig()
    rows = dict(re.findall(r"\| ROW(\d) \(rank \d\) \| GPIO(\d+) \(\d+\) \|", guide))
    columns = dict(re.findall(r"\| COL([a-i]) \(file [a-i]\) \| GPIO(\d+) \(\d+\) \|", guide))
    assert {int(k): int(v) for k, v in rows.items()} == {
        i + 1: g for i, g in enumerate(sensors.rows)}
    assert {k: int(v) for k, v in columns.items()} == {
        FILES[i]: g for i, g in enumerate(sensors.columns)}
    for gpio, pin in re.findall(r"GPIO(\d+) \((\d+)\)", guide):
        assert wiring.physical_pin(int(gpio)) == int(pin), f"GPIO{gpio} is not pin {pin}"
    assert f"| LED DATA | GPIO{leds.data_pin} (" in guide
    assert not FIXED_PULL_UPS & (set(sensors.rows) | set(sensors.columns))


def test_the_guide_power_budget_matches_the_firmware_model(guide: str) -> None:
    leds = LedConfig()
    white = [(255, 255, 255)] * 81
    uncapped = frame_current_ma(white, leds)
    assert 4800 <= uncapped <= 5000 and "**~4.9 A**" in guide
    capped, factor = cap_current(white, leds)
    assert frame_current_ma(capped, leds) <= leds.max_current_ma and factor < 1
    assert f"`max_current_ma = {leds.max_current_ma:g}`" in guide
    assert f"**{leds.max_current_ma / 1000:g} A**" in guide


def test_the_guide_covers_the_build(guide: str) -> None:
    for needed in ("MDSR-7", "1N4148", "WS2812B", "74AHCT125N", "Mean Well", "1000 uF",
                   "330", "ghost", "sudoku-table selftest", "sudoku-table overlay",
                   "Pi 5", "Zero 2 W", "/dev/pio0", "spidev", "make install", "fuse"):
        assert needed in guide, needed


@pytest.mark.integration
def test_the_script_draws_a_users_config(tmp_path: Path) -> None:
    config = tmp_path / "table.toml"
    config.write_text("[leds]\ndriver = \"neopixel\"\ndata_pin = 15\n", encoding="utf-8")
    output = tmp_path / "mine.svg"
    script = str(HARDWARE / "wiring.py")
    result = subprocess.run([sys.executable, script, "--config", str(config), "--output",
                             str(output)], capture_output=True, text=True, timeout=30)
    assert result.returncode == 0, result.stderr
    labels = {t.get("data-pin"): t.text for t in ET.parse(output).getroot().iter(SVG + "text")}
    assert labels["10"] == "GPIO15 LED DATA" and labels["19"] == "GPIO10"
    config.write_text("[leds]\ndriver = \"neopixel\"\ndata_pin = 4\n", encoding="utf-8")  # a row
    result = subprocess.run([sys.executable, script, "--config", str(config), "--output", "-"],
                            capture_output=True, text=True, timeout=30)
    assert result.returncode == 2 and "leds.data_pin" in result.stderr
    assert result.stdout == ""


def test_the_diagram_and_the_guide_wire_the_buzzer_where_the_config_expects_it(
        wiring: ModuleType, guide: str) -> None:
    pin = BuzzerConfig().pin
    root = ET.fromstring(wiring.render().encode())
    labels = {int(t.get("data-pin", "0")): t.text for t in root.iter(SVG + "text")
              if t.get("data-pin")}
    assert labels[wiring.physical_pin(pin)] == f"GPIO{pin} BUZZER"
    assert f"| BUZZER (optional) | GPIO{pin} ({wiring.physical_pin(pin)}) |" in guide
    texts = [t.text for t in root.iter(SVG + "text")]
    assert f"GPIO{pin} BUZZER (header pin {wiring.physical_pin(pin)})" in texts


def test_the_speaker_keeps_clear_of_the_matrix_the_leds_and_the_buzzer(wiring: ModuleType,
                                                                        guide: str) -> None:
    from sudoku_table.firmware.config import (
        I2S_PINS,
        SPI_OTHERS,
        ConfigError,
        from_mapping,
        load_config,
    )

    # The default matrix uses the I2S pins: with an I2S amplifier the config check refuses it.
    with pytest.raises(ConfigError, match=r"GPIO18, the I2S amplifier's BCLK"):
        from_mapping({"speaker": {"i2s": True}})
    # The I2S build's pins: every line once, none on I2S, SPI0, the buzzer or a fixed pull-up.
    config = load_config(HARDWARE / "speaker-i2s.toml")
    assert config.speaker.i2s and config.speaker.device == "plughw:CARD=MAX98357A"
    used = [*config.sensors.rows, *config.sensors.columns, config.leds.data_pin,
            config.buzzer.pin]
    assert len(used) == len(set(used))
    assert not set(used) & (set(I2S_PINS) | set(SPI_OTHERS) | FIXED_PULL_UPS)
    # Its diagram is committed and up to date, the amplifier on the I2S pins.
    drawn = wiring.render(config.sensors, config.leds, config.buzzer, config.speaker,
                          source="speaker-i2s.toml")
    assert (HARDWARE / "wiring-i2s.svg").read_text(encoding="utf-8") == drawn, \
        "run: python hardware/wiring.py --config hardware/speaker-i2s.toml --output " \
        "hardware/wiring-i2s.svg"
    root = ET.fromstring(drawn.encode())
    labels = {int(t.get("data-pin", "0")): t.text for t in root.iter(SVG + "text")
              if t.get("data-pin")}
    for gpio, line in I2S_PINS.items():
        assert labels[wiring.physical_pin(gpio)] == f"GPIO{gpio} I2S {line}"
        assert f"| I2S {line} (amplifier) | GPIO{gpio} ({wiring.physical_pin(gpio)}) |" in guide
    for i in (4, 5, 7):
        gpio = config.sensors.columns[i]
        assert labels[wiring.physical_pin(gpio)] == f"GPIO{gpio} COL{FILES[i]}"
        assert f"COL{FILES[i]} (file {FILES[i]}) moves to | GPIO{gpio} (" in guide
    assert root.find(".//*[@id='amplifier']") is not None
    # The default diagram: a speaker on no pin (USB or the Pi 4's jack).
    default = ET.fromstring(wiring.render().encode())
    assert default.find(".//*[@id='speaker']") is not None
    assert default.find(".//*[@id='amplifier']") is None


@pytest.mark.parametrize("name", ["README.md", "README.de.md"])
def test_both_guides_build_the_speaker(name: str) -> None:
    text = (HARDWARE / name).read_text(encoding="utf-8")
    for needed in ("MAX98357A", "CM108", "dtoverlay=max98357a,no-sdmode", "force_eeprom_read=0",
                   "plughw:CARD=Headphones", "plughw:CARD=Device", "hardware/speaker-i2s.toml",
                   "hardware/wiring-i2s.svg", "sudoku-table speak", "Zero 2 W", "aplay -l",
                   "| I2S DIN ", "GPIO0 (27)"):
        assert needed in text, (name, needed)
