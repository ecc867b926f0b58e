"""How long one 9x9 pass takes on a Pi 4 and a Pi 5: measured here, estimated there, for the
scan the table had before and the one it has now.

What is measured: the scan (``ReedMatrix.scan_once``) through gpiozero's real ``LGPIOFactory``
(now: the table's ``GroupLGPIOFactory``, which adds lgpio's group calls) and lgpio's real Python
module on this machine, with only lgpio's C calls into the kernel replaced by C built-ins that
return at once (there is no GPIO chip here). That is the Python cost of a pass, and the number
of lgpio calls (each one kernel call) it makes. "before" is the scan as the table had it (rows
pushed high while idle, each of the 81 columns read by its own call, straight after the row
change); "now" is the table's scan (open-drain rows written as a group, the nine columns read in
one call after each row's settle). The settle is a wait on the clock, not work: it is left out
of the measured Python time and added to the estimated pass.

What is estimated, from documented figures (printed with their sources):
- the Pi's Python speed relative to this machine, from each Pi's single-core benchmarks;
- the kernel's cost per GPIO call (one ioctl on /dev/gpiochip*), from libgpiod measurements on
  a Pi 5 and the Pi 4's slower cores.

    .venv/bin/python bench/bench_pi_scan.py [--passes N]

Prints the measured pass here, the estimated pass on a Pi 4 and a Pi 5, the scan rate, the
share of one core at the configured interval, and whether the interval is reachable.
"""

from __future__ import annotations

import argparse
import operator
import statistics
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

# Documented per-call costs (microseconds) and relative Python speed (this machine = 1).
PIS: dict[str, dict[str, Any]] = {
    "Pi 4 (Cortex-A72, 1.8 GHz)": {
        "slowdown": (4.0, 6.0),
        "ioctl_us": (1.5, 3.0),
    },
    "Pi 5 (Cortex-A76, 2.4 GHz)": {
        "slowdown": (1.8, 2.8),
        "ioctl_us": (0.7, 1.5),
    },
    "Zero 2 W (Cortex-A53, 1 GHz)": {
        "slowdown": (10.0, 15.0),
        "ioctl_us": (3.0, 5.0),
    },
}
SOURCES = """\
Sources of the estimate:
- Python speed: single-core pyperformance/Geekbench figures put a Pi 4 at 4-6x, a Pi 5 at
  1.8-2.8x and a Zero 2 W at 10-15x the time of a current x86 server core per Python
  instruction (a Pi 5 is documented by Raspberry Pi as 2-3x a Pi 4).
- Kernel cost per GPIO call: libgpiod on a Pi 5 toggles a line at about 0.5 MHz from C
  (raspberrypi/utils#73: about 1 us per ioctl) and 2.8 us per call from Python
  (vitiral/gpio#30); a Pi 4's cores take about twice as long per system call.
Nothing here ran on a Pi: the Pi figures are estimates, the first line is measured."""


def stubbed_lgpio(output_gpios: set[int]) -> None:
    """Replace lgpio's C calls into the kernel by C built-ins that return at once."""
    import lgpio
    from gpiozero.pins.lgpio import LGPIOPin

    real = lgpio._lgpio

    class Stub:
        def __getattr__(self, name: str) -> Any:
            return getattr(real, name)

    stub: Any = Stub()
    for name in ("_gpiochip_open", "_gpiochip_close", "_gpio_claim_input", "_gpio_claim_output",
                 "_gpio_free", "_gpio_set_debounce_micros", "_gpio_claim_alert",
                 "_group_claim_input", "_group_claim_output", "_group_free"):
        setattr(stub, name, lambda *args: 0)
    # (small Python functions, not C built-ins: they make "now" a little slower than it is)
    stub._group_read = lambda handle, gpio: [9, 0x1FF]  # nine columns, all open (high)
    stub._group_write = lambda handle, gpio, bits, mask: 0
    stub._gpio_get_mode = lambda handle, gpio: (
        LGPIOPin.GPIO_IS_OUT if gpio in output_gpios else 0)
    stub._gpio_read = operator.ne  # (handle 0, gpio) -> True: every column reads open (high)
    stub._gpio_write = max  # (handle, gpio, level) -> a non-negative int: "OK"
    lgpio._lgpio = stub


