"""Non-interference of a hidden card: play one random game twice, differing only in one
player's hidden card, and keep everything every other device receives until that card lies face
up on the board.

The holder plays from their own phone. The other devices are the shared panel (which also
asks the holder's card by elimination, asks hints, switches hints, sends junk, undoes), the
other seat's phone (or nobody, when that seat has no phone), their live views, the table's
LEDs and its spoken announcements. With the deal the card is the one the table deals at the
holder's turn (``deal_card`` gives another number in the second run); without it, the number
the holder taps first on their phone. ``play`` returns what the other devices received, with
the clocks and ids taken out: two runs of one game must return the same list.

Used by ``tests/web/test_non_interference.py`` and ``bench/bench_non_interference.py``.
"""

from __future__ import annotations

import contextlib
import json
import random
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

import sudoku_table.table.dealing as dealing
from sudoku_table.firmware.ports import SensorEvent
from sudoku_table.rules.actions import Discard, Joker, Place
from sudoku_table.web import panel_state
from sudoku_table.web.speech import sentence_of

from ..table.test_dealing import ONES

GAMES = ("classic-sudoku", "killer-sudoku", "labyrinth-sudoku", "kakuro", "3d-sudoku",
         "hexa-sudoku", "duell-der-meister", "sudoku-family")
"""Every game that hides hands (``hidden_hands``): the KOSMOS variants, Duell der Meister
and SUDOKU FAMILY."""

UNSTABLE = frozenset({"boot", "id"})
"""Keys whose values are clocks or ids: a new start of the table, an announcement's id."""

JUNK: tuple[Any, ...] = (
    {"type": "zzz"}, {"type": "number"}, {"type": "discard", "number": "7"},
    {"type": "number", "number": 0}, {"type": "number", "number": 12},
    {"type": "joker", "square": "z9", "number": 3}, {"type": "discard", "number": True},
    [1, 2], "card", {"type": "number", "number": 5, "version": -1},
    {"type": "number", "number": 5, "version": 10 ** 9},
)
"""Inputs that are malformed or make no sense: refused, each in its own words."""


def scrub(value: Any) -> Any:
    """``value`` without the keys of ``UNSTABLE`` (at any depth)."""
    if isinstance(value, Mapping):
        return {k: scrub(v) for k, v in value.items() if k not in UNSTABLE}
    if isinstance(value, list):
        return [scrub(v) for v in value]
    return value


class Run:
    """One table on a test clock, its panel, the holder's phone and the other seat's."""

    def __init__(self, tmp: Path, variant: str, deal: bool, holder: int, other_phone: bool,
                 hints: bool, ones: bool = False) -> None:
        from tests.web.helpers import panel_on_a_test_clock

        self.clock, self.display, self.table, self.app, self.client = \
            panel_on_a_test_clock(tmp)
        self.spoken: list[str] = []
        self.table.announcer.listen(lambda said: self.spoken.extend(
            sentence_of(part, said["seats"], "en") for part in said["parts"]))
        setup = {q: {"owner": None, "number": 1} for q in ONES} if ones else None
        self.table.new_game(variant, 2, setup=setup, deal=deal, seed=7, hints=hints)
        panel_state(self.app).seating.new_game(self.table.game_id)
        for square in setup or {}:
            self.put(square)
        self.frames_seen = len(self.display.frames)
        self.holder = holder
        self.phones: dict[int, dict[str, str]] = {holder: self.phone(holder)}
        if other_phone:
            self.phones[1 - holder] = self.phone(1 - holder)

    def phone(self, seat: int) -> dict[str, str]:
        invite = self.client.post(f"/api/seats/{seat}/join", json={}).get_json()
        own = self.client.post("/api/seats/claim", json={"token": invite["token"]}).get_json()
        return {"X-Seat-Token": own["token"]}

    def close(self) -> None:
        self.table.close()

    @property
    def companion(self) -> Any:
        return self.table._current.companion

    def put(self, square: str, occupied: bool = True) -> None:
        self.clock.now += 0.1
        self.table.handle_sensor(SensorEvent(square, occupied, self.clock.now))

    def device(self, seat: int | None) -> dict[str, str]:
        """The headers of ``seat``'s device: its phone, or the shared panel."""
        return self.phones.get(seat, {}) if seat is not None else {}

    def answer(self, method: str, path: str, body: Any = None,
               headers: dict[str, str] | None = None) -> dict[str, Any]:
        if method == "GET":
            response = self.client.get(path, headers=headers or {})
        elif isinstance(body, str):
            response = self.client.post(path, data=body, headers=headers or {},
                                        content_type="application/json")
        else:
            response = self.client.post(path, json=body, headers=headers or {})
        self.table.wait_for_computer(60)  # a hint's search ends before anyone looks
        return {"status": response.status_code, "body": scrub(response.get_json(silent=True))}

    def live(self, headers: dict[str, str]) -> Any:
        from tests.web.helpers import first_live_view

        view = first_live_view(self.client, headers.get("X-Seat-Token"))
        return scrub(view) if view is not None else None

    def seen(self) -> dict[str, Any]:
        """Everything the devices other than the holder's phone get now: the views and live
        views of the shared panel and of the other phone, the record, the words spoken and the
        LED frames shown since the last look."""
        others = [{}] + [h for seat, h in sorted(self.phones.items()) if seat != self.holder]
        frames = self.display.frames[self.frames_seen:]
        self.frames_seen = len(self.display.frames)
        spoken, self.spoken = self.spoken, []
        return {
            "views": [self.answer("GET", "/api/state", headers=h) for h in others],
            "live": [self.live(h) for h in others],
            "record": self.answer("GET", "/api/record"),
            "spoken": spoken,
            "frames": lit(frames),
        }


