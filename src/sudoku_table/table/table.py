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
``replaying``), ``ticker`` (the timer, ``ticking``), ``finished`` (the finished games and their
import), ``reviews``, ``leds`` (``lighting``) and ``announcer`` (what the table says aloud,
``announce``). They share its one lock and, under it, call ``bump_locked`` after a
change the players see; the frame is shown by ``show`` outside it.
"""

from __future__ import annotations

import logging
import os
import secrets
import threading
import time
from collections.abc import Callable, Collection, Mapping
from pathlib import Path
from typing import Any

from sudoku_table.ai import ComputerConfig
from sudoku_table.firmware.ports import Display, Frame
from sudoku_table.network.config import NetworkConfig
from sudoku_table.rules.errors import RulesError
from sudoku_table.rules.game import variant_class
from sudoku_table.rules.wording import N_

from . import announce, present, sessions, showing
from .companion import Companion
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
from .sensing import Sensors
from .sessions import Current, Resolver
from .spacing import SPACE_SECONDS
from .starting import Starting
from .thinking import Thinking
from .ticking import Ticker
from .view import View, render

log = logging.getLogger(__name__)


class Table:
    """The companion between the wires and the rules (see the module docstring).

    ``resolve`` finds a variant class by id (tests pass their own small games); ``settle`` is
    how long a Halma jump or a take-back on the board must stand still; ``ticker`` runs the
    settle timer in a thread (default: only with the real clock; with a test clock, call
    ``ticker.tick()``); ``computer`` is each level's effort (the config's ``[computer]`` section);
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
        self.lock = threading.Lock()
        """The one lock: every change to the game, the board and the view is made under it."""
        self.cond = threading.Condition(self.lock)
        """Notified under the lock after every change (``wait_for_change`` and the parts')."""
        self.leds = LedOutput(display, self._leds_failed)
        self._notices = Notices()
        self._current = Current()
        self.closed = False
        """Set once by ``close``: the parts then take no event and start no search."""
        self._view: tuple[int, View] | None = None
        self._look: present.Look | None = None
        self._holder: tuple[int, present.Look] | None = None
        self.phone_seats: Callable[[int | None], Collection[int]] = lambda _game: ()
        """The seats played from their own phones now (the panel gives it): a hidden card of
        such a seat's mover is shown on that phone alone, never on the table or elsewhere."""
        self.version = 0
        self.boot = secrets.token_hex(4)
        """Names this start of the table: versions count again from 0 after a restart, so a
        page compares versions only within one ``boot``."""
        self._answered = showing.Answered()
        self._computer = computer or ComputerConfig()
        self.announcer = announce.Announcer(self.lock)
        self._keeper = Keeper(Path(journal) if journal is not None else None, reserve=reserve,
                              checkpoint=checkpoint, clock=clock, current=self._current,
                              notices=self._notices)
        # the parts (the module's docstring says what each is)
        self.sensors = Sensors(self, self._current, self._keeper, self._notices, clock)
        self.thinking = Thinking(self, self._computer, self._current, self._keeper)
        network = network or NetworkConfig()
        self.remote = Remote(self, self._current, self._keeper, broker=network.parsed(),
                             name=network.name, resolve=resolve, club=network.club)
        self.ticker = Ticker(self, self._current, self._keeper, clock)
        self.starting = Starting(self, self._current, self._keeper, resolve=resolve,
                                 settle=settle)
        self._keeper.open(self.starting.recover)
        self.finished = FinishedGames(self._keeper, self.lock, self._notices, self.bump_locked)
        self.reviews = Reviews(self._keeper.beside(".reviews"), self._computer, review_workers)
        self.replay = Replaying(self, self.finished, self.reviews)
        with self.lock:
            self.remote.connect_locked(self._current.session, self._current.companion)
            self.bump_locked()
        if ticker if ticker is not None else clock is time.monotonic:
            self.ticker.start()
        self.show()

    # --- journal (``keeping``) --------------------------------------------------------------

    @property
    def _companion(self) -> Companion | None:
        return self._current.companion

    def saving(self) -> dict[str, Any]:
        """Whether the table saves (``table.saving`` of the view): ``state`` ``ok``, ``low``
        (the reserve is in use, or could not be kept: finish the game, free space) or
        ``failing`` (nothing counts until a write succeeds); ``cause``, ``detail``, the
        ``held`` entry waiting to be saved, and whether the finished game's record waits."""
        with self.lock:
            return self._keeper.saving()

    # --- versions, views and frames ----------------------------------------------------------

    def bump_locked(self) -> None:
        """Under the lock, after any change the players can see: a new view version, the
        computer's thinking started, the look, the announcement and the frame renewed."""
        self.version += 1
        self._view = None
        companion = self._companion
        if companion is not None:
            self.remote.sync_locked()  # a game shared with other tables follows its log
            self.thinking.think_locked()  # may write (the computer's card) before it is shown
        self._keeper.space.watch()  # the journal may have given its reserve to the game
        saving = self._keeper.saving_step()
        self._holder = None
        if companion is None:
            self._look = None
        else:
            before = self._look.next["actor"] if self._look is not None else None
            holder = self.holder_locked()
            # Once per change: the frame, the announcement and every view but the holder's;
            # the holder's phone gets the look with its card.
            self._look = present.look(companion, saving, hidden=holder is not None)
            if holder is not None:
                self._holder = (holder, present.look(companion, saving))
            companion.keep_message_for(self._look.next["actor"], before)
        self._answered.note(companion, self._look, self.version)
        now = (announce.moment(companion, self._look)
               if companion is not None and self._look is not None else None)
        self.announcer.observe(now, self._current.seats())
        self.leds.game(self._look, saving is not None)
        self._feedback_frame()
        self.cond.notify_all()

    def felt_changed_locked(self) -> None:
        """Under the lock: the tentative board changed but the game did not (or a replay is
        shown or left: the game's own frame is not touched); the frame's feedback is renewed
        and a new view version shows it (``table.felt``) at once, as the square's LED does."""
        self._feedback_frame()
        self.version += 1
        self._view = None
        self.cond.notify_all()

    def _feedback_frame(self) -> None:
        """Under the lock: the game's frame (or the replay's) with the feedback light on every
        square felt but not confirmed (``LedOutput.feedback``)."""
        replay = self.replay.shown
        self.leds.feedback(replay.frame() if replay is not None else None,
                           self.sensors.unconfirmed())

    def show(self) -> None:
        """Show the newest frame, outside the main lock (``lighting``)."""
        self.leds.show()

    def _leds_failed(self, error: Exception) -> None:
        with self.lock:
            self._notices.notice("leds_failed", detail=str(error))

    def view_locked(self) -> View:
        """Under the lock: the view (``view``), built once per version."""
        if self._view is not None and self._view[0] == self.version:
            return self._view[1]
        sensors, replay = self.sensors, self.replay.shown
        table = showing.table_part(
            occupied=sensors.occupied, felt=sensors.felt, faults=sensors.faults,
            notices=list(self._notices), recovery=self._keeper.damage.recovery,
            version=self.version, saving=self._keeper.saving(),
            replay=replay.view() if replay is not None else None)
        companion = self._companion
        game_doc = None
        if companion is not None:
            look = self._look if self._look is not None else present.look(
                companion, self._keeper.saving_step())
            hint = showing.hint_view(companion, self.thinking.hinting(companion,
                                                                      companion.state))
            holder = self._holder
            table.update(showing.game_part(companion, look, self._current.names,
                                           self._current.colors, hint, holder is not None))
            if holder is not None:
                table["holder"] = showing.holder_part(companion, holder[1], hint, holder[0])
            game_doc = companion.document()
        if table["message"] is None and self._notices:
            table["message"] = render(self._notices.last())
        table["say"] = showing.said(self.announcer.last)
        table.update(self.remote.view_part())  # type: ignore[typeddict-item]
        view: View = {"game": game_doc, "table": table, "version": self.version,
                      "boot": self.boot}
        self._view = (self.version, view)
        return view

    # --- what the players see and wait for ------------------------------------------------------

    def view(self) -> View:
        """The view of docs/api.md: the state document and what the table shows and asks."""
        with self.lock:
            return self.view_locked()

    def frame(self) -> Frame:
        """The LED frame for the current view."""
        with self.lock:
            return self.leds.frame

    def wait_for_change(self, version: int, timeout: float,
                        stop: threading.Event | None = None) -> tuple[int, View]:
        """Block until the view differs from ``version`` (or timeout, or ``stop`` is set and
        ``wake`` called); the newest view."""
        with self.cond:
            self.cond.wait_for(lambda: self.version != version or self.closed
                               or (stop is not None and stop.is_set()), timeout=timeout)
            return self.version, self.view_locked()

    def wake(self) -> None:
        """Wake every ``wait_for_change`` now, so that waiters see their stop flag at once."""
        with self.cond:
            self.cond.notify_all()

    # --- the game ----------------------------------------------------------------------------

    def new_game(self, variant: str, players: int | None = None,
                 options: Mapping[str, Any] | None = None,
                 setup: Mapping[str, Any] | None = None, hints: bool = False,
                 names: list[str] | None = None, replace: bool = False,
                 colors: list[str] | None = None,
                 computers: Mapping[Any, str] | None = None,
                 computer_draws: bool = False, deal: bool = False,
                 seed: int | None = None, remote: Any = None) -> View:
        """Start a game (the previous unfinished one stays in the journal); returns the view.

        ``computers`` names the seats the computer plays, with its level (``{1: "strong"}``);
        ``computer_draws``: the table draws the computer's cards (games with own piles only);
        ``deal``: the table deals every seat's cards or stones (games with hidden hands);
        ``seed``: the seed of those draws and that deal (default: a random one; a tool that
        plays the same game again passes its own); ``remote``: the seats played at other
        tables (``[1]``), whose join codes the view then shows (``table.join``).
        A running game that has actions is replaced only with ``replace`` (``ConfirmNeeded``
        otherwise): the players are asked first."""
        session, companion = self.starting.open(sessions.requested(
            variant, players, options, setup, hints, names, colors, computers, computer_draws,
            deal, seed))
        return self._start(self.remote.hosted(session, companion, remote), companion, replace)

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

    def _start(self, session: sessions.Session, companion: Companion, replace: bool) -> View:
        def start_locked() -> None:
            self.starting.start_locked(session, companion, replace)
            self.remote.connect_locked(self._current.session, companion)
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
            self.replay.end_locked()
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

    def _change(self, change_locked: Callable[[], None]) -> View:
        """``change_locked`` under the lock, then the new view, shown. Its ``CannotSave`` is
        raised once the view says that the table cannot save (nothing changed); any other
        error leaves the view as it was."""
        refused: CannotSave | None = None
        with self.lock:
            try:
                change_locked()
            except CannotSave as e:
                refused = e
            self.bump_locked()
            view = self.view_locked()
        self.show()
        if refused is not None:
            raise refused
        return view

    def holder_locked(self) -> int | None:
        """Under the lock: the mover whose card or stone is theirs alone now (a game that hides
        hands, played from that seat's own phone), or None."""
        companion = self._companion
        if companion is None or not companion.game.hidden_hands or companion.state.over:
            return None
        mover = companion.mover
        if mover is None or mover in companion.computers:
            return None
        return mover if mover in self.phone_seats(self._current.id) else None

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
            self.bump_locked()

    def record(self) -> dict[str, Any] | None:
        """The current game's record (docs/records.md), or None before a game is chosen."""
        with self.lock:
            return self._current.record()

    @property
    def game_id(self) -> int | None:
        """The journal's number of the game on the table (None before one, or unjournaled)."""
        with self.lock:
            return self._current.id

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
        self.sensors.stop()
        self.leds.darken()
        self.reviews.close()
        with self.lock:
            if self._keeper.journal is not None:
                self._keeper.journal.close()
        self.ticker.join()

    def __enter__(self) -> Table:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


__all__ = ["RETRY_SECONDS", "SPACE_SECONDS", "Table"]
