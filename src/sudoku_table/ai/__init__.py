"""The computer opponent: one engine over the rules protocol, for every game.

The public API, kept small and stable for the table and the panel:

- ``LEVELS``: ``("easy", "normal", "strong")``;
- ``choose(game, state, *, level="normal", seed=0, hand=None, budget=None) -> Action``: the
  mover's next action (``hand``: the card or stone in hand where the game hides it);
- ``advise(game, state, *, hand=None, seed=0, budget=None) -> Advice``: the best action found
  and why, as ``Motive`` values (a code, its parameters, an English template for the catalog);
- ``Budget`` and ``DEFAULT_BUDGETS``: a level's effort in positions, with a clock safety stop;
  ``ComputerConfig`` reads them from the ``[computer]`` section of the table's config;
- ``EngineError``: the game is over, the level is unknown, or the hand is impossible.

Same seed, same position, same level: same action. DOMINARI turns of several actions are
answered one action at a time and stay consistent (see ``engine``).
"""

from .advice import Advice, advise
from .config import ComputerConfig
from .engine import DEFAULT_BUDGETS, LEVELS, Budget, Decision, EngineError, choose, decide
from .reasons import WORDINGS, Motive

__all__ = ["DEFAULT_BUDGETS", "LEVELS", "WORDINGS", "Advice", "Budget", "ComputerConfig",
           "Decision", "EngineError", "Motive", "advise", "choose", "decide"]
