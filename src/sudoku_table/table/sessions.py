"""Who plays which game at the table: one value for a game's session, and the one place where
a game and its companion are built from it, for a new game and for a game recovered from the
journal alike.

A session is what the journal keeps at a game's start beyond its actions: the variant, its
players, options and set-up, the hints switch, the players' names and colours, the seats the
computer plays and, when the table draws the computer's cards, the game's seed for them. A new
game's session comes from the panel's request (``requested``), a recovered one from the journal
(``stored``); ``open_game`` turns either into the ``Companion`` that plays it."""

from __future__ import annotations

import secrets
from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace
from datetime import date
from typing import Any

from sudoku_table.rules.game import Game
from sudoku_table.rules.record import Record as GameRecord
from sudoku_table.rules.wording import N_

from . import announce
from .companion import Companion
from .computer import check_draws, computers_json, parse_computers
from .errors import InputError
from .journal import StoredGame
from .view import count

Resolver = Callable[[str], type[Game]]
Writer = Callable[[str, Any], None]
"""Journals one entry of the game (its kind and data) before it counts."""


@dataclass(frozen=True)
class Session:
    """One game's session (see the module docstring). ``setup`` None is the game's default
    set-up; ``computers`` is as requested or stored (``{"1": "strong"}``, checked by
    ``open_game``); ``draws``: the table draws the computer's cards; ``deal_seed``: the table
    deals every seat's cards from this seed (None: players draw); ``id`` is the journal's
    number of the game, once its start is written (None before, or without a journal)."""

    variant: str
    players: int | None = None
    options: Mapping[str, Any] | None = None
    setup: Mapping[str, Any] | None = None
    hints: bool = False
    names: tuple[str, ...] = ()
    colors: tuple[str, ...] = ()
    computers: object = None
    draws: bool = False
    draw_seed: int | None = None
    deal_seed: int | None = None
    id: int | None = None
    network: Mapping[str, Any] | None = None
    """A game shared with other tables (``sudoku_table.network.shared``): what this table
    keeps to join it again after a restart; None for a game of this table alone."""

    def started(self, game_id: int) -> Session:
        """The session once the journal has written its game's start as ``game_id``."""
        return replace(self, id=game_id)

    def seats_json(self) -> dict[str, str]:
        """The computer's seats as the journal and the view keep them (checked by
        ``open_game``: call it on the session that returns)."""
        return computers_json(self.computers) if isinstance(self.computers, Mapping) else {}


def requested(variant: str, players: int | None = None,
              options: Mapping[str, Any] | None = None,
              setup: Mapping[str, Any] | None = None, hints: bool = False,
              names: list[str] | None = None, colors: list[str] | None = None,
              computers: Mapping[Any, str] | None = None,
              computer_draws: bool = False, deal: bool = False,
              seed: int | None = None) -> Session:
    """A new game's session from the panel's request (``InputError`` for a switch that is no
    switch); the seed of the draws and the deal is drawn here, once (``seed``: this one)."""
    if not isinstance(hints, bool):
        raise InputError(N_("hints must be true or false, got {hints}"), hints=repr(hints))
    if not isinstance(computer_draws, bool):
        raise InputError(N_("computer_draws must be true or false, got {value}"),
                         value=repr(computer_draws)[:20])
    if not isinstance(deal, bool):
        raise InputError(N_("deal must be true or false, got {value}"), value=repr(deal)[:20])
    if computer_draws or deal:
        seed = secrets.randbits(48) if seed is None else seed
    else:
        seed = None
    return Session(variant, players, options, setup, hints,
                   tuple(str(n) for n in (names or [])), tuple(str(c) for c in (colors or [])),
                   computers, computer_draws, seed, seed if deal else None)


def stored(game: StoredGame) -> Session:
    """A recovered game's session, as the journal kept its start (``ValueError`` when its
    options or set-up are damaged)."""
    if not isinstance(game.options, dict) or not isinstance(game.setup, dict):
        raise ValueError("its options or setup are damaged")
    return Session(game.variant, game.players, game.options, game.setup, game.hints,
                   tuple(game.names), tuple(game.colors), game.computers, False,
                   game.draw_seed, game.deal_seed, game.id, game.network)


