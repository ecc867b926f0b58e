"""The one protocol every variant answers, and the values it speaks in.

A ``Game`` is a variant configured for a number of players and options (OpenSpiel's "game"); it
is stateless and answers questions about immutable ``State`` values:

- ``initial_state(setup)``: the position before the first action;
- ``legal_actions(state)``: a generator of every legal action of the player to move;
- ``check(state, action)``: ``None`` when legal, else an ``Illegal`` with reason and cells;
- ``apply(state, action)``: the next state (raises ``IllegalActionError``), whose ``last`` holds
  the action's effects (flips, completions, points);
- ``dead_fields(state)``, ``scores(state)``, and ``state.over`` / ``state.winners``;
- ``document(state)``: the state document of docs/records.md.

Variant modules subclass ``Game`` and register themselves with ``@register``.
"""

from __future__ import annotations

import dataclasses
import importlib
import pkgutil
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from datetime import date
from typing import Any, ClassVar, TypeVar

from .actions import Action, Place
from .errors import Illegal, IllegalActionError, RecordError, UnknownVariantError
from .geometry import Geometry
from .squares import is_square
from .wording import N_

Board = Mapping[str, "Piece"]


@dataclass(frozen=True, slots=True)
class Piece:
    """What stands on a cell. ``number`` None is a blank piece or a joker; ``owner`` None is a
    piece of nobody's (Duell's gold cards)."""

    owner: int | None
    number: int | None

    @property
    def blank(self) -> bool:
        return self.number is None

    def to_json(self) -> dict[str, Any]:
        if self.number is None:
            return {"owner": self.owner, "blank": True}
        return {"owner": self.owner, "number": self.number}

    @staticmethod
    def from_json(d: object, where: str = "piece") -> Piece:
        if not isinstance(d, Mapping):
            raise RecordError(N_('{where} must be an object like {{"owner": 0, "number": 3}}'),
                              where=where)
        owner = d.get("owner")
        if owner is not None and (not isinstance(owner, int) or isinstance(owner, bool)):
            raise RecordError(N_("{where}: owner must be a player number or null, got {owner}"),
                              where=where, owner=repr(owner))
        if d.get("blank") is True:
            return Piece(owner, None)
        number = d.get("number")
        if not isinstance(number, int) or isinstance(number, bool):
            raise RecordError(N_("{where}: number must be a whole number, got {number}"),
                              where=where, number=repr(number))
        return Piece(owner, number)


@dataclass(frozen=True, slots=True)
class Effects:
    """What one action did: pieces flipped, houses or sections completed, points per player,
    and houses won before they were full (``claimed``: Duell der Meister's early claims, to
    whichever player they went)."""

    flipped: tuple[str, ...] = ()
    completed: tuple[str, ...] = ()
    points: tuple[int, ...] = ()
    claimed: tuple[str, ...] = ()

    def to_json(self) -> dict[str, Any]:
        return {"flipped": list(self.flipped), "completed": list(self.completed),
                "points": list(self.points), "claimed": list(self.claimed)}


@dataclass(frozen=True)
class Said:
    """A sentence for the players: an English template and its parameters, which the panel
    words in its own language (a list parameter of areas is said as a list)."""

    text: str
    params: Mapping[str, Any] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        return {"text": self.text, "params": dict(self.params)}


@dataclass(frozen=True)
class State:
    """An immutable position. Variants subclass it to add their own fields.

    ``board`` maps occupied cells to pieces and is never mutated once the state exists.
    ``to_move`` is None once the game is over. ``phase`` is ``"number"`` or ``"blanks"`` in the
    DOMINARI placement games, None elsewhere.
    """

    players: int
    board: Board
    to_move: int | None = 0
    over: bool = False
    winners: tuple[int, ...] = ()
    last: Effects = field(default_factory=Effects)
    phase: str | None = None

    def replace(self: S, **changes: Any) -> S:
        return dataclasses.replace(self, **changes)


S = TypeVar("S", bound=State)


BLANKS_PHASE = "blanks"
"""``State.phase`` while the mover of a DOMINARI placement game may still lay blanks."""

PLACEMENT_SIGNALS = ("illegal", "conflict", "number", "dead", "target", "missing", "extra",
                     "last")
"""The LED words a game of placements shows (``Game.signals``)."""


@dataclass(frozen=True, slots=True)
class PieceLook:
    """How a seat's real pieces look, so the panel draws them as they stand on the table."""

    fill: str
    text: str
    edge: str = "#00000088"

    def to_json(self) -> dict[str, str]:
        return {"fill": self.fill, "text": self.text, "edge": self.edge}


