"""A club evening on one broker, for the club's page and the watch page: tables of a club that
host games, played as people play them (the tests' person at the table), some live and one
finished, and the club's app that looks on at them."""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from sudoku_table.network.club import Club
from sudoku_table.network.config import NetworkConfig
from sudoku_table.network.link import parse_broker
from sudoku_table.network.watching import Following
from sudoku_table.table import Table

from ..table.helpers import Clock, make_table
from ..table.test_computer import QUICK, carry_out, person_action, turn_over
from .test_tables import actions, connected, play, until

CLUB = "Spieleabend Nord 7f3k"


def club_table(folder: Path, name: str, broker: str, club: str = CLUB) -> tuple[Table, Clock]:
    """A table of the club (its journal in ``folder``)."""
    folder.mkdir(parents=True, exist_ok=True)
    table, clock, _ = make_table(folder / "journal.db", computer=QUICK,
                                 network=NetworkConfig(broker=broker, name=name, club=club))
    return table, clock


def moves(table: Table, clock: Clock, rng: random.Random, count: int) -> None:
    """``count`` actions (or to the end) by the people at ``table``, every seat here."""
    for _ in range(count):
        view = table.view()
        if view["game"]["over"]:
            return
        turn_over(table, clock, carry_out(table, clock, person_action(table, rng)))


@dataclass
class Evening:
    """The club's tables and their games: ``games`` by name ("classic" with a seat at a second
    table, "hexa", "vierer" finished), each its host table and clock."""

    games: dict[str, tuple[Table, Clock]] = field(default_factory=dict)
    guest: tuple[Table, Clock] | None = None
    watch: dict[str, str] = field(default_factory=dict)
    """Each game's watch code."""

    def host(self, name: str) -> Table:
        return self.games[name][0]

    def close(self) -> None:
        for table, _clock in self.games.values():
            table.close()
        if self.guest is not None:
            self.guest[0].close()


def club_evening(folder: Path, broker: str) -> Evening:
    """Three tables of the club and a fourth that plays a seat of one of their games: a
    Classic-Sudoku between Anna's table and Ben's (a few moves in), a Hexa-Sudoku of three at
    Clara's table, and a Vierer-Dominari played to its end at David's table."""
    evening = Evening()
    rng = random.Random(7)
    anna = club_table(folder / "anna", "Anna's table", broker)
    view = anna[0].new_game("classic-sudoku", names=["Anna", "Ben"], remote=[1])
    evening.games["classic"] = anna
    evening.watch["classic"] = view["table"]["join"]["watch"]
    ben = club_table(folder / "ben", "Ben's table", broker, club="")
    ben[0].join(view["table"]["join"]["codes"][0]["code"])
    evening.guest = ben
    assert until(lambda: connected(anna[0]) and connected(ben[0]))
    play(anna[0], anna[1], ben[0], ben[1], rng, 6)
    assert until(lambda: actions(ben[0]) == actions(anna[0]))
    clara = club_table(folder / "clara", "Clara's table", broker)
    view = clara[0].new_game("hexa-sudoku", players=3, names=["Clara", "Emil", "Frieda"])
    evening.games["hexa"] = clara
    evening.watch["hexa"] = view["table"]["join"]["watch"]
    moves(*clara, rng, 7)
    david = club_table(folder / "david", "David's table", broker)
    view = david[0].new_game("vierer-dominari", names=["David", "Greta"])
    evening.games["vierer"] = david
    evening.watch["vierer"] = view["table"]["join"]["watch"]
    moves(*david, rng, 200)
    assert david[0].view()["game"]["over"]
    return evening


def club_following(broker: str, club: str | None = CLUB) -> Following:
    return Following(parse_broker(broker), club=Club(club) if club else None)


def followed(following: Following, count: int, moves_of: dict[str, int] | None = None
             ) -> list[dict[str, Any]]:
    """The club's games once ``count`` of them are ready (and each variant of ``moves_of``
    has that many actions)."""
    def ready() -> list[dict[str, Any]] | None:
        games = [g for g in following.club_games() if g["ready"]]
        if len(games) < count:
            return None
        for variant, wanted in (moves_of or {}).items():
            if not any(g["variant"] == variant and len(g["record"]["actions"]) == wanted
                       for g in games):
                return None
        return games
    found = until(ready)
    assert found, following.club_games()
    return found
