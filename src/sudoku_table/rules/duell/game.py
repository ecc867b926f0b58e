"""Duell der Meister: two players fight for the 27 houses of a 9x9 Sudoku (docs/RULINGS.md).

Nine gold cards, 1 to 9, one in each 3x3 block, belong to nobody. Each player plays from a
stack of four sets 1-9 (36 cards): a turn places the card in hand obeying the Sudoku rule, or
sets it aside when it fits on no empty cell (verified). The table never sees a stack, so it
enforces what it can: nobody uses a number more than four times, placed and set aside together.

Markers (one per house, ``markers`` maps a house to its winner):

- a house that becomes full goes at once to the player with more cards in it (gold cards count
  for nobody; equal counts: the higher highest card, and so on);
- right after a player's card (placed or set aside), every house then decided in that player's
  favour is awarded to them in that same turn (``claims.claim_holds``: even the opponent's best
  case cannot outdo them); at the start of a player's turn, every house decided in their favour
  meanwhile (by the opponent's card) is awarded to them;
- twelve markers win at once; if one action brings both players to twelve, its mover wins (the
  game ends before the opponent's turn, and its claims, begin);
- when both stacks are used up, every house not yet awarded goes to the player with more cards
  in it (no player card: nobody), then more markers win and equal markers draw.

A player whose stack is used up while the other still holds cards misses their turns; the
table passes them by itself (``passed``). With equal stacks and strict turns this only ever
leaves the second player one last card after the first player's stack is empty.
"""

from __future__ import annotations

import random
from collections.abc import Collection, Iterator, Mapping
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

from ..actions import Action, Discard, Place
from ..cards import CardGame
from ..errors import Illegal, RecordError
from ..game import (
    PLACEMENT_SIGNALS,
    Effects,
    Piece,
    State,
    house_conflict,
    register,
)
from ..geometry import Geometry, sudoku_grid
from ..solver import SearchLimit, find_fill
from ..wording import N_
from .claims import ALL_NUMBERS, claim_holds, house_winner, numbers_of

SETS = 4
"""Each player's stack holds this many sets of the cards 1-9."""
STACK = 9 * SETS
"""Cards in one player's stack."""
MARKERS_TO_WIN = 12
"""Markers each player has; the first to place them all wins at once."""

GEOMETRY: Geometry = sudoku_grid("duell-der-meister", 9, 3, 3, (1, 9))
CELLS: tuple[str, ...] = GEOMETRY.cells
HOUSE_NAMES: tuple[str, ...] = tuple(GEOMETRY.houses)
HOUSE_CELLS: tuple[tuple[str, ...], ...] = tuple(GEOMETRY.houses[h] for h in HOUSE_NAMES)
_HOUSE_INDEX = {name: i for i, name in enumerate(HOUSE_NAMES)}
CELL_HOUSES: dict[str, tuple[int, ...]] = {
    c: tuple(_HOUSE_INDEX[h] for h in GEOMETRY.houses_of[c]) for c in CELLS
}
BLOCK_NAMES: tuple[str, ...] = tuple(h for h in HOUSE_NAMES if h.startswith("block"))

DEFAULT_GOLD: dict[str, int] = {
    "c2": 2, "d1": 7, "i3": 8, "a5": 5, "d4": 1, "h4": 9, "a9": 4, "d9": 3, "h7": 6,
}
"""The documented gold cards of a record without setup (one per block, completely fillable)."""

FILL_ATTEMPTS = 8
FILL_NODES = 3000
"""How hard ``validate_gold_cards`` searches for a complete fill (about 0.1 s at most)."""

NO_CARDS_USED: tuple[int, ...] = (0,) * 10
"""Cards of each number 1-9 used so far (index 0 unused)."""


@dataclass(frozen=True)
class DuellState(State):
    """A position of Duell der Meister.

    ``used[p][n]`` counts player ``p``'s cards of number ``n`` placed or set aside;
    ``markers`` maps each awarded house to its winner, in the order they were awarded;
    ``discarded`` counts the cards set aside by both; ``passed`` lists the players whose turn
    was skipped after the last action (their stack was used up); ``awarded`` names the houses
    the last action brought in, in this order: full ones, the mover's claims in the same turn,
    the next player's claims at the start of their turn.
    """

    used: tuple[tuple[int, ...], ...] = (NO_CARDS_USED, NO_CARDS_USED)
    markers: Mapping[str, int] = field(default_factory=dict)
    discarded: int = 0
    passed: tuple[int, ...] = ()
    awarded: tuple[str, ...] = ()


