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

The table holds its parts, each owning its state: ``sensors`` (the board felt, ``sensing``),
``starting`` (a new game opened and started, a stored one read back), ``thinking`` (the
computer's and the hint's searches), ``replay`` (a finished game shown on the LEDs,
``replaying``), ``ticker`` (the timer, ``ticking``), ``remote`` (a game shared with other
tables), ``finished`` (the finished games and their import), ``reviews``, ``leds``
(``lighting``) and ``announcer`` (what the table says aloud, ``announce``). Parts return what
changed and never call the table: only the table takes its lock, installs the current game
(``_install``) and runs the steps after a change (``after_change``, in the order of
``AFTER_CHANGE``); a part's thread hands its answer in through ``acting.Act``. The frame is
shown by ``show`` outside the lock.
"""

from __future__ import annotations

import logging
import os
import secrets
import threading
import time
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

from sudoku_table.ai import ComputerConfig
from sudoku_table.firmware.ports import Display, SensorEvent, SensorFault, SensorSource
from sudoku_table.network.config import NetworkConfig
from sudoku_table.rules.errors import RulesError
from sudoku_table.rules.game import variant_class
from sudoku_table.rules.squares import is_square
from sudoku_table.rules.wording import N_

from . import announce, sessions, showing
from .companion import Companion
from .conductor import Conductor
from .errors import CannotSave, InputError, NotYourSeat, StaleInput
from .finished import FinishedGames
from .inputs import CARD_INPUTS, parse_input
from .journal import CHECKPOINT_BYTES, OTHER, RESERVE_BYTES
from .keeping import RETRY_SECONDS, Keeper
from .lighting import LedOutput
from .notices import Notices
from .remote import Remote
from .replaying import Replaying
from .reviews import Reviews
from .sensing import Sensors, stop_source
from .sessions import Current, Resolver
from .spacing import SPACE_SECONDS
from .starting import Starting
from .thinking import Thinking, hintable
from .ticking import IDLE_WAIT, Ticker
from .view import View

log = logging.getLogger(__name__)


class Table(Conductor):
    """The companion between the wires and the rules (see the module docstring).

    ``resolve`` finds a variant class by id (tests pass their own small games); ``settle`` is
    how long a Halma jump or a take-back on the board must stand still; ``ticker`` runs the
    settle timer in a thread (default: only with the real clock; with a test clock, call
    ``tick()``); ``computer`` is each level's effort (the config's ``[computer]`` section);
    ``reserve`` and ``checkpoint`` are the journal's (bytes kept for the game in progress, WAL
    size before a checkpoint); ``review_workers`` is where reviews are computed
    (``reviews.Reviews``: a worker process, or a thread for tools and tests)."""

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
        network: NetworkConfig | None = None,
    ) -> None:
        self._start_conducting()
        self.leds = LedOutput(display, self._leds_failed)
        self._notices = Notices()
        self._current = Current()
        self.boot = secrets.token_hex(4)
        """Names this start of the table: versions count again from 0 after a restart, so a
        page compares versions only within one ``boot``."""
        self._computer = computer or ComputerConfig()
        self.announcer = announce.Announcer()
        self._keeper = Keeper(Path(journal) if journal is not None else None, reserve=reserve,
                              checkpoint=checkpoint, clock=clock, current=self._current,
                              notices=self._notices)
        self._clock = clock
        # the parts (the module's docstring says what each is)
        self.sensors = Sensors()
        self.thinking = Thinking(self._act, self._computer, self._current, self._keeper)
        network = network or NetworkConfig()
        self.remote = Remote(self._act, self._install, self._current, self._keeper,
                             broker=network.parsed(), name=network.name, resolve=resolve,
                             club=network.club, start_joined=self.start_joined)
        self.ticker = Ticker(self._current, self._keeper)
        self.starting = Starting(self.sensors.occupied, self._current, self._keeper,
                                 resolve=resolve, settle=settle)
        self._keeper.open(self.starting.recover, self._install)
        self.finished = FinishedGames(self._keeper, self._act, self._notices)
        self.reviews = Reviews(self._keeper.beside(".reviews"), self._computer, review_workers)
        self.replay = Replaying(self.finished, self.reviews)
        self._timer: threading.Thread | None = None
        with self.lock:
            self.remote.connect_locked(self._current.session, self._current.companion)
            self.after_change()
        if ticker if ticker is not None else clock is time.monotonic:
            self._timer = threading.Thread(target=self._run_timer, name="table-ticker",
                                           daemon=True)
            self._timer.start()
        self.show()

    # --- the game ----------------------------------------------------------------------------

    def new_game(self, variant: str, players: int | None = None,
                 options: Mapping[str, Any] | None = None,
                 setup: Mapping[str, Any] | None = None, hints: bool = False,
                 names: list[str] | None = None, replace: bool = False,
                 colors: list[str] | None = None,
                 computers: Mapping[Any, str] | None = None,
                 computer_draws: bool = False, deal: bool = False,
                 seed: int | None = None, remote: Any = None,
                 same_tables: bool = False) -> View:
        """Start a game (the previous unfinished one stays in the journal); returns the view.

        ``computers`` names the seats the computer plays, with its level (``{1: "strong"}``);
        ``computer_draws``: the table draws the computer's cards (games with own piles only);
        ``deal``: the table deals every seat's cards or stones (games with hidden hands);
        ``seed``: the seed of those draws and that deal (default: a random one; a tool that
        plays the same game again passes its own); ``remote``: the seats played at other
        tables (``[1]``), whose join codes the view then shows (``table.join``);
        ``same_tables``: a rematch: the tables of the shared game running here follow into
        this one, each remote seat handed its new code through the old game's last entry.
        A running game that has actions is replaced only with ``replace`` (``ConfirmNeeded``
        otherwise): the players are asked first."""
        session, companion = self.starting.open(sessions.requested(
            variant, players, options, setup, hints, names, colors, computers, computer_draws,
            deal, seed))
        return self._start(self.remote.hosted(session, companion, remote), companion, replace,
                           same_tables)

    def join(self, code: Any, replace: bool = False) -> View:
        """Join the game of another table by its join ``code``: the same game here, this
        table playing the code's seat (``InputError``, or ``NoAnswer`` when that table does
        not answer); a running game is replaced only with ``replace``."""
        session = self.remote.joined(code)
        with self.lock:
            rejoined = self.remote.rejoin_locked(session)
        if rejoined:
            return self._change(lambda: None)
        return self._start(*self.starting.open(session), replace)

    def take_over(self) -> View:
        """At a table that joined a game whose host is gone: host it from here on
        (``InputError`` while the host is there)."""
        return self._change(self.remote.take_over_locked)

    def follow_host(self) -> View:
        """At a table whose game parted from the host's (``table.network.follow``): take the
        host's game; the bar then says how to put the board right (``InputError`` while the
        games agree)."""
        return self._change(self.remote.follow_log_locked)

    def start_joined(self, session: sessions.Session) -> View:
        """The host's next game, joined by itself (a rematch with the same tables): it
        replaces the game here, as the host's new game replaced it there."""
        return self._start(*self.starting.open(session), True)

    def _start(self, session: sessions.Session, companion: Companion, replace: bool,
               same_tables: bool = False) -> View:
        def start_locked() -> None:
            self.starting.make_room(replace)
            self._end_replay_locked()
            self._install(self.starting.write(session, companion), companion)
            companion.set_board(self.sensors.occupied)
            sessions.begin(companion)
            self.remote.connect_locked(self._current.session, companion,
                                       same_tables=same_tables)
        return self._change(start_locked)

    def input(self, data: Mapping[str, Any], seat: int | None = None) -> View:
        """One panel input of docs/api.md; ``InputError`` (changing nothing) if unusable.
        ``seat``: sent by that seat's own phone, which acts for its own seat only.

        With ``version`` (the view the input was made from), an input older than the last
        change it answers (``showing.answers``), or from a view this table never showed (newer
        than its version: from before a restart), is refused with ``StaleInput``, which
        carries the current view."""
        parsed = parse_input(data)
        version = parsed.pop("version", None)

        def answer_locked() -> None:
            if self._answered.stale(version, self.version):
                raise StaleInput(N_("the game changed before this tap arrived (on another "
                                    "phone or on the board): nothing was done; look again and "
                                    "tap again"), self.view_locked())
            companion = self._companion
            if companion is None:
                raise InputError(N_("no game is running: choose a game first"))
            self._end_replay_locked()
            self.remote.check_input(parsed["type"])
            if seat is None and parsed["type"] in CARD_INPUTS and companion.dealer.dealing \
                    and self.holder_locked() is not None:
                # Decided before the card is looked at, in the same words whatever it is:
                # nine tries must not single the card out.
                raise NotYourSeat(N_("this player plays their card from their own phone: "
                                     "only that phone can play it"))
            try:
                companion.input(parsed, seat)
            except RulesError as e:
                raise InputError(str(e)) from None
            except CannotSave as e:
                if e.cause == OTHER and self._keeper.failure is not None:
                    e.cause = self._keeper.failure.cause  # the companion cannot know why
                raise
            finally:
                self._keeper.after(companion)

        return self._change(answer_locked)

    def hand(self, seat: int) -> showing.Hand | None:
        """Seat ``seat``'s own card or stone now, where the table deals it (``showing.hand``):
        for that seat's phone only, never part of the shared view."""
        with self.lock:
            companion = self._companion
            return showing.hand(companion, seat) if companion is not None else None

    def touch(self) -> None:
        """Something every view shows changed outside the game (which seats have a phone): a
        new view for every live view."""
        with self.lock:
            self.after_change()

    def record(self) -> dict[str, Any] | None:
        """The current game's record (docs/records.md), or None before a game is chosen."""
        with self.lock:
            return self._current.record()

    @property
    def game_id(self) -> int | None:
        """The journal's number of the game on the table (None before one, or unjournaled)."""
        with self.lock:
            return self._current.id

    # --- the sensors (``sensing``): the scanning thread calls these ------------------------

    def attach(self, source: SensorSource) -> None:
        """Take the sensors' board as the physical board, then listen to their events."""
        with self.lock:
            self.sensors.source = source
            self._take_board_locked(set(source.occupied()))
        self.show()
        source.start(self.handle_sensor, self.handle_fault, self.handle_felt)

    def set_board(self, occupied: set[str] | frozenset[str] | list[str]) -> View:
        """Take ``occupied`` as the physical board (tools and tests without a sensor source)."""
        squares = set(occupied)
        bad = [s for s in squares if not is_square(s)]
        if bad:
            raise InputError(N_("{bad} is not a square a1..i9"), bad=repr(bad[0]))
        with self.lock:
            self._take_board_locked(squares)
            view = self.view_locked()
        self.show()
        return view

    def _take_board_locked(self, squares: set[str]) -> None:
        self.sensors.take_board(squares)
        companion = self._companion
        if companion is not None:
            companion.set_board(squares)
        self.after_change()

    def handle_felt(self, event: SensorEvent) -> None:
        """One tentative change: the square's LED shows it at once; the game does not hear it
        (it waits for the confirmed change). Never raises into the scanning thread."""
        square, occupied = event.square, bool(event.occupied)
        if not is_square(square):
            return  # the confirmed event, if one follows, tells the players
        with self.lock:
            if self.closed or not self.sensors.feel(square, occupied):
                return
            self.felt_changed_locked()
        self.show()

    def handle_sensor(self, event: SensorEvent) -> None:
        """One confirmed change on one square, handed to the game once (docs/DESIGN.md, "one
        sensor event through them"); never raises into the scanning thread."""
        square, occupied = event.square, bool(event.occupied)
        if not is_square(square):
            def tell() -> bool:
                self._notices.notice("unknown_square", square=repr(square))
                return True
            self._act(tell)
            return
        with self.lock:
            if self.closed:
                return
            ended = self._end_replay_locked()  # a hand at the board: back to the game at once
            felt = self.sensors.confirm(square, occupied)
            try:
                companion = self._companion
                if companion is not None:  # it updates the board the two share, once
                    changed = companion.sensor(square, occupied, self._clock())
                    self._keeper.after(companion)
                else:
                    changed = self.sensors.occupy(square, occupied)
            except Exception:  # a rules bug must not kill the scanner
                log.exception("a sensor event could not be handled")
                self._notices.notice("internal_error")
                changed = True
            if changed:
                self.after_change()
            elif felt:
                self.felt_changed_locked()
        if changed or felt or ended:
            self.show()

    def handle_fault(self, fault: SensorFault) -> None:
        """A sensor fault: reported on the panel, never taken as a move."""
        def keep() -> bool:
            self.sensors.fault(fault)
            return True
        self._act(keep)

    # --- the timer (``ticking``) --------------------------------------------------------------

    def tick(self) -> None:
        """Finish whatever waited for the board to settle or for the disk, if its time has
        come (the timer's thread calls it; with a test clock, the tests)."""
        self._act(lambda: self.ticker.due(self._clock()))

    def _run_timer(self) -> None:
        while True:
            with self.cond:
                if self.closed:
                    return
                deadline = self.ticker.deadline()
                if deadline is None:
                    self.cond.wait(timeout=IDLE_WAIT)
                    continue
                delay = deadline - self._clock()
                if delay > 0:
                    self.cond.wait(timeout=delay)
                    continue
            self.tick()

    # --- the computer and hints (``thinking``), replays (``replaying``) ----------------------

    def hint(self) -> View:
        """Ask for a hint for the person to move (``Thinking.ask_hint``); ``InputError`` when
        no hint can be given now."""
        with self.lock:
            companion = hintable(self._companion)
            self._end_replay_locked()
            self.thinking.ask_hint(companion)
            self.after_change()
            view = self.view_locked()
        self.show()
        return view

    def show_replay(self, game_id: int, move: int) -> View:
        """Show move ``move`` (counted from 1) of finished game ``game_id`` on the LEDs
        (``Replaying``); the running game is left as it is. ``InputError`` for a game or move
        that is not there."""
        record, best = self.replay.find(game_id, move)
        with self.lock:
            self.replay.show(game_id, record, move, best)
            self.felt_changed_locked()
            view = self.view_locked()
        self.show()
        return view

    def leave_replay(self) -> View:
        """End the replay: the LEDs show the running game again, as they were."""
        with self.lock:
            self._end_replay_locked()
            view = self.view_locked()
        self.show()
        return view

    # --- closing ---------------------------------------------------------------------------

    def close(self) -> None:
        """Stop listening, darken the LEDs and close the journal; idempotent."""
        with self.lock:
            if self.closed:
                return
            self.closed = True
            self.cond.notify_all()
        with self.lock:
            self.remote.detach_locked(leaving=False)
            source = self.sensors.detach()
        stop_source(source)
        self.leds.darken()
        self.reviews.close()
        with self.lock:
            if self._keeper.journal is not None:
                self._keeper.journal.close()
        timer = self._timer
        if timer is not None and timer is not threading.current_thread():
            timer.join(timeout=1.0)

    def __enter__(self) -> Table:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


__all__ = ["RETRY_SECONDS", "SPACE_SECONDS", "Table"]
