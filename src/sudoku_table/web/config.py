"""The panel's part of the table's config file: the ``[panel]`` section."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, fields
from typing import Any

SECTION = "panel"


class ConfigError(ValueError):
    """A bad value in the ``[panel]`` section; the message names the key."""


def choice(key: str, value: Any, choices: tuple[str, ...]) -> str:
    """``value`` when it is one of ``choices``, else a ``ConfigError`` naming ``key``."""
    if value not in choices:
        raise ConfigError(f"{key} must be one of {', '.join(map(repr, choices))}, "
                          f"got {value!r}")
    return str(value)


@dataclass(frozen=True, slots=True)
class PanelConfig:
    """The phone panel."""

    pin: str = ""
    """A PIN (4 to 12 digits) that guards every change made without a piece (docs/api.md);
    empty: no PIN."""
    hosts: tuple[str, ...] = ()
    """Extra host names the panel answers to (besides its addresses)."""
    language: str = "en"
    """The panel's language when a phone states no preference of its own (``de`` or ``en``;
    a phone's ``Accept-Language`` and a language chosen on the panel come first)."""
    power: str = "auto"
    """Shutting down and restarting from the panel (``sudoku_table.power``): ``auto`` on a Raspberry
    Pi running the real table, ``system`` on a Raspberry Pi always, ``off`` never. Off a Pi the
    panel never powers its computer off, whatever this says."""

    @classmethod
    def keys(cls) -> list[str]:
        return [f.name for f in fields(cls)]

    @classmethod
    def from_section(cls, raw: Mapping[str, Any]) -> PanelConfig:
        """The checked ``[panel]`` section (``ConfigError`` names the bad key)."""
        out: dict[str, Any] = {}
        if "pin" in raw:
            pin = raw["pin"]
            if not isinstance(pin, str):
                raise ConfigError(f'panel.pin must be a string of digits in quotes, e.g. "4711", '
                                  f"got {pin!r}")
            if pin and not (pin.isascii() and pin.isdigit() and 4 <= len(pin) <= 12):
                raise ConfigError("panel.pin must be empty or 4 to 12 digits")
            out["pin"] = pin
        if "hosts" in raw:
            hosts = raw["hosts"]
            if not isinstance(hosts, list):
                raise ConfigError(f"panel.hosts must be a list, got {hosts!r}")
            for i, host in enumerate(hosts):
                if not isinstance(host, str) or not host or any(c.isspace() for c in host):
                    raise ConfigError(f"panel.hosts[{i}] must be a host name, got {host!r}")
            out["hosts"] = tuple(hosts)
        if "language" in raw:
            from .i18n import LANGUAGES

            out["language"] = choice("panel.language", raw["language"], LANGUAGES)
        if "power" in raw:
            from sudoku_table.power import SETTINGS

            out["power"] = choice("panel.power", raw["power"], SETTINGS)
        return cls(**out)
