"""The firmware's errors: one root, as gpiozero has ``GPIOZeroError``.

Every error the firmware raises on purpose is a ``FirmwareError``, so a caller can catch the
firmware's refusals without catching its own bugs. Each kind also derives from the built-in
error it stands for (``ValueError`` for a bad value, ``RuntimeError`` for a wrong state), so
code that caught those before keeps working.
"""

from __future__ import annotations

from sudoku_table.sections import ConfigProblem


class FirmwareError(Exception):
    """Base of every error the firmware raises on purpose."""


class ConfigError(FirmwareError, ConfigProblem):
    """A config file that cannot be read or holds a bad value; the message names the key (a
    ``ValueError``; raised inside a section's validator, pydantic passes its text on)."""


class LayoutError(FirmwareError, ValueError):
    """A square, corner, rotation or matrix line that does not exist on the board."""


class FrameError(FirmwareError, ValueError):
    """A light, pattern, frame or brightness the LEDs cannot show."""


class HardwareError(FirmwareError, RuntimeError):
    """The hardware is closed, missing or not what the config describes."""


class HardwareUnavailable(FirmwareError, OSError):
    """The Pi's LED or GPIO libraries or pins cannot be opened (an ``OSError``, like a missing
    device file)."""


class NotifyError(FirmwareError, ValueError):
    """A service-manager notification that cannot be sent as given."""


class SimulatorError(FirmwareError, ValueError):
    """The simulated table was asked for something a hand or a fault cannot do."""
