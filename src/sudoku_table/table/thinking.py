"""The computer's and the hint's thinking (``Table.thinking``): each search runs in a thread of
its own (``strong`` may take a second; the sensors and the panel never wait for it) and hands
its answer in through the table's ``Act``, which takes it under the table's lock if the game is
still where the search began."""

from __future__ import annotations

import logging
import threading
from dataclasses import dataclass

from sudoku_table.ai import Advice, ComputerConfig, advise, choose
from sudoku_table.rules.actions import Action, EndTurn
from sudoku_table.rules.game import State
from sudoku_table.rules.wording import N_

from .acting import Act
from .companion import Companion
from .errors import CannotSave, InputError
from .keeping import Keeper
from .sessions import Current

log = logging.getLogger(__name__)


@dataclass(frozen=True, eq=False)
class Search:
    """One search: for the game of ``companion`` in ``state``, with the computer's (or the
    hinted player's) ``hand`` as known then."""

    companion: Companion
    state: State
    hand: int | None

    def is_for(self, companion: Companion, state: State) -> bool:
        """Searching this very game in this very state (a new state is a new object)."""
        return self.companion is companion and self.state is state

    def wanted(self, current: Companion | None) -> bool:
        """The computer's action is still wanted: ``current`` is this game, still in this
        state, with the same hand, and still the computer's turn."""
        c = self.companion
        return (c is current and c.state is self.state and c.known_hand == self.hand
                and c.computer_turn)


def seed(game_id: int | None, companion: Companion) -> int:
    """A search's seed: the same game at the same action always plays the same."""
    return (game_id or 0) * 1009 + len(companion.actions)


def take_choice(search: Search, action: Action | None, detail: str) -> bool:
    """The computer's action (or None: the engine could not answer, ``detail``) becomes the
    game's plan; an end of turn counts at once (True then: the table keeps it)."""
    c, state = search.companion, search.state
    if action is None:
        c.computer.chose(state, None)
        c.say("computer_failed", detail=detail)
        return False
    c.computer.chose(state, action)
    if isinstance(action, EndTurn):  # nothing to do on the board: it counts now
        c.commit(action)
        return True
    return False


def hintable(c: Companion | None) -> Companion:
    """The game whose mover may ask for a hint now (``InputError`` saying why not)."""
    if c is None:
        raise InputError(N_("no game is running: choose a game first"))
    if c.state.over:
        raise InputError(N_("the game is over: there is nothing to hint"))
    if not c.hints:
        raise InputError(N_("hints are switched off for this game: switch them on "
                            "to ask for one"))
    if c.clearing or c.setting_up:
        raise InputError(N_("set up the board first: then ask for a hint"))
    if c.mover in c.computers:
        raise InputError(N_("it is the computer's turn: hints are for people"))
    return c


class Thinking:
    """The searches under way for ``current``'s game. The table starts them under its lock
    (``think``, ``ask_hint``); each search's thread hands its answer in through ``act``
    (``_chosen``, ``_advised``), kept if the game still stands where the search began."""

    def __init__(self, act: Act, config: ComputerConfig, current: Current,
                 keeper: Keeper) -> None:
        self._act = act
        self._config = config
        self._current = current
        self._keeper = keeper
        self._choosing: list[Search] = []
        self._hinting: list[Search] = []

    @property
    def idle(self) -> bool:
        """No search of the computer or of a hint under way."""
        return not self._choosing and not self._hinting

    def hinting(self, companion: Companion, state: State) -> bool:
        """A hint is being searched for this game in this state."""
        return any(s.is_for(companion, state) for s in self._hinting)

    def _search_for(self, search: Search, level: str, seed: int) -> None:
        """Search the computer's action, unless the same search is under way."""
        if self._under_way(self._choosing, search):
            return
        self._choosing.append(search)
        threading.Thread(target=self._choose, name="computer", daemon=True,
                         args=(search, level, seed)).start()

    def _hint_for(self, search: Search, seed: int) -> None:
        """Search a hint, unless the same search is under way."""
        if self._under_way(self._hinting, search):
            return
        self._hinting.append(search)
        threading.Thread(target=self._advise, name="hint", daemon=True,
                         args=(search, seed)).start()

    def _done(self, search: Search) -> None:
        """The search has answered (called under the table's lock, before it takes it)."""
        for searches in (self._choosing, self._hinting):
            if search in searches:
                searches.remove(search)

    def think(self) -> None:
        """Under the table's lock, after every change: when a computer seat is to move and its
        action is not known yet, draw its card where the table draws them (journaled before
        anyone sees it), then start searching for its action."""
        c = self._current.companion
        if c is None:
            return
        if self._keeper.failure is None:  # else drawn once the table can save (the retry's bump)
            try:
                c.draw_for_computer()
            except CannotSave:
                return
        if not c.computer_turn or c.needs_hand or c.expect is not None:
            return
        mover = c.mover
        if mover in c.computer.remote:
            return  # its action arrives from the other table (``Table.remote``)
        assert mover is not None
        self._search_for(Search(c, c.state, c.known_hand), c.computers[mover],
                        seed(self._current.id, c))

    def ask_hint(self, c: Companion) -> None:
        """Under the table's lock: search a hint for the person to move in ``c`` (checked by
        ``hintable``), unless it is known already; the view shows it once found (the
        ``hint`` light and its reasons, ``table.hint``). Changes nothing in the game."""
        if c.advice_now() is None:
            self._hint_for(Search(c, c.state, c.hint_hand()), seed(self._current.id, c))

    def _chosen(self, search: Search, action: Action | None, detail: str) -> None:
        """The computer's action found (or None: the engine could not answer, ``detail``)."""
        def take() -> bool:
            self._done(search)
            if not search.wanted(self._current.companion):
                return False  # stale: the game went on meanwhile
            if take_choice(search, action, detail):
                self._keeper.after(search.companion)
            return True
        self._act(take)

    def _advised(self, search: Search, advice: Advice | None) -> None:
        """A hint found (or None: none could be)."""
        c, state = search.companion, search.state

        def take() -> bool:
            self._done(search)
            if advice is not None and self._current.companion is c and c.state is state:
                c.computer.advised(state, search.hand, advice)
            return True
        self._act(take)

    @staticmethod
    def _under_way(searches: list[Search], search: Search) -> bool:
        return any(s.is_for(search.companion, search.state) and s.hand == search.hand
                   for s in searches)

    def _choose(self, search: Search, level: str, seed: int) -> None:
        action: Action | None = None
        detail = ""
        try:
            action = choose(search.companion.game, search.state, level=level, seed=seed,
                            hand=search.hand, budget=self._config.budget(level))
        except Exception as e:  # the engine must never stop the game: people play on
            log.exception("the computer could not choose")
            detail = str(e)
        self._chosen(search, action, detail)

    def _advise(self, search: Search, seed: int) -> None:
        advice = None
        try:
            advice = advise(search.companion.game, search.state, hand=search.hand, seed=seed,
                            budget=self._config.budget("strong"))
        except Exception:  # a hint that cannot be found is no reason to stop the game
            log.exception("no hint could be found")
        self._advised(search, advice)
