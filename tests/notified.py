"""``sudoku-table serve`` started as systemd starts the unit: a notify socket of its own to hear
READY=1 and the watchdog's beats, and SIGTERM at the end."""

from __future__ import annotations

import contextlib
import os
import socket
import subprocess
import sys
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path


@dataclass
class Served:
    """The listening notify socket and the server; ``out`` and ``err`` once it has stopped."""

    listener: socket.socket
    process: subprocess.Popen[str]
    out: str = field(default="")
    err: str = field(default="")


@contextlib.contextmanager
def served(tmp_path: Path, hardware: str, *, start_timeout: float, drop: tuple[str, ...] = (),
           **env: str) -> Iterator[Served]:
    """``serve`` with ``hardware`` (``--sim`` or ``--real``) on a free port and its data under
    ``tmp_path``; the environment without ``SUDOKU_TABLE_CONFIG`` and ``drop``, plus ``env``
    and the notify socket. Stopped with SIGTERM on the way out."""
    notify_path = tmp_path / "notify"
    with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM) as listener:
        listener.bind(str(notify_path))
        listener.settimeout(start_timeout)
        environment = {k: v for k, v in os.environ.items()
                       if k not in ("SUDOKU_TABLE_CONFIG", *drop)}
        environment.update(NOTIFY_SOCKET=str(notify_path), **env)
        program = Path(sys.executable).with_name("sudoku-table")
        process = subprocess.Popen(
            [str(program), "serve", hardware, "--host", "127.0.0.1", "--port", "0",
             "--data", str(tmp_path / "data")],
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=environment)
        running = Served(listener, process)
        try:
            yield running
        finally:
            process.terminate()
            running.out, running.err = process.communicate(timeout=20)
