"""The table's view as the panel sends it: the table's own view plus the players' names."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from app.table.view import View

from . import catalog

if TYPE_CHECKING:
    from . import PanelState


def present(panel: PanelState, view: View) -> dict[str, Any]:
    """``view`` with ``player_names`` (chosen on the start page and kept in the journal with
    the game, or White/Black, Player 1...)."""
    game = view.get("game")
    if game is None:
        return dict(view)
    players = int(game.get("players") or 0)
    names = catalog.seat_names(str(game.get("variant", "")), players,
                               view["table"].get("names", []),
                               view["table"].get("computers", {}))
    return {**view, "player_names": names}
