"""The table's view as the panel sends it: the table's own view plus the players' names."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

from flask import g, has_request_context

from sudoku_table.table.view import View

from . import catalog, i18n, speech

if TYPE_CHECKING:
    from . import PanelState


def present(panel: PanelState, view: View, seat: int | None = None) -> dict[str, Any]:
    """``view`` with ``player_names`` (chosen on the start page and kept in the journal with
    the game, or White/Black, Player 1...) and ``table.say`` in the request's language, as
    the device asking may see it (``seats.private``): ``seat`` is the seat whose phone asks
    (default: the request's own, None for the shared panel)."""
    from .seats import private

    if seat is None and has_request_context():
        seat = g.get("seat")
    game = view.get("game")
    if game is None:
        return {**view, "table": private(panel, view, dict(view["table"]), seat)}
    players = int(game.get("players") or 0)
    names = catalog.seat_names(str(game.get("variant", "")), players,
                               view["table"].get("names", []),
                               view["table"].get("computers", {}))
    table = private(panel, view, {**view["table"], "say": speech.say_in(
        view["table"].get("say"), names, i18n.current())}, seat)
    return {**view, "table": table, "player_names": names}


def seat_names() -> list[str]:
    """The running game's players by name, in the request's language ("White" as "Weiß")."""
    from flask import current_app

    from .i18n import translate

    panel = current_app.extensions["sudoku_table"]
    view = present(panel, panel.table.view())
    names = []
    for name in view.get("player_names", []):
        seat = re.fullmatch(r"Player (\d+)", name)  # a seat nobody named
        names.append(translate("Player {n}", n=seat.group(1)) if seat else translate(name))
    return names
