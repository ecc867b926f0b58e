"""Errors of the rules layer; all share the root ``RulesError`` (a ``ValueError``).

Every message is an English template with named parameters (``"{number} is already in
{houses}"``, ``number=3``): ``str()`` gives the English sentence, and the panel words the same
template in the player's language from its catalog (``template`` and ``params``).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any


def english_list(items: list[Any]) -> str:
    """``a``, ``a and b``, ``a, b and c``."""
    words = [str(i) for i in items]
    return " and ".join(words) if len(words) < 3 else ", ".join(words[:-1]) + " and " + words[-1]


def worded(template: str, params: Mapping[str, Any]) -> str:
    """``template`` with its parameters filled in (left as it is without parameters); a list
    parameter (of areas, say) is said as a list."""
    if not params:
        return template
    return template.format(**{k: english_list(v) if isinstance(v, list) else v
                              for k, v in params.items()})


class RulesError(ValueError):
    """Root of every error the rules raise for bad input."""

    def __init__(self, message: str = "", **params: Any) -> None:
        self.template = message
        self.params = dict(params)
        super().__init__(worded(message, params))


class RecordError(RulesError):
    """A malformed record, setup, option or action: wrong type, unknown cell or variant."""


class UnknownVariantError(RecordError):
    """No variant has this id."""


class Illegal:
    """Why an action is not allowed (``reason``, from a template and its parameters), and the
    cells that conflict with it (may be empty). Equal when reason and cells are."""

    __slots__ = ("cells", "params", "reason", "template")

    def __init__(self, reason: str, cells: tuple[str, ...] = (), **params: Any) -> None:
        self.template = reason
        self.params = dict(params)
        self.reason = worded(reason, params)
        self.cells = tuple(cells)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Illegal):
            return NotImplemented
        return (self.reason, self.cells) == (other.reason, other.cells)

    def __hash__(self) -> int:
        return hash((self.reason, self.cells))

    def __repr__(self) -> str:
        return f"Illegal(reason={self.reason!r}, cells={self.cells!r})"

    def to_json(self) -> dict[str, Any]:
        return {"reason": self.reason, "cells": list(self.cells)}

    def said(self) -> dict[str, Any]:
        """The reason as the panel translates it: its template and parameters."""
        return {"text": self.template, "params": dict(self.params)}


class IllegalActionError(RulesError):
    """An action the rules do not allow; ``illegal`` says why."""

    def __init__(self, illegal: Illegal) -> None:
        super().__init__(illegal.template, **illegal.params)
        self.illegal = illegal
