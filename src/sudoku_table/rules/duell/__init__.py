"""Duell der Meister (seed 003): ``claims`` decides houses, ``game`` referees the duel."""

from .claims import best_top, claim_holds, house_winner, max_matching, ranking
from .game import DuellDerMeister, DuellState, decided_houses, validate_gold_cards

__all__ = [
    "DuellDerMeister",
    "DuellState",
    "best_top",
    "claim_holds",
    "decided_houses",
    "house_winner",
    "max_matching",
    "ranking",
    "validate_gold_cards",
]
