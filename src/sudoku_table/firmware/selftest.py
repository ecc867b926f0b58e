"""``sudoku-table selftest``: light every square in turn, watch the switches, report faults.

1. The LEDs: every square lights white in turn (a1, b1, .., i9), so a wrong mapping or a dead
   LED shows at a glance. On the simulator the wire bytes are checked: each square must light
   exactly its own LED.
2. The switches: the live matrix is shown in the terminal while someone sweeps a magnet (or a
   piece) over every square, starting from an empty board. On the simulator a simulated hand
   puts a piece on every square in turn and lifts it again.
3. The ghost probe: a magnet held on one square (``--probe``, e5 by default) while the board is
   otherwise empty; every reading on its eight neighbours is counted. A column that rises too
   slowly after its row was released, or a missing or reversed diode, shows here as readings
   next to the magnet. On the simulator the simulated hand holds the magnet.
4. The report: squares that never closed (silent), squares that never opened (stuck), rows and
   columns on which nothing ever closed (dead lines), the ghost probe's count, and every fault
   the scanner found.

The exit status is 0 when everything worked, 1 when something is broken, 2 when the table
cannot be opened.
"""

from __future__ import annotations

import argparse
import logging
import math
import sys
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field, replace
from typing import TextIO

from .backend import Hardware, open_hardware
from .config import ConfigError, HardwareConfig, load_config
from .debounce import ALL, COLUMN_MASKS, ROW_MASKS, bits
from .exc import HardwareError, SimulatorError
from .layout import FILES, SIZE, SQUARES, led_indices
from .leds import wire_color
from .matrix import ReedMatrix
from .ports import Light, SensorFault
from .simulator import SimulatedBoard

WHITE = (255, 255, 255)
INJECTIONS = ("stuck", "dead-row", "dead-column", "short-column", "short-row", "reversed-diode",
              "chatter")


@dataclass
class Coverage:
    """What every switch has done during the test, from raw readings."""

    seen_closed: int = 0
    seen_open: int = 0
    shorted_columns: int = 0
    """Columns that ever read closed with no row driven (their squares prove nothing)."""
    faults: list[SensorFault] = field(default_factory=list)

    def add(self, raw: int, idle: int = 0) -> None:
        self.seen_closed |= raw
        self.seen_open |= ~raw & ALL
        self.shorted_columns |= idle


@dataclass(frozen=True)
class GhostProbe:
    """What the matrix read while a magnet was held on ``square`` alone."""

    square: str
    scans: int
    held: int
    """Scans that read the magnet's own square closed."""
    ghosts: tuple[tuple[str, int], ...] = ()
    """Neighbours that read closed, and in how many scans."""

    @property
    def ok(self) -> bool:
        return self.held > 0 and not self.ghosts


@dataclass(frozen=True)
class Findings:
    """The verdict of a self-test."""

    dead_rows: tuple[int, ...] = ()
    """Rows (0-8, rank - 1) on which no switch ever closed."""
    dead_columns: tuple[int, ...] = ()
    shorted_columns: tuple[int, ...] = ()
    """Columns shorted to ground (they read closed with no row driven)."""
    silent: tuple[str, ...] = ()
    """Squares that never closed (outside dead lines)."""
    stuck: tuple[str, ...] = ()
    """Squares that never opened."""
    faults: tuple[SensorFault, ...] = ()
    nothing_closed: bool = False
    """No switch closed at all: nobody swept the board (or the whole matrix is dead)."""
    wrong_leds: tuple[str, ...] = ()
    """Squares whose LED check failed (simulator only)."""
    no_buzzer: str | None = None
    """Why the buzzer could not be opened (only when the buzzer was tested)."""
    probe: GhostProbe | None = None
    """The ghost probe's count (when the switches were tested)."""

    @property
    def ok(self) -> bool:
        if self.probe is not None and not self.probe.ok:
            return False
        return not (self.dead_rows or self.dead_columns or self.shorted_columns
                    or self.silent or self.stuck or self.faults or self.nothing_closed
                    or self.wrong_leds or self.no_buzzer)


