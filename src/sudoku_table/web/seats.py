"""Seats played from the players' own phones (docs/api.md "Seats and phones").

Who may do what, from which device:
- the shared panel (no token) does everything it always did; the PIN, where set, guards what
  it always guarded, and joining a seat or taking one back from a phone;
- a seat's phone (``X-Seat-Token``) reads everything anyone may read, plus its own card or
  stone (``table.hand``), and plays its own seat in its own turn (``SEAT_INPUTS`` of the
  companion); every other change is refused with a message, and it never needs the PIN;
- nobody else learns a seat's card: no view, live view, record, hint, lit square, spoken word
  or refusal of anyone else's depends on it (the table computes the shared fields without it,
  ``private`` hands its own to the holder's phone, and an input that names the card is
  refused from the shared panel before the card is looked at).
"""

from __future__ import annotations

import functools
import io
from typing import Any
from urllib.parse import urlsplit

import segno
from flask import Blueprint, Flask, Response, current_app, g, jsonify, request

from sudoku_table.rules.wording import N_
from sudoku_table.table.view import View

from . import PanelState
from .errors import ApiError
from .seating import INVITE_SECONDS, Seating
from .security import CHANGING_METHODS, check_request, require_pin
from .server import panel_addresses
from .validation import json_body

seats = Blueprint("seats", __name__, url_prefix="/api/seats")

SEAT_HEADER = "X-Seat-Token"

SEAT_ENDPOINTS = frozenset({"api.game_input_endpoint", "api.hint", "seats.leave",
                            "seats.claim"})
"""The changing endpoints a seat's phone may call (reading is open to it as to anyone)."""


def _panel() -> PanelState:
    return current_app.extensions["sudoku_table"]


def seating() -> Seating:
    return _panel().seating


def game_key() -> int | None:
    """The running game as the phones' bindings name it (the journal's number)."""
    return _panel().table.game_id


def resolve_seat() -> None:
    """Before every API request: the seat whose phone sends it (``g.seat``; None for the
    shared panel). A token that holds no seat, or a phone calling what only the shared panel
    may, is refused (403) and nothing changes."""
    g.seat = None
    if not request.path.startswith("/api/") or request.routing_exception is not None:
        return  # not the API, or no such route or method: answered as such
    token = request.headers.get(SEAT_HEADER)
    if token is None and request.path == "/api/events":
        token = request.args.get("token")
    if token is None:
        return
    seat = seating().seat_of(game_key(), token)
    if seat is None:
        raise ApiError(N_("this phone no longer plays a seat (it was handed to another phone, "
                          "taken back, or a new game began): join again from the shared panel"),
                       403, seat_lost=True)
    g.seat = seat
    if request.method in CHANGING_METHODS and request.endpoint not in SEAT_ENDPOINTS:
        raise ApiError(N_("a player's phone plays its own seat only: do this on the shared "
                          "panel"), 403)


def require_turn() -> None:
    """A seat's phone may ask only in its own turn (a hint is about the mover's card)."""
    seat = g.get("seat")
    if seat is None:
        return
    game = _panel().table.view().get("game") or {}
    if game.get("to_move") != seat:
        raise ApiError(N_("it is not your turn yet: wait until the table names your player"),
                       403)


def private(panel: PanelState, view: View, table: dict[str, Any],
            seat: int | None) -> dict[str, Any]:
    """``table`` (the view's table part) as ``seat``'s phone may see it (None: the shared
    panel): the seats with phones for everyone; the seat and its own card for its phone only.
    Where the mover's card is theirs alone, the table part carries what only their phone may
    see apart (``holder``): it replaces the shared fields on that phone and reaches no other
    device."""
    phones = panel.seating.phones(panel.table.game_id)
    table = {**table, "phones": phones}
    holder = table.pop("holder", None)
    if seat is not None:
        if holder is not None and holder["seat"] == seat:
            table.update({k: v for k, v in holder.items() if k != "seat"})
        table["seat"] = seat
        hand = panel.table.hand(seat)
        table["hand"] = hand["number"] if hand is not None else None
        table["hand_do"] = hand["do"] if hand is not None else None
        table.pop("join", None)  # the other tables' codes are the shared panel's to give
    elif "join" in table:
        join = table["join"]
        table["join"] = {**join, "codes": [{**code, "qr": _code_qr(code["code"])}
                                           for code in join["codes"]]}
    return table


@functools.lru_cache(maxsize=16)
def _code_qr(code: str) -> str:
    """A join code's QR code (drawn once per code: every view of the host carries it)."""
    return _qr(code)


def _players() -> tuple[int, dict[str, str], dict[int, str]]:
    """The game's players, the computer's seats, and where each seat is played (a game shared
    with other tables)."""
    view = _panel().table.view()
    game = view.get("game")
    if game is None:
        raise ApiError(N_("no game is running: choose a game first"), 409)
    table = view["table"]
    where = {s["seat"]: s["kind"] for s in table.get("seats") or []}
    return int(game.get("players") or 0), table.get("computers", {}), where


