"""The errors the table raises for input from the panel."""

from __future__ import annotations

from typing import Any

from sudoku_table.rules.errors import worded


class InputError(ValueError):
    """A panel input that cannot be used: an English template with named parameters, shown
    to the players in their language (``template``, ``params``; ``str()`` is the English)."""

    def __init__(self, message: str = "", **params: Any) -> None:
        self.template = message
        self.params = dict(params)
        super().__init__(worded(message, params))


class NotYourSeat(InputError):
    """An input from a seat's own phone for what is not that seat's to do now (another
    player's turn, or what only the shared panel does): refused, nothing changed."""


class ConfirmNeeded(InputError):
    """An input that would change something the players may not want changed (reopen a
    finished game, replace a running one): it is done only when sent again confirmed.
    ``code`` names what is to be confirmed."""

    def __init__(self, message: str, code: str, **params: Any) -> None:
        super().__init__(message, **params)
        self.code = code


class CannotSave(InputError):
    """The table cannot save now (its disk is full, read-only or failing), so the input was not
    accepted and nothing changed; ``cause`` says why (``full``, ``read_only``, ``io``,
    ``other``). The view's ``table.saving`` says what waits and what to do."""

    def __init__(self, message: str, cause: str = "other", **params: Any) -> None:
        super().__init__(message, **params)
        self.cause = cause


class StaleInput(InputError):
    """An input made from a view older than the last change it would answer (another phone,
    or the board, changed the game, the prompt or the pending piece since): nothing was done.
    ``view`` is the table's current view, for the panel to show before the players decide
    again."""

    def __init__(self, message: str, view: Any, **params: Any) -> None:
        super().__init__(message, **params)
        self.view = view


class NoAnswer(InputError):
    """Another table did not answer in time (a join code whose host is off, or on another
    broker): nothing changed here."""
