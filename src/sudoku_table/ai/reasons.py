"""Why the engine chose an action: its motives, each a code plus parameters, worded in English.

A ``Motive`` is what a hint shows at the table ("+3: completes rank 4, block b4"; the API and
the records call them ``reasons``). Each code has one English template here, marked with
``N_`` for the panel's catalog (German in the catalog); the parameters fill the template.
Lists (the areas completed) are joined with commas.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from sudoku_table.rules.wording import N_

WORDINGS: Mapping[str, str] = {
    "wins": N_("wins the game"),
    "points": N_("+{points}: completes {areas}"),
    "points_plain": N_("+{points} points"),
    "gives": N_("also gives {player} +{points}"),
    "flips": N_("flips {count}"),
    "four": N_("makes four in a row: {cells}"),
    "blocks_four": N_("blocks {player}'s four in a row ({cells})"),
    "threatens_four": N_("threatens four in a row ({cells})"),
    "blank": N_("a blank on the dead field {cell}"),
    "blank_for": N_("a blank of {player}'s colour on the dead field {cell}"),
    "end_turn": N_("no blank helps now: end the turn"),
    "bears_off": N_("bears a piece off ({count} of 6 home)"),
    "jumps": N_("jumps {count} times"),
    "jumps_once": N_("jumps over one piece"),
    "advances": N_("brings the piece {steps} steps nearer the exit"),
    "advances_one": N_("brings the piece one step nearer the exit"),
    "markers": N_("+{points} markers: {areas}"),
    "overtakes": N_("takes the lead from {player} in {areas}"),
    "blocks_twelve": N_("blocks {player}, who holds {markers} of 12 markers"),
    "set_aside": N_("{number} fits nowhere: set it aside"),
    "joker": N_("{number} fits nowhere: lay it face down as a joker"),
    "leads": N_("takes the lead in {areas}"),
    "extends_lead": N_("adds to your lead in {areas}"),
    "builds_four": N_("counts toward {count} groups of four still open to you"),
    "frees": N_("lets {count} more of your pieces move"),
    "hinders": N_("leaves {player} {count} fewer pieces that can move"),
    "crosses": N_("gets your {number} past {player}'s {number}: the two can no longer block "
                  "each other"),
    "safe": N_("leaves {player} no line or triangle to complete"),
    "least_given": N_("leaves {player} at most {points} points for their next stone "
                      "(no square leaves fewer)"),
    "prepares": N_("your next stone can complete {areas}"),
    "only_place": N_("the only square where the {number} fits"),
    "chance": N_("the search gives this move {percent}% to win"),
}
"""Every reason code with its English template."""

SEAT = N_("player {number}")
"""How a reason names a seat without a colour (KOSMOS, SUDOKU FAMILY)."""


@dataclass(frozen=True, slots=True)
class Motive:
    """One motive for an action: a code of ``WORDINGS`` and the values its template names."""

    code: str
    params: Mapping[str, Any] = field(default_factory=dict)

    @property
    def template(self) -> str:
        return WORDINGS[self.code]

    def text(self, translate: Callable[[str], str] = lambda s: s,
             seats: Sequence[str] = ()) -> str:
        """The reason in words. ``translate`` turns English into the reader's language;
        ``seats`` names the players by colour (``Game.player_labels``), else they are
        numbered from 1. A ``player`` parameter is a seat index counted from 0."""
        values: dict[str, Any] = {}
        for key, value in self.params.items():
            if isinstance(value, list | tuple):
                values[key] = ", ".join(str(v) for v in value)
            elif key == "player" and isinstance(value, int):
                values[key] = (translate(seats[value]) if value < len(seats)
                               else translate(SEAT).format(number=value + 1))
            else:
                values[key] = value
        return translate(self.template).format(**values)

    def to_json(self, seats: Sequence[str] = ()) -> dict[str, Any]:
        """The reason for the API: code, parameters and the English text."""
        return {"code": self.code, "params": {k: list(v) if isinstance(v, tuple) else v
                                              for k, v in self.params.items()},
                "text": self.text(seats=seats)}
