"""The review of a finished game on the panel: its page, its endpoints, and the replay of a
finished game on the board.

- ``GET /review/ID`` is the page (``review.html`` and ``review.js``): the charts, the moves and
  a small board at any move; ``GET /review/current`` goes to the game that just ended.
- ``POST /api/games/ID/review`` starts the review (the worker of ``sudoku_table.table.reviews``; it
  returns at once) and ``GET /api/games/ID/review`` says where it stands: every move with what
  was played, and the judgements found so far, all worded in the request's language
  (``review_words``). The page polls while the status is ``waiting`` or ``running``.
- ``POST /api/replay`` shows a move of a finished game on the board's LEDs, ``POST
  /api/replay/leave`` ends that, ``GET /api/replay`` words the move shown for the what-now bar.

docs/api.md and openapi.yaml describe each.
"""

from __future__ import annotations

import sqlite3
from typing import TYPE_CHECKING, Any

from flask import Blueprint, Response, current_app, jsonify, redirect, render_template
from werkzeug.wrappers import Response as WerkzeugResponse

from sudoku_table.rules.errors import RulesError
from sudoku_table.rules.game import new_game
from sudoku_table.rules.record import Record, replay
from sudoku_table.rules.wording import N_
from sudoku_table.table.reviews import Progress
from sudoku_table.version import current as current_version

from . import i18n
from .errors import ApiError
from .review_words import document, move_entry, player_names
from .security import check_request, require_pin
from .validation import json_body, query
from .views import present

if TYPE_CHECKING:
    from . import PanelState

reviewing = Blueprint("reviewing", __name__)

LEVEL = "strong"
"""The panel compares every move with the computer at its strongest level."""


def _panel() -> PanelState:
    return current_app.extensions["sudoku_table"]


@reviewing.before_request
def _guard() -> None:
    check_request()
    query()


def _finished(game_id: int) -> dict[str, Any]:
    entry = _panel().table.finished.game(game_id)
    if entry is not None:
        return entry
    raise ApiError(N_("there is no finished game {game_id}"), 404, params={"game_id": game_id})


def _document(game_id: int, entry: dict[str, Any], progress: Progress) -> dict[str, Any]:
    record = Record.from_json(entry["record"])
    game, states = replay(record)
    final = entry.get("state") or {}
    return document(game, states, record.actions, progress.judged, record.names,
                    i18n.current(), {
                        "game": game_id, "finished": entry.get("finished"), "level": LEVEL,
                        "status": progress.status, "done": progress.done,
                        "total": progress.total, "failed": progress.failed,
                        "result": {"scores": final.get("scores"),
                                   "winners": final.get("winners"),
                                   "end_reason": final.get("end_reason")}})


# --- the page -----------------------------------------------------------------------------------

@reviewing.get("/review/<int:game_id>")
def review_page(game_id: int) -> str:
    panel = _panel()
    return render_template("review.html", page="review", game_id=game_id,
                           simulated=panel.simulator is not None, pin=panel.pin.enabled,
                           version=current_version().label)


@reviewing.get("/review/current")
def current_review() -> WerkzeugResponse:
    """The review of the game that just ended, else of the newest finished game, else the
    table page's list."""
    table = _panel().table
    shelf = table.finished.shelf()
    if shelf is None:
        return redirect("/table")
    current = table.game_id
    try:  # one row or two, never every record
        with shelf:
            if current is not None and shelf.game(current) is not None:
                return redirect(f"/review/{current}")
            newest, _ = shelf.page(None, 1)
    except sqlite3.Error:
        newest = []
    return redirect(f"/review/{newest[0].id}" if newest else "/table")


# --- the review's endpoints ---------------------------------------------------------------------

@reviewing.get("/api/games/<int:game_id>/review")
def review_status(game_id: int) -> Response:
    """The review of a finished game as far as it is known (``status`` ``none`` when it was
    never asked for: POST starts it)."""
    entry = _finished(game_id)
    return jsonify(_document(game_id, entry, _panel().table.reviews.progress(entry["record"],
                                                                             LEVEL)))


@reviewing.post("/api/games/<int:game_id>/review")
def review_start(game_id: int) -> Response:
    """Start the review of a finished game (nothing happens if it is kept or under way); it
    changes nothing at the table, so it needs no PIN. The answer comes at once."""
    json_body()
    entry = _finished(game_id)
    try:
        progress = _panel().table.reviews.request(entry["record"], LEVEL)
    except RuntimeError as e:
        raise ApiError(N_("the table is stopping: {detail}"), 503,
                       params={"detail": str(e)}) from None
    return jsonify(_document(game_id, entry, progress))


@reviewing.get("/api/games/<int:game_id>/positions")
def review_positions(game_id: int) -> Response:
    """The state document of every position of a finished game, from the start (position 0)
    to the end (position N, after move N): what the review draws on its small board."""
    entry = _finished(game_id)
    game, states = replay(Record.from_json(entry["record"]))
    return jsonify({"positions": [game.document(s) for s in states]})


# --- the replay on the board --------------------------------------------------------------------

@reviewing.get("/api/replay")
def replay_status() -> Response:
    """The move a replay shows on the board, worded for the what-now bar; ``replay`` null when
    none is shown."""
    shown = _panel().table.view()["table"].get("replay")
    if not shown:
        return jsonify({"replay": None, "entry": None})
    language = i18n.current()
    try:
        game = new_game(str(shown["variant"]), int(shown["players"]))
    except RulesError as e:  # pragma: no cover - a replay starts only from a game that replays
        raise ApiError(str(e), 422) from None
    seats = player_names(game, shown.get("names") or [], language)
    entry = _panel().table.finished.game(int(shown["game"]))
    words = None
    if entry is not None:
        record = Record.from_json(entry["record"])
        _game, states = replay(record)
        judged = _panel().table.reviews.progress(entry["record"], LEVEL).judged
        index = int(shown["move"]) - 1
        words = move_entry(game, states, record.actions, index,
                           judged[index] if index < len(judged) else None, seats, language)
    return jsonify({"replay": shown, "entry": words, "name": i18n.translate(game.name),
                    "names": seats})


@reviewing.post("/api/replay")
def replay_show() -> Response:
    """Show a move of a finished game on the board (``{"game": 3, "move": 12}``, moves counted
    from 1). It changes no game, but what the LEDs show: with a PIN set, only with the PIN,
    as the LED test."""
    body = json_body()
    game_id, move = body["game"], body["move"]
    require_pin(body)
    _finished(game_id)  # 404 for a game that is not there
    panel = _panel()
    return jsonify(present(panel, panel.table.show_replay(game_id, move)))


@reviewing.post("/api/replay/leave")
def replay_leave() -> Response:
    """End the replay: the LEDs show the running game again. Anyone may (no PIN)."""
    json_body()
    panel = _panel()
    return jsonify(present(panel, panel.table.leave_replay()))
