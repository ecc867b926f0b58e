"""The table service: one game, the sensors, the LEDs, the journal and the panel, thread-safe.

Sensor events arrive on the scanning thread and panel inputs on web threads; one lock orders
them. Each accepted action is journaled (on disk) before the new frame is shown; an action the
journal cannot take is not accepted but held until a write succeeds (docs/DESIGN.md, "When the
disk fills or fails"), and the view's ``table.saving`` says so. Frames are
shown outside the lock, newest first wins, so a slow LED chain never stalls the panel or the
scanner. The sensors' tentative changes (felt a few ms after the switch, before the piece has
come to rest) only light their squares' LEDs: the game hears a change once it is confirmed.
A small timer thread finishes what waits for the board to settle (a Halma jump sequence, a
take-back made on the board).
"""

from __future__ import annotations

import logging
import os
import threading
import time
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

from sudoku_table.ai import Advice, ComputerConfig
from sudoku_table.firmware.ports import (
    Display,
    Frame,
    SensorEvent,
    SensorFault,
    SensorSource,
)
from sudoku_table.rules.actions import Action
from sudoku_table.rules.errors import RulesError
from sudoku_table.rules.game import variant_class
from sudoku_table.rules.squares import is_square
from sudoku_table.rules.wording import N_

from . import announce, lighting, present, recovery, sessions, showing, signals, thinking
from .archive import MAX_GROWTH, ImportPlan, Readable
from .companion import Companion
from .errors import CannotSave, ConfirmNeeded, InputError, StaleInput
from .finished import FinishedGames
from .inputs import parse_input
from .journal import CHECKPOINT_BYTES, OTHER, RESERVE_BYTES, Journal, StoredGame
from .keeping import RETRY_SECONDS, SPACE_SECONDS, Keeper
from .lighting import LedOutput
from .notices import Notices
from .replaying import BoardReplay
from .reviews import Reviews
from .sessions import Current, Resolver, Session
from .shelf import Shelf
from .thinking import Search, Thinking
from .view import View, render

log = logging.getLogger(__name__)

MAX_FAULTS = 20


