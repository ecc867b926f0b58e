"""Guards for a panel that anyone on the local network can reach.

- State-changing requests must be JSON: a plain HTML form on another site cannot send
  ``application/json`` without a CORS preflight, which this panel never answers.
- A browser's ``Origin`` must be this panel itself; a request naming another origin is refused.
- The ``Host`` must be an address, ``localhost``, a ``.local`` name or a name from the config:
  this stops a web page that rebinds its own DNS name to the table's address from talking to it.
- A PIN from the config protects every change a player does not make with a piece: a new game,
  taking back, hints, ending a turn from the panel and the settings (``input_needs_pin`` says
  which inputs). Wrong guesses count against one budget for the whole table and lock guessing
  out for longer and longer, since a four-digit PIN is otherwise quick to try out.
"""

from __future__ import annotations

import hmac
import ipaddress
import logging
import math
import threading
import time
from collections.abc import Callable, Iterable, Mapping
from typing import Any
from urllib.parse import urlsplit

from flask import Flask, Response, current_app, request

from sudoku_table.rules.wording import N_

from .errors import ApiError

CHANGING_METHODS = frozenset({"POST", "PUT", "PATCH", "DELETE"})
PIN_HEADER = "X-Table-Pin"

log = logging.getLogger(__name__)


def _split_host(host: str) -> str:
    """The host name of a ``Host`` header value, without port and IPv6 brackets, lower case."""
    host = host.strip().lower()
    if host.startswith("["):
        return host[1:].split("]", 1)[0]
    if host.count(":") == 1:
        return host.split(":", 1)[0]
    return host


def host_allowed(host: str, extra_names: Iterable[str] = ()) -> bool:
    """True for IP addresses, ``localhost``, mDNS ``.local`` names and the configured names."""
    name = _split_host(host)
    if not name:
        return False
    try:
        ipaddress.ip_address(name)
        return True
    except ValueError:
        pass
    if name == "localhost" or name.endswith(".local"):
        return True
    return name in {n.lower() for n in extra_names}


def origin_matches(origin: str, host: str) -> bool:
    """True when a browser's ``Origin`` header names the host this request was sent to."""
    parts = urlsplit(origin)
    if parts.scheme not in ("http", "https") or not parts.netloc:
        return False
    return parts.netloc.lower() == host.strip().lower()


def check_request() -> None:
    """Run before every API request: host, origin and content type."""
    cfg = current_app.config
    host = request.host or ""
    if not host_allowed(host, cfg.get("PANEL_HOSTS", ())):
        raise ApiError(N_("this panel does not answer to the name {host}"),
                       403, params={"host": repr(_split_host(host))})
    if request.method not in CHANGING_METHODS:
        return
    origin = request.headers.get("Origin")
    if origin is not None and origin != "null" and not origin_matches(origin, host):
        raise ApiError(N_("requests from other web pages are not accepted"), 403)
    if origin == "null":
        raise ApiError(N_("requests from other web pages are not accepted"), 403)
    if not request.is_json:
        raise ApiError(N_("send the request body as JSON (Content-Type: application/json)"), 415)


PIN_FREE_FAILURES = 5
"""Wrong PINs the whole table may see before it starts to refuse guesses for a while."""

PIN_FIRST_LOCKOUT = 30.0
"""Seconds of the first lockout; every further wrong PIN doubles it, up to ``PIN_MAX_LOCKOUT``."""

PIN_MAX_LOCKOUT = 3600.0

PIN_INPUTS = frozenset({"undo", "redo", "hints", "end_turn"})
"""Panel inputs that always need the PIN: they change the game without a piece on the board."""

ANSWER_INPUTS = frozenset({"discard", "joker"})
"""Panel inputs that need no PIN only while they answer what the table asks now."""


