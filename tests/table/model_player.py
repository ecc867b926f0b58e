"""A model player: a family at the table that sees only what a person sees.

It reads what the panel shows (the what-now bar ``table.next`` with its code, parameters and
actor, the prompt, the signals of the LEDs, the drawing's pieces and faces, the controls the
page offers) and acts only as a person can: it puts pieces down, lifts them and turns them over
on the simulated board (``Table.handle_sensor``, or the real scan path of
``sudoku_table.firmware.simulator`` with ``scan=True``), and taps what the panel offers (the inputs
of docs/api.md). It knows the rules of its game the way players do (``sudoku_table.rules``): it
keeps its own account of the game, the cards in its hands and where every real piece lies, and after
every step it checks the table against that account:

- **one next step**, with the right actor, and following it makes progress (a bounded number
  of acts per game action; no dead end where the bar asks for what nobody can do);
- **the drawing tells the truth**: every piece drawn where it physically is, with the number and
  the face it physically shows, the pieces to turn over lit exactly, the LED frame the same;
- **the controls fit the moment**: the number pad offers exactly the legal numbers and is hidden
  when no number is asked; every control shown does something now;
- **no disagreement**: the table's game is the players' game, and at the end the final board is
  the game's.

With ``deal`` (the table deals, in the games that hide hands) the family plays as it does with a
phone each: the mover reads their own card or stone from ``Table.hand`` (what their phone shows)
instead of drawing one, takes that one and puts it down where it may go, with no number tapped,
or sets it aside or lays it face down as the phone says (a tap on their own phone, made as that
seat). The checks then also hold that only the mover's phone shows a card, one that is left to
them, with what it can do that the rules say; that the same moment always deals the same card
(after an Undo, a Redo or a power cut); that no number pad is shown, and that the shared panel
offers to set aside or lay as a joker only the card dealt.

``tests/table/test_model_player.py`` drives it with Hypothesis (one rule per act a person can
make); ``bench/bench_model_player.py`` plays hundreds of games and counts.
"""

from __future__ import annotations

import tempfile
import threading
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from sudoku_table.ai import ComputerConfig
from sudoku_table.firmware.ports import SensorEvent
from sudoku_table.rules.actions import OFF, Action, Blank, Discard, EndTurn, Joker, Move, Place
from sudoku_table.rules.game import BLANKS_PHASE, Game, State, variant_class
from sudoku_table.table import ConfirmNeeded, InputError, Table
from sudoku_table.table.signals import compose_frame
from sudoku_table.table.view import NEXT_STEPS

from ..waiting import until
from .helpers import Clock, RecordingDisplay

QUICK_COMPUTER = ComputerConfig(easy_positions=40, easy_seconds=60.0, normal_positions=80,
                                normal_seconds=60.0, strong_positions=120, strong_seconds=60.0)
"""The computer's effort at the model's table: small, so that a game takes seconds, and
counted in positions only (the clock never stops it: the same game plays the same)."""

ACTS_PER_ACTION = 40
"""At most this many acts and taps between two game actions while nothing went wrong on
purpose (a mistake or an undo adds its own allowance): more is a loop or a dead end."""

MISTAKE_ALLOWANCE = 16
"""The acts one mistake, undo or power cut may cost to put right."""

JOURNALS: str | None = None
"""Where the tables' journals are written (None: the system's temporary folder); the bench
puts them on a RAM disk, where a journal entry costs no disk sync."""

BOARD_STEPS = ("clear_board", "set_up", "set_up_number", "put_right", "game_over")
"""Next steps anyone may take: no actor."""

ASKS_NUMBER = ("say_number", "say_joker")
"""Steps a person reads as "tell the panel what the new piece on ``square`` is"."""

SENDS_AWAY = ("take_away", "take_away_card", "lift_again", "set_aside", "lay_joker",
              "computer_take_away", "remote_take_away")
"""Steps a person reads as "the piece on ``square`` may not stay as it lies": taken away, set
aside, lifted again, or turned face down as a joker."""

LEGEND_ALWAYS = ("hint", "unsaved")
"""The words the panel's legend lists in every game besides the game's own (``renderLegend``
in play.js; ``computer`` where a computer or another table plays)."""


class Disagreement(AssertionError):
    """The table and the players' own account of the game differ."""


class Contradiction(AssertionError):
    """The light of a square, the bar's next step, the words spoken and the legend say
    different things (``ModelPlayer.check_agreement``)."""


class Stuck(AssertionError):
    """Following the table makes no progress, or the bar asks for what nobody can do."""


@dataclass(frozen=True)
class Stone:
    """A real piece, card or stone: the seat whose face it shows (None: a gold card) and its
    number (None: a blank, or a joker laid face down)."""

    owner: int | None
    number: int | None

    def turned(self) -> Stone:
        assert self.owner is not None
        return Stone(1 - self.owner, self.number)


# --- hands: how a person's acts reach the sensors ---------------------------------------------


class SensorHands:
    """Each change reaches the table as the debouncer reports it: felt at once, confirmed at
    rest (``Table.handle_felt``, then ``Table.handle_sensor``)."""

    def __init__(self, seed: int = 0) -> None:
        self.clock = Clock()
        self.display = RecordingDisplay()
        self.table: Table | None = None

    def attach(self, table: Table, squares: set[str]) -> None:
        self.table = table
        table.set_board(squares)

    def change(self, square: str, occupied: bool) -> None:
        assert self.table is not None
        self.clock.now += 0.05
        self.table.handle_felt(SensorEvent(square, occupied, self.clock.now))
        self.clock.now += 0.2
        self.table.handle_sensor(SensorEvent(square, occupied, self.clock.now))

    def wait(self, seconds: float) -> None:
        assert self.table is not None
        self.clock.now += seconds
        self.table.tick()

    def close(self) -> None:
        pass


class ScanHands:
    """The real scan path: gpiozero mock pins driven like the diode matrix, the reed matrix and
    its debouncer (``sudoku_table.firmware.simulator``), on a manual clock."""

    def __init__(self, seed: int = 0) -> None:
        from sudoku_table.firmware.config import SensorConfig, SimulatorConfig
        from sudoku_table.firmware.matrix import ReedMatrix
        from sudoku_table.firmware.simulator import ManualClock, SimulatedBoard

        self.clock = ManualClock(1000.0)
        config = SensorConfig()
        self.board = SimulatedBoard(config, SimulatorConfig(seed=seed), clock=self.clock)
        self.matrix = ReedMatrix(config, pin_factory=self.board.factory, clock=self.clock)
        self.display = RecordingDisplay()
        self.table: Table | None = None
        self.matrix.listen(lambda e: self._table().handle_sensor(e),
                           lambda f: self._table().handle_fault(f),
                           lambda e: self._table().handle_felt(e))

    def _table(self) -> Table:
        assert self.table is not None
        return self.table

    def attach(self, table: Table, squares: set[str]) -> None:
        self.table = table
        for square in squares:  # pieces already standing (left from an earlier game)
            if not self.board.square(square):
                self.board.set_square(square, True)
        from sudoku_table.firmware.simulator import scan_until

        scan_until(self.matrix, self.clock, self.clock.now + 0.3, lambda: None)
        table.set_board(set(self.matrix.occupied()))

    def change(self, square: str, occupied: bool) -> None:
        self.board.set_square(square, occupied)
        self.wait(0.3)

    def wait(self, seconds: float) -> None:
        from sudoku_table.firmware.simulator import scan_until

        scan_until(self.matrix, self.clock, self.clock.now + seconds, self._table().tick)

    def close(self) -> None:
        self.matrix.close()
        self.board.close()


# --- what the page offers -----------------------------------------------------------------------


