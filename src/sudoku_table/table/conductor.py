"""The table's conductor: the one lock, the versions, the view built once per version, and the
steps after every change the players see, in one ordered list (``AFTER_CHANGE``).

``Table`` (the composition root) is a ``Conductor``: its parts (``sensing``, ``thinking``,
``remote``, ``ticking``, ``starting``, ``replaying``, ...) return what changed and never take
the lock or call the table; what they hand in from threads of their own comes through
``acting.Act`` (``Conductor._act``), and the only writer of the current game is ``_install``.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable, Collection
from typing import Any

from sudoku_table.firmware.ports import Frame
from sudoku_table.rules.game import Game, State

from . import announce, present, sessions, showing
from .announce import Announcer
from .companion import Companion
from .errors import CannotSave
from .keeping import Keeper
from .lighting import LedOutput
from .notices import Notices
from .remote import Remote
from .replaying import Replaying
from .sensing import Sensors
from .sessions import Current
from .thinking import Thinking
from .view import View, render

log = logging.getLogger(__name__)

AFTER_CHANGE = ("version", "shared_game", "computer", "reserve", "look", "answered",
                "announcement", "frame", "wake")
"""The steps after every change the players see, in this order (``Table.after_change``; each
is the method ``_step_<name>``): a new view version; a game shared with other tables follows
its log (it may bring an action); the computer's turn (its card drawn and journaled before any
view shows it, its search started); the journal's reserve watched (a write may have taken it);
the look computed once (LED words, guidance, the prompt: frame and view both use it); the
change an input answers noted; the announcement; the LED frame; every waiting view woken."""


class Conductor:
    """The lock and what runs under it after every change; ``Table`` builds the parts."""

    lock: threading.Lock
    """The one lock: every change to the game, the board and the view is made under it."""
    cond: threading.Condition
    """Notified under the lock after every change (``wait_for_change`` and the parts')."""
    closed: bool
    """Set once by ``close``: the parts then take no event and start no search."""
    version: int
    boot: str
    leds: LedOutput
    announcer: Announcer
    sensors: Sensors
    thinking: Thinking
    remote: Remote
    replay: Replaying
    _current: Current
    _keeper: Keeper
    _notices: Notices
    _answered: showing.Answered
    _view: tuple[int, View] | None
    _look: present.Look | None
    _holder: tuple[int, present.Look] | None
    phone_seats: Callable[[int | None], Collection[int]]
    _saving: dict[str, Any] | None
    _steps: tuple[Callable[[], None], ...]

    def _start_conducting(self) -> None:
        """The lock and the steps, before any part is built."""
        self.lock = threading.Lock()
        self.cond = threading.Condition(self.lock)
        self.closed = False
        self._view = None
        self._look = None
        self._holder = None
        self.phone_seats = lambda _game: ()
        """The seats played from their own phones now (the panel gives it): a hidden card of
        such a seat's mover is shown on that phone alone, never on the table or elsewhere."""
        self._saving = None
        self.version = 0
        self._answered = showing.Answered()
        self._steps = tuple(getattr(self, f"_step_{name}") for name in AFTER_CHANGE)

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

    def _install(self, session: sessions.Session, companion: Companion) -> None:
        """Under the lock: the one place where a game becomes the table's (a new one, one read
        back from the journal, one joined again or taken over)."""
        self._current.take(session, companion)

    def _act(self, change: Callable[[], bool], *,
             gone: Callable[[], bool] | None = None) -> bool:
        """``acting.Act``: a part's ``change`` under the lock, then the after-change steps and
        the frame when it returns True."""
        if gone is None:
            self.lock.acquire()
        else:
            while not self.lock.acquire(timeout=0.05):
                if gone():
                    return False
        try:
            if self.closed or (gone is not None and gone()):
                self.cond.notify_all()
                return False
            changed = change()
            if changed:
                self.after_change()
            else:
                self.cond.notify_all()
        finally:
            self.lock.release()
        if changed:
            self.show()
        return True

    def after_change(self) -> None:
        """Under the lock, after any change the players can see: the steps of
        ``AFTER_CHANGE``, in that order, each once."""
        for step in self._steps:
            step()

    def _step_version(self) -> None:
        self.version += 1
        self._view = None

    def _step_shared_game(self) -> None:
        if self._companion is not None:
            self.remote.sync_locked()

    def _step_computer(self) -> None:
        if self._companion is not None and not self.closed:
            self.thinking.think()

    def _step_reserve(self) -> None:
        self._keeper.space.watch()
        self._saving = self._keeper.saving_step()

    def _step_look(self) -> None:
        companion = self._companion
        self._holder = None
        if companion is None:
            self._look = None
            return
        before = self._look.next["actor"] if self._look is not None else None
        holder = self.holder_locked()
        # Once per change: the frame, the announcement and every view but the holder's; the
        # holder's phone gets the look with its card.
        self._look = present.look(companion, self._saving, hidden=holder is not None)
        if holder is not None:
            self._holder = (holder, present.look(companion, self._saving))
        companion.keep_message_for(self._look.next["actor"], before)

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

    def _step_answered(self) -> None:
        self._answered.note(self._companion, self._look, self.version)

    def _step_announcement(self) -> None:
        companion = self._companion
        now = (announce.moment(companion, self._look)
               if companion is not None and self._look is not None else None)
        self.announcer.observe(now, self._current.seats())

    def _step_frame(self) -> None:
        self.leds.game(self._look, self._saving is not None)
        self._feedback_frame()

    def _step_wake(self) -> None:
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

    def position(self) -> tuple[View, Game | None, State | None]:
        """The view with the rules and the state it shows, read at one moment: what a
        question to the table is answered from (``asking``); None before a game."""
        with self.lock:
            view = self.view_locked()
            companion = self._companion
            if companion is None:
                return view, None, None
            return view, companion.game, companion.state

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
            self.after_change()
            view = self.view_locked()
        self.show()
        if refused is not None:
            raise refused
        return view

    def wait_for_occupied(self, square: str, occupied: bool, timeout: float) -> bool:
        """True once the sensors have reported ``square`` in that state (False on timeout)."""
        with self.cond:
            return self.cond.wait_for(lambda: (square in self.sensors.occupied) == occupied,
                                      timeout=timeout)

    def wait_for_felt(self, square: str, occupied: bool, timeout: float) -> bool:
        """True once the scan has felt ``square`` in that state, before it comes to rest
        (False on timeout)."""
        with self.cond:
            return self.cond.wait_for(lambda: (square in self.sensors.felt) == occupied,
                                      timeout=timeout)

    def wait_for_computer(self, timeout: float = 10.0) -> bool:
        """True once no search of the computer or of a hint is under way (False on timeout):
        for tests and tools that play against the computer."""
        with self.cond:
            return self.cond.wait_for(lambda: self.thinking.idle or self.closed,
                                      timeout=timeout)

    def _end_replay_locked(self) -> bool:
        """Under the lock: end a replay, if one is shown (True then), and show the game's
        frame again."""
        if not self.replay.end():
            return False
        self.felt_changed_locked()
        return True

