"""The model player plays every game at the table, from a clean start to its end, at every
player count, with the mistakes people make (``tests/table/model_player.py`` says what it sees,
does and checks).

A Hypothesis state machine: one rule per act a person can make (follow the what-now bar, put
a piece on the wrong square, tap the wrong number, forget to turn pieces over, knock a piece,
lift the wrong one, Undo, Redo, five quick Undos on another phone, two phones tapping at once,
a page reload, a power cut), the model's checks as invariants after every step, and a failure
shrinks to the shortest sequence of acts that shows it. When each mistake happens is drawn
at the start (``moments``: the game actions after which it is made), so mistakes fall at random
moments and the game still reaches its end. Where the table deals (``Seat.deal``), a wrong
number is a wrong card taken instead (``ModelPlayer.wrong_card``). The seeded set (every game,
every player count, mistakes included, and every game that hides hands with the table dealing)
runs in the suite; more seeds run with ``-m sweep``, and
``bench/bench_model_player.py`` plays hundreds of games per game and counts.
"""

from __future__ import annotations

import dataclasses
import hashlib
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, ClassVar

import pytest
from hypothesis import HealthCheck, Phase, settings
from hypothesis import strategies as st
from hypothesis.stateful import (
    RuleBasedStateMachine,
    initialize,
    invariant,
    precondition,
    rule,
    run_state_machine_as_test,
)

from sudoku_table.rules.dominari.halma import HalmaDominari
from sudoku_table.rules.game import Game, all_variants, variant_class
from sudoku_table.table import announce, present

from .model_player import Contradiction, ModelPlayer, games

pytestmark = pytest.mark.integration

RATES = {"wrong_square": 8, "wrong_number": 8, "forget_flip": 30, "knock": 4,
         "lift_wrong": 6, "undo": 5, "redo": 40, "quick_undos": 2, "two_phones": 5,
         "reload": 2, "power_cut": 2}
"""Everything a person does besides following the bar, with how often (in percent of the
game's moments, a moment being the time between two game actions) it is due."""

PICKS = st.integers(min_value=0, max_value=255)


@dataclass(frozen=True)
class Seat:
    """One table: a game, its player count and the computer's seats."""

    variant: str
    players: int
    computers: dict[int, str] = field(default_factory=dict)
    scan: bool = False
    deal: bool = False
    """The table deals (the family plays with a phone each, in a game that hides hands)."""

    def __str__(self) -> str:
        extra = "".join(f"-computer{s}" for s in self.computers) + ("-scan" if self.scan else "")
        extra += "-deal" if self.deal else ""
        return f"{self.variant}-{self.players}{extra}"

    def steps(self) -> int:
        """Enough steps for a whole game with its mistakes (Hypothesis runs them all; the
        game must have ended by then)."""
        cells = len(variant_class(self.variant)(self.players).geometry.cells)
        return 5 * cells + 200


def mix(*parts: object) -> int:
    """A number from ``parts``, the same every run (the test's salt mixed with a moment)."""
    digest = hashlib.blake2b(repr(parts).encode(), digest_size=4).digest()
    return int.from_bytes(digest, "big")


