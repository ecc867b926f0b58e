"""The panel's pages: start, play, join a seat, rules and the table's own page.

Pages are thin HTML shells; the data comes from the JSON API, so what a phone shows is exactly
what an outside tool can read. The rules pages are rendered here from the project's Markdown.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any
from urllib.parse import urlsplit

from flask import Blueprint, abort, current_app, redirect, render_template, request
from werkzeug.wrappers import Response

from sudoku_table.rules.errors import UnknownVariantError
from sudoku_table.rules.game import variant_class
from sudoku_table.rules.wording import N_
from sudoku_table.version import current as current_version

from . import catalog, i18n

if TYPE_CHECKING:
    from . import PanelState
from .markdown import render

pages = Blueprint("pages", __name__, template_folder="templates", static_folder="static",
                  static_url_path="/static")


def common() -> dict[str, Any]:
    """What every page's frame needs (``base.html``); ``club_only`` on the pages of
    ``sudoku-table club``, which serves no table: its bar leads to the club and the rules."""
    panel: PanelState | None = current_app.extensions.get("sudoku_table")
    return {"simulated": panel is not None and panel.simulator is not None,
            "pin": panel is not None and panel.pin.enabled, "club_only": panel is None,
            "version": current_version().label}



@pages.get("/")
def start() -> str:
    return render_template("start.html", page="start", **common())


@pages.get("/play")
def play() -> str:
    return render_template("play.html", page="play", **common())


@pages.get("/join")
def join() -> str:
    """A player's own phone joins a seat: from the link of the code shown on the shared panel
    (its token after the ``#``, never sent to the server by the browser) or the short code typed."""
    return render_template("join.html", page="join", **common())


@pages.get("/rules")
def rules_index() -> str:
    return render_template("rules_index.html", page="rules", variants=catalog.variants(),
                           **common())


@pages.get("/rules/<variant_id>")
def rules(variant_id: str) -> str:
    try:
        entry = catalog.describe(variant_class(variant_id))
    except UnknownVariantError:
        abort(404)
    text = catalog.rules_text(variant_id, i18n.current())
    html = render(text) if text is not None else None
    return render_template("rules.html", page="rules", variant=entry, rules_html=html,
                           **common())


@pages.get("/table")
def table() -> str:
    return render_template("table.html", page="table", missing=missing_hardware(), **common())


def missing_hardware() -> list[dict[str, str]]:
    """The parts of the table that could not be opened, in the page's language: what each one
    means for the players and the one thing to do about it (``Hardware.problems``, read as
    data)."""
    panel: PanelState | None = current_app.extensions.get("sudoku_table")
    problems = getattr(panel.hardware, "problems", ()) if panel is not None else ()
    return [{"what": i18n.translate(p.what), "fix": i18n.translate(p.fix, **p.params),
             "detail": p.detail} for p in problems]



SAFE_PATH = re.compile(r"/(?![/\\])[^\x00-\x20\x7f-\x9f\\]*")
"""A path of this panel: one ``/``, then no second ``/`` or backslash (``//host`` and ``/\\host``
leave the site), no space, backslash or control character anywhere (a browser drops a tab or a
line break, so ``/<TAB>/host`` would become ``//host``; a CR or LF would split the header)."""


def same_origin_path(target: str) -> bool:
    """True when a redirect to ``target`` stays on this panel (a relative path, maybe with a
    query), whatever a browser makes of it."""
    if len(target) > 2000 or not SAFE_PATH.fullmatch(target):
        return False
    parts = urlsplit(target)
    return not parts.scheme and not parts.netloc


@pages.get("/language/<code>")
def language(code: str) -> Response:
    """Switch the panel's language on this phone (kept in a cookie), back to the page."""
    if code not in i18n.LANGUAGES:
        abort(404)
    back = request.args.get("next", "/")
    if not same_origin_path(back):
        abort(400, description=i18n.translate(N_("next must be a page of this panel (a path "
                                                  "starting with one /)")))
    response = redirect(back)
    response.set_cookie(i18n.COOKIE, code, max_age=5 * 365 * 24 * 3600, samesite="Lax")
    return response
