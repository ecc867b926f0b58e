"""Every scenario under scenarios/ plays to the signals, prompts and states it expects.

A scenario is JSON: the game to start, the physical board at the start, then steps: ``put`` /
``lift`` a square (a sensor event), ``input`` (a panel input, with ``error`` when it must be
refused without changing anything), ``wait`` seconds, and ``expect`` (signals exactly or
``signals_include``, ``prompt`` as a subset, ``message_contains``, ``state`` as a subset of the
state document, ``guidance``, the record's ``actions``). Scenarios for a real variant that is not
yet registered are skipped.
"""

from __future__ import annotations

from typing import Any

import pytest

from .fakes import FAKES
from .helpers import load_scenarios, run_scenario

SCENARIOS = load_scenarios()


def test_every_family_has_many_scenarios() -> None:
    families: dict[str, int] = {}
    for _, scenario in SCENARIOS:
        families[scenario["variant"]] = families.get(scenario["variant"], 0) + 1
    for fake in FAKES:
        assert families.get(fake, 0) >= 3, fake


@pytest.mark.integration
@pytest.mark.parametrize("scenario", [s for _, s in SCENARIOS], ids=[n for n, _ in SCENARIOS])
def test_scenario(scenario: dict[str, Any]) -> None:
    table = run_scenario(scenario)
    table.close()