class TableFamily(RuleBasedStateMachine):
    """A family at the table (one machine class per ``Seat`` and salt: ``machine_for``).

    Hypothesis's first example of a run is its simplest (every drawn number 0): each choice is
    therefore the drawn number mixed with the test's ``salt`` and the moment, so that one
    example per seed is already a game of its own, with its mistakes at their moments."""

    seat: ClassVar[Seat]
    salt: ClassVar[int] = 0
    done: ClassVar[Callable[[ModelPlayer], None] | None] = None

    def __init__(self) -> None:
        super().__init__()
        self.player: ModelPlayer | None = None
        self.made: set[tuple[str, int]] = set()
        self._drawn: dict[int, set[str]] = {}  # the mistakes due at each moment
        self.steps_run = 0

    @initialize(leftovers=st.integers(0, 3))
    def sit_down(self, leftovers: int) -> None:
        """The family sits down at a table that may hold pieces of an earlier game."""
        squares = ["a1", "e5", "i9", "c7"]
        left = mix(self.salt, "leftovers", leftovers) % 3
        self.player = ModelPlayer(self.seat.variant, self.seat.players,
                                  computers=self.seat.computers, scan=self.seat.scan,
                                  leftovers=tuple(squares[:left]), deal=self.seat.deal,
                                  deal_seed=mix(self.salt, "deal"))

    def _pick(self, pick: int) -> int:
        return mix(self.salt, self.p.tally.actions, self.steps_run, pick) % 4096

    def teardown(self) -> None:
        if self.player is None:
            return
        try:
            if type(self).done is not None:
                type(self).done(self.player)  # type: ignore[misc]
            if self.steps_run >= self.seat.steps():  # a whole run: the game must be over
                assert self.player.settled, (
                    f"the game did not end in {self.steps_run} steps: "
                    f"{self.player.log[-12:]}")
        finally:
            self.player.close()

    # --- when a mistake may be made ----------------------------------------------------------

    def _due(self, kind: str) -> bool:
        p = self.player
        if p is None or p.settled:
            return False
        moment = p.tally.actions + p.tally.undos + p.tally.power_cuts
        if moment not in self._drawn:
            self._drawn[moment] = {k for k in RATES if mix(self.salt, k, moment) % 100 < RATES[k]}
        return kind in self._drawn[moment] and (kind, moment) not in self.made

    def _made(self, kind: str, happened: bool) -> None:
        p = self.p
        self.made.add((kind, p.tally.actions + p.tally.undos + p.tally.power_cuts
                       - (1 if happened and kind == "undo" else 0)))

    @property
    def p(self) -> ModelPlayer:
        assert self.player is not None
        return self.player

    # --- the acts -------------------------------------------------------------------------------

    def _following(self) -> bool:
        """The family follows the bar unless a mistake is due now."""
        return (self.player is not None and not self.player.settled
                and not any(self._due(kind) for kind in RATES))

    @precondition(_following)
    @rule(pick=PICKS)
    def follow_the_bar(self, pick: int) -> None:
        """Do what the what-now bar says, as the player it names."""
        self.p.follow(self._pick(pick))

    @precondition(lambda self: self.player is not None and self.player.settled)
    @rule()
    def look_at_the_end(self) -> None:
        """The game is over and the board shows it: the family looks at the scores."""
        self.p.check_end(self.p.view)

    @precondition(lambda self: self._due("wrong_square"))
    @rule(pick=PICKS)
    def put_a_piece_on_the_wrong_square(self, pick: int) -> None:
        self._made("wrong_square", self.p.wrong_square(self._pick(pick)))

    @precondition(lambda self: self._due("wrong_number"))
    @rule(pick=PICKS)
    def tap_the_wrong_number(self, pick: int) -> None:
        self._made("wrong_number", self.p.wrong_number(self._pick(pick)))

    @precondition(lambda self: self._due("forget_flip"))
    @rule(pick=PICKS)
    def forget_to_turn_pieces_over(self, pick: int) -> None:
        self._made("forget_flip", self.p.forget_flip(self._pick(pick)))

    @precondition(lambda self: self._due("knock"))
    @rule(pick=PICKS)
    def knock_a_piece(self, pick: int) -> None:
        self._made("knock", self.p.knock(self._pick(pick)))

    @precondition(lambda self: self._due("lift_wrong"))
    @rule(pick=PICKS)
    def lift_the_wrong_piece(self, pick: int) -> None:
        self._made("lift_wrong", self.p.lift_wrong(self._pick(pick)))

    @precondition(lambda self: self._due("undo"))
    @rule(confirm=st.booleans())
    def tap_undo(self, confirm: bool) -> None:
        self._made("undo", self.p.undo(confirm))

    @precondition(lambda self: self._due("redo"))
    @rule()
    def tap_redo(self) -> None:
        self._made("redo", self.p.redo())

    @precondition(lambda self: self._due("quick_undos"))
    @rule()
    def tap_undo_five_times_on_another_phone(self) -> None:
        self._made("quick_undos", self.p.quick_undos(5))

    @precondition(lambda self: self._due("two_phones"))
    @rule(pick=PICKS)
    def two_phones_tap_at_once(self, pick: int) -> None:
        self._made("two_phones", self.p.two_phones(self._pick(pick)))

    @precondition(lambda self: self._due("reload"))
    @rule()
    def reload_the_page(self) -> None:
        self._made("reload", self.p.reload())

    @precondition(lambda self: self._due("power_cut"))
    @rule()
    def cut_the_power(self) -> None:
        self._made("power_cut", self.p.power_cut())

    # --- after every step ----------------------------------------------------------------------

    @invariant()
    def the_table_can_be_followed(self) -> None:
        """One next step with the right actor, a truthful drawing, fitting controls, progress,
        and at the end the game's board."""
        if self.player is not None:
            self.steps_run += 1
            self.player.check()


