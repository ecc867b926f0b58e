"""The suite's tiers, and the guard that keeps them true.

Every test belongs to one tier, by its marks:

- ``browser``: drives a real Chromium (Playwright); also ``integration`` in spirit, kept apart
  because it is the slowest kind and needs Debian's chromium;
- ``integration``: a whole ``Table``, the panel's app or server, a broker, a subprocess or a
  socket: the parts working together;
- ``unit`` (given here to every test that is neither): one part on its own, in memory,
  milliseconds each. ``make test-fast`` runs these (``-m "unit and not slow"``).

A test marked ``unit`` that builds a ``Table``, starts a process, opens a socket or asks for
a fixture of the integration tier fails with a message saying which mark it needs, so the fast
tier never slowly fills with integration tests by accident. ``slow`` (over 5 s on an idle
machine, each with its reason) and ``sweep`` (more seeds, left out unless asked) cut across
the tiers.
"""

from __future__ import annotations

import socket
import subprocess
from collections.abc import Iterator
from typing import Any, NoReturn

import pytest

TIERS = ("browser", "integration")
"""The marks that take a test out of the unit tier."""

INTEGRATION_FIXTURES = frozenset({
    "browser", "page_for", "server", "table", "app", "client", "hardware", "mosquitto", "live",
    "serve"})
"""Fixtures that bring up a whole table, a panel, a browser or a broker."""


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        if not any(item.get_closest_marker(mark) for mark in TIERS):
            item.add_marker(pytest.mark.unit)


class TierError(AssertionError):
    """A unit test reached for something only an integration test may use."""


def _refuse(what: str) -> Any:
    def refused(*_args: Any, **_kwargs: Any) -> NoReturn:
        raise TierError(f"this test {what}: mark it integration (pytest.mark.integration), "
                        "or keep it a unit test that needs none of that (tests/conftest.py)")
    return refused


@pytest.fixture(autouse=True)
def _unit_tests_stay_units(request: pytest.FixtureRequest,
                           monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    if request.node.get_closest_marker("unit") is None:
        yield
        return
    wanted = INTEGRATION_FIXTURES & set(request.fixturenames)
    if wanted:
        _refuse(f"asks for the fixture {sorted(wanted)[0]!r}")()
    from sudoku_table.table import Table

    monkeypatch.setattr(Table, "__init__", _refuse("builds a whole Table"))
    monkeypatch.setattr(subprocess.Popen, "__init__", _refuse("starts a process"))
    monkeypatch.setattr(socket.socket, "connect", _refuse("opens a network connection"))
    monkeypatch.setattr(socket.socket, "bind", _refuse("listens on a socket"))
    yield


def pytest_terminal_summary(terminalreporter: Any, config: pytest.Config) -> None:
    """The order's seed at the end too (``-q`` hides the header), so a failure that depends on
    the order can be run again in the same order."""
    seed = getattr(config.option, "randomly_seed", None)
    if isinstance(seed, int):
        terminalreporter.write_line(f"random order: again with --randomly-seed={seed}")