@dataclass
class Controls:
    """What the play page offers now, derived from the view exactly as ``play.js`` does:
    the number pad's enabled numbers (None: the pad is hidden) and every enabled button with
    the input it sends (None: it only changes what the page shows)."""

    pad: list[int] | None
    buttons: dict[str, dict[str, Any] | None] = field(default_factory=dict)


def offered(view: Mapping[str, Any], traits: Mapping[str, Any]) -> Controls:
    """The controls of the play page for ``view`` (the page's own decisions, in Python: the
    browser test ``tests/web/test_browser_controls.py`` checks that the page shows the same)."""
    game, table = view["game"], view["table"]
    prompt = table.get("prompt") or {}
    kind = prompt.get("kind")
    nxt = table.get("next") or {}
    code = nxt.get("code", "")
    pad = table.get("pad")
    controls = Controls(pad=None if pad is None else list(pad["numbers"]))
    buttons = controls.buttons
    over = game["over"]
    if table.get("can_undo"):
        buttons["undo"] = {"type": "undo"}
    if table.get("can_redo"):
        buttons["redo"] = {"type": "redo"}
    choice = table.get("blank_choice")
    if choice:  # even after the blank that ended the game
        for owner in choice["choices"]:
            if owner != choice["owner"]:
                buttons[f"blank-{owner}"] = {"type": "blank", "square": choice["square"],
                                             "owner": owner}
    if over:
        return controls
    computer_step = code.startswith("computer_")
    if game.get("phase") == BLANKS_PHASE and not computer_step:
        buttons["end-turn"] = {"type": "end_turn"}
    if traits.get("has_set_asides") and table.get("discard_choices") and not table["clearing"] \
            and (not computer_step or code.endswith("set_aside")):
        buttons["discard"] = None  # the pad then offers the numbers that fit nowhere
    if traits.get("has_jokers") and kind == "number" and prompt.get("square") \
            and table.get("joker_choices"):
        buttons["joker"] = None
    if kind == "joker" and prompt.get("square"):
        buttons["prompt-joker"] = {"type": "joker", "square": prompt["square"],
                                   "number": prompt["number"]}
    elif kind == "discard":
        buttons["prompt-discard"] = {"type": "discard", "number": prompt["number"]}
    elif kind == "bear_off":
        buttons["prompt-bear-off"] = {"type": "bear_off"}
    if table.get("where_offered"):
        buttons["where"] = {"type": "where"}
    actor = nxt.get("actor")
    person = actor is not None and str(actor) not in (table.get("computers") or {})
    if person and table.get("hints") and not (table.get("hint") or {}).get("status") == \
            "thinking":
        buttons["hint"] = None
    return controls


# --- the model player ---------------------------------------------------------------------------


@dataclass
class Tally:
    """What one game cost: the players' acts on the board and taps on the panel, per game
    action, and what went wrong."""

    actions: int = 0
    acts: int = 0
    taps: int = 0
    mistakes: int = 0
    undos: int = 0
    redos: int = 0
    power_cuts: int = 0
    refused: int = 0


