"""Per-family knowledge of the engine: how good a position looks, and why an action is good.

The search itself knows only the rules protocol. A ``Heuristic`` adds, for one family of games,
an estimate of each player's standing (``standing``: higher is better, in about the units of
the game's score) and the reasons an action is worth playing. Each module of this package holds
one family's heuristic and registers it for the family's rules class (``base.register``); this
package imports every module in it, so no list names them, and ``heuristic_for`` finds the one
for a game by its rules class. A game without its own uses the plain scores.
"""

from __future__ import annotations

import importlib
import pkgutil

from .base import HEURISTICS, PLAIN, Heuristic, heuristic_for, points_reasons, register

for _module in pkgutil.iter_modules(__path__, f"{__name__}."):
    importlib.import_module(_module.name)

__all__ = ["HEURISTICS", "PLAIN", "Heuristic", "heuristic_for", "points_reasons", "register"]
