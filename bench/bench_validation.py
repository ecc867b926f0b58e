"""The shape check of a request against the OpenAPI document: what it adds to a request.

Every request body and query of the panel is checked by the validators ``validation`` compiles
from ``openapi.yaml`` once per process. This measures the compile and the check of a few typical
bodies (a panel input, a full new game, a speech setting) and of a refused one, over many runs.

Budget: a check under 1 ms at the median on a PC (a few ms on a Pi).

Run: .venv/bin/python bench/bench_validation.py [--runs 5000]
"""

from __future__ import annotations

import argparse
import statistics
import time
from typing import Any

from sudoku_table.web.api import openapi_document
from sudoku_table.web.validation import Shapes

BODIES: list[tuple[str, str, dict[str, Any]]] = [
    ("a number input", "/api/input", {"type": "number", "square": "c3", "number": 4,
                                      "version": 12}),
    ("a new game with every field", "/api/game", {
        "variant": "classic-sudoku", "players": 2, "names": ["Anna", "Ben"],
        "colors": ["#cc3311", "#009e73"], "computers": {"1": "strong"}, "hints": True,
        "setup": {"a1": {"owner": 0, "number": 3}}}),
    ("a speech setting", "/api/table/speech", {"on": True, "volume": 0.5, "language": "de"}),
    ("a refused input (unknown type)", "/api/input", {"type": "teleport"}),
]
BUDGET_US = 1000.0


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5000)
    args = parser.parse_args()
    document = openapi_document()
    start = time.perf_counter()
    shapes = Shapes.from_document(document)
    print(f"compile every operation: {(time.perf_counter() - start) * 1000:.0f} ms")
    worst = 0.0
    for what, path, body in BODIES:
        validator = shapes.operations[(path, "post")].body
        times = []
        for _ in range(args.runs):
            start = time.perf_counter()
            list(validator.iter_errors(body))
            times.append((time.perf_counter() - start) * 1e6)
        median = statistics.median(times)
        worst = max(worst, median)
        print(f"{what}: median {median:.0f} µs, p99 "
              f"{statistics.quantiles(times, n=100)[98]:.0f} µs")
    print("within budget" if worst < BUDGET_US else "OVER BUDGET")


if __name__ == "__main__":
    main()
