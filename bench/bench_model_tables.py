"""The model player at two and three tables, many games: every game of the table, each at two
tables and (where it seats three) at three, over one Mosquitto of its own on loopback
(``tests/network/model_tables.py``). Random acts at every table (a move, a move from another
table carried out, a take-back on the board, a stray piece, a piece lifted and put back, Undo,
Redo, the bar followed) and random faults (a slow link, a guest's table switched off and on);
after every step every copy of the log and every table's game compared.

It counts:

- **unseen**: a table whose game is not the host's and says nothing (goal 0);
- **stuck**: no action counted for many steps, or a proposal never answered (goal 0);
- **told**: a table that said its game parted from the host's, and followed it back;
- steps per second, and the game actions played.

    .venv/bin/python bench/bench_model_tables.py [--games 300] [--steps 150] [--only VARIANT]
        [--no-faults]
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

from sudoku_table.rules.game import all_variants  # noqa: E402
from tests.network.conftest import Mosquitto  # noqa: E402
from tests.network.model_tables import Stuck, Unseen, game_at  # noqa: E402


def cases(games: int, only: str | None) -> list[tuple[str, int, int]]:
    """``games`` (variant, tables, seed) in turn over every game and its table counts."""
    kinds = [(cls.id, tables) for cls in all_variants() if only in (None, cls.id)
             for tables in ((2, 3) if cls.max_players >= 3 else (2,))]
    return [(*kinds[i % len(kinds)], 1000 + i) for i in range(games)]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=300)
    parser.add_argument("--steps", type=int, default=150)
    parser.add_argument("--only")
    parser.add_argument("--no-faults", action="store_true")
    args = parser.parse_args()
    logging.disable(logging.CRITICAL)
    counts: Counter[str] = Counter()
    steps = actions = 0
    started = time.perf_counter()
    with tempfile.TemporaryDirectory() as folder:
        broker = Mosquitto(Path(folder))
        broker.start()
        try:
            for n, (variant, tables, seed) in enumerate(cases(args.games, args.only)):
                where = Path(folder) / f"game{n}"
                try:
                    with game_at(where, broker.url, variant, tables, seed,
                                 faults=not args.no_faults) as game:
                        outcome = game.play(args.steps)
                    counts["ok"] += 1
                    counts["told"] += outcome.told
                    steps += outcome.steps
                    actions += outcome.actions
                except Unseen as e:
                    counts["unseen"] += 1
                    print(f"UNSEEN {variant} at {tables} tables, seed {seed}: {e}")
                except Stuck as e:
                    counts["stuck"] += 1
                    print(f"STUCK {variant} at {tables} tables, seed {seed}: {e}")
        finally:
            broker.stop()
    seconds = time.perf_counter() - started
    print(f"games {args.games}: ok {counts['ok']}, unseen {counts['unseen']}, "
          f"stuck {counts['stuck']}, parted and told {counts['told']}")
    print(f"steps {steps} ({steps / seconds:.1f}/s), game actions {actions}, "
          f"{seconds:.0f} s")


if __name__ == "__main__":
    main()
