"""The LEDs: colour math, the current cap, patterns, the recording chain and the ticker."""

from __future__ import annotations

import threading
import time

import pytest

from sudoku_table.firmware.config import LedConfig
from sudoku_table.firmware.layout import led_indices
from sudoku_table.firmware.leds import (
    BLINK_FAST,
    DOUBLE_BLINK,
    DOUBLE_ON,
    FLASH_END,
    LedDisplay,
    RecordingPixels,
    cap_current,
    frame_current_ma,
    pattern_intensity,
    recording_display,
    shape_color,
    wire_color,
)
from sudoku_table.firmware.ports import PATTERNS, Light

from ..waiting import until

LINEAR = LedConfig(gamma=1.0, brightness=1.0)


class FakeClock:
    def __init__(self, now: float = 1000.0) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now


# --- colour math ---------------------------------------------------------------------------------

def test_linear_colours_scale_with_level_and_brightness() -> None:
    assert shape_color((255, 128, 0), 1.0, LINEAR, 1.0) == (255, 128, 0)
    assert shape_color((255, 128, 0), 0.5, LINEAR, 1.0) == (128, 64, 0)
    assert shape_color((255, 128, 0), 1.0, LINEAR, 0.5) == (128, 64, 0)
    assert shape_color((255, 255, 255), 0.0, LINEAR, 1.0) == (0, 0, 0)
    assert shape_color((0, 0, 0), 1.0, LINEAR, 1.0) == (0, 0, 0)


def test_gamma_maps_perceived_levels_to_duty() -> None:
    config = LedConfig(gamma=2.0, brightness=1.0)
    assert shape_color((255, 255, 255), 0.5, config, 1.0) == (64, 64, 64)  # 0.5 ** 2 * 255
    assert shape_color((255, 0, 0), 1.0, config, 1.0) == (255, 0, 0)
    assert shape_color((128, 0, 0), 1.0, config, 1.0) == (round((128 / 255) ** 2 * 255), 0, 0)


def test_balance_scales_each_channel_after_gamma() -> None:
    config = LedConfig(gamma=2.0, balance=(1.0, 0.5, 0.25))
    assert shape_color((255, 255, 255), 1.0, config, 1.0) == (255, 128, 64)
    assert shape_color((255, 255, 255), 0.5, config, 1.0) == (64, 32, 16)


def test_a_dim_light_never_rounds_to_black() -> None:
    config = LedConfig(gamma=2.2)
    assert shape_color((0, 60, 255), 0.05, config, 0.3) == (0, 0, 1)
    assert shape_color((0, 60, 255), 0.05, LedConfig(gamma=2.2, balance=(1, 1, 0)),
                       0.3) == (0, 1, 0)


def test_current_estimate_and_cap() -> None:
    config = LedConfig(max_current_ma=1000.0, channel_ma=20.0, idle_ma=1.0)
    white = [(255, 255, 255)] * 81
    assert frame_current_ma([], config) == 81.0
    assert frame_current_ma(white, config) == pytest.approx(81 + 81 * 60)
    capped, factor = cap_current(white, config)
    assert factor == pytest.approx((1000 - 81) / (81 * 60))
    assert frame_current_ma(capped, config) <= 1000
    assert frame_current_ma(capped, config) > 990  # dimmed no more than needed
    # Hue is kept: every channel is dimmed by the same factor.
    amber, _ = cap_current([(255, 150, 0)] * 81, config)
    assert amber[0][1] / amber[0][0] == pytest.approx(150 / 255, abs=0.01)
    small = [(255, 0, 0)] * 3
    assert cap_current(small, config) == (small, 1.0)


# --- patterns ------------------------------------------------------------------------------------

def test_steady_never_changes() -> None:
    assert pattern_intensity("steady", 5.0, 0.0) == (1.0, None)


def test_blinks_alternate_on_the_shared_clock() -> None:
    half = BLINK_FAST / 2
    assert pattern_intensity("blink_fast", 10 * half + 0.01, 0.0) == (1.0, 11 * half)
    on, edge = pattern_intensity("blink_fast", 11 * half + 0.01, 0.0)
    assert on == 0.0 and edge == pytest.approx(12 * half)
    assert pattern_intensity("blink_slow", 0.1, 0.0) == (1.0, 0.5)
    assert pattern_intensity("blink_slow", 0.6, 0.0) == (0.0, 1.0)


