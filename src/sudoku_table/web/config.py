"""The panel's part of the table's config file: the ``[panel]`` section."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field, Strict

from sudoku_table.power import SETTINGS
from sudoku_table.sections import Says, Section

from .i18n import LANGUAGES

SECTION = "panel"

HostName = Annotated[str, Strict(), Field(min_length=1, pattern=r"^\S+$"),
                     Says("must be a host name", always=True)]


class PanelConfig(Section):
    """The phone panel."""

    pin: Annotated[str, Strict(), Field(pattern=r"^([0-9]{4,12})?$"),
                   Says("must be empty or 4 to 12 digits",
                        wrong_type='must be a string of digits in quotes, e.g. "4711"')] = ""
    """A PIN (4 to 12 digits) that guards every change made without a piece (docs/api.md);
    empty: no PIN."""
    hosts: tuple[HostName, ...] = ()
    """Extra host names the panel answers to (besides its addresses)."""
    language: Literal[LANGUAGES] = "en"  # type: ignore[valid-type]
    """The panel's language when a phone states no preference of its own (``de`` or ``en``;
    a phone's ``Accept-Language`` and a language chosen on the panel come first)."""
    power: Literal[SETTINGS] = "auto"  # type: ignore[valid-type]
    """Shutting down and restarting from the panel (``sudoku_table.power``): ``auto`` on a
    Raspberry Pi running the real table, ``system`` on a Raspberry Pi always, ``off`` never.
    Off a Pi the panel never powers its computer off, whatever this says."""
