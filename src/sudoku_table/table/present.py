"""What the players see of the companion's state: LED words, guidance arrows and the prompt.

Pure functions of a ``Companion``: they change nothing. ``look`` computes all three once per
change (the board's differences once for both the signals and the arrows), and the table keeps
the result for the LED frame and the view alike.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache
from typing import TYPE_CHECKING, Any

from sudoku_table.rules.actions import OFF, Blank, Discard, Joker, Move, Place
from sudoku_table.rules.game import BLANKS_PHASE
from sudoku_table.rules.geometry import Geometry

from . import computer
from .pairing import pair_up
from .signals import merge
from .view import BlankChoice, Guidance, Next, Pad, Prompt, count, step

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
    pad: Pad | None
    blank_choice: BlankChoice | None
    where: bool


def look(c: Companion, saving: SavingStep | None = None, hidden: bool = False) -> Look:
    """The signals, the guidance, the prompt and the next step, each computed once.
    ``saving``: the table cannot save (why, as ``cannot_save``'s parameters): that is the next
    step, and the board's corners show the ``unsaved`` light too. ``hidden``: the mover's card
    is theirs alone (they play from their own phone): the look everyone else gets, which says
    nothing that depends on it (the number chosen first, the hint and the squares it lights)."""
    missing, extra = c.differences()
    ask = prompt(c, hidden)
    nxt = next_step(c, ask, missing, extra)
    if hidden and c.in_hand is not None and nxt["code"] == "place":
        nxt = step("place_own", c.mover, piece=c.game.piece_word)
    lit = signals(c, missing, extra, hidden, nxt)
    if saving is not None:
        lit.update(dict.fromkeys(corners(c.game.geometry), "unsaved"))
        nxt = step("cannot_save", None, **saving)
    return Look(lit, guidance(c, missing, extra), ask, c.history.last_player(), nxt, unturned(c),
                pad(c, ask, nxt), blank_choice(c), where_offered(c, nxt))


SQUARE_WORDS: Mapping[str, str] = {
    "say_number": "number",
    "say_joker": "number",
    "take_away": "illegal",
    "take_away_number": "illegal",
    "take_away_card": "illegal",
    "lay_joker": "illegal",
    "set_aside": "illegal",
    "lift_again": "illegal",
    "computer_take_away": "illegal",
    "remote_take_away": "illegal",
}
"""The one decision about a piece under way: the next step that names its ``square`` also
says what that square's light is (a number asked, or a piece refused as it lies). ``signals``
lights the square from the step, so the LED, the bar, the spoken step and the legend's meaning
of the word can never say two things about one piece."""


def square_word(nxt: Next, square: str) -> str | None:
    """The LED word the next step ``nxt`` gives ``square`` (None: the step does not name it)."""
    word = SQUARE_WORDS.get(nxt["code"])
    return word if word is not None and nxt["params"].get("square") == square else None


SavingStep = dict[str, Any]
"""The parameters of the ``cannot_save`` step: ``cause`` and ``held`` (see ``Table``)."""


@cache
def corners(geometry: Geometry) -> frozenset[str]:
    """The board's outermost cells in its four diagonal directions (its corners on a square
    board): where the ``unsaved`` light shows that the table cannot save (worked out once per
    board, not at every event while the table cannot save)."""
    def at(cell: str) -> tuple[int, int]:
        return ord(cell[0]), int(cell[1:])
    cells = sorted(geometry.cells)
    return frozenset(max(cells, key=lambda x: (sx * at(x)[0] + sy * at(x)[1], x))
                     for sx in (-1, 1) for sy in (-1, 1))


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
    board = c.state.board
    return {square: face for square, face in sorted(c.history.faces.items())
            if square in board}


def pad(c: Companion, ask: Prompt | None, nxt: Next) -> Pad | None:
    """The numbers the panel's number pad offers now, or None (hidden: no number is asked).

    Asked: the legal numbers for the new piece (or the computer's card). Otherwise, when the
    mover is about to put a piece down, a number may be chosen first: the numbers that can be
    played now (placed somewhere, set aside or laid as a joker), from what is left to them."""
    if ask is not None and ask["kind"] in ("number", "hand"):
        if not ask["choices"]:
            return None  # nothing to tap: the piece goes away (or is told as a joker)
        return {"numbers": list(ask["choices"]), "for": ask["kind"]}
    state = c.state
    if (state.over or c.game.moves_pieces or c.clearing or c.setting_up or c.computer_turn
            or c.dealer.dealing
            or c.pending is not None or state.phase == BLANKS_PHASE
            or nxt["code"] not in ("place", "place_number", "lay_joker", "set_aside")):
        return None
    return {"numbers": c.placing.playable_numbers(), "for": "in_hand"}


def blank_choice(c: Companion) -> BlankChoice | None:
    """The blank whose colour the table assumed, while its setter may still say it shows
    another (until the next action): asked of them beside the next step, never instead."""
    if c.placing.blank_choice is None:  # asked even after the blank that ended the game
        return None
    square, owners, setter = c.placing.blank_choice
    piece = c.state.board.get(square)
    if piece is None:
        return None
    return {"square": square, "choices": list(owners), "owner": piece.owner, "player": setter}


def where_offered(c: Companion, nxt: Next) -> bool:
    """Whether the panel offers to light where a piece may go: the game restricts it (its
    ``where_rule``) and a person is about to put one down."""
    return nxt["code"] == "place" and nxt["actor"] not in c.computers and \
        c.game.where_rule(c.state) is not None


def where_squares(c: Companion) -> set[str]:
    """The empty cells where the mover may put a piece now, while the players asked for them."""
    if c.where_asked is not c.state or c.state.over:
        return set()
    board = c.state.board
    return {cell for cell in c.game.geometry.cells
            if cell not in board and c.placing.number_choices(cell)}


def to_turn(c: Companion) -> list[str]:
    """The pieces still to be turned over: those owed on the board, and those in the air."""
    return sorted((c.history.debt & set(c.state.board)) | c.history.turning)


def takeback_step(c: Companion, missing: set[str], extra: set[str]) -> Next:
    """After a take-back or a redo: in words, what to take away, put back, move and turn."""
    pairs = guidance(c, missing, extra)
    moved_from = {p["from"] for p in pairs}
    moved_to = {p["to"] for p in pairs}
    actor = c.history.undone_player() if c.takeback.kind == "undo" else c.history.last_player()
    if c.history.debt:
        actor = c.history.turner
    parts = {"take_away": sorted(extra - moved_from), "put_back": sorted(missing - moved_to),
             "moves": pairs, "turn": to_turn(c)}
    if c.takeback.kind == "undo":
        return step("undo_on_board", actor, **parts)
    return step("redo_on_board", actor, **parts)


def next_step(c: Companion, ask: Prompt | None, missing: set[str], extra: set[str]) -> Next:
    """The next physical act, and who is to do it: the panel's what-now bar says it in words."""
    state = c.state
    if c.held is not None:
        return step("cannot_save", None, cause=None, held=c.held.to_json())
    if c.clearing:
        return step("clear_board", None, pieces=count(len(c.board.occupied), "piece"),
                    squares=sorted(c.board.occupied))
    if ask is not None and ask["kind"] == "setup":
        if c.board.by_number:
            return step("set_up_number", None, number=ask["piece"].get("number"),
                        squares=ask["squares"], count=len(ask["squares"]), left=ask["left"])
        return step("set_up", None, square=ask["square"], piece=ask["piece"], left=ask["left"])
    if c.history.debt or c.history.turning:
        if c.takeback.kind is not None:
            return takeback_step(c, missing, extra)
        squares = to_turn(c)
        # At the end too: the final board is the one with every piece turned.
        return step("turn_over", c.history.turner, squares=squares)
    if state.over:
        return step("game_over", None, winners=list(state.winners),
                    reason=c.game.end_reason(state))
    if c.takeback.kind is not None and (missing or extra) and c.pending is None \
            and c.motion is None:
        return takeback_step(c, missing, extra)
    if c.computer_turn:
        return computer_step(c, missing, extra)
    under_way = under_way_step(c, ask)
    if under_way is not None:
        return under_way
    if missing or extra:
        return step("put_right", None, missing=sorted(missing), extra=sorted(extra))
    return play_step(c, ask)


def under_way_step(c: Companion, ask: Prompt | None) -> Next | None:
    """The step of a piece under way: a new piece waiting for its number (or to be laid as a
    joker, set aside or taken away), or the piece in the air; None when there is none."""
    mover = c.mover
    pending = c.pending
    if pending is not None and ask is not None:
        if ask["kind"] == "number":
            refused = refusal_step(c, pending.square, pending.number, pending.illegal)
            if refused is not None:
                return refused
            # A stone that fits nowhere may be laid face down anywhere: the bar says how.
            joker = bool(c.placing.joker_choices(pending.square))
            if ask["choices"]:
                return step("say_number", mover, square=pending.square,
                            **({"joker": True} if joker else {}))
            if joker:
                return step("say_joker", mover, square=pending.square)
            return step("take_away", mover, square=pending.square)
        if ask["kind"] == "joker":
            return step("lay_joker", mover, square=pending.square, number=ask["number"])
        if ask["kind"] == "discard":
            return step("set_aside", mover, number=ask["number"])
    motion = c.motion
    if motion is None:
        return None
    if motion.illegal and motion.at:
        return step("lift_again", mover, square=motion.at)
    if ask is not None and ask["kind"] == "bear_off":
        return step("bear_off", mover, square=ask["square"])
    if motion.at is None:
        return step("set_down", mover, square=motion.start)
    return step("jump_on", mover, square=motion.at)


def refusal_step(c: Companion, square: str, number: int | None,
                 illegal: object | None) -> Next | None:
    """A piece whose number was told (tapped, or the card the table dealt) and refused: the
    bar names what is refused, that number or that card, not the square (another may go
    there). A dealt card's number is not said on the shared panel: only its seat knows it."""
    if illegal is None or number is None:
        return None
    if c.dealer.dealing:
        return step("take_away_card", c.mover, square=square, piece=c.game.piece_word)
    return step("take_away_number", c.mover, square=square, number=number)


def play_step(c: Companion, ask: Prompt | None) -> Next:
    """The mover's next act when the board stands as the game does and nothing is under way."""
    state = c.state
    mover = state.to_move
    if ask is not None:
        if ask["kind"] == "place":
            return step("place_number", mover, number=ask["number"])
        if ask["kind"] == "joker":
            return step("lay_joker", mover, number=ask["number"])
        if ask["kind"] == "discard":
            return step("set_aside", mover, number=ask["number"])
        if ask["kind"] == "end_turn" or state.phase == BLANKS_PHASE:
            return step("blanks_or_end", mover)
    if c.game.moves_pieces:
        return step("move", mover)
    if c.dealer.card() is not None:
        return step("place_dealt", mover, piece=c.game.piece_word)
    params: dict[str, object] = {}
    rule = c.game.where_rule(state)
    if rule is not None:
        params["rule"] = rule.to_json()
    again = in_a_row(c)
    if again > 1:
        params["nth"] = again
    return step("place", mover, **params)


def in_a_row(c: Companion) -> int:
    """Which placement in a row of the mover's this is (2: their second stone of a turn of
    two, as SUDOKU FAMILY's two players place A, B, B, A, A...)."""
    mover = c.mover
    n = 1
    for index in range(len(c.actions) - 1, -1, -1):
        if c.history.player_of(index) != mover:
            break
        n += 1
    return n

def computer_step(c: Companion, missing: set[str], extra: set[str]) -> Next:
    """What a person is to do for the computer (or for a seat at another table) now: put a
    wrong piece right, tell its card, wait while it chooses, or carry out its action."""
    mover = c.mover
    remote = c.computer.remote.get(mover) if mover is not None else None
    pending, motion, expect = c.pending, c.motion, c.expect
    if pending is not None:
        return _for(remote, "computer_take_away", mover, square=pending.square)
    if motion is not None:
        if motion.illegal and motion.at:
            return step("lift_again", mover, square=motion.at)
        if not c.moving.moves_from(motion.start):
            return _for(remote, "computer_put_back", mover, square=motion.start)
    if missing or extra:
        return step("put_right", None, missing=sorted(missing), extra=sorted(extra))
    if c.needs_hand:
        return step("computer_hand", mover, piece=c.game.piece_word,
                    choices=c.computer.hand_choices())
    if expect is None:
        if remote is not None:
            return step("remote_waiting", mover, table=remote)
        return step("computer_thinking", mover)
    code, params = computer.plan_step(expect, drawn=c.draw_seed is not None and remote is None)
    return _for(remote, code, mover, **params)


def _for(remote: str | None, code: str, mover: int | None, **params: Any) -> Next:
    """A step of the computer's, or the same step for a seat at the table ``remote``."""
    if remote is None:
        return step(code, mover, **params)
    return step(code.replace("computer_", "remote_", 1), mover, table=remote, **params)


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
    return computer.plan_squares(advice.action, c.motion)


def hint_targets(c: Companion) -> set[str]:
    number = c.in_hand
    if not c.hints or number is None or c.state.over:
        return set()
    board = c.state.board
    known, targets = c.history.recall(f"hints {number}")
    if not known:
        targets = c.history.remember(f"hints {number}", {
            cell for cell in c.game.geometry.cells
            if cell not in board and c.history.check(Place(cell, number)) is None})
    return set(targets)


def signals(c: Companion, missing: set[str], extra: set[str],
            hidden: bool = False, nxt: Next | None = None) -> dict[str, str]:
    """One word of the LED language per lit square (``missing`` and ``extra`` as
    ``Companion.differences`` gives them; ``hidden``: without the squares the mover's hidden
    card lights, a hint's and a chosen number's targets); the piece under way is lit as the
    next step ``nxt`` says of it (``SQUARE_WORDS``)."""
    if c.clearing:  # only the leftovers of the last game: take them away
        return merge({"extra": extra})
    if c.held is not None:  # nothing counts until it is saved: the board as it would then be
        return merge({"missing": missing, "extra": extra, "unsaved": held_squares(c)})
    if c.state.over:  # nothing left to place or put right: the last move and its flips
        return merge({"flip": c.history.debt & set(c.state.board), "last": last_squares(c)})
    layers: dict[str, set[str]] = {
        "missing": missing,
        "extra": extra,
        "flip": c.history.debt & set(c.state.board),
        "last": last_squares(c),
        "target": c.moving.targets() | where_squares(c)
        | (set() if hidden else hint_targets(c)),
        "hint": set() if hidden else hint_squares(c),
    }
    expect = c.expect
    if expect is not None and c.pending is None:
        layers["computer"] = computer.plan_squares(expect, c.motion)
    if not c.setting_up:
        layers["dead"] = set(c.history.dead()) - c.board.occupied
    else:
        layers["setup"] = set(c.board.lit())
    pending = c.pending
    if pending is not None:
        word = square_word(nxt, pending.square) if nxt is not None else None
        if word is None:
            word = "number" if pending.illegal is None else "illegal"
        layers.setdefault(word, set()).add(pending.square)
        if pending.illegal is not None:
            layers["conflict"] = set(pending.illegal.cells) & c.board.occupied
    if c.motion is not None and c.motion.illegal and c.motion.at:
        layers.setdefault("illegal", set()).add(c.motion.at)
        layers.setdefault("conflict", set()).update(set(c.motion.conflict) & c.board.occupied)
    return merge(layers)


def guidance(c: Companion, missing: set[str], extra: set[str]) -> list[Guidance]:
    """Pairs of extra and missing pieces: "move the piece from there to here". Only a piece
    that came after the other went can be it; a piece the table knows (one taken back) is sent
    only where a piece like it belongs; a piece found standing at a restart is nobody's
    (taken away, while the drawing shows which piece goes where)."""
    board = c.state.board

    def alike(there: str, here: str) -> bool:
        # A piece is lifted before it is put down elsewhere.
        changed = c.board.changed
        if changed.get(here, -1) > changed.get(there, -1) or there in c.board.strays:
            return False
        known = c.takeback.known_extra.get(there)
        if known is None or here not in board:
            return True
        # Each player's own cards are theirs; shared pieces may show either face.
        return known.number == board[here].number and (
            not c.game.own_piles or known.owner == board[here].owner)

    return [{"from": a, "to": b} for a, b in pair_up(sorted(missing), sorted(extra), alike)]


def prompt(c: Companion, hidden: bool = False) -> Prompt | None:
    """What the table waits for from the panel, or None (``hidden``: not the number the mover
    chose first, which is theirs alone)."""
    state = c.state
    if c.clearing or c.held is not None:
        return None
    if c.setting_up:
        todo = c.board.todo()
        if todo:
            return {"kind": "setup", "square": todo[0],
                    "piece": c.setup[todo[0]].to_json(), "left": len(todo),
                    "squares": c.board.lit()}
    if c.computer_turn:
        if c.needs_hand and c.pending is None and c.motion is None:
            return {"kind": "hand", "choices": c.computer.hand_choices()}
        expect = c.expect
        if isinstance(expect, Discard) and c.pending is None:
            return {"kind": "discard", "number": expect.number}
        return None
    pending = c.pending
    if pending is not None:
        if pending.illegal is not None and pending.number is not None:
            number = pending.number
            if c.history.check(Joker(pending.square, number)) is None:
                return {"kind": "joker", "square": pending.square, "number": number}
            if c.history.check(Discard(number)) is None:
                return {"kind": "discard", "number": number, "square": pending.square}
        return {"kind": "number", "square": pending.square,  # dealt: nothing to tap
                "choices": [] if c.dealer.dealing else c.placing.number_choices(pending.square)}
    offer = c.moving.bear_off_offer()
    if offer is not None:
        return {"kind": "bear_off", "square": offer.path[-2], "path": list(offer.path)}
    if c.placing.blank_choice is not None and c.placing.blank_choice[2] == state.to_move \
            and state.phase == BLANKS_PHASE:
        square, owners, _ = c.placing.blank_choice
        piece = state.board.get(square)
        return {"kind": "blank", "square": square, "choices": owners,
                "owner": piece.owner if piece else None}
    if c.in_hand is not None and not state.over and not hidden:
        number = c.in_hand
        if c.history.check(Discard(number)) is None:
            return {"kind": "discard", "number": number}
        if any(c.history.check(Joker(cell, number)) is None
               for cell in c.game.geometry.cells if cell not in state.board):
            return {"kind": "joker", "number": number}
        return {"kind": "place", "number": number}
    if state.phase == BLANKS_PHASE and not state.over:
        return {"kind": "end_turn", "choices": sorted(c.history.dead())}
    return None
