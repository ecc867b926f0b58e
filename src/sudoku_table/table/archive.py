"""Saving every finished game to one file, and taking such a file in again.

The export (docs/records.md, "Finished games file") holds each finished game's record, when it
finished and its final state. An import trusts nothing in the file: every record is replayed
by the rules, its final state must be over (and agree with the file's state where the file
has one), and only then is the game new (added), already on the table or twice in the file
(skipped), or refused (rejected, with the reason). A file that is not such an export changes
nothing at all.

A game's identity is its record together with the moment it finished: the same game exported
twice, or brought back after a round trip through another table, is the same game.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import multiprocessing
from collections.abc import Callable, Iterable, Iterator, Mapping
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, Protocol

from sudoku_table.rules.errors import Illegal, RulesError
from sudoku_table.rules.record import Record, ReplayError, replay
from sudoku_table.rules.wording import N_

FORMAT = "sudoku-table-games"
FORMAT_VERSION = 1
MAX_GAMES = 5000
"""The most games one file may hold (a family's lifetime of evenings, and then some)."""

COMPARED = ("over", "winners", "scores")
"""The parts of a file's state that must agree with the replay (other fields may differ
between versions of the program)."""


class ArchiveError(ValueError):
    """The file is not an export of finished games; nothing was changed. ``template`` and
    ``params`` let the panel word it in the reader's language."""

    def __init__(self, template: str, **params: Any) -> None:
        self.template = template
        self.params = params
        super().__init__(template.format(**params) if params else template)


class Readable(Protocol):
    """Where a file is read from: a binary file, or a request's body."""

    def read(self, size: int = -1, /) -> bytes: ...


class NotJson(ArchiveError):
    """The file is not JSON at all (or breaks off): nothing was changed."""


class ArchiveBusy(ArchiveError):
    """Another file of finished games is being taken in; this one was not looked at."""


MAX_GROWTH = 64 * 1024 * 1024
"""The most one import may add to the journal (about 3,000 games of average length)."""


@dataclass(frozen=True, slots=True)
class Reason:
    """Why a game was skipped or rejected: an English template and its parameters (a
    parameter may be a rules error or an ``Illegal``, worded in turn by the panel)."""

    template: str
    params: Mapping[str, Any] = field(default_factory=dict)

    @property
    def english(self) -> str:
        said = {k: v.reason if isinstance(v, Illegal) else v for k, v in self.params.items()}
        return self.template.format(**said) if said else self.template


@dataclass
class Outcome:
    """What became of one game of the file (``index`` counts from 0)."""

    index: int
    variant: str | None
    finished: str | None
    result: str  # "added", "skipped" or "rejected"
    reason: Reason | None = None


@dataclass
class ImportPlan:
    """The games to add (each ready for the journal) and what becomes of every game."""

    new: list[dict[str, Any]] = field(default_factory=list)
    outcomes: list[Outcome] = field(default_factory=list)

    def count(self, result: str) -> int:
        return sum(1 for o in self.outcomes if o.result == result)


def game_key(record: Mapping[str, Any], finished: str) -> str:
    """The identity of a finished game: its record (as replayed) and when it finished."""
    text = json.dumps([record, finished], sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(text.encode()).hexdigest()


def export_document(games: Iterable[Mapping[str, Any]], exported: str,
                    program: Mapping[str, Any]) -> dict[str, Any]:
    """The file of every finished game (oldest first), as ``GET /api/games/export`` sends it."""
    return {
        "format": FORMAT,
        "version": FORMAT_VERSION,
        "exported": exported,
        "program": dict(program),
        "games": [{"id": g.get("id"), "variant": g.get("variant"), "finished": g.get("finished"),
                   "record": g.get("record"), "state": g.get("state")} for g in games],
    }


def export_chunks(games: Iterable[Any], exported: str,
                  program: Mapping[str, Any]) -> Iterator[str]:
    """The same file as ``export_document``, as text made a game at a time from the stored
    games (``shelf.Stored``: their record and state are JSON text already, sealed), so that
    no game is parsed and only one is in memory at a time."""
    head = json.dumps({"format": FORMAT, "version": FORMAT_VERSION, "exported": exported,
                       "program": dict(program)})
    yield head[:-1] + ', "games": ['
    first = True
    for g in games:
        yield (f'{"" if first else ","}\n{{"id": {json.dumps(g.id)}, '
               f'"variant": {json.dumps(g.variant)}, "finished": {json.dumps(g.finished)}, '
               f'"record": {g.record}, "state": {g.state}}}')
        first = False
    yield "\n]}\n"


def _finished_time(value: object) -> str | None:
    """``value`` if it is an ISO 8601 time with a time zone, else None."""
    if not isinstance(value, str) or len(value) > 40:
        return None
    try:
        moment = datetime.fromisoformat(value)
    except ValueError:
        return None
    return value if moment.tzinfo is not None else None


MAX_DEPTH = 12
"""The deepest nesting in a file of finished games (a Halma path inside an action inside a
record inside a game inside the file is 6)."""

MAX_GAME_VALUES = 40_000
"""JSON values (and keys) one game of a file may hold: the longest real game with its final
state holds a few thousand; a game that holds more is no game, and is never built in memory."""

MAX_TEXT = 4096
"""The longest text one value of a file may be (names are at most 24 characters)."""

READ_BYTES = 1024
"""How much of the file the parser takes at a time. It hands out the events of each piece at
once, each with its path: a piece of 64 KiB of ``[`` would be 65,536 levels whose paths
together take gigabytes before the depth check sees the first; 1 KiB keeps that near 2 MB."""

MAX_OTHER_VALUES = 10_000
"""JSON values outside the games (the program's version and the like)."""


def read_export(stream: Readable, most: int = MAX_GAMES) -> Iterator[tuple[int, Any]]:
    """The games of an export file, each ``(index, game as parsed)``, read from ``stream`` as
    it comes (``ijson``): at most one game is in memory at a time, and a game is refused
    before it grows past ``MAX_GAME_VALUES``. The file's ``format`` and ``version`` are
    checked where they stand and once more at its end; ``ArchiveError`` for a file that is no
    export (the caller then takes back whatever it did with the games already read)."""
    import ijson

    reading = _ExportReading(most)
    try:
        for prefix, event, value in ijson.parse(stream, buf_size=READ_BYTES, use_float=True):
            game = reading.take(prefix, event, value)
            if game is not None:
                yield game
    except ArchiveError:
        raise
    except (ijson.JSONError, ValueError) as e:  # and a number too long, bad UTF-8
        raise NotJson(N_("this is not a file of finished games: {detail}"),
                      detail=_first_line(e)) from None
    reading.end()


class _ExportReading:
    """Where the parse of one export file stands, checked at every event."""

    def __init__(self, most: int) -> None:
        self.most = most
        self.header: dict[str, Any] = {}
        self.depth = 0
        self.index = -1
        self.builder: Any = None
        self.values = 0
        self.outside = 0
        self.lists = 0

    def take(self, prefix: str, event: str, value: Any) -> tuple[int, Any] | None:
        """One parser event; a game once it is complete."""
        self._measure(event, value)
        if prefix == "" and event not in ("start_map", "end_map", "map_key"):
            raise ArchiveError(N_("this is not a file of finished games (a JSON object "
                                  "was expected)"))
        if prefix == "games":
            self._games_list(event)
            return None
        if prefix.startswith("games.item"):
            return self._game(event, value)
        self.outside += 1
        if self.outside > MAX_OTHER_VALUES:
            raise ArchiveError(N_("this is not a file of finished games exported by a "
                                  "Sudoku Table"))
        if prefix in ("format", "version") and event not in ("map_key",):
            self.header[prefix] = value if event not in ("start_map", "start_array") else event
            _check_header(self.header, final=False)
        return None

    def _measure(self, event: str, value: Any) -> None:
        """The nesting and the length of a text, before anything is built of them."""
        if event in ("start_map", "start_array"):
            self.depth += 1
            if self.depth > MAX_DEPTH:
                raise ArchiveError(N_("this file is nested deeper than a file of finished "
                                      "games ever is (more than {most} levels)"),
                                   most=MAX_DEPTH)
        elif event in ("end_map", "end_array"):
            self.depth -= 1
        if isinstance(value, str) and len(value) > MAX_TEXT:
            raise ArchiveError(N_("this file holds a text of {size} characters; a file "
                                  "of finished games holds none longer than {most}"),
                               size=len(value), most=MAX_TEXT)

    def _games_list(self, event: str) -> None:
        if event == "start_array":
            self.lists += 1
            if self.lists > 1:
                raise ArchiveError(N_("the file has no list of games"))
        elif event != "end_array":
            raise ArchiveError(N_("the file has no list of games"))

    def _game(self, event: str, value: Any) -> tuple[int, Any] | None:
        import ijson

        if self.builder is None:
            self.index += 1
            if self.index >= self.most:
                raise ArchiveError(N_("the file holds more than {count} games; at "
                                      "most {most} can be imported at once"),
                                   count=self.most, most=self.most)
            self.builder, self.values = ijson.ObjectBuilder(), 0
        self.values += 1
        if self.values > MAX_GAME_VALUES:
            raise ArchiveError(N_("game {number} of the file holds more than {most} "
                                  "values: no game is that large"),
                               number=self.index + 1, most=MAX_GAME_VALUES)
        self.builder.event(event, value)
        if self.depth == 2:  # the game is complete
            game, self.builder = self.builder.value, None
            return self.index, game
        return None

    def end(self) -> None:
        """The whole file is read: its header and its list of games must be there."""
        _check_header(self.header, final=True)
        if not self.lists:
            raise ArchiveError(N_("the file has no list of games"))


def _first_line(error: Exception) -> str:
    """The parser's complaint in one line ("parse error: premature EOF")."""
    text = error.args[0] if error.args else str(error)
    if isinstance(text, bytes):
        text = text.decode("utf-8", errors="replace")
    return str(text).strip().splitlines()[0][:120] if str(text).strip() else type(error).__name__


def _check_header(header: Mapping[str, Any], final: bool) -> None:
    if "format" in header or final:
        if header.get("format") != FORMAT:
            raise ArchiveError(N_("this is not a file of finished games exported by a Sudoku "
                                  "Table"))
    if "version" in header or final:
        version = header.get("version")
        if version != FORMAT_VERSION or isinstance(version, bool):
            raise ArchiveError(N_("this file has version {version}; this table reads version "
                                  "{supported}: update the table first"),
                               version=repr(version), supported=FORMAT_VERSION)


def check_entry(index: int, entry: object) -> tuple[Outcome, dict[str, Any] | None]:
    """One game of a file: its outcome (``rejected`` with the reason, else ``added`` for the
    caller to check against the games on the table) and the game ready for the journal."""
    variant = None
    if isinstance(entry, Mapping):
        record = entry.get("record")
        variant = entry.get("variant") or (
            record.get("variant") if isinstance(record, Mapping) else None)
    finished = _finished_time(entry.get("finished")) if isinstance(entry, Mapping) else None
    outcome = Outcome(index, variant if isinstance(variant, str) else None, finished,
                      "rejected")
    checked = _check_game(entry)
    if isinstance(checked, Reason):
        outcome.reason = checked
        return outcome, None
    outcome.variant = checked["variant"]
    outcome.result = "added"
    return outcome, checked


Checker = Callable[[int, object], tuple[Outcome, dict[str, Any] | None]]


@contextlib.contextmanager
def checking(separate: bool) -> Iterator[Checker]:
    """``check_entry``, run in a worker process of its own when ``separate`` (a clean, spawned
    interpreter: replaying a few thousand games is seconds of pure Python, which in the table's
    own process would hold Python's interpreter lock against the sensors and the phones for
    5 ms at each turn), else here (a small file, tools and tests)."""
    if not separate:
        yield check_entry
        return
    context = multiprocessing.get_context("spawn")
    with ProcessPoolExecutor(max_workers=1, mp_context=context) as pool:

        def check(index: int, entry: object) -> tuple[Outcome, dict[str, Any] | None]:
            try:
                return pool.submit(check_entry, index, entry).result()
            except BrokenProcessPool as e:
                raise ArchiveError(N_("the games could not be checked: {detail}"),
                                   detail=str(e)[:200]) from None

        yield check


def plan_import(document: object, existing: Iterable[Mapping[str, Any]]) -> ImportPlan:
    """Check a file of finished games against the games on the table (``existing``, as the
    journal lists them); ``ArchiveError`` if it is no such file."""
    if not isinstance(document, Mapping):
        raise ArchiveError(N_("this is not a file of finished games (a JSON object was "
                              "expected)"))
    if document.get("format") != FORMAT:
        raise ArchiveError(N_("this is not a file of finished games exported by a Sudoku "
                              "Table"))
    version = document.get("version")
    if version != FORMAT_VERSION:
        raise ArchiveError(N_("this file has version {version}; this table reads version "
                              "{supported}: update the table first"),
                           version=repr(version), supported=FORMAT_VERSION)
    games = document.get("games")
    if not isinstance(games, list):
        raise ArchiveError(N_("the file has no list of games"))
    if len(games) > MAX_GAMES:
        raise ArchiveError(N_("the file holds {count} games; at most {most} can be imported "
                              "at once"), count=len(games), most=MAX_GAMES)

    seen = {existing_key(g.get("record"), str(g.get("finished") or "")) for g in existing}
    plan = ImportPlan()
    for index, entry in enumerate(games):
        outcome, checked = check_entry(index, entry)
        plan.outcomes.append(outcome)
        if checked is None:
            continue
        key = game_key(checked["record"], checked["finished"])
        if key in seen:
            outcome.result = "skipped"
            outcome.reason = Reason(N_("already on the table"))
            continue
        seen.add(key)
        plan.new.append(checked)
    return plan


def existing_key(record: object, finished: str) -> str:
    """The identity of a game already on the table (its record as the journal keeps it)."""
    return game_key(_canonical(record), finished)


def _canonical(record: object) -> Any:
    """A record as the table writes it (defaults filled in), so that equal games compare
    equal however their file spelled them; a record that cannot be read is left as it is."""
    try:
        return Record.from_json(record).to_json()
    except RulesError:
        return record


def _check_game(entry: object) -> dict[str, Any] | Reason:
    """A game of the file, replayed: ready for the journal, or why not."""
    if not isinstance(entry, Mapping):
        return Reason(N_("not a game (a JSON object was expected)"))
    finished = _finished_time(entry.get("finished"))
    if finished is None:
        return Reason(N_("its finish time is missing or not a date and time with a time zone"))
    try:
        record = Record.from_json(entry.get("record"))
        game, states = replay(record)
    except ReplayError as e:
        return Reason(N_("move {number} is not allowed: {reason}"),
                      {"number": e.index + 1, "reason": e.illegal})
    except RulesError as e:
        return Reason(N_("its record cannot be read: {detail}"), {"detail": e})
    final = states[-1]
    if not final.over:
        return Reason(N_("the game in its record is not finished"))
    state = game.document(final)
    given = entry.get("state")
    if isinstance(given, Mapping):
        differs = [k for k in COMPARED if k in given and given[k] != state.get(k)]
        if differs:
            return Reason(N_("its moves do not lead to the result the file states ({parts})"),
                          {"parts": ", ".join(differs)})
    elif given is not None:
        return Reason(N_("its state is not a JSON object"))
    return {"variant": record.variant, "finished": finished, "record": record.to_json(),
            "state": state}
