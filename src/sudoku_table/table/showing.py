"""The view's table part assembled from what the table holds (docs/api.md, ``view.TableView``):
the board the sensors feel, the table's own notices and saving state, and, while a game runs,
what ``present.look`` computed for it; and which change a panel input answers (``Answered``).
Pure functions beside that one record; the table calls them under its lock."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any, Literal, TypedDict

from sudoku_table.rules.actions import Discard, Joker
from sudoku_table.rules.squares import SQUARES

from . import announce, placing, present, signals
from .companion import Companion
from .computer import computers_json
from .view import Message, TableView, render, render_next


def answers(c: Companion | None, look: present.Look | None) -> tuple[Any, ...]:
    """What a panel input answers (after ``present.look``): the game and its state, the
    prompt, the pending piece, the number chosen before its piece, the computer's card as told
    and the hints switch. A felt (tentative) square, the computer's thinking, a hint found, a
    message or a fault change none of it, so an input made before them is not stale."""
    if c is None:
        return ()
    pending = c.pending
    return (c, c.state, look.prompt if look is not None else None,
            None if pending is None else (pending.square, pending.number),
            c.in_hand, c.known_hand, c.hints)


def same_answers(a: tuple[Any, ...], b: tuple[Any, ...]) -> bool:
    """Two ``answers`` equal: the companion and the state the very same objects (a new state
    is a new object), the rest equal in value."""
    if len(a) != len(b):
        return False
    return all(x is y if i < 2 else x == y for i, (x, y) in enumerate(zip(a, b, strict=True)))


class Answered:
    """The version of the last change a panel input answers (``answers``): an input made from an
    older view, or from a view the table never showed, is stale."""

    def __init__(self) -> None:
        self._answers: tuple[Any, ...] = ()
        self.version = 0

    def note(self, c: Companion | None, look: present.Look | None, version: int) -> None:
        """After the change that made ``version``: kept when it changed what an input answers."""
        now = answers(c, look)
        if not same_answers(now, self._answers):
            self._answers, self.version = now, version

    def stale(self, version: int | None, newest: int) -> bool:
        """An input made from view ``version`` (None: not said) while ``newest`` is shown is
        stale: older than the last change it answers, or newer than the table's views."""
        return version is not None and not self.version <= version <= newest


def said(last: announce.Announcement | None) -> dict[str, Any]:
    """The view's ``say``: the last announcement, its seats named."""
    return announce.view(last, announce.seat_names(last["seats"], str) if last else [])


def moves(companion: Companion) -> list[dict[str, Any]]:
    """Every action of the game with who made it and what it scored, for the end screen."""
    states = companion.states
    return [{"player": companion.history.player_of(i), "action": action.to_json(),
             "points": list(states[i + 1].last.points),
             "completed": list(states[i + 1].last.completed),
             "claimed": list(states[i + 1].last.claimed)}
            for i, action in enumerate(companion.actions)]


class Hand(TypedDict):
    """A seat's own card or stone, dealt by the table, and what it can do with it now."""

    number: int
    do: Literal["place", "set_aside", "joker"]


def hand(c: Companion, seat: int) -> Hand | None:
    """Seat ``seat``'s dealt card or stone while it is to move (None otherwise): to place, to
    set aside (it fits nowhere, where the game lets it), or to lay face down as a joker."""
    number = c.dealer.card(seat)
    if number is None:
        return None
    state = c.state
    if not any(number in c.game.placeable_numbers(state, cell)
               for cell in c.game.geometry.cells if cell not in state.board):
        if c.history.check(Discard(number)) is None:
            return {"number": number, "do": "set_aside"}
        if any(c.history.check(Joker(cell, number)) is None
               for cell in c.game.geometry.cells if cell not in state.board):
            return {"number": number, "do": "joker"}
    return {"number": number, "do": "place"}


def hint_view(c: Companion, thinking: bool) -> dict[str, Any] | None:
    """The hint for the person to move: found, or still ``thinking``, or none."""
    advice = c.advice_now()
    if advice is not None:
        return {"status": "ready", "player": c.mover, **advice.to_json(
            tuple(c.game.player_labels))}
    if thinking:
        return {"status": "thinking", "player": c.mover}
    return None


