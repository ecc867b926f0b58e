"""The physical board as the companion feels it: which squares hold a piece, when each last
changed, the pieces nobody can name, and the two checks before a game runs (an empty board
first, then the start position set up)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING

from sudoku_table.rules.game import Piece

from .line import Line

if TYPE_CHECKING:
    from .history import History
    from .moving import Motion
    from .placing import NewPiece


def expected(history: History, pending: NewPiece | None, motion: Motion | None) -> set[str]:
    """The cells that should hold a piece now, counting what is under way (a held entry as if
    it counted, the new piece waiting for its number, the piece in the air, the pieces lifted
    to be turned over)."""
    held = history.held
    squares = set(held.board if held is not None else history.state.board)
    if motion is not None:
        squares.discard(motion.start)
        if motion.at is not None:
            squares.add(motion.at)
    if pending is not None:
        squares.add(pending.square)
    squares -= history.turning
    return squares


class Board:
    """The squares the sensors report occupied, and what the table knows of them."""

    def __init__(self, cells: frozenset[str], setup: Mapping[str, Piece], occupied: set[str],
                 line: Line, *, guide_setup: bool = True, by_number: bool = False) -> None:
        self.cells = cells
        self.setup = dict(setup)
        # ``occupied`` is the caller's own set, shared so that one sensor event updates it once.
        self.occupied = occupied
        self.changes = 0
        self.changed: dict[str, int] = {}
        """When each square last changed (counting sensor events): a piece must leave one
        square before it can stand on another, so an extra piece that came before a square
        went empty is not that square's piece."""
        self.strays: set[str] = set()
        """Pieces the game does not have that already stood on the board when the table took
        the sensors' word for it (a restart): nobody can tell which pieces they are, so they
        are never sent to a square as if they were its piece, until they are lifted."""
        self.by_number = by_number
        """The start pieces are guided a number at a time (every square of it lit at once)."""
        self.setup_order = sorted(self.setup, key=lambda c: (
            self.setup[c].number or 0 if by_number else 0, self.setup[c].owner is None,
            self.setup[c].owner or 0, c[1], c))
        self.setting_up = bool(self.setup) and guide_setup
        self.clearing = False  # pieces of an earlier game must leave the board first
        self._line = line
        self._check_setup_done()

    def start_clean(self) -> None:
        """A new game begins with a board check: any piece the sensors feel (on or off this
        game's board) is left over from before and must be taken away before the start position
        is set up; until then no game action is inferred."""
        self.clearing = bool(self.occupied)
        if self.clearing:
            self.setting_up = bool(self.setup)

    def set_up(self) -> None:
        """The game is under way (rebuilt from the journal): its start position stands."""
        self.setting_up = False

    def feel(self, square: str, occupied: bool, *, counting: bool) -> bool | None:
        """One debounced change: None for a repeat (nothing changed), False when the game hears
        no more of it (the board is being cleared, or the square is not on it), else True.
        ``counting``: the game may infer from the board now (no entry waits to be saved), so
        the start position may be complete."""
        if occupied == (square in self.occupied):
            return None  # a repeat (bounce that got through)
        if occupied:
            self.occupied.add(square)
        else:
            self.occupied.discard(square)
            self.strays.discard(square)
        self.changes += 1
        self.changed[square] = self.changes
        if self.clearing:
            if not self.occupied:
                self.clearing = False
                self._line.say("board_clear")
                self._check_setup_done()
            return False
        if square not in self.cells:
            return False
        if counting:
            self._check_setup_done()
        return True

    def take_word(self, squares: Iterable[str], standing: Iterable[str]) -> None:
        """Take the sensors' word for the whole board (start-up, recovery); ``standing``: the
        squares the game has pieces on. Any other piece is a stray."""
        found = set(squares)
        self.changed.clear()
        self.occupied.clear()
        self.occupied.update(found)
        if self.clearing and not found:
            self.clearing = False
        self.strays = set() if self.clearing else (found & self.cells) - set(standing)
        self._check_setup_done()

    def todo(self) -> list[str]:
        """The start squares still to be set, in the order the players are guided."""
        return [cell for cell in self.setup_order if cell not in self.occupied]

    def lit(self) -> list[str]:
        """The start squares lit now: the next one, or guided by number every square still
        to be set of the next number."""
        todo = self.todo()
        if not self.by_number or not todo:
            return todo[:1]
        number = self.setup[todo[0]].number
        return [cell for cell in todo if self.setup[cell].number == number]

    def differences(self, expected: set[str]) -> tuple[set[str], set[str]]:
        """(missing, extra): cells that should hold a piece (``expected``) and do not, and the
        other way."""
        if self.clearing:
            return set(), set(self.occupied)
        on_board = self.occupied & self.cells
        missing = expected - on_board
        if self.setting_up:
            missing -= set(self.setup)
        return missing, on_board - expected

    def _check_setup_done(self) -> None:
        if self.clearing:
            return
        if self.setting_up and all(c in self.occupied for c in self.setup):
            self.setting_up = False
            self._line.say("board_set")
