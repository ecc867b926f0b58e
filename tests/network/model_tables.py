"""The model player at two and three tables: a family at each table, one game between them.

Each table is a real ``Table`` with its own journal, joined through a real Mosquitto; seat 0
plays at the host's table, seat k at the k-th guest's. At every step the model picks one
table and one act a person there can make (``ACTS``): play their own seat's turn (a piece
put down with its number, a blank, a move, a bear-off, an end of turn early), carry out the
move another table made as the lights say, take their own last action back on the board
(lift it and leave the board so), put a stray piece down and lift it again, lift a piece and
put it back, Undo and Redo on the panel, follow the bar to put the board right; or a fault:
the host's entries reach one table late for a few steps (a slow link), a guest's table
switched off and on again on its journal.

After every step, once nothing is on its way (no proposal unanswered, every log as long as
the host's), it compares:

- every table's copy of the log with the host's, by the hash of the state after it;
- every table's own game with its copy of the log: the same actions, or fewer where the rest
  are other tables' moves still to carry out, hash for hash.

A table whose game differs and does not say so (``table.network.diverged``) is an
``Unseen`` divergence; one that says so is followed back (``POST /api/follow-host``'s
``Table.follow_host``) and counted. A game where no table can make progress for
``STUCK_AFTER`` steps is ``Stuck``. ``tests/network/test_model_tables.py`` plays seeded
games; ``bench/bench_model_tables.py`` plays many and counts.
"""

from __future__ import annotations

import random
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from sudoku_table.firmware.ports import SensorEvent
from sudoku_table.network.config import NetworkConfig
from sudoku_table.network.log import state_hash
from sudoku_table.rules.actions import Action, action_from_json
from sudoku_table.rules.game import new_game
from sudoku_table.table import InputError, Table
from sudoku_table.table.errors import ConfirmNeeded

from ..table.helpers import Clock, make_table
from ..table.test_computer import QUICK, carry_out, person_action
from ..waiting import GUARD, until

STUCK_AFTER = 60
"""Steps without a new action in the game (nor a divergence told) before the game counts as
stuck: every act the model picks most often makes progress."""

QUIET = GUARD
"""Seconds the model waits for the tables to have nothing on their way after a step (a guard
against a hang, as long as the suite's: on loopback it takes milliseconds)."""


class Unseen(AssertionError):
    """A table's game is not the host's, and the table does not say so."""


class Stuck(AssertionError):
    """No table can make progress, and none says why."""


@dataclass
class Place:
    """One table of the game: the ``Table``, its clock, its folder, its name, its seats."""

    table: Table
    clock: Clock
    folder: Path
    name: str
    seats: frozenset[int]
    held: list[tuple[str, bytes]] | None = None
    """The host's entries held back from this table (a slow link), or None."""
    late_for: int = 0
    """Steps until the entries held back arrive."""


@dataclass
class Outcome:
    """What one game showed: steps, actions, divergences told and followed back, the acts."""

    variant: str
    tables: int
    steps: int = 0
    actions: int = 0
    told: int = 0
    over: bool = False
    acts: list[str] = field(default_factory=list)


def _a_table(folder: Path, name: str, broker: str) -> tuple[Table, Clock]:
    table, clock, _ = make_table(folder / "journal.db", computer=QUICK,
                                 network=NetworkConfig(broker=broker, name=name))
    return table, clock


def _put(place: Place, square: str, occupied: bool) -> None:
    place.clock.now += 0.1
    place.table.handle_sensor(SensorEvent(square, occupied, place.clock.now))


def _settle(place: Place) -> None:
    """The board left as it stands for the settle time (a take-back on it counts)."""
    place.clock.now += 1.5
    place.table.tick()


