"""Shutting the table down and restarting it from the panel, safely.

Pulling the plug while the system writes can spoil the SD card, so the panel offers a clean
power-off and a restart. On the Pi the service user asks systemd-logind over D-Bus
(``busctl call org.freedesktop.login1 ... PowerOff``); polkit allows that user exactly the
power-off and reboot actions (``systemd/install.sh`` installs the rule). Logind then stops every
service, the table's included (its journal is closed cleanly), and switches off.

The panel never switches off the computer it runs on unless that computer is a Raspberry Pi:
``[panel] power`` is ``"auto"`` (the default: a Pi running the real table), ``"system"`` (a Pi
even with the simulated table) or ``"off"``. Everywhere else the control is shown as
unavailable, with the reason. Tests hand in a fake bus command, never the real one.
"""

from __future__ import annotations

import logging
import shutil
import subprocess
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Protocol

log = logging.getLogger(__name__)

ACTIONS = ("poweroff", "reboot")
"""What the panel may ask for: switch off, or switch off and on again."""

SETTINGS = ("auto", "system", "off")
"""The values of ``[panel] power``."""

MODEL_FILE = Path("/proc/device-tree/model")

LOGIND = ("org.freedesktop.login1", "/org/freedesktop/login1",
          "org.freedesktop.login1.Manager")
METHODS = {"poweroff": ("CanPowerOff", "PowerOff"), "reboot": ("CanReboot", "Reboot")}

# Why the control is unavailable; the panel words each code
# (``sudoku_table.web.api.POWER_REASONS``).
OFF, NOT_PI, SIMULATED, DENIED, NO_BUS = "off", "not_pi", "simulated", "denied", "no_bus"


class PowerError(Exception):
    """The system refused or failed to power off or restart; the message says why."""


@dataclass(frozen=True, slots=True)
class PowerStatus:
    """Whether the panel may power off and restart, and if not, why (a code above)."""

    available: bool
    reason: str | None = None
    detail: str = ""


class Power(Protocol):
    """Powers the machine off or restarts it."""

    def status(self) -> PowerStatus: ...

    def run(self, action: str) -> None: ...


class NoPower:
    """The control switched off: it says why and refuses every action."""

    def __init__(self, reason: str) -> None:
        self.reason = reason

    def status(self) -> PowerStatus:
        return PowerStatus(False, self.reason)

    def run(self, action: str) -> None:
        raise PowerError(f"powering off is not available here ({self.reason})")


class LogindPower:
    """systemd-logind over the system bus through ``busctl`` (part of systemd, on every Pi).

    ``command`` is the bus client (``busctl``; tests give a fake one). ``status`` asks logind's
    ``CanPowerOff``/``CanReboot`` (``yes`` means polkit lets this user do it without asking) and
    keeps the answer for ``cache_seconds``."""

    def __init__(self, command: Sequence[str] | None = None, timeout: float = 10.0,
                 cache_seconds: float = 60.0,
                 clock: Callable[[], float] = time.monotonic) -> None:
        found = shutil.which("busctl")
        self.command = list(command) if command is not None else (
            [found] if found else [])
        self.timeout = timeout
        self.cache_seconds = cache_seconds
        self._clock = clock
        self._lock = threading.Lock()
        self._cached: tuple[float, PowerStatus] | None = None

    def _call(self, method: str, *args: str) -> str:
        if not self.command:
            raise PowerError("busctl is missing (it comes with systemd)")
        argv = [*self.command, "--system", "call", *LOGIND, method, *args]
        try:
            done = subprocess.run(argv, capture_output=True, text=True, timeout=self.timeout)
        except (OSError, subprocess.SubprocessError) as e:
            raise PowerError(f"{method}: {e}") from None
        if done.returncode != 0:
            said = (done.stderr or done.stdout).strip() or f"exit status {done.returncode}"
            raise PowerError(f"{method}: {said}")
        return done.stdout.strip()

    def status(self) -> PowerStatus:
        with self._lock:
            now = self._clock()
            if self._cached is not None and now - self._cached[0] < self.cache_seconds:
                return self._cached[1]
            answers = []
            try:
                for action in ACTIONS:
                    answers.append(self._call(METHODS[action][0]))
            except PowerError as e:
                found = PowerStatus(False, NO_BUS, str(e))
            else:
                # busctl prints a string reply as: s "yes"
                refused = [a for a in answers if a.split(None, 1)[-1].strip('"') != "yes"]
                found = (PowerStatus(True) if not refused
                         else PowerStatus(False, DENIED, "; ".join(refused)))
            self._cached = (now, found)
            return found

    def run(self, action: str) -> None:
        if action not in ACTIONS:
            raise PowerError(f"unknown power action {action!r}")
        log.warning("the panel asked to %s the table", action)
        with self._lock:
            self._cached = None  # ask again afterwards (after a refusal, say)
        # interactive=false: never wait for a password prompt nobody will answer.
        self._call(METHODS[action][1], "b", "false")


def is_raspberry_pi(model_file: Path = MODEL_FILE) -> bool:
    try:
        return model_file.read_bytes().startswith(b"Raspberry Pi")
    except OSError:
        return False


def choose(setting: str, simulated: bool, on_pi: bool | None = None) -> Power:
    """The power control for ``[panel] power`` on this machine: logind only on a Raspberry
    Pi, and with ``auto`` only when the real table is attached."""
    if setting not in SETTINGS:
        raise ValueError(f"power must be one of {', '.join(SETTINGS)}, got {setting!r}")
    if setting == "off":
        return NoPower(OFF)
    if not (is_raspberry_pi() if on_pi is None else on_pi):
        return NoPower(NOT_PI)
    if setting == "auto" and simulated:
        return NoPower(SIMULATED)
    return LogindPower()
