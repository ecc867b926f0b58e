"""What the players see of the companion's state: LED words, guidance arrows and the prompt.

Pure functions of a ``Companion``: they change nothing. ``look`` computes all three once per
change (the board's differences once for both the signals and the arrows), and the table keeps
the result for the LED frame and the view alike.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from app.rules.actions import Blank, Discard, Joker, Move, Place
from app.rules.game import BLANKS_PHASE

from . import moving, placing
from . import signals as lights
from .pairing import pair_up
from .view import Guidance, Prompt

if TYPE_CHECKING:
    from .companion import Companion


@dataclass(frozen=True)
class Look:
    """Everything the players see of one moment of the game."""

    signals: dict[str, str]
    guidance: list[Guidance]
    prompt: Prompt | None
    last_player: int | None


def look(c: Companion) -> Look:
    """The signals, the guidance and the prompt, each computed once."""
    missing, extra = c.differences()
    return Look(signals(c, missing, extra), guidance(missing, extra), prompt(c),
                c.history.last_player())

def last_squares(c: Companion) -> set[str]:
    if not c.actions:
        return set()
    action = c.actions[-1]
    squares: set[str] = set()
    if isinstance(action, Place | Blank | Joker):
        squares.add(action.cell)
    elif isinstance(action, Move) and not action.bears_off:
        squares.add(action.path[-1])
    geometry = c.game.geometry
    for name in c.state.last.completed:
        for areas in (geometry.houses, geometry.sections, geometry.bonus, geometry.regions):
            if name in areas:
                squares.update(areas[name])
                break
    return squares & set(c.state.board)


def hint_targets(c: Companion) -> set[str]:
    number = c.in_hand
    if not c.hints or number is None or c.state.over:
        return set()
    board = c.state.board
    return set(c.history.cached(f"hints {number}", lambda: {
        cell for cell in c.game.geometry.cells
        if cell not in board and c.check(Place(cell, number)) is None}))


def signals(c: Companion, missing: set[str], extra: set[str]) -> dict[str, str]:
    """One word of the LED language per lit square (``missing`` and ``extra`` as
    ``Companion.differences`` gives them)."""
    layers: dict[str, set[str]] = {
        "missing": missing,
        "extra": extra,
        "flip": c.debt & set(c.state.board),
        "last": last_squares(c),
        "target": moving.targets(c) | hint_targets(c),
    }
    if not c.setting_up:
        layers["dead"] = set(c.dead()) - c.occupied
    else:
        todo = [cell for cell in c.setup_order if cell not in c.occupied]
        layers["setup"] = set(todo[:1])
    pending = c.pending
    if pending is not None:
        if pending.illegal is None:
            layers["number"] = {pending.square}
        else:
            layers["illegal"] = {pending.square}
            layers["conflict"] = set(pending.illegal.cells) & c.occupied
    if c.motion is not None and c.motion.illegal and c.motion.at:
        layers.setdefault("illegal", set()).add(c.motion.at)
    return lights.merge(layers)


def guidance(missing: set[str], extra: set[str]) -> list[Guidance]:
    """Pairs of extra and missing pieces: "move the piece from there to here"."""
    return [{"from": a, "to": b} for a, b in pair_up(sorted(missing), sorted(extra))]


def prompt(c: Companion) -> Prompt | None:
    """What the table waits for from the panel, or None."""
    state = c.state
    if c.setting_up:
        todo = [cell for cell in c.setup_order if cell not in c.occupied]
        if todo:
            return {"kind": "setup", "square": todo[0],
                    "piece": c.setup[todo[0]].to_json(), "left": len(todo)}
    pending = c.pending
    if pending is not None:
        if pending.illegal is not None and pending.number is not None:
            number = pending.number
            if c.check(Joker(pending.square, number)) is None:
                return {"kind": "joker", "square": pending.square, "number": number}
            if c.check(Discard(number)) is None:
                return {"kind": "discard", "number": number, "square": pending.square}
        return {"kind": "number", "square": pending.square,
                "choices": placing.number_choices(c, pending.square)}
    offer = moving.bear_off_offer(c)
    if offer is not None:
        return {"kind": "bear_off", "square": offer.path[-2], "path": list(offer.path)}
    if c.blank_choice is not None:
        square, owners = c.blank_choice
        piece = state.board.get(square)
        return {"kind": "blank", "square": square, "choices": owners,
                "owner": piece.owner if piece else None}
    if c.in_hand is not None and not state.over:
        number = c.in_hand
        if c.check(Discard(number)) is None:
            return {"kind": "discard", "number": number}
        if any(c.check(Joker(cell, number)) is None
               for cell in c.game.geometry.cells if cell not in state.board):
            return {"kind": "joker", "number": number}
        return {"kind": "place", "number": number}
    if state.phase == BLANKS_PHASE and not state.over:
        return {"kind": "end_turn", "choices": sorted(c.dead())}
    return None
