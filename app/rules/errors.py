"""Errors of the rules layer; all share the root ``RulesError`` (a ``ValueError``)."""

from __future__ import annotations

from dataclasses import dataclass


class RulesError(ValueError):
    """Root of every error the rules raise for bad input."""


class RecordError(RulesError):
    """A malformed record, setup, option or action: wrong type, unknown cell or variant."""


class UnknownVariantError(RecordError):
    """No variant has this id."""


@dataclass(frozen=True)
class Illegal:
    """Why an action is not allowed, and the cells that conflict with it (may be empty)."""

    reason: str
    cells: tuple[str, ...] = ()

    def to_json(self) -> dict:
        return {"reason": self.reason, "cells": list(self.cells)}


class IllegalActionError(RulesError):
    """An action the rules do not allow; ``illegal`` says why."""

    def __init__(self, illegal: Illegal) -> None:
        super().__init__(illegal.reason)
        self.illegal = illegal