def test_pulse_breathes_between_its_floor_and_full() -> None:
    values = [pattern_intensity("pulse", t / 100, 0.0)[0] for t in range(0, 160)]
    assert min(values) == pytest.approx(0.25, abs=0.01)
    assert max(values) == pytest.approx(1.0, abs=0.01)
    assert pattern_intensity("pulse", 0.5, 0.0)[1] == pytest.approx(0.5 + 1 / 30)


def test_a_double_blink_blinks_twice_then_rests_on_the_shared_clock() -> None:
    period = DOUBLE_BLINK
    assert pattern_intensity("double_blink", 10 * period + 0.05, 0.0) == pytest.approx(
        (1.0, 10 * period + DOUBLE_ON))
    assert pattern_intensity("double_blink", 10 * period + 0.2, 0.0)[0] == 0.0
    assert pattern_intensity("double_blink", 10 * period + 0.35, 0.0)[0] == 1.0
    dark, edge = pattern_intensity("double_blink", 10 * period + 0.5, 0.0)
    assert dark == 0.0 and edge == pytest.approx(11 * period)


def test_a_flash_bursts_from_when_it_appeared_then_goes_dark() -> None:
    assert pattern_intensity("flash", 100.05, 100.0) == (1.0, 100.15)
    assert pattern_intensity("flash", 100.2, 100.0)[0] == 0.0
    assert pattern_intensity("flash", 100.3, 100.0)[0] == 1.0
    assert pattern_intensity("flash", 100.0 + FLASH_END + 0.01, 100.0) == (0.0, None)


def test_an_unknown_pattern_is_refused() -> None:
    with pytest.raises(ValueError, match="unknown pattern 'strobe'"):
        pattern_intensity("strobe", 0.0, 0.0)


# --- the display on the recording chain ---------------------------------------------------------

def test_the_recording_chain_records_wire_bytes_in_pixel_order() -> None:
    pixels = RecordingPixels(81, "GRB")
    pixels[0] = (10, 20, 30)
    pixels.show()
    assert pixels.last_bytes[:3] == bytes([20, 10, 30])
    assert wire_color(pixels.last_bytes, 0, "GRB") == (10, 20, 30)
    assert pixels.transmit_count == 1
    with pytest.raises(IndexError):
        wire_color(pixels.last_bytes, 81)


def test_show_writes_each_square_to_its_led_and_records_the_frame() -> None:
    config = LedConfig(gamma=1.0, brightness=1.0, start_corner="top_left", serpentine=True,
                       pixel_order="GRB")
    display = recording_display(config, clock=FakeClock())
    frame = {"b2": Light((255, 0, 0)), "a9": Light((0, 0, 255), level=0.5)}
    display.show(frame)
    assert dict(display.last_frame) == frame
    data = display.pixels.last_bytes
    index = led_indices(config)
    assert index["a9"] == 0
    assert wire_color(data, index["b2"], "GRB") == (255, 0, 0)
    assert wire_color(data, index["a9"], "GRB") == (0, 0, 128)
    assert sum(data) == 255 + 128  # every other LED is dark
    assert display.colors() == {"b2": (255, 0, 0), "a9": (0, 0, 128)}
    assert not display.ticking  # nothing animates
    display.close()


def test_the_current_cap_dims_a_full_white_board() -> None:
    config = LedConfig(gamma=1.0, brightness=1.0, max_current_ma=2000.0)
    display = recording_display(config, clock=FakeClock())
    display.show({square: Light((255, 255, 255)) for square in led_indices(config)})
    assert display.cap_factor < 0.5
    assert display.current_ma <= 2000
    assert max(display.pixels.last_bytes) < 128
    display.close()


def test_brightness_rerenders_and_is_checked() -> None:
    display = recording_display(LedConfig(gamma=1.0, brightness=1.0), clock=FakeClock())
    display.show({"a1": Light((200, 0, 0))})
    display.set_brightness(0.5)
    assert display.brightness == 0.5
    assert wire_color(display.pixels.last_bytes, 0) == (100, 0, 0)
    for bad in (1.5, -0.1, True, "1"):
        with pytest.raises(ValueError, match="brightness"):
            display.set_brightness(bad)  # type: ignore[arg-type]
    display.close()


