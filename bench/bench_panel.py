"""Taps per turn and tap to screen update: a full Revers and a full Classic game played on the
panel by taps only, in Debian's chromium at a phone's size, on the simulated table.

Every tap a player makes is counted (a square: a hand puts a piece down, lifts it or turns it
over; a number; a button), and timed from the tap to the moment the page shows the table's
answer (the page's view version changes): the whole way through the browser, the HTTP request,
the table, the answer and the drawing. A square is timed twice: to the first drawn view (the
piece drawn as felt, as its LED lights) and to the game's answer once the piece is confirmed at
rest (150 ms later).

Budgets (from the issue that built the what-now bar): taps per turn no more than before
(Revers ~4.5, where every flipped piece costs two taps), tap to screen update median no slower
than 29-36 ms on the development machine.

Run: .venv/bin/python bench/bench_panel.py
"""

from __future__ import annotations

import json
import statistics
import sys
import tempfile
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tests.web.helpers import LiveServer, open_composition  # noqa: E402

CHROMIUM = "/usr/bin/chromium"
EXAMPLES = ROOT / "tests" / "data" / "examples"
GAMES = (("revers-dominari", "revers-dominari-7-35"), ("classic-sudoku", "classic-sudoku-7-66"))


TIMER = """() => {
window.__tapTimes = []; window.__answerTimes = [];
let tapped = null, waiting = null;
document.addEventListener('click', () => { tapped = waiting = performance.now(); }, true);
new MutationObserver(() => {
  const now = performance.now();
  if (tapped !== null) { window.__tapTimes.push(now - tapped); tapped = null; }
  if (waiting !== null && !document.querySelector('#board [data-felt]')) {
    window.__answerTimes.push(now - waiting); waiting = null;
  }
}).observe(document.documentElement, {attributes: true, subtree: true,
                                      attributeFilter: ['data-version']});
}"""
"""Measured in the page: from the tap (click) to the first drawn view after it (the view version
set after the page has drawn it: for a square, the piece drawn as felt), and to the first drawn
view in which nothing is only felt any more (the game's answer, after the confirmation). Taps
that only change the pad's mode draw no view and are not timed."""


class Player:
    """Taps on the page, each counted and timed until the page has drawn the answer."""

    def __init__(self, page: Any, url: str) -> None:
        self.page = page
        self.url = url
        self.taps = 0
        self.times: list[float] = []

    def state(self) -> dict[str, Any]:
        return self.page.evaluate("fetch('/api/state').then(r => r.json())")

    def tap(self, selector: str) -> None:
        before = self.page.evaluate("Number(document.body.dataset.version || 0)")
        self.page.click(selector)
        self.page.wait_for_function("v => Number(document.body.dataset.version || 0) > v",
                                    arg=before)
        self.taps += 1

    def timings(self) -> tuple[list[float], list[float]]:
        """Tap to the next drawn view and tap to the game's answer, as the page measured
        them."""
        return (list(self.page.evaluate("window.__tapTimes")),
                list(self.page.evaluate("window.__answerTimes")))

    def square(self, square: str) -> None:
        """A piece put down or lifted: on to the next tap once the table has confirmed it,
        as a hand that lets go of a piece."""
        self.tap(f"#board [data-square='{square}']")
        self.page.wait_for_selector(f"#board [data-square='{square}']:not([data-felt])")

    def turn_flips(self) -> None:
        for square, word in self.state()["table"]["signals"].items():
            if word == "flip":
                self.square(square)
                self.square(square)

    def play(self, action: dict[str, Any]) -> None:
        kind = action["type"]
        if kind in ("place", "blank"):
            self.square(action["cell"])
        if kind == "place":
            self.tap(f"#pad button[data-number='{action['number']}']")
        elif kind == "blank" and "owner" in action:
            prompt = self.state()["table"]["prompt"]
            if prompt and prompt.get("owner") != action["owner"]:
                self.tap(f"#prompt-extra [data-blank-owner='{action['owner']}']")
        elif kind == "end_turn":
            self.tap("#end-turn")
        elif kind == "discard":
            self.page.click("#discard")  # a mode of the pad: no answer from the table yet
            self.taps += 1
            self.tap(f"#pad button[data-number='{action['number']}']")


def play_game(browser: Any, variant: str,
              name: str) -> tuple[float, tuple[list[float], list[float]]]:
    record = json.loads((EXAMPLES / f"{name}.json").read_text())["record"]
    with tempfile.TemporaryDirectory() as data:
        panel = open_composition(Path(data))
        live = LiveServer(panel.app)
        try:
            context = browser.new_context(viewport={"width": 390, "height": 844},
                                          is_mobile=True, has_touch=True, bypass_csp=True)
            page = context.new_page()
            page.set_default_timeout(10000)
            page.goto(live.url + "/")
            body = {"variant": variant, "players": record.get("players"),
                    "setup": record.get("setup") or None}
            page.evaluate("""body => fetch('/api/game', {method: 'POST', body: JSON.stringify(body),
                headers: {'Content-Type': 'application/json'}})""", body)
            page.goto(live.url + "/play")
            page.wait_for_selector("body[data-rendered='true']")
            page.evaluate(TIMER)
            player = Player(page, live.url)
            while True:  # the start position, where the game has one
                prompt = player.state()["table"]["prompt"]
                if not prompt or prompt["kind"] != "setup":
                    break
                player.square(prompt["square"])
            setup_taps = player.taps
            player.taps = 0
            page.evaluate("window.__tapTimes = []; window.__answerTimes = []")
            for action in record["actions"]:
                player.turn_flips()
                player.play(action)
            player.turn_flips()
            assert player.state()["game"]["over"], "the game did not end"
            times = player.timings()
            context.close()
            del setup_taps
            return player.taps / len(record["actions"]), times
        finally:
            live.close()
            panel.close()


def main() -> int:
    from playwright.sync_api import sync_playwright

    print("Taps per turn and tap to screen update, phone size (390x844), simulated table")
    print("(first: tap to the next drawn view; answer: tap to the game's answer, after the "
          "150 ms confirmation)")
    print(f"{'game':<18} {'turns':>5} {'taps/turn':>9} {'first median/p90 ms':>20} "
          f"{'answer median/p90 ms':>21}")
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, headless=True,
                                             args=["--no-sandbox", "--disable-gpu"])
        for variant, name in GAMES:
            per_turn, (first, answer) = play_game(browser, variant, name)
            turns = len(json.loads((EXAMPLES / f"{name}.json").read_text())["record"]["actions"])
            columns = []
            for times in (sorted(first), sorted(answer)):
                columns.append(f"{statistics.median(times):.1f} / "
                               f"{times[int(len(times) * 0.9)]:.1f}")
            print(f"{variant:<18} {turns:>5} {per_turn:>9.2f} {columns[0]:>20} {columns[1]:>21}")
        browser.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