# --- small helpers on boards --------------------------------------------------------------------

def house_masks(board: Mapping[str, Piece]) -> list[int]:
    """For each house (in ``HOUSE_NAMES`` order) the mask of numbers standing in it."""
    masks = [0] * len(HOUSE_NAMES)
    for cell, piece in board.items():
        if piece.number is not None:
            bit = 1 << piece.number
            for h in CELL_HOUSES[cell]:
                masks[h] |= bit
    return masks


def open_numbers(masks: list[int], cell: str) -> int:
    """The mask of numbers the Sudoku rule still allows on the empty ``cell``."""
    used = 0
    for h in CELL_HOUSES[cell]:
        used |= masks[h]
    return ALL_NUMBERS & ~used


def cards_left(state: DuellState, player: int) -> int:
    """How many cards are still in ``player``'s stack (the one in hand included)."""
    return STACK - sum(state.used[player])


def remaining_numbers(state: DuellState, player: int) -> int:
    """The mask of numbers ``player`` still holds at least one card of."""
    mask = 0
    counts = state.used[player]
    for n in range(1, 10):
        if counts[n] < SETS:
            mask |= 1 << n
    return mask


def cards_in(board: Mapping[str, Piece], cells: tuple[str, ...],
             players: int = 2) -> list[list[int]]:
    """Each player's card numbers in ``cells`` (gold cards count for nobody)."""
    cards: list[list[int]] = [[] for _ in range(players)]
    for c in cells:
        piece = board.get(c)
        if piece is not None and piece.owner is not None and piece.number is not None:
            cards[piece.owner].append(piece.number)
    return cards


HouseView = tuple[tuple[list[int], list[int]], list[int]]
"""One house as the claims see it: each player's card numbers in it, and for each of its empty
cells the mask of numbers the Sudoku rule still allows there."""


def house_views(board: Mapping[str, Piece],
                awarded: Collection[str] = ()) -> list[HouseView | None]:
    """Every house (in ``HOUSE_NAMES`` order) as the claims see it on ``board``; None for the
    houses in ``awarded``, which nobody can claim any more."""
    masks = house_masks(board)
    open_of = {cell: open_numbers(masks, cell) for cell in CELLS if cell not in board}
    views: list[HouseView | None] = []
    for name, cells in zip(HOUSE_NAMES, HOUSE_CELLS, strict=True):
        if name in awarded:
            views.append(None)
            continue
        cards: tuple[list[int], list[int]] = ([], [])
        open_masks: list[int] = []
        for cell in cells:
            piece = board.get(cell)
            if piece is None:
                open_masks.append(open_of[cell])
            elif piece.owner is not None and piece.number is not None:
                cards[piece.owner].append(piece.number)
        views.append((cards, open_masks))
    return views


def decided_houses(state: DuellState, claimant: int,
                   views: list[HouseView | None] | None = None) -> list[str]:
    """The houses not yet awarded that are decided in ``claimant``'s favour now: even if the
    opponent filled every cell of the house that can still be filled (with numbers the Sudoku
    rule allows there and that remain in the opponent's stack), the claimant would rank
    higher. ``views`` are the board's ``house_views`` when the caller has them already."""
    if views is None:
        views = house_views(state.board, state.markers)
    opponent = 1 - claimant
    available = remaining_numbers(state, opponent)
    result = []
    for name, view in zip(HOUSE_NAMES, views, strict=True):
        if view is None or name in state.markers:
            continue
        cards, open_masks = view
        mine = cards[claimant]
        if not mine:
            continue
        if claim_holds(mine, cards[opponent], [m & available for m in open_masks]):
            result.append(name)
    return result


