"""Waiting on a condition, the one way the suite waits for something to happen.

A test never sleeps for a thing to be done: it asks again until the thing is true. The deadline
is a guard against a hang, never a measure: it is long (30 s), so a busy machine only makes a
test slower, never makes it fail. How fast something happens is measured in ``bench/``."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import TypeVar

T = TypeVar("T")

GUARD = 30.0
"""Seconds before a condition that never came true fails the test."""


def until(condition: Callable[[], T], seconds: float = GUARD, every: float = 0.01) -> T:
    """``condition()`` once it is truthy, asked every ``every`` seconds; its last (falsy)
    answer after ``seconds``, so ``assert until(...)`` fails with it."""
    deadline = time.monotonic() + seconds
    while True:
        found = condition()
        if found or time.monotonic() >= deadline:
            return found
        time.sleep(every)
