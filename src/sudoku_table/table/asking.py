"""Ask the table: short answers to a player's questions, for a player who cannot see the board.

A player who cannot see the LEDs or the phone asks what is on a square, reads a rank, a file
or a block, asks which numbers may go on a square or where a number may go, the scores, whose
turn it is and what to do now, and what was said last. ``ask`` answers from the game as data:
the rules (``Game``) and their ``State`` for what may go where, and the view's table part as
the asking device may see it (the panel's ``present``: a seat's phone sees its own card, nobody
else's), so an answer never tells more than that device's own view shows.

Answers are codes with parameters (``Phrase``), as the table's announcements are: ``say`` words
them in a language (``announce.Voice``), with the players' names as the panel shows them, so the
same answer is shown on a German phone and said by the table's English speaker.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from sudoku_table.rules.actions import Place
from sudoku_table.rules.game import Game, State
from sudoku_table.rules.squares import FILES, RANKS, is_square, parse_square
from sudoku_table.rules.wording import N_

from . import announce
from .view import Message

QUESTIONS = ("square", "rank", "file", "block", "may", "where", "scores", "now", "repeat")
"""The questions a player may ask (``GET /api/say?q=...``)."""


Phrase = Message
"""One phrase of an answer, shaped as a message line: a code of ``PHRASES`` and its parameters
(players as seat numbers, words still in English, other phrases nested), so any language can
word it."""


PHRASES: Mapping[str, str] = {
    "no_game": N_("no game is running: start one on the New game page"),
    "off_board": N_("{square} is not a square of this board"),
    "empty": N_("{square}: empty"),
    "empty_light": N_("{square}: empty; its light: {meaning}"),
    "holds": N_("{square}: {what}"),
    "holds_light": N_("{square}: {what}; its light: {meaning}"),
    "number_of": N_("{player}'s {number}"),
    "number_of_nobody": N_("{number}, given"),
    "blank_of": N_("{player}'s blank"),
    "blank_of_nobody": N_("a blank"),
    "joker_of": N_("{player}'s joker"),
    "joker_of_nobody": N_("a joker"),
    "item": N_("{square} {what}"),
    "read": N_("{area}: {items}"),
    "read_empty": N_("{area}: all {count} squares empty"),
    "read_with_empty": N_("{area}: {items}; empty: {squares}"),
    "area_off_board": N_("{area} has no square on this board"),
    "dead_fields": N_("dead fields: {squares}"),
    "may": N_("{square} may take {numbers}"),
    "may_none": N_("no number may go on {square} now"),
    "may_taken": N_("{square} is taken: {what}"),
    "moves_only": N_("in this game pieces move: no number is needed"),
    "over": N_("the game is over"),
    "where": N_("{number} may go on {count} squares: {squares}"),
    "where_one": N_("{number} may go on {squares} only"),
    "where_none": N_("{number} may go nowhere now"),
    "no_such_number": N_("this game has no {number}: its numbers run from {low} to {high}"),
    "scores": N_("scores: {items}"),
    "score": N_("{player} {points}"),
    "turn_step": N_("{player}'s turn: {step}"),
    "your_step": N_("your turn: {step}"),
    "step": N_("{step}"),
    "your_hand": N_("your {piece}: {number}"),
    "said": N_("{text}"),
    "nothing_said": N_("the table has said nothing yet"),
}
"""Every phrase of the answers with its English wording (the catalog has the German)."""

COMMON_LIGHTS: Mapping[str, str] = {
    "flip": N_("turn this piece over"),
    "dead": N_("dead field: only a blank may go here"),
    "last": N_("last move or completed area"),
    "computer": N_("carry out the computer's move here"),
    "hint": N_("the hint you asked for"),
    "unsaved": N_("not counted yet: the table cannot save (in the corners: the table cannot "
                  "save)"),
    "replayed": N_("the move played here"),
    "better": N_("the computer's better move"),
}
"""What the lights that name no piece mean, in the legend's own words; the lights that name a
piece are the game's (``PieceWords.lights``)."""


