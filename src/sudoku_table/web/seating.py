"""Every player's own phone: which phone plays which seat of the running game.

A seat is bound to a phone by a capability, a random token that phone keeps (in its browser's
storage) and sends with every request (``X-Seat-Token``). The shared panel asks for a seat's
joining link (the PIN where set): its token, and a short code to type instead, both good for one
phone and a few minutes. The phone that opens the link (or types the code) trades it for a token
of its own, which nobody else ever sees; joining the seat again hands it to the new phone and
the old token stops working, which is also how a lost phone's seat is taken back.

Only hashes of tokens are kept, in a small file beside the panel's settings (written
atomically), with the journal's number of the game they belong to: a reload or a power cut keeps
every phone in its seat, and a new game starts with every seat free.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import logging
import os
import secrets
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from sudoku_table.table.journal import write_atomically

log = logging.getLogger(__name__)

INVITE_SECONDS = 600.0
"""How long a joining link or code stays good (time enough to find the phone and scan)."""

CODE_ALPHABET = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"
"""Letters and digits no one mixes up when typing a code read across the table."""

CODE_LENGTH = 8
"""A code of 8 such characters: about 40 bits, and each wrong code counts against the table's
budget of wrong guesses (the PIN's), so guessing one is hopeless."""


def _hash(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).hexdigest()


def new_code() -> str:
    """A fresh short code, shown as ``ABCD-EFGH``."""
    raw = "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))
    return f"{raw[:4]}-{raw[4:]}"


def normal_code(text: str) -> str:
    """A typed code as it is kept: capitals, without spaces or dashes (``abcd efgh`` is
    ``ABCD-EFGH``)."""
    raw = "".join(ch for ch in text.upper() if ch.isalnum())
    return f"{raw[:4]}-{raw[4:]}" if len(raw) == CODE_LENGTH else raw


@dataclass
class Invite:
    """A seat's joining link and code, good for one phone until ``until``."""

    seat: int
    token_hash: str
    code: str
    until: float


class Seating:
    """The phones of the running game (``game``: the journal's number of the game, or None for
    a table without a journal). Thread-safe."""

    def __init__(self, path: str | os.PathLike[str] | None,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self._path = Path(path) if path is not None else None
        self._clock = clock
        self._lock = threading.Lock()
        self._game: int | None = None
        self._seats: dict[int, str] = {}  # seat: hash of its phone's token
        self._invites: list[Invite] = []
        self._load()

    # --- keeping --------------------------------------------------------------------------

    def _load(self) -> None:
        if self._path is None:
            return
        try:
            data = json.loads(self._path.read_text(encoding="utf-8"))
        except FileNotFoundError:
            return
        except (OSError, ValueError) as e:
            log.warning("ignoring unreadable seats %s: %s (every seat is free)", self._path, e)
            return
        if not isinstance(data, dict) or not isinstance(data.get("seats"), dict):
            return
        game = data.get("game")
        self._game = game if isinstance(game, int) and not isinstance(game, bool) else None
        self._seats = {int(k): v for k, v in data["seats"].items()
                       if isinstance(k, str) and k.isdigit() and isinstance(v, str)}

    def _save(self, game: int | None, seats: dict[int, str]) -> None:
        """Write the bindings (before they count: ``OSError`` changes nothing)."""
        if self._path is None:
            return
        write_atomically(self._path, json.dumps(
            {"game": game, "seats": {str(k): v for k, v in sorted(seats.items())}}))

    def _current(self, game: int | None) -> dict[int, str]:
        """The bindings of ``game``: none when they belong to another game."""
        if game != self._game:
            return {}
        return self._seats

    def _set(self, game: int | None, seats: dict[int, str]) -> None:
        self._save(game, seats)
        self._game, self._seats = game, seats

    # --- what the panel asks --------------------------------------------------------------

    def invite(self, game: int | None, seat: int) -> tuple[str, str]:
        """A joining link's token and code for ``seat`` (the seat stays with its phone, if it
        has one, until a new phone claims it)."""
        token = secrets.token_urlsafe(24)
        code = new_code()
        with self._lock:
            now = self._clock()
            self._invites = [i for i in self._invites if i.until > now and i.seat != seat]
            self._invites.append(Invite(seat, _hash(token), code, now + INVITE_SECONDS))
            if game != self._game:
                self._game, self._seats = game, {}
        return token, code

    def claim(self, game: int | None, token: str | None = None,
              code: str | None = None) -> tuple[int, str] | None:
        """Trade a joining token or code for the phone's own token: (seat, token), or None
        when it is unknown or too old (``OSError`` when the binding cannot be kept)."""
        with self._lock:
            now = self._clock()
            self._invites = [i for i in self._invites if i.until > now]
            found = None
            for invite in self._invites:
                # Compared as bytes: ``compare_digest`` refuses a str with a character beyond
                # ASCII, and a typed code may hold any.
                if token is not None and hmac.compare_digest(invite.token_hash, _hash(token)):
                    found = invite
                elif code is not None and hmac.compare_digest(
                        invite.code.encode(), normal_code(code).encode("utf-8", "surrogatepass")):
                    found = invite
            if found is None:
                return None
            own = secrets.token_urlsafe(24)
            seats = {**self._current(game), found.seat: _hash(own)}
            self._set(game, seats)
            self._invites.remove(found)
            return found.seat, own

    def seat_of(self, game: int | None, token: str) -> int | None:
        """The seat whose phone sends ``token`` in ``game``, or None."""
        digest = _hash(token)
        with self._lock:
            for seat, kept in self._current(game).items():
                if hmac.compare_digest(kept, digest):
                    return seat
        return None

    def leave(self, game: int | None, seat: int) -> bool:
        """Free ``seat`` (its phone's token stops working); False when it had no phone."""
        with self._lock:
            seats = dict(self._current(game))
            if seats.pop(seat, None) is None:
                self._invites = [i for i in self._invites if i.seat != seat]
                return False
            self._set(game, seats)
            self._invites = [i for i in self._invites if i.seat != seat]
            return True

    def phones(self, game: int | None) -> list[int]:
        """The seats that have a phone in ``game``."""
        with self._lock:
            return sorted(self._current(game))

    def new_game(self, game: int | None) -> None:
        """A new game: every seat is free."""
        with self._lock:
            self._invites = []
            try:
                self._set(game, {})
            except OSError as e:  # nothing to lose: the old bindings name another game
                log.warning("cannot clear the seats file: %s", e)
                self._game, self._seats = game, {}

    def to_json(self, game: int | None) -> dict[str, Any]:
        return {"phones": self.phones(game)}