def _check_seat(seat: int) -> None:
    players, computers, where = _players()
    if not 0 <= seat < players:
        raise ApiError(N_("there is no seat {seat} in this game (seats 0 to {last})"), 404,
                       params={"seat": seat, "last": players - 1})
    if str(seat) in computers:
        raise ApiError(N_("seat {seat} is the computer's: it needs no phone"), 409,
                       params={"seat": seat})
    if where.get(seat, "here") != "here":
        raise ApiError(N_("seat {seat} plays at another table: its phone joins there"), 409,
                       params={"seat": seat})


def _link(token: str) -> str:
    """The joining link a phone opens: this panel's address on the network (not the name the
    shared panel happens to use, which may be ``localhost``), the token after ``#`` so that it
    never reaches a log."""
    host = urlsplit(request.host_url).hostname or ""
    port = urlsplit(request.host_url).port or 80
    if host in ("localhost", "::1") or host.startswith("127."):
        base = panel_addresses("0.0.0.0", port)[-1]
    else:
        base = request.host_url
    return f"{base.rstrip('/')}/join#{token}"


def _reachable() -> bool:
    """Whether a phone on the network can reach this panel: not when it listens on loopback
    only (``sudoku-table serve`` without ``--host``, ``make run`` without ``HOST=0.0.0.0``)."""
    host = str(current_app.config.get("PANEL_LISTENS_ON", ""))
    return not (host in ("localhost", "::1") or host.startswith("127."))


def _qr(text: str) -> str:
    """``text`` as a QR code, an SVG drawing (segno)."""
    out = io.BytesIO()
    segno.make(text, error="m").save(out, kind="svg", scale=6, border=2, xmldecl=False,
                                     svgns=True, dark="#000", light="#fff")
    return out.getvalue().decode("utf-8")


@seats.post("/<int:seat>/join")
def join(seat: int) -> Response:
    """A joining link and code for ``seat`` (the PIN where set): for one phone, for a few
    minutes; the phone that opens it plays the seat."""
    body = json_body()
    require_pin(body)
    _check_seat(seat)
    token, code = seating().invite(game_key(), seat)
    link = _link(token)
    return jsonify({"seat": seat, "token": token, "code": code, "link": link, "qr": _qr(link),
                    "expires_in": int(INVITE_SECONDS), "reachable": _reachable()})


@seats.post("/claim")
def claim() -> Response:
    """A phone opened a joining link (``token``) or typed its ``code``: it gets a token of its
    own and plays the seat; the link and code are used up."""
    body = json_body()
    token, code = body.get("token"), body.get("code")
    if token is None and code is None:
        raise ApiError(N_("send the joining link's token or the code shown on the shared "
                          "panel"))
    guard = _panel().pin
    guard.open_for_guesses()  # a locked-out guess is refused before it can use up an invite
    try:
        found = seating().claim(game_key(), token=token, code=code)
        if found is not None:
            _panel().table.touch()  # every panel's list of phones shows it
    except OSError:
        raise ApiError(N_("the table cannot save which phone plays the seat (its card is "
                          "full or failing): nothing changed; try again"), 503) from None
    guard.guessed(found is not None, request.remote_addr or "?")
    if found is None:
        raise ApiError(N_("this joining link or code is unknown or too old: ask for a new one "
                          "on the shared panel"), 404)
    seat, own = found
    return jsonify({"seat": seat, "token": own})


@seats.post("/<int:seat>/leave")
def leave(seat: int) -> Response:
    """Free ``seat``: from its own phone, or from the shared panel (the PIN where set), which
    takes back the seat of a lost phone."""
    body = json_body()
    mine = g.get("seat")
    if mine is not None and mine != seat:
        raise ApiError(N_("this phone plays for player {mine}, not for player {other}"), 403,
                       params={"mine": mine + 1, "other": seat + 1})
    if mine is None:
        require_pin(body)
    try:
        if seating().leave(game_key(), seat):
            _panel().table.touch()  # the lost phone's live view ends, the panels show it
    except OSError:
        raise ApiError(N_("the table cannot save which phone plays the seat (its card is "
                          "full or failing): nothing changed; try again"), 503) from None
    return jsonify({"seat": seat, "phones": seating().phones(game_key())})


@seats.get("/<int:seat>/hand")
def hand(seat: int) -> Response:
    """The card of a seat with no phone, on its turn, while the table deals: the shared
    panel's "show my card" (a seat's phone reads its own card in its view)."""
    check_request()
    mine = g.get("seat")
    if mine is not None and mine != seat:
        raise ApiError(N_("this phone plays for player {mine}, not for player {other}"), 403,
                       params={"mine": mine + 1, "other": seat + 1})
    if mine is None and seat in seating().phones(game_key()):
        raise ApiError(N_("this player's card is on their own phone"), 403)
    dealt = _panel().table.hand(seat)
    if dealt is None:
        raise ApiError(N_("the table has dealt no card to seat {seat} now (the table deals "
                          "only in the games that hide cards, and only to the player to move)"),
                       403, params={"seat": seat})
    return jsonify({"seat": seat, "hand": dealt["number"], "do": dealt["do"]})


def init_seats(app: Flask) -> None:
    """The seat of every request, and the seats' endpoints."""
    app.before_request(resolve_seat)
    app.register_blueprint(seats)
