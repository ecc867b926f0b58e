"""The companion between the wires and the rules: sensor events and panel inputs become game
actions, the physical board is kept in agreement with the game, the LEDs speak the signal words
of docs/api.md, and a journal makes every accepted action survive a power cut."""

from .errors import ConfirmNeeded, InputError, StaleInput
from .table import Table

__all__ = ["ConfirmNeeded", "InputError", "StaleInput", "Table"]