def machine_for(seat: Seat, salt: int = 0,
                done: Callable[[ModelPlayer], None] | None = None) -> type[TableFamily]:
    """A machine class for one table (Hypothesis runs a class; seat and salt are part of it)."""
    name = "TableFamily_" + str(seat).replace("-", "_")
    return type(name, (TableFamily,), {"seat": seat, "salt": salt,
                                       "done": staticmethod(done) if done else None})


def play(seat: Seat, seed: int, *, shrink: bool = True, examples: int = 1,
         done: Callable[[ModelPlayer], None] | None = None) -> None:
    """Play ``examples`` games at ``seat`` from ``seed``; a failure raises (shrunk to the
    fewest acts when ``shrink``), and so does a run Hypothesis ended before the game did."""
    ended: list[bool] = []

    def finished(player: ModelPlayer) -> None:
        ended.append(player.settled)
        if done is not None:
            done(player)

    machine = machine_for(seat, seed, finished)
    machine._hypothesis_internal_use_seed = seed  # type: ignore[attr-defined]  # as @seed does
    phases = [Phase.generate, Phase.shrink] if shrink else [Phase.generate]
    run_state_machine_as_test(machine, settings=settings(
        max_examples=examples, stateful_step_count=seat.steps(), deadline=None,
        database=None, phases=phases, print_blob=True,
        suppress_health_check=list(HealthCheck)))
    assert len(ended) == examples and all(ended), f"{seat}: games ended {ended}"


SEATS = [Seat(variant, players) for variant, players in games()]
COMPUTER_SEATS = [Seat(variant, 2, {1: "easy"}) for variant, players in games()
                  if players == 2]


@pytest.mark.parametrize("seat", SEATS, ids=str)
def test_every_game_is_played_to_its_end_with_mistakes(seat: Seat) -> None:
    play(seat, seed=23)


@pytest.mark.parametrize("seat", [s for s in COMPUTER_SEATS
                                  if s.variant in ("revers-dominari", "halma-dominari",
                                                   "classic-sudoku", "sudoku-family")], ids=str)
def test_a_computer_seat_is_played_through_by_its_people(seat: Seat) -> None:
    play(seat, seed=5)


@pytest.mark.parametrize("variant", ["revers-dominari", "halma-dominari", "sudoku-family"])
def test_the_real_scan_path_carries_a_whole_game(variant: str) -> None:
    play(Seat(variant, 2, scan=True), seed=11)


DEALT = [Seat(variant, players, deal=True) for variant, players in games()
         if variant_class(variant).hidden_hands]
"""Every game that hides hands at every player count, with the table dealing."""