class Game:
    """One game at ``tables`` tables (2 or 3) through the broker at ``broker``."""

    def __init__(self, folder: Path, broker: str, variant: str, tables: int, seed: int,
                 faults: bool = True) -> None:
        self.rng = random.Random(seed)
        self.variant, self.faults = variant, faults
        self.outcome = Outcome(variant, tables)
        host, clock = _a_table(folder / "t0", "Table 0", broker)
        view = host.new_game(variant, players=max(tables, 2), remote=list(range(1, tables)))
        self.broker = broker
        codes = {c["seat"]: c["code"] for c in view["table"]["join"]["codes"]}
        self.places = [Place(host, clock, folder / "t0", "Table 0", frozenset({0}))]
        for seat in range(1, tables):
            name = f"Table {seat}"
            guest, gclock = _a_table(folder / f"t{seat}", name, broker)
            guest.join(codes[seat])
            self.places.append(Place(guest, gclock, folder / f"t{seat}", name,
                                     frozenset({seat})))
        assert until(self._all_connected), "the tables did not meet on the broker"
        if host.view()["table"].get("setting_up"):
            for square in new_game(variant).default_setup():
                for place in self.places:
                    _put(place, square, True)

    def close(self) -> None:
        for place in self.places:
            self._release(place)
            place.table.close()

    # --- looking -------------------------------------------------------------------------

    def _all_connected(self) -> bool:
        for place in self.places:
            seats = place.table.view()["table"].get("seats") or []
            if not seats or not all(s["connected"] for s in seats):
                return False
        return True

    @property
    def host(self) -> Place:
        return self.places[0]

    def log_of(self, place: Place) -> list[Action]:
        shared = place.table.remote.shared
        assert shared is not None, f"{place.name} does not share the game any more"
        return shared.actions()

    def quiet(self) -> bool:
        """Nothing on its way: no proposal unanswered, every copy of the log the host's
        (a table whose entries are held back is left out until they arrive)."""
        line = self.log_of(self.host)
        for place in self.places:
            shared = place.table.remote.shared
            if place.held is not None:
                continue
            if shared is None or shared.awaiting or not shared.caught_up:
                return False
            if shared.actions() != line and shared.diverged is None:
                return False
        return True

    # --- the invariants -------------------------------------------------------------------

    def check(self) -> None:
        """After a step: every copy of the log is the host's, hash for hash, and every
        table's own game is its log's (or the table says it is not)."""
        if not until(self.quiet, QUIET):
            raise Stuck("a proposal stays unanswered, or a copy of the log short: "
                        + "; ".join(f"{p.name}: {_sides(p)}" for p in self.places))
        for place in self.places:
            if place.held is not None:
                continue  # its entries are on their way: compared once they arrive
            def settled(place: Place = place) -> bool:
                told = place.table.view()["table"]["network"]["diverged"]
                return told is not None or (_log_hash(place) == _log_hash(self.host)
                                            and not _apart(place))
            until(settled, QUIET)  # the table follows its log on its own thread
            view = place.table.view()
            told = view["table"]["network"]["diverged"]
            if _log_hash(place) != _log_hash(self.host) and told is None:
                raise Unseen(f"{place.name}'s log is not the host's and it says nothing")
            if _apart(place) and told is None:
                raise Unseen(f"{place.name}'s game is not its log's and it says nothing: "
                             + _sides(place))
            if told is not None and view["table"]["network"].get("follow"):
                self.outcome.told += 1
                place.table.follow_host()
                self.outcome.acts.append(f"{place.name}: told '{told}', followed the host")

    # --- acting ---------------------------------------------------------------------------

    def step(self) -> None:
        """One act at one table, or a fault, then the checks."""
        weights = [w for _name, w, _act in ACTS]
        name, _w, act = self.rng.choices(ACTS, weights)[0]
        busy = [p for p in self.places if _busy(p)]
        place = self.rng.choice(busy if busy and self.rng.random() < 0.85 else self.places)
        if name.startswith("fault") and not self.faults:
            name, act = "play", ACTS[0][2]
        try:
            said = act(self, place)
        except (InputError, ConfirmNeeded) as e:
            said = f"refused: {e}"
        self.outcome.acts.append(f"{place.name}: {name} {said or ''}".rstrip())
        self.outcome.steps += 1
        for each in self.places:  # the slow link's entries arrive after a few steps
            if each.held is not None:
                each.late_for -= 1
                if each.late_for <= 0:
                    self._release(each)
                    self.outcome.acts.append(f"{each.name}: late entries delivered")
        self.check()

    def play(self, steps: int) -> Outcome:
        """Up to ``steps`` steps, or to the end of the game; ``Stuck`` when no action counts
        for ``STUCK_AFTER`` steps."""
        last, since = 0, 0
        for _ in range(steps):
            self.step()
            count = len(self.log_of(self.host))
            view = self.host.table.view()
            if view["game"] and view["game"]["over"] and all(
                    p.held is None for p in self.places):
                self.outcome.over = True
                break
            since = 0 if count != last else since + 1
            last = count
            if since > STUCK_AFTER:
                raise Stuck(f"no action counted for {STUCK_AFTER} steps: "
                            + "; ".join(self.outcome.acts[-12:]))
        for place in self.places:
            self._release(place)
        self.check()
        self.outcome.actions = len(self.log_of(self.host))
        return self.outcome

    # --- faults ------------------------------------------------------------------------------

    def _hold(self, place: Place) -> None:
        shared = place.table.remote.shared
        if shared is None or place.held is not None or place is self.host:
            return
        end = shared.end
        held: list[tuple[str, bytes]] = []
        place.held = held
        real = type(end).handle.__get__(end)
        lock = threading.Lock()

        def hold(topic: str, payload: bytes) -> None:
            with lock:
                if place.held is held and topic.endswith("/log"):
                    held.append((topic, payload))
                    return
            real(topic, payload)

        end.handle = hold  # type: ignore[method-assign]
        place.__dict__["_release_lock"] = lock

    def _release(self, place: Place) -> None:
        held = place.held
        shared = place.table.remote.shared
        if held is None or shared is None:
            place.held = None
            return
        lock = place.__dict__["_release_lock"]
        with lock:
            place.held = None
            del shared.end.handle  # type: ignore[attr-defined]
        for topic, payload in held:
            shared.end.handle(topic, payload)

    def restart(self, place: Place) -> None:
        """A guest's table switched off and on again: its pieces stay where they stand."""
        board = place.table.view()["table"]["occupied"]
        self._release(place)
        place.table.close()
        place.table, place.clock = _a_table(place.folder, place.name, self.broker)
        place.table.set_board(board)
        assert until(self._all_connected, QUIET), f"{place.name} did not come back"


