"""The matrix's lines as groups: the calls the pin factory offers the scan.

The scan needs three things of the hardware, and the pin factory is its one door to them:

- the nine columns read in one call (:meth:`GroupPins.claim_input_group`, then
  :meth:`LineGroup.read`), with the pull-ups on;
- the nine rows as open-drain lines (:meth:`GroupPins.claim_open_drain_group`, then
  :meth:`LineGroup.write`): a row bit 0 drives that row low, a bit 1 releases it (high
  impedance; the pull-up keeps it high). A released row drives nothing, so a reversed diode or a
  row shorted to another line cannot make two outputs fight;
- a settle (:meth:`GroupPins.settle`): the time the lines get after each row change before the
  columns are read. It is a wait for a time, not for a number of instructions, so a faster
  Python, a faster Pi or fewer calls cannot make the scan read a column that is still rising.

On a Pi, :class:`~sudoku_table.firmware.lgpio_lines.GroupLGPIOFactory` offers these calls
through lgpio's ``group_claim_input``/``group_read``/``group_write`` (one kernel call each);
the simulator's factory offers them on its electrical model. A gpiozero factory without them
(RPi.GPIO, pigpio, native) gets :class:`PinByPinGroups`, which does the same one pin at a time.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from typing import Any, Protocol, runtime_checkable

from .exc import HardwareError


@runtime_checkable
class LineGroup(Protocol):
    """Some GPIO lines claimed together: bit ``i`` stands for the ``i``-th line."""

    def read(self) -> int:
        """The lines' levels (bit set: high)."""
        ...

    def write(self, bits: int) -> None:
        """Open-drain groups only: bit clear drives that line low, bit set releases it."""
        ...

    def close(self) -> None:
        """Release the lines (idempotent)."""
        ...


@runtime_checkable
class GroupPins(Protocol):
    """What a pin factory offers the matrix scan."""

    def claim_input_group(self, gpios: Sequence[int], requester: object) -> LineGroup:
        """The lines as inputs with their pull-ups on, read in one call."""
        ...

    def claim_open_drain_group(self, gpios: Sequence[int], requester: object) -> LineGroup:
        """The lines as open-drain outputs, all released, written in one call."""
        ...

    def settle(self, seconds: float) -> None:
        """Let the lines settle for ``seconds`` (on the hardware's time)."""
        ...


def busy_wait(seconds: float) -> None:
    """Wait ``seconds`` by the monotonic clock without giving up the core: a sleep of some
    tens of microseconds would come back after the scheduler's next tick instead."""
    end = time.perf_counter_ns() + int(seconds * 1e9)
    while time.perf_counter_ns() < end:
        pass


def pin_names(gpios: Sequence[int]) -> tuple[str, ...]:
    """gpiozero's names of the lines (for its pin reservations)."""
    return tuple(f"GPIO{gpio}" for gpio in gpios)


class PinByPinGroup:
    """A line group made of a gpiozero factory's single pins (for a factory without group
    calls): the same levels and the same open-drain behaviour, one call per line."""

    def __init__(self, factory: Any, gpios: Sequence[int], requester: object,
                 open_drain: bool) -> None:
        self._factory = factory
        self._requester = requester
        self._names = pin_names(gpios)
        factory.reserve_pins(requester, *self._names)
        try:
            self._pins = [factory.pin(gpio) for gpio in gpios]
            for pin in self._pins:
                pin.function = "input"
                pin.pull = "up"
        except BaseException:
            factory.release_pins(requester, *self._names)
            raise
        self._open_drain = open_drain
        self._written = (1 << len(self._pins)) - 1

    def read(self) -> int:
        bits = 0
        for i, pin in enumerate(self._pins):
            if pin.state:
                bits |= 1 << i
        return bits

    def write(self, bits: int) -> None:
        if not self._open_drain:
            raise HardwareError("an input group cannot be written")
        changed = bits ^ self._written
        for i, pin in enumerate(self._pins):
            if changed >> i & 1:
                if bits >> i & 1:
                    pin.function = "input"  # released: the pull-up holds it high
                else:
                    pin.function = "output"
                    pin.state = False
        self._written = bits

    def close(self) -> None:
        if not self._pins:
            return
        for pin in self._pins:
            pin.close()
        self._pins = []
        self._factory.release_pins(self._requester, *self._names)


class PinByPinGroups:
    """:class:`GroupPins` for any gpiozero factory, one pin at a time."""

    def __init__(self, factory: Any) -> None:
        self.factory = factory

    def claim_input_group(self, gpios: Sequence[int], requester: object) -> LineGroup:
        return PinByPinGroup(self.factory, gpios, requester, open_drain=False)

    def claim_open_drain_group(self, gpios: Sequence[int], requester: object) -> LineGroup:
        return PinByPinGroup(self.factory, gpios, requester, open_drain=True)

    def settle(self, seconds: float) -> None:
        busy_wait(seconds)


def group_pins(factory: Any) -> GroupPins:
    """The group calls of ``factory``: its own where it offers them, else pin by pin."""
    if isinstance(factory, GroupPins):
        return factory
    return PinByPinGroups(factory)


def default_factory() -> Any:
    """The pin factory for the real table: gpiozero's choice (``GPIOZERO_PIN_FACTORY`` or its
    default order), with lgpio's group calls when that choice is lgpio."""
    from gpiozero import Device

    if Device.pin_factory is None:
        Device.pin_factory = Device._default_pin_factory()
    factory = Device.pin_factory
    try:
        from gpiozero.pins.lgpio import LGPIOFactory
    except ImportError:  # no lgpio: gpiozero chose another factory
        return factory
    if isinstance(factory, LGPIOFactory) and not isinstance(factory, GroupPins):
        from .lgpio_lines import GroupLGPIOFactory

        factory.close()
        Device.pin_factory = factory = GroupLGPIOFactory()
    return factory
