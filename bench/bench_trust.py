"""How far the journal can be trusted: kill -9 at random points, then damage of every kind.

Plays scripted Fake Kosmos games through the JSON-lines runner in a subprocess and kills it
with SIGKILL at random points (fixed seed); after each restart, every action whose view was
printed before the kill must be in the resumed game. Then damages a journal as a kill leaves it
(a finished game and a running game of 30 entries, all in the WAL) in each way of
``tests/table/attack.py`` (the WAL deleted or overwritten with random bytes, the main file
truncated or overwritten, entries and records changed in place, the mark deleted) and opens it:
each case is recovered (nothing missing), told (the view says what is missing) or silent.

    .venv/bin/python bench/bench_trust.py [--kills 60] [--seed 1]

Goal: no acknowledged action lost, no silent damage case.
"""

from __future__ import annotations

import argparse
import logging
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tests.table.attack import DAMAGE, build_snapshot, chaos, damage_outcome  # noqa: E402


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--kills", type=int, default=60)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--dir", default=".",
                        help="where the journals are written (a real disk, not tmpfs)")
    parser.add_argument("--verbose", action="store_true", help="print each case's notices")
    args = parser.parse_args()
    logging.getLogger("app.table").setLevel(logging.ERROR)  # the notices are printed below
    with tempfile.TemporaryDirectory(dir=args.dir, prefix=".bench-trust-") as tmp:
        base = Path(tmp)
        started = time.perf_counter()
        (base / "chaos").mkdir()
        result = chaos(base / "chaos", args.kills, args.seed)
        took = time.perf_counter() - started
        print(f"kill -9 at random points ({args.kills} kills, seed {args.seed}, {took:.1f} s)")
        print(f"  kills survived:        {result['survived']} of {result['kills']}")
        print(f"  actions acknowledged:  {result['acted']} in {result['games']} finished games")
        print(f"  acknowledged lost:     {result['lost']}")
        for problem in result["problems"]:
            print(f"  ! {problem}")

        snap, expected = build_snapshot(base / "snapshot")
        outcomes: Counter[str] = Counter()
        print(f"\njournal damage ({len(DAMAGE)} cases)")
        for n, case in enumerate(DAMAGE):
            outcome, view, _ = damage_outcome(snap, expected, base / f"case{n}", case)
            outcomes[outcome] += 1
            print(f"  {outcome:10} {case}")
            if args.verbose or outcome == "silent":
                for notice in view["table"]["notices"]:
                    print(f"             - {notice}")
        print(f"  recovered {outcomes['recovered']}, told {outcomes['told']}, "
              f"silent {outcomes['silent']} (goal 0 silent)")
    good = result["lost"] == 0 and result["survived"] == result["kills"] and \
        outcomes["silent"] == 0
    return 0 if good else 1


if __name__ == "__main__":
    sys.exit(main())
