"""Small games of each interaction family on a 4x4 board, for testing the table on its own.

They speak the rules' generic protocol exactly as the real variants do, but are tiny and fully
predictable, so a scenario can say what every sensor event must do. They are not registered:
tests hand them to the table through its ``resolve`` argument.

- ``fake-kosmos``: cards 1-4 under the Sudoku rule (ranks, files, 2x2 blocks); a card that fits
  nowhere is set aside; blocks score when completed.
- ``fake-vierer`` / ``fake-revers``: a number piece, then blanks on dead fields (the DOMINARI
  blank phase); in ``fake-revers`` a new own piece turns over every orthogonally adjacent
  opposing piece and blanks may be of either colour.
- ``fake-halma``: White a1 b1 a2 against Black d4 c4 d3; steps and jumps forward, bearing off
  from the exit corner (d4 for White, a1 for Black) or by jumping over a piece standing on it.
- ``fake-family``: like ``fake-kosmos`` but a number that fits nowhere is laid as a joker.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import Any, ClassVar

from sudoku_table.rules.actions import OFF, Action, Blank, Discard, EndTurn, Joker, Move, Place
from sudoku_table.rules.errors import Illegal
from sudoku_table.rules.game import Effects, Game, Piece, State, house_conflict, variant_class
from sudoku_table.rules.geometry import Geometry, offset, sudoku_grid


def grid(id: str) -> Geometry:
    g = sudoku_grid(id, 4, 2, 2, (1, 4))
    return Geometry(id=id, cells=g.cells, houses=g.houses, numbers=(1, 4),
                    sections={k: v for k, v in g.houses.items() if k.startswith("block")},
                    neighbours=g.neighbours, regions=g.regions)


@dataclass(frozen=True)
class FakeState(State):
    discarded: int = 0
    blanks_left: int = 4
    borne_off: tuple[int, ...] = (0, 0)


class Placement(Game):
    """Place numbers under the house rule; scores count own pieces."""

    min_players: ClassVar[int] = 2
    max_players: ClassVar[int] = 3

    def build_geometry(self) -> Geometry:
        return grid(self.id)

    def initial_state(self, setup: Mapping[str, Piece] | None = None) -> State:
        return FakeState(self.players, dict(setup or {}), borne_off=(0,) * self.players)

    def fits(self, state: State, cell: str, number: int) -> Illegal | None:
        if cell not in self.geometry.cell_set:
            return Illegal(f"{cell} is not a cell of this board", (cell,))
        if cell in state.board:
            return Illegal(f"{cell} is taken", (cell,))
        if number not in self.geometry.number_range:
            return Illegal(f"{number} is not a number of this game")
        return house_conflict(self.geometry, state.board, cell, number)

    def fits_nowhere(self, state: State, number: int) -> bool:
        return all(self.fits(state, c, number) is not None for c in self.geometry.cells)

    def legal_actions(self, state: State) -> Iterator[Action]:
        if state.over:
            return
        for cell in self.geometry.cells:
            for n in self.geometry.number_range:
                if self.fits(state, cell, n) is None:
                    yield Place(cell, n)

    def check(self, state: State, action: Action) -> Illegal | None:
        if isinstance(action, Place):
            return self.fits(state, action.cell, action.number)
        return Illegal(f"{action.type} is not part of this game")

    def completed(self, board: Mapping[str, Piece], cell: str) -> tuple[str, ...]:
        return tuple(name for name in self.geometry.sections_of[cell]
                     if all(c in board for c in self.geometry.sections[name]))

    def next_player(self, state: State) -> int:
        assert state.to_move is not None
        return (state.to_move + 1) % self.players

    def _apply(self, state: State, action: Action) -> State:
        assert isinstance(action, Place) and state.to_move is not None
        board = dict(state.board)
        board[action.cell] = Piece(state.to_move, action.number)
        done = self.completed(board, action.cell)
        new = state.replace(board=board, to_move=self.next_player(state),
                            last=Effects(completed=done))
        return self.finish(new)

    def finish(self, state: State) -> State:
        if len(state.board) == len(self.geometry.cells) or not any(self.legal_actions(state)):
            scores = self.scores(state)
            best = max(scores)
            return state.replace(over=True, to_move=None,
                                 winners=tuple(p for p, s in enumerate(scores) if s == best))
        return state

    def scores(self, state: State) -> list[int]:
        return [sum(1 for p in state.board.values() if p.owner == i) for i in range(self.players)]


class FakeKosmos(Placement):
    id = "fake-kosmos"
    name = "Fake Kosmos"

    def legal_actions(self, state: State) -> Iterator[Action]:
        yield from super().legal_actions(state)
        if not state.over:
            for n in self.geometry.number_range:
                if self.fits_nowhere(state, n):
                    yield Discard(n)

    def check(self, state: State, action: Action) -> Illegal | None:
        if isinstance(action, Discard):
            if action.number not in self.geometry.number_range:
                return Illegal(f"{action.number} is not a number of this game")
            for cell in self.geometry.cells:
                if self.fits(state, cell, action.number) is None:
                    return Illegal(f"{action.number} fits on {cell}", (cell,))
            return None
        return super().check(state, action)

    def _apply(self, state: State, action: Action) -> State:
        if isinstance(action, Discard):
            assert isinstance(state, FakeState)
            new = state.replace(discarded=state.discarded + 1, to_move=self.next_player(state),
                                last=Effects())
            if new.discarded >= 3:
                return new.replace(over=True, to_move=None, winners=())
            return new
        return super()._apply(state, action)

    def finish(self, state: State) -> State:
        if len(state.board) == len(self.geometry.cells):
            return super().finish(state)
        return state

    def extras(self, state: State) -> dict[str, Any]:
        assert isinstance(state, FakeState)
        return {"discarded": state.discarded}


class FakeFamily(Placement):
    id = "fake-family"
    name = "Fake Family"

    def legal_actions(self, state: State) -> Iterator[Action]:
        yield from super().legal_actions(state)
        if not state.over:
            for n in self.geometry.number_range:
                if self.fits_nowhere(state, n):
                    for cell in self.geometry.cells:
                        if cell not in state.board:
                            yield Joker(cell, n)

    def check(self, state: State, action: Action) -> Illegal | None:
        if isinstance(action, Joker):
            if action.cell not in self.geometry.cell_set or action.cell in state.board:
                return Illegal(f"{action.cell} is not free", (action.cell,))
            if not self.fits_nowhere(state, action.number):
                return Illegal(f"{action.number} still fits somewhere")
            return None
        return super().check(state, action)

    def _apply(self, state: State, action: Action) -> State:
        if isinstance(action, Joker):
            assert state.to_move is not None
            board = dict(state.board)
            board[action.cell] = Piece(state.to_move, None)
            new = state.replace(board=board, to_move=self.next_player(state), last=Effects())
            return super().finish(new)
        return super()._apply(state, action)

    def finish(self, state: State) -> State:
        if len(state.board) == len(self.geometry.cells):
            return super().finish(state)
        return state


class FakeVierer(Placement):
    """A number piece, then own blanks on dead fields while the supply lasts."""

    id = "fake-vierer"
    name = "Fake Vierer"
    min_players: ClassVar[int] = 2
    max_players: ClassVar[int] = 2
    any_colour: ClassVar[bool] = False
    flips: ClassVar[bool] = False

    def initial_state(self, setup: Mapping[str, Piece] | None = None) -> State:
        return FakeState(2, dict(setup or {}), phase="number")

    def can_blank(self, state: State) -> bool:
        assert isinstance(state, FakeState)
        return state.blanks_left > 0 and bool(self.dead_fields(state))

    def legal_actions(self, state: State) -> Iterator[Action]:
        if state.over:
            return
        if state.phase == "blanks":
            for cell in sorted(self.dead_fields(state)):
                yield Blank(cell)
            yield EndTurn()
            return
        yield from super().legal_actions(state)

    def check(self, state: State, action: Action) -> Illegal | None:
        if isinstance(action, EndTurn):
            return None if state.phase == "blanks" else Illegal("place a number piece first")
        if isinstance(action, Blank):
            if state.phase != "blanks":
                return Illegal("a blank only after your number piece")
            if action.cell not in self.dead_fields(state):
                return Illegal(f"{action.cell} is not a dead field", (action.cell,))
            if action.owner not in (None, state.to_move) and not self.any_colour:
                return Illegal("a blank of your own colour only")
            return None
        if isinstance(action, Place) and state.phase == "blanks":
            return self.check(self.end_turn(state), action)
        return super().check(state, action)

    def end_turn(self, state: State) -> State:
        new = state.replace(phase="number", to_move=self.next_player(state), last=Effects())
        if not any(super().legal_actions(new)):
            return new.replace(over=True, to_move=None, winners=(), phase="number")
        return new

    def flipped(self, board: Mapping[str, Piece], cell: str, owner: int) -> tuple[str, ...]:
        if not self.flips:
            return ()
        return tuple(n for n in self.geometry.neighbours_of(cell)
                     if n in board and board[n].owner not in (None, owner))

    def put(self, state: State, cell: str, piece: Piece) -> tuple[dict[str, Piece], Effects]:
        board = dict(state.board)
        board[cell] = piece
        assert piece.owner is not None
        turned = self.flipped(board, cell, piece.owner)
        for c in turned:
            board[c] = Piece(piece.owner, board[c].number)
        return board, Effects(flipped=turned, completed=self.completed(board, cell))

    def _apply(self, state: State, action: Action) -> State:
        assert isinstance(state, FakeState)
        if isinstance(action, EndTurn):
            return self.end_turn(state)
        if isinstance(action, Place) and state.phase == "blanks":
            return self._apply(self.end_turn(state), action)
        mover = state.to_move
        assert mover is not None
        if isinstance(action, Blank):
            owner = mover if action.owner is None else action.owner
            board, effects = self.put(state, action.cell, Piece(owner, None))
            if owner != mover:
                effects = Effects(completed=effects.completed)
                board = dict(state.board)
                board[action.cell] = Piece(owner, None)
            new = state.replace(board=board, blanks_left=state.blanks_left - 1, last=effects)
        else:
            assert isinstance(action, Place)
            board, effects = self.put(state, action.cell, Piece(mover, action.number))
            new = state.replace(board=board, phase="blanks", last=effects)
        if not self.can_blank(new):
            return self.end_turn(new).replace(last=new.last)
        return new

    def extras(self, state: State) -> dict[str, Any]:
        assert isinstance(state, FakeState)
        return {"blanks_left": state.blanks_left}


class FakeRevers(FakeVierer):
    id = "fake-revers"
    name = "Fake Revers"
    any_colour = True
    flips = True

    def default_setup(self, seed: int | None = None) -> dict[str, Piece]:
        return {"b2": Piece(0, 1), "c3": Piece(0, 1), "c2": Piece(1, 2), "b3": Piece(1, 2)}


FORWARD = {0: ((0, 1), (1, 0), (1, 1)), 1: ((0, -1), (-1, 0), (-1, -1))}
EXIT = {0: "d4", 1: "a1"}


class FakeHalma(Game):
    id = "fake-halma"
    name = "Fake Halma"
    moves_pieces = True

    def build_geometry(self) -> Geometry:
        return grid(self.id)

    def default_setup(self, seed: int | None = None) -> dict[str, Piece]:
        return {"a1": Piece(0, 1), "b1": Piece(0, 2), "a2": Piece(0, 3),
                "d4": Piece(1, 1), "c4": Piece(1, 2), "d3": Piece(1, 3)}

    def initial_state(self, setup: Mapping[str, Piece] | None = None) -> State:
        return FakeState(2, dict(setup if setup is not None else self.default_setup()))

    def _jumps(self, board: Mapping[str, Piece], path: list[str], player: int,
               out: list[Move]) -> None:
        here = path[-1]
        for df, dr in FORWARD[player]:
            over = offset(here, df, dr, self.geometry.cell_set)
            if over is None or over not in board:
                continue
            land = offset(here, 2 * df, 2 * dr, self.geometry.cell_set)
            if land is None:
                if over == EXIT[player]:
                    out.append(Move((*path, OFF)))
                continue
            if land in board or land in path:
                continue
            out.append(Move((*path, land)))
            self._jumps(board, [*path, land], player, out)

    def legal_actions(self, state: State) -> Iterator[Action]:
        if state.over or state.to_move is None:
            return
        player = state.to_move
        for cell, piece in sorted(state.board.items()):
            if piece.owner != player:
                continue
            if cell == EXIT[player]:
                yield Move((cell, OFF))
            for df, dr in FORWARD[player]:
                step = offset(cell, df, dr, self.geometry.cell_set)
                if step is not None and step not in state.board:
                    yield Move((cell, step))
            board = {c: p for c, p in state.board.items() if c != cell}
            jumps: list[Move] = []
            self._jumps(board, [cell], player, jumps)
            yield from jumps

    def check(self, state: State, action: Action) -> Illegal | None:
        if not isinstance(action, Move):
            return Illegal("in Halma pieces move")
        if action not in set(self.legal_actions(state)):
            return Illegal(f"{' to '.join(action.path)} is not a legal move", (action.path[0],))
        return None

    def _apply(self, state: State, action: Action) -> State:
        assert isinstance(action, Move) and isinstance(state, FakeState)
        player = state.to_move
        assert player is not None
        board = dict(state.board)
        piece = board.pop(action.path[0])
        borne = list(state.borne_off)
        if action.bears_off:
            borne[player] += 1
        else:
            board[action.path[-1]] = piece
        new = state.replace(board=board, borne_off=tuple(borne), to_move=1 - player,
                            last=Effects())
        if borne[player] == 3:
            return new.replace(over=True, to_move=None, winners=(player,))
        if not any(self.legal_actions(new)):
            new = new.replace(to_move=player)
            if not any(self.legal_actions(new)):
                return new.replace(over=True, to_move=None, winners=())
        return new

    def scores(self, state: State) -> list[int]:
        assert isinstance(state, FakeState)
        return list(state.borne_off)

    def extras(self, state: State) -> dict[str, Any]:
        assert isinstance(state, FakeState)
        return {"borne_off": list(state.borne_off)}


FAKES: dict[str, type[Game]] = {g.id: g for g in (FakeKosmos, FakeFamily, FakeVierer,
                                                  FakeRevers, FakeHalma)}


def resolve(variant: str) -> type[Game]:
    """The fake games first, then the real registry."""
    if variant in FAKES:
        return FAKES[variant]
    return variant_class(variant)

