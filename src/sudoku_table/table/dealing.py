"""The table deals: in a game that hides the mover's card or stone, the table draws it itself.

With ``deal`` chosen for a new game, every card or stone lies open beside the board, sorted by
number, and the table draws the mover's at random from what is left to that player (their own
pile, or the shared bag). The player sees it on their own phone and takes that one; when they
put a piece down, the table already knows its number.

The card dealt in a state is a pure function of the game's seed, the number of actions played
and what is left to draw (``deal_card``): nothing is journaled but the seed, a restart deals the
same card again, and a take-back gives the player back the card they held. A computer seat draws
its own cards as before (``ComputerTurn.draw``), from the same seed.
"""

from __future__ import annotations

import random
from collections.abc import Mapping

from sudoku_table.ai.engine import draw
from sudoku_table.rules.actions import Place
from sudoku_table.rules.game import Game
from sudoku_table.rules.wording import N_

from .errors import InputError
from .history import History
from .line import Line


def deal_card(supply: Mapping[int, int], seed: int, ply: int) -> int | None:
    """The card dealt to the mover after ``ply`` actions from ``supply`` (number: how many are
    left to draw), every card left as likely as any other; None when nothing is left."""
    left = {n: k for n, k in supply.items() if k > 0}
    if not left:
        return None
    return draw(left, random.Random(f"deal {seed} {ply}"))


class Dealer:
    """The cards the table deals in the running game (``seed`` None: the players draw)."""

    def __init__(self, game: Game, history: History) -> None:
        self._game = game
        self._history = history
        self.seed: int | None = None
        self.computers: frozenset[int] = frozenset()  # seats that draw their own (the computer)
        # At a table that joined a game another table deals: its own seat's cards as they
        # arrive (the number of actions they are dealt after: the card), and that seat.
        self.given: dict[int, int] | None = None
        self.own: int | None = None

    def deal(self, seed: int | None, computers: frozenset[int] = frozenset()) -> None:
        """The table deals from ``seed`` (None: it does not); ``computers``: seats whose cards
        the computer's own draw gives."""
        self.seed = seed if self._game.hidden_hands else None
        self.computers = computers

    def check(self, number: int) -> None:
        """``InputError`` when the table deals and ``number`` is not the mover's card (the
        message never says which card it is: the shared panel may be asking)."""
        dealt = self.card()
        if dealt is not None and number != dealt:
            raise InputError(N_("the table deals in this game: only the {piece} it dealt "
                                "can be played now (its player's phone shows it)"),
                             piece=self._game.piece_word)

    def not_my_card(self, line: Line) -> None:
        """The piece just put down shows another number than the card dealt: the game keeps
        the dealt card, and ``line`` says which card to swap in."""
        history = self._history
        last = history.actions[-1] if history.actions else None
        if not self.dealing or not isinstance(last, Place) \
                or history.last_player() in self.computers:
            raise InputError(N_("there is no card the table dealt that was just put down"))
        line.say("swap_card", square=last.cell, number=last.number,
                 piece=self._game.piece_word)

    def follow(self, seat: int) -> None:
        """Another table deals this game: ``seat``'s cards arrive from it (``receive``)."""
        self.given, self.own = {}, seat

    def receive(self, at: int, card: int) -> None:
        """The card dealt to this table's seat after ``at`` actions."""
        if self.given is not None:
            self.given[at] = card

    @property
    def dealing(self) -> bool:
        return self.seed is not None or self.given is not None

    def card(self, seat: int | None = None) -> int | None:
        """The card or stone dealt to ``seat`` (default: the mover) now: only the mover holds
        one, and only while the game runs; None for a computer seat or when nothing is dealt."""
        seed = self.seed
        state = self._history.state
        mover = state.to_move
        if self.given is not None:
            if state.over or mover != self.own or (seat is not None and seat != mover):
                return None
            return self.given.get(len(self._history.actions))
        if (seed is None or state.over or mover is None or mover in self.computers
                or (seat is not None and seat != mover)):
            return None

        def compute() -> int | None:
            supply = self._game.hand_supply(state, mover)
            return None if supply is None else deal_card(supply, seed,
                                                         len(self._history.actions))
        known, result = self._history.recall("dealt card")
        if not known:
            result = self._history.remember("dealt card", compute())
        return result if isinstance(result, int) else None
