"""The model player, many times: every game played to its end by a family that only follows the
table, with its mistakes (``tests/table/model_player.py``, the state machine of
``tests/table/test_model_player.py``).

For each of the twelve games it plays ``--games`` games (seeds 1..N; the player counts taken in
turn, every fourth game with the computer in a seat, every twentieth on the real scan path of
the simulated board), each driven by ``drive``: the same family and the same mistakes at the
same moments as the state machine's, without Hypothesis choosing each step (a failure
replays, and shrinks, with ``play`` of the test module). It counts:

- **stuck**: following the table made no progress (a loop, a dead end, a game that never ends);
- **disagreements**: the table's game differs from the players' own account of it;
- **contradictions**: a square's light, the bar's next step, the words spoken and the legend
  say different things (``ModelPlayer.check_agreement``);
- **other failures**: a drawing that lies, controls that do not fit, a wrong actor;
- per game action: the players' acts on the board and taps on the panel (the mistakes, undos,
  redos and power cuts included).

    .venv/bin/python bench/bench_model_player.py [--games 200] [--jobs 2] [--only VARIANT]
        [--journals DIR] [--deal {off,on,both}]

With ``--deal on`` the games that hide hands are played with the table dealing (each player
reads their card from their own phone, puts it down with no number tapped); ``--deal both``
plays each of them both ways, the rows side by side (``dealt`` marks the table's deal).

The journals go to ``/dev/shm`` where there is one (what is measured here is how the table
leads the players, not how fast the disk syncs).

Goal: 0 stuck, 0 disagreements, 0 contradictions, 0 other failures.
"""

from __future__ import annotations

import argparse
import logging
import sys
import time
from collections import Counter, defaultdict
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from sudoku_table.rules.game import all_variants  # noqa: E402
from tests.table import model_player, test_model_player  # noqa: E402
from tests.table.model_player import Contradiction, Disagreement, Stuck  # noqa: E402
from tests.table.test_model_player import drive, seat_for, summary  # noqa: E402


def label(variant: str, deal: bool) -> str:
    return f"{variant} dealt" if deal else variant


def one(job: tuple[str, bool, int, str | None, bool]) -> dict[str, Any]:
    """Play one game; its figures and how it ended."""
    logging.getLogger("sudoku_table.table").setLevel(logging.ERROR)
    variant, deal, index, journals, careful = job
    model_player.JOURNALS = journals
    if careful:  # nobody errs: no mistake is ever due
        test_model_player.RATES = dict.fromkeys(test_model_player.RATES, 0)
    seat = seat_for(variant, index, deal)
    figures: list[dict[str, Any]] = []
    started = time.perf_counter()
    outcome, detail = "ok", ""
    try:
        drive(seat, index + 1, done=lambda p: figures.append(summary(p)))
    except Stuck as e:
        outcome, detail = "stuck", str(e)
    except Disagreement as e:
        outcome, detail = "disagreement", str(e)
    except Contradiction as e:
        outcome, detail = "contradiction", str(e)
    except AssertionError as e:
        outcome, detail = "failure", str(e)
    except Exception as e:  # noqa: BLE001 (a crash is counted and told, the bench goes on)
        inner = getattr(e, "exceptions", None)  # Hypothesis: a failure that did not repeat
        if inner:
            e = inner[0]
        outcome, detail = "error", f"{type(e).__name__}: {e}"
    return {"variant": label(variant, deal), "seat": str(seat), "seed": index + 1,
            "outcome": outcome,
            "detail": detail.splitlines()[0][:300] if detail else "",
            "figures": figures[-1] if figures else None,
            "seconds": time.perf_counter() - started}


def per_action(results: list[dict[str, Any]]) -> tuple[float, float]:
    """The players' acts on the board and taps on the panel or a phone, per game action."""
    played = [r["figures"] for r in results if r["figures"] and r["figures"]["actions"]]
    actions = sum(f["actions"] for f in played) or 1
    return (sum(f["acts"] for f in played) / actions, sum(f["taps"] for f in played) / actions)


