"""A game read back from the journal, as a pure function of what the journal holds: its stored
start and entries in, the session and the replayed game out, with what could not be replayed.
Nothing here writes: the table does what the answer asks of the journal (set damaged entries
aside, mark a game unreadable or running again) and tells the players."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from sudoku_table.rules.actions import action_from_json
from sudoku_table.rules.errors import RulesError

from . import sessions
from .companion import Companion
from .journal import ACTION, DRAW, FINISHED, HINTS, UNDO, StoredGame
from .sessions import Resolver, Session, Writer
from .view import count

FOLLOWS = "follows a damaged entry"
"""Why an entry after the first damaged one is set aside with it."""


@dataclass
class Recovered:
    """A game read back: its ``session`` and ``companion`` (the game replayed as far as its
    entries allow), whether it ``running`` (else it is shown as finished), how many entries
    were ``replayed``, why the next one could not be (``failure``), the entries to ``set_aside``
    (each a stored row with its ``reason``), and whether the journal must mark the game as
    running again (``reopen``: it was finished, but its last action was taken back)."""

    session: Session
    companion: Companion
    running: bool
    replayed: int
    failure: str | None = None
    set_aside: list[dict[str, Any]] = field(default_factory=list)
    reopen: bool = False

    def set_aside_params(self) -> dict[str, Any]:
        """The parameters of the notice that says what was set aside."""
        return {"game": self.session.id, "name": self.companion.game.name,
                "actions": count(self.replayed, "action"),
                "entries": count(len(self.set_aside), "damaged entry"), "detail": self.failure}


@dataclass(frozen=True)
class Unplayable:
    """A stored game whose start cannot be played again (an unknown variant, damaged options):
    ``detail`` for the players, ``note`` for the journal."""

    detail: str
    note: str


def recover(stored: StoredGame, resolve: Resolver, *, board: set[str], record: Writer | None,
            settle: float) -> Recovered | Unplayable | None:
    """Replay ``stored`` (the journal's running game, or its last finished one) from the
    longest prefix of entries the rules accept; None for a finished game with damage (its
    record stays among the finished games; there is nothing to resume)."""
    running = stored.status != FINISHED
    try:
        session, companion = sessions.open_game(sessions.stored(stored), resolve, board=board,
                                                record=record, settle=settle, lenient=True)
    except (RulesError, ValueError, TypeError, KeyError) as e:
        return Unplayable(str(e), f"game {stored.id} ({stored.variant}) could not be "
                                  f"replayed: {e}")
    replayed, failure = replay_entries(companion, stored.entries)
    reopen = False
    if not running:
        if failure is not None or stored.damaged:
            return None
        if not companion.state.over:
            # Its last action was taken back, but the game's status was not written with it
            # (journals before the two were one transaction): it runs again.
            running = reopen = True
    found = Recovered(session, companion, running, replayed, failure, reopen=reopen)
    if running:
        found.set_aside = [dict(row, reason=failure if i == replayed else FOLLOWS)
                           for i, row in enumerate(stored.rows[replayed:], start=replayed)
                           ] + stored.damaged
    greet(found)
    return found


def replay_entries(companion: Companion, entries: list[tuple[str, Any]]) -> tuple[int,
                                                                                 str | None]:
    """Replay the journal's entries into ``companion``, up to the first the rules refuse: how
    many were replayed, and why the next one was not (None when all were)."""
    for index, (kind, data) in enumerate(entries):
        try:
            if kind == ACTION:
                companion.replay(kind, action_from_json(data))
            elif kind == UNDO:
                companion.replay(kind, None)
            elif kind == HINTS and isinstance(data, bool):
                companion.replay(kind, None, hints=data)
            elif kind == DRAW:
                companion.replay_draw(data)
            else:
                raise ValueError(f"a damaged entry ({kind}: {str(data)[:40]!r})")
        except (RulesError, ValueError, TypeError, KeyError) as e:
            return index, f"entry {index} could not be replayed: {e}"
    return len(entries), None


def greet(found: Recovered) -> None:
    """What the table says first about the game it read back: resumed, or over before the
    table stopped, and the flipped pieces to check (the sensors cannot see faces)."""
    companion, name = found.companion, found.companion.game.name
    flips = companion.history.last_turn_flips()
    if flips:
        companion.say("resumed_check_faces" if found.running else "over_check_faces",
                      game=name, squares=flips)
    else:
        companion.say("resumed" if found.running else "over_before_stop", game=name)
