"""What every game of the KOSMOS SUDOKU collection shares: cards, sections, bonus areas.

Each player owns a face-down stack of whole sets of cards 1-9 (2 players four sets each, 3
players three, 4 players two) and holds one card at a time. A turn either places the held card
on an empty cell, obeying the houses of the board (and any extra condition of the variant), or,
when the card fits on no empty cell at all, sets it aside (``discard``). The table learns a
card's number only when it is placed or set aside, so it lists every number the mover still
has in the stack.

Scoring (docs/RULINGS.md, "KOSMOS SUDOKU collection"):

- A **section** scores as soon as it is full: each player sums their own cards in it; the
  highest sum gets 2 points, the second highest 1. Equal sums rank by the higher highest card
  (then the next highest, and so on; players who are still equal share the place and the next
  player ranks behind both). Players without a card in it get nothing. Section points are a
  function of the position alone.
- A **bonus area** filled by a card gives the player who placed that card +1, as may extra
  awards of a variant (Kakuro's exact clue). Who earned them is kept in the state.

The game ends after the third card set aside in total, when every card has been used, or when
the board is full. A player without cards left has no action and is passed over; while cards
last, a player always has one (a card either fits somewhere or may be set aside).

A variant only describes its board: subclasses set ``id``, ``name``, ``summary`` and override
``build_geometry`` (houses, sections and bonus areas come from the geometry). Two hooks let a
variant add rules: ``placement_problem`` (an extra condition on a placement) and
``extra_awards`` (bonus points beyond the bonus areas).
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar

from ..actions import Action, Discard, Place
from ..cards import CardGame
from ..errors import Illegal, RecordError
from ..game import Board, Effects, Game, Piece, State, house_conflict
from ..wording import N_

SETS_PER_PLAYER: Mapping[int, int] = {2: 4, 3: 3, 4: 2}
"""Whole sets of cards 1-9 each player gets, by number of players."""

DISCARDS_TO_END = 3
"""The game ends when this many cards in total have been set aside."""

SECTION_POINTS = (2, 1)
"""Points for the highest and the second highest sum in a full section."""


@dataclass(frozen=True)
class KosmosState(State):
    """A position of a KOSMOS game.

    ``supply[p][n - 1]`` counts the cards ``n`` player ``p`` still has (neither placed nor set
    aside). ``set_aside`` lists every card set aside as (player, number), in order. ``awards``
    lists the bonus points earned so far as (area, player), in order. ``section_points`` are
    the points each player holds from full sections (kept in step with the board). ``passed``
    lists the players passed over (their cards used up) when the turn last moved on.
    """

    supply: tuple[tuple[int, ...], ...] = ()
    set_aside: tuple[tuple[int, int], ...] = ()
    awards: tuple[tuple[str, int], ...] = ()
    section_points: tuple[int, ...] = ()
    passed: tuple[int, ...] = ()

    @property
    def discarded(self) -> int:
        """How many cards have been set aside in total."""
        return len(self.set_aside)

    def cards_left(self, player: int) -> int:
        return sum(self.supply[player])


def rank_section(board: Board, cells: Sequence[str], players: int) -> list[int]:
    """The points each player gets from the full section ``cells`` on ``board``."""
    cards: dict[int, list[int]] = {}
    for cell in cells:
        piece = board[cell]
        if piece.owner is not None and piece.number is not None:
            cards.setdefault(piece.owner, []).append(piece.number)
    keys = {p: (sum(ns), sorted(ns, reverse=True)) for p, ns in cards.items()}
    order = sorted(keys, key=lambda p: keys[p], reverse=True)
    points = [0] * players
    place = 0
    i = 0
    while i < len(order) and place < len(SECTION_POINTS):
        tied = [p for p in order[i:] if keys[p] == keys[order[i]]]
        for p in tied:
            points[p] = SECTION_POINTS[place]
        place += len(tied)
        i += len(tied)
    return points


class KosmosGame(CardGame):
    """The common rules; a variant sets its names and builds its geometry."""

    family: ClassVar[str] = "KOSMOS SUDOKU"
    min_players: ClassVar[int] = 2
    max_players: ClassVar[int] = 4
    set_aside_limit: ClassVar[int | None] = DISCARDS_TO_END
    end_reasons: ClassVar[Mapping[str, str]] = {
        "board_full": Game.end_reasons["board_full"],
        "cards_set_aside": N_("three cards have been set aside"),
        "cards_used_up": N_("every card has been played"),
    }
    score_parts: ClassVar[Mapping[str, str]] = {
        "sections": N_("sections"),
        "bonuses": N_("bonus points"),
    }

    # --- hooks ------------------------------------------------------------------------------

    def placement_problem(self, board: Board, cell: str, number: int) -> Illegal | None:
        """Why ``number`` may not go on the empty ``cell`` for reasons beyond the houses (Kakuro
        clues); None when nothing else stands against it."""
        return None

    def extra_awards(self, before: Board, after: Board, cell: str) -> list[str]:
        """Names of bonus points, beyond the bonus areas, that the card just put on ``cell``
        earns its placer (each worth 1); ``before`` and ``after`` are the boards around it."""
        return []

    # --- setup ------------------------------------------------------------------------------

    @property
    def sets(self) -> int:
        """Whole sets of cards 1-9 per player."""
        return SETS_PER_PLAYER[self.players]

    def initial_state(self, setup: Mapping[str, Piece] | None = None) -> KosmosState:
        board: dict[str, Piece] = dict(setup or {})
        numbers = self.geometry.number_range
        low = numbers[0]
        supply = [[self.sets] * len(numbers) for _ in range(self.players)]
        for cell, piece in board.items():
            if cell not in self.geometry.cell_set:
                raise RecordError(N_("setup names {cell}, which is not a cell of {id}"),
                                  cell=repr(cell), id=self.id)
            if piece.number is None:
                raise RecordError(N_("setup {cell}: {game} has no blank pieces"),
                                  cell=cell, game=self.name)
            if piece.number not in numbers:
                raise RecordError(N_("setup {cell}: {number} is not a card of {game}"),
                                  cell=cell, number=piece.number, game=self.name)
            conflict = house_conflict(self.geometry, board, cell, piece.number)
            if conflict is not None:
                raise RecordError(N_("setup {cell}: {reason} ({items})"),
                                  cell=cell,
                                  reason=conflict.reason,
                                  items=', '.join(conflict.cells))
            if piece.owner is not None:
                if piece.owner not in range(self.players):
                    raise RecordError(N_("setup {cell}: no player {owner}"),
                                      cell=cell, owner=piece.owner)
                left = supply[piece.owner][piece.number - low]
                if left <= 0:
                    raise RecordError(N_("setup {cell}: player {owner} has only {sets} cards "
                                         "{number}"),
                                      cell=cell,
                                      owner=piece.owner,
                                      sets=self.sets,
                                      number=piece.number)
                supply[piece.owner][piece.number - low] = left - 1
        state = KosmosState(
            players=self.players, board=board,
            supply=tuple(tuple(s) for s in supply),
            section_points=tuple(self.position_points(board)),
            last=Effects(points=(0,) * self.players),
        )
        return self._turn_to(state, 0)

    # --- questions --------------------------------------------------------------------------

    def fits(self, board: Board, cell: str, number: int) -> bool:
        """Whether ``number`` may go on the empty ``cell`` (houses and variant conditions)."""
        for peer in self.geometry.peers[cell]:
            piece = board.get(peer)
            if piece is not None and piece.number == number:
                return False
        return self.placement_problem(board, cell, number) is None

    def _fitting(self, board: Board, cell: str, wanted: Sequence[int]) -> list[int]:
        used = set()
        for peer in self.geometry.peers[cell]:
            piece = board.get(peer)
            if piece is not None and piece.number is not None:
                used.add(piece.number)
        return [n for n in wanted if n not in used
                and self.placement_problem(board, cell, n) is None]

    def _held(self, state: KosmosState, player: int) -> list[int]:
        """The numbers ``player`` still has cards of."""
        low = self.geometry.numbers[0]
        return [low + i for i, k in enumerate(state.supply[player]) if k > 0]

    def legal_actions(self, state: State) -> Iterator[Action]:
        """Every card the mover still has: on each empty cell where it fits, or set aside when
        it fits nowhere."""
        assert isinstance(state, KosmosState)
        if state.over or state.to_move is None:
            return
        held = self._held(state, state.to_move)
        placeable: set[int] = set()
        board = state.board
        for cell in self.geometry.cells:
            if cell in board:
                continue
            for number in self._fitting(board, cell, held):
                placeable.add(number)
                yield Place(cell, number)
        for number in held:
            if number not in placeable:
                yield Discard(number)

    def placeable_numbers(self, state: State, cell: str) -> list[int]:
        assert isinstance(state, KosmosState)
        if state.over or state.to_move is None or cell not in self.geometry.cell_set \
                or cell in state.board:
            return []
        return self._fitting(state.board, cell, self._held(state, state.to_move))

    def cells_for(self, board: Board, number: int) -> list[str]:
        """The empty cells where ``number`` fits."""
        return [c for c in self.geometry.cells if c not in board and self.fits(board, c, number)]

    def _check_number(self, state: KosmosState, number: int) -> Illegal | None:
        low, high = self.geometry.numbers
        if number not in self.geometry.number_range:
            return Illegal(N_("{number} is not a card of {game} ({low}-{high})"),
                           number=number, game=self.name, low=low, high=high)
        assert state.to_move is not None
        if state.supply[state.to_move][number - low] <= 0:
            return Illegal(N_("player {value} has no card {number} left (all {sets} are used)"),
                           value=state.to_move + 1, number=number, sets=self.sets)
        return None

    def _check_place(self, state: State, action: Place) -> Illegal | None:
        assert isinstance(state, KosmosState)
        bad = self.check_cell(action.cell)
        if bad is not None:
            return bad
        bad = self._check_number(state, action.number)
        if bad is not None:
            return bad
        if action.cell in state.board:
            return Illegal(N_("{cell} is already occupied"), (action.cell,), cell=action.cell)
        conflict = house_conflict(self.geometry, state.board, action.cell, action.number)
        if conflict is not None:
            return conflict
        return self.placement_problem(state.board, action.cell, action.number)

    def _check_discard(self, state: State, action: Discard) -> Illegal | None:
        assert isinstance(state, KosmosState)
        bad = self._check_number(state, action.number)
        if bad is not None:
            return bad
        where = self.cells_for(state.board, action.number)
        if where:
            shown = ", ".join(where[:6]) + (", ..." if len(where) > 6 else "")
            return Illegal(N_("{number} still fits on {shown}: it may not be set aside"),
                           tuple(where), number=action.number, shown=shown)
        return None

    # --- scores -----------------------------------------------------------------------------

    def position_points(self, board: Board) -> list[int]:
        """Section points of every full section of ``board``, per player."""
        points = [0] * self.players
        for cells in self.geometry.sections.values():
            if all(c in board for c in cells):
                for p, got in enumerate(rank_section(board, cells, self.players)):
                    points[p] += got
        return points

    def scores(self, state: State) -> list[int]:
        assert isinstance(state, KosmosState)
        scores = list(state.section_points)
        for _, player in state.awards:
            scores[player] += 1
        return scores

    def final_winners(self, state: KosmosState) -> tuple[int, ...]:
        """Most points wins; equal points share the win."""
        scores = self.scores(state)
        best = max(scores)
        return tuple(p for p, s in enumerate(scores) if s == best)

    def score_breakdown(self, state: State) -> list[dict[str, int]]:
        assert isinstance(state, KosmosState)
        bonuses = [0] * self.players
        for _, player in state.awards:
            bonuses[player] += 1
        return [{"sections": state.section_points[p], "bonuses": bonuses[p]}
                for p in range(self.players)]

    def end_reason(self, state: State) -> str | None:
        if not state.over:
            return None
        assert isinstance(state, KosmosState)
        if len(state.board) >= len(self.geometry.cells):
            return "board_full"
        return "cards_set_aside" if state.discarded >= DISCARDS_TO_END else "cards_used_up"

    def hand_supply(self, state: State, player: int) -> dict[int, int] | None:
        """The cards still in ``player``'s stack, by number."""
        assert isinstance(state, KosmosState)
        low = self.geometry.numbers[0]
        return {low + i: k for i, k in enumerate(state.supply[player]) if k > 0}

    def extras(self, state: State) -> dict[str, Any]:
        assert isinstance(state, KosmosState)
        return {
            "discarded": state.discarded,
            "set_aside": [{"player": p, "number": n} for p, n in state.set_aside],
            "supply": [list(s) for s in state.supply],
            "cards_left": [state.cards_left(p) for p in range(self.players)],
            "bonus": [{"area": a, "player": p} for a, p in state.awards],
            "passed": list(state.passed),
        }

    # --- applying ---------------------------------------------------------------------------

    def _apply(self, state: State, action: Action) -> State:
        assert isinstance(state, KosmosState)
        mover = state.to_move
        assert mover is not None
        low = self.geometry.numbers[0]
        supply = list(state.supply)
        own = list(supply[mover])
        own[action.number - low] -= 1  # type: ignore[union-attr]
        supply[mover] = tuple(own)
        if isinstance(action, Discard):
            after = state.replace(
                supply=tuple(supply), set_aside=state.set_aside + ((mover, action.number),),
                last=Effects(points=(0,) * self.players))
            return self._turn_to(after, mover + 1)
        assert isinstance(action, Place)
        cell = action.cell
        before = state.board
        board = dict(before)
        board[cell] = Piece(mover, action.number)
        geometry = self.geometry
        completed: list[str] = []
        gained = [0] * self.players
        section_points = list(state.section_points)
        for name in geometry.sections_of[cell]:
            cells = geometry.sections[name]
            if all(c in board for c in cells):
                completed.append(name)
                for p, got in enumerate(rank_section(board, cells, self.players)):
                    section_points[p] += got
                    gained[p] += got
        awards = list(state.awards)
        for name in geometry.bonus_of[cell]:
            if all(c in board for c in geometry.bonus[name]):
                if name not in completed:
                    completed.append(name)
                awards.append((name, mover))
                gained[mover] += 1
        for name in self.extra_awards(before, board, cell):
            completed.append(name)
            awards.append((name, mover))
            gained[mover] += 1
        after = state.replace(
            board=board, supply=tuple(supply), awards=tuple(awards),
            section_points=tuple(section_points),
            last=Effects(completed=tuple(completed), points=tuple(gained)))
        return self._turn_to(after, mover + 1)

    def _turn_to(self, state: KosmosState, first: int) -> KosmosState:
        """Give the turn to ``first`` or, passing over players without cards, to the next one
        who has some; end the game when it is over."""
        ended = (state.discarded >= DISCARDS_TO_END
                 or len(state.board) >= len(self.geometry.cells))
        if not ended:
            passed: list[int] = []
            for k in range(self.players):
                player = (first + k) % self.players
                if state.cards_left(player) > 0:
                    return state.replace(to_move=player, passed=tuple(passed))
                passed.append(player)
        return state.replace(over=True, to_move=None, passed=(),
                             winners=self.final_winners(state))