def analyse(coverage: Coverage, wrong_leds: tuple[str, ...] = ()) -> Findings:
    """Turn the coverage into findings: dead lines first, then single squares."""
    unknown = 0
    for c in bits(coverage.shorted_columns):
        unknown |= COLUMN_MASKS[c]
    silent = ALL & ~coverage.seen_closed & ~unknown
    stuck = ALL & ~coverage.seen_open & ~unknown
    shorted = tuple(bits(coverage.shorted_columns))
    if coverage.seen_closed & ~unknown == 0:
        return Findings(shorted_columns=shorted, stuck=tuple(SQUARES[i] for i in bits(stuck)),
                        faults=tuple(coverage.faults), nothing_closed=True,
                        wrong_leds=wrong_leds)
    dead_rows = tuple(r for r, mask in enumerate(ROW_MASKS)
                      if silent & mask == mask & ~unknown)
    dead_columns = tuple(c for c, mask in enumerate(COLUMN_MASKS)
                         if not unknown & mask and silent & mask == mask)
    explained = 0
    for r in dead_rows:
        explained |= ROW_MASKS[r]
    for c in dead_columns:
        explained |= COLUMN_MASKS[c]
    return Findings(
        dead_rows=dead_rows,
        dead_columns=dead_columns,
        shorted_columns=shorted,
        silent=tuple(SQUARES[i] for i in bits(silent & ~explained)),
        stuck=tuple(SQUARES[i] for i in bits(stuck)),
        faults=tuple(coverage.faults),
        wrong_leds=wrong_leds,
    )


def render_matrix(raw: int, coverage: Coverage) -> str:
    """The board as text, rank 9 on top: ``#`` closed now, ``+`` has closed and opened,
    ``o`` has only been closed so far, ``.`` not closed yet, ``!`` on a shorted column."""
    lines = []
    for rank in range(SIZE - 1, -1, -1):
        cells = []
        for file in range(SIZE):
            bit = 1 << (rank * SIZE + file)
            if coverage.shorted_columns >> file & 1:
                cells.append("!")
            elif raw & bit:
                cells.append("#")
            elif coverage.seen_closed & bit:
                cells.append("+" if coverage.seen_open & bit else "o")
            else:
                cells.append(".")
        lines.append(f"{rank + 1} " + " ".join(cells))
    lines.append("  " + " ".join(FILES))
    return "\n".join(lines)


def N_(text: str) -> str:  # noqa: N802 (gettext's own name for it)
    """Marks a sentence for the panel's catalogs (the command line passes ``say``, which
    words it in the chosen language)."""
    return text


Say = Callable[[str], str]
"""Words an English sentence (a catalog entry) in the report's language."""


def english(text: str) -> str:
    return text