def _line(place: Place) -> Any:
    """A table's copy of the log as a ``GameLine`` (its game, states and actions)."""
    shared = place.table.remote.shared
    assert shared is not None
    end = shared.end
    return end.host.line if hasattr(end, "host") else end.guest.line


def _log_hash(place: Place) -> str:
    line = _line(place)
    return state_hash(line.game, line.state)


def _sides(place: Place) -> str:
    c = place.table.remote._companion
    line = _line(place)
    mine = [a.to_json() for a in c.actions[-3:]] if c is not None else []
    return (f"its last actions {mine}, its log's {[a.to_json() for a in line.actions[-3:]]}; "
            f"the bar {place.table.view()['table']['next']}")


def _apart(place: Place) -> bool:
    """The table's own game is not its copy of the log: another action somewhere, the log's
    next action one of a seat here (which the table would count by itself), or another
    position. The log's next action of another table's seat is the move people here carry
    out; the actions after it follow once it counts (checked then)."""
    c = place.table.remote._companion
    if c is None:
        return False
    line = _line(place)
    mine, theirs = list(c.actions), list(line.actions)
    if mine != theirs[:len(mine)]:
        return True
    if len(theirs) > len(mine) and \
            line.game.actor(line.states[len(mine)], theirs[len(mine)]) in place.seats:
        return True  # the next is its own seat's: nobody here is asked to carry it out
    return len(mine) == len(theirs) and (state_hash(c.game, c.state)
                                         != state_hash(line.game, line.state))


# --- the acts ------------------------------------------------------------------------------

def _view(place: Place) -> dict[str, Any]:
    return place.table.view()


def _busy(place: Place) -> bool:
    """A person at this table has something to do: their seat's turn, a move from another
    table to carry out, or the board to put right."""
    view = _view(place)
    nxt = view["table"]["next"]
    return bool(view["table"]["plan"]) or (nxt["actor"] in place.seats
                                           and not nxt["code"].startswith("remote_")) \
        or nxt["actor"] is None and nxt["code"] not in ("game_over",)


def act_play(game: Game, place: Place) -> str | None:
    """The person whose seat is to move here makes a legal action (at random)."""
    view = _view(place)
    if not view["game"] or view["game"]["over"]:
        return None
    nxt = view["table"]["next"]
    if nxt["actor"] not in place.seats or nxt["code"].startswith(("remote_", "computer_")):
        return act_tidy(game, place)
    if nxt["code"] == "turn_over" or view["table"].get("setting_up"):
        return act_tidy(game, place)
    action = person_action(place.table, game.rng)
    carry_out(place.table, place.clock, action)
    return f"made {action.to_json()}"


