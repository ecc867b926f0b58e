"""The one error the table raises for bad input from the panel."""

from __future__ import annotations


class InputError(ValueError):
    """A panel input that cannot be used; the message is shown to the players as it is."""
