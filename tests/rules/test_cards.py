"""What the card games share (``rules.cards.CardGame``): KOSMOS SUDOKU and Duell der Meister send
a placement and a set-aside to their own checks, refuse every other kind of action in their own
words, and refuse everything once the game is over."""

from __future__ import annotations

import pytest

from sudoku_table.rules.actions import Action, Blank, EndTurn, Joker, Move, Place
from sudoku_table.rules.cards import CardGame
from sudoku_table.rules.game import CARDS, all_variants, new_game

CARD_GAMES = [cls.id for cls in all_variants() if issubclass(cls, CardGame)]

OTHERS = {
    "duell-der-meister": "Duell der Meister has no {kind} actions: place your card, or set it "
                         "aside when it fits nowhere",
}
"""Duell's own words; every KOSMOS board says the words of ``CardGame``."""


def test_the_card_games_are_kosmos_and_duell() -> None:
    families = {new_game(variant).family for variant in CARD_GAMES}
    assert families == {"KOSMOS SUDOKU", "Duell der Meister"}
    assert len(CARD_GAMES) == 7


@pytest.mark.parametrize("variant", CARD_GAMES)
@pytest.mark.parametrize("action", [Blank("e1"), EndTurn(), Joker("e1", 3), Move(("e1", "e2"))])
def test_another_kind_of_action_is_refused_in_the_games_words(variant: str,
                                                                action: Action) -> None:
    game = new_game(variant)
    state = game.initial_state()
    words = OTHERS.get(variant, "{game} has no {kind} actions: place a card, or set aside one "
                                "that fits nowhere")
    illegal = game.check(state, action)
    assert illegal is not None
    assert illegal.reason == words.format(game=game.name, kind=repr(action.type))


@pytest.mark.parametrize("variant", CARD_GAMES)
def test_every_card_game_declares_cards_from_hidden_piles_of_their_own(variant: str) -> None:
    traits = new_game(variant).traits()
    assert traits["piece_words"] == CARDS.to_json()
    assert traits["has_set_asides"] and traits["hidden_hands"] and traits["own_piles"]


@pytest.mark.parametrize("variant", CARD_GAMES)
def test_a_game_that_is_over_refuses_a_placement_first(variant: str) -> None:
    game = new_game(variant)
    state = game.initial_state()
    over = state.replace(over=True)
    cell = game.geometry.cells[0]
    for action in (Place(cell, 1), Blank(cell)):
        illegal = game.check(over, action)
        assert illegal is not None and illegal.reason == "the game is over", action