PIECE_LIGHTS = ("illegal", "conflict", "number", "target", "missing", "extra", "setup")
"""The LED words whose meaning names a piece (``PieceWords.lights`` words each of them)."""


@dataclass(frozen=True, slots=True)
class PieceWords:
    """What a game's pieces are called at the table, in English (each marked for the
    catalogs, which translate it whole): the word (``card``), many of them (``cards``), one of
    them (``a card``), how to handle one on the simulated board, how the table draws one
    for a computer seat where the game hides the mover's (``hidden_hands``), and what each
    light that names a piece means (``lights``: ``illegal`` is "take this card away"; every
    word of ``PIECE_LIGHTS``, whole sentences since a language may inflect the word)."""

    one: str
    many: str
    a: str
    handle: str
    computer_draws: str
    lights: Mapping[str, str]

    def __post_init__(self) -> None:
        missing = [word for word in PIECE_LIGHTS if word not in self.lights]
        unknown = [word for word in self.lights if word not in PIECE_LIGHTS]
        if missing or unknown:
            raise ValueError(f"the lights of {self.many!r} must word exactly "
                             f"{', '.join(PIECE_LIGHTS)} (missing: {', '.join(missing) or '-'}; "
                             f"unknown: {', '.join(unknown) or '-'})")

    def to_json(self) -> dict[str, Any]:
        return {"one": self.one, "many": self.many, "a": self.a, "handle": self.handle,
                "computer_draws": self.computer_draws, "lights": dict(self.lights)}


PIECES = PieceWords(
    N_("piece"), N_("pieces"), N_("a piece"),
    N_("Tap a square to put a piece down or lift it; tap a piece twice to turn it over."),
    N_("Draw a piece for the computer and tap its number."),
    {"illegal": N_("take this piece away"), "conflict": N_("the piece it clashes with"),
     "number": N_("tell the panel this piece's number"), "target": N_("a piece may go here"),
     "missing": N_("a piece belongs here"), "extra": N_("this piece does not belong here"),
     "setup": N_("put a start piece here")})
CARDS = PieceWords(
    N_("card"), N_("cards"), N_("a card"), N_("Tap a square to put a card down or lift it."),
    N_("Turn over the computer's top card and tap its number."),
    {"illegal": N_("take this card away"), "conflict": N_("the card it clashes with"),
     "number": N_("tell the panel this card's number"), "target": N_("a card may go here"),
     "missing": N_("a card belongs here"), "extra": N_("this card does not belong here"),
     "setup": N_("put a start card here")})
STONES = PieceWords(
    N_("stone"), N_("stones"), N_("a stone"), N_("Tap a square to put a stone down or lift it."),
    N_("Draw a stone for the computer and tap its number."),
    {"illegal": N_("take this stone away"), "conflict": N_("the stone it clashes with"),
     "number": N_("tell the panel this stone's number"), "target": N_("a stone may go here"),
     "missing": N_("a stone belongs here"), "extra": N_("this stone does not belong here"),
     "setup": N_("put a start stone here")})
"""The words of the pieces, cards and stones of the twelve games; a game of other pieces
declares its own ``PieceWords``."""


