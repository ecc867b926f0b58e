"""Game records (docs/records.md) and replaying them into states."""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from .actions import Action, action_from_json
from .errors import Illegal, IllegalActionError, RecordError
from .game import Game, Piece, State, new_game
from .wording import N_

MAX_NAME = 24
"""The longest player name a record keeps."""


@dataclass
class Record:
    """A game from its start: variant, players, options, setup and every action in order."""

    variant: str
    players: int | None = None
    options: dict[str, Any] = field(default_factory=dict)
    setup: dict[str, Piece] = field(default_factory=dict)
    actions: list[Action] = field(default_factory=list)
    names: list[str] = field(default_factory=list)
    """The players' names, in seat order (optional; empty when not known)."""

    @classmethod
    def from_json(cls, data: object) -> Record:
        """Parse a record object; ``RecordError`` names the first problem."""
        if not isinstance(data, Mapping):
            raise RecordError(N_("a record must be a JSON object"))
        if "record" in data and "variant" not in data:
            # A reference file: {"record": {...}, "state": {...}}; the record is what replays.
            return cls.from_json(data["record"])
        unknown = set(data) - {"variant", "players", "options", "setup", "actions", "names"}
        if unknown:
            raise RecordError(N_("a record has no field {unknown}"),
                              unknown=repr(sorted(unknown)[0]))
        variant = data.get("variant")
        if not isinstance(variant, str):
            raise RecordError(N_("variant must be a variant id, got {variant}"),
                              variant=repr(variant))
        players = data.get("players")
        options = data.get("options") or {}
        if not isinstance(options, Mapping):
            raise RecordError(N_("options must be an object"))
        game = new_game(variant, players, options)
        setup = game.parse_setup(data.get("setup"))
        actions_raw = data.get("actions", [])
        if not isinstance(actions_raw, list):
            raise RecordError(N_("actions must be a list"))
        actions = []
        for i, raw in enumerate(actions_raw):
            try:
                actions.append(action_from_json(raw))
            except RecordError as e:
                raise RecordError(N_("action {i}: {e}"), i=i, e=e) from None
        names = data.get("names", [])
        if (not isinstance(names, list) or len(names) > game.players
                or not all(isinstance(n, str) and len(n) <= MAX_NAME for n in names)):
            raise RecordError(N_("names must be a list of at most {players} names of at most "
                                 "{MAX_NAME} characters"),
                              players=game.players, MAX_NAME=MAX_NAME)
        return cls(variant, game.players, dict(game.options), setup, actions, list(names))

    @classmethod
    def loads(cls, text: str) -> Record:
        try:
            data = json.loads(text)
        except (json.JSONDecodeError, UnicodeDecodeError) as e:
            raise RecordError(N_("not valid JSON: {e}"), e=e) from None
        except RecursionError:
            raise RecordError(N_("not a record: the JSON is nested too deeply")) from None
        return cls.from_json(data)

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "variant": self.variant,
            "players": self.players,
            "options": dict(self.options),
            "setup": {c: p.to_json() for c, p in self.setup.items()},
            "actions": [a.to_json() for a in self.actions],
        }
        if self.names:
            data["names"] = list(self.names)
        return data

    def game(self) -> Game:
        return new_game(self.variant, self.players, self.options)


class ReplayError(IllegalActionError):
    """An illegal action in a record: which one (counted from 0) and why."""

    def __init__(self, index: int, action: Action, illegal: Illegal) -> None:
        super().__init__(illegal)
        self.index = index
        self.action = action

    def to_json(self) -> dict[str, Any]:
        return {"error": {"index": self.index, "action": self.action.to_json(),
                          "reason": self.illegal.reason, "cells": list(self.illegal.cells)}}


def replay(record: Record) -> tuple[Game, list[State]]:
    """Every state of the game, from the setup to the last action; ``ReplayError`` if one is
    illegal."""
    game = record.game()
    state = game.initial_state(record.setup or None)
    states = [state]
    for index, action in enumerate(record.actions):
        try:
            state = game.apply(state, action)
        except IllegalActionError as e:
            raise ReplayError(index, action, e.illegal) from None
        states.append(state)
    return game, states