@dataclass(frozen=True)
class Question:
    """One question: its kind (of ``QUESTIONS``) and what it is about."""

    kind: str
    square: str | None = None
    rank: str | None = None
    file: str | None = None
    number: int | None = None


class QuestionError(ValueError):
    """A question the table cannot take: an English template and its parameters, worded by
    the edge that meets the player."""

    def __init__(self, template: str, **params: Any) -> None:
        self.template = template
        self.params = params
        super().__init__(template.format(**params))


def question(kind: str, square: str | None = None, rank: str | None = None,
             file: str | None = None, number: str | None = None) -> Question:
    """A checked question from the words of a request; ``QuestionError`` for anything it
    lacks or cannot mean (never a guess)."""
    if kind not in QUESTIONS:
        raise QuestionError(N_("unknown question {q} (questions: {questions})"),
                            q=repr(kind), questions=", ".join(QUESTIONS))
    needs = {"square": "square", "block": "square", "may": "square", "rank": "rank",
             "file": "file", "where": "number"}.get(kind)
    given = {"square": square, "rank": rank, "file": file, "number": number}
    if needs is not None and given[needs] is None:
        raise QuestionError(N_("the question {q} needs the parameter {name}"),
                            q=repr(kind), name=repr(needs))
    extra = [name for name, value in given.items() if value is not None and name != needs]
    if extra:
        raise QuestionError(N_("the question {q} takes no parameter {name}"),
                            q=repr(kind), name=repr(extra[0]))
    if square is not None and not is_square(square):
        raise QuestionError(N_("{value} is not a square (a1 to i9)"), value=repr(square))
    if rank is not None and (len(rank) != 1 or rank not in RANKS):
        raise QuestionError(N_("{value} is not a rank (1 to 9)"), value=repr(rank))
    if file is not None and (len(file) != 1 or file not in FILES):
        raise QuestionError(N_("{value} is not a file (a to i)"), value=repr(file))
    count = None
    if number is not None:
        if len(number) != 1 or number not in "123456789":
            raise QuestionError(N_("{value} is not a number from 1 to 9"), value=repr(number))
        count = int(number)
    return Question(kind, square, rank, file, count)


@dataclass(frozen=True)
class Position:
    """What an answer reads: the running game's rules and state (None before a game), the
    view's table part as the asking device may see it, and the seat whose phone asks (None for
    the shared panel)."""

    game: Game | None
    state: State | None
    table: Mapping[str, Any]
    seat: int | None = None


def _phrase(code: str, **params: Any) -> Phrase:
    if code not in PHRASES:
        raise KeyError(f"unknown phrase {code!r}")
    return {"code": code, "params": params}


def ask(q: Question, at: Position) -> list[Phrase]:
    """The answer to ``q`` as phrases, read from ``at`` alone."""
    if q.kind == "repeat":
        return _repeat(at)
    if at.game is None or at.state is None:
        return [_phrase("no_game")]
    answer = {"square": _square, "rank": _rank, "file": _file, "block": _block, "may": _may,
              "where": _where, "scores": _scores, "now": _now}[q.kind]
    return answer(q, at.game, at.state, at)


# --- what stands where --------------------------------------------------------------------------


def _what(game: Game, state: State, square: str) -> Phrase | None:
    """What stands on ``square`` as the game knows it (None: empty)."""
    piece = state.board.get(square)
    if piece is None:
        return None
    owner = piece.owner
    if piece.blank:  # a piece with no number: SUDOKU FAMILY's joker, else a blank
        kind = "joker" if game.has_jokers else "blank"
        return _phrase(f"{kind}_of", player=owner) if owner is not None else \
            _phrase(f"{kind}_of_nobody")
    if owner is None:
        return _phrase("number_of_nobody", number=piece.number)
    return _phrase("number_of", player=owner, number=piece.number)


def light_meaning(game: Game, signal: str | None) -> str | None:
    """What a square's light means, in the legend's English words (None: unlit, or a light
    with no meaning to a player)."""
    if signal is None:
        return None
    own = game.piece_words.lights
    return own.get(signal) or COMMON_LIGHTS.get(signal)