def validate_gold_cards(board: Mapping[str, Piece]) -> None:
    """``RecordError`` unless ``board`` is a proper setup: nine gold cards owned by nobody, one
    in each 3x3 block, showing 1 to 9 once each, that leave the board completely fillable."""
    for cell, piece in board.items():
        if piece.owner is not None:
            raise RecordError(N_('setup {cell}: gold cards belong to nobody ("owner": null), got '
                                 'owner {owner}'),
                              cell=cell, owner=piece.owner)
        if piece.number is None:
            raise RecordError(N_("setup {cell}: a gold card shows a number 1-9"), cell=cell)
    if len(board) != 9:
        raise RecordError(N_("the setup must hold nine gold cards, one in each 3x3 block; it "
                             "holds {count}"),
                          count=len(board))
    for block in BLOCK_NAMES:
        inside = [c for c in GEOMETRY.houses[block] if c in board]
        if len(inside) != 1:
            what = "no gold card" if not inside else \
                f"{len(inside)} gold cards ({', '.join(inside)})"
            raise RecordError(N_("setup: {block} holds {what}; each block holds exactly one"),
                              block=block, what=what)
    seen: dict[int, str] = {}
    for cell, piece in board.items():
        assert piece.number is not None
        if piece.number in seen:
            raise RecordError(N_("setup: the gold cards show 1 to 9 once each, but {number} "
                                 "stands on {seen} and {cell}"),
                              number=piece.number, seen=seen[piece.number], cell=cell)
        seen[piece.number] = cell
        conflict = house_conflict(GEOMETRY, board, cell, piece.number)
        if conflict is not None:  # pragma: no cover - distinct numbers never conflict
            raise RecordError(N_("setup {cell}: {reason}"), cell=cell, reason=conflict.reason)
    given = frozenset((c, p.number) for c, p in board.items() if p.number is not None)
    if _fillable(given) is False:
        raise RecordError(N_("setup: these gold cards leave no way to fill the whole board"))


@lru_cache(maxsize=64)
def _fillable(given: frozenset[tuple[str, int]]) -> bool | None:
    """Whether the board can be completed around ``given``; None if not settled (never seen in
    practice: the players may still try). A few short searches in different orders: hard cases
    for one order are easy for another. A search that ends without a fill is a proof."""
    for attempt in range(FILL_ATTEMPTS):
        try:
            fill = find_fill(GEOMETRY, dict(given), seed=attempt or None, node_limit=FILL_NODES)
        except SearchLimit:
            continue
        return fill is not None
    return None


# --- the game -----------------------------------------------------------------------------------