def lit(frames: list[Any]) -> list[Any]:
    """The frames as the squares show them: a frame sent again unchanged shows nothing new
    (the strip holds its colours), so only the changes count."""
    shown: list[Any] = []
    for frame in frames:
        squares = sorted(frame.items())
        if not shown or shown[-1] != squares:
            shown.append(squares)
    return shown


def legal_moves(run: Run) -> list[Any]:
    """The mover's legal placements, set-asides and jokers with the card they hold (the dealt
    one; without the deal any card left to them)."""
    c = run.companion
    state = c.state
    card = c.dealer.card()
    return [a for a in c.game.legal_actions(state) if isinstance(a, Place | Discard | Joker)
            and (card is None or a.number == card)]


def play_one(run: Run, rng: random.Random) -> bool:
    """The mover plays a random legal action as a person would (False: none left)."""
    moves = legal_moves(run)
    state = run.companion.state
    if state.over or not moves:
        return False
    action = rng.choice(sorted(moves, key=repr))
    mover = state.to_move
    headers = run.device(mover)
    if isinstance(action, Discard):
        run.answer("POST", "/api/input", {"type": "discard", "number": action.number}, headers)
        return True
    run.put(action.cell)
    if run.companion.dealer.dealing:
        return True
    kind = "joker" if isinstance(action, Joker) else "number"
    run.answer("POST", "/api/input", {"type": kind, "square": action.cell,
                                      "number": action.number}, headers)
    return True


def script(rng: random.Random) -> list[tuple[str, Any]]:
    """The acts of every device while the holder's card is hidden, drawn before either run."""
    # First what an attacker tries: every number of one kind from the shared panel.
    acts: list[tuple[str, Any]] = [("guess", rng.choice(("number", "discard", "joker")))]
    for _ in range(rng.randint(2, 7)):
        what = rng.choice(("guess", "shared_card", "other_card", "junk", "hint_shared",
                           "hint_holder", "holder_card", "undo", "where", "hints", "peek"))
        kind = rng.choice(("number", "discard", "joker"))
        body: dict[str, Any] = {"type": kind, "number": rng.randint(1, 9)}
        if kind == "joker" or rng.random() < 0.3:
            body["square"] = f"{'abcdefghi'[rng.randrange(9)]}{rng.randint(1, 9)}"
        if what == "junk":
            acts.append((what, (rng.choice((None, 1)), rng.choice(JUNK))))
        elif what == "hints":
            acts.append((what, rng.random() < 0.5))
        else:
            acts.append((what, body))
    return acts


