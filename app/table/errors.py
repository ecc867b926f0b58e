"""The errors the table raises for input from the panel."""

from __future__ import annotations

from typing import Any

from app.rules.errors import worded


class InputError(ValueError):
    """A panel input that cannot be used: an English template with named parameters, shown
    to the players in their language (``template``, ``params``; ``str()`` is the English)."""

    def __init__(self, message: str = "", **params: Any) -> None:
        self.template = message
        self.params = dict(params)
        super().__init__(worded(message, params))


class ConfirmNeeded(InputError):
    """An input that would change something the players may not want changed (reopen a
    finished game, replace a running one): it is done only when sent again confirmed.
    ``code`` names what is to be confirmed."""

    def __init__(self, message: str, code: str, **params: Any) -> None:
        super().__init__(message, **params)
        self.code = code


class StaleInput(InputError):
    """An input made from a view older than the last change it would answer (another phone,
    or the board, changed the game, the prompt or the pending piece since): nothing was done.
    ``view`` is the table's current view, for the panel to show before the players decide
    again."""

    def __init__(self, message: str, view: Any, **params: Any) -> None:
        super().__init__(message, **params)
        self.view = view
