"""A dealt card only its holder's phone may learn: no refusal, choice, hint, lit square or LED
tells it to the shared panel, another phone, a live view or the table itself.

The table here runs on a clock the test moves and a display that keeps every frame, so the
board changes and the frames are exact; the phones join through the panel as a new user's do.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from sudoku_table.firmware.ports import SensorEvent
from sudoku_table.web import panel_state

from ..table.test_dealing import ONES
from .helpers import first_live_view, panel_on_a_test_clock

pytestmark = pytest.mark.integration


class Panel:
    """A table on a test clock with a recording display, its panel's client, and its phones."""

    def __init__(self, tmp_path: Path) -> None:
        self.clock, self.display, self.table, self.app, self.client = \
            panel_on_a_test_clock(tmp_path)

    def close(self) -> None:
        self.table.close()

    def start(self, variant: str = "classic-sudoku", players: int = 2, *, seed: int = 1,
              setup: dict[str, Any] | None = None, **options: Any) -> None:
        """A dealt game from ``seed`` (the API draws its own seed; the tests need a known one)."""
        self.table.new_game(variant, players, setup=setup, deal=True, seed=seed, **options)
        panel_state(self.app).seating.new_game(self.table.game_id)
        for square in setup or {}:
            self.put(square)

    def put(self, square: str, occupied: bool = True) -> None:
        self.clock.now += 0.1
        self.table.handle_sensor(SensorEvent(square, occupied, self.clock.now))

    def phone(self, seat: int) -> dict[str, str]:
        """A phone that claimed ``seat`` through its joining link: its request headers."""
        invite = self.client.post(f"/api/seats/{seat}/join", json={}).get_json()
        own = self.client.post("/api/seats/claim", json={"token": invite["token"]}).get_json()
        return {"X-Seat-Token": own["token"]}

    def state(self, headers: dict[str, str] | None = None) -> dict[str, Any]:
        return self.client.get("/api/state", headers=headers or {}).get_json()

    def live(self, token: dict[str, str] | None = None) -> dict[str, Any]:
        """The first event of a live view (``token``: a phone's)."""
        view = first_live_view(self.client, token["X-Seat-Token"] if token else None)
        assert view is not None, "no live view"
        return view


@pytest.fixture
def panel(tmp_path: Path) -> Iterator[Panel]:
    p = Panel(tmp_path)
    yield p
    p.close()


def _answers(panel: Panel, body: dict[str, Any], headers: dict[str, str]) -> tuple[int, str]:
    answer = panel.client.post("/api/input", json=body, headers=headers)
    return answer.status_code, answer.get_json().get("error", "")


@pytest.mark.parametrize("kind", ["number", "discard", "joker"])
def test_no_device_learns_the_card_by_elimination(panel: Panel, kind: str) -> None:
    """Each of the nine numbers sent from the shared panel (no token, no PIN) or from another
    seat's phone is refused in the same words: none stands out as the card."""
    panel.start()
    holder = panel.phone(0)
    other = panel.phone(1)
    before = panel.state(holder)
    for headers in ({}, other):
        answers = set()
        for number in range(1, 10):
            body: dict[str, Any] = {"type": kind, "number": number}
            if kind == "joker":
                body["square"] = "e5"
            answers.add(_answers(panel, body, headers))
        assert len(answers) == 1, answers
        status, _error = answers.pop()
        assert status == 403
    assert panel.state(holder)["game"] == before["game"]  # nothing changed


def _fits_nowhere(panel: Panel) -> dict[str, str]:
    """A dealt game whose first card, the 1, fits nowhere (every row, file and box has its
    gold 1); seat 0 plays from its phone: that phone's headers."""
    setup = {q: {"owner": None, "number": 1} for q in ONES}
    for seed in range(80):
        panel.start(seed=seed, setup=setup)
        hand = panel.table.hand(0)
        if hand is not None and hand["number"] == 1:
            return panel.phone(0)
        for square in setup:
            panel.put(square, False)
    raise AssertionError("no seed deals the 1 first")


def test_a_card_that_fits_nowhere_is_offered_on_its_phone_alone(panel: Panel) -> None:
    holder = _fits_nowhere(panel)
    mine = panel.state(holder)["table"]
    assert mine["hand"] == 1 and mine["hand_do"] == "set_aside"
    assert mine["discard_choices"] == [1]
    for view in (panel.state(), panel.state(panel.phone(1)), panel.live(),
                 panel.live(panel.phone(1))):
        table = view["table"]
        assert table["discard_choices"] == [] and table["joker_choices"] == []
        assert table["in_hand"] is None and table.get("hand") is None


def test_a_hint_for_a_phones_seat_lights_its_phone_alone(panel: Panel) -> None:
    """Asked on the shared panel for the mover who plays from a phone: the hint, its squares
    and its light reach that phone only; the table's LEDs show nothing new."""
    panel.start(hints=True)
    holder = panel.phone(0)
    frame = dict(panel.table.frame())
    asked = panel.client.post("/api/hint", json={})
    assert asked.status_code == 200, asked.get_json()
    assert panel.table.wait_for_computer(30)
    mine = panel.state(holder)["table"]
    assert mine["hint"]["status"] == "ready"
    assert "hint" in mine["signals"].values()
    for view in (panel.state(), panel.state(panel.phone(1)), panel.live()):
        table = view["table"]
        assert "hint" not in table["signals"].values(), table["signals"]
        assert table["hint"]["status"] == "private"
    assert dict(panel.table.frame()) == frame
