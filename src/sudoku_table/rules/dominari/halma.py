"""Halma-Dominari: race your six pieces across the board and off the far corner.

Pieces move only forward (White up, right and up-right; Black down, left and down-left), by one
step or by a sequence of jumps over single pieces of either colour. The house rule is checked
only where the move ends; a jump may pause on a conflicting cell. A piece leaves the board by
stepping off its exit corner or by jumping off over a piece standing there.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import Any, ClassVar

from ..actions import OFF, Action, Move
from ..errors import Illegal, RecordError
from ..game import Effects, Game, Piece, PieceLook, State, house_conflict, register
from ..geometry import Geometry
from ..squares import parse_square
from ..wording import N_
from .board import COLOUR_NAMES, PIECE_LOOKS, dominari_geometry, step

SET_SIZE = 6
"""Pieces per player; bearing off all of them wins."""

FORWARD: tuple[tuple[tuple[int, int], ...], ...] = (
    ((0, 1), (1, 0), (1, 1)),        # White: up, right, up-right
    ((0, -1), (-1, 0), (-1, -1)),    # Black: down, left, down-left
)
EXIT = ("f6", "a1")
"""The corner each player bears off over."""
DIRECTION_WORDS = ("up, right or up-right", "down, left or down-left")


@dataclass(frozen=True)
class HalmaState(State):
    """A Halma position; ``borne_off[p]`` pieces of player ``p`` have left the board and
    ``passed`` lists who could not move when the last move ended."""

    borne_off: tuple[int, ...] = (0, 0)
    passed: tuple[int, ...] = ()


def _jump_off(cell: str, player: int, board: Mapping[str, Piece]) -> bool:
    """True when a piece on ``cell`` can jump off the board over its exit corner."""
    exit_corner = EXIT[player]
    if exit_corner not in board:
        return False
    for df, dr in FORWARD[player]:
        if step(cell, df, dr) == exit_corner and step(cell, 2 * df, 2 * dr) is None:
            return True
    return False


@register
class HalmaDominari(Game):
    """Forward-only Halma on 6x6 with the house rule on the final position of every move."""

    id: ClassVar[str] = "halma-dominari"
    order: ClassVar[int] = 10
    name: ClassVar[str] = "Halma-Dominari"
    summary: ClassVar[str] = N_("Step and jump forward across the board; first to bear off all " \
        "six pieces wins.")
    family: ClassVar[str] = "DOMINARI"
    player_labels: ClassVar[tuple[str, ...]] = COLOUR_NAMES
    piece_looks: ClassVar[tuple[PieceLook, ...]] = PIECE_LOOKS
    moves_pieces: ClassVar[bool] = True
    signals: ClassVar[tuple[str, ...]] = ("illegal", "conflict", "target", "missing", "extra",
                                          "setup", "last")
    end_reasons: ClassVar[Mapping[str, str]] = {
        "all_borne_off": N_("a player has borne all six pieces off"),
        "no_moves": Game.end_reasons["no_moves"],
    }
    score_parts: ClassVar[Mapping[str, str]] = {"borne_off": N_("pieces borne off")}

    def build_geometry(self) -> Geometry:
        return dominari_geometry(self.id, 6)

    def dead_fields(self, state: State) -> frozenset[str]:
        """None: pieces move here and no number is ever put on a square, so no square is "dead"
        (the word is not in this game's legend, and its light would ask for a blank that the
        game does not have)."""
        return frozenset()

    def default_setup(self, seed: int | None = None) -> dict[str, Piece]:
        """White 1-6 on a1, b1, c1, a2, b2, a3; Black mirrored through the centre: 1 on f6,
        2 on e6, 3 on d6, 4 on f5, 5 on e5, 6 on f4."""
        white = ("a1", "b1", "c1", "a2", "b2", "a3")
        black = ("f6", "e6", "d6", "f5", "e5", "f4")
        setup = {cell: Piece(0, n) for n, cell in enumerate(white, start=1)}
        setup.update({cell: Piece(1, n) for n, cell in enumerate(black, start=1)})
        return setup

    def initial_state(self, setup: Mapping[str, Piece] | None = None) -> HalmaState:
        """The start position. A setup may leave pieces out to build a later position: the
        pieces a player lacks count as already borne off."""
        board = dict(self.default_setup() if setup is None else setup)
        counts = [0] * self.players
        numbers: list[set[int]] = [set() for _ in range(self.players)]
        for cell, piece in board.items():
            owner = piece.owner
            if owner is None or owner not in range(self.players) or piece.number is None:
                raise RecordError(N_("setup {cell}: Halma uses only White (0) and Black (1) "
                                     "number pieces"),
                                  cell=cell)
            if piece.number in numbers[owner]:
                raise RecordError(N_("setup {cell}: {COLOUR_NAMES} has only one {number}"),
                                  cell=cell, COLOUR_NAMES=COLOUR_NAMES[owner], number=piece.number)
            numbers[owner].add(piece.number)
            counts[owner] += 1
            conflict = house_conflict(self.geometry, board, cell, piece.number)
            if conflict is not None:
                raise RecordError(N_("setup {cell}: {reason} ({items})"),
                                  cell=cell,
                                  reason=conflict.reason,
                                  items=', '.join(conflict.cells))
        for player, count in enumerate(counts):
            if count == 0:
                raise RecordError(N_("setup: {COLOUR_NAMES} needs a piece on the board"),
                                  COLOUR_NAMES=COLOUR_NAMES[player])
        state = HalmaState(players=self.players, board=board,
                           borne_off=tuple(SET_SIZE - c for c in counts))
        return self._turn_to(state, 0)

    # --- moves ------------------------------------------------------------------------------

    def legal_actions(self, state: State) -> Iterator[Action]:
        if state.over or state.to_move is None:
            return
        yield from self._moves(state.board, state.to_move)

    def _moves(self, board: Mapping[str, Piece], player: int) -> Iterator[Move]:
        for cell in sorted(board, key=_order):
            piece = board[cell]
            if piece.owner != player:
                continue
            rest = {c: p for c, p in board.items() if c != cell}
            number = piece.number
            assert number is not None
            if cell == EXIT[player]:
                yield Move((cell, OFF))
            for df, dr in FORWARD[player]:
                target = step(cell, df, dr)
                if target is not None and target not in board and \
                        house_conflict(self.geometry, rest, target, number) is None:
                    yield Move((cell, target))
            yield from self._jumps(rest, player, number, (cell,))

    def _jumps(self, board: Mapping[str, Piece], player: int, number: int,
               path: tuple[str, ...]) -> Iterator[Move]:
        here = path[-1]
        for df, dr in FORWARD[player]:
            over = step(here, df, dr)
            if over is None or over not in board:
                continue
            landing = step(here, 2 * df, 2 * dr)
            if landing is None:
                if over == EXIT[player]:
                    yield Move(path + (OFF,))
                continue
            if landing in board:
                continue
            longer = path + (landing,)
            if house_conflict(self.geometry, board, landing, number) is None:
                yield Move(longer)
            yield from self._jumps(board, player, number, longer)

    def can_move(self, board: Mapping[str, Piece], player: int) -> bool:
        return next(iter(self._moves(board, player)), None) is not None

    def check(self, state: State, action: Action) -> Illegal | None:
        if state.over or state.to_move is None:
            return Illegal(N_("the game is over"))
        if not isinstance(action, Move):
            return Illegal(N_("{game} is played by moving pieces, not by {kind}"),
                           game=self.name, kind=repr(action.type))
        player = state.to_move
        path = action.path
        if len(path) < 2 or OFF in path[:-1]:
            return Illegal(N_("a move lists its start and every landing cell, 'off' only last"))
        start = path[0]
        for cell in path:
            if cell != OFF and cell not in self.geometry.cell_set:
                return Illegal(N_("{cell} is not a cell of this board"), (cell,), cell=cell)
        piece = state.board.get(start)
        if piece is None or piece.owner != player:
            return Illegal(N_("{start} holds no piece of {COLOUR_NAMES}'s"),
                           (start,), start=start, COLOUR_NAMES=COLOUR_NAMES[player])
        board = {c: p for c, p in state.board.items() if c != start}
        if len(path) == 2 and path[1] == OFF:
            if start == EXIT[player] or _jump_off(start, player, board):
                return None
            return Illegal(N_("a piece leaves the board only from {EXIT} or by jumping over a "
                              "piece on {EXIT}"),
                           (start,), EXIT=EXIT[player])
        if len(path) == 2 and _delta(start, path[1]) in FORWARD[player]:
            return self._landing_problem(board, path[1], piece)
        here = start
        for landing in path[1:]:
            if landing == OFF:
                if not _jump_off(here, player, board):
                    return Illegal(N_("from {here} no jump leads off the board over {EXIT}"),
                                   (here,), here=here, EXIT=EXIT[player])
                return None
            df, dr = _delta(here, landing)
            if (df, dr) in FORWARD[player]:
                return Illegal(N_("steps and jumps do not mix: a move is one step or only jumps"),
                               (landing,))
            if df % 2 or dr % 2 or (df // 2, dr // 2) not in FORWARD[player]:
                return Illegal(N_("{here} to {landing} is no forward step or jump: {player} "
                                  "moves {directions}"),
                               (here, landing), here=here, landing=landing,
                               player=COLOUR_NAMES[player], directions=DIRECTION_WORDS[player])
            over = step(here, df // 2, dr // 2)
            assert over is not None
            if over not in board:
                return Illegal(N_("nothing to jump over on {over}"), (over,), over=over)
            if landing in board:
                return Illegal(N_("{landing} is occupied"), (landing,), landing=landing)
            here = landing
        return self._landing_problem(board, here, piece)

    def _landing_problem(self, board: Mapping[str, Piece], cell: str,
                         piece: Piece) -> Illegal | None:
        if cell in board:
            return Illegal(N_("{cell} is occupied"), (cell,), cell=cell)
        assert piece.number is not None
        return house_conflict(self.geometry, board, cell, piece.number)

    def _apply(self, state: State, action: Action) -> State:
        assert isinstance(state, HalmaState) and isinstance(action, Move)
        player = state.to_move
        assert player is not None
        board = dict(state.board)
        piece = board.pop(action.start)
        borne_off = list(state.borne_off)
        points = [0] * self.players
        if action.bears_off:
            borne_off[player] += 1
            points[player] = 1
        else:
            board[action.path[-1]] = piece
        after = state.replace(board=board, borne_off=tuple(borne_off),
                              last=Effects(points=tuple(points)))
        if borne_off[player] >= SET_SIZE:
            return after.replace(over=True, to_move=None, winners=(player,), passed=())
        return self._turn_to(after, player + 1)

    def _turn_to(self, state: HalmaState, first: int) -> HalmaState:
        """The turn goes to ``first`` or the next player able to move; a full round of players
        unable to move is a draw."""
        passed: list[int] = []
        for k in range(self.players):
            player = (first + k) % self.players
            if self.can_move(state.board, player):
                return state.replace(to_move=player, passed=tuple(passed))
            passed.append(player)
        return state.replace(over=True, to_move=None, winners=(), passed=())

    def scores(self, state: State) -> list[int]:
        assert isinstance(state, HalmaState)
        return list(state.borne_off)

    def score_breakdown(self, state: State) -> list[dict[str, int]]:
        assert isinstance(state, HalmaState)
        return [{"borne_off": n} for n in state.borne_off]

    def end_reason(self, state: State) -> str | None:
        if not state.over:
            return None
        assert isinstance(state, HalmaState)
        return "all_borne_off" if max(state.borne_off) >= SET_SIZE else "no_moves"

    def extras(self, state: State) -> dict[str, Any]:
        assert isinstance(state, HalmaState)
        return {"borne_off": list(state.borne_off), "passed": list(state.passed)}


def _delta(a: str, b: str) -> tuple[int, int]:
    fa, ra = parse_square(a)
    fb, rb = parse_square(b)
    return fb - fa, rb - ra


def _order(cell: str) -> tuple[int, int]:
    f, r = parse_square(cell)
    return r, f