class PinGuard:
    """Checks the PIN against one failure budget shared by the whole table.

    Counting per client address lets an attacker who changes address (easy on a LAN, trivial on
    loopback) guess without limit, so every wrong PIN counts against the table itself: after
    ``PIN_FREE_FAILURES`` wrong PINs in a row every guess, right or wrong, is refused for
    ``PIN_FIRST_LOCKOUT`` seconds, and each further wrong PIN doubles that, up to an hour. At
    most about 30 guesses a day get through, so trying the 10,000 four-digit PINs takes
    most of a year. The price is that somebody guessing wrong also locks out the family for a
    while; the right PIN, once accepted, clears the count. Restarting the table clears it too,
    which needs hands on the table.
    """

    def __init__(self, pin: str, clock: Callable[[], float] = time.monotonic) -> None:
        self.pin = pin
        self._clock = clock
        self._lock = threading.Lock()
        self._failures = 0
        self._locked_until = 0.0

    @property
    def enabled(self) -> bool:
        return bool(self.pin)

    @property
    def failures(self) -> int:
        """Wrong PINs since the last right one."""
        return self._failures

    def lockout_seconds(self, failures: int) -> float:
        """How long guessing is refused after ``failures`` wrong PINs in a row."""
        if failures < PIN_FREE_FAILURES:
            return 0.0
        return float(min(PIN_MAX_LOCKOUT, PIN_FIRST_LOCKOUT * 2 ** (failures - PIN_FREE_FAILURES)))

    def open_for_guesses(self) -> None:
        """``ApiError`` 429 while guessing is locked out: asked before a guess of another
        secret is even looked at, so that a refused guess changes nothing (a right code sent
        during a lockout must not use up the invite it names)."""
        now = self._clock()
        with self._lock:
            if now < self._locked_until:
                wait = max(1, math.ceil(self._locked_until - now))
                raise ApiError(N_("too many wrong guesses: try again in {wait} s"), 429,
                               retry_after=wait, params={"wait": wait})

    def guessed(self, right: bool, client: str = "", what: str = "code") -> None:
        """Count a guess of another secret against the same budget (a seat's joining code),
        once ``open_for_guesses`` let it through: a wrong guess counts as a wrong PIN
        (``ApiError`` 429 if guessing was locked out meanwhile)."""
        if right:
            return
        self.open_for_guesses()
        now = self._clock()
        with self._lock:
            self._failures += 1
            self._locked_until = now + self.lockout_seconds(self._failures)
            count = self._failures
        log.warning("wrong %s from %s (%d in a row)", what, client or "?", count)

    def require(self, given: object, client: str = "") -> None:
        """Return when the PIN is off or ``given`` is right; raise ``ApiError`` otherwise.

        ``client`` is kept for the log only: the budget is the table's, not the address's."""
        if not self.enabled:
            return
        now = self._clock()
        with self._lock:
            if now < self._locked_until:
                wait = max(1, math.ceil(self._locked_until - now))
                raise ApiError(N_("too many wrong PINs: try again in {wait} s"), 429, pin=True,
                               retry_after=wait, params={"wait": wait})
            if not isinstance(given, str) or not given:
                raise ApiError(N_("this needs the table's PIN"), 401, pin=True)
            if hmac.compare_digest(given.encode(), self.pin.encode()):
                self._failures = 0
                return
            self._failures += 1
            self._locked_until = now + self.lockout_seconds(self._failures)
            count = self._failures
        log.warning("wrong PIN from %s (%d in a row)", client or "?", count)
        raise ApiError(N_("wrong PIN"), 401, pin=True)


def require_pin(body: Mapping[str, Any] | None = None) -> None:
    """Ask for the PIN (header ``X-Table-Pin`` or a ``pin`` field) when the config sets one."""
    guard: PinGuard = current_app.extensions["sudoku_table"].pin
    given = request.headers.get(PIN_HEADER)
    if given is None and body is not None:
        given = body.get("pin")
    guard.require(given, request.remote_addr or "?")


def input_needs_pin(data: Mapping[str, Any], prompt: Mapping[str, Any] | None) -> bool:
    """Whether a panel input needs the PIN (when one is set).

    Playing never does: a number, a blank or a bear-off is about a piece the sensors see, and
    a set-aside or a joker that answers the table's own question (its ``prompt``) is part of
    the turn. Everything that changes the game without a piece on the board does: taking back,
    switching hints, ending a turn from the panel, and a set-aside or joker nobody was asked for.
    """
    kind = data.get("type")
    if kind in PIN_INPUTS:
        return True
    if kind not in ANSWER_INPUTS:
        return False
    if not prompt or prompt.get("kind") != kind:
        return True
    if prompt.get("number") is not None and prompt.get("number") != data.get("number"):
        return True
    asked = prompt.get("square")
    return "square" in data and asked is not None and asked != data["square"]


def add_security_headers(response: Response) -> Response:
    """Everything the panel loads comes from itself; it is never framed by another page."""
    response.headers.setdefault(
        "Content-Security-Policy",
        "default-src 'self'; img-src 'self' data:; style-src 'self'; script-src 'self'; "
        "connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'self'",
    )
    response.headers.setdefault("X-Content-Type-Options", "nosniff")
    response.headers.setdefault("X-Frame-Options", "DENY")
    response.headers.setdefault("Referrer-Policy", "same-origin")
    return response


def init_security(app: Flask) -> None:
    app.after_request(add_security_headers)