class Game:
    """A variant, configured. Subclasses set the class attributes and implement the hooks.

    Besides the rules, a variant describes itself, as python-chess's variants and OpenSpiel's
    ``GameType`` do: everything the panel, the overlays and the companion need to know about
    the game is a class attribute here (or on its ``Geometry``), and ``traits()`` serves it, so
    no other layer ever checks a variant's id.
    """

    id: ClassVar[str]
    name: ClassVar[str]
    summary: ClassVar[str] = ""
    family: ClassVar[str] = ""
    """The product the game comes from (``DOMINARI``, ``KOSMOS SUDOKU``...)."""
    min_players: ClassVar[int] = 2
    max_players: ClassVar[int] = 2
    option_defaults: ClassVar[Mapping[str, Any]] = {}
    option_choices: ClassVar[Mapping[str, tuple[Any, ...]]] = {}
    option_labels: ClassVar[Mapping[str, str]] = {}
    """A few words per option for the start form (the option's key when missing)."""
    choice_labels: ClassVar[Mapping[str, Mapping[Any, str]]] = {}
    """A few words per choice of an option (the choice itself when missing)."""
    player_labels: ClassVar[tuple[str, ...]] = ()
    """Names of the seats by the colour of their real pieces (``White``, ``Black``); empty: the
    seats are numbered."""
    piece_looks: ClassVar[tuple[PieceLook, ...]] = ()
    """How each seat's real pieces look; empty: drawn in the LED colour of the player."""
    piece_words: ClassVar[PieceWords] = PIECES
    """What the game's pieces are called at the table (``PIECES``, ``CARDS``, ``STONES`` or a
    game's own)."""
    piece_word: ClassVar[str] = PIECES.one
    """The word of ``piece_words`` (``piece``, ``card``, ``stone``), which messages name; set
    from ``piece_words``, never declared."""
    moves_pieces: ClassVar[bool] = False
    """A game of moves (pieces are lifted and set down elsewhere), not of placements."""
    has_blanks: ClassVar[bool] = False
    """Blank pieces go on dead fields."""
    has_set_asides: ClassVar[bool] = False
    """A card that fits nowhere is set aside."""
    set_aside_limit: ClassVar[int | None] = None
    """Set-asides in all that end the game (None: no such limit)."""
    has_jokers: ClassVar[bool] = False
    """A stone that fits nowhere is laid face down as a joker."""
    hidden_hands: ClassVar[bool] = False
    """The mover's card or stone is hidden until it is played: the panel asks its number."""
    own_piles: ClassVar[bool] = False
    """Each player draws from a pile of their own (``hand_supply`` is exactly that pile), so the
    table can draw a computer seat's card itself; not so from a shared bag with stones left
    unseen in the box."""
    random_setup: ClassVar[bool] = False
    """``default_setup(seed)`` proposes random start positions (Duell's gold cards)."""
    number_stays: ClassVar[bool] = False
    """A number tapped before its piece goes down stays chosen for every piece after it, until
    another number is tapped (a puzzle solved number by number); else it is used once."""
    setup_from_options: ClassVar[bool] = False
    """The options name the start position (a puzzle's givens): the start form asks for the
    options and shows no start position to change."""
    setup_by_number: ClassVar[bool] = False
    """The start pieces are guided number by number: every square of one number lit at once,
    any piece put on one of them is that number (a puzzle's givens)."""
    signals: ClassVar[tuple[str, ...]] = PLACEMENT_SIGNALS
    """The words of the LED language this game can show (the panel's legend lists these)."""
    order: ClassVar[int]
    """Where the game stands in menus and listings (lower first, as docs/records.md lists
    them); every registered variant declares it."""
    end_reasons: ClassVar[Mapping[str, str]] = {
        "board_full": N_("the board is full"),
        "no_moves": N_("nobody can move any more"),
    }
    """Every code ``end_reason`` may answer, with its English wording (marked for the
    catalogs). A variant with endings of its own declares them with its ``end_reason``."""
    score_parts: ClassVar[Mapping[str, str]] = {}
    """Every part ``score_breakdown`` may count, with its English name (marked for the
    catalogs)."""
    geometry: Geometry

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        if "piece_word" in cls.__dict__:
            raise TypeError(f"{cls.__name__} declares piece_word: declare piece_words instead")
        cls.piece_word = cls.piece_words.one

    @classmethod
    def traits(cls) -> dict[str, Any]:
        """What the game says about itself, as the panel's API serves it."""
        return {
            "family": cls.family or cls.name,
            "player_labels": list(cls.player_labels),
            "piece_looks": [look.to_json() for look in cls.piece_looks],
            "piece_word": cls.piece_word,
            "piece_words": cls.piece_words.to_json(),
            "moves_pieces": cls.moves_pieces,
            "has_blanks": cls.has_blanks,
            "has_set_asides": cls.has_set_asides,
            "set_aside_limit": cls.set_aside_limit,
            "has_jokers": cls.has_jokers,
            "hidden_hands": cls.hidden_hands,
            "own_piles": cls.own_piles,
            "random_setup": cls.random_setup,
            "setup_from_options": cls.setup_from_options,
            "number_stays": cls.number_stays,
            "setup_by_number": cls.setup_by_number,
            "signals": list(cls.signals),
            "option_labels": {k: cls.option_labels.get(k, k.replace("_", " "))
                              for k in cls.option_defaults},
            "choice_labels": {k: {str(c): cls.choice_labels.get(k, {}).get(c, str(c))
                                  for c in cls.option_choices.get(k, ())}
                              for k in cls.option_defaults},
        }

    def __init__(self, players: int | None = None, options: Mapping[str, Any] | None = None):
        if players is None:
            players = self.min_players
        if not isinstance(players, int) or isinstance(players, bool) or not (
            self.min_players <= players <= self.max_players
        ):
            raise RecordError(
                N_("{id} is for {min_players}-{max_players} players, got {players}"),
                id=self.id, min_players=self.min_players, max_players=self.max_players,
                players=repr(players))
        self.players = players
        self.options = self.validate_options(options or {})
        self.geometry = self.build_geometry()

    @classmethod
    def fixed_options(cls, options: Mapping[str, Any], today: date,
                      draw: Callable[[], int]) -> dict[str, Any]:
        """The options of a game starting now, with any choice that depends on the day or on
        chance made: ``today`` is the table's local date, ``draw`` a random number from the
        table. A record keeps what this returns, so the game replays the same; most games
        have no such choice and return the options as they are."""
        return dict(options)

    # --- hooks for variants ---------------------------------------------------------------

    def build_geometry(self) -> Geometry:
        raise NotImplementedError

    def initial_state(self, setup: Mapping[str, Piece] | None = None) -> State:
        raise NotImplementedError

    def legal_actions(self, state: State) -> Iterator[Action]:
        raise NotImplementedError

    def check(self, state: State, action: Action) -> Illegal | None:
        raise NotImplementedError

    def _apply(self, state: State, action: Action) -> State:
        """The next state after a legal ``action`` (``check`` has already passed)."""
        raise NotImplementedError

    def scores(self, state: State) -> list[int]:
        raise NotImplementedError

    def default_setup(self, seed: int | None = None) -> dict[str, Piece]:
        """The pieces on the board before the first action when a record gives no setup.

        With ``seed`` None this is the variant's documented fixed default; with a seed, variants
        that allow it propose a random one (Duell der Meister's gold cards)."""
        return {}

    def placeable_numbers(self, state: State, cell: str) -> list[int]:
        """The numbers the player to move may place on ``cell`` now (sorted). Variants may
        override this for speed; the answer must equal what ``legal_actions`` implies."""
        return sorted({a.number for a in self.legal_actions(state)
                       if isinstance(a, Place) and a.cell == cell})

    def actor(self, state: State, action: Action) -> int | None:
        """Who makes ``action`` in ``state``: the player to move, unless the game hands the
        turn on first (a number piece put down in a DOMINARI blank phase is the next
        player's)."""
        return state.to_move

    def where_rule(self, state: State) -> Said | None:
        """Where the player to move may put a piece now, in a sentence said before the first
        try; None where the house rule alone decides (any empty cell a number fits). Games
        that restrict where a piece may go (adjacency, openings, triangles) override this."""
        return None

    def hand_supply(self, state: State, player: int) -> dict[int, int] | None:
        """Where the game hides the mover's card or stone (``hidden_hands``): the numbers
        ``player`` may be holding or drawing now, each with how many of them are left to draw
        from (their own stack, or the shared bag). None where nothing is hidden."""
        return None

    def extras(self, state: State) -> dict[str, Any]:
        """Variant fields of the state document (``blanks_left``, ``borne_off``...)."""
        return {}

    def score_breakdown(self, state: State) -> list[dict[str, int]]:
        """Each player's score split the way the rule book counts it (keys of the game's
        ``score_parts``; the parts add up to the score). Empty where the score has no parts."""
        return []

    def end_reason(self, state: State) -> str | None:
        """Why a finished game ended, as a code of the game's ``end_reasons`` (None while it
        runs). Variants with endings of their own override this and declare them."""
        if not state.over:
            return None
        if len(state.board) >= len(self.geometry.cells):
            return "board_full"
        return "no_moves"

    # --- shared behaviour -----------------------------------------------------------------

    def validate_options(self, options: Mapping[str, Any]) -> dict[str, Any]:
        if not isinstance(options, Mapping):
            raise RecordError(N_("options must be an object, got {options}"), options=repr(options))
        result = dict(self.option_defaults)
        for key, value in options.items():
            if key not in self.option_defaults:
                known = ", ".join(self.option_defaults) or "none"
                raise RecordError(N_("{id} has no option {key} (options: {known})"),
                                  id=self.id, key=repr(key), known=known)
            choices = self.option_choices.get(key)
            if choices is not None and value not in choices:
                raise RecordError(N_("option {key} must be one of {choices}, got {value}"),
                                  key=repr(key), choices=list(choices), value=repr(value))
            result[key] = value
        return result

    def apply(self, state: State, action: Action) -> State:
        """The state after ``action``; ``IllegalActionError`` (changing nothing) if illegal."""
        if state.over:
            raise IllegalActionError(Illegal(N_("the game is over")))
        illegal = self.check(state, action)
        if illegal is not None:
            raise IllegalActionError(illegal)
        return self._apply(state, action)

    def is_legal(self, state: State, action: Action) -> bool:
        return not state.over and self.check(state, action) is None

    def dead_fields(self, state: State) -> frozenset[str]:
        """Empty cells on which no number of the game's range can stand (house rules only)."""
        return dead_fields(self.geometry, state.board)

    def parse_setup(self, setup: object) -> dict[str, Piece]:
        """A record's ``setup`` as pieces; ``RecordError`` for cells off this board."""
        if setup is None:
            return {}
        if not isinstance(setup, Mapping):
            raise RecordError(N_("setup must be an object mapping cells to pieces"))
        board: dict[str, Piece] = {}
        for cell, raw in setup.items():
            if not is_square(cell) or cell not in self.geometry.cell_set:
                raise RecordError(N_("setup names {cell}, which is not a cell of {id}"),
                                  cell=repr(cell), id=self.id)
            piece = Piece.from_json(raw, where=f"setup {cell}")
            if piece.owner is not None and not (0 <= piece.owner < self.players):
                raise RecordError(N_("setup {cell}: no player {owner}"),
                                  cell=cell, owner=piece.owner)
            if piece.number is not None and piece.number not in self.geometry.number_range:
                raise RecordError(N_("setup {cell}: {number} is not a number of {id}"),
                                  cell=cell, number=piece.number, id=self.id)
            board[cell] = piece
        return board

    def document(self, state: State) -> dict[str, Any]:
        """The state document of docs/records.md."""
        doc: dict[str, Any] = {
            "variant": self.id,
            "players": self.players,
            "options": dict(self.options),
            "to_move": None if state.over else state.to_move,
            "over": state.over,
            "winners": list(state.winners),
            "scores": self.scores(state),
            "cells": {c: state.board[c].to_json() for c in sorted(state.board, key=_cell_key)},
            "dead": sorted(self.dead_fields(state), key=_cell_key),
            "last": state.last.to_json(),
        }
        if state.over:
            doc["end_reason"] = self.declared_end_reason(state)
            breakdown = self.score_breakdown(state)
            undeclared = {part for parts in breakdown for part in parts} - set(self.score_parts)
            if undeclared:
                raise KeyError(f"{self.id} counts the score parts {sorted(undeclared)}, which "
                               "its score_parts do not declare")
            if breakdown:
                doc["breakdown"] = breakdown
        if state.phase is not None:
            doc["phase"] = state.phase
        doc.update(self.extras(state))
        return doc

    def declared_end_reason(self, state: State) -> str | None:
        """``end_reason``, checked against the game's ``end_reasons``: ``KeyError`` (a bug in
        the variant) for a code it does not declare, so no ending goes unworded."""
        reason = self.end_reason(state)
        if reason is not None and reason not in self.end_reasons:
            raise KeyError(f"{self.id} ends with {reason!r}, which its end_reasons do not "
                           "declare")
        return reason

    def check_cell(self, cell: str) -> Illegal | None:
        if cell not in self.geometry.cell_set:
            return Illegal(N_("{cell} is not a cell of this board"), (cell,), cell=cell)
        return None