@pytest.mark.parametrize("seat", DEALT, ids=str)
def test_every_game_that_hides_hands_is_played_with_the_table_dealing(seat: Seat) -> None:
    play(seat, seed=29)


@pytest.mark.parametrize("seat", [Seat("classic-sudoku", 3, {2: "easy"}, deal=True),
                                  Seat("sudoku-family", 2, {1: "easy"}, deal=True),
                                  Seat("duell-der-meister", 2, scan=True, deal=True)], ids=str)
def test_the_deal_with_a_computer_seat_and_on_the_real_scan_path(seat: Seat) -> None:
    play(seat, seed=31)


FOUND = [
    (Seat("sudoku-family", 2), 7),  # a joker laid where no number fits was sent away
    (Seat("revers-dominari", 2), 2),  # the blank that ended the game could not be told
    (Seat("revers-dominari", 2), 24),  # an arrow sent a new piece onto a knocked one's square
    (Seat("revers-dominari", 2, {1: "easy"}), 23),  # after a power cut, faces not named
    (Seat("sudoku-family", 2, {1: "easy"}), 23),  # an arrow sent a 3 taken back onto a 1
]
"""The tables and seeds at which the model player found the table's bugs (each fixed, each also
pinned by a test of ``tests/table/test_leading.py``)."""


@pytest.mark.parametrize(("seat", "seed"), FOUND, ids=[f"{s}-{n}" for s, n in FOUND])
def test_the_seeds_that_found_bugs(seat: Seat, seed: int) -> None:
    play(seat, seed=seed)


DRIVEN = [
    (Seat("halma-dominari", 2), 133),  # refused Undo taps made the players forget their move
    (Seat("halma-dominari", 2), 169),  # a second Undo drew a1 as the borne-off 4 (the 2 stood)
    (Seat("revers-dominari", 2), 27),  # a restart after a take-back named no face to check
    (Seat("revers-dominari", 2), 126),  # a restart sent a stray 6 onto b2 (the 2's square)
    (Seat("revers-dominari", 2, {1: "easy"}), 76),  # the same with the computer in a seat
    (Seat("revers-dominari", 2, {1: "easy"}, scan=True), 60),  # and on the real scan path
]
"""The games of ``bench/bench_model_player.py`` (played by ``drive``) that found a bug."""


@pytest.mark.parametrize(("seat", "seed"), DRIVEN, ids=[f"{s}-{n}" for s, n in DRIVEN])
def test_the_bench_games_that_found_bugs(seat: Seat, seed: int) -> None:
    drive(seat, seed)


def _speak_take_away_of_a_number_asked(monkeypatch: pytest.MonkeyPatch) -> None:
    """The words say "take it away" of the piece whose number the light asks."""
    moment = announce.moment

    def contradicted(c: Any, look: present.Look) -> announce.Moment:
        now = moment(c, look)
        if look.next["code"] == "say_number":
            square = look.next["params"]["square"]
            return dataclasses.replace(now, illegal=now.illegal | {square})
        return now

    monkeypatch.setattr(announce, "moment", contradicted)


CONTRADICTIONS: dict[str, tuple[Callable[[pytest.MonkeyPatch], None], Seat]] = {
    "a piece to take away lit as asking its number": (
        lambda m: m.setitem(present.SQUARE_WORDS, "take_away", "number"),
        Seat("revers-dominari", 2)),
    "a piece whose number is asked lit as one to take away": (
        lambda m: m.setitem(present.SQUARE_WORDS, "say_number", "illegal"),
        Seat("classic-sudoku", 2)),
    "a word lit that the legend does not explain": (
        lambda m: m.setattr(HalmaDominari, "dead_fields", Game.dead_fields),
        Seat("halma-dominari", 2)),
    "the words send away a piece whose number the light asks": (
        _speak_take_away_of_a_number_asked, Seat("classic-sudoku", 2)),
}
"""One square's light, or one spoken sentence, set against the rest: the model player's
agreement check must catch each (the seeds are games where the moment comes)."""


