"""A game shared with other tables (``Table.remote``): what the table's own seats do goes to
the game's log, and what the log has that this table has not yet done arrives as a plan, as
the computer's does (issue "tables connected", docs/network.md).

After every change (``sync_locked``, under the table's lock) the table's actions are compared
with the log's (``network.shared.SharedGame``):

- actions made here since the last look are sent (the host orders them, a guest proposes them);
  one the table took back here is taken back in the log (a guest asks the host);
- an action of a seat at another table that the log has and the table has not is the plan a
  person here carries out (``ComputerTurn.chose``); its end of turn counts at once;
- an action the table has and the log has not (the host took it back, or refused a guest's
  proposal) is taken back here too, and the bar says what to put right, as after Undo.
"""

from __future__ import annotations

import functools
import logging
import threading
from collections.abc import Sequence
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from sudoku_table.network.codes import BadCode
from sudoku_table.network.link import Broker
from sudoku_table.network.sealing import Refused
from sudoku_table.network.shared import (
    JoinFailed,
    SharedGame,
    Start,
    hello_for,
    new_guest,
    new_host,
    open_shared,
)
from sudoku_table.rules.actions import Action, EndTurn
from sudoku_table.rules.wording import N_

from .acting import Act, Install
from .computer import ANOTHER_TABLE
from .dealing import deal_card
from .errors import CannotSave, InputError, NoAnswer
from .keeping import Keeper
from .sessions import Current, Resolver, Session

if TYPE_CHECKING:
    from .companion import Companion

log = logging.getLogger(__name__)

TAKE_OVER_AFTER = 30.0
"""How long the host's table must have been away before a guest may take the game over."""
OFFLINE_VIEW_EVERY = 5.0
"""Seconds between views while a table of the game is away."""
GO_ON_AGAIN = 15.0
"""Seconds between tries to join a game another table took over, while it does not answer."""


def _common(a: list[Action], b: list[Action]) -> int:
    n = 0
    for x, y in zip(a, b, strict=False):
        if x != y:
            break
        n += 1
    return n