def act(run: Run, what: str, data: Any, holder: int) -> dict[str, Any] | None:
    """One act of ``script``: the answer the acting device got when it is not the holder's
    phone (None when it is: its answers are its own)."""
    other = run.phones.get(1 - holder, {})
    if what == "guess":
        kind = data["type"] if isinstance(data, dict) else data
        square = {"square": "c3"} if kind == "joker" else {}
        return {"guess": [run.answer("POST", "/api/input", {"type": kind, "number": number,
                                                            **square})
                          for number in range(1, 10)]}
    if what == "shared_card":
        return run.answer("POST", "/api/input", data)
    if what == "other_card":
        return run.answer("POST", "/api/input", data, other)
    if what == "junk":
        seat, body = data
        headers = other if seat is not None else {}
        text = json.dumps(body) if not isinstance(body, str) else "{" + body
        return run.answer("POST", "/api/input", text, headers)
    if what == "hint_shared":
        return run.answer("POST", "/api/hint", {})
    if what == "hint_holder":
        run.answer("POST", "/api/hint", {}, run.phones[holder])
        return None
    if what == "holder_card":
        if data["type"] == "number":
            data = {"type": "number", "number": data["number"]}  # a number first, never a place
        answer = run.answer("POST", "/api/input", data, run.phones[holder])
        return None if answer["status"] != 200 else {"revealed": True}
    if what == "undo":
        return run.answer("POST", "/api/input", {"type": "undo", "confirm": True})
    if what == "where":
        return run.answer("POST", "/api/input", {"type": "where"})
    if what == "hints":
        return run.answer("POST", "/api/input", {"type": "hints", "on": data})
    return {"peek": [run.answer("GET", f"/api/seats/{holder}/hand"),
                     run.answer("GET", f"/api/seats/{holder}/hand", headers=other)]}


@contextlib.contextmanager
def other_card(at: int | None) -> Iterator[None]:
    """Within: the card the table deals after ``at`` actions is another one (the lowest
    number left to draw, so that a game set up with ``ONES`` often deals a card that fits
    nowhere); None: the deal as it is."""
    real = dealing.deal_card

    def dealt(supply: Mapping[int, int], seed: int, ply: int) -> int | None:
        card = real(supply, seed, ply)
        if at is None or ply != at or card is None:
            return card
        others = sorted(n for n, k in supply.items() if k > 0 and n != card)
        return others[0] if others else card  # the lowest: a 1 that fits nowhere, if left
    dealing.deal_card = dealt  # type: ignore[assignment]
    try:
        yield
    finally:
        dealing.deal_card = real  # type: ignore[assignment]


def play(tmp: Path, variant: str, seed: int, deal: bool, second: bool) -> list[Any]:
    """One random game (``seed``) up to the moment the holder's hidden card lies face up;
    ``second``: the run with the other card. What every device but the holder's phone got."""
    tmp.mkdir(parents=True, exist_ok=True)
    rng = random.Random(f"{variant} {seed} {deal}")
    other_phone, hints = rng.random() < 0.6, rng.random() < 0.7
    ones = variant == "classic-sudoku" and rng.random() < 0.5  # a 1 that fits nowhere
    prefix, holder = rng.randint(0, 10), rng.randrange(2)
    acts = script(rng)
    first_number = rng.randrange(1000)
    moves = random.Random(seed)
    run = Run(tmp, variant, deal, holder, other_phone, hints, ones)
    seen: list[Any] = []
    try:
        for _ in range(prefix):
            if not play_one(run, moves):
                return seen
        while run.companion.state.to_move != holder:
            if not play_one(run, moves):
                return seen
        at = len(run.companion.actions)
        with other_card(at if second and deal else None):
            with run.table.lock:  # the card was dealt as the turn began: deal it again
                run.companion.history._cache.clear()
            run.table.touch()
            if not deal:
                numbers = run.companion.placing.playable_numbers()
                if len(numbers) < 2:
                    return seen
                index = first_number % len(numbers)
                number = numbers[(index + 1) % len(numbers) if second else index]
                run.answer("POST", "/api/input", {"type": "number", "number": number},
                           run.phones[holder])
            seen.append(run.seen())
            for what, data in acts:
                if run.companion.state.to_move != holder or (
                        not deal and run.companion.in_hand is None):
                    break  # an undo gave the turn back, or the chosen number was cancelled
                answer = act(run, what, data, holder)
                if answer is not None and answer.get("revealed"):
                    break  # set aside (face up) or laid as a joker from the holder's phone
                seen.append({"answer": answer, **run.seen()})
    finally:
        run.close()
    return seen
