"""The boot config check: which config.txt lines give a pin of the table to the kernel."""

from __future__ import annotations

import tomllib
from pathlib import Path

from sudoku_table.firmware import bootconfig
from sudoku_table.firmware.config import HardwareConfig, load_config

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = ROOT / "src" / "sudoku_table" / "firmware" / "table.example.toml"
I2S_BUILD = ROOT / "hardware" / "speaker-i2s.toml"


def example() -> dict[str, object]:
    with EXAMPLE.open("rb") as f:
        return tomllib.load(f)


def pins_of(config: dict[str, object]) -> dict[int, str]:
    return bootconfig.table_pins(config, example())


def test_the_table_s_pins_are_read_as_the_firmware_reads_them() -> None:
    """The stdlib-only reading (the installer's, before the venv exists) names the same pins as
    the firmware's own config: the example's values are the defaults."""
    defaults = HardwareConfig()
    pins = pins_of({})
    assert set(pins) == {*defaults.sensors.rows, *defaults.sensors.columns, defaults.buzzer.pin}
    assert pins[4] == "matrix row rank 1" and pins[7] == "matrix column file i"
    with I2S_BUILD.open("rb") as f:
        i2s = pins_of(tomllib.load(f))
    assert set(i2s) >= set(load_config(I2S_BUILD).sensors.columns)


def test_a_fresh_raspberry_pi_os_config_claims_nothing_once_spi_is_the_installer_s() -> None:
    text = ("dtparam=audio=on\ncamera_auto_detect=1\ndisplay_auto_detect=1\nauto_initramfs=1\n"
            "dtoverlay=vc4-kms-v3d\nmax_framebuffers=2\narm_64bit=1\n[cm5]\n"
            "dtoverlay=dwc2,dr_mode=host\n[all]\n#dtparam=spi=on\n#dtparam=i2c_arm=on\n")
    assert bootconfig.conflicts(text, pins_of({})) == []


def test_lines_that_claim_matrix_pins_are_named_with_what_to_change() -> None:
    text = "dtparam=spi=on\ndtoverlay=w1-gpio\ndtparam=i2s=on\ndtoverlay=gpio-fan\n"
    found = bootconfig.conflicts(text, pins_of({}))
    assert [(c.number, sorted(c.pins)) for c in found] == [
        (1, [7, 8]), (2, [4]), (3, [18, 19, 20, 21]), (4, [12])]
    message = found[1].message("/boot/firmware/config.txt")
    assert "line 2: 'dtoverlay=w1-gpio' claims GPIO4 (matrix row rank 1)" in message
    assert "gpiopin=N" in message


def test_the_amplifier_overlay_claims_gpio4_unless_no_sdmode() -> None:
    assert bootconfig.claimed("dtoverlay=max98357a") == {4, 18, 19, 20, 21}
    assert bootconfig.claimed("dtoverlay=max98357a,no-sdmode") == {18, 19, 20, 21}
    assert bootconfig.claimed("dtoverlay=max98357a,sdmode-pin=26") == {18, 19, 20, 21, 26}


def test_the_installer_s_own_block_passes_for_the_i2s_build() -> None:
    """What the installer writes for the I2S build claims no pin of that build's matrix."""
    with I2S_BUILD.open("rb") as f:
        pins = pins_of(tomllib.load(f))
    block = ["dtoverlay=spi0-0cs", "core_freq=500", "dtoverlay=max98357a,no-sdmode",
             "force_eeprom_read=0"]
    assert bootconfig.conflicts("\n".join(block), pins) == []
    assert bootconfig.conflicts("dtoverlay=max98357a", pins)  # without no-sdmode: GPIO4


def test_parameters_move_or_free_pins_and_off_turns_a_param_off() -> None:
    assert bootconfig.claimed("dtoverlay=w1-gpio,gpiopin=26") == {26}
    assert bootconfig.claimed("dtoverlay=spi0-0cs,no_miso") == {10, 11}
    assert bootconfig.claimed("dtparam=spi=off") == frozenset()
    assert bootconfig.claimed("dtparam=audio=on,spi=on") == {7, 8, 9, 10, 11}
    assert bootconfig.claimed("# dtoverlay=w1-gpio") == frozenset()
    assert bootconfig.claimed("enable_uart=1") == {14, 15}
    assert bootconfig.claimed("enable_uart=0") == frozenset()


def test_the_command_line_exits_1_and_prints_the_line(tmp_path: Path, capsys: object) -> None:
    boot = tmp_path / "config.txt"
    boot.write_text("[all]\ndtoverlay=w1-gpio\n", encoding="utf-8")
    assert bootconfig.main(["--example", str(EXAMPLE), str(boot)]) == 1
    boot.write_text("[all]\n# >>> mine\ndtoverlay=w1-gpio\n# <<< mine\n", encoding="utf-8")
    assert bootconfig.main(["--example", str(EXAMPLE), "--block-start", "# >>> mine",
                            "--block-end", "# <<< mine", str(boot)]) == 0
