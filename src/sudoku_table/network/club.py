"""A club: tables that share a secret (the config's ``[network] club``) announce the games they
host, so that a club page finds every game of the club on the broker (``watching``).

The club's name on the broker and its sealing key are derived from the secret: anyone else on
the broker sees neither the club nor its games. An announcement is retained and carries the
game's watch code (never a join code): whoever reads it can look on and never act.
"""

from __future__ import annotations

from typing import Any

from .codes import GameKeys, WatchCode, derive
from .endpoints import ROOT
from .link import Link
from .sealing import seal


class Club:
    """A club's secret (the config's ``[network] club``): where its games are announced."""

    def __init__(self, secret: str) -> None:
        raw = secret.encode("utf-8")
        self.id = derive(raw, "club id", 16).hex()
        self.key = derive(raw, "club seal")

    @property
    def topic(self) -> str:
        return f"{ROOT}/club/{self.id}"

    def announce(self, link: Link, keys: GameKeys, info: dict[str, Any]) -> None:
        """A host announces its game (retained): its watch code and what the list shows."""
        topic = f"{self.topic}/{keys.game}"
        link.publish(topic, seal(self.key, topic, {**info, "watch": WatchCode(keys).text()}),
                     retain=True)
