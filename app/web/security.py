"""Guards for a panel that anyone on the local network can reach.

- State-changing requests must be JSON: a plain HTML form on another site cannot send
  ``application/json`` without a CORS preflight, which this panel never answers.
- A browser's ``Origin`` must be this panel itself; a request naming another origin is refused.
- The ``Host`` must be an address, ``localhost``, a ``.local`` name or a name from the config:
  this stops a web page that rebinds its own DNS name to the table's address from talking to it.
- A PIN from the config protects settings and ending a running game. Wrong guesses are counted
  and, after a few, refused for a while, since a four-digit PIN is otherwise quick to try out.
"""

from __future__ import annotations

import hmac
import ipaddress
import threading
import time
from collections.abc import Callable, Iterable
from urllib.parse import urlsplit

from flask import Flask, Response, current_app, request

from .errors import ApiError

CHANGING_METHODS = frozenset({"POST", "PUT", "PATCH", "DELETE"})
PIN_HEADER = "X-Table-Pin"
PIN_ATTEMPTS = 5
PIN_LOCKOUT_SECONDS = 30.0


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
        raise ApiError(f"this panel does not answer to the name {_split_host(host)!r}", 403)
    if request.method not in CHANGING_METHODS:
        return
    origin = request.headers.get("Origin")
    if origin is not None and origin != "null" and not origin_matches(origin, host):
        raise ApiError("requests from other web pages are not accepted", 403)
    if origin == "null":
        raise ApiError("requests from other web pages are not accepted", 403)
    if not request.is_json:
        raise ApiError("send the request body as JSON (Content-Type: application/json)", 415)


class PinGuard:
    """Checks the PIN and counts wrong guesses per client address."""

    def __init__(self, pin: str, clock: Callable[[], float] = time.monotonic) -> None:
        self.pin = pin
        self._clock = clock
        self._lock = threading.Lock()
        self._failures: dict[str, tuple[int, float]] = {}

    @property
    def enabled(self) -> bool:
        return bool(self.pin)

    def require(self, given: object, client: str) -> None:
        """Return when the PIN is off or ``given`` is right; raise ``ApiError`` otherwise."""
        if not self.enabled:
            return
        now = self._clock()
        with self._lock:
            count, until = self._failures.get(client, (0, 0.0))
            if count >= PIN_ATTEMPTS:
                if now < until:
                    wait = int(until - now) + 1
                    raise ApiError(f"too many wrong PINs: try again in {wait} s", 429, pin=True)
                count = 0
            if not isinstance(given, str) or not given:
                raise ApiError("this needs the table's PIN", 401, pin=True)
            if hmac.compare_digest(given.encode(), self.pin.encode()):
                self._failures.pop(client, None)
                return
            self._failures[client] = (count + 1, now + PIN_LOCKOUT_SECONDS)
        raise ApiError("wrong PIN", 401, pin=True)


def require_pin(body: dict | None = None) -> None:
    """Ask for the PIN (header ``X-Table-Pin`` or a ``pin`` field) when the config sets one."""
    guard: PinGuard = current_app.extensions["sudoku_table"].pin
    given = request.headers.get(PIN_HEADER)
    if given is None and body is not None:
        given = body.get("pin")
    guard.require(given, request.remote_addr or "?")


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