def report(findings: Findings, say: Say = english, sensors: bool = True) -> str:
    """The findings as text for a person, in the language of ``say``; ``sensors`` False when
    the switches were not part of the test."""
    out = []
    if findings.nothing_closed:
        out.append(say(N_("no switch closed at all: sweep a magnet over every square (or the "
                          "matrix is not connected)")))
    for r in findings.dead_rows:
        out.append(say(N_("dead row {row} (rank {row}): no switch on it ever closed"))
                   .format(row=r + 1))
    for c in findings.dead_columns:
        out.append(say(N_("dead column {column} (file {file}): no switch on it ever closed"))
                   .format(column=c + 1, file=FILES[c]))
    for c in findings.shorted_columns:
        out.append(say(N_("shorted column {column} (file {file}): it reads closed with no row "
                          "driven; its switches could not be tested"))
                   .format(column=c + 1, file=FILES[c]))
    if findings.silent:
        out.append(say(N_("silent (never closed): {squares}"))
                   .format(squares=", ".join(findings.silent)))
    if findings.stuck:
        out.append(say(N_("stuck (never opened; or a piece stayed there): {squares}"))
                   .format(squares=", ".join(findings.stuck)))
    for fault in findings.faults:
        out.append(say(N_("fault {kind}: {detail}")).format(kind=fault.kind,
                                                            detail=fault.detail))
    if findings.wrong_leds:
        out.append(say(N_("LEDs not lit as mapped: {squares}"))
                   .format(squares=", ".join(findings.wrong_leds)))
    if findings.no_buzzer:
        out.append(say(N_("no buzzer: {problem}")).format(problem=findings.no_buzzer))
    probe = findings.probe
    if probe is not None and probe.held == 0:
        out.append(say(N_("ghost probe: the magnet on {square} was never felt"))
                   .format(square=probe.square))
    elif probe is not None and probe.ghosts:
        out.append(say(N_("ghost probe: with a magnet on {square} alone, its neighbours read "
                          "closed: {squares}. A column rises too slowly after its row (raise "
                          "sensors.line_settle_us) or a diode is missing or reversed"))
                   .format(square=probe.square,
                           squares=", ".join(f"{sq} ({n}/{probe.scans})"
                                             for sq, n in probe.ghosts)))
    if not out:
        out.append(say(N_("all 81 switches closed and opened; no faults")) if sensors
                   else say(N_("no faults")))
    if probe is not None and probe.ok:
        out.append(say(N_("ghost probe: a magnet on {square}, its 8 neighbours read open in "
                          "all {scans} scans")).format(square=probe.square, scans=probe.scans))
    return "\n".join(out)


# --- the steps ---------------------------------------------------------------------------------

