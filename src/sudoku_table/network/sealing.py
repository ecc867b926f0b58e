"""Sealing the game's messages: what anyone else on the broker can neither read nor forge.

Every message of a game is JSON, sealed with AES-GCM under the game's sealing key
(``GameKeys.sealing``) with its topic as associated data, so a message cannot be read without
the game's read secret, nor moved to another topic. Inside:

- a host's **log entry** is signed with the host's Ed25519 key (a guest or watcher, who can
  read, still cannot write one);
- a seat's **proposal** carries an HMAC under that seat's proposing key and a counter that
  must grow (a replay of an old proposal is refused);
- a **card** for one seat is sealed again under that seat's card key: only its table reads it.

``Refused`` says why a message is not taken; nothing is applied from it.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import json
import os
from typing import Any

from cryptography.exceptions import InvalidSignature, InvalidTag
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey, Ed25519PublicKey
from cryptography.hazmat.primitives.ciphers.aead import AESGCM
from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat

NONCE = 12


class Refused(ValueError):
    """A message that is not the game's, not its sender's, or a replay: changes nothing."""


def canonical(data: Any) -> bytes:
    """One byte string per value (sorted keys, no spaces): what is signed and compared."""
    return json.dumps(data, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode()


def seal(key: bytes, topic: str, data: Any) -> bytes:
    """``data`` encrypted and authenticated for ``topic`` under ``key``."""
    nonce = os.urandom(NONCE)
    return nonce + AESGCM(key).encrypt(nonce, canonical(data), topic.encode())


def unseal(key: bytes, topic: str, payload: bytes) -> Any:
    """The data of a sealed message (``Refused`` when it is not sealed with ``key`` for
    ``topic``, or is not JSON)."""
    if len(payload) < NONCE + 16:
        raise Refused("too short to be a message of this game")
    try:
        plain = AESGCM(key).decrypt(payload[:NONCE], payload[NONCE:], topic.encode())
        return json.loads(plain)
    except (InvalidTag, ValueError) as e:
        raise Refused("not sealed for this game") from e


def _b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).decode("ascii")


def _unb64(text: object) -> bytes:
    if not isinstance(text, str):
        raise Refused("a signature or key is missing")
    try:
        return base64.urlsafe_b64decode(text.encode("ascii"))
    except ValueError as e:
        raise Refused("a signature or key is damaged") from e


class HostKey:
    """The host's signing key (kept in its journal with the game)."""

    def __init__(self, private: Ed25519PrivateKey | None = None) -> None:
        self._private = private or Ed25519PrivateKey.generate()

    @classmethod
    def from_bytes(cls, raw: bytes) -> HostKey:
        return cls(Ed25519PrivateKey.from_private_bytes(raw))

    def private_bytes(self) -> bytes:
        from cryptography.hazmat.primitives.serialization import NoEncryption, PrivateFormat

        return self._private.private_bytes(Encoding.Raw, PrivateFormat.Raw, NoEncryption())

    def public(self) -> str:
        return _b64(self._private.public_key().public_bytes(Encoding.Raw, PublicFormat.Raw))

    def sign(self, entry: dict[str, Any]) -> dict[str, Any]:
        """``entry`` with the host's signature over everything else in it."""
        return {**entry, "sig": _b64(self._private.sign(canonical(entry)))}


def verify(public: str, entry: Any) -> dict[str, Any]:
    """``entry`` without its signature, once the host's key ``public`` signed it."""
    if not isinstance(entry, dict):
        raise Refused("a log entry must be an object")
    body = {k: v for k, v in entry.items() if k != "sig"}
    try:
        Ed25519PublicKey.from_public_bytes(_unb64(public)).verify(_unb64(entry.get("sig")),
                                                                  canonical(body))
    except (InvalidSignature, ValueError) as e:
        raise Refused("not signed by the game's host") from e
    return body


def mac(key: bytes, proposal: dict[str, Any]) -> dict[str, Any]:
    """A seat's proposal with its HMAC (SHA-256) under the seat's proposing key."""
    return {**proposal, "mac": hmac.new(key, canonical(proposal), hashlib.sha256).hexdigest()}


class Proposals:
    """The host's check of proposals: each seat's key and the highest counter taken from it
    (kept with the game, so a restarted host still refuses old ones)."""

    def __init__(self, keys: dict[int, bytes], seen: dict[int, int] | None = None) -> None:
        self._keys = dict(keys)
        self.seen: dict[int, int] = dict(seen or {})

    def check(self, proposal: Any) -> dict[str, Any]:
        """The proposal without its HMAC, once it is from the seat it names and newer than
        any taken from that seat (``Refused`` otherwise; nothing is counted)."""
        if not isinstance(proposal, dict):
            raise Refused("a proposal must be an object")
        seat, counter = proposal.get("seat"), proposal.get("n")
        if not isinstance(seat, int) or seat not in self._keys:
            raise Refused("no remote seat of this game")
        if not isinstance(counter, int) or isinstance(counter, bool):
            raise Refused("a proposal needs its counter")
        body = {k: v for k, v in proposal.items() if k != "mac"}
        expected = hmac.new(self._keys[seat], canonical(body), hashlib.sha256).hexdigest()
        given = proposal.get("mac")
        if not isinstance(given, str) or not hmac.compare_digest(expected, given):
            raise Refused("not from the table of that seat")
        if counter <= self.seen.get(seat, 0):
            raise Refused("an old proposal again (a replay, or a duplicate)")
        return body

    def taken(self, proposal: dict[str, Any]) -> None:
        """The host applied ``proposal``: its counter may not come again."""
        seat, counter = proposal["seat"], proposal["n"]
        self.seen[seat] = max(counter, self.seen.get(seat, 0))
