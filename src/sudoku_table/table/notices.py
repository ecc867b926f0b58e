"""What the table tells the players about itself (a LED chain that failed, damaged entries set
aside, a card that cannot save), as message codes of ``view.MESSAGES``: each said once, and
logged when it is new."""

from __future__ import annotations

import logging
from collections.abc import Iterable, Iterator
from typing import Any

from .view import Message, message, render

log = logging.getLogger(__name__)


class Notices:
    """The table's notices, oldest first (the table changes them under its lock)."""

    def __init__(self) -> None:
        self._kept: list[Message] = []

    def notice(self, code: str, **params: Any) -> bool:
        """Tell the players something (a code of ``view.MESSAGES``), once; True if new."""
        return self.keep(message(code, **params))

    def keep(self, notice: Message) -> bool:
        """Keep ``notice`` unless it is kept already; True if new."""
        if notice in self._kept:
            return False
        self._kept.append(notice)
        log.warning("%s", render(notice))
        return True

    def take(self, notices: Iterable[Message]) -> bool:
        """Take over what another part found (the journal's notices); True if any was new."""
        new = False
        for notice in notices:
            new = self.keep(notice) or new
        return new

    def __iter__(self) -> Iterator[Message]:
        return iter(self._kept)

    def __bool__(self) -> bool:
        return bool(self._kept)

    def last(self) -> Message | None:
        """The newest notice (None while there is none)."""
        return self._kept[-1] if self._kept else None
