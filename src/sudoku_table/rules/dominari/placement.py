"""What Vierer-, Revers- and Score-Dominari share: a number piece, then a blank phase.

A turn is one number piece of the mover's colour, then optionally blank pieces on dead fields
(docs/RULINGS.md, "The blank phase"). The turn stays with the mover while a blank can still be
placed; it ends with ``end_turn``, by itself once no blank can be placed, or implicitly when a
``place`` arrives, which then belongs to whoever moves next. Passes and the end of the game are
decided only when a turn ends, because blanks (and Revers flips made by blanks) change who can move.

Each game supplies a few hooks: where its number pieces may go (``placement_problem``), what a
new piece flips (``enclosed``), whether a player has just won (``has_won``), and its scores.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import Any, ClassVar

from ..actions import Action, Blank, EndTurn, Place
from ..errors import Illegal, RecordError
from ..game import BLANKS_PHASE, Effects, Game, Piece, PieceLook, State, house_conflict
from ..geometry import Geometry
from ..wording import N_
from .board import BLANK_SUPPLY, CELLS, COLOUR_NAMES, PIECE_LOOKS, dominari_geometry

NUMBER = "number"
BLANKS = BLANKS_PHASE


@dataclass(frozen=True)
class PlacementState(State):
    """A position of a placement game.

    ``blanks_left`` counts the shared supply; ``waived[p]`` is True when player ``p`` missed a
    turn and may ignore the adjacency condition once (Score-Dominari); ``passed`` lists the
    players who missed a turn when the last turn ended, in order.
    """

    blanks_left: int = BLANK_SUPPLY
    waived: tuple[bool, ...] = (False, False)
    passed: tuple[int, ...] = ()


class PlacementGame(Game):
    """The common rules of the three placement games; subclasses fill in the hooks."""

    family: ClassVar[str] = "DOMINARI"
    player_labels: ClassVar[tuple[str, ...]] = COLOUR_NAMES
    piece_looks: ClassVar[tuple[PieceLook, ...]] = PIECE_LOOKS
    has_blanks: ClassVar[bool] = True
    high: ClassVar[int] = 6
    """The highest number of the game (Vierer plays 1-5)."""
    any_colour_blanks: ClassVar[bool] = False
    """Whether a blank may be of the opponent's colour (Revers)."""
    waive_after_pass: ClassVar[bool] = False
    """Whether a missed turn waives the adjacency condition once (Score)."""
    end_reasons: ClassVar[Mapping[str, str]] = {
        "four_in_a_row": N_("four pieces of one player stand in a row or a block"),
        "no_one_can_place": N_("nobody can place a number any more"),
    }

    def build_geometry(self) -> Geometry:
        return dominari_geometry(self.id, self.high)

    # --- hooks ------------------------------------------------------------------------------

    def placement_problem(self, state: PlacementState, player: int, cell: str) -> Illegal | None:
        """Why ``player`` may not put a number piece on the empty ``cell`` for reasons other
        than the house rule (adjacency, openings, enclosure); None when nothing stands against
        it."""
        return None

    def enclosed(self, board: Mapping[str, Piece], cell: str, player: int) -> frozenset[str]:
        """The opposing pieces a new own piece of ``player`` on ``cell`` encloses (Revers)."""
        return frozenset()

    def has_won(self, board: Mapping[str, Piece], player: int) -> bool:
        """True when ``player`` has just won at once (Vierer's four in a row)."""
        return False

    def final_winners(self, state: PlacementState) -> tuple[int, ...]:
        """The winners once nobody can place a number piece: the higher score; a tie draws."""
        scores = self.scores(state)
        best = max(scores)
        leaders = tuple(p for p, s in enumerate(scores) if s == best)
        return leaders if len(leaders) == 1 else ()

    # --- setup ------------------------------------------------------------------------------

    def initial_state(self, setup: Mapping[str, Piece] | None = None) -> PlacementState:
        board = dict(self.default_setup() if setup is None else setup)
        blanks = 0
        for cell, piece in board.items():
            if piece.owner not in range(self.players):
                raise RecordError(N_("setup {cell}: every piece belongs to White (0) or Black (1)"),
                                  cell=cell)
            if piece.number is None:
                blanks += 1
                continue
            conflict = house_conflict(self.geometry, board, cell, piece.number)
            if conflict is not None:
                raise RecordError(N_("setup {cell}: {reason} ({items})"),
                                  cell=cell,
                                  reason=conflict.reason,
                                  items=', '.join(conflict.cells))
        if blanks > BLANK_SUPPLY:
            raise RecordError(N_("setup holds {blanks} blanks; the box has only {BLANK_SUPPLY}"),
                              blanks=blanks, BLANK_SUPPLY=BLANK_SUPPLY)
        for player in range(self.players):
            if self.has_won(board, player):
                raise RecordError(N_("setup: {COLOUR_NAMES} has already won"),
                                  COLOUR_NAMES=COLOUR_NAMES[player])
        state = PlacementState(players=self.players, board=board, phase=NUMBER,
                               blanks_left=BLANK_SUPPLY - blanks,
                               waived=(False,) * self.players)
        return self._turn_to(state, 0)

    # --- questions --------------------------------------------------------------------------

    def legal_actions(self, state: State) -> Iterator[Action]:
        """Every action ``check`` accepts. In a blank phase these are the blanks, ``end_turn``,
        and the number pieces of whoever moves once the turn has ended (an implicit end)."""
        assert isinstance(state, PlacementState)
        if state.over:
            return
        if state.phase == BLANKS:
            mover = state.to_move
            assert mover is not None
            for cell in CELLS:
                if self._is_dead(state.board, cell):
                    yield Blank(cell)
                    if self.any_colour_blanks:
                        for other in range(self.players):
                            if other != mover:
                                yield Blank(cell, other)
            yield EndTurn()
            state = self._end_turn(state)
            if state.over:
                return
        yield from self._places(state)

    def placeable_numbers(self, state: State, cell: str) -> list[int]:
        assert isinstance(state, PlacementState)
        if state.over:
            return []
        if state.phase == BLANKS:
            state = self._end_turn(state)
            if state.over:
                return []
        if cell not in self.geometry.cell_set or cell in state.board:
            return []
        numbers = self._candidates(state.board, cell)
        if not numbers or state.to_move is None:
            return []
        if self.placement_problem(state, state.to_move, cell) is not None:
            return []
        return numbers

    def can_place(self, state: PlacementState, player: int) -> bool:
        """Whether ``player`` could put a number piece anywhere in ``state``."""
        board = state.board
        for cell in CELLS:
            if cell not in board and self._candidates(board, cell) and \
                    self.placement_problem(state, player, cell) is None:
                return True
        return False

    def check(self, state: State, action: Action) -> Illegal | None:
        assert isinstance(state, PlacementState)
        if state.over:
            return Illegal(N_("the game is over"))
        if isinstance(action, Place):
            if state.phase == BLANKS:
                state = self._end_turn(state)
                if state.over:
                    return Illegal(N_("the game is over: nobody can place a number piece"))
            return self._check_place(state, action)
        if isinstance(action, Blank):
            return self._check_blank(state, action)
        if isinstance(action, EndTurn):
            if state.phase != BLANKS:
                return Illegal(N_("there is no blank phase to end: place a number piece first"))
            return None
        return Illegal(N_("{game} has no {kind} actions: place number pieces and blanks"),
                       game=self.name, kind=repr(action.type))

    def chosen_in(self, state: State, action: Action) -> State:
        """A number piece in a blank phase ends the turn: the next player chooses it in the
        position after that end."""
        assert isinstance(state, PlacementState)
        if state.phase == BLANKS and isinstance(action, Place) and not state.over:
            return self._end_turn(state)
        return state

    def scores(self, state: State) -> list[int]:
        raise NotImplementedError

    def end_reason(self, state: State) -> str | None:
        if not state.over:
            return None
        if len(state.winners) == 1 and self.has_won(state.board, state.winners[0]):
            return "four_in_a_row"
        return "no_one_can_place"

    def extras(self, state: State) -> dict[str, Any]:
        assert isinstance(state, PlacementState)
        return {"blanks_left": state.blanks_left, "passed": list(state.passed)}

    # --- applying ---------------------------------------------------------------------------

    def _apply(self, state: State, action: Action) -> State:
        assert isinstance(state, PlacementState)
        if isinstance(action, EndTurn):
            ended = self._end_turn(state)
            return ended.replace(last=Effects(points=(0,) * self.players))
        if isinstance(action, Place):
            if state.phase == BLANKS:
                state = self._end_turn(state)
            mover = state.to_move
            assert mover is not None
            waived = list(state.waived)
            waived[mover] = False
            placed = self._put(state, action.cell, Piece(mover, action.number), mover)
            return self._after_piece(state, placed.replace(waived=tuple(waived)), action.cell)
        assert isinstance(action, Blank)
        mover = state.to_move
        assert mover is not None
        owner = mover if action.owner is None else action.owner
        placed = self._put(state, action.cell, Piece(owner, None), mover)
        return self._after_piece(state, placed.replace(blanks_left=state.blanks_left - 1),
                                 action.cell)

    def _put(self, state: PlacementState, cell: str, piece: Piece, mover: int) -> PlacementState:
        """``piece`` on ``cell`` with its flips: only a piece of the mover's colour encloses."""
        flipped: frozenset[str] = frozenset()
        if piece.owner == mover:
            flipped = self.enclosed(state.board, cell, mover)
        board = dict(state.board)
        board[cell] = piece
        for other in flipped:
            board[other] = Piece(mover, board[other].number)
        last = Effects(flipped=tuple(sorted(flipped, key=CELLS.index)))
        return state.replace(board=board, last=last, passed=(), phase=NUMBER)

    def _after_piece(self, before: PlacementState, after: PlacementState,
                     cell: str) -> PlacementState:
        """Record the effects, then: a win ends the game at once; otherwise the turn stays for
        blanks while one can be placed, else it ends."""
        old, new = self.scores(before), self.scores(after)
        houses = self.geometry.houses
        completed = tuple(h for h in self.geometry.houses_of[cell]
                          if all(c in after.board for c in houses[h]))
        after = after.replace(last=Effects(after.last.flipped, completed,
                                           tuple(n - o for n, o in zip(new, old, strict=True))),
                              phase=before.phase if before.phase == BLANKS else NUMBER)
        mover = before.to_move
        assert mover is not None
        if self.has_won(after.board, mover):
            return after.replace(over=True, winners=(mover,), to_move=None)
        if after.blanks_left > 0 and any(self._is_dead(after.board, c) for c in CELLS):
            return after.replace(phase=BLANKS)
        return self._end_turn(after)

    def _end_turn(self, state: PlacementState) -> PlacementState:
        """The state once the mover's turn has ended: the next player able to place moves."""
        assert state.to_move is not None
        return self._turn_to(state, state.to_move + 1)

    def _turn_to(self, state: PlacementState, first: int) -> PlacementState:
        """Give the turn to ``first`` or, passing over every player who cannot place, to the
        next one who can; when nobody can, the game is over."""
        waived = list(state.waived)
        passed: list[int] = []
        for k in range(2 * self.players):
            player = (first + k) % self.players
            probe = state.replace(waived=tuple(waived))
            if self.can_place(probe, player):
                return probe.replace(to_move=player, phase=NUMBER, passed=tuple(passed))
            passed.append(player)
            if self.waive_after_pass:
                waived[player] = True
        return state.replace(over=True, to_move=None, phase=NUMBER, passed=(),
                             winners=self.final_winners(state))

    # --- checks -----------------------------------------------------------------------------

    def _check_place(self, state: PlacementState, action: Place) -> Illegal | None:
        cell, number = action.cell, action.number
        bad = self.check_cell(cell)
        if bad is not None:
            return bad
        if number not in self.geometry.number_range:
            return Illegal(N_("{number} is not a number of {game} (1-{high})"),
                           number=number, game=self.name, high=self.high)
        if cell in state.board:
            return Illegal(N_("{cell} is already occupied"), (cell,), cell=cell)
        conflict = house_conflict(self.geometry, state.board, cell, number)
        if conflict is not None:
            return conflict
        assert state.to_move is not None
        return self.placement_problem(state, state.to_move, cell)

    def _check_blank(self, state: PlacementState, action: Blank) -> Illegal | None:
        if state.phase != BLANKS:
            return Illegal(N_("a blank piece comes only after your number piece, on a dead field"))
        mover = state.to_move
        assert mover is not None
        bad = self.check_cell(action.cell)
        if bad is not None:
            return bad
        if action.owner is not None and action.owner not in range(self.players):
            return Illegal(N_("there is no player {owner}"), owner=action.owner)
        if not self.any_colour_blanks and action.owner not in (None, mover):
            return Illegal(N_("in {game} a blank is always of the mover's colour ({COLOUR_NAMES})"),
                           game=self.name, COLOUR_NAMES=COLOUR_NAMES[mover])
        if action.cell in state.board:
            return Illegal(N_("{cell} is already occupied"), (action.cell,), cell=action.cell)
        fits = self._candidates(state.board, action.cell)
        if fits:
            return Illegal(N_("{cell} is not a dead field: {items} still fit there"),
                           (action.cell,), cell=action.cell, items=', '.join(map(str, fits)))
        if state.blanks_left <= 0:
            return Illegal(N_("no blank pieces are left"))
        return None

    # --- helpers ----------------------------------------------------------------------------

    def _candidates(self, board: Mapping[str, Piece], cell: str) -> list[int]:
        used = set()
        for peer in self.geometry.peers[cell]:
            piece = board.get(peer)
            if piece is not None and piece.number is not None:
                used.add(piece.number)
        return [n for n in self.geometry.number_range if n not in used]

    def _is_dead(self, board: Mapping[str, Piece], cell: str) -> bool:
        return cell not in board and not self._candidates(board, cell)

    def _places(self, state: PlacementState) -> Iterator[Place]:
        player = state.to_move
        assert player is not None
        for cell in CELLS:
            if cell in state.board:
                continue
            numbers = self._candidates(state.board, cell)
            if numbers and self.placement_problem(state, player, cell) is None:
                for number in numbers:
                    yield Place(cell, number)
