"""The errors the table raises for input from the panel."""

from __future__ import annotations


class InputError(ValueError):
    """A panel input that cannot be used; the message is shown to the players as it is."""


class ConfirmNeeded(InputError):
    """An input that would change something the players may not want changed (reopen a
    finished game, replace a running one): it is done only when sent again confirmed.
    ``code`` names what is to be confirmed."""

    def __init__(self, message: str, code: str) -> None:
        super().__init__(message)
        self.code = code