@register
class DuellDerMeister(CardGame):
    """Duell der Meister: majorities in ranks, files and blocks win markers; twelve win."""

    id = "duell-der-meister"
    order = 110
    name = "Duell der Meister"
    summary = (N_("Two players fight for the ranks, files and blocks of a Sudoku seeded with nine "
               "gold cards; twelve markers win."))
    family = "Duell der Meister"
    min_players = 2
    max_players = 2
    random_setup = True
    other_actions = N_("{game} has no {kind} actions: place your card, or set it aside when "
                       "it fits nowhere")
    signals = (*PLACEMENT_SIGNALS, "setup")
    end_reasons = {
        "twelve_markers": N_("a player holds twelve markers"),
        "cards_used_up": N_("every card has been played"),
    }
    score_parts = {
        "ranks": N_("row markers"),
        "files": N_("column markers"),
        "block_markers": N_("block markers"),
    }

    def build_geometry(self) -> Geometry:
        return GEOMETRY

    # --- setup ------------------------------------------------------------------------------

    def default_setup(self, seed: int | None = None) -> dict[str, Piece]:
        """The documented gold cards, or with ``seed`` a random proposal: nine cells of a random
        complete fill, one per block with a different number each, so the board stays
        fillable."""
        if seed is None:
            return {c: Piece(None, n) for c, n in DEFAULT_GOLD.items()}
        rng = random.Random(seed)
        fill = find_fill(GEOMETRY, seed=rng.randrange(2**32))
        assert fill is not None
        numbers = list(range(1, 10))
        rng.shuffle(numbers)
        setup: dict[str, Piece] = {}
        for block, number in zip(BLOCK_NAMES, numbers, strict=True):
            (cell,) = [c for c in GEOMETRY.houses[block] if fill[c] == number]
            setup[cell] = Piece(None, number)
        return dict(sorted(setup.items(), key=lambda item: CELLS.index(item[0])))

    def parse_setup(self, setup: object) -> dict[str, Piece]:
        board = super().parse_setup(setup)
        if board:
            validate_gold_cards(board)
        return board

    def initial_state(self, setup: Mapping[str, Piece] | None = None) -> DuellState:
        board = dict(self.default_setup() if not setup else setup)
        validate_gold_cards(board)
        return DuellState(players=2, board=board, to_move=0)

    # --- questions --------------------------------------------------------------------------

    def legal_actions(self, state: State) -> Iterator[Action]:
        assert isinstance(state, DuellState)
        if state.over or state.to_move is None:
            return
        available = remaining_numbers(state, state.to_move)
        masks = house_masks(state.board)
        fits_somewhere = 0
        for cell in CELLS:
            if cell in state.board:
                continue
            fits = open_numbers(masks, cell)
            fits_somewhere |= fits
            for n in numbers_of(fits & available):
                yield Place(cell, n)
        for n in numbers_of(available & ~fits_somewhere):
            yield Discard(n)

    def placeable_numbers(self, state: State, cell: str) -> list[int]:
        assert isinstance(state, DuellState)
        if state.over or state.to_move is None or cell not in GEOMETRY.cell_set \
                or cell in state.board:
            return []
        fits = open_numbers(house_masks(state.board), cell)
        return numbers_of(fits & remaining_numbers(state, state.to_move))

    def dead_fields(self, state: State) -> frozenset[str]:
        masks = house_masks(state.board)
        return frozenset(c for c in CELLS if c not in state.board and not open_numbers(masks, c))

    def scores(self, state: State) -> list[int]:
        assert isinstance(state, DuellState)
        result = [0, 0]
        for winner in state.markers.values():
            result[winner] += 1
        return result

    def score_breakdown(self, state: State) -> list[dict[str, int]]:
        assert isinstance(state, DuellState)
        parts = [{"ranks": 0, "files": 0, "block_markers": 0} for _ in range(2)]
        kinds = {"rank": "ranks", "file": "files", "block": "block_markers"}
        for name, winner in state.markers.items():
            parts[winner][kinds[name.split()[0]]] += 1
        return parts

    def end_reason(self, state: State) -> str | None:
        if not state.over:
            return None
        if any(s >= MARKERS_TO_WIN for s in self.scores(state)):
            return "twelve_markers"
        return "cards_used_up"

    def hand_supply(self, state: State, player: int) -> dict[int, int] | None:
        """The cards still in ``player``'s stack, by number."""
        assert isinstance(state, DuellState)
        counts = state.used[player]
        return {n: SETS - counts[n] for n in range(1, 10) if counts[n] < SETS}

    def extras(self, state: State) -> dict[str, Any]:
        assert isinstance(state, DuellState)
        return {
            "markers": dict(state.markers),
            "discarded": state.discarded,
            "cards_left": [cards_left(state, p) for p in range(2)],
            "passed": list(state.passed),
            "awarded": list(state.awarded),
        }

    # --- checks -----------------------------------------------------------------------------

    def _check_number(self, state: DuellState, number: int) -> Illegal | None:
        if not isinstance(number, int) or isinstance(number, bool) or not 1 <= number <= 9:
            return Illegal(N_("{number} is not a number of {game} (1-9)"),
                           number=number, game=self.name)
        assert state.to_move is not None
        if state.used[state.to_move][number] >= SETS:
            return Illegal(N_("all {SETS} of your {number}s are already used: your stack holds no "
                              "other {number}"),
                           SETS=SETS, number=number)
        return None

    def _check_place(self, state: State, action: Place) -> Illegal | None:
        assert isinstance(state, DuellState)
        bad = self.check_cell(action.cell)
        if bad is not None:
            return bad
        if not isinstance(action.number, int) or not 1 <= action.number <= 9:
            return Illegal(N_("{number} is not a number of {game} (1-9)"),
                           number=action.number, game=self.name)
        if action.cell in state.board:
            return Illegal(N_("{cell} is already occupied"), (action.cell,), cell=action.cell)
        conflict = house_conflict(GEOMETRY, state.board, action.cell, action.number)
        if conflict is not None:
            return conflict
        return self._check_number(state, action.number)

    def _check_discard(self, state: State, action: Discard) -> Illegal | None:
        assert isinstance(state, DuellState)
        bad = self._check_number(state, action.number)
        if bad is not None:
            return bad
        masks = house_masks(state.board)
        bit = 1 << action.number
        fits = tuple(c for c in CELLS if c not in state.board and open_numbers(masks, c) & bit)
        if fits:
            shown = ", ".join(fits[:6]) + (", ..." if len(fits) > 6 else "")
            return Illegal(N_("{number} still fits on {shown}: place it instead of setting it "
                              "aside"),
                           fits, number=action.number, shown=shown)
        return None

    # --- applying ---------------------------------------------------------------------------

    def _apply(self, state: State, action: Action) -> State:
        assert isinstance(state, DuellState)
        mover = state.to_move
        assert mover is not None and isinstance(action, (Place, Discard))
        used = [list(counts) for counts in state.used]
        used[mover][action.number] += 1
        board = state.board
        markers = dict(state.markers)
        awarded: list[str] = []
        completed: list[str] = []
        discarded = state.discarded
        if isinstance(action, Place):
            board = dict(board)
            board[action.cell] = Piece(mover, action.number)
            for h in CELL_HOUSES[action.cell]:
                cells = HOUSE_CELLS[h]
                if all(c in board for c in cells):
                    name = HOUSE_NAMES[h]
                    completed.append(name)
                    winner = house_winner(cards_in(board, cells))
                    if name not in markers and winner is not None:
                        markers[name] = winner
                        awarded.append(name)
        else:
            discarded += 1
        after = state.replace(board=board, used=tuple(tuple(c) for c in used), markers=markers,
                              discarded=discarded, passed=(), awarded=())
        claimed: list[str] = []
        views = house_views(board, markers)  # the same board for both players' claims
        after = self._claim(after, mover, views, awarded, claimed)
        after = self._next_turn(after, mover, views, awarded, claimed)
        before_scores, after_scores = self.scores(state), self.scores(after)
        points = tuple(a - b for a, b in zip(after_scores, before_scores, strict=True))
        return after.replace(last=Effects(completed=tuple(completed), points=points,
                                          claimed=tuple(claimed)))

    def _claim(self, state: DuellState, player: int, views: list[HouseView | None],
               awarded: list[str], claimed: list[str]) -> DuellState:
        """``state`` with every house now decided in ``player``'s favour awarded to them (each
        appended to ``awarded`` and ``claimed`` as well); ``views`` are its board's."""
        decided = decided_houses(state, player, views)
        if not decided:
            return state
        markers = dict(state.markers)
        for name in decided:
            markers[name] = player
        awarded.extend(decided)
        claimed.extend(decided)
        return state.replace(markers=markers)

    def _next_turn(self, state: DuellState, mover: int, views: list[HouseView | None],
                   awarded: list[str], claimed: list[str]) -> DuellState:
        """After ``mover``'s action and claims: a win at twelve markers, or the next turn (with
        its player's claims and the passes), or the end once both stacks are used up."""
        won = self._twelve(state, mover)
        if won is not None:
            return state.replace(over=True, to_move=None, winners=(won,),
                                 awarded=tuple(awarded))
        opponent = 1 - mover
        passed: tuple[int, ...] = ()
        if cards_left(state, opponent) > 0:
            player = opponent
        elif cards_left(state, mover) > 0:
            player, passed = mover, (opponent,)
        else:
            return self._final(state, awarded)
        if player != mover:  # the mover's own claims were made right after the action
            state = self._claim(state, player, views, awarded, claimed)
        state = state.replace(to_move=player, passed=passed, awarded=tuple(awarded))
        won = self._twelve(state, mover)
        if won is not None:
            return state.replace(over=True, to_move=None, winners=(won,))
        return state

    def _twelve(self, state: DuellState, mover: int) -> int | None:
        """The player holding twelve markers (the mover when both do), else None."""
        reached = [p for p, s in enumerate(self.scores(state)) if s >= MARKERS_TO_WIN]
        if not reached:
            return None
        return mover if mover in reached else reached[0]

    def _final(self, state: DuellState, awarded: list[str]) -> DuellState:
        """Both stacks are used up: the open houses go by majority, then markers decide."""
        markers = dict(state.markers)
        for h, name in enumerate(HOUSE_NAMES):
            if name in markers:
                continue
            winner = house_winner(cards_in(state.board, HOUSE_CELLS[h]))
            if winner is not None:
                markers[name] = winner
                awarded.append(name)
        state = state.replace(markers=markers, awarded=tuple(awarded))
        scores = self.scores(state)
        winners = () if scores[0] == scores[1] else (0 if scores[0] > scores[1] else 1,)
        return state.replace(over=True, to_move=None, winners=winners)