def _cell_key(cell: str) -> tuple[str, str]:
    return cell[0], cell[1:]


# --- house rule helpers shared by every variant ------------------------------------------------

def used_numbers(geometry: Geometry, board: Board, cell: str) -> set[int]:
    """Numbers already standing in any house of ``cell``."""
    used: set[int] = set()
    for peer in geometry.peers[cell]:
        piece = board.get(peer)
        if piece is not None and piece.number is not None:
            used.add(piece.number)
    return used


def candidates(geometry: Geometry, board: Board, cell: str) -> list[int]:
    """Numbers of the game's range that the house rule allows on ``cell``."""
    used = used_numbers(geometry, board, cell)
    return [n for n in geometry.number_range if n not in used]


def house_conflict(geometry: Geometry, board: Board, cell: str, number: int) -> Illegal | None:
    """``Illegal`` naming every house of ``cell`` that already holds ``number``, or None."""
    houses: list[str] = []
    cells: list[str] = []
    for house in geometry.houses_of[cell]:
        for other in geometry.houses[house]:
            if other == cell:
                continue
            piece = board.get(other)
            if piece is not None and piece.number == number:
                houses.append(house)
                if other not in cells:
                    cells.append(other)
    if not houses:
        return None
    return Illegal(N_("{number} is already in {houses}"), tuple(cells), number=number,
                   houses=list(houses))


