"""gpiozero's lgpio factory with the group calls the matrix scan uses (see :mod:`.lines`).

lgpio claims several lines of a chip as one group (``group_claim_input``,
``group_claim_output``) and reads or writes all of them in one kernel call (``group_read``,
``group_write``). The rows are claimed with ``SET_OPEN_DRAIN``: the kernel then releases a line
(turns it into an input) for a 1 and drives it low for a 0, also on chips without open-drain
outputs of their own (the Pi's), so an idle row never drives high. Both groups have the
pull-ups on. gpiozero's reservations are taken for the lines, so a gpiozero device on one of
them is refused as it would be for a device of gpiozero's own.
"""

from __future__ import annotations

from collections.abc import Sequence

import lgpio
from gpiozero.pins.lgpio import LGPIOFactory

from .exc import HardwareError, LayoutError
from .lines import busy_wait, pin_names


class LgpioGroup:
    """Lines claimed as one lgpio group; the first line leads it."""

    def __init__(self, factory: GroupLGPIOFactory, gpios: Sequence[int], requester: object,
                 open_drain: bool) -> None:
        if not gpios:
            raise LayoutError("a line group needs at least one GPIO")
        self._factory = factory
        self._requester = requester
        self._names = pin_names(gpios)
        self._gpios = list(gpios)
        self._leader = self._gpios[0]
        self._mask = (1 << len(self._gpios)) - 1
        self._open_drain = open_drain
        self._open = False
        factory.reserve_pins(requester, *self._names)
        try:
            if open_drain:
                lgpio.group_claim_output(factory._handle, self._gpios, [1] * len(self._gpios),
                                         lgpio.SET_OPEN_DRAIN | lgpio.SET_PULL_UP)
            else:
                lgpio.group_claim_input(factory._handle, self._gpios, lgpio.SET_PULL_UP)
        except BaseException:
            factory.release_pins(requester, *self._names)
            raise
        self._open = True

    def read(self) -> int:
        count, bits = lgpio.group_read(self._factory._handle, self._leader)
        if count < 0:
            raise lgpio.error(lgpio.error_text(count))
        return int(bits) & self._mask

    def write(self, bits: int) -> None:
        if not self._open_drain:
            raise HardwareError("an input group cannot be written")
        lgpio.group_write(self._factory._handle, self._leader, bits & self._mask, self._mask)

    def close(self) -> None:
        if not self._open:
            return
        self._open = False
        try:
            if self._factory._handle is not None:
                lgpio.group_free(self._factory._handle, self._leader)
        finally:
            self._factory.release_pins(self._requester, *self._names)


class GroupLGPIOFactory(LGPIOFactory):
    """lgpio's gpiozero factory plus the group calls of :class:`~.lines.GroupPins`."""

    def claim_input_group(self, gpios: Sequence[int], requester: object) -> LgpioGroup:
        return LgpioGroup(self, gpios, requester, open_drain=False)

    def claim_open_drain_group(self, gpios: Sequence[int], requester: object) -> LgpioGroup:
        return LgpioGroup(self, gpios, requester, open_drain=True)

    def settle(self, seconds: float) -> None:
        busy_wait(seconds)