def _square(q: Question, game: Game, state: State, at: Position) -> list[Phrase]:
    square = str(q.square)
    if square not in game.geometry.cell_set:
        return [_phrase("off_board", square=square)]
    meaning = light_meaning(game, (at.table.get("signals") or {}).get(square))
    what = _what(game, state, square)
    if what is None:
        if meaning is not None:
            return [_phrase("empty_light", square=square, meaning=meaning)]
        return [_phrase("empty", square=square)]
    if meaning is not None:
        return [_phrase("holds_light", square=square, what=what, meaning=meaning)]
    return [_phrase("holds", square=square, what=what)]


def _read(game: Game, state: State, area: str, cells: Sequence[str]) -> list[Phrase]:
    """An area's squares in board order: what stands on each, then the empty ones, then its
    dead fields."""
    if not cells:
        return [_phrase("area_off_board", area=area)]
    items = []
    empty = []
    for cell in cells:
        what = _what(game, state, cell)
        if what is None:
            empty.append(cell)
        else:
            items.append(_phrase("item", square=cell, what=what))
    if not items:
        answer = [_phrase("read_empty", area=area, count=len(cells))]
    elif empty:
        answer = [_phrase("read_with_empty", area=area, items=items, squares=empty)]
    else:
        answer = [_phrase("read", area=area, items=items)]
    dead = sorted(set(cells) & game.dead_fields(state), key=_board_order)
    if dead:
        answer.append(_phrase("dead_fields", squares=dead))
    return answer


def _board_order(square: str) -> tuple[int, int]:
    """Ranks from the top (as a board is read), files left to right."""
    file, rank = parse_square(square)
    return -rank, file


def _rank(q: Question, game: Game, state: State, at: Position) -> list[Phrase]:
    cells = sorted((c for c in game.geometry.cells if c[1] == q.rank), key=_board_order)
    return _read(game, state, f"rank {q.rank}", cells)


def _file(q: Question, game: Game, state: State, at: Position) -> list[Phrase]:
    cells = sorted((c for c in game.geometry.cells if c[0] == q.file), key=_board_order)
    return _read(game, state, f"file {q.file}", cells)


def _block(q: Question, game: Game, state: State, at: Position) -> list[Phrase]:
    """The block the board prints around a square: its region (block, jigsaw region, cage,
    face, triangle), else the houses that are neither rank nor file (Kakuro's runs)."""
    square = str(q.square)
    geometry = game.geometry
    if square not in geometry.cell_set:
        return [_phrase("off_board", square=square)]
    areas = [(name, geometry.regions[name]) for name in geometry.regions_of.get(square, ())]
    if not areas:
        areas = [(name, geometry.houses[name]) for name in geometry.houses_of.get(square, ())
                 if not name.startswith(("rank ", "file "))]
    answer: list[Phrase] = []
    for name, cells in areas:
        answer += _read(game, state, name, sorted(cells, key=_board_order))
    return answer or [_phrase("area_off_board", area=square)]


# --- what may go where --------------------------------------------------------------------------


def _may(q: Question, game: Game, state: State, at: Position) -> list[Phrase]:
    square = str(q.square)
    if square not in game.geometry.cell_set:
        return [_phrase("off_board", square=square)]
    if state.over:
        return [_phrase("over")]
    if game.moves_pieces:
        return [_phrase("moves_only")]
    what = _what(game, state, square)
    if what is not None:
        return [_phrase("may_taken", square=square, what=what)]
    numbers = game.placeable_numbers(state, square)
    if not numbers:
        return [_phrase("may_none", square=square)]
    return [_phrase("may", square=square, numbers=[str(n) for n in numbers])]


def _where(q: Question, game: Game, state: State, at: Position) -> list[Phrase]:
    number = int(q.number or 0)
    low, high = game.geometry.numbers
    if not low <= number <= high:
        return [_phrase("no_such_number", number=number, low=low, high=high)]
    if state.over:
        return [_phrase("over")]
    if game.moves_pieces:
        return [_phrase("moves_only")]
    squares = sorted({a.cell for a in game.legal_actions(state)
                      if isinstance(a, Place) and a.number == number}, key=_board_order)
    if not squares:
        return [_phrase("where_none", number=number)]
    if len(squares) == 1:
        return [_phrase("where_one", number=number, squares=squares)]
    return [_phrase("where", number=number, count=len(squares), squares=squares)]


