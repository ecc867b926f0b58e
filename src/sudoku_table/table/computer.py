"""The computer at the table: which seats it plays, and what a person is to do for it.

A computer seat cannot move pieces, so the table asks a person to carry out its action: the
squares light with the ``computer`` word, the what-now bar says the act in words, and the
action counts only once the sensors see it done (a placement's number is the computer's, so it
is not asked). In a game with hidden hands a person first turns over the computer's card (or
draws its stone) and tells its number; or, in a game where each player has an own pile
(``Game.own_piles``) and the players chose so, the computer's cards lie face up beside the board
and the table draws one at random (``draw_card``, journaled) and names it in the same step.
Anything else done on the board is a disagreement to put right, never the computer's move.
Searching happens outside the table's lock (``Table``); here are only the pure parts: checking
the seats, the hand, the draw, and the squares and words of a plan.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from sudoku_table.ai import LEVELS
from sudoku_table.ai.engine import draw
from sudoku_table.rules.actions import OFF, Action, Blank, Discard, Joker, Move, Place
from sudoku_table.rules.game import Game
from sudoku_table.rules.wording import N_

from .errors import InputError

if TYPE_CHECKING:
    from .companion import Companion

LEVEL_WORDS: Mapping[str, str] = {"easy": N_("easy"), "normal": N_("normal"),
                                  "strong": N_("strong")}
"""Each level as the players read it ("Computer (strong)")."""

COMPUTER_NAME = N_("Computer ({level})")
"""How a computer seat is named at the table and on the panel."""


def parse_computers(raw: object, players: int) -> dict[int, str]:
    """``{seat: level}`` from a request or the journal (seats as numbers or their strings);
    ``InputError`` names what is wrong and nothing is kept."""
    if raw is None:
        return {}
    if not isinstance(raw, Mapping):
        raise InputError(N_("computers must be an object of seat and level, like {example}, "
                            "got {value}"), example='{"1": "normal"}', value=repr(raw)[:40])
    seats: dict[int, str] = {}
    for key, level in raw.items():
        text = str(key)
        if not text.isascii() or not text.isdigit() or len(text) > 1 or \
                not 0 <= int(text) < players:
            raise InputError(N_("computers: {seat} is not a seat of this game (seats 0 to "
                                "{last})"), seat=repr(key)[:12], last=players - 1)
        if level not in LEVELS:
            raise InputError(N_("computers: the level of seat {seat} must be one of {levels}, "
                                "got {level}"), seat=text, levels=", ".join(LEVELS),
                             level=repr(level)[:20])
        seats[int(text)] = str(level)
    return seats


def check_draws(game: Game, seats: Mapping[int, str]) -> None:
    """``InputError`` unless the table can draw the computer's cards in ``game``: each player
    has a pile of their own (a shared bag leaves stones unseen in the box), and a seat is the
    computer's."""
    if not game.own_piles:
        raise InputError(N_("the table can draw the computer's cards only in a game where each "
                            "player has a pile of their own (KOSMOS SUDOKU, Duell der Meister), "
                            "not in {game}"), game=game.name)
    if not seats:
        raise InputError(N_("the table draws cards only for the computer: make a seat the "
                            "computer's, or leave computer_draws off"))


def computers_json(seats: Mapping[int, str]) -> dict[str, str]:
    """The seats as the view and the journal keep them (JSON keys are strings)."""
    return {str(seat): level for seat, level in sorted(seats.items())}


def draw_card(supply: Mapping[int, int], seed: int, index: int) -> int:
    """The ``index``-th card the table draws for the computer from ``supply`` (number: how many
    are left): every card left is as likely as any other, and the same game seed and index
    always draw the same card (a restart draws what was drawn before it)."""
    if sum(supply.values()) <= 0:
        raise ValueError("the computer has no card left to draw")
    return draw({n: left for n, left in supply.items() if left > 0},
                random.Random(f"draw {seed} {index}"))


def hand_choices(c: Companion) -> list[int]:
    """The numbers the computer's card or stone may show now (its own pile, or the bag)."""
    mover = c.state.to_move
    if mover is None:
        return []
    supply = c.game.hand_supply(c.state, mover) or {}
    return sorted(n for n, left in supply.items() if left > 0)


def check_hand(c: Companion, number: int) -> None:
    """``InputError`` unless ``number`` can be the card or stone the computer just drew."""
    choices = hand_choices(c)
    if number not in choices:
        raise InputError(N_("the computer cannot hold a {number} now: the numbers left to it "
                            "are {held}"), number=number,
                         held=", ".join(str(n) for n in choices) or "-")


def plan_squares(c: Companion, action: Action) -> set[str]:
    """Where the LEDs show the computer's action: the square of a placement, or the start and
    every landing of a move still to be made."""
    if isinstance(action, Place | Blank | Joker):
        return {action.cell}
    if isinstance(action, Move):
        path = [s for s in action.path if s != OFF]
        motion = c.motion
        if motion is None:
            return set(path)
        done = {motion.start, *motion.touched}
        return {s for s in path[1:] if s not in done}
    return set()


PLAN_STEPS = ("computer_place", "computer_draw_place", "computer_draw_set_aside",
              "computer_blank", "computer_blank_of", "computer_joker", "computer_set_aside",
              "computer_bear_off", "computer_jump", "computer_move",
              "computer_end_turn")
"""The next steps ``plan_step`` says (``view.NEXT_STEPS`` words them)."""


def plan_step(action: Action, drawn: bool = False) -> tuple[str, dict[str, Any]]:
    """The next-step code and parameters that say the computer's action in words; ``drawn``:
    the table drew its card, so the step also says which card to take."""
    if isinstance(action, Place):
        if drawn:
            return "computer_draw_place", {"number": action.number, "square": action.cell}
        return "computer_place", {"number": action.number, "square": action.cell}
    if isinstance(action, Blank):
        if action.owner is None:
            return "computer_blank", {"square": action.cell}
        return "computer_blank_of", {"square": action.cell, "player": action.owner}
    if isinstance(action, Joker):
        return "computer_joker", {"number": action.number, "square": action.cell}
    if isinstance(action, Discard):
        if drawn:
            return "computer_draw_set_aside", {"number": action.number}
        return "computer_set_aside", {"number": action.number}
    if isinstance(action, Move):
        path = list(action.path)
        if action.bears_off:
            return "computer_bear_off", {"start": path[0], "via": path[1:-1]}
        if len(path) > 2:
            return "computer_jump", {"start": path[0], "square": path[-1], "via": path[1:-1]}
        return "computer_move", {"start": path[0], "square": path[-1]}
    return "computer_end_turn", {}
