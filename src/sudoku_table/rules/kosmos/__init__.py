"""The KOSMOS SUDOKU collection: cards 1-9 on six boards (one module each, registered in the
order of docs/records.md). ``core`` holds the rules all boards share."""

# The import order is the registration order: the DOMINARI games come first in the records
# order, even when this package is imported on its own.
# isort: off
from .. import dominari  # noqa: F401
from . import classic, labyrinth, killer, kakuro, cube, hexa  # noqa: F401
# isort: on
from .core import KosmosGame, KosmosState

__all__ = ["KosmosGame", "KosmosState"]