def dead_fields(geometry: Geometry, board: Board) -> frozenset[str]:
    """Empty cells where every number of the range already stands in one of their houses."""
    need = len(geometry.number_range)
    low, high = geometry.numbers
    dead = []
    for cell in geometry.cells:
        if cell in board:
            continue
        used = used_numbers(geometry, board, cell)
        if sum(1 for n in used if low <= n <= high) >= need:
            dead.append(cell)
    return frozenset(dead)


# --- the registry ------------------------------------------------------------------------------

VARIANTS: dict[str, type[Game]] = {}

G = TypeVar("G", bound=type[Game])


def register(cls: G) -> G:
    """Class decorator: make a variant findable by its id. ``ValueError`` for a variant that
    does not declare its ``order``, an id registered twice, or an end reason or score part
    that another variant words differently (a code means the same everywhere)."""
    if cls.id in VARIANTS:
        raise ValueError(f"variant {cls.id!r} registered twice")
    if not isinstance(getattr(cls, "order", None), int):
        raise ValueError(f"variant {cls.id!r} declares no order (its place in the list)")
    for attribute in ("end_reasons", "score_parts"):
        known = _declared(attribute)
        for code, words in getattr(cls, attribute).items():
            if known.get(code, words) != words:
                raise ValueError(f"variant {cls.id!r} words the {attribute} code {code!r} as "
                                 f"{words!r}, another variant as {known[code]!r}")
    VARIANTS[cls.id] = cls
    return cls


