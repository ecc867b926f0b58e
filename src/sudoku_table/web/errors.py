"""Every failure of the panel's API becomes ``{"error": "..."}`` with a 4xx status.

The API is used from phones and from outside tools, so a failure must say in plain words what was
wrong, and it must never leak a traceback. Errors raised by the table (``InputError``) and by the
rules (``RulesError``) carry messages written for players; they are passed on as they are.
"""

from __future__ import annotations

import logging
from typing import Any

from flask import Flask, Response, current_app, jsonify, request
from werkzeug.exceptions import HTTPException

from sudoku_table.rules.errors import RulesError
from sudoku_table.rules.wording import N_
from sudoku_table.table.errors import (
    CannotSave,
    ConfirmNeeded,
    InputError,
    NoAnswer,
    NotYourSeat,
    StaleInput,
)

from .i18n import translate
from .settings import NotSaved

log = logging.getLogger(__name__)

CONFLICT = 409
"""A request that would replace or reopen a game: the players confirm it first."""

UNPROCESSABLE = 422
"""Well-formed input that the game cannot use (an illegal number, no game running...)."""

UNAVAILABLE = 503
"""The table cannot save now (its memory card is full, read-only or failing): nothing was
accepted; the view's ``table.saving`` says what waits and what to do."""


CONFIRM_CHOICES: dict[str, tuple[str, str]] = {
    "undo": (N_("Take back {player}'s {action}"), N_("Keep it")),
    "reopen": (N_("Take back and play on"), N_("Keep the game finished")),
    "replace": (N_("Start the new game"), N_("Keep the running game")),
}
"""The two choices of each question the table asks (``ConfirmNeeded.code``), named by what
they do: the one that does it, and the one that keeps things as they are."""


class ApiError(Exception):
    """A request the panel refuses: ``status`` is a 4xx code, ``message`` is shown to players."""

    def __init__(self, message: str, status: int = 400, *,
                 params: dict[str, Any] | None = None, **extra: Any) -> None:
        self.template = message
        self.params = dict(params or {})
        self.message = message.format(**self.params) if self.params else message
        super().__init__(self.message)
        self.status = status
        self.extra = extra


def said(e: Exception) -> str:
    """An error's sentence in the request's language (its template and parameters through the
    catalog; a parameter that is itself an area name is worded too)."""
    template = getattr(e, "template", None)
    if not isinstance(template, str) or not template:
        return str(e)
    params = getattr(e, "params", {}) or {}
    return translate(template, **params)


def error_response(message: str, status: int, **extra: Any) -> Response:
    """The one shape of every API error."""
    response = jsonify({"error": message, **extra})
    response.status_code = status
    retry_after = extra.get("retry_after")
    if isinstance(retry_after, int):
        response.headers["Retry-After"] = str(retry_after)
    return response


def error_page(status: int) -> Response:
    """The panel's own page for an address it cannot show (in the page's language, with the
    panel's frame and a way back), instead of the web framework's English one."""
    from flask import render_template

    from .pages import common

    if status == 404:
        heading = translate(N_("This page does not exist"))
        text = translate(N_("Nothing is found at this address. Perhaps a link was mistyped, "
                            "or the page belongs to a newer version of the table."))
    else:
        heading = translate(N_("This page cannot be shown"))
        text = translate(N_("The table cannot answer this address (error {status})."),
                         status=status)
    response = Response(render_template("error.html", page="error", heading=heading,
                                        text=text, **common()), status=status)
    return response


def _wants_json() -> bool:
    return request.path.startswith("/api/")


def register_error_handlers(app: Flask) -> None:
    """Turn every exception on an API path into a JSON error; pages get a short HTML page."""

    @app.errorhandler(ApiError)
    def _api_error(e: ApiError) -> Response:
        return error_response(said(e), e.status, **e.extra)

    @app.errorhandler(NotSaved)
    def _not_saved(e: NotSaved) -> Response:
        # 503: the card is full or read-only; the old settings stay as they were.
        return error_response(translate(N_("the setting cannot be saved ({detail}): nothing "
                                           "changed"), detail=str(e)), 503)

    @app.errorhandler(ConfirmNeeded)
    def _confirm_needed(e: ConfirmNeeded) -> Response:
        # 409: the request is fine, but it would change what the players may want to keep;
        # sent again with the confirmation it is done. Seats are said by the players' names.
        seats = {k: v for k, v in e.params.items() if k in ("player", "actor")
                 and isinstance(v, int)}
        if seats:
            from .views import seat_names

            names = seat_names()
            e.params.update({k: names[v] if 0 <= v < len(names) else str(v)
                             for k, v in seats.items()})
        yes, no = CONFIRM_CHOICES.get(e.code, (N_("Go on"), N_("Keep it as it is")))
        return error_response(said(e), CONFLICT, code=f"confirm_{e.code}", confirm=e.code,
                              yes=translate(yes, **e.params), no=translate(no, **e.params))

    @app.errorhandler(CannotSave)
    def _cannot_save(e: CannotSave) -> Response:
        return error_response(said(e), UNAVAILABLE, code="cannot_save", cause=e.cause,
                              retry_after=2)

    @app.errorhandler(StaleInput)
    def _stale_input(e: StaleInput) -> Response:
        # 409: made from an older view than the game's; nothing was done, and the phone gets
        # the view it missed to decide again.
        from .views import present

        view = present(current_app.extensions["sudoku_table"], e.view)
        return error_response(said(e), CONFLICT, code="stale", view=view)

    @app.errorhandler(NoAnswer)
    def _no_answer(e: NoAnswer) -> Response:
        return error_response(said(e), 504)

    @app.errorhandler(NotYourSeat)
    def _not_your_seat(e: NotYourSeat) -> Response:
        return error_response(said(e), 403)

    @app.errorhandler(InputError)
    def _input_error(e: InputError) -> Response:
        return error_response(said(e) or translate(N_("this input cannot be used now")),
                              UNPROCESSABLE)

    @app.errorhandler(RulesError)
    def _rules_error(e: RulesError) -> Response:
        return error_response(said(e) or translate(N_("the rules do not allow this")),
                              UNPROCESSABLE)

    @app.errorhandler(HTTPException)
    def _http_error(e: HTTPException) -> Response | HTTPException:
        if not _wants_json():
            return error_page(e.code or 400)
        messages = {
            404: "there is no such page or resource",
            405: f"{request.method} is not allowed here",
            413: translate(N_("the request body is too large")),  # as the server says it
        }
        status = e.code or 400
        response = error_response(messages.get(status, e.description or e.name), status)
        allowed = e.get_response().headers.get("Allow")
        if allowed:  # a 405 names the methods that are allowed
            response.headers["Allow"] = allowed
        return response

    @app.errorhandler(Exception)
    def _unexpected(e: Exception) -> Response:
        # A bug, not bad input: log it for the operator, tell the phone only that it failed.
        log.exception("unexpected error on %s %s", request.method, request.path)
        return error_response("the table could not do this (an internal error, logged)", 500)
