"""The table's voice in real time: every phrase of a played game of each family, rendered.

Plays one random game of each family to its end on the simulated board (as
``tests/speech/games.py`` does), words every announcement in German and in English as the
table's speaker does, and renders each sentence with the table's engine (Debian's espeak-ng),
one process per sentence as the speaker runs it. Measured here: the sentences, the seconds of
audio, that none is silence, the wall and CPU time of rendering, and the real-time factor (CPU
seconds per second of speech; under 1 is faster than speaking). Estimated for a Pi: the same CPU
time scaled by each board's single-core speed relative to this machine (the range
``bench_pi_scan.py`` documents: Pi 4 4-6x, Zero 2 W 10-15x the time of a current x86 core;
espeak-ng is C, so the factors are if anything on the high side).

    .venv/bin/python bench/bench_speech.py [--seed 11]

Budget: a real-time factor under 0.5 on a Zero 2 W at the slow end of its range, so the table
speaks sooner than it takes to say (and the speaker's thread leaves the scan most of a core).
"""

from __future__ import annotations

import argparse
import resource
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from sudoku_table.speech.engine import EspeakEngine, measure  # noqa: E402
from sudoku_table.table import announce  # noqa: E402
from sudoku_table.web.speech import CatalogVoice  # noqa: E402
from tests.speech.games import FAMILIES, play_to_the_end  # noqa: E402

BOARDS = {"Pi 4 (Cortex-A72, 1.8 GHz)": (4.0, 6.0), "Zero 2 W (Cortex-A53, 1 GHz)": (10.0, 15.0)}
BUDGET_ZERO = 0.5


def children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seed", type=int, default=11)
    args = parser.parse_args()
    engine = EspeakEngine()
    if engine.problem():
        print(engine.problem(), file=sys.stderr)
        return 2
    print(f"{'game':20} {'lang':4} {'sentences':>9} {'audio s':>8} {'silent':>6} "
          f"{'render s':>8} {'cpu s':>6} {'RTF':>6} {'per sentence ms (median)':>24}")
    total_audio = total_cpu = 0.0
    silent_total = 0
    for variant in FAMILIES:
        said, table = play_to_the_end(variant, seed=args.seed)
        table.close()
        for language in ("de", "en"):
            voice = CatalogVoice(language)
            texts = [t for a in said for t in announce.words(
                a["parts"], voice, announce.seat_names(a["seats"], voice.text)) if t]
            audio = wall = 0.0
            silent = 0
            each = []
            cpu_before = children_cpu()
            for text in texts:
                started = time.perf_counter()
                wav = engine.render(text, language)
                took = time.perf_counter() - started
                wall += took
                each.append(took * 1000)
                clip = measure(wav)
                audio += clip.seconds
                silent += clip.silent
            cpu = children_cpu() - cpu_before
            total_audio += audio
            total_cpu += cpu
            silent_total += silent
            print(f"{variant:20} {language:4} {len(texts):9d} {audio:8.1f} {silent:6d} "
                  f"{wall:8.2f} {cpu:6.2f} {cpu / audio:6.3f} {statistics.median(each):24.1f}")
    rtf = total_cpu / total_audio
    print(f"\nall: {total_audio:.0f} s of speech, rendered with {total_cpu:.1f} s of CPU here: "
          f"real-time factor {rtf:.3f}; silent sentences: {silent_total}")
    print("estimated on a Pi (CPU time scaled by single-core speed):")
    worst = 0.0
    for board, (low, high) in BOARDS.items():
        print(f"  {board:30} real-time factor {rtf * low:.2f}-{rtf * high:.2f}")
        worst = max(worst, rtf * high)
    ok = silent_total == 0 and worst < BUDGET_ZERO
    print(f"budget: no silent sentence, RTF under {BUDGET_ZERO} on a Zero 2 W: "
          f"{'met' if ok else 'MISSED'}")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
