"""The four DOMINARI games on a 6x6 board (one module each, registered in this order).

``board`` holds the shared geometry and lookup tables, ``placement`` the number-then-blanks turn
of Vierer, Revers and Score, ``scoring`` the scoring table of Revers and Score.
"""

# The import order is the registration order: halma, vierer, revers, score.
# isort: off
from .halma import HalmaDominari, HalmaState
from .vierer import ViererDominari
from .revers import ReversDominari, enclosures
from .score import ScoreDominari
from .placement import PlacementGame, PlacementState
# isort: on

__all__ = [
    "HalmaDominari",
    "HalmaState",
    "PlacementGame",
    "PlacementState",
    "ReversDominari",
    "ScoreDominari",
    "ViererDominari",
    "enclosures",
]
