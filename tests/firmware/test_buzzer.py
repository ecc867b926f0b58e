"""The piezo buzzer: gpiozero's TonalBuzzer on a PWM pin, the three sounds, never blocking."""

from __future__ import annotations

import threading

import pytest
from gpiozero.pins.mock import MockFactory, MockPWMPin

from sudoku_table.config import ConfigError
from sudoku_table.firmware.backend import open_hardware
from sudoku_table.firmware.buzzer import SOUNDS, Buzzer
from sudoku_table.firmware.config import BuzzerConfig, HardwareConfig, from_mapping


@pytest.fixture
def factory() -> MockFactory:
    return MockFactory(pin_class=MockPWMPin)


def test_each_sound_reaches_the_pin_as_its_tones_then_silence(factory: MockFactory) -> None:
    heard: list[tuple[float | None, float, float]] = []  # pin frequency, duty, note length
    pin = factory.pin(8)
    buzzer = Buzzer(BuzzerConfig(pin=8), pin_factory=factory,
                    sleep=lambda s: heard.append((pin.frequency, pin.state, s)))
    assert buzzer.play("points")
    assert buzzer.idle()
    assert [(round(f or 0), d > 0, s) for f, d, s in heard] == [(880, True, 0.15),
                                                                 (1320, True, 0.25)]
    assert pin.state == 0  # silent after the tune
    assert list(buzzer.played) == ["points"]
    heard.clear()
    assert buzzer.play("illegal") and buzzer.idle()
    assert [(round(f or 0), d > 0) for f, d, _ in heard] == [(233, True), (0, False),
                                                              (233, True)]
    buzzer.close()
    buzzer.close()  # idempotent


def test_every_sound_fits_the_buzzers_range() -> None:
    for name, notes in SOUNDS.items():
        for frequency, seconds in notes:
            assert frequency is None or 220.0 <= frequency <= 3520.0, name
            assert 0 < seconds <= 0.3, name


def test_sounds_never_pile_up_and_unknown_ones_are_refused(factory: MockFactory) -> None:
    release = threading.Event()
    buzzer = Buzzer(BuzzerConfig(pin=8), pin_factory=factory,
                    sleep=lambda s: release.wait(2))
    assert buzzer.play("turn")  # the worker takes it and waits in its first note
    for _ in range(50):
        if buzzer._queue.qsize() == 0:
            break
        threading.Event().wait(0.01)
    assert buzzer.play("turn") and buzzer.play("turn")
    assert not buzzer.play("turn")  # a third waiting sound is dropped, not played late
    with pytest.raises(ValueError, match="unknown sound 'boom'"):
        buzzer.play("boom")
    release.set()
    assert buzzer.idle()
    assert list(buzzer.played) == ["turn", "turn", "turn"]
    buzzer.close()


def test_the_simulated_table_has_a_buzzer_on_the_configured_pin() -> None:
    hardware = open_hardware(HardwareConfig(buzzer=BuzzerConfig(pin=15)), simulate=True)
    try:
        assert hardware.buzzer is not None and hardware.buzzer_error is None
        assert hardware.buzzer.play("turn") and hardware.buzzer.idle()
        assert list(hardware.buzzer.tones) == [660.0]
    finally:
        hardware.close()


@pytest.mark.parametrize(("raw", "message"), [
    ({"buzzer": {"pin": 4}}, "buzzer.pin is GPIO4, which sensors.rows[0] already uses"),
    ({"buzzer": {"pin": 10}}, "buzzer.pin is GPIO10, which leds.data_pin already uses"),
    ({"buzzer": {"pin": 11}}, "buzzer.pin is GPIO11, which SPI0 owns"),
    ({"buzzer": {"pin": 30}}, "buzzer.pin must be a GPIO number from 0 to 27"),
    ({"buzzer": {"volume": 3}}, "unknown key buzzer.volume"),
])
def test_a_buzzer_pin_that_cannot_work_is_refused(raw: dict, message: str) -> None:
    with pytest.raises(ConfigError, match=message.replace("[", r"\[").replace("]", r"\]")):
        from_mapping(raw)
