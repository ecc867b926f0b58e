"""Looking on at games of other tables through the broker (docs/network.md): a game followed
by its watch code, and the club's games. The panel (or ``sudoku-table club`` on a PC) follows
them with one ``network.watching.Following``; nothing here can act in a game."""

from __future__ import annotations

from typing import Any

from flask import Blueprint, Response, current_app, jsonify

from sudoku_table.network.codes import BadCode
from sudoku_table.network.watching import Following
from sudoku_table.rules.actions import action_from_json
from sudoku_table.rules.wording import N_

from . import i18n
from .errors import ApiError
from .security import check_request
from .validation import json_body, query

looking = Blueprint("looking", __name__, url_prefix="/api")


@looking.before_request
def _guard() -> None:
    check_request()  # the host, the origin and JSON, as for every other endpoint
    query()

KEY = "sudoku_following"
"""Where the app keeps its ``Following`` (absent: no broker is set)."""


def following() -> Following:
    """The app's ``Following`` (404 when this panel meets no other tables)."""
    found = current_app.extensions.get(KEY)
    if found is None:
        raise ApiError(N_("this panel meets no other tables: set broker in the config's "
                          "[network] section"), 404, code="no_broker")
    return found


@looking.post("/watch")
def watch() -> Response:
    """Look on at the game of a watch (or join) code: its id, for GET /api/watch/{game}."""
    body = json_body()
    try:
        game = following().watch(body["code"])
    except BadCode as e:
        raise ApiError(N_("that is not a watch code: {detail}"), 422,
                       params={"detail": str(e)}) from None
    return jsonify({"game": game})


@looking.get("/watch/<game>")
def watched(game: str) -> Response:
    """A followed game as it stands (its record, state document and tables), with its moves in
    words in the request's language."""
    found = following()
    view = found.game(game)
    if view is None:
        raise ApiError(N_("this panel does not follow that game: enter its watch code"), 404,
                       code="not_followed")
    language = i18n.current()
    moves = [i18n.action_words(action_from_json(a), language)
             for a in view.get("record", {}).get("actions", [])]
    return jsonify({**view, "moves": moves, "version": found.version,
                    "connected": found.connected})


@looking.get("/club")
def club() -> Response:
    """Every game of the club (the config's ``[network] club``), live ones first."""
    found = following()
    if found.club is None:
        raise ApiError(N_("no club is set: set club in the config's [network] section"), 404,
                       code="no_club")
    games: list[dict[str, Any]] = found.club_games()
    return jsonify({"games": games, "version": found.version, "connected": found.connected})
