"""``sudoku-table serve``: the composition root, started as a user starts it."""

from __future__ import annotations

import importlib.util
import json
import os
import re
import signal
import subprocess
import sys
import urllib.request
from pathlib import Path

import pytest

from sudoku_table.assembly import default_data_dir
from sudoku_table.web.server import panel_addresses

ROOT = Path(__file__).resolve().parent.parent.parent
needs_firmware = pytest.mark.skipif(
    importlib.util.find_spec("sudoku_table.firmware.backend") is None,
                                    reason="sudoku_table.firmware.backend is not written yet")


def test_the_data_dir_defaults_to_the_users_data_home(monkeypatch: pytest.MonkeyPatch,
                                                      tmp_path: Path) -> None:
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    assert default_data_dir() == tmp_path / "sudoku-table"
    monkeypatch.delenv("XDG_DATA_HOME")
    assert default_data_dir() == Path.home() / ".local" / "share" / "sudoku-table"


@pytest.mark.integration
def test_addresses_to_print() -> None:
    assert panel_addresses("127.0.0.1", 8080) == ["http://127.0.0.1:8080/"]
    assert panel_addresses("::1", 8080) == ["http://[::1]:8080/"]
    wildcard = panel_addresses("0.0.0.0", 8080)
    assert wildcard[0] == "http://127.0.0.1:8080/"


def start_serve(data: Path, *extra: str) -> tuple[subprocess.Popen[str], str]:
    env = {**os.environ, "PYTHONUNBUFFERED": "1"}
    env.pop("SUDOKU_TABLE_CONFIG", None)
    process = subprocess.Popen(
        [sys.executable, "-m", "sudoku_table.cli", "serve", "--sim", "--port", "0",
         "--data", str(data),
         *extra],
        cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    assert process.stdout is not None
    line = process.stdout.readline()
    match = re.match(r"Sudoku Table panel: (http://127\.0\.0\.1:\d+/)$", line.strip())
    if match is None:
        process.kill()
        _, err = process.communicate(timeout=5)
        raise AssertionError(f"unexpected first line {line!r}; stderr: {err}")
    return process, match.group(1)


@pytest.mark.integration
@needs_firmware
def test_serve_prints_its_address_plays_and_stops_cleanly_on_sigterm(tmp_path: Path) -> None:
    data = tmp_path / "new" / "data"
    process, url = start_serve(data)
    try:
        request = urllib.request.Request(
            url + "api/game", data=json.dumps({"variant": "vierer-dominari"}).encode(),
            headers={"Content-Type": "application/json"})
        with urllib.request.urlopen(request, timeout=5) as response:
            assert json.loads(response.read())["game"]["variant"] == "vierer-dominari"
        request = urllib.request.Request(
            url + "api/sim/square", data=json.dumps({"square": "c3", "occupied": True}).encode(),
            headers={"Content-Type": "application/json"})
        with urllib.request.urlopen(request, timeout=5) as response:
            view = json.loads(response.read())
        assert view["table"]["prompt"]["square"] == "c3"
        events = urllib.request.urlopen(url + "api/events", timeout=5)  # a live view is open
        assert events.readline().startswith(b"retry")
        process.send_signal(signal.SIGTERM)
        # It stops without waiting for the open live view to end (which lasts minutes).
        out, err = process.communicate(timeout=60)
        events.close()
    finally:
        if process.poll() is None:
            process.kill()
            process.communicate()
    assert process.returncode == 0, err
    assert "Sudoku Table stopped." in out
    assert "Traceback" not in err
    assert (data / "journal.sqlite3").exists()


@pytest.mark.integration
@needs_firmware
def test_serve_resumes_the_game_from_its_journal(tmp_path: Path) -> None:
    process, url = start_serve(tmp_path)
    try:
        request = urllib.request.Request(
            url + "api/game", data=json.dumps({"variant": "revers-dominari"}).encode(),
            headers={"Content-Type": "application/json"})
        urllib.request.urlopen(request, timeout=5).close()
    finally:
        process.send_signal(signal.SIGINT)
        process.communicate(timeout=10)
    assert process.returncode == 0
    process, url = start_serve(tmp_path)
    try:
        with urllib.request.urlopen(url + "api/state", timeout=5) as response:
            assert json.loads(response.read())["game"]["variant"] == "revers-dominari"
    finally:
        process.send_signal(signal.SIGTERM)
        process.communicate(timeout=10)


@pytest.mark.integration
@needs_firmware
def test_a_bad_config_is_one_clear_line(tmp_path: Path) -> None:
    bad = tmp_path / "table.toml"
    bad.write_text("this is = = not toml")
    result = subprocess.run(
        [sys.executable, "-m", "sudoku_table.cli", "serve", "--sim", "--port", "0", "--data",
         str(tmp_path), "--config", str(bad)],
        cwd=ROOT, capture_output=True, text=True, timeout=30)
    assert result.returncode == 2
    assert result.stderr.startswith("sudoku-table: cannot start:")
    assert "Traceback" not in result.stderr
