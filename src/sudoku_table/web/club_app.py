"""The club's page on a PC, with no table: ``sudoku-table club --config FILE``.

``create_club_app(following)`` serves the club page and the watch page (``club_pages``) with the
API they read (``looking``), the board drawings, words and colours they draw with (the
table-free endpoints of ``api``), the rules, the static files, German and English, the same
error handlers and guards as the panel; and nothing that needs a table. ``assembly.serve_club``
runs it under the panel's waitress server.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from flask import Blueprint, Flask, redirect, url_for
from werkzeug.wrappers import Response

from sudoku_table.network.watching import Following

from . import MAX_BODY_BYTES, api, pages
from .club_pages import club_pages
from .config import PanelConfig
from .errors import register_error_handlers
from .i18n import init_i18n
from .looking import KEY, looking
from .security import init_security
from .validation import compiled

REFERENCE: tuple[tuple[str, Callable[..., Any]], ...] = (
    ("/openapi.json", api.openapi),
    ("/variants", api.list_variants),
    ("/variants/<variant_id>", api.variant_geometry),
    ("/variants/<variant_id>/overlay", api.variant_overlay),
    ("/i18n", api.words),
    ("/legend", api.legend),
    ("/rules/<variant_id>", api.rules),
    ("/version", api.version),
)
"""The endpoints of ``api`` that need no table: what the pages draw and word a game with, and
the rules pages' printable overlays."""


def _reference() -> Blueprint:
    """The table-free part of the API, under the same name, path and guard as the panel's."""
    bp = Blueprint("api", __name__, url_prefix="/api")
    bp.before_request(api._guard)
    for rule, view in REFERENCE:
        bp.add_url_rule(rule, view.__name__, view, methods=["GET"])
    return bp


def _frame() -> Blueprint:
    """What every page's frame links to (``pages``' endpoint names): the static files, the
    language switch, the rules, and the start, which is the club page here."""
    bp = Blueprint("pages", pages.__name__, template_folder="templates",
                   static_folder="static", static_url_path="/static")

    def start() -> Response:
        return redirect(url_for("club_pages.club"))

    bp.add_url_rule("/", "start", start)
    bp.add_url_rule("/language/<code>", "language", pages.language)
    bp.add_url_rule("/rules", "rules_index", pages.rules_index)
    bp.add_url_rule("/rules/<variant_id>", "rules", pages.rules)
    return bp


def create_club_app(following: Following | None, config: PanelConfig | None = None,
                    test_config: Mapping[str, Any] | None = None) -> Flask:
    """The club page and the watch page around ``following`` (the games looked on at through
    the broker; None answers every look with "set a broker"); ``config`` is the ``[panel]``
    section (its language and the host names it answers to); ``test_config`` overrides Flask
    settings and ``OVERLAY_PITCH_MM`` (the square pitch of the printable overlays)."""
    panel = config if config is not None else PanelConfig()
    app = Flask(__name__)
    app.config.update(MAX_CONTENT_LENGTH=MAX_BODY_BYTES, JSON_SORT_KEYS=False,
                      PANEL_HOSTS=panel.hosts, PANEL_LANGUAGE=panel.language,
                      OVERLAY_PITCH_MM=40.0, TEMPLATES_AUTO_RELOAD=False)
    if test_config:
        app.config.update(test_config)
    app.debug = False  # never the interactive debugger: the page is open to the network
    if following is not None:
        app.extensions[KEY] = following
    app.extensions["sudoku_table_shapes"] = compiled()
    app.register_blueprint(_frame())
    app.register_blueprint(_reference())
    app.register_blueprint(looking)
    app.register_blueprint(club_pages)
    register_error_handlers(app)
    init_security(app)
    init_i18n(app)
    return app
