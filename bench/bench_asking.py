"""Ask the table: how long each question takes to answer and word, in the middle of a game.

For every game, plays the rules' first legal actions until a third of the board is full, then
asks every question (``sudoku_table.table.asking``) about every square of the board (numbers
1 to 9 for ``where``) and words each answer in German, as ``GET /api/say`` does without the
HTTP. Prints the median and the slowest answer per question over all games, in CPU time (so the
machine's other work does not count, as in ``bench_speech.py``).

    .venv/bin/python bench/bench_asking.py

Budget: every answer under 20 ms of CPU on this machine (a Zero 2 W is 10-15x slower: still
well under a second between the tap and the answer).
"""

from __future__ import annotations

import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from sudoku_table.rules.game import all_variants, discover, new_game  # noqa: E402
from sudoku_table.table.asking import Position, ask, question, say  # noqa: E402
from sudoku_table.web.speech import CatalogVoice  # noqa: E402

NAMES = ["Anna", "Ben"]
BUDGET = 0.02


def _questions(cells: tuple[str, ...]) -> list[tuple[str, dict[str, str]]]:
    asked: list[tuple[str, dict[str, str]]] = []
    for cell in cells:
        asked += [("square", {"square": cell}), ("block", {"square": cell}),
                  ("may", {"square": cell})]
    asked += [("rank", {"rank": r}) for r in "123456789"]
    asked += [("file", {"file": f}) for f in "abcdefghi"]
    asked += [("where", {"number": n}) for n in "123456789"]
    return asked + [("scores", {}), ("now", {}), ("repeat", {})]


def main() -> int:
    discover()
    voice = CatalogVoice("de")
    times: dict[str, list[float]] = {}
    for cls in all_variants():
        game = new_game(cls.id, min(2, cls.max_players))
        state = game.initial_state(game.default_setup() or None)
        while len(state.board) < len(game.geometry.cells) // 3 and not state.over:
            action = next(iter(game.legal_actions(state)), None)
            if action is None:
                break
            state = game.apply(state, action)
        at = Position(game, state, {"next": {"code": "place", "params": {}, "actor": 0}})
        for kind, about in _questions(game.geometry.cells):
            started = time.process_time()
            say(ask(question(kind, **about), at), voice, NAMES)
            times.setdefault(kind, []).append(time.process_time() - started)
    worst = 0.0
    print(f"{'question':<8} {'answers':>8} {'median ms':>10} {'slowest ms':>11}  (CPU)")
    for kind, spent in times.items():
        worst = max(worst, max(spent))
        print(f"{kind:<8} {len(spent):>8} {statistics.median(spent) * 1000:>10.2f} "
              f"{max(spent) * 1000:>11.2f}")
    print(f"slowest answer {worst * 1000:.1f} ms of CPU (budget {BUDGET * 1000:.0f} ms)")
    return 0 if worst < BUDGET else 1


if __name__ == "__main__":
    sys.exit(main())