def table_part(*, occupied: set[str], felt: set[str], faults: list[dict[str, Any]],
               notices: Sequence[Message], recovery: dict[str, Any] | None, version: int,
               saving: dict[str, Any], replay: dict[str, Any] | None) -> TableView:
    """What the table shows with or without a game: the board felt and confirmed, the
    faults, the notices, what a start recovered, whether it saves, a replay shown."""
    unconfirmed = felt ^ occupied
    return {
        "occupied": [s for s in SQUARES if s in occupied],
        "felt": [s for s in SQUARES if s in unconfirmed],
        "signals": {},
        "prompt": None,
        "message": None,
        "message_code": None,
        "guidance": [],
        "faults": list(faults),
        "notices": [render(n) or "" for n in notices],
        "notice_codes": list(notices),
        "recovery": dict(recovery) if recovery is not None else None,
        "hints": False,
        "in_hand": None,
        "version": version,
        "legend": signals.legend(),
        "player_colors": [signals.hex_color(c) for c in signals.PLAYER_COLORS],
        "saving": saving,
        "replay": replay,
    }


PRIVATE_MESSAGES = ("cancelled_number",)
"""Messages that name the number a player chose first: shown on their own phone alone."""

HOLDER_KEYS = ("signals", "prompt", "message", "message_code", "in_hand", "next", "next_text",
               "pad", "where_offered", "discard_choices", "joker_choices", "hint")
"""The fields of the game's part that may tell a hidden card: the holder's phone gets its own
(``holder_part``), every other device the ones computed without the card."""


def public_hint(hint: dict[str, Any] | None) -> dict[str, Any] | None:
    """A hint as the devices other than its player's phone see it: asked for, never what."""
    if hint is not None and hint.get("status") == "ready":
        return {"status": "private", "player": hint.get("player")}
    return hint


def holder_part(companion: Companion, look: present.Look, hint: dict[str, Any] | None,
                seat: int) -> dict[str, Any]:
    """What the phone of ``seat``, the mover whose card is hidden, sees in place of the shared
    fields (``HOLDER_KEYS``), ``look`` being the look with the card."""
    own = game_part(companion, look, (), (), hint)
    fields: dict[str, Any] = dict(own)
    return {"seat": seat, **{key: fields[key] for key in HOLDER_KEYS}}


def game_part(companion: Companion, look: present.Look, names: Iterable[str],
              colors: Iterable[str], hint: dict[str, Any] | None,
              hidden: bool = False) -> TableView:
    """What the table shows and asks of the game that runs (``look``: its ``present.look``).
    ``hidden``: the mover's card is theirs alone: nothing here depends on it (the choices a
    dealt card gives, the number chosen first, what a hint advises)."""
    lit = look.signals
    secret = hidden and companion.dealer.dealing
    message = companion.message
    if hidden and message is not None and message["code"] in PRIVATE_MESSAGES:
        message = None
    return {
        "signals": {s: lit[s] for s in SQUARES if s in lit},
        "prompt": look.prompt,
        "message": render(message),
        "message_code": message,
        "guidance": look.guidance,
        "hints": companion.hints,
        "in_hand": None if hidden else companion.in_hand,
        "variant_name": companion.game.name,
        "names": list(names),
        "colors": list(colors),
        "setting_up": companion.setting_up,
        "can_undo": companion.can_undo(),
        "clearing": companion.clearing,
        "next": look.next,
        "next_text": render_next(look.next),
        "unturned": look.unturned,
        "moves": moves(companion) if companion.state.over else [],
        "discard_choices": [] if secret else placing.discard_choices(companion),
        "joker_choices": (placing.joker_choices(companion, companion.pending.square)
                          if companion.pending is not None and not secret else []),
        "computers": computers_json(companion.computers),
        "computer_draws": companion.draw_seed is not None,
        "deal": companion.dealer.dealing,
        "plan": companion.expect.to_json() if companion.expect is not None else None,
        "hint": public_hint(hint) if hidden else hint,
        "pad": look.pad,
        "blank_choice": look.blank_choice,
        "where_offered": look.where,
        "can_redo": companion.can_redo(),
    }
