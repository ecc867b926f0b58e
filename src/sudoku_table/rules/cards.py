"""What the card games share: KOSMOS SUDOKU and Duell der Meister.

Each player draws number cards from a pile of their own, hidden until played; a turn places the
card on the board or, where it fits nowhere, sets it aside. The two games differ in what makes a
place or a set-aside legal, and in how they word the turn to a player who tries anything else.
"""

from __future__ import annotations

from typing import ClassVar

from .actions import Action, Discard, Place
from .errors import Illegal
from .game import CARDS, Game, PieceWords, State
from .wording import N_


class CardGame(Game):
    """A game of cards placed on the board or set aside; ``check`` sends each action to the
    game's own check of a placement or of a set-aside."""

    piece_words: ClassVar[PieceWords] = CARDS
    has_set_asides: ClassVar[bool] = True
    hidden_hands: ClassVar[bool] = True
    own_piles: ClassVar[bool] = True
    other_actions: ClassVar[str] = N_("{game} has no {kind} actions: place a card, or set aside "
                                      "one that fits nowhere")
    """What a player who tries another kind of action is told (``{game}``, ``{kind}``)."""

    def check(self, state: State, action: Action) -> Illegal | None:
        if state.over or state.to_move is None:
            return Illegal(N_("the game is over"))
        if isinstance(action, Place):
            return self._check_place(state, action)
        if isinstance(action, Discard):
            return self._check_discard(state, action)
        return Illegal(self.other_actions, game=self.name, kind=repr(action.type))

    def _check_place(self, state: State, action: Place) -> Illegal | None:
        """Why the mover may not put this card on this cell, or None."""
        raise NotImplementedError

    def _check_discard(self, state: State, action: Discard) -> Illegal | None:
        """Why the mover may not set this card aside, or None."""
        raise NotImplementedError