class Table:
    """The companion between the wires and the rules (see the package docstring)."""

    def __init__(
        self,
        display: Display | None = None,
        journal: str | os.PathLike[str] | None = None,
        *,
        clock: Callable[[], float] = time.monotonic,
        resolve: Resolver = variant_class,
        settle: float = 1.0,
        ticker: bool | None = None,
        computer: ComputerConfig | None = None,
        reserve: int = RESERVE_BYTES,
        checkpoint: int = CHECKPOINT_BYTES,
        review_workers: str = "process",
    ) -> None:
        """``resolve`` finds a variant class by id (tests pass their own small games);
        ``settle`` is how long a Halma jump or a take-back on the board must stand still;
        ``ticker`` runs the settle timer in a thread (default: only with the real clock; with
        a test clock, call ``tick()``); ``computer`` is each level's effort (the config's
        ``[computer]`` section); ``reserve`` and ``checkpoint`` are the journal's (bytes kept
        for the game in progress, WAL size before a checkpoint); ``review_workers`` is where
        reviews are computed (``reviews.Reviews``: a worker process, or a thread for tools and
        tests)."""
        self._lock = threading.Lock()
        self._cond = threading.Condition(self._lock)
        self._leds = LedOutput(display, self._leds_failed)
        self._clock = clock
        self._resolve = resolve
        self._settle = settle
        self._occupied: set[str] = set()
        self._felt: set[str] = set()
        """The tentative board: squares the sensors feel occupied before the game hears it."""
        self._faults: list[dict[str, Any]] = []
        self._notices = Notices()
        self._current = Current()
        self._sensors: SensorSource | None = None
        self._closed = False
        self._view: tuple[int, View] | None = None
        self._replay: BoardReplay | None = None
        self._look: present.Look | None = None
        self._game_frame: Frame = {}
        self.version = 0
        self._answers: tuple[Any, ...] = ()
        self._answered = 0
        """The version of the last change an input answers (``_answers``): an input made from
        an older view is stale."""
        self._computer = computer or ComputerConfig()
        self._thinking = Thinking(self._computer, self._chosen, self._advised)
        self._announcer = announce.Announcer()
        self._keeper = Keeper(Path(journal) if journal is not None else None, reserve=reserve,
                              checkpoint=checkpoint, clock=clock, current=self._current,
                              notices=self._notices, replay=self._replay_stored)
        self._keeper.open()
        self._finished = FinishedGames(self._keeper, self._lock, self._notices, self._bump)
        self.reviews = Reviews(self._keeper.beside(".reviews"), self._computer, review_workers)
        """The reviews of finished games, kept beside the journal (``reviews``)."""
        with self._lock:
            self._bump()
        self._ticker = self._start_ticker() if (
            ticker if ticker is not None else clock is time.monotonic) else None
        self._show()

    # --- journal (``keeping``) --------------------------------------------------------------

    @property
    def _journal(self) -> Journal | None:
        return self._keeper.journal

    @property
    def _companion(self) -> Companion | None:
        return self._current.companion

    def _replay_stored(self, stored: StoredGame) -> recovery.Recovered | recovery.Unplayable | None:
        """A stored game read back onto the table's board (``recovery.recover``)."""
        return recovery.recover(stored, self._resolve, board=self._occupied,
                                record=self._write, settle=self._settle)

    def _write(self, kind: str, data: Any) -> None:
        """Journal one entry of the game (``Keeper.write``): the companion's way to the disk."""
        self._keeper.write(kind, data)

    def saving(self) -> dict[str, Any]:
        """Whether the table saves (``table.saving`` of the view): ``state`` ``ok``, ``low``
        (the reserve is in use, or could not be kept: finish the game, free space) or
        ``failing`` (nothing counts until a write succeeds); ``cause``, ``detail``, the
        ``held`` entry waiting to be saved, and whether the finished game's record waits."""
        with self._lock:
            return self._keeper.saving()

    # --- versions, views and frames ----------------------------------------------------------

    def _bump(self) -> None:
        """Called under the lock after any change the players can see."""
        self.version += 1
        self._view = None
        companion = self._companion
        if companion is not None:
            self._think_locked()  # may write (the computer's card) before anything is shown
        self._keeper.watch_space()  # the journal may have given its reserve to the game
        saving = self._keeper.saving_step()
        if companion is None:
            self._look = None
        else:
            before = self._look.next["actor"] if self._look is not None else None
            self._look = present.look(companion, saving)  # once per change: frame and view
            companion.keep_message_for(self._look.next["actor"], before)
        answers = showing.answers(self._companion, self._look)
        if not showing.same_answers(answers, self._answers):
            self._answers, self._answered = answers, self.version
        self._announce_locked()
        self._game_frame = lighting.game_frame(self._look, saving is not None)
        self._feedback_frame()
        self._cond.notify_all()

    def _feedback_frame(self) -> None:
        """The game's frame with the feedback light on every square whose tentative state
        differs from the confirmed board (called under the lock)."""
        frame = self._game_frame if self._replay is None else self._replay.frame()
        unconfirmed = self._felt ^ self._occupied
        if unconfirmed:
            frame = {**frame, **dict.fromkeys(unconfirmed, signals.FELT)}
        self._leds.put(frame)

    def _show(self) -> None:
        """Show the newest frame, outside the main lock (``lighting``)."""
        self._leds.show()

    def _leds_failed(self, error: Exception) -> None:
        with self._lock:
            self._notices.notice("leds_failed", detail=str(error))

    def _view_locked(self) -> View:
        if self._view is not None and self._view[0] == self.version:
            return self._view[1]
        table = showing.table_part(
            occupied=self._occupied, felt=self._felt, faults=self._faults,
            notices=list(self._notices), recovery=self._keeper.damage.recovery,
            version=self.version, saving=self._keeper.saving(),
            replay=self._replay.view() if self._replay is not None else None)
        companion = self._companion
        game_doc = None
        if companion is not None:
            look = self._look if self._look is not None else present.look(
                companion, self._keeper.saving_step())
            hint = showing.hint_view(companion, self._thinking.hinting(companion,
                                                                       companion.state))
            table.update(showing.game_part(companion, look, self._current.names,
                                           self._current.colors, hint))
            game_doc = companion.document()
        if table["message"] is None and self._notices:
            table["message"] = render(self._notices.last())
        table["say"] = showing.said(self._announcer.last)
        view: View = {"game": game_doc, "table": table, "version": self.version}
        self._view = (self.version, view)
        return view

    # --- what the table says aloud (``announce``) ---------------------------------------------

    def _announce_locked(self) -> None:
        c, look = self._companion, self._look
        now = announce.moment(c, look) if c is not None and look is not None else None
        self._announcer.observe(now, self._current.seats())

    def on_announcement(self, listener: announce.Listener) -> None:
        """Call ``listener`` with every new announcement, under the table's lock: it must
        only queue it (the table's speaker speaks in a thread of its own)."""
        with self._lock:
            self._announcer.listen(listener)

    def repeat_announcement(self) -> bool:
        """Have the listeners say the last announcement again; False when there is none."""
        with self._lock:
            if self._announcer.last is None:
                return False
            self._announcer.repeat()
            return True

    def view(self) -> View:
        """The view of docs/api.md: the state document and what the table shows and asks."""
        with self._lock:
            return self._view_locked()

    def frame(self) -> Frame:
        """The LED frame for the current view."""
        with self._lock:
            return self._leds.frame

    # --- sensors -----------------------------------------------------------------------------

    def attach(self, sensors: SensorSource) -> None:
        """Take the sensors' board as the physical board, then listen to their events."""
        with self._lock:
            self._sensors = sensors
            self._take_board_locked(set(sensors.occupied()))
        self._show()
        sensors.start(self.handle_sensor, self.handle_fault, self.handle_felt)

    def set_board(self, occupied: set[str] | frozenset[str] | list[str]) -> View:
        """Take ``occupied`` as the physical board (tools and tests without a sensor source)."""
        squares = set(occupied)
        bad = [s for s in squares if not is_square(s)]
        if bad:
            raise InputError(N_("{bad} is not a square a1..i9"), bad=repr(bad[0]))
        with self._lock:
            self._take_board_locked(squares)
            view = self._view_locked()
        self._show()
        return view

    def _take_board_locked(self, squares: set[str]) -> None:
        """Under the lock: ``squares`` are the physical board, confirmed and felt."""
        self._occupied.clear()
        self._occupied.update(squares)
        self._felt = set(squares)
        if self._companion is not None:
            self._companion.set_board(squares)
        self._bump()

    def handle_felt(self, event: SensorEvent) -> None:
        """One tentative change: the square's LED shows it at once; the game does not hear it
        (it waits for the confirmed change). Never raises into the scanning thread."""
        square, occupied = event.square, bool(event.occupied)
        if not is_square(square):
            return  # the confirmed event, if one follows, tells the players
        with self._lock:
            if self._closed or (square in self._felt) == occupied:
                return
            (self._felt.add if occupied else self._felt.discard)(square)
            self._feedback_frame()
            self._felt_changed()
        self._show()

    def _felt_changed(self) -> None:
        """Under the lock: the tentative board changed but the game did not (or a replay is
        shown or left: the game's own frame is not touched); a new view version shows it
        (``table.felt``) at once, as the square's LED does."""
        self.version += 1
        self._view = None
        self._cond.notify_all()

    def handle_sensor(self, event: SensorEvent) -> None:
        """One confirmed change on one square; never raises into the scanning thread."""
        square, occupied = event.square, bool(event.occupied)
        if not is_square(square):
            with self._lock:
                self._notices.notice("unknown_square", square=repr(square))
                self._bump()
            self._show()
            return
        with self._lock:
            if self._closed:
                return
            ended = self._end_replay_locked()  # a hand at the board: back to the game at once
            felt = (square in self._felt) != occupied
            (self._felt.add if occupied else self._felt.discard)(square)
            try:
                companion = self._companion
                if companion is not None:  # it updates the board the two share, once
                    changed = companion.sensor(square, occupied, self._clock())
                    self._keeper.after(companion)
                else:
                    changed = (square in self._occupied) != occupied
                    (self._occupied.add if occupied else self._occupied.discard)(square)
            except Exception:  # a rules bug must not kill the scanner
                log.exception("a sensor event could not be handled")
                self._notices.notice("internal_error")
                changed = True
            if changed:
                self._bump()
            elif felt:
                self._feedback_frame()
                self._felt_changed()
        if changed or felt or ended:
            self._show()

    def handle_fault(self, fault: SensorFault) -> None:
        """A sensor fault: reported on the panel, never taken as a move."""
        with self._lock:
            self._faults.append({"square": fault.square, "kind": fault.kind,
                                 "detail": fault.detail})
            del self._faults[:-MAX_FAULTS]
            self._bump()
        self._show()

    def wait_for_occupied(self, square: str, occupied: bool, timeout: float) -> bool:
        """True once the sensors have reported ``square`` in that state (False on timeout)."""
        with self._cond:
            return self._cond.wait_for(lambda: (square in self._occupied) == occupied,
                                       timeout=timeout)

    def wait_for_change(self, version: int, timeout: float,
                        stop: threading.Event | None = None) -> tuple[int, View]:
        """Block until the view differs from ``version`` (or timeout, or ``stop`` is set and
        ``wake`` called); the newest view."""
        with self._cond:
            self._cond.wait_for(lambda: self.version != version or self._closed
                                or (stop is not None and stop.is_set()), timeout=timeout)
            return self.version, self._view_locked()

    def wake(self) -> None:
        """Wake every ``wait_for_change`` now, so that waiters see their stop flag at once."""
        with self._cond:
            self._cond.notify_all()

    # --- the game ----------------------------------------------------------------------------

    def new_game(self, variant: str, players: int | None = None,
                 options: Mapping[str, Any] | None = None,
                 setup: Mapping[str, Any] | None = None, hints: bool = False,
                 names: list[str] | None = None, replace: bool = False,
                 colors: list[str] | None = None,
                 computers: Mapping[Any, str] | None = None,
                 computer_draws: bool = False, deal: bool = False) -> View:
        """Start a game (the previous unfinished one stays in the journal); returns the view.

        ``computers`` names the seats the computer plays, with its level (``{1: "strong"}``);
        ``computer_draws``: the table draws the computer's cards (games with own piles only);
        ``deal``: the table deals every seat's cards or stones (games with hidden hands).
        A running game that has actions is replaced only with ``replace`` (``ConfirmNeeded``
        otherwise): the players are asked first."""
        asked = sessions.requested(variant, players, options, setup, hints, names, colors,
                                   computers, computer_draws, deal)
        try:
            session, companion = sessions.open_game(asked, self._resolve, board=self._occupied,
                                                    record=self._write, settle=self._settle)
        except RulesError as e:
            raise InputError(str(e)) from None
        refused: CannotSave | None = None
        with self._lock:
            try:
                self._start_locked(session, companion, replace)
            except CannotSave as e:
                refused = e  # nothing changed, but the view now says the table cannot save
            self._bump()
            view = self._view_locked()
        self._show()
        if refused is not None:
            raise refused
        return view

    def _start_locked(self, session: Session, companion: Companion, replace: bool) -> None:
        """Under the lock: the new game's start written first (a game the journal cannot keep
        does not start: ``CannotSave``), then it becomes the table's."""
        self._keeper.ready_for_new()
        running = self._companion
        if running is not None and running.actions and not running.state.over:
            if not replace:
                raise ConfirmNeeded(N_("{game} is still running: a new game ends it. It is "
                                       "kept, marked unfinished and with its record, among "
                                       "the games on the Table page."), "replace",
                                    game=running.game.name)
            self._keeper.keep_running()
        self._end_replay_locked()
        self._current.take(self._keeper.start(session, companion), companion)
        companion.set_board(self._occupied)
        sessions.begin(companion)

    def input(self, data: Mapping[str, Any], seat: int | None = None) -> View:
        """One panel input of docs/api.md; ``InputError`` (changing nothing) if unusable.
        ``seat``: sent by that seat's own phone, which acts for its own seat only.

        With ``version`` (the view the input was made from), an input older than the last
        change it answers (``showing.answers``), or from a view this table never showed (newer
        than its version: from before a restart), is refused with ``StaleInput``, which
        carries the current view."""
        parsed = parse_input(data)
        refused: CannotSave | None = None
        version = parsed.pop("version", None)
        with self._lock:
            if version is not None and not self._answered <= version <= self.version:
                raise StaleInput(N_("the game changed before this tap arrived (on another "
                                    "phone or on the board): nothing was done; look again and "
                                    "tap again"), self._view_locked())
            companion = self._companion
            if companion is None:
                raise InputError(N_("no game is running: choose a game first"))
            self._end_replay_locked()
            try:
                companion.input(parsed, seat)
            except RulesError as e:
                raise InputError(str(e)) from None
            except CannotSave as e:
                refused = e  # nothing changed, but the view now says the table cannot save
                if e.cause == OTHER and self._keeper.failure is not None:
                    e.cause = self._keeper.failure.cause  # the companion cannot know why
            finally:
                self._keeper.after(companion)
            self._bump()
            view = self._view_locked()
        self._show()
        if refused is not None:
            raise refused
        return view

    def hand(self, seat: int) -> showing.Hand | None:
        """Seat ``seat``'s own card or stone now, where the table deals it (``showing.hand``):
        for that seat's phone only, never part of the shared view."""
        with self._lock:
            companion = self._companion
            return showing.hand(companion, seat) if companion is not None else None

    def record(self) -> dict[str, Any] | None:
        """The current game's record (docs/records.md), or None before a game is chosen."""
        with self._lock:
            return self._current.record()

    @property
    def game_id(self) -> int | None:
        """The journal's number of the game on the table (None before one, or unjournaled)."""
        with self._lock:
            return self._current.id

    def finished_game(self, game_id: int) -> dict[str, Any] | None:
        """One finished game, or None (``FinishedGames.game``)."""
        return self._finished.game(game_id)

    def shelf(self) -> Shelf | None:
        """The finished games to read beside the game (``FinishedGames.shelf``)."""
        return self._finished.shelf()

    def finished_games(self) -> list[dict[str, Any]]:
        """Every finished game kept, oldest first (``FinishedGames.every``)."""
        return self._finished.every()

    def import_finished(self, document: object) -> ImportPlan:
        """``import_file`` for a file already parsed (tools and tests)."""
        return self._finished.import_document(document)

    def import_file(self, stream: Readable, max_growth: int = MAX_GROWTH,
                    separate: bool = False) -> ImportPlan:
        """Add the finished games of an exported file (``FinishedGames.import_file``)."""
        return self._finished.import_file(stream, max_growth, separate)

    # --- the computer ----------------------------------------------------------------------

    def _think_locked(self) -> None:
        """Under the lock, after every change: when a computer seat is to move and its action
        is not known yet, draw its card where the table draws them (journaled before anyone
        sees it), then start searching for its action (``thinking``)."""
        c = self._companion
        if c is None or self._closed:
            return
        if self._keeper.failure is None:  # else drawn once the table can save (the retry's bump)
            try:
                c.draw_for_computer()
            except CannotSave:
                return
        if not c.computer_turn or c.needs_hand or c.expect is not None:
            return
        mover = c.mover
        assert mover is not None
        self._thinking.search_for(Search(c, c.state, c.known_hand), c.computers[mover],
                                  thinking.seed(self._current.id, c))

    def _chosen(self, search: Search, action: Action | None, detail: str) -> None:
        """The computer's action found (or None: the engine could not answer, ``detail``)."""
        with self._lock:
            self._thinking.done(search)
            if self._closed or not search.wanted(self._companion):
                self._cond.notify_all()  # stale: the game went on meanwhile
                return
            if thinking.take_choice(search, action, detail):
                self._keeper.after(search.companion)
            self._bump()
        self._show()

    def wait_for_computer(self, timeout: float = 10.0) -> bool:
        """True once no search of the computer or of a hint is under way (False on timeout):
        for tests and tools that play against the computer."""
        with self._cond:
            return self._cond.wait_for(lambda: self._thinking.idle or self._closed,
                                       timeout=timeout)

    def hint(self) -> View:
        """Ask for a hint for the person to move: the engine's best action, shown with the
        ``hint`` light and its reasons in the view (``table.hint``) once found. Changes nothing
        in the game; ``InputError`` when no hint can be given now."""
        with self._lock:
            c = thinking.hintable(self._companion)
            self._end_replay_locked()
            if c.advice_now() is None:
                self._thinking.hint_for(Search(c, c.state, c.hint_hand()),
                                        thinking.seed(self._current.id, c))
            self._bump()
            view = self._view_locked()
        self._show()
        return view

    def _advised(self, search: Search, advice: Advice | None) -> None:
        """A hint found (or None: none could be)."""
        c, state = search.companion, search.state
        with self._lock:
            self._thinking.done(search)
            if advice is not None and self._companion is c and c.state is state:
                c.computer.advised(state, search.hand, advice)
            self._bump()
        self._show()

    # --- a finished game replayed on the board (``replaying``) ------------------------------

    def show_replay(self, game_id: int, move: int) -> View:
        """Show move ``move`` (counted from 1) of finished game ``game_id`` on the LEDs, with
        the computer's better move where the review has judged it. The running game is left
        as it is. ``InputError`` for a game or move that is not there."""
        entry = self.finished_game(game_id)
        if entry is None:
            raise InputError(N_("there is no finished game {game_id}"), game_id=game_id)
        record = entry["record"]
        total = len(record.get("actions") or [])
        if not 1 <= move <= total:
            raise InputError(N_("game {game_id} has moves 1 to {total}, not {move}"),
                             game_id=game_id, total=total, move=move)
        judged = self.reviews.progress(record).judged
        best = judged[move - 1].best if move <= len(judged) else None
        with self._lock:
            replay = self._replay
            if replay is None or replay.game_id != game_id:
                try:
                    replay = BoardReplay(game_id, record)
                except (RulesError, ValueError) as e:
                    raise InputError(N_("game {game_id} cannot be replayed: {detail}"),
                                     game_id=game_id, detail=str(e)) from None
            replay.go(move - 1, best)
            self._replay = replay
            self._feedback_frame()
            self._felt_changed()
            view = self._view_locked()
        self._show()
        return view

    def leave_replay(self) -> View:
        """End the replay: the LEDs show the running game again, as they were."""
        with self._lock:
            self._end_replay_locked()
            view = self._view_locked()
        self._show()
        return view

    def _end_replay_locked(self) -> bool:
        """Under the lock: end a replay, if one is shown (True then)."""
        if self._replay is None:
            return False
        self._replay = None
        self._feedback_frame()
        self._felt_changed()
        return True

    # --- time --------------------------------------------------------------------------------

    def tick(self) -> None:
        """Finish whatever waited for the board to settle, if its time has come."""
        with self._lock:
            if self._closed:
                return
            now = self._clock()
            changed = False
            changed = self._keeper.tick(now)
            companion = self._companion
            if companion is not None and companion.tick(now):
                self._keeper.after(companion)
                changed = True
            if not changed:
                return
            self._bump()
        self._show()

    def _start_ticker(self) -> threading.Thread:
        ticker = threading.Thread(target=self._tick_loop, name="table-ticker", daemon=True)
        ticker.start()
        return ticker

    def _tick_loop(self) -> None:
        while True:
            with self._cond:
                if self._closed:
                    return
                companion = self._companion
                deadlines = [t for t in (companion.next_deadline() if companion else None,
                                         *self._keeper.deadlines()) if t is not None]
                deadline = min(deadlines) if deadlines else None
                if deadline is None:
                    self._cond.wait(timeout=5.0)
                    continue
                delay = deadline - self._clock()
                if delay > 0:
                    self._cond.wait(timeout=delay)
                    continue
            self.tick()

    # --- LEDs --------------------------------------------------------------------------------

    def led_test(self, step: float = 0.04, wait: bool = False) -> None:
        """Light every square in turn for a moment, then restore the game's frame."""
        self._leds.test(step, wait)

    def set_brightness(self, level: float) -> None:
        """Global LED brightness from 0.0 to 1.0."""
        self._leds.set_brightness(level)

    def close(self) -> None:
        """Stop listening, darken the LEDs and close the journal; idempotent."""
        with self._lock:
            if self._closed:
                return
            self._closed = True
            self._cond.notify_all()
            sensors, self._sensors = self._sensors, None
        if sensors is not None:
            try:
                sensors.stop()
            except Exception:  # closing must always finish
                log.exception("the sensors could not be stopped")
        self._leds.darken()
        self.reviews.close()
        with self._lock:
            if self._journal is not None:
                self._journal.close()
        if self._ticker is not None and self._ticker is not threading.current_thread():
            self._ticker.join(timeout=1.0)

    def __enter__(self) -> Table:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


__all__ = ["RETRY_SECONDS", "SPACE_SECONDS", "Table"]