def act_carry(game: Game, place: Place) -> str | None:
    """The move from another table, carried out as the lights say."""
    plan = _view(place)["table"]["plan"]
    if plan is None:
        return act_play(game, place)
    carry_out(place.table, place.clock, action_from_json(plan))
    return f"carried out {plan}"


def act_tidy(game: Game, place: Place) -> str | None:
    """Follow the bar: take away, put back, move back and turn what it says."""
    nxt = _view(place)["table"]["next"]
    code, params = nxt["code"], nxt["params"]
    off = list(params.get("take_away") or params.get("extra") or [])
    on = list(params.get("put_back") or params.get("missing") or [])
    if code.endswith("take_away") or code in ("say_number", "say_joker", "lay_joker"):
        off = [params["square"]]  # a new piece nobody names: lifted again
    if code.endswith("put_back"):
        on = [params["square"]]
    for pair in params.get("moves") or []:
        _put(place, pair["from"], False)
        _put(place, pair["to"], True)
    for square in off:
        _put(place, square, False)
    for square in on:
        _put(place, square, True)
    for square in list(params.get("squares") or []) if code == "turn_over" else []:
        _put(place, square, False)
        _put(place, square, True)
    if code in ("undo_on_board", "redo_on_board"):
        for square in params.get("turn") or []:
            _put(place, square, False)
            _put(place, square, True)
    if off or on or params.get("moves") or code == "turn_over":
        _settle(place)
        return f"{code}: off {off} on {on}"
    return None


def act_take_back_on_board(game: Game, place: Place) -> str | None:
    """The last action was this table's own placement: its piece lifted again, the board left
    so (a take-back on the board)."""
    c = place.table.remote._companion
    if c is None or not c.actions:
        return None
    last = c.actions[-1]
    cell = getattr(last, "cell", None)
    if cell is None or c.game.actor(c.states[-2], last) not in place.seats:
        return None
    _put(place, cell, False)
    _settle(place)
    return f"lifted {cell} again"


def act_stray(game: Game, place: Place) -> str | None:
    """A piece put down where nothing counts it (put elsewhere), then lifted again."""
    c = place.table.remote._companion
    if c is None:
        return None
    free = sorted(set(c.board.cells) - set(_view(place)["table"]["occupied"]))
    if not free:
        return None
    square = game.rng.choice(free)
    _put(place, square, True)
    _put(place, square, False)
    return f"put down and lifted {square}"


def act_lift_put_back(game: Game, place: Place) -> str | None:
    """A piece on the board lifted and put back where it was."""
    occupied = sorted(_view(place)["table"]["occupied"])
    if not occupied:
        return None
    square = game.rng.choice(occupied)
    _put(place, square, False)
    _put(place, square, True)
    return f"lifted and put back {square}"


def act_undo(game: Game, place: Place) -> str | None:
    place.table.input({"type": "undo", "confirm": True})
    return "Undo"


def act_redo(game: Game, place: Place) -> str | None:
    place.table.input({"type": "redo"})
    return "Redo"


def fault_late(game: Game, place: Place) -> str | None:
    """The host's entries reach this table late (held; let go at a later late step)."""
    if place.held is not None:
        return None
    game._hold(place)
    place.late_for = game.rng.randint(1, 6)
    return "entries held" if place.held is not None else None


def fault_restart(game: Game, place: Place) -> str | None:
    if place is game.host:
        return None
    game.restart(place)
    return "switched off and on"


ACTS: list[tuple[str, int, Callable[[Game, Place], str | None]]] = [
    ("play", 40, act_play),
    ("carry", 30, act_carry),
    ("tidy", 10, act_tidy),
    ("take back on the board", 6, act_take_back_on_board),
    ("stray", 3, act_stray),
    ("lift and put back", 3, act_lift_put_back),
    ("undo", 2, act_undo),
    ("redo", 1, act_redo),
    ("fault: late", 3, fault_late),
    ("fault: restart", 1, fault_restart),
]
"""Every act and fault, with how often the model picks it."""


@contextmanager
def game_at(folder: Path, broker: str, variant: str, tables: int, seed: int,
            faults: bool = True) -> Iterator[Game]:
    """A game at ``tables`` tables, closed afterwards."""
    game = Game(folder, broker, variant, tables, seed, faults)
    try:
        yield game
    finally:
        game.close()
