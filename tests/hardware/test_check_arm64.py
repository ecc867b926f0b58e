"""The arm64 check (``hardware/check-arm64.sh``) refuses bad input before touching anything, and
its LED probe (``hardware/led_probe.py``) reports every step and the right exit status.

The check itself builds a Debian root and runs for a long time under emulation: it is run by
hand (see the build guide), not here.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.integration

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = ROOT / "hardware" / "check-arm64.sh"
PROBE = ROOT / "hardware" / "led_probe.py"
STEP = re.compile(r"^(ok  |STOP) (.+?)(?:: (.*))?$")


def run_script(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(["bash", str(SCRIPT), *args], capture_output=True, text=True,
                          timeout=30, env=env, stdin=subprocess.DEVNULL)


def test_the_script_is_valid_bash_and_explains_itself() -> None:
    assert subprocess.run(["bash", "-n", str(SCRIPT)], timeout=30).returncode == 0
    result = run_script("--help")
    assert result.returncode == 0, result.stderr
    for option in ("--cache DIR", "--runner NAME", "--source WHAT", "--fresh", "--mirror URL"):
        assert option in result.stdout, option
    assert "shellcheck" not in result.stdout  # the help ends before the code starts


@pytest.mark.parametrize(("args", "message"), [
    (["--bogus"], "unknown argument '--bogus'"),
    (["--runner", "docker"], "--runner must be auto, binfmt or proot"),
    (["--source", "branch"], "--source must be head or tree"),
    (["--cache"], "--cache needs a directory"),
])
def test_bad_arguments_stop_with_a_message(args: list[str], message: str) -> None:
    result = run_script(*args)
    assert result.returncode == 2
    assert message in result.stderr
    assert result.stdout == ""


def test_a_cache_inside_the_source_tree_is_refused_and_not_created(tmp_path: Path) -> None:
    inside = ROOT / "build" / "arm64-cache-test"
    assert not inside.exists()
    result = run_script("--cache", str(inside))
    assert result.returncode == 2
    assert "lies inside the source tree" in result.stderr
    assert not inside.exists()
    # XDG_CACHE_HOME is the default's base: inside the tree is refused the same way.
    env = dict(os.environ, XDG_CACHE_HOME=str(ROOT / "build"))
    result = run_script(env=env)
    assert result.returncode == 2 and "lies inside the source tree" in result.stderr
    assert not (ROOT / "build" / "sudoku-table").exists()


def probe(board: str | None, *args: str) -> tuple[int, list[tuple[str, str, str]], str]:
    """Run the probe with Blinka forced to ``board`` (or to no Pi at all); its status, its
    step lines as (result, label, detail) and its whole output."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("BLINKA_")}
    if board is None:
        env["BLINKA_OS_AGNOSTIC"] = "1"
    else:
        env.update(BLINKA_FORCEBOARD=board, BLINKA_FORCECHIP="BCM2XXX")
    result = subprocess.run([sys.executable, str(PROBE), *args], capture_output=True, text=True,
                            timeout=120, env=env, cwd=ROOT)
    steps = []
    for line in result.stdout.splitlines()[2:]:
        match = STEP.match(line)
        assert match, f"not a step line: {line!r}"
        steps.append((match[1].strip(), match[2], match[3] or ""))
    return result.returncode, steps, result.stdout + result.stderr


@pytest.mark.parametrize(("board", "driver", "module"), [
    ("RASPBERRY_PI_4B", "spi", "neopixel_spi"),
    ("RASPBERRY_PI_5", "spi", "neopixel_spi"),
    ("RASPBERRY_PI_4B", "neopixel", "neopixel"),
])
def test_the_probe_reports_every_step_under_a_forced_pi(board: str, driver: str,
                                                        module: str) -> None:
    status, steps, output = probe(board, "--driver", driver)
    assert output.startswith(f"forced: BLINKA_FORCEBOARD={board} BLINKA_FORCECHIP=BCM2XXX; "
                             f"LED driver {driver}\n")
    labels = [label for _, label, _ in steps]
    expected = ["platform detection", "Blinka's platform packages", "import board",
                "import busio", f"import {module}", "import sudoku_table.firmware.leds"]
    if driver == "spi":
        expected.append("open SPI0 (board.SPI())")
    expected.append(f"open the LED chain as the firmware does (driver {driver}, 81 LEDs)")
    assert labels == expected
    assert steps[0] == ("ok", "platform detection", f"board {board}, chip BCM2XXX")
    assert "gpiod>=2.2.2,<3" in steps[1][2]  # what Blinka asks for on every Pi
    # No PC has the Pi's devices: opening the chain stops, and says where.
    result, _, detail = steps[-1]
    assert result == "STOP" and re.search(r"\(at [\w/.]+\.py:\d+\)$", detail), detail
    # Exit 1 exactly when a module could not be imported, at an import step or while opening.
    import_stops = [s for s in steps if s[0] == "STOP" and (
        s[1].startswith("import ") or re.search(r"ImportError|ModuleNotFoundError|importing\.py",
                                                s[2]))]
    assert status == (1 if import_stops else 0), output


def test_the_probe_refuses_a_board_that_is_not_a_pi() -> None:
    status, steps, _ = probe(None)
    assert status == 2
    assert steps == [("STOP", "platform detection", steps[0][2])]
    assert "is not a 40-pin Raspberry Pi" in steps[0][2]