def variant_class(variant_id: object) -> type[Game]:
    """The variant with this id; ``UnknownVariantError`` lists the known ones."""
    discover()
    if not isinstance(variant_id, str) or variant_id not in VARIANTS:
        raise UnknownVariantError(
            N_("unknown variant {variant_id} (one of {items})")
        , variant_id=repr(variant_id), items=', '.join(sorted(VARIANTS)))
    return VARIANTS[variant_id]


def new_game(variant_id: str, players: int | None = None,
             options: Mapping[str, Any] | None = None) -> Game:
    """A configured game of the variant ``variant_id``."""
    return variant_class(variant_id)(players, options)


def all_variants() -> list[type[Game]]:
    """Every registered variant, in the order they declare (docs/records.md lists them so)."""
    discover()
    return sorted(VARIANTS.values(), key=lambda cls: (cls.order, cls.id))


def discover() -> None:
    """Import every module of the rules package once, so that each variant registers itself
    (a new variant is its module, and nothing else names it)."""
    global _discovered
    if _discovered:
        return
    _discovered = True  # first: a module asking while it loads gets those registered so far
    try:
        package = importlib.import_module(__package__ or "sudoku_table.rules")
        for module in pkgutil.walk_packages(package.__path__, f"{package.__name__}."):
            importlib.import_module(module.name)
    except BaseException:
        _discovered = False
        raise


_discovered = False


def _declared(attribute: str) -> dict[str, str]:
    """The words of ``attribute`` (``end_reasons`` or ``score_parts``) of the protocol itself
    and of every registered variant."""
    words: dict[str, str] = dict(getattr(Game, attribute))
    for cls in VARIANTS.values():
        words.update(getattr(cls, attribute))
    return words


class DeclaredWords(Mapping[str, str]):
    """Every code of one kind the registered variants declare, with its English wording, read
    afresh at each use (a variant registered later counts too)."""

    def __init__(self, attribute: str):
        self._attribute = attribute

    def _words(self) -> dict[str, str]:
        discover()
        return _declared(self._attribute)

    def __getitem__(self, code: str) -> str:
        return self._words()[code]

    def __iter__(self) -> Iterator[str]:
        return iter(self._words())

    def __len__(self) -> int:
        return len(self._words())


END_REASONS: Mapping[str, str] = DeclaredWords("end_reasons")
"""Every way a game can end (``Game.end_reasons`` of every variant), with its English wording;
the state document of a finished game carries the code as ``end_reason``."""

SCORE_PARTS: Mapping[str, str] = DeclaredWords("score_parts")
"""The parts a score is made of (``Game.score_parts`` of every variant), with their English
names."""