class ModelPlayer:
    """A family playing one game at the table (see the module docstring).

    ``computers`` seats the computer (``{1: "easy"}``); ``journal`` is the table's journal
    file (a fresh one in a temporary folder otherwise); ``scan`` drives the real scan path;
    ``leftovers`` are squares holding pieces of an earlier game when the table starts;
    ``deal``: the table deals (in a game that hides hands; otherwise ignored), from
    ``deal_seed`` (the same seed deals the same cards).
    """

    def __init__(self, variant: str, players: int | None = None,
                 options: Mapping[str, Any] | None = None, *,
                 computers: Mapping[int, str] | None = None, journal: str | Path | None = None,
                 scan: bool = False, leftovers: tuple[str, ...] = (), seed: int = 0,
                 deal: bool = False, deal_seed: int = 0) -> None:
        self.game: Game = variant_class(variant)(players, options)
        self.deal = deal and self.game.hidden_hands
        """The table deals: each mover's card comes from their phone (``Table.hand``)."""
        self.dealt: dict[tuple[Action, ...], int] = {}  # the card dealt after these actions
        self.traits = type(self.game).traits()
        self.owners_shown = bool(self.game.own_piles or self.traits["piece_looks"])
        """Whether a real piece shows its seat (two-coloured pieces, each player's own
        cards); SUDOKU FAMILY's stones come from one bag, their colour is nobody's."""
        self.computers = dict(computers or {})
        self._tmp: tempfile.TemporaryDirectory[str] | None = None
        if journal is None:
            self._tmp = tempfile.TemporaryDirectory(prefix="model-player-", dir=JOURNALS)
            journal = Path(self._tmp.name) / "journal.sqlite3"
        self.journal = Path(journal)
        self.hands: SensorHands | ScanHands = (ScanHands(seed) if scan else SensorHands(seed))
        self.setup = self.game.default_setup()
        # The players' own account: the game's states and who made each action.
        self.states: list[State] = [self.game.initial_state(self.setup or None)]
        self.actions: list[Action] = []
        self.by: list[int] = []
        self.redoable: list[tuple[Action, int]] = []
        # The real pieces: on the board, and those lifted off it by a hand, by their square.
        self.world: dict[str, Stone] = {square: Stone(0, 1) for square in leftovers}
        self.aside: dict[str, Stone] = {}
        self.told: dict[str, int] = {}  # a piece whose number was told wrong, by mistake
        self.holding: dict[int, int] = {}  # the card or stone in each seat's hand
        self.intent: Action | None = None
        self.landed: list[str] = []  # landings of the Halma move under way
        self.turner: int | None = None  # who turns the pieces the game turned over
        self.in_hand: Stone | None = None  # the piece lifted last
        self.tally = Tally()
        self._doc: tuple[State, dict[str, Any]] | None = None
        self._playable: tuple[State, list[int]] | None = None
        self._checked: tuple[Any, ...] | None = None
        self._heard: str | None = None  # the id of the last announcement checked
        self.since_action = 0
        self.allowance = ACTS_PER_ACTION
        self.log: list[str] = []
        self.table = self._open_table()
        self.view: dict[str, Any] = self.table.new_game(
            variant, self.game.players, dict(self.game.options),
            computers={str(k): v for k, v in self.computers.items()},
            deal=self.deal, seed=deal_seed)  # type: ignore[assignment]

    # --- the table ---------------------------------------------------------------------------

    def _open_table(self) -> Table:
        table = Table(self.hands.display, self.journal, clock=self.hands.clock, ticker=False,
                      computer=QUICK_COMPUTER)
        self.hands.attach(table, set(self.world))
        return table

    def close(self) -> None:
        self.table.close()
        self.hands.close()
        if self._tmp is not None:
            self._tmp.cleanup()

    def look(self) -> dict[str, Any]:
        """What the panel shows now (the computer, if it is to move, has chosen)."""
        self.table.wait_for_computer(30.0)
        self.view = self.table.view()  # type: ignore[assignment]
        return self.view

    # --- the players' own account -------------------------------------------------------------

    @property
    def state(self) -> State:
        return self.states[-1]

    @property
    def over(self) -> bool:
        return bool(self.view["game"]["over"])

    @property
    def settled(self) -> bool:
        """The game is over and the board shows it (nothing left to turn or put right)."""
        return self.over and self.view["table"]["next"]["code"] == "game_over"

    def _accept(self, action: Action, player: int) -> None:
        if self.redoable and self.redoable[-1][0] == action:
            self.redoable.pop()
        else:
            self.redoable.clear()
        self.states.append(self.game.apply(self.state, action))
        self.actions.append(action)
        self.by.append(player)
        if self.state.last.flipped:
            self.turner = player
        self.tally.actions += 1
        self.since_action = 0
        self.allowance = ACTS_PER_ACTION
        self.intent = None
        self.landed = []
        if player in self.holding and getattr(action, "number", None) == self.holding[player]:
            del self.holding[player]
        stone = self.world.get(action.cell) if isinstance(action, Place) else None
        if stone is not None and stone.number is not None and stone.number != action.number:
            self.told[action.cell] = action.number  # counted as another than the piece shows

    def _take_back(self) -> None:
        if self.state.last.flipped:
            self.turner = self.by[-1]
        self.told.pop(getattr(self.actions[-1], "cell", ""), None)  # told wrong, gone with it
        self.states.pop()
        self.redoable.append((self.actions.pop(), self.by.pop()))
        self.since_action = 0
        self.allowance = ACTS_PER_ACTION
        self.intent = None
        self.landed = []

    def reconcile(self, candidates: list[Action] | None = None) -> None:
        """Compare the table's game with the players' own account after an act: unchanged, or
        one of the actions the players meant (``candidates``) has counted."""
        doc = self.view["game"]
        start = len(self.actions)
        for _ in range(3):  # the computer's end of turn counts by itself, after its action
            if doc == self.document():
                return
            if not self._accept_one(doc, candidates if candidates is not None
                                    else self._candidates()):
                break
            candidates = [EndTurn()] if self.state.to_move in self.computers else []
        del self.states[start + 1:], self.actions[start:], self.by[start:]
        raise Disagreement(f"the table's game differs from the players' after {self.log[-3:]}: "
                           f"table {_short(doc)}, players {_short(self.game.document(self.state))}")

    def _accept_one(self, doc: Mapping[str, Any], candidates: list[Action]) -> bool:
        """Accept the candidate that leads to ``doc``, or to a state from which the computer's
        own end of turn does."""
        for action in candidates:
            try:
                after = self.game.apply(self.state, action)
            except Exception:  # noqa: BLE001 (a candidate the rules refuse cannot be it)
                continue
            mover = self.game.actor(self.state, action)  # the rules say who made it
            ends = after.to_move in self.computers and after.phase == BLANKS_PHASE
            if doc == self.game.document(after) or (
                    ends and doc == self.game.document(self.game.apply(after, EndTurn()))):
                assert mover is not None
                self._accept(action, mover)
                return True
        return False

    def _candidates(self) -> list[Action]:
        found = [a for a in (self.intent,) if a is not None]
        plan = self.view["table"].get("plan")
        if plan is not None:
            from sudoku_table.rules.actions import action_from_json
            found.append(action_from_json(plan))
        if self.state.phase == BLANKS_PHASE:
            found.append(EndTurn())
        return found

    # --- acts ----------------------------------------------------------------------------------

    def _act(self, what: str) -> None:
        self.log.append(what)
        del self.log[:-40]
        self.tally.acts += 1
        self.since_action += 1

    def put(self, square: str, stone: Stone) -> None:
        """Put a piece down on ``square``."""
        assert square not in self.world, f"{square} already holds a piece"
        self._act(f"put {stone} on {square}")
        self.world[square] = stone
        self.hands.change(square, True)
        self.look()

    def lift(self, square: str) -> Stone:
        """Lift the piece from ``square`` (it stays in the hand, remembered by its square)."""
        self._act(f"lift {square}")
        stone = self.world.pop(square)
        self.aside[square] = stone
        self.in_hand = stone
        self.hands.change(square, False)
        self.look()
        return stone

    def turn(self, square: str) -> None:
        """Turn the piece on ``square`` over: lift it and set it down on its other face."""
        stone = self.lift(square)
        del self.aside[square]
        self._act(f"turn {square}")
        self.tally.acts -= 1  # lifting and setting down again is one act
        self.world[square] = stone.turned()
        self.hands.change(square, True)
        self.look()

    def wait(self, seconds: float) -> None:
        self.log.append(f"wait {seconds}")
        self.hands.wait(seconds)
        self.look()

    def tap(self, data: Mapping[str, Any], *, confirm: bool = True,
            seat: int | None = None) -> bool:
        """Tap what sends ``data`` on the panel (``seat``: on that seat's own phone); a
        question (409) is answered ``confirm``. True when the table took it."""
        self.log.append(f"tap {dict(data)}" + ("" if seat is None else f" on {seat}'s phone"))
        del self.log[:-40]
        self.tally.taps += 1
        self.since_action += 1
        try:
            self.table.input(data, seat)
        except ConfirmNeeded:
            if not confirm:
                self.look()
                return False
            self.tally.taps += 1
            return self.tap({**data, "confirm": True}, seat=seat)
        except InputError:
            self.tally.refused += 1
            self.look()
            return False
        self.look()
        return True

    # --- following the what-now bar -----------------------------------------------------------

    def follow(self, pick: int = 0) -> None:
        """Do what the what-now bar asks, as the person it names would."""
        view = self.look()
        nxt = view["table"]["next"]
        code, params = nxt["code"], nxt["params"]
        handler: Callable[[dict[str, Any], int], None] | None = getattr(
            self, f"_on_{code}", None)
        if handler is None:
            raise Stuck(f"the model player cannot follow the step {code} {params}")
        before = (view["version"], self.tally.acts, self.tally.taps)
        try:
            if self.told and code not in ("turn_over", "put_right", "clear_board"):
                self._correct_told()
            else:
                handler(params, pick)
            if code != "game_over" and (self.view["version"], self.tally.acts,
                                        self.tally.taps) == before:
                raise Stuck(f"following {code} {params} did nothing: a dead end")
            self.reconcile()
        except AssertionError as e:
            raise type(e)(f"{e}\n  following {code} {params}; the last acts: "
                          f"{self.log[-16:]}") from None

    def _on_game_over(self, params: dict[str, Any], pick: int) -> None:
        pass

    def _on_clear_board(self, params: dict[str, Any], pick: int) -> None:
        square = params["squares"][0]
        self.lift(square)
        self.aside.pop(square)

    def _on_set_up(self, params: dict[str, Any], pick: int) -> None:
        piece = params["piece"]
        number = None if piece.get("blank") else piece["number"]
        self.put(params["square"], Stone(piece["owner"], number))

    def _on_set_up_number(self, params: dict[str, Any], pick: int) -> None:
        """Any lit square takes the number the bar names: the family picks one of them."""
        squares = params["squares"]
        self.put(squares[pick % len(squares)], Stone(None, params["number"]))

    def _on_turn_over(self, params: dict[str, Any], pick: int) -> None:
        self.turn(params["squares"][pick % len(params["squares"])])

    def _on_put_right(self, params: dict[str, Any], pick: int) -> None:
        self._put_right(pick)

    def _put_right(self, pick: int) -> None:
        """Put one difference right, as the blinking squares and the arrows show."""
        table = self.view["table"]
        cells = self.view["game"]["cells"]
        for pair in table["guidance"]:
            stone = self.lift(pair["from"])
            del self.aside[pair["from"]]
            self.put(pair["to"], stone)
            return
        signals = table["signals"]
        extra = sorted(s for s, w in signals.items() if w in ("extra", "illegal"))
        if extra:
            square = extra[pick % len(extra)]
            self.lift(square)
            self.aside.pop(square, None)
            return
        missing = sorted(s for s, w in signals.items() if w == "missing")
        if missing:
            square = missing[pick % len(missing)]
            piece = cells[square]
            stone = self.aside.pop(square, None) or Stone(
                piece["owner"], None if piece.get("blank") else piece["number"])
            self.put(square, stone)
            return
        raise Stuck(f"the bar says put the board right, but nothing blinks: {signals}")

    def _on_undo_on_board(self, params: dict[str, Any], pick: int) -> None:
        self._board_as_said(params, pick)

    _on_redo_on_board = _on_undo_on_board

    def _board_as_said(self, params: dict[str, Any], pick: int) -> None:
        """After a take-back or a redo: what the bar lists, one piece at a time."""
        cells = self.view["game"]["cells"]
        if params["moves"]:
            pair = params["moves"][0]
            stone = self.lift(pair["from"])
            del self.aside[pair["from"]]
            self.put(pair["to"], stone)
        elif params["take_away"]:
            square = params["take_away"][0]
            self.lift(square)
            self.aside.pop(square)
        elif params["put_back"]:
            square = params["put_back"][0]
            piece = cells[square]
            stone = self.aside.pop(square, None)
            if stone is None or stone.number != (None if piece.get("blank")
                                                 else piece["number"]):
                stone = Stone(piece["owner"], None if piece.get("blank") else piece["number"])
            if stone.owner != piece["owner"] and square not in self.view["table"]["unturned"]:
                stone = Stone(piece["owner"], stone.number)
            self.put(square, stone)
        elif params["turn"]:
            self.turn(params["turn"][0])
        else:
            raise Stuck(f"the bar says put the board as it was, but lists nothing: {params}")

    def _on_take_away(self, params: dict[str, Any], pick: int) -> None:
        square = params["square"]
        self.lift(square)
        self.aside.pop(square, None)
        self.intent = None

    def _on_take_away_number(self, params: dict[str, Any], pick: int) -> None:
        self._on_take_away(params, pick)

    def _on_take_away_card(self, params: dict[str, Any], pick: int) -> None:
        self._on_take_away(params, pick)

    # placements

    def _mover(self) -> int:
        mover = self.state.to_move
        assert mover is not None, "nobody is to move"
        return mover

    def _own(self) -> int | None:
        """The seat whose own phone the mover taps on for their card (None: the shared
        panel, where the table does not deal)."""
        return self._mover() if self.deal else None

    def _hand(self, pick: int) -> int | None:
        """The card or stone in the mover's hand: drawn now if the game hides hands, or, where
        the table deals, the one the mover's phone shows."""
        mover = self._mover()
        if not self.game.hidden_hands:
            return None
        supply = self.game.hand_supply(self.state, mover)
        if supply is None:
            return None
        if self.deal:
            return self.phone(mover)["number"]
        if self.holding.get(mover) not in supply:
            cards = [n for n, k in sorted(supply.items()) for _ in range(k)]
            self.holding[mover] = cards[pick % len(cards)]
        return self.holding[mover]

    def _choose(self, pick: int) -> Action:
        """The action the mover means to make: one the rules allow with the card in hand."""
        if self.intent is not None:
            return self.intent
        hand = self._hand(pick)
        options = list(self.game.legal_actions(self.state))
        if hand is not None:
            options = [a for a in options if getattr(a, "number", None) == hand]
        if self.state.phase == BLANKS_PHASE:
            options = [a for a in options if isinstance(a, Blank | EndTurn)]
        if not options:
            raise Stuck(f"the mover has nothing to do (hand {hand}) in {self.state}")
        # Few end turns: the model lays blanks as often as the rules let it.
        self.intent = options[(pick // 7) % len(options)]
        return self.intent

    def _on_place(self, params: dict[str, Any], pick: int) -> None:
        action = self._choose(pick)
        mover = self._mover()
        if isinstance(action, Place):
            if pick % 5 == 0 and self.view["table"].get("pad") and \
                    action.number in self.view["table"]["pad"]["numbers"] and \
                    self.view["table"]["in_hand"] is None:
                self.tap({"type": "number", "number": action.number})  # chosen first
                return
            self.put(action.cell, Stone(mover, action.number))
        elif isinstance(action, Joker):
            self.put(action.cell, Stone(mover, None))
        elif isinstance(action, Discard):
            assert action.number in self.view["table"]["discard_choices"], \
                "the card fits nowhere, but the panel does not let it be set aside"
            self.tap({"type": "discard", "number": action.number}, seat=self._own())
        else:
            raise Stuck(f"a placement step, but the mover means {action}")

    def phone(self, seat: int) -> dict[str, Any]:
        """What ``seat``'s own phone shows as its card now (it must show one)."""
        hand = self.table.hand(seat)
        assert hand is not None, f"seat {seat} is to move, but its phone shows no card"
        return dict(hand)

    def _on_place_dealt(self, params: dict[str, Any], pick: int) -> None:
        """The mover takes the card their phone shows and puts it down where it may go (no
        number tapped), or sets it aside or lays it face down as the phone says."""
        action = self._choose(pick)
        mover = self._mover()
        do = self.phone(mover)["do"]
        if isinstance(action, Place):
            assert do == "place", f"the phone says {do}, but the card can be placed"
            self.put(action.cell, Stone(mover, action.number))
        elif isinstance(action, Joker):
            assert do == "joker", f"the phone says {do}, but the stone is a joker"
            self.put(action.cell, Stone(mover, None))
        elif isinstance(action, Discard):
            assert do == "set_aside", f"the phone says {do}, but the card is set aside"
            self.tap({"type": "discard", "number": action.number}, seat=mover)
        else:
            raise Stuck(f"the table dealt, but the mover means {action}")

    def _on_place_number(self, params: dict[str, Any], pick: int) -> None:
        action = self._choose(pick)
        if not isinstance(action, Place) or action.number != params["number"]:
            self.tap({"type": "undo"})  # the number chosen first is not the one in hand
            return
        self.put(action.cell, Stone(self._mover(), action.number))

    def _on_say_number(self, params: dict[str, Any], pick: int) -> None:
        square = params["square"]
        stone = self.world.get(square)
        if stone is None:
            raise Stuck(f"the bar asks the number of {square}, but no piece is there")
        prompt = self.view["table"]["prompt"]
        if stone.number is None:  # a stone laid face down: a joker
            mover = self._mover()
            number = self.phone(mover)["number"] if self.deal else self.holding.get(mover)
            assert number is not None
            assert number in self.view["table"]["joker_choices"], \
                "the stone fits nowhere, but the panel offers no joker"
            self.tap({"type": "joker", "square": square, "number": number}, seat=self._own())
            return
        if stone.number not in prompt["choices"]:
            self._on_take_away({"square": square}, pick)
            return
        self.tap({"type": "number", "square": square, "number": stone.number})

    def _on_say_joker(self, params: dict[str, Any], pick: int) -> None:
        stone = self.world.get(params["square"])
        if stone is not None and stone.number is None:
            self._on_say_number(params, pick)
        else:
            self._on_take_away(params, pick)

    def _on_lay_joker(self, params: dict[str, Any], pick: int) -> None:
        prompt = self.view["table"]["prompt"]
        if prompt.get("square"):
            stone = self.world.get(prompt["square"])
            if stone is not None and stone.number is not None:  # laid face up: turn it down
                self.lift(prompt["square"])
                self.aside.pop(prompt["square"])
                self.put(prompt["square"], Stone(stone.owner, None))
                return
            self.tap({"type": "joker", "square": prompt["square"], "number": prompt["number"]},
                     seat=self._own())
            return
        action = self._choose(pick)
        assert isinstance(action, Joker)
        self.put(action.cell, Stone(self._mover(), None))

    def _on_set_aside(self, params: dict[str, Any], pick: int) -> None:
        prompt = self.view["table"]["prompt"]
        square = prompt.get("square")
        if square is not None and square in self.world:
            self.lift(square)
            self.aside.pop(square)
            return
        self.tap({"type": "discard", "number": prompt["number"]}, seat=self._own())

    def _on_blanks_or_end(self, params: dict[str, Any], pick: int) -> None:
        action = self._choose(pick)
        if isinstance(action, EndTurn):
            self.tap({"type": "end_turn"})
        elif isinstance(action, Blank):
            mover = self._mover()
            owner = mover if action.owner is None else action.owner
            self.put(action.cell, Stone(owner, None))
            if owner != mover:  # it shows the other colour: say so on the panel
                self.reconcile([Blank(action.cell)])
                self.tap({"type": "blank", "square": action.cell, "owner": owner})
                self._recolour(action.cell, owner)
        else:
            raise Stuck(f"a blank phase, but the mover means {action}")

    def _recolour(self, square: str, owner: int) -> None:
        """The players' account after the blank on ``square`` was said to show ``owner``."""
        doc = self.view["game"]
        if doc == self.game.document(self.state):
            return
        last = self.actions[-1]
        assert isinstance(last, Blank) and last.cell == square, (last, square)
        player = self.by[-1]
        self.states.pop()
        self.actions.pop()
        self.by.pop()
        self.tally.actions -= 1
        self.reconcile([Blank(square, owner if owner != player else None), Blank(square)])

    # moves

    def _on_move(self, params: dict[str, Any], pick: int) -> None:
        action = self._choose(pick)
        assert isinstance(action, Move), action
        self.landed = []
        self.lift(action.path[0])
        self.aside.pop(action.path[0])

    def _next_landing(self) -> str | None:
        move = self.intent
        assert isinstance(move, Move)
        landings = [c for c in move.path[1:] if c != OFF]
        done = len(self.landed)
        return landings[done] if done < len(landings) else None

    def _on_set_down(self, params: dict[str, Any], pick: int) -> None:
        move = self.intent
        if not isinstance(move, Move):  # knocked, not moved: it goes back where it stood
            start = params["square"]
            stone = self.aside.pop(start, None) or self.in_hand
            assert stone is not None
            for square, kept in list(self.aside.items()):
                if kept is stone:
                    del self.aside[square]
            self.put(start, stone)
            return
        landing = self._next_landing()
        mover = self._mover()
        piece = self.state.board[move.path[0]]
        stone = Stone(mover, piece.number)
        if landing is None:
            if move.bears_off:
                raise Stuck("the piece is to be borne off, but the panel offers no bear-off")
            raise Stuck(f"all landings of {move} are made, but the bar says set down")
        self.landed.append(landing)
        self.put(landing, stone)

    def _on_jump_on(self, params: dict[str, Any], pick: int) -> None:
        move = self.intent
        assert isinstance(move, Move)
        landing = self._next_landing()
        if landing is None and not move.bears_off:
            self.wait(1.5)  # the move counts once the board has settled
            return
        stone = self.lift(params["square"])
        del self.aside[params["square"]]
        if landing is None:  # bear off: from here, off the board
            self.tap({"type": "bear_off"})
            return
        self.landed.append(landing)
        self.put(landing, stone)

    def _on_bear_off(self, params: dict[str, Any], pick: int) -> None:
        move = self.intent
        if not isinstance(move, Move):  # knocked, not moved: set it down where it stood
            self._on_set_down(params, pick)
            return
        if self._next_landing() is None and move.bears_off:
            self.tap({"type": "bear_off"})
            return
        self._on_set_down(params, pick)

    def _on_lift_again(self, params: dict[str, Any], pick: int) -> None:
        square = params["square"]
        self.lift(square)
        del self.aside[square]  # in the hand, to be set down where the move goes
        if self.landed and self.landed[-1] == square:
            self.landed.pop()

    # the computer's turn, carried out by a person

    def _plan(self) -> Action:
        from sudoku_table.rules.actions import action_from_json

        plan = self.view["table"]["plan"]
        assert plan is not None, "the bar names the computer's action, the view has no plan"
        return action_from_json(plan)

    def _on_computer_thinking(self, params: dict[str, Any], pick: int) -> None:
        raise Stuck("the computer never chose its action")

    def _on_computer_hand(self, params: dict[str, Any], pick: int) -> None:
        choices = params["choices"]
        self.tap({"type": "hand", "number": choices[pick % len(choices)]})

    def _on_computer_place(self, params: dict[str, Any], pick: int) -> None:
        self.intent = self._plan()
        self.put(params["square"], Stone(self._mover(), params["number"]))

    _on_computer_draw_place = _on_computer_place

    def _on_computer_blank(self, params: dict[str, Any], pick: int) -> None:
        self.intent = self._plan()
        self.put(params["square"], Stone(self._mover(), None))

    def _on_computer_blank_of(self, params: dict[str, Any], pick: int) -> None:
        self.intent = self._plan()
        self.put(params["square"], Stone(params["player"], None))

    def _on_computer_joker(self, params: dict[str, Any], pick: int) -> None:
        self.intent = self._plan()
        self.put(params["square"], Stone(self._mover(), None))

    def _on_computer_set_aside(self, params: dict[str, Any], pick: int) -> None:
        self.intent = self._plan()
        self.tap({"type": "discard", "number": params["number"]})

    _on_computer_draw_set_aside = _on_computer_set_aside

    def _on_computer_move(self, params: dict[str, Any], pick: int) -> None:
        plan = self._plan()
        assert isinstance(plan, Move)
        if self.intent != plan:
            self.landed = []
        self.intent = plan
        if plan.path[0] in self.world and plan.path[0] not in self.landed:
            self.landed = []
            self.lift(plan.path[0])
            self.aside.pop(plan.path[0])
        elif plan.bears_off and self._next_landing() is None:
            if self.landed and self.landed[-1] in self.world:
                self.lift(self.landed[-1])  # from its last landing, off the board
                self.aside.pop(self.landed[-1])
                return
            self.tap({"type": "bear_off"})
        elif self.landed and self._next_landing() is not None:
            self._on_jump_on({"square": self.landed[-1]}, pick)
        elif self.landed:
            self.wait(1.5)
        else:
            self._on_set_down(params, pick)

    _on_computer_jump = _on_computer_move
    _on_computer_bear_off = _on_computer_move

    def _on_computer_take_away(self, params: dict[str, Any], pick: int) -> None:
        self._on_take_away(params, pick)

    def _on_computer_put_back(self, params: dict[str, Any], pick: int) -> None:
        square = params["square"]
        piece = self.view["game"]["cells"][square]
        stone = self.aside.pop(square, None) or Stone(piece["owner"], piece.get("number"))
        self.put(square, stone)
        self.landed = []

    # --- after a mistake ------------------------------------------------------------------

    def _correct_told(self) -> None:
        """A number was told wrong: the drawing shows it. Take the action back (Undo). Where
        the table deals, the card put down was not the one dealt: say so on the phone (while
        the game runs), and swap in the card the drawing shows."""
        if not self.deal:
            self.tap({"type": "undo"})
            self.reconcile_undo()
            return
        square, number = next(iter(self.told.items()))
        if not self.over:
            assert self.actions and getattr(self.actions[-1], "cell", None) == square, \
                "a card other than the one dealt lies on the board, but it was not played last"
            assert self.tap({"type": "not_my_card"}, seat=self.by[-1]), \
                "the phone cannot say the card put down was not the one dealt"
            said = self.view["table"]["message_code"] or {}
            assert said.get("code") == "swap_card" and said["params"]["square"] == square \
                and said["params"]["number"] == number, f"the table says {said}"
        stone = self.lift(square)
        del self.aside[square]
        del self.told[square]
        self.put(square, Stone(stone.owner, number))

    def reconcile_undo(self) -> None:
        """After a tap on Undo: the table took back the players' last action, or nothing."""
        doc = self.view["game"]
        if doc == self.document():
            return
        if len(self.states) > 1 and doc == self.game.document(self.states[-2]):
            self._take_back()
            return
        raise Disagreement(f"undo left a game the players do not know: {_short(doc)}")

    # --- the checks made after every step ---------------------------------------------------

    def document(self) -> dict[str, Any]:
        """The state document of the players' own account of the game (once per state)."""
        state = self.state
        if self._doc is None or self._doc[0] is not state:
            self._doc = (state, self.game.document(state))
        return self._doc[1]

    def check(self) -> None:
        """Every check of the module docstring; a failure names the last acts."""
        view = self.view
        moment = (view["version"], len(self.states), id(self.state), tuple(self.told.items()),
                  self.since_action, self.allowance)
        if moment == self._checked:
            return  # nothing changed since the last check
        self._checked = moment
        try:
            self.check_next(view)
            self.check_agreement(view)
            self.check_drawing(view)
            self.check_controls(view)
            self.check_hands(view)
            self.check_progress()
            if self.settled:
                self.check_end(view)
        except AssertionError as e:
            raise type(e)(f"{e}\n  the last acts: {self.log[-16:]}") from None

    def expected_actor(self, code: str) -> int | None:
        """Who is to take the step ``code`` by the players' own account."""
        if code in BOARD_STEPS:
            return None
        if code == "undo_on_board":
            return self.redoable[-1][1] if self.redoable else None
        if code in ("turn_over", "redo_on_board"):
            return self.turner
        return self.state.to_move

    def check_next(self, view: Mapping[str, Any]) -> None:
        nxt = view["table"].get("next")
        assert nxt is not None, "the bar says nothing"
        assert nxt["code"] in NEXT_STEPS, nxt
        dealing = nxt["code"] == "place_dealt"
        assert dealing == (self.deal and nxt["code"] in ("place", "place_dealt")), (
            f"the bar says {nxt['code']}, but the table deals: {self.deal}")
        expected = self.expected_actor(nxt["code"])
        if nxt["code"] not in ("turn_over", "redo_on_board", "undo_on_board") or \
                self.turner is not None:
            assert nxt["actor"] == expected, (
                f"the bar names seat {nxt['actor']} for {nxt['code']} {nxt['params']}, "
                f"but it is seat {expected}'s to do (after {self.log[-3:]})")

    def check_agreement(self, view: Mapping[str, Any]) -> None:
        """The light of every square, the bar's next step, the sentence just spoken and the
        legend say one thing: a piece whose number the bar asks is lit ``number`` and no other
        is; a piece the bar sends away is lit ``illegal`` (take it away), and every piece lit
        so is the one the bar names; what is spoken of a square agrees with its light; every
        word lit is one the panel's legend explains for this game."""
        table = view["table"]
        lit: Mapping[str, str] = table["signals"]
        nxt = table["next"]
        code, square = nxt["code"], nxt["params"].get("square")
        asked = {square} if code in ASKS_NUMBER else set()
        sent = {square} if code in SENDS_AWAY and square is not None else set()
        numbered = {s for s, w in lit.items() if w == "number"}
        refused = {s for s, w in lit.items() if w == "illegal"}
        if numbered != asked:
            raise Contradiction(f"the lights ask the number of {sorted(numbered)}, the bar says "
                                f"{code} {nxt['params']}")
        if not sent <= refused:
            raise Contradiction(f"the bar says {code} of {square}, but its light says "
                                f"{lit.get(str(square), 'nothing')}")
        if not refused <= sent and code not in ("put_right", "cannot_save"):
            raise Contradiction(f"{sorted(refused - sent)} lit to take away, but the bar says "
                                f"{code} {nxt['params']}")
        self.check_spoken(table, lit)
        shown = set(self.traits["signals"]) | set(LEGEND_ALWAYS) | {"computer"}
        unexplained = set(lit.values()) - shown
        if unexplained:
            raise Contradiction(f"{sorted(unexplained)} lit, but the legend does not list them")

    def check_spoken(self, table: Mapping[str, Any], lit: Mapping[str, str]) -> None:
        """A new announcement says of a square what its light shows: a piece to take away is
        lit so, a piece whose number is asked is lit ``number``."""
        said = table.get("say") or {}
        if said.get("id") is None or said["id"] == self._heard:
            return
        self._heard = said["id"]
        for part in said["parts"]:
            square = part["params"].get("square")
            if part["kind"] == "take_away" or (part["kind"] == "step"
                                                and part["code"] in SENDS_AWAY and square):
                wanted = "illegal"
            elif part["kind"] == "step" and part["code"] in ASKS_NUMBER:
                wanted = "number"
            else:
                continue
            if lit.get(square) != wanted:
                raise Contradiction(f"the table says {part['text']!r}, but {square} is lit "
                                    f"{lit.get(square, 'nothing')}")

    def faces(self) -> dict[str, int | None]:
        """The face each piece of the game shows in the panel's drawing."""
        table = self.view["table"]
        return {square: table["unturned"].get(square, piece["owner"])
                for square, piece in self.view["game"]["cells"].items()}

    def check_drawing(self, view: Mapping[str, Any]) -> None:
        table = view["table"]
        cells = view["game"]["cells"]
        felt = set(table["felt"])
        assert not felt, f"a change is felt but never confirmed: {felt}"
        shown = set(table["occupied"])
        real = set(self.world)
        assert shown == real, (f"the drawing shows pieces on {sorted(shown - real)} and none on "
                               f"{sorted(real - shown)}: not where they are")
        faces = self.faces()
        signals = table["signals"]
        wrong_face = set()
        for square, piece in cells.items():
            stone = self.world.get(square)
            if stone is None or table["clearing"]:  # a leftover is drawn as an unknown piece
                continue
            number = None if piece.get("blank") else piece["number"]
            told = self.told.get(square, stone.number)
            assert number == told, (f"{square} is drawn as {number}, the piece shows {told}")
            assert not self.owners_shown or faces[square] == stone.owner, (
                f"{square} is drawn with the face of seat {faces[square]}, the piece shows "
                f"seat {stone.owner}'s (after {self.log[-3:]})")
            if piece["owner"] != stone.owner and self.owners_shown:
                wrong_face.add(square)
        flips = {s for s, w in signals.items() if w == "flip"}
        assert flips == wrong_face, (f"the pieces to turn over are lit {sorted(flips)}, "
                                     f"the faces wrong are {sorted(wrong_face)}")
        for square, word in signals.items():
            if word == "missing":
                assert square not in real, f"{square} blinks missing but holds a piece"
            elif word in ("extra", "illegal", "number"):
                assert square in real, f"{square} shows {word} but holds no piece"
        last = self.by[-1] if self.by else None
        assert self.table.frame() == compose_frame(signals, last), \
            "the LED frame differs from the signals the panel draws"
        # A frame is shown outside the table's lock, so one the computer's thread made may
        # reach the LEDs a moment after its view: it must come.
        assert until(lambda: self.hands.display.last_frame == self.table.frame()), \
            "the LEDs show another frame than the table's"

    def check_controls(self, view: Mapping[str, Any]) -> None:
        table = view["table"]
        controls = offered(view, self.traits)
        prompt = table.get("prompt") or {}
        code = table["next"]["code"]
        if self.deal:
            assert controls.pad is None, (
                f"the pad offers {controls.pad}, but the table deals: no number is tapped")
        if prompt.get("kind") == "number":
            legal = [] if self.deal else self.legal_numbers(prompt["square"])
            assert prompt["choices"] == legal, (prompt, legal)
            assert controls.pad == (legal or None), (
                f"the pad offers {controls.pad}, legal are {legal}")
        elif prompt.get("kind") == "hand":
            assert controls.pad == (prompt["choices"] or None)
        elif code not in ("place", "place_number", "lay_joker", "set_aside"):
            assert controls.pad is None, (
                f"the pad offers {controls.pad} while the bar says {code}: no number is asked")
        if controls.pad is not None and prompt.get("kind") not in ("number", "hand"):
            wanted = self.playable_numbers()
            assert controls.pad == wanted, (
                f"the pad offers {controls.pad}; the numbers that can be played are {wanted}")
        if "discard" in controls.buttons:
            assert table["discard_choices"], "Set aside is offered, but no card fits nowhere"
        if "end-turn" in controls.buttons:
            assert self.game.check(self.state, EndTurn()) is None

    def check_hands(self, view: Mapping[str, Any]) -> None:
        """Every seat's phone shows the card the table dealt it: only the mover's shows one (a
        person's, while the game runs and something is left to them), that card is one left to
        them, what it can do is what the rules say, and the same moment deals the same card.
        The shared panel offers to set aside, or to lay as a joker, the dealt card alone."""
        state = self.state
        mover = state.to_move
        supply = (self.game.hand_supply(state, mover)
                  if mover is not None and self.game.hidden_hands else None)
        expect = (self.deal and mover is not None and mover not in self.computers
                  and not state.over and bool(supply and any(supply.values())))
        for seat in range(self.game.players):
            hand = self.table.hand(seat)
            if seat != mover or not expect:
                assert hand is None, f"seat {seat}'s phone shows {hand} (seat {mover} moves)"
                continue
            assert hand is not None, f"seat {seat} is to move, but its phone shows no card"
            assert supply is not None
            number = hand["number"]
            assert supply.get(number, 0) > 0, f"the table dealt a {number}: none is left to draw"
            known = self.dealt.setdefault(tuple(self.actions), number)
            assert number == known, (f"the table dealt a {number} where it dealt a {known} "
                                     "before (the same moment, the same card)")
            doing = {type(a) for a in self.game.legal_actions(state)
                     if getattr(a, "number", None) == number}
            do = ("place" if Place in doing else "set_aside" if Discard in doing
                  else "joker" if Joker in doing else None)
            assert hand["do"] == do, f"the phone says {hand['do']} the {number}; the rules: {do}"
        if not self.deal or mover is None or mover in self.computers:
            return
        table = view["table"]
        dealt = self.dealt.get(tuple(self.actions)) if expect else None
        if table.get("discard_choices") and not table["clearing"] \
                and not table["next"]["code"].startswith("computer_"):
            assert table["discard_choices"] == [dealt], (
                f"the panel offers to set aside {table['discard_choices']}, the table dealt "
                f"{dealt}")
        if table.get("joker_choices"):
            assert table["joker_choices"] == [dealt], (
                f"the panel offers to lay {table['joker_choices']} as a joker, the table dealt "
                f"{dealt}")

    def legal_numbers(self, square: str) -> list[int]:
        """The numbers the rules allow on ``square`` now (for the next player once a blank
        phase has ended)."""
        state = self.state
        if state.phase == BLANKS_PHASE:
            state = self.game.apply(state, EndTurn())
            if state.over:
                return []
        return list(self.game.placeable_numbers(state, square))

    def playable_numbers(self) -> list[int]:
        """The numbers worth choosing before a piece goes down: those the mover could play now
        (placed somewhere, or set aside, or laid as a joker), from what is left to them."""
        state = self.state
        if self._playable is not None and self._playable[0] is state:
            return self._playable[1]
        numbers = self._playable_now(state)
        self._playable = (state, numbers)
        return numbers

    def _playable_now(self, state: State) -> list[int]:
        mover = state.to_move
        numbers = set()
        for action in self.game.legal_actions(state):
            if isinstance(action, Place | Discard | Joker):
                numbers.add(action.number)
        if mover is not None and self.game.hidden_hands:
            supply = self.game.hand_supply(state, mover)
            if supply is not None:
                numbers &= set(supply)
        return sorted(numbers)

    def check_progress(self) -> None:
        if self.since_action > self.allowance:
            raise Stuck(f"{self.since_action} acts and taps since the last game action "
                        f"(at most {self.allowance}): {self.log[-12:]}")

    def check_end(self, view: Mapping[str, Any]) -> None:
        doc = view["game"]
        assert doc == self.document()
        for square, piece in doc["cells"].items():
            stone = self.world.get(square)
            assert stone is not None, f"the game ended with {square} empty on the board"
            assert not self.owners_shown or stone.owner == piece["owner"], \
                f"{square} shows the wrong face at the end"
        on_board = set(self.world) & self.game.geometry.cell_set
        assert on_board == set(doc["cells"]), (
            f"the final board is not the game's: {sorted(on_board ^ set(doc['cells']))}")

    # --- budgets for mistakes -------------------------------------------------------------

    def allow(self, acts: int = MISTAKE_ALLOWANCE) -> None:
        """A mistake, an undo or a cut: the acts it takes to put right are allowed."""
        self.allowance += acts

    # --- what people do besides following the bar ------------------------------------------
    # Each returns False (and does nothing) when the moment does not fit it.

    def _person_places(self) -> bool:
        """A person is about to put a piece down (no computer, a game of placements)."""
        nxt = self.view["table"]["next"]
        return (nxt["code"] in ("place", "place_dealt") and not self.game.moves_pieces
                and nxt["actor"] not in self.computers and not self.told)

    def wrong_square(self, pick: int) -> bool:
        """The piece meant for one cell goes on another where it may not stand (or off the
        game's board)."""
        if self._person_places():
            action = self._choose(pick)
            if not isinstance(action, Place):
                return False
            legal = {a.cell for a in self.game.legal_actions(self.state)
                     if isinstance(a, Place) and a.number == action.number}
            # Not where a piece of the game belongs: a piece put back is taken as that piece.
            wrong = [q for q in self.game.geometry.cells if q not in legal
                     and q not in self.world and q not in self.state.board]
            if not wrong:
                return False
            self.tally.mistakes += 1
            self.allow()
            self.put(wrong[pick % len(wrong)], Stone(self._mover(), action.number))
            self.reconcile([])
            return True
        nxt = self.view["table"]["next"]
        if nxt["code"] == "set_down" and isinstance(self.intent, Move) \
                and nxt["actor"] not in self.computers:
            landing = self._next_landing()
            cells = [c for c in self.game.geometry.cells if c not in self.world
                     and c != landing and c not in self.state.board]
            if not cells:
                return False
            piece = self.state.board[self.intent.path[0]]
            self.tally.mistakes += 1
            self.allow()
            square = cells[pick % len(cells)]
            self.landed.append(square)  # lifted again when the table says it is no move
            self.put(square, Stone(self._mover(), piece.number))
            self.reconcile([])
            return True
        return False

    def wrong_number(self, pick: int) -> bool:
        """The number tapped is another legal one than the piece shows; the drawing shows it,
        and the person takes the action back (Undo) to put it right. Where the table deals, no
        number is tapped: the mover takes another card than their phone shows (``wrong_card``).
        """
        if self.deal:
            return self.wrong_card(pick)
        table = self.view["table"]
        prompt = table["prompt"] or {}
        nxt = table["next"]
        if nxt["code"] != "say_number" or nxt["actor"] in self.computers or self.told:
            return False
        square = prompt["square"]
        stone = self.world.get(square)
        others = [n for n in prompt["choices"] if stone is None or n != stone.number]
        if stone is None or stone.number is None or not others:
            return False
        number = others[pick % len(others)]
        self.tally.mistakes += 1
        self.allow(2 * MISTAKE_ALLOWANCE)
        if self.tap({"type": "number", "square": square, "number": number}):
            self.reconcile([Place(square, number)])
            self.told[square] = number
        return True

    def wrong_card(self, pick: int) -> bool:
        """The table deals, and the mover takes another card than their phone shows and puts
        it where the dealt one may go: the table counts the dealt card, the drawing shows it,
        and the mover says "that was not my card" on their phone and swaps the card shown in."""
        if not self._person_places():
            return False
        action = self._choose(pick)
        supply = self.game.hand_supply(self.state, self._mover()) or {}
        others = [n for n, k in sorted(supply.items()) if k > 0
                  and not (isinstance(action, Place) and n == action.number)]
        if not isinstance(action, Place) or not others:
            return False
        self.tally.mistakes += 1
        self.allow()
        self.put(action.cell, Stone(self._mover(), others[pick % len(others)]))
        self.reconcile([action])
        self.told[action.cell] = action.number
        return True

    def forget_flip(self, pick: int) -> bool:
        """Pieces wait to be turned over, and the next player puts a piece down anyway."""
        nxt = self.view["table"]["next"]
        if nxt["code"] != "turn_over" or self.game.moves_pieces or self.state.over:
            return False
        options = [a for a in self.game.legal_actions(self.state) if isinstance(a, Place)
                   and a.cell not in self.world]
        if not options or self.state.phase == BLANKS_PHASE:
            return False
        action = options[pick % len(options)]
        self.tally.mistakes += 1
        self.allow()
        self.put(action.cell, Stone(self._mover(), action.number))
        self.reconcile([])
        return True

    def knock(self, pick: int) -> bool:
        """A hand knocks a piece of the game off the board, or onto a free square beside it."""
        if self.over or self.told:
            return False
        owed = set(self.view["table"]["unturned"]) | set(
            s for s, w in self.view["table"]["signals"].items() if w == "flip")
        pieces = sorted(s for s in self.view["game"]["cells"] if s in self.world
                        and s not in owed)
        if not pieces:
            return False
        square = pieces[pick % len(pieces)]
        self.tally.mistakes += 1
        self.allow()
        # A piece in the air that may be borne off is off for good once another player's
        # piece moves: a knocked one looks just like that to the table.
        asked = self.view["table"]["prompt"]
        offer = [Move(tuple(asked["path"]))] if asked and asked["kind"] == "bear_off" else []
        stone = self.lift(square)
        # A piece of the mover's knocked onto a free square could be a move: in a game of
        # moves a knock only lifts.
        if pick % 2 and not self.game.moves_pieces:
            free = [c for c in self.game.geometry.neighbours_of(square) if c not in self.world]
            if free:
                del self.aside[square]
                self.put(free[pick % len(free)], stone)
        self.reconcile(self._candidates() + offer)
        return True

    def lift_wrong(self, pick: int) -> bool:
        """Asked to take a piece away, or to move one, a hand lifts another piece."""
        nxt = self.view["table"]["next"]
        asked = {"take_away": [nxt["params"].get("square")],
                 "put_right": [s for s, w in self.view["table"]["signals"].items()
                               if w in ("extra", "illegal")],
                 "move": []}.get(nxt["code"])
        if asked is None or self.told:
            return False
        owed = set(self.view["table"]["unturned"])
        pieces = sorted(s for s in self.view["game"]["cells"]
                        if s in self.world and s not in asked and s not in owed)
        if nxt["code"] == "move":  # in a game of moves: a piece that is not the mover's
            pieces = [s for s in pieces if self.view["game"]["cells"][s]["owner"]
                      != self.state.to_move]
        if not pieces:
            return False
        self.tally.mistakes += 1
        self.allow()
        self.lift(pieces[pick % len(pieces)])
        self.reconcile([])
        return True

    def undo(self, confirm: bool) -> bool:
        """Tap Undo; a question (taking back more, or another player's action) is answered
        ``confirm``."""
        if not self.view["table"]["can_undo"]:
            return False
        before = len(self.actions)
        pending = self.view["table"]["prompt"]
        self.tally.undos += 1
        self.allow(2 * MISTAKE_ALLOWANCE)
        self.tap({"type": "undo"}, confirm=confirm)
        self.reconcile_undo()
        if len(self.actions) == before and pending is not None:
            self.intent = None  # a piece waiting for its number, cancelled
        return True

    def redo(self) -> bool:
        """Tap Redo: what Undo took comes back."""
        if not self.view["table"].get("can_redo"):
            return False
        assert self.redoable, "the panel offers Redo, but nothing was taken back"
        action, player = self.redoable[-1]
        self.tally.redos += 1
        self.allow(2 * MISTAKE_ALLOWANCE)
        assert self.tap({"type": "redo"}), "Redo is offered, but the table refused it"
        self.reconcile([action])
        assert self.actions and self.actions[-1] == action, "Redo did not put back the action"
        return True

    def quick_undos(self, taps: int = 5) -> bool:
        """Another phone taps Undo several times quickly and answers no question: at most the
        actor's own last action is taken back."""
        if not self.actions or self.over:
            return False
        before = len(self.actions)
        pending = self.view["table"]["prompt"], self.view["table"]["next"]
        self.allow(2 * MISTAKE_ALLOWANCE)
        for _ in range(taps):
            self.tally.undos += 1
            self.tap({"type": "undo"}, confirm=False)
            self.reconcile_undo()
        if (self.view["table"]["prompt"], self.view["table"]["next"]) != pending:
            self.intent = None  # what was under way was cancelled (a piece in the air stays)
        assert len(self.actions) >= before - 1, (
            f"{taps} quick taps on Undo took back {before - len(self.actions)} actions "
            "without a question")
        return True

    def two_phones(self, pick: int) -> bool:
        """Two phones tap the same number for the new piece at the same moment: it counts
        once."""
        table = self.view["table"]
        nxt = table["next"]
        if nxt["code"] != "say_number" or nxt["actor"] in self.computers or self.told:
            return False
        square = nxt["params"]["square"]
        stone = self.world.get(square)
        if stone is None or stone.number not in table["prompt"]["choices"]:
            return False
        data = {"type": "number", "square": square, "number": stone.number}
        results: list[bool] = []
        start = threading.Barrier(2)

        def tap() -> None:
            start.wait()
            try:
                self.table.input(data)
                results.append(True)
            except InputError:
                results.append(False)

        threads = [threading.Thread(target=tap) for _ in range(2)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        self.tally.taps += 2
        before = len(self.actions)
        self.look()
        self.reconcile(self._candidates())
        assert len(self.actions) == before + 1, "two phones' taps did not count exactly once"
        assert results.count(True) >= 1
        return True

    def reload(self) -> bool:
        """The page is loaded again: it shows what the table shows, nothing else changes."""
        shown = self.view
        again = self.look()
        assert again == shown, "the table's view changed by itself (a reload shows another)"
        return True

    def power_cut(self) -> bool:
        """The power goes and comes back: a new table on the same journal and the same board.
        The players put right what the table names (a piece waiting for its number, faces it
        cannot see)."""
        if self.view["table"]["clearing"]:
            return False
        self.tally.power_cuts += 1
        self.allow(3 * MISTAKE_ALLOWANCE)
        self.log.append("power cut")
        self.table.close()
        self.table = self._open_table()
        self.look()
        self.reconcile([])
        # The sensors cannot tell faces: the table names the pieces to check.
        message = self.view["table"]["message_code"] or {}
        check = message.get("params", {}).get("squares", []) \
            if message.get("code") in ("resumed_check_faces", "over_check_faces") else []
        cells = self.view["game"]["cells"]
        for square in check:
            stone = self.world.get(square)
            if stone is not None and stone.owner != cells[square]["owner"]:
                self.turn(square)
        self.intent = None
        self.landed = []
        return True


def _short(doc: Mapping[str, Any]) -> str:
    keep = {k: doc.get(k) for k in ("to_move", "over", "scores", "phase")}
    return f"{keep} cells={len(doc.get('cells', {}))}"


def games(players: Callable[[type[Game]], Iterator[int]] | None = None) -> Iterator[
        tuple[str, int]]:
    """Every registered game at every player count it allows."""
    from sudoku_table.rules.game import all_variants

    for cls in all_variants():
        for n in range(cls.min_players, cls.max_players + 1):
            yield cls.id, n


def play_out(player: ModelPlayer, steps: int, pick: Callable[[], int]) -> None:
    """Follow the bar to the end of the game (at most ``steps`` steps), checking every step."""
    player.check()
    for _ in range(steps):
        if player.settled:
            return
        player.follow(pick())
        player.check()
    raise Stuck(f"the game did not end in {steps} steps")

