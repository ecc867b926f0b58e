"""Shutting down and restarting: logind through a fake bus client, and never off a Pi."""

from __future__ import annotations

from pathlib import Path

import pytest

from sudoku_table import power
from sudoku_table.power import LogindPower, NoPower, PowerError, choose, is_raspberry_pi
from tests.web.appliance import calls, fake_busctl


def test_off_a_raspberry_pi_the_panel_never_powers_anything_off(tmp_path: Path) -> None:
    for setting in ("auto", "system"):
        for simulated in (True, False):
            chosen = choose(setting, simulated=simulated, on_pi=False)
            assert isinstance(chosen, NoPower)
            assert chosen.status().reason == power.NOT_PI
            with pytest.raises(PowerError):
                chosen.run("poweroff")
    assert choose("off", simulated=False, on_pi=True).status().reason == power.OFF


def test_auto_on_a_pi_needs_the_real_table_and_system_does_not() -> None:
    assert choose("auto", simulated=True, on_pi=True).status().reason == power.SIMULATED
    assert isinstance(choose("auto", simulated=False, on_pi=True), LogindPower)
    assert isinstance(choose("system", simulated=True, on_pi=True), LogindPower)
    with pytest.raises(ValueError, match="power must be one of"):
        choose("always", simulated=False, on_pi=True)


def test_a_pi_is_told_by_its_device_tree_model(tmp_path: Path) -> None:
    model = tmp_path / "model"
    model.write_bytes(b"Raspberry Pi 5 Model B Rev 1.0\0")
    assert is_raspberry_pi(model)
    model.write_bytes(b"Some other board\0")
    assert not is_raspberry_pi(model)
    assert not is_raspberry_pi(tmp_path / "missing")


@pytest.mark.integration
def test_logind_is_asked_whether_it_may_and_then_told_to(tmp_path: Path) -> None:
    busctl, log = fake_busctl(tmp_path)
    control = LogindPower([str(busctl)])
    assert control.status().available
    asked = calls(log)
    assert [c[-1] for c in asked] == ["CanPowerOff", "CanReboot"]
    assert asked[0][:5] == ["--system", "call", "org.freedesktop.login1",
                            "/org/freedesktop/login1", "org.freedesktop.login1.Manager"]
    control.status()
    assert len(calls(log)) == 2  # the answer is kept for a while
    control.run("poweroff")
    control.run("reboot")
    # interactive=false: logind never waits for a password nobody would type
    assert [c[-3:] for c in calls(log)[2:]] == [["PowerOff", "b", "false"],
                                                 ["Reboot", "b", "false"]]
    with pytest.raises(PowerError, match="unknown power action"):
        control.run("halt")


@pytest.mark.integration
def test_a_refusal_of_polkit_is_shown_as_unavailable(tmp_path: Path) -> None:
    busctl, _ = fake_busctl(tmp_path, answer="challenge")
    status = LogindPower([str(busctl)]).status()
    assert not status.available and status.reason == power.DENIED


@pytest.mark.integration
def test_a_failing_call_is_an_error_with_the_system_s_words(tmp_path: Path) -> None:
    busctl, _ = fake_busctl(tmp_path, fail=True)
    with pytest.raises(PowerError, match="Access denied"):
        LogindPower([str(busctl)]).run("poweroff")
    missing = LogindPower([str(tmp_path / "no-such-busctl")]).status()
    assert not missing.available and missing.reason == power.NO_BUS
    assert not LogindPower([]).status().available