class Counter:
    """Counts the lgpio calls a pass makes."""

    def __init__(self) -> None:
        self.calls = 0

    def wrap(self, module: Any, name: str) -> None:
        inner = getattr(module, name)

        def counted(*args: Any) -> Any:
            self.calls += 1
            return inner(*args)

        setattr(module, name, counted)


def measure(scan: Any, passes: int, counted: tuple[str, ...]) -> tuple[float, float, int]:
    """The least disturbed and the median Python time per pass (us) and the lgpio calls of
    one pass."""
    import lgpio

    for _ in range(200):
        scan.scan_once()
    samples = []
    for _ in range(5):
        start = time.perf_counter()
        for _ in range(passes):
            scan.scan_once()
        samples.append((time.perf_counter() - start) / passes * 1e6)
    counter = Counter()
    originals = {name: getattr(lgpio, name) for name in counted}
    for name in counted:
        counter.wrap(lgpio, name)
    scan.scan_once()
    for name, function in originals.items():
        setattr(lgpio, name, function)
    return min(samples), statistics.median(samples), counter.calls


def estimate(here: float, calls: int, settle_us: float, figures: dict[str, Any],
             worst: int) -> float:
    """A pass on a Pi: this machine's Python time scaled, one kernel call per lgpio call,
    plus the settles."""
    return here * figures["slowdown"][worst] + calls * figures["ioctl_us"][worst] + settle_us


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--passes", type=int, default=3000)
    args = parser.parse_args(argv)

    import gpiozero.pins.local as local

    from sudoku_table.firmware.config import SensorConfig
    from sudoku_table.firmware.layout import SIZE
    from sudoku_table.firmware.matrix import ReedMatrix
    from tests.firmware.old_scan import TodaysScan

    config = SensorConfig()
    stubbed_lgpio(set(config.rows))
    local.get_pi_revision = lambda: 0xC03114  # a Pi 4 Model B: gpiozero's header map
    from gpiozero.pins.lgpio import LGPIOFactory

    from sudoku_table.firmware.lgpio_lines import GroupLGPIOFactory

    counted = ("gpio_read", "gpio_write", "gpio_get_mode", "group_read", "group_write")
    old_factory = LGPIOFactory(chip=0)
    before = TodaysScan(config, old_factory)
    results = {"before": measure(before, args.passes, counted)}
    before.close()
    old_factory.close()

    factory = GroupLGPIOFactory(chip=0)
    factory.settle = lambda seconds: None  # a wait, not work: added to the estimate below
    matrix = ReedMatrix(config, pin_factory=factory)
    results["now"] = measure(matrix, args.passes, counted)
    matrix.close()
    settles = {"before": 0.0, "now": (SIZE + 1) * config.line_settle_us}

    interval_ms = config.scan_interval_ms
    print("lgpio calls per 9x9 pass (one kernel call each):")
    print(f"  before: {results['before'][2]} (rows written twice, 9 + 81 column reads, and "
          "gpiozero asks each written pin its mode)")
    print(f"  now:    {results['now'][2]} (1 + 9 group reads of the columns, 9 + 1 group writes "
          f"of the rows) and {SIZE + 1} settles of {config.line_settle_us:g} us")
    for name, (here, median, _calls) in results.items():
        print(f"measured here, {name}: {here:.0f} us Python per pass (median of runs "
              f"{median:.0f} us)")
    print()
    core = f"core at {interval_ms:g} ms"
    print(f"{'board':<28} {'scan':<7} {'pass (us)':>14} {'passes/s':>12} {core:>14}  reachable")
    for board, figures in PIS.items():
        for name, (here, _median, calls) in results.items():
            low = estimate(here, calls, settles[name], figures, 0)
            high = estimate(here, calls, settles[name], figures, 1)
            rate = f"{1e6 / high:.0f}-{1e6 / low:.0f}"
            share = f"{low / (interval_ms * 10):.0f}-{high / (interval_ms * 10):.0f} %"
            reachable = "yes" if high < interval_ms * 1000 else "no"
            print(f"{board:<28} {name:<7} {low:>6.0f}-{high:<7.0f} {rate:>12} {share:>14}  "
                  f"{reachable}")
    print()
    print("The settle is a busy wait (a sleep of tens of microseconds would come back a "
          "scheduler tick later), so it counts in the core's share.")
    print(SOURCES)
    return 0


if __name__ == "__main__":
    sys.exit(main())
