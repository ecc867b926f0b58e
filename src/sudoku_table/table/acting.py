"""What the table lends its parts instead of itself (as gpiozero hands a device a pin factory,
not its owner): the one way a part whose thread of its own has an answer hands it in.

Only ``Table`` holds the lock, installs the current game and runs the steps after a change
(``Table.after_change``). A part's thread (a search that found the computer's move, a shared
game's link, an import) never takes that lock or calls the table: it passes a ``change`` to
an ``Act``, which the table runs under its lock and follows with its after-change steps when
the change says the players see something new.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Protocol

if TYPE_CHECKING:
    from .companion import Companion
    from .sessions import Session

Change = Callable[[], bool]
"""A change made under the table's lock; True when the players see something new."""


class Act(Protocol):
    """Run a part's ``change`` under the table's lock, unless the table has closed or ``gone``
    says, under the lock, that the change is not wanted any more; when the change returns
    True, the after-change steps follow and the newest frame is shown. Returns whether the
    change ran. While ``gone`` is given the lock is never waited for blindly: a thread the
    table waits for (under its lock) must be able to give up."""

    def __call__(self, change: Change, *, gone: Callable[[], bool] | None = None) -> bool: ...


class Install(Protocol):
    """The table makes ``session`` (its companion beside it) the game on the table: the one
    writer of the current game. Called under the lock, from within a change."""

    def __call__(self, session: Session, companion: Companion) -> None: ...