def led_walk(hardware: Hardware, step: float, out: TextIO,
             say: Say = english) -> tuple[str, ...]:
    """Light every square in turn; on the simulator, check each lit its own LED only."""
    display = hardware.display
    index = led_indices(hardware.config.leds)
    order = hardware.config.leds.pixel_order
    wrong = []
    print(say(N_("LEDs: lighting every square in turn ({ms} ms each)"))
          .format(ms=f"{step * 1000:g}"), file=out, flush=True)
    for square in SQUARES:
        display.show({square: Light(WHITE)})
        if hardware.is_simulated:
            data = display.pixels.last_bytes
            lit = [k for k in range(len(data) // 3) if any(wire_color(data, k, order))]
            if lit != [index[square]]:
                wrong.append(square)
        if step:
            time.sleep(step)
    display.show({})
    if hardware.is_simulated:
        print(say(N_("LEDs: {count} of 81 squares lit exactly their own LED"))
              .format(count=81 - len(wrong)), file=out)
    return tuple(wrong)


def neighbours(square: str) -> list[str]:
    """The up to eight squares around ``square``."""
    file, rank = FILES.index(square[0]), int(square[1:]) - 1
    return [f"{FILES[f]}{r + 1}" for r in range(rank - 1, rank + 2)
            for f in range(file - 1, file + 2)
            if 0 <= f < SIZE and 0 <= r < SIZE and (f, r) != (file, rank)]


def ghost_probe(hardware: Hardware, square: str, seconds: float, out: TextIO,
                say: Say = english) -> GhostProbe:
    """Hold a magnet on ``square`` (the simulated hand, or a person told to) for ``seconds``
    with the board otherwise empty, and count what the neighbours read."""
    matrix = hardware.sensors
    if not isinstance(matrix, ReedMatrix):
        raise HardwareError("the reed matrix is not open: no ghost probe")
    index = {sq: i for i, sq in enumerate(SQUARES)}
    around = neighbours(square)
    board = hardware.simulator
    if board is not None:
        board.clear()
        board.set_square(square, True)
        print(say(N_("Ghost probe: a simulated magnet on {square}")).format(square=square),
              file=out, flush=True)
        time.sleep(board.noise.bounce_ms / 1000 + matrix.interval)  # its bounce ends
    else:
        print(say(N_("Ghost probe: take every piece off, hold a magnet on {square} and keep it "
                     "there until this says done ({seconds} s)"))
              .format(square=square, seconds=f"{seconds:g}"), file=out, flush=True)
    counts = dict.fromkeys(around, 0)
    held = scans = 0
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        time.sleep(matrix.interval)
        raw, _idle = matrix.read()
        scans += 1
        held += raw >> index[square] & 1
        for neighbour in around:
            counts[neighbour] += raw >> index[neighbour] & 1
    if board is not None:
        board.set_square(square, False)
    print(say(N_("Ghost probe: done")), file=out, flush=True)
    return GhostProbe(square, scans, held, tuple((sq, n) for sq, n in counts.items() if n))


def simulated_hand(board: SimulatedBoard, scans: int = 1) -> Iterator[None]:
    """Put a piece on every square in turn and lift it again, each held for ``scans`` scans
    (long enough for the contact to stop bouncing)."""
    for square in SQUARES:
        board.set_square(square, True)
        for _ in range(scans):
            yield
        board.set_square(square, False)
        for _ in range(scans):
            yield


def inject(board: SimulatedBoard, spec: str) -> None:
    """Inject one fault into the simulator: ``stuck:c3``, ``dead-row:4``, ``dead-column:e``,
    ``short-column:e``, ``short-row:4``, ``reversed-diode:c3`` or ``chatter:d4``."""
    kind, _, where = spec.partition(":")
    if kind not in INJECTIONS or not where:
        kinds = ", ".join(k + ":WHERE" for k in INJECTIONS)
        raise SimulatorError(f"--inject must be one of {kinds}, got {spec!r}")
    if kind == "stuck":
        board.set_stuck(where, True)
    elif kind == "reversed-diode":
        board.set_reversed_diode(where)
    elif kind == "chatter":
        board.chatter(where, 3600.0, period=0.006)
    elif kind in ("dead-row", "short-row"):
        if where not in "123456789" or len(where) != 1:
            raise SimulatorError(f"a row is a rank 1..9, got {where!r}")
        (board.set_dead_row if kind == "dead-row" else board.set_shorted_row)(int(where) - 1)
    else:
        if where not in FILES or len(where) != 1:
            raise SimulatorError(f"a column is a file a..i, got {where!r}")
        if kind == "dead-column":
            board.set_dead_column(FILES.index(where))
        else:
            board.set_shorted_column(FILES.index(where))


def watch_sensors(hardware: Hardware, seconds: float | None, out: TextIO,
                  live: bool, say: Say = english) -> Coverage:
    """Scan and record what every switch does, showing the matrix live on a terminal."""
    matrix = hardware.sensors
    if not isinstance(matrix, ReedMatrix):
        raise HardwareError("the reed matrix is not open: nothing to watch")
    coverage = Coverage()
    matrix.listen(None, coverage.faults.append)
    hand = None
    if hardware.simulator is not None:
        bounce = hardware.simulator.noise.bounce_ms / 1000
        hand = simulated_hand(hardware.simulator, 1 + math.ceil(bounce / matrix.interval))
    if hand is None:
        how = (say(N_("(Ctrl-C ends)")) if seconds is None
               else say(N_("({seconds} s)")).format(seconds=f"{seconds:g}"))
        print(say(N_("Switches: start with an empty board, then sweep a magnet over every "
                     "square")) + " " + how, file=out, flush=True)
    else:
        print(say(N_("Switches: a simulated hand puts a piece on every square and lifts it")),
              file=out, flush=True)
    start = time.monotonic()
    deadline = None if seconds is None else start + seconds
    next_draw = start
    drawn = False
    interval = matrix.interval
    try:
        while True:
            if hand is not None and next(hand, StopIteration) is StopIteration:
                hand = None
                if seconds is None:
                    deadline = time.monotonic() + 0.1
            time.sleep(interval)
            matrix.scan_once()
            coverage.add(matrix.last_raw, matrix.last_idle)
            now = time.monotonic()
            if live and now >= next_draw:
                if drawn:
                    out.write(f"\x1b[{SIZE + 1}F")
                out.write(render_matrix(matrix.last_raw, coverage) + "\n")
                out.flush()
                drawn, next_draw = True, now + 0.1
            if deadline is not None and now >= deadline:
                break
    except KeyboardInterrupt:
        print(file=out)
    if not live or not drawn:
        print(render_matrix(matrix.last_raw, coverage), file=out)
    return coverage


PROBE_SECONDS = 5.0
"""How long a person holds the magnet for the ghost probe."""
PARTS = ("all", "leds", "sensors", "buzzer")
"""What ``--part`` can test: everything, or one part at a time while the table is being built."""


def sound_check(hardware: Hardware, out: TextIO, say: Say = english) -> str | None:
    """Play the three sounds on the buzzer (listen); the reason when there is no buzzer."""
    buzzer = hardware.buzzer
    if buzzer is None:
        return hardware.buzzer_error or "not opened"
    print(say(N_("Buzzer: an illegal piece, points, your turn (listen)")), file=out, flush=True)
    for name in ("illegal", "points", "turn"):
        buzzer.play(name)
        buzzer.idle(timeout=3.0)
        time.sleep(0.3)
    return None


def run(hardware: Hardware, seconds: float | None, out: TextIO, led_step: float,
        live: bool = False, say: Say = english, part: str = "all",
        probe: str | None = "e5") -> Findings:
    """The self-test on opened hardware: every part, or the one named; ``probe`` the square of
    the ghost probe (None: no probe)."""
    wrong = led_walk(hardware, led_step, out, say) if part in ("all", "leds") else ()
    no_buzzer = sound_check(hardware, out, say) if part in ("all", "buzzer") else None
    if part in ("all", "sensors"):
        findings = analyse(watch_sensors(hardware, seconds, out, live, say), wrong)
        if probe is not None:
            probe_seconds = 0.2 if hardware.is_simulated else PROBE_SECONDS
            findings = replace(findings, probe=ghost_probe(hardware, probe, probe_seconds, out,
                                                           say))
    else:
        findings = Findings(wrong_leds=wrong)
    return replace(findings, no_buzzer=no_buzzer)


def main(args: argparse.Namespace, out: TextIO | None = None,
         config: HardwareConfig | None = None, say: Say = english) -> int:
    """``sudoku-table selftest [--sim] [--config FILE] [--seconds S] [--inject KIND:WHERE]``;
    ``config`` is the table's config as the command line read it (else ``args.config`` is read
    for the firmware's sections alone); ``say`` words the report (English by default)."""
    out = out or sys.stdout
    injections = list(getattr(args, "inject", None) or [])
    seconds = getattr(args, "seconds", None)
    if seconds is not None and not seconds > 0:
        print(f"sudoku-table selftest: --seconds must be above 0, got {seconds}",
              file=sys.stderr)
        return 2
    if injections and not args.sim:
        print("sudoku-table selftest: --inject needs --sim", file=sys.stderr)
        return 2
    try:
        if config is None:
            config = load_config(args.config)
        hardware = open_hardware(config, simulate=True if args.sim else None)
    except (ConfigError, OSError) as e:
        print(f"sudoku-table selftest: cannot start: {e}", file=sys.stderr)
        return 2
    try:
        if hardware.simulator is not None:
            for spec in injections:
                inject(hardware.simulator, spec)
        print(say(N_("Self-test of the simulated table")) if hardware.is_simulated
              else say(N_("Self-test of the table")), file=out)
        live = out.isatty() if hasattr(out, "isatty") else False
        # the report lists them
        logging.getLogger("sudoku_table.firmware.matrix").setLevel(logging.ERROR)
        led_step = 0.001 if hardware.is_simulated else 0.05
        part = getattr(args, "part", None) or "all"
        probe = getattr(args, "probe", "e5")
        findings = run(hardware, seconds, out, led_step, live=live, say=say, part=part,
                       probe=None if probe == "none" else probe)
    except ValueError as e:
        print(f"sudoku-table selftest: {e}", file=sys.stderr)
        return 2
    finally:
        hardware.close()
    print(report(findings, say, sensors=part in ("all", "sensors")), file=out)
    return 0 if findings.ok else 1
