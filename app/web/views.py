"""The table's view as the panel sends it: the table's own view plus the players' names."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from app.table.view import View

from . import catalog, i18n, speech

if TYPE_CHECKING:
    from . import PanelState


def present(panel: PanelState, view: View) -> dict[str, Any]:
    """``view`` with ``player_names`` (chosen on the start page and kept in the journal with
    the game, or White/Black, Player 1...) and ``table.say`` in the request's language."""
    game = view.get("game")
    if game is None:
        return dict(view)
    players = int(game.get("players") or 0)
    names = catalog.seat_names(str(game.get("variant", "")), players,
                               view["table"].get("names", []),
                               view["table"].get("computers", {}))
    table = {**view["table"], "say": speech.say_in(view["table"].get("say"), names,
                                                   i18n.current())}
    return {**view, "table": table, "player_names": names}
