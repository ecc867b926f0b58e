"""What is missing when the real table cannot open a part, and how a maker fixes it.

On a Pi the panel starts even when the reed matrix or the LEDs cannot be opened (a library not
installed, SPI off, a pin another driver holds, the service user not in a group): the part is
left out, and a :class:`HardwareProblem` says what is missing and the one thing to do about it,
in the log and on the panel's Table page. Before, the service exited and was restarted until
systemd gave up, which took the panel (and with it the only place a maker looks) down too.

The sentences are message ids (English, marked with ``N_`` for the panel's catalogs) with
``{placeholders}``; :meth:`HardwareProblem.english` fills them in for the log, and the panel
translates the id before filling it in.
"""

from __future__ import annotations

import errno
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

from . import bootconfig

BOOT_CONFIG = Path("/boot/firmware/config.txt")


def N_(text: str) -> str:  # noqa: N802 (gettext's own name for it)
    """Marks ``text`` for the catalogs; it is translated where it is shown."""
    return text


PARTS = {
    "sensors": N_("The reed switches: the table does not feel its pieces."),
    "leds": N_("The LEDs: the squares do not light."),
}
FIX_INSTALL = N_("Install the Pi's GPIO and LED libraries: run 'sudo make install' in the "
                 "table's source folder again.")
FIX_BOOT_LINE = N_("Line {number} of {file}, '{line}', gives {pins} to another driver: put '#' "
                   "in front of that line, then restart the Pi.")
FIX_PIN_BUSY = N_("Another program holds {pins}: stop it ('gpioinfo' names it) or give the "
                  "table other pins in its config, then restart the table.")
FIX_GROUP = N_("The table's service may not open {device}: run 'sudo usermod -aG {group} "
               "sudoku-table', then restart the Pi.")
FIX_SPI = N_("SPI0 is off: add 'dtoverlay=spi0-0cs' to {file} (the installer does), then "
             "restart the Pi.")
FIX_NO_GPIO = N_("No GPIO chip was found: this does not look like a Raspberry Pi, or its "
                 "kernel has no GPIO driver. Check the board, then restart the table.")
FIX_OTHER = N_("Check the wiring and the config, then restart the table: 'sudo systemctl "
               "restart sudoku-table'.")


@dataclass(frozen=True)
class HardwareProblem:
    """A part of the table that could not be opened."""

    part: str
    """``sensors`` or ``leds`` (:data:`PARTS` says what that means for a player)."""
    detail: str
    """What failed, as the library said it."""
    fix: str
    """The message id of the fix, with ``{placeholders}`` from ``params``."""
    params: dict[str, str] = field(default_factory=dict)

    @property
    def what(self) -> str:
        """What is missing, for a player (a message id)."""
        return PARTS[self.part]

    def english(self) -> str:
        """The whole problem in one line (for the log)."""
        return f"{self.what} ({self.detail}) {self.fix.format(**self.params)}"


def diagnose(part: str, error: BaseException, pins: dict[int, str],
             boot_config: Path = BOOT_CONFIG) -> HardwareProblem:
    """The problem an error opening ``part`` stands for, with its fix. ``pins``: the GPIOs the
    part uses and what for (a pin held by a config.txt line names that line)."""
    detail = f"{type(error).__name__}: {error}" if str(error) else type(error).__name__
    text = str(error).lower()
    if isinstance(error, ImportError):
        return HardwareProblem(part, detail, FIX_INSTALL)
    if "spidev" in text and ("missing" in text or "no such file" in text):
        return HardwareProblem(part, detail, FIX_SPI, {"file": str(boot_config)})
    if isinstance(error, PermissionError) or getattr(error, "errno", None) == errno.EACCES \
            or "permission denied" in text:
        device, group = ("/dev/spidev0.0", "spi") if "spi" in text or part == "leds" else (
            "/dev/gpiochip0", "gpio")
        return HardwareProblem(part, detail, FIX_GROUP, {"device": device, "group": group})
    if "busy" in text or "in use" in text:
        return _busy(part, detail, pins, boot_config)
    if "gpiochip" in text or "no pin factory" in text.replace("_", " ") or \
            "unable to load any default pin factory" in text:
        return HardwareProblem(part, detail, FIX_NO_GPIO)
    return HardwareProblem(part, detail, FIX_OTHER)


def _busy(part: str, detail: str, pins: dict[int, str],
          boot_config: Path) -> HardwareProblem:
    """A pin another driver holds: the config.txt line that gives it away, if one does."""
    try:
        text = boot_config.read_text(encoding="utf-8", errors="replace")
    except OSError:
        text = ""
    for conflict in bootconfig.conflicts(text, pins):
        return HardwareProblem(part, detail, FIX_BOOT_LINE, {
            "number": str(conflict.number), "file": str(boot_config), "line": conflict.line,
            "pins": _names(sorted(conflict.pins))})
    return HardwareProblem(part, detail, FIX_PIN_BUSY, {"pins": _names(sorted(pins))})


def _names(gpios: Sequence[int]) -> str:
    return ", ".join(f"GPIO{gpio}" for gpio in gpios)