@pytest.mark.parametrize(("frame", "message"), [
    ({"z9": Light((1, 2, 3))}, "'z9' is not a square"),
    ({"a1": (1, 2, 3)}, "must be a Light"),
    ({"a1": Light((256, 0, 0))}, "colour of a1 must be three numbers"),
    ({"a1": Light((1, 2))}, "colour of a1"),  # type: ignore[arg-type]
    ({"a1": Light([1, 2, 3])}, "colour of a1"),  # type: ignore[arg-type]
    ({"a1": Light((1, 2, 3), "steady", [1])}, "level of a1"),  # type: ignore[arg-type]
    ({"a1": Light((1, 2, 3), "strobe")}, "pattern of a1 must be one of"),
    ({"a1": Light((1, 2, 3), "steady", 1.5)}, "level of a1 must be from 0 to 1"),
])
def test_bad_frames_are_refused_and_change_nothing(frame: dict[str, object],
                                                   message: str) -> None:
    display = recording_display(LedConfig(), clock=FakeClock())
    display.show({"a1": Light((255, 0, 0))})
    before = display.pixels.transmit_count
    with pytest.raises(ValueError, match=message):
        display.show(frame)  # type: ignore[arg-type]
    assert display.pixels.transmit_count == before
    assert dict(display.last_frame) == {"a1": Light((255, 0, 0))}
    display.close()


def test_close_darkens_and_is_idempotent_and_late_frames_are_ignored() -> None:
    display = recording_display(LedConfig(), clock=FakeClock())
    display.show({"a1": Light((255, 0, 0), "blink_fast")})
    display.close()
    assert not any(display.pixels.last_bytes)
    count = display.pixels.transmit_count
    display.close()
    display.show({"a1": Light((255, 0, 0))})
    assert display.pixels.transmit_count == count
    assert not display.ticking


def test_an_unchanged_render_writes_nothing() -> None:
    display = recording_display(LedConfig(), clock=FakeClock())
    display.show({"a1": Light((255, 0, 0))})
    display.show({"a1": Light((255, 0, 0))})
    assert display.renders == 2 and display.writes == 1
    display.close()


# --- the ticker ----------------------------------------------------------------------------------

def test_the_ticker_runs_only_while_something_animates() -> None:
    display = recording_display(LedConfig())
    display.show({"a1": Light((255, 0, 0))})
    assert not display.ticking
    display.show({"a1": Light((255, 0, 0), "blink_fast")})
    assert display.ticking
    assert until(lambda: display.writes >= 4)  # on, off, on ...
    blinks = {wire_color(data, 0) for _, data in display.pixels.transmitted}
    assert (0, 0, 0) in blinks and len(blinks) >= 2
    display.show({"a1": Light((0, 255, 0))})  # steady again: the ticker ends
    assert until(lambda: not display.ticking)
    writes = display.writes
    time.sleep(0.3)
    assert display.writes == writes  # idle: no wakeups, no writes
    assert not any(t.name == "led-ticker" for t in threading.enumerate())
    display.close()


def test_a_flash_ends_the_ticker_by_itself() -> None:
    display = recording_display(LedConfig())
    display.show({"b2": Light((255, 0, 0), "flash")})
    assert display.ticking
    assert until(lambda: not display.ticking)
    assert not any(display.pixels.last_bytes)  # dark after the burst
    assert display.last_frame["b2"].pattern == "flash"  # the frame is still the table's
    display.close()


def test_an_unchanged_light_keeps_its_flash_running() -> None:
    clock = FakeClock(50.0)
    display = LedDisplay(RecordingPixels(81), LedConfig(), clock)
    flash = Light((255, 0, 0), "flash")
    display.show({"b2": flash})
    clock.now += FLASH_END + 0.1
    display.show({"b2": flash, "c3": Light((0, 255, 0))})  # b2 is not restarted
    index = led_indices(LedConfig())
    assert wire_color(display.pixels.last_bytes, index["b2"]) == (0, 0, 0)
    assert wire_color(display.pixels.last_bytes, index["c3"]) != (0, 0, 0)
    display.close()


def test_every_pattern_renders() -> None:
    display = recording_display(LedConfig(), clock=FakeClock())
    squares = ("a1", "b1", "c1", "d1", "e1", "f1")
    display.show({sq: Light((255, 255, 255), p) for sq, p in zip(squares, PATTERNS,
                                                                  strict=True)})
    assert set(display.colors()) == set(squares)  # all on at this moment
    display.close()


def test_a_short_chain_is_refused() -> None:
    with pytest.raises(ValueError, match="has 50 LEDs"):
        LedDisplay(RecordingPixels(50), LedConfig())