def row(variant: str, results: list[dict[str, Any]]) -> str:
    """One game's line of the table: outcomes, then acts and taps per game action."""
    outcomes = Counter(r["outcome"] for r in results)
    played = [r["figures"] for r in results if r["figures"] and r["figures"]["actions"]]
    acts, taps = per_action(results)
    n = len(played) or 1
    extra = [sum(f[k] for f in played) / n for k in ("mistakes", "undos", "redos", "power_cuts")]
    seconds = sum(r["seconds"] for r in results) / (len(results) or 1)
    return (f"| {variant} | {len(results)} | {outcomes['stuck']} | {outcomes['disagreement']} "
            f"| {outcomes['contradiction']} | {outcomes['failure'] + outcomes['error']} "
            f"| {acts:.2f} | {taps:.2f} "
            f"| {', '.join(f'{x:.1f}' for x in extra)} | {seconds:.1f} |")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=200, help="games per game (default 200)")
    parser.add_argument("--jobs", type=int, default=2, help="processes (default 2)")
    parser.add_argument("--only", action="append", help="only this variant (repeatable)")
    parser.add_argument("--journals", default="/dev/shm" if Path("/dev/shm").is_dir() else None,
                        help="where the journals are written (default /dev/shm)")
    parser.add_argument("--deal", choices=("off", "on", "both"), default="off",
                        help="the table deals in the games that hide hands: off (default), "
                             "on (only those games, dealt), both (those games both ways)")
    parser.add_argument("--careful", action="store_true",
                        help="a family that makes no mistake (no wrong piece, Undo, Redo or "
                             "power cut): what a game itself costs")
    args = parser.parse_args()
    classes = [c for c in all_variants() if not args.only or c.id in args.only]
    if args.deal != "off":
        classes = [c for c in classes if c.hidden_hands]
    ways = {"off": (False,), "on": (True,), "both": (False, True)}[args.deal]
    jobs = [(c.id, deal, i, args.journals, args.careful) for c in classes for deal in ways
            for i in range(args.games)]
    results: dict[str, list[dict[str, Any]]] = defaultdict(list)
    rows: list[str] = []
    totals: Counter[str] = Counter()
    started = time.perf_counter()
    print("| game | games | stuck | disagreements | contradictions | other failures "
          "| acts per action | taps per action | mistakes, undos, redos, power cuts per game "
          "| s per game |")
    print("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |", flush=True)
    with ProcessPoolExecutor(max_workers=args.jobs) as pool:
        for result in pool.map(one, jobs, chunksize=2):
            variant = result["variant"]
            results[variant].append(result)
            if result["outcome"] != "ok":
                print(f"  ! {result['seat']} seed {result['seed']}: {result['outcome']}: "
                      f"{result['detail']}", flush=True)
            if len(results[variant]) == args.games:  # this game is done: its row
                rows.append(row(variant, results[variant]))
                totals.update(r["outcome"] for r in results[variant])
                print(rows[-1], flush=True)
    took = time.perf_counter() - started
    print(f"\n{len(jobs)} games in {took / 60:.1f} min ({args.jobs} processes)\n")
    if args.deal == "both":
        print("| game | acts per action: players draw, table deals "
              "| taps per action: players draw, table deals |")
        print("| --- | ---: | ---: |")
        for c in classes:
            (a0, t0), (a1, t1) = (per_action(results[label(c.id, deal)]) for deal in ways)
            print(f"| {c.id} | {a0:.2f}, {a1:.2f} | {t0:.2f}, {t1:.2f} |")
    print(f"\nstuck {totals['stuck']}, disagreements {totals['disagreement']}, contradictions "
          f"{totals['contradiction']}, other failures {totals['failure'] + totals['error']} "
          "(goal: 0, 0, 0, 0)")
    return 0 if totals["ok"] == len(jobs) else 1


if __name__ == "__main__":
    sys.exit(main())
