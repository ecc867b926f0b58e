"""What a player reads about puzzles, as data: the techniques' and difficulties' names, and
every hint as a code with parameters (``Said``), never a finished sentence.

The table words a ``Said`` at its edge, in the player's language, from its catalogs, like
every other message (``table.view.MESSAGES``): ``TEXTS`` holds the English template of each
code. Parameters that name squares or houses are lists (``["block d4"]``), so that the panel's
catalog words each house ("Block d4") as it does everywhere. ``GERMAN`` holds the German for
every name and template here, for the catalog (``web/translations/de``), which takes them when
the panel starts offering puzzles; until then nothing is marked for extraction, so the catalog
and the code stay in step.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from ..errors import worded
from .techniques import TECHNIQUES


@dataclass(frozen=True, slots=True)
class Difficulty:
    """A difficulty: its number, its English name and what defines it (the techniques of which
    at least one is needed, and nothing harder)."""

    number: int
    name: str
    techniques: tuple[str, ...]


DIFFICULTIES: tuple[Difficulty, ...] = tuple(
    Difficulty(number, name, tuple(t.id for t in TECHNIQUES if t.difficulty == number))
    for number, name in ((1, "Beginner"), (2, "Easy"), (3, "Medium"), (4, "Hard"),
                         (5, "Expert")))
"""The five difficulties, each defined by its hardest technique (docs/puzzles.md)."""

TECHNIQUE_NAMES: Mapping[str, str] = {t.id: t.name for t in TECHNIQUES}
"""Each technique's English name by id."""


@dataclass(frozen=True, slots=True)
class Said:
    """A message as data: a code of ``TEXTS`` and its parameters."""

    code: str
    params: Mapping[str, Any] = field(default_factory=dict)

    def english(self) -> str:
        """The English sentence (for the command line and tests)."""
        return worded(TEXTS[self.code], self.params)

    def to_json(self) -> dict[str, Any]:
        """Shaped like the table's messages: ``{"code": ..., "params": {...}}``."""
        return {"code": self.code, "params": dict(self.params)}


_NAKED_SUBSET = "{cells} in {houses} can only take {numbers}: so {targets} cannot take them"
_HIDDEN_SUBSET = "in {house} {numbers} can only go on {cells}: so no other number fits there"
_FISH = ("in {bases} the {number} can only go on {cells}, within {covers}: so it cannot go "
         "on {targets}")

TEXTS: Mapping[str, str] = {
    "full_house": "{cell} is the last empty cell in {house}: the {number} goes there",
    "hidden_single": "in {house} the {number} can only go on {cell}",
    "naked_single": "only the {number} fits on {cell}: every other number is already in {houses}",
    "naked_single_left": "after the steps before, only the {number} is left for {cell}",
    "pointing": ("in {box} the {number} can only go on {cells}, all in {line}: so it cannot go "
                 "on {targets}"),
    "claiming": ("in {line} the {number} can only go on {cells}, all in {box}: so it cannot go "
                 "on {targets}"),
    "naked_pair": _NAKED_SUBSET,
    "naked_triple": _NAKED_SUBSET,
    "hidden_pair": _HIDDEN_SUBSET,
    "hidden_triple": _HIDDEN_SUBSET,
    "x_wing": _FISH,
    "swordfish": _FISH,
    "xy_wing": ("{pivot} takes {x} or {y}, {first} takes {x} or {z}, {second} takes {y} or {z}: "
                "{first} or {second} takes the {z}, so it cannot go on {targets}"),
    "solved": "the puzzle is solved",
    "mistakes": "wrong number on {cells}",
    "clash": "the {number} stands more than once in {house}: {cells}",
    "contradiction": "the numbers on the board cannot all be right",
    "no_step": "no step the table knows leads on from here",
    "reveal": "no step the table knows leads on from here: {cell} takes the {number}",
}
"""The English template of every code."""

GERMAN: Mapping[str, str] = {
    # techniques
    "Full house": "Letztes freies Feld",
    "Hidden single": "Versteckter Einer",
    "Naked single": "Nackter Einer",
    "Locked candidates (pointing)": "Gesperrte Kandidaten (Block)",
    "Locked candidates (claiming)": "Gesperrte Kandidaten (Linie)",
    "Naked pair": "Nacktes Paar",
    "Hidden pair": "Verstecktes Paar",
    "Naked triple": "Nackter Dreier",
    "Hidden triple": "Versteckter Dreier",
    "X-Wing": "X-Wing",
    "Swordfish": "Schwertfisch",
    "XY-Wing": "XY-Wing",
    # difficulties
    "Beginner": "Einsteiger",
    "Easy": "Leicht",
    "Medium": "Mittel",
    "Hard": "Schwer",
    "Expert": "Experte",
    # hints
    TEXTS["full_house"]: "{cell} ist das letzte freie Feld in {house}: dorthin kommt die {number}",
    TEXTS["hidden_single"]: "in {house} passt die {number} nur auf {cell}",
    TEXTS["naked_single"]: ("auf {cell} passt nur die {number}: jede andere Zahl steht schon in "
                            "{houses}"),
    TEXTS["naked_single_left"]: "nach den Schritten davor bleibt für {cell} nur die {number}",
    TEXTS["pointing"]: ("in {box} passt die {number} nur auf {cells}, alle in {line}: also "
                        "nicht auf {targets}"),
    TEXTS["claiming"]: ("in {line} passt die {number} nur auf {cells}, alle in {box}: also "
                        "nicht auf {targets}"),
    _NAKED_SUBSET: ("{cells} in {houses} können nur {numbers} aufnehmen: also passen diese "
                    "nicht auf {targets}"),
    _HIDDEN_SUBSET: ("in {house} passen {numbers} nur auf {cells}: also passt dort keine andere "
                     "Zahl"),
    _FISH: ("in {bases} passt die {number} nur auf {cells}, innerhalb von {covers}: also nicht "
            "auf {targets}"),
    TEXTS["xy_wing"]: ("auf {pivot} kommt {x} oder {y}, auf {first} {x} oder {z}, auf {second} "
                       "{y} oder {z}: {first} oder {second} bekommt die {z}, also passt sie "
                       "nicht auf {targets}"),
    TEXTS["solved"]: "das Rätsel ist gelöst",
    TEXTS["mistakes"]: "falsche Zahl auf {cells}",
    TEXTS["clash"]: "die {number} steht mehrmals in {house}: {cells}",
    TEXTS["contradiction"]: "die Zahlen auf dem Brett können nicht alle stimmen",
    TEXTS["no_step"]: "von hier führt kein Schritt weiter, den der Tisch kennt",
    TEXTS["reveal"]: ("von hier führt kein Schritt weiter, den der Tisch kennt: auf {cell} kommt "
                      "die {number}"),
}
"""The German of every English name and template above, for the panel's catalog."""
