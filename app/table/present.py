"""What the players see of the companion's state: LED words, guidance arrows and the prompt.

Pure functions of a ``Companion``: they change nothing. ``look`` computes all three once per
change (the board's differences once for both the signals and the arrows), and the table keeps
the result for the LED frame and the view alike.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from app.rules.actions import OFF, Blank, Discard, Joker, Move, Place
from app.rules.game import BLANKS_PHASE
from app.rules.geometry import Geometry

from . import computer, moving, placing
from . import signals as lights
from .pairing import pair_up
from .view import Guidance, Next, Prompt, count, step

if TYPE_CHECKING:
    from .companion import Companion


@dataclass(frozen=True)
class Look:
    """Everything the players see of one moment of the game."""

    signals: dict[str, str]
    guidance: list[Guidance]
    prompt: Prompt | None
    last_player: int | None
    next: Next
    unturned: dict[str, int | None]


def look(c: Companion, saving: SavingStep | None = None) -> Look:
    """The signals, the guidance, the prompt and the next step, each computed once.
    ``saving``: the table cannot save (why, as ``cannot_save``'s parameters): that is the next
    step, and the board's corners show the ``unsaved`` light too."""
    missing, extra = c.differences()
    ask = prompt(c)
    lit = signals(c, missing, extra)
    nxt = next_step(c, ask, missing, extra)
    if saving is not None:
        lit.update(dict.fromkeys(corners(c.game.geometry), "unsaved"))
        nxt = step("cannot_save", None, **saving)
    return Look(lit, guidance(missing, extra), ask, c.history.last_player(), nxt, unturned(c))


SavingStep = dict[str, Any]
"""The parameters of the ``cannot_save`` step: ``cause`` and ``held`` (see ``Table``)."""


def corners(geometry: Geometry) -> set[str]:
    """The board's outermost cells in its four diagonal directions (its corners on a square
    board): where the ``unsaved`` light shows that the table cannot save."""
    def at(cell: str) -> tuple[int, int]:
        return ord(cell[0]), int(cell[1:])
    cells = sorted(geometry.cells)
    return {max(cells, key=lambda x: (sx * at(x)[0] + sy * at(x)[1], x))
            for sx in (-1, 1) for sy in (-1, 1)}


def held_squares(c: Companion) -> set[str]:
    """The squares of the entry that waits to be saved (its piece, its move's path)."""
    held = c.held
    if held is None:
        return set()
    action = held.action
    if isinstance(action, Place | Blank | Joker):
        return {action.cell}
    if isinstance(action, Move):
        return {s for s in action.path if s != OFF}
    return set()


def unturned(c: Companion) -> dict[str, int | None]:
    """The pieces still to be turned over, with the owner whose face they still show: the panel
    draws them as they stand on the table until the sensors have seen them turned."""
    shown: dict[str, int | None] = {}
    board = c.state.board
    for square in c.debt & set(board):
        owner = board[square].owner
        for before in reversed(c.states[:-1]):
            piece = before.board.get(square)
            if piece is not None and piece.owner != owner:
                shown[square] = piece.owner
                break
    return shown


def next_step(c: Companion, ask: Prompt | None, missing: set[str], extra: set[str]) -> Next:
    """The next physical act, and who is to do it: the panel's what-now bar says it in words."""
    state = c.state
    mover = state.to_move
    if c.held is not None:
        return step("cannot_save", None, cause=None, held=c.held.to_json())
    if c.clearing:
        return step("clear_board", None, pieces=count(len(c.occupied), "piece"),
                    squares=sorted(c.occupied))
    if ask is not None and ask["kind"] == "setup":
        return step("set_up", None, square=ask["square"], piece=ask["piece"], left=ask["left"])
    if state.over:
        return step("game_over", None, winners=list(state.winners),
                    reason=c.game.end_reason(state))
    if c.debt or c.turning:
        squares = sorted((c.debt & set(state.board)) | c.turning)
        return step("turn_over", c.history.last_player(), squares=squares)
    if c.computer_turn:
        return computer_step(c, missing, extra)
    pending = c.pending
    if pending is not None and ask is not None:
        if ask["kind"] == "number":
            if ask["choices"]:
                return step("say_number", mover, square=pending.square)
            return step("take_away", mover, square=pending.square)
        if ask["kind"] == "joker":
            return step("lay_joker", mover, square=pending.square, number=ask["number"])
        if ask["kind"] == "discard":
            return step("set_aside", mover, number=ask["number"])
    motion = c.motion
    if motion is not None:
        if motion.illegal and motion.at:
            return step("lift_again", mover, square=motion.at)
        if ask is not None and ask["kind"] == "bear_off":
            return step("bear_off", mover, square=ask["square"])
        if motion.at is None:
            return step("set_down", mover, square=motion.start)
        return step("jump_on", mover, square=motion.at)
    if missing or extra:
        return step("put_right", None, missing=sorted(missing), extra=sorted(extra))
    if ask is not None:
        if ask["kind"] == "blank":
            return step("blank_colour", mover, square=ask["square"])
        if ask["kind"] == "place":
            return step("place_number", mover, number=ask["number"])
        if ask["kind"] == "joker":
            return step("lay_joker", mover, number=ask["number"])
        if ask["kind"] == "discard":
            return step("set_aside", mover, number=ask["number"])
        if ask["kind"] == "end_turn":
            return step("blanks_or_end", mover)
    if c.move_game:
        return step("move", mover)
    return step("place", mover)

def computer_step(c: Companion, missing: set[str], extra: set[str]) -> Next:
    """What a person is to do for the computer now: put a wrong piece right, tell its card,
    wait while it chooses, or carry out its action."""
    mover = c.mover
    pending, motion, expect = c.pending, c.motion, c.expect
    if pending is not None:
        return step("computer_take_away", mover, square=pending.square)
    if motion is not None:
        if motion.illegal and motion.at:
            return step("lift_again", mover, square=motion.at)
        if not c.moves_from(motion.start):
            return step("computer_put_back", mover, square=motion.start)
    if missing or extra:
        return step("put_right", None, missing=sorted(missing), extra=sorted(extra))
    if c.needs_hand:
        return step("computer_hand", mover, piece=c.game.piece_word,
                    choices=computer.hand_choices(c))
    if expect is None:
        return step("computer_thinking", mover)
    code, params = computer.plan_step(expect, drawn=c.draw_seed is not None)
    return step(code, mover, **params)


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


def hint_squares(c: Companion) -> set[str]:
    """Where the hint asked for in this state would act."""
    advice = c.advice_now()
    if advice is None or c.state.over:
        return set()
    return computer.plan_squares(c, advice.action)


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
    if c.clearing:  # only the leftovers of the last game: take them away
        return lights.merge({"extra": extra})
    if c.held is not None:  # nothing counts until it is saved: the board as it would then be
        return lights.merge({"missing": missing, "extra": extra, "unsaved": held_squares(c)})
    if c.state.over:  # nothing left to place or put right: the last move and its flips
        return lights.merge({"flip": c.debt & set(c.state.board), "last": last_squares(c)})
    layers: dict[str, set[str]] = {
        "missing": missing,
        "extra": extra,
        "flip": c.debt & set(c.state.board),
        "last": last_squares(c),
        "target": moving.targets(c) | hint_targets(c),
        "hint": hint_squares(c),
    }
    expect = c.expect
    if expect is not None and c.pending is None:
        layers["computer"] = computer.plan_squares(c, expect)
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
        layers.setdefault("conflict", set()).update(set(c.motion.conflict) & c.occupied)
    return lights.merge(layers)


def guidance(missing: set[str], extra: set[str]) -> list[Guidance]:
    """Pairs of extra and missing pieces: "move the piece from there to here"."""
    return [{"from": a, "to": b} for a, b in pair_up(sorted(missing), sorted(extra))]


def prompt(c: Companion) -> Prompt | None:
    """What the table waits for from the panel, or None."""
    state = c.state
    if c.clearing or c.held is not None:
        return None
    if c.setting_up:
        todo = [cell for cell in c.setup_order if cell not in c.occupied]
        if todo:
            return {"kind": "setup", "square": todo[0],
                    "piece": c.setup[todo[0]].to_json(), "left": len(todo)}
    if c.computer_turn:
        if c.needs_hand and c.pending is None and c.motion is None:
            return {"kind": "hand", "choices": computer.hand_choices(c)}
        expect = c.expect
        if isinstance(expect, Discard) and c.pending is None:
            return {"kind": "discard", "number": expect.number}
        return None
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