class Remote:
    """The shared game of ``current`` (None: the game is this table's alone). Its link's
    threads hand what arrives in through the table's ``act``; a game taken over or joined again
    becomes the table's through ``install``."""

    def __init__(self, act: Act, install: Install, current: Current, keeper: Keeper, *,
                 broker: Broker | None, name: str, resolve: Resolver, club: str = "") -> None:
        self._act = act
        self._install = install
        self._current = current
        self._keeper = keeper
        self._broker, self.name, self._resolve = broker, name, resolve
        self._club = club
        self.shared: SharedGame | None = None
        self._companion: Companion | None = None
        self._mirror: list[Action] = []
        self._dealt: tuple[int, int] | None = None
        self._token: object | None = None
        """Names the shared game whose link may report changes (``changed``)."""
        self._told_closed = False
        self._stop = threading.Event()
        self._going_on: object | None = None
        """The game (its token) this table is joining again as it goes on at another table."""

    # --- the game shared -----------------------------------------------------------------

    @property
    def ready(self) -> bool:
        """A broker is set: games can be shared."""
        return self._broker is not None

    def _need_broker(self) -> Broker:
        if self._broker is None:
            raise InputError(N_("this table meets other tables through an MQTT broker: set "
                                "broker in the config's [network] section first"))
        return self._broker

    def hosted(self, session: Session, companion: Companion, remote: Sequence[Any]) -> Session:
        """``session`` (as opened) with ``remote`` seats played at other tables: checked, and
        with the secrets the journal keeps (``InputError`` naming what is wrong). In a club,
        every game is hosted on the broker (with or without remote seats), to be watched."""
        if not remote and not (self._club and self._broker is not None):
            return session
        remote = remote or []
        self._need_broker()
        players = companion.game.players
        if not isinstance(remote, list) or not all(
                isinstance(s, int) and not isinstance(s, bool) for s in remote):
            raise InputError(N_("remote must be a list of seat numbers, like [1]"))
        seats = sorted(set(remote))
        if any(not 0 <= s < players for s in seats):
            raise InputError(N_("remote: seats are 0 to {last} in this game"), last=players - 1)
        if any(s in companion.computers for s in seats):
            raise InputError(N_("a seat is either the computer's or at another table, not "
                                "both"))
        if len(seats) == players:
            raise InputError(N_("at least one seat plays at this table"))
        start = Start(session.variant, players, dict(session.options or {}),
                      dict(session.setup or {}), session.hints, list(session.names),
                      list(session.colors), session.seats_json(),
                      deal=session.deal_seed is not None)
        return replace(session, network=new_host(self.name, start, seats))

    def joined(self, code: Any, timeout: float = 10.0) -> Session:
        """The session of the game a join ``code`` names, once its host answered (outside the
        lock: it waits up to ``timeout`` seconds); ``InputError`` for a code that is no join
        code, ``NoAnswer`` when the host does not answer."""
        broker = self._need_broker()
        if not isinstance(code, str) or not 10 <= len(code) <= 200:
            raise InputError(N_("enter the join code the other table shows"))
        try:
            join, hello = hello_for(broker, code, timeout)
            saved = new_guest(self.name, join, hello)
        except BadCode as e:
            raise InputError(N_("that is not a join code: {detail}"), detail=str(e)) from None
        except JoinFailed as e:
            raise NoAnswer(N_("no answer from the other table: {detail}"),
                           detail=str(e)) from None
        except Refused as e:
            raise InputError(N_("the other table's game cannot be joined: {detail}"),
                             detail=str(e)) from None
        start = Start.from_json(saved["start"])
        return Session(start.variant, start.players, start.options, start.setup, start.hints,
                       tuple(start.names), tuple(start.colors), {}, network=saved)

    def rejoin_locked(self, session: Session) -> bool:
        """Under the lock: when the game of a join code is the one running here already (its
        host changed: another table took it over, or this one was its host), play it on with
        the new host, keeping every piece (True); False for another game."""
        current, c = self._current.session, self._current.companion
        network = session.network
        if (current is None or c is None or current.network is None or network is None
                or current.network.get("lineage") is None
                or current.network.get("lineage") != network.get("lineage")
                or current.network.get("start") != network.get("start") or c.state.over):
            return False  # another game (two games of one variant start alike)
        moved = replace(current, network=dict(network), computers={})
        self._keeper.reseat(moved, c)
        self._install(moved, c)
        c.computer.seat({}, None)  # the host's computer plays its seats now
        self.detach_locked()
        self.connect_locked(moved, c, sent=True)
        c.say("remote_rejoined", table=network.get("host_name") or ANOTHER_TABLE)
        return True

    def take_over_locked(self) -> None:
        """Under the lock, at a guest whose host's table is gone: this table hosts the game
        from its own copy, plays the old host's computer seats, and shows new join codes for
        the other seats (``InputError`` while the host is there)."""
        shared, c, session = self.shared, self._companion, self._current.session
        if shared is None or shared.role != "guest" or c is None or session is None:
            raise InputError(N_("only a table that joined a game can take it over"))
        away = shared.host_away()
        if not shared.closed and (away is None or away < TAKE_OVER_AFTER):
            raise InputError(N_("{table} still hosts the game: it can be taken over once that "
                                "table has been away for {seconds} s"),
                             table=shared.host_name or ANOTHER_TABLE,
                             seconds=int(TAKE_OVER_AFTER))
        start = Start.from_json(shared.saved["start"])
        computers = {int(seat): level for seat, level in start.computers.items()}
        here = {seat for seat, kind in shared.seats.items() if kind == "here"}
        remote = [s for s in range(start.players) if s not in here and s not in computers]
        generation = shared.saved.get("generation")
        moved = replace(session, network=new_host(
            self.name, start, remote, shared.saved.get("lineage"),
            (generation if isinstance(generation, int) else 0) + 1),
                        computers=computers)
        self._keeper.reseat(moved, c)
        self._install(moved, c)
        c.computer.seat(computers, None)
        old = shared.host_name
        assert moved.network is not None
        shared.hand_over(moved.network, self.name)  # for the old host, when it comes back
        self.detach_locked()
        self.connect_locked(moved, c, adopt=list(c.actions))
        c.say("remote_taken_over", table=old or ANOTHER_TABLE)

    def connect_locked(self, session: Session | None, companion: Companion | None,
                       adopt: list[Action] | None = None, sent: bool = False) -> None:
        """Under the lock, once a game is the table's: share it as its session says (a new
        game, a joined one, or one read back after a restart), or stop sharing. ``adopt``:
        the actions a new host takes over; ``sent``: the table's actions are in the host's log
        already (it took them over), even before this table has caught up with it."""
        network = session.network if session is not None else None
        if session is None or companion is None or network is None or self._broker is None:
            self.detach_locked()
            return
        game = self._resolve(session.variant)(session.players, session.options)
        folder = self._keeper.beside(".network")
        self.detach_locked()
        token = self._token = object()  # before its link can report anything
        shared = open_shared(self._broker, dict(network), game, folder,
                             lambda: self.changed(token),
                             self._club, adopt)
        self.shared, self._companion = shared, companion
        self._told_closed = False
        # What the log already has: a restarted table sends what it journaled but did not send.
        self._mirror = list(companion.actions if sent else
                            companion.actions[:_common(companion.actions, shared.actions())])
        self._names_locked()
        self._stop = threading.Event()
        threading.Thread(target=self._watch, args=(self._stop,), name="remote", daemon=True
                         ).start()

    def detach_locked(self, leaving: bool = True) -> None:
        """The game is not shared any more (a new game, or the table closes)."""
        shared = self.shared
        self.shared, self._companion, self._mirror = None, None, []
        self._token = None  # its link's last messages are not waited for (below)
        self._stop.set()
        if shared is not None:
            shared.close(leaving)

    def changed(self, token: object) -> None:
        """paho's thread: the log or a table's presence of the game ``token`` changed. It
        never blocks on the table's lock while that game is being let go (which, under the
        lock, waits for this very thread to end)."""
        going: list[tuple[str, threading.Event]] = []

        def change() -> bool:
            self._names_locked()  # a table's presence names it: not on every sensor event
            moved = self.shared.moved if self.shared is not None else None
            if moved is not None and self._going_on is not token:
                self._going_on = token
                going.append((moved["code"], self._stop))
            return True
        self._act(change, gone=lambda: self._token is not token)
        for code, stop in going:
            threading.Thread(target=self._go_on, args=(token, code, stop),
                             name="remote-go-on", daemon=True).start()

    def _go_on(self, token: object, code: str, stop: threading.Event) -> None:
        """This table hosted the game and was away; another table took it over meanwhile and
        left the code of this table's seat: join the game as it goes on there, every piece
        kept (tried again while that table does not answer)."""
        while self._token is token:
            try:
                session = self.joined(code)
            except NoAnswer:
                log.info("the table that took the game over does not answer yet")
                if stop.wait(GO_ON_AGAIN):
                    return
                continue
            except InputError as e:
                log.warning("could not go on with the game taken over: %s", e)
                return

            try:
                self._act(functools.partial(self._rejoin_taken_over, session),
                          gone=lambda: self._token is not token)
            except CannotSave as e:
                log.warning("could not go on with the game taken over: %s", e)
            return

    def _rejoin_taken_over(self, session: Session) -> bool:
        if not self.rejoin_locked(session):
            log.warning("the game taken over is not the one played here")
        return True

    def _watch(self, stop: threading.Event) -> None:
        """While a table of the game is away, a new view every five seconds: its offline time
        as of the view (a page counts the seconds on by itself between views, in steps of
        five; a client of the API reads a figure at most five seconds old)."""
        while not stop.wait(OFFLINE_VIEW_EVERY):
            shared = self.shared
            if shared is not None and any(
                    s["offline"] is not None for s in self.seats_view("") or []):
                self._act(lambda: True)

    # --- after every change ----------------------------------------------------------------

    def sync_locked(self) -> None:
        """Under the lock, after every change: the table's actions and the log's made one
        again (see the module docstring)."""
        shared, c = self.shared, self._current.companion
        if shared is None or c is None or c is not self._companion:
            return
        try:
            self._send_locked(shared, c)
            self._deal_locked(shared, c)
            self._follow_locked(shared, c)
        except CannotSave:
            pass  # the journal holds it: the retry's change syncs again
        except Exception as e:  # the network never stops the game here: it is said
            log.exception("the shared game could not follow the log")
            c.say("remote_failed", detail=str(e))

    def _send_locked(self, shared: SharedGame, c: Companion) -> None:
        table, line = list(c.actions), shared.actions()
        kept = _common(self._mirror, table)
        taken = len(self._mirror) - kept
        if taken:
            if shared.role == "host":  # the log drops them too, and arrivals not carried out
                for _ in range(len(line) - kept):
                    shared.take_back(len(line))
            else:
                for k in range(taken):
                    shared.take_back(len(self._mirror) - k)
            line = shared.actions()
        for i in range(kept, len(table)):
            if i < len(line) and line[i] == table[i]:
                continue  # an action from the log, carried out here
            shared.act(table[i], i)
        self._mirror = table

    def _deal_locked(self, shared: SharedGame, c: Companion) -> None:
        """The cards of a game the table deals: at the host, the card of a remote seat to
        move in the log's state, sent to its table only; at a guest, its seat's arrived."""
        for at, card in shared.take_cards():
            c.dealer.receive(at, card)
        seed = c.dealer.seed
        if shared.role != "host" or seed is None:
            return
        state, at = shared.line_state()
        mover = state.to_move
        if state.over or mover is None or shared.seats.get(mover) != "remote" \
                or self._dealt == (mover, at):
            return
        supply = c.game.hand_supply(state, mover)
        dealt = deal_card(supply, seed, at) if supply else None
        if dealt is not None:
            shared.send_card(mover, at, dealt)
            self._dealt = (mover, at)

    def _follow_locked(self, shared: SharedGame, c: Companion) -> None:
        for reason in shared.take_declined():
            c.say("remote_declined", reason=reason)
        if shared.closed and not self._told_closed:
            self._told_closed = True
            c.say("remote_closed", table=shared.host_name or ANOTHER_TABLE)
        if shared.awaiting:
            return
        for _ in range(200):
            table, line = list(c.actions), shared.actions()
            kept = _common(table, line)
            if len(table) > kept and not shared.caught_up:
                break  # the log may have it still: a take-back waits until this table knows
            if len(table) > kept:  # the log does not have it: taken back here too
                c.takeback.undo()
                c.takeback.after()
            elif len(line) > kept and not self._arrive(c, line[kept]):
                break
            elif len(line) <= kept:
                break
            self._keeper.after(c)
            self._mirror = list(c.actions)

    def _arrive(self, c: Companion, action: Action) -> bool:
        """The log's next action, which this table has not made: the plan of a seat at
        another table (an end of turn counts at once), or this table's own action that the
        host did not let it take back (put back as Redo does). False when nothing counted."""
        undone = c.history.undone
        if c.mover not in c.computer.remote:
            if undone and undone[-1] == action:
                c.takeback.redo()
                return True
            return False
        if c.expect is None and c.computer.turn:
            c.computer.chose(c.state, action)
        if isinstance(action, EndTurn) and c.expect == action:
            c.commit(action)
            return True
        return False

    def _names_locked(self) -> None:
        shared, c = self.shared, self._companion
        if shared is None or c is None:
            return
        remote = {seat: shared.table_of(seat)[1] or ANOTHER_TABLE
                  for seat, kind in shared.seats.items()
                  if kind == "remote" or (kind != "here" and shared.role == "guest")}
        c.computer.seat_remote(remote)
        # A remote seat's card is for its own table: never shown here, as the computer's.
        c.dealer.deal(c.dealer.seed, frozenset(c.computers) | frozenset(remote))

    # --- what the panel asks -----------------------------------------------------------------

    def check_input(self, kind: str) -> None:
        """``InputError`` for what a shared game does not offer."""
        if self.shared is not None and kind == "redo":
            raise InputError(N_("Redo is not offered in a game with another table: play the "
                                "action again"))

    def view_part(self) -> dict[str, Any]:
        """What the view's ``table`` says of the tables: ``network`` always, ``seats`` and (at
        the host) ``join`` while the game is shared."""
        shared = self.shared
        part: dict[str, Any] = {"network": {"ready": self.ready, "name": self.name, "role": None,
                                            "connected": False, "offline": None,
                                            "diverged": None, "awaiting": False,
                                            "closed": False}}
        if shared is not None:
            part["network"].update(shared.network_view())
            part["seats"] = self.seats_view(self.name)
            join = shared.join_view()
            if join is not None:
                part["join"] = join
        return part

    def seats_view(self, here: str) -> list[dict[str, Any]] | None:
        shared = self.shared
        if shared is None:
            return None
        return [shared.seat_view(seat, here) for seat in sorted(shared.seats)]

    def network_view(self) -> dict[str, Any] | None:
        shared = self.shared
        return shared.network_view() if shared is not None else None

    def join_view(self) -> dict[str, Any] | None:
        shared = self.shared
        return shared.join_view() if shared is not None else None

