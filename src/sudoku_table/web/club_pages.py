"""The pages that look on at other tables' games (docs/network.md, "Watching and clubs"): one
game followed live (``/watch/<game>``) and the club's games (``/club``).

Both are thin shells like every page: the data comes from ``looking``'s API, polled by the page.
They need no table, so the panel serves them and so does ``sudoku-table club`` on a PC
(``club_app``).
"""

from __future__ import annotations

import re

from flask import Blueprint, abort, render_template

from .pages import common

club_pages = Blueprint("club_pages", __name__)

GAME_ID = re.compile(r"[0-9a-f]{32}")
"""A followed game's id (``codes.GameKeys.game``): 32 hex digits."""


@club_pages.get("/watch/<game>")
def watch(game: str) -> str:
    """One game looked on at: its board, players, scores and tables, live."""
    if not GAME_ID.fullmatch(game):
        abort(404)
    return render_template("watch.html", page="watch", game=game, **common())


@club_pages.get("/club")
def club() -> str:
    """Every game of the club: live ones as small boards, then the finished ones."""
    return render_template("club.html", page="club", **common())