def open_game(session: Session, resolve: Resolver, *, board: set[str],
              record: Writer | None, settle: float,
              lenient: bool = False) -> tuple[Session, Companion]:
    """The game and its companion for ``session`` (sharing the table's ``board``, journaling
    through ``record``), with the session fitted to the game: its players, options and set-up
    as the game reads them, names and colours cut to its seats, the computer's seats checked.
    ``RulesError`` or ``InputError`` when the session cannot be played; with ``lenient`` (a
    game read back from the journal) damaged computer seats are read as people at every seat,
    as the panel then shows."""
    rules = resolve(session.variant)
    options = session.options
    if isinstance(options, Mapping):  # a choice of the day or of chance is made now, once
        options = rules.fixed_options(options, date.today(), lambda: secrets.randbits(31))
    game = rules(session.players, options)
    try:
        seats = parse_computers(session.computers, game.players)
    except InputError:
        if not lenient:
            raise
        seats = {}
    if session.draws:
        check_draws(game, seats)
    if session.deal_seed is not None and not game.hidden_hands:
        raise InputError(N_("the table deals only in a game whose cards or stones are hidden "
                            "(KOSMOS SUDOKU, Duell der Meister, SUDOKU FAMILY), not in {game}"),
                         game=game.name)
    pieces = (game.default_setup() if session.setup is None
              else game.parse_setup(session.setup))
    companion = Companion(game, pieces, board=board, hints=session.hints, record=record,
                          settle=settle)
    # The computer's seats before any entry is replayed: a drawn card is checked against them.
    dealing = session.deal_seed is not None
    companion.computer.seat(seats, session.draw_seed
                            if seats and (game.own_piles or dealing) else None)
    companion.dealer.deal(session.deal_seed, frozenset(seats))
    network = session.network or {}
    if network.get("role") == "guest" and (network.get("start") or {}).get("deal"):
        companion.dealer.follow(int(network["seat"]))  # the host deals, its cards arrive
    fitted = replace(session, players=game.players, options=dict(game.options),
                     setup={c: p.to_json() for c, p in pieces.items()},
                     names=session.names[:game.players], colors=session.colors[:game.players],
                     computers=seats)
    return fitted, companion


def begin(companion: Companion) -> None:
    """A new game begins on the board it stands on: cleared first when pieces stand there,
    else set up or played from the start, and the companion says which."""
    name = companion.game.name
    companion.start_clean()
    if companion.clearing:
        companion.say("clear_board", game=name,
                      pieces=count(len(companion.board.occupied), "piece"))
        return
    if companion.dealer.dealing:  # once, at the start: every card open beside the board
        companion.say("set_up_board_deal" if companion.setting_up else "new_game_deal",
                      game=name, pieces=companion.game.piece_words.many)
        return
    elif companion.draw_seed is not None:  # once, at the start: the cards face up
        code = "set_up_board_draws" if companion.setting_up else "new_game_draws"
    else:
        code = "set_up_board" if companion.setting_up else "new_game"
    companion.say(code, game=name)


class Current:
    """The game on the table: its session and its companion (both None before a game). The
    table changes it under its lock, with ``take``; the journal's keeper and the view read it."""

    def __init__(self) -> None:
        self.session: Session | None = None
        self.companion: Companion | None = None

    def take(self, session: Session, companion: Companion) -> None:
        """This game is the table's now."""
        self.session, self.companion = session, companion

    @property
    def id(self) -> int | None:
        """The journal's number of the game (None before one, or unjournaled)."""
        return self.session.id if self.session is not None else None

    @property
    def names(self) -> tuple[str, ...]:
        return self.session.names if self.session is not None else ()

    @property
    def colors(self) -> tuple[str, ...]:
        return self.session.colors if self.session is not None else ()

    def seats(self) -> announce.Seats:
        """Who sits where, as the announcements name them."""
        c = self.companion
        return {"players": c.game.players if c is not None else 0,
                "names": list(self.names),
                "labels": list(c.game.player_labels) if c is not None else [],
                "computers": computers_json(c.computers) if c is not None else {}}

    def record(self) -> dict[str, Any] | None:
        """The game's record (docs/records.md), or None before a game."""
        companion = self.companion
        if companion is None:
            return None
        game = companion.game
        return GameRecord(game.id, game.players, dict(game.options), dict(companion.setup),
                          list(companion.actions), list(self.names)).to_json()
