"""Helpers for the appliance tests: finished games played on the simulated board, and a fake
bus client standing in for ``busctl`` (the real one is never called)."""

from __future__ import annotations

import json
import os
import stat
import sys
from pathlib import Path
from typing import Any

from .helpers import put

EXAMPLES = Path(__file__).resolve().parents[1] / "data" / "examples"
SHORT_FINISHED = "vierer-dominari-7-12.json"
"""A game that finishes after 12 placements."""


def example(name: str = SHORT_FINISHED) -> dict[str, Any]:
    data = json.loads((EXAMPLES / name).read_text(encoding="utf-8"))
    assert isinstance(data, dict)
    return data


def play_to_the_end(client: Any, name: str = SHORT_FINISHED) -> dict[str, Any]:
    """Play an example's record on the simulated board through the API, as players would:
    every piece put down, its number told; the view at the end."""
    record = example(name)["record"]
    response = client.post("/api/game", json={"variant": record["variant"],
                                              "players": record["players"], "replace": True})
    assert response.status_code == 200, response.get_json()
    view = response.get_json()
    for action in record["actions"]:
        assert action["type"] == "place", action
        put(client, action["cell"])
        response = client.post("/api/input", json={"type": "number", "square": action["cell"],
                                                    "number": action["number"]})
        assert response.status_code == 200, response.get_json()
        view = response.get_json()
    assert view["game"]["over"], view["game"]
    client.post("/api/sim/clear", json={})
    return view


FAKE_BUSCTL = """#!{python}
# A stand-in for busctl: logs its arguments, answers logind's Can* questions with {answer!r},
# and fails the call itself when told to.
import json, sys
with open({log!r}, "a") as f:
    f.write(json.dumps(sys.argv[1:]) + "\\n")
method = sys.argv[sys.argv.index("call") + 4] if "call" in sys.argv else ""
if method.startswith("Can"):
    print('s "{answer}"')
elif {fail!r}:
    print("Call failed: Access denied", file=sys.stderr)
    sys.exit(1)
"""


def fake_busctl(directory: Path, answer: str = "yes", fail: bool = False) -> tuple[Path, Path]:
    """A fake ``busctl`` in ``directory`` and the file it logs each call to (one JSON list of
    arguments per line)."""
    log = directory / "busctl.log"
    program = directory / "busctl"
    program.write_text(FAKE_BUSCTL.format(python=sys.executable, answer=answer, log=str(log),
                                          fail=fail), encoding="utf-8")
    program.chmod(program.stat().st_mode | stat.S_IXUSR)
    assert os.access(program, os.X_OK)
    return program, log


def calls(log: Path) -> list[list[str]]:
    if not log.exists():
        return []
    return [json.loads(line) for line in log.read_text(encoding="utf-8").splitlines()]