# --- the game as a whole ------------------------------------------------------------------------


def _scores(q: Question, game: Game, state: State, at: Position) -> list[Phrase]:
    points = game.scores(state)
    return [_phrase("scores", items=[_phrase("score", player=seat, points=p)
                                     for seat, p in enumerate(points)])]


def _now(q: Question, game: Game, state: State, at: Position) -> list[Phrase]:
    """The what-now bar: who acts and the next thing to do at the table, as the asking
    device's view has it (a seat's phone hears its own card; nobody else's view carries it)."""
    nxt = at.table.get("next")
    answer: list[Phrase] = []
    if isinstance(nxt, Mapping) and nxt.get("code") in announce.NEXT_STEPS:
        step = {"code": str(nxt["code"]), "params": dict(nxt.get("params") or {})}
        actor = nxt.get("actor")
        if actor is not None and actor == at.seat:
            answer.append(_phrase("your_step", step=step))
        elif isinstance(actor, int):
            answer.append(_phrase("turn_step", player=actor, step=step))
        else:
            answer.append(_phrase("step", step=step))
    elif state.over:
        answer.append(_phrase("over"))
    hand = at.table.get("hand")
    if at.seat is not None and isinstance(hand, int):
        answer.append(_phrase("your_hand", piece=game.piece_words.one, number=hand))
    return answer


def _repeat(at: Position) -> list[Phrase]:
    """The table's last announcement, as the asking device may hear it."""
    said = at.table.get("say") or {}
    parts = [p for p in said.get("parts") or [] if isinstance(p, Mapping)]
    if not parts:
        return [_phrase("nothing_said")]
    return [_phrase("said", parts=[{"kind": p["kind"], "code": p["code"],
                                    "params": p["params"], "seat": p.get("seat")}
                                   for p in parts])]


# --- in words -------------------------------------------------------------------------------------


def _word(value: Any, key: str, voice: announce.Voice, names: list[str]) -> Any:
    """One parameter as said: players by name, areas and English words in the language,
    nested phrases worded, lists as the language lists them."""
    if key == "player" and isinstance(value, int):
        return names[value] if 0 <= value < len(names) else str(value + 1)
    if key in ("what", "step") and isinstance(value, Mapping):
        if key == "step":
            return announce.say_step(value["code"], value["params"], voice, names)
        return phrase_text(value, voice, names)  # type: ignore[arg-type]
    if key == "items":
        return voice.join([phrase_text(v, voice, names) for v in value])
    if key in ("squares", "numbers"):
        return voice.join([str(v) for v in value])
    if key == "area":
        return voice.area(str(value))
    if key in ("meaning", "piece"):
        return voice.text(str(value))
    if key == "parts":
        return " ".join(t for t in announce.words(list(value), voice, names) if t)
    return value


def phrase_text(phrase: Phrase, voice: announce.Voice, names: list[str]) -> str:
    """One phrase in ``voice``'s language, ``names`` naming the seats."""
    params = {key: _word(value, key, voice, names) for key, value in phrase["params"].items()}
    if phrase["code"] == "said":
        return str(params["parts"])
    return voice.text(PHRASES[phrase["code"]]).format(**params)


_SQUARE_FIRST = re.compile(r"[a-i][1-9]\b")


def _sentence(text: str) -> str:
    """A phrase as a sentence; a square that begins it stays as written ("c3", which the
    voices say as a square, not "C3")."""
    if _SQUARE_FIRST.match(text):
        return announce.sentence("x" + text)[1:]
    return announce.sentence(text)


def say(answer: list[Phrase], voice: announce.Voice, names: list[str]) -> str:
    """The whole answer as short sentences of ``voice``'s language."""
    sentences = []
    for phrase in answer:
        text = phrase_text(phrase, voice, names)
        sentences.append(text if phrase["code"] == "said" else _sentence(text))
    return " ".join(s for s in sentences if s)
