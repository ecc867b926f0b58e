"""The codes one table gives another: a join code for a remote seat, a watch code to look on.

A game on the broker is protected by secrets the host draws once:

- ``read``: 16 random bytes. The game's name on the broker and the key that encrypts every
  message of the game are derived from it, so anyone else on the broker (a public one
  included) sees only random topic names and ciphertext. Whoever holds it may read the game's
  open messages: every table of the game, and watchers.
- a seat's ``seat`` secret: 16 random bytes per remote seat. Its table authenticates its
  proposals with a key derived from it, and the host encrypts that seat's hidden cards with
  another, so a card travels only to the table of the seat that holds it.

The host's log entries are signed with its Ed25519 key, whose public half is published in the
game's ``hello`` (sealed with the read key): a watcher or a guest can check who wrote every
entry, and cannot write one.

A join code carries ``read``, the seat and its secret (33 bytes); a watch code only ``read``.
Both are written in Crockford's base32 in groups of four, to be typed or shown as a QR code.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from dataclasses import dataclass

from sudoku_table.rules.wording import N_

ALPHABET = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"
"""Crockford's base32: no I, L, O or U to mix up when a code is typed."""

SECRET_BYTES = 16
JOIN = 0x4A  # "J"
WATCH = 0x57  # "W"


class BadCode(ValueError):
    """A code that is not one of ours, or was mistyped (its check fails)."""


def _encode(data: bytes) -> str:
    number = int.from_bytes(b"\x01" + data, "big")  # a leading 1 keeps leading zero bytes
    digits = []
    while number:
        number, rest = divmod(number, 32)
        digits.append(ALPHABET[rest])
    text = "".join(reversed(digits))
    return "-".join(text[i:i + 4] for i in range(0, len(text), 4))


def _decode(text: str) -> bytes:
    clean = text.upper().replace("O", "0").replace("I", "1").replace("L", "1")
    number = 0
    for ch in clean:
        if ch in "- \t\n":
            continue
        value = ALPHABET.find(ch)
        if value < 0:
            raise BadCode(N_("it has a character that no code has"))
        number = number * 32 + value
    raw = number.to_bytes((number.bit_length() + 7) // 8, "big")
    if not raw or raw[0] != 1:
        raise BadCode(N_("not a code of the Sudoku Table"))
    return raw[1:]


def _with_check(body: bytes) -> bytes:
    return body + hashlib.sha256(body).digest()[:2]


def _checked(data: bytes) -> bytes:
    body, check = data[:-2], data[-2:]
    if len(data) < 3 or not hmac.compare_digest(hashlib.sha256(body).digest()[:2], check):
        raise BadCode(N_("the code is mistyped (its check does not match)"))
    return body


def derive(secret: bytes, purpose: str, size: int = 32) -> bytes:
    """A key for one ``purpose`` from a game's or a seat's secret (HKDF-like, SHA-256)."""
    return hmac.new(secret, b"sudoku-table " + purpose.encode("ascii"), hashlib.sha256).digest()[
        :size]


@dataclass(frozen=True)
class GameKeys:
    """What the read secret gives: the game's name on the broker and its sealing key."""

    read: bytes

    @property
    def game(self) -> str:
        """The game's topic name: 32 hex digits nobody can guess or link to the table."""
        return derive(self.read, "game", 16).hex()

    @property
    def sealing(self) -> bytes:
        return derive(self.read, "seal")

    @classmethod
    def new(cls) -> GameKeys:
        return cls(secrets.token_bytes(SECRET_BYTES))


@dataclass(frozen=True)
class SeatKeys:
    """What a seat's secret gives: the key of its proposals and the key of its cards."""

    seat: int
    secret: bytes

    @property
    def proposing(self) -> bytes:
        return derive(self.secret, f"propose {self.seat}")

    @property
    def cards(self) -> bytes:
        return derive(self.secret, f"cards {self.seat}")

    @classmethod
    def new(cls, seat: int) -> SeatKeys:
        return cls(seat, secrets.token_bytes(SECRET_BYTES))


@dataclass(frozen=True)
class JoinCode:
    """A remote seat's code: the game's read secret, the seat, and the seat's secret."""

    game: GameKeys
    seat: SeatKeys

    def text(self) -> str:
        return _encode(_with_check(bytes([JOIN, self.seat.seat]) + self.game.read
                                   + self.seat.secret))


@dataclass(frozen=True)
class WatchCode:
    """A code to look on: the read secret only (it can read the game, never act in it)."""

    game: GameKeys

    def text(self) -> str:
        return _encode(_with_check(bytes([WATCH]) + self.game.read))


def read_code(text: str) -> JoinCode | WatchCode:
    """The code typed or scanned (``BadCode`` for anything else)."""
    body = _checked(_decode(text))
    if body[:1] == bytes([JOIN]) and len(body) == 2 + 2 * SECRET_BYTES:
        seat = body[1]
        if seat > 3:
            raise BadCode(N_("the code names no seat of a game"))
        read, secret = body[2:2 + SECRET_BYTES], body[2 + SECRET_BYTES:]
        return JoinCode(GameKeys(read), SeatKeys(seat, secret))
    if body[:1] == bytes([WATCH]) and len(body) == 1 + SECRET_BYTES:
        return WatchCode(GameKeys(body[1:]))
    raise BadCode(N_("not a join or watch code"))