@pytest.mark.parametrize("name", CONTRADICTIONS)
def test_the_agreement_check_catches_one_square_set_against_the_words(
        name: str, monkeypatch: pytest.MonkeyPatch) -> None:
    contradict, seat = CONTRADICTIONS[name]
    contradict(monkeypatch)
    with pytest.raises(Contradiction):
        drive(seat, 23)


@pytest.mark.sweep
@pytest.mark.parametrize("seat", SEATS + COMPUTER_SEATS + DEALT, ids=str)
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_more_seeds(seat: Seat, seed: int) -> None:
    play(seat, seed=seed)


def seat_for(variant: str, index: int, deal: bool = False) -> Seat:
    """The ``index``-th table of a game in a long run (the bench's and the sweep's): player
    counts in turn, a computer now and then, the real scan path now and then; ``deal``: the
    table deals."""
    cls = variant_class(variant)
    counts = list(range(cls.min_players, cls.max_players + 1))
    players = counts[index % len(counts)]
    computers = {players - 1: "easy"} if index % 4 == 3 else {}
    return Seat(variant, players, computers, scan=index % 20 == 19, deal=deal)


AGREEMENT_BLOCKS, AGREEMENT_BLOCK = 12, 7
"""The sweep of words and lights: 12 blocks of 7 games for each of the twelve games (1,008)."""


@pytest.mark.sweep
@pytest.mark.parametrize("block", range(AGREEMENT_BLOCKS))
@pytest.mark.parametrize("variant", [cls.id for cls in all_variants()])
def test_words_and_lights_agree_over_a_thousand_games(variant: str, block: int) -> None:
    # The model player checks after every step that lights, bar, spoken words and legend
    # agree (``ModelPlayer.check_agreement``); ``bench/bench_model_player.py --games 84``
    # plays the same games with figures.
    for index in range(block * AGREEMENT_BLOCK, (block + 1) * AGREEMENT_BLOCK):
        drive(seat_for(variant, index), index + 1)


ACTS = {"wrong_square": "wrong_square", "wrong_number": "wrong_number",
        "forget_flip": "forget_flip", "knock": "knock", "lift_wrong": "lift_wrong",
        "two_phones": "two_phones"}


def drive(seat: Seat, seed: int, done: Callable[[ModelPlayer], None] | None = None) -> None:
    """The same family as ``TableFamily`` with the same mistakes at the same moments, without
    Hypothesis (its rule choice costs more than the table's own work): what the bench plays
    by the hundred. A failure raises; it replays as ``play(seat, seed)`` for shrinking."""
    machine = machine_for(seat, seed)()
    machine.sit_down(leftovers=0)
    try:
        for _ in range(seat.steps()):
            machine.the_table_can_be_followed()
            p = machine.p
            if p.settled:
                break
            due = sorted(kind for kind in RATES if machine._due(kind))
            if not due:
                machine.follow_the_bar(0)
                continue
            kind = due[0]
            if kind in ACTS:
                machine._made(kind, getattr(p, kind)(machine._pick(0)))
            elif kind == "undo":
                machine._made(kind, p.undo(mix(seed, p.tally.actions) % 2 == 0))
            elif kind == "quick_undos":
                machine._made(kind, p.quick_undos(5))
            else:
                machine._made(kind, getattr(p, kind)())
        machine.the_table_can_be_followed()
        if done is not None:
            done(machine.p)
        assert machine.p.settled, f"the game did not end in {seat.steps()} steps"
    finally:
        if machine.player is not None:
            machine.player.close()


def summary(player: ModelPlayer) -> dict[str, Any]:
    """One game's figures, for the bench."""
    t = player.tally
    return {"actions": t.actions, "acts": t.acts, "taps": t.taps, "mistakes": t.mistakes,
            "undos": t.undos, "redos": t.redos, "power_cuts": t.power_cuts,
            "over": player.settled}
