"""The figures behind the stack: the magnet's field at the upright switch, the matrix's margins."""

from __future__ import annotations

import math

import pytest

from sudoku_table.parts import margins, stack
from sudoku_table.parts.config import BuildConfig

N35_6X2 = stack.Magnet(6.0, 2.0, 1.17)


def test_the_mean_along_the_glass_is_the_mean_of_the_axial_formula() -> None:
    z1, z2, steps = 5.7, 18.4, 2000
    h = (z2 - z1) / steps
    numeric = sum(stack.axial_field_t(z1 + (i + 0.5) * h, N35_6X2) for i in range(steps)) / steps
    assert stack.mean_axial_field_t(z1, z2, N35_6X2) == pytest.approx(numeric, rel=1e-5)


def test_the_axial_formula_meets_its_limits() -> None:
    # At the face: Br / 2 * D / sqrt(R^2 + D^2); far away: the dipole's 2 * k / z^3.
    assert stack.axial_field_t(0.0, N35_6X2) == pytest.approx(1.17 / 2 * 2 / math.hypot(3, 2))
    z = 60.0
    dipole = stack.dipole_mean_axial_field_t(0.0, z + 1 - 1e-3, z + 1 + 1e-3, N35_6X2)
    assert stack.axial_field_t(z, N35_6X2) == pytest.approx(dipole, rel=0.01)


def test_the_default_stack_closes_with_margin_and_spares_the_neighbour() -> None:
    est = stack.estimate(BuildConfig(), 40.0)
    assert est.distance_mm == pytest.approx(0.2 + 3.0 + 2.5)
    assert est.margin >= stack.SAFETY and est.neighbour_margin >= stack.SAFETY and est.closes
    assert est.off_centre_mt < est.centred_mt  # the edge of the square is the weak spot
    assert est.needed_mt == pytest.approx(1.484, abs=0.01)  # 15 AT over 12.7 mm


def test_the_first_plan_falls_short_and_a_deep_stack_is_refused() -> None:
    first = stack.options(BuildConfig())[0]
    assert first.contacts_mm == pytest.approx(18.1)
    needed = stack.needed_field_t(15, 12.7) * 1000
    assert first.field_mt < needed  # even on the axis, the strongest point at that depth
    # A thicker top sheet and cover push the magnet away: the estimate says so.
    far = stack.estimate(BuildConfig(top_mm=8.0, cover_mm=4.0, reed_pull_in_at=25.0), 40.0)
    assert not far.closes


def test_a_full_rank_reads_low_with_margin_only_with_schottky_diodes() -> None:
    bat85 = margins.column_low(margins.BAT85)
    assert bat85.diode_v < 0.24  # below the datasheet's 240 mV at 0.1 mA
    assert bat85.margin_v > 0.25
    n4148 = margins.column_low(margins.N4148)
    assert n4148.margin_v < 0.1  # with the same series resistors: too close to 0.8 V
    bare = margins.column_low(margins.N4148, row_ohm=0, column_ohm=0)
    assert 0.25 < bare.margin_v < 0.35
    assert bat85.leakage_a < 0.3 * bat85.current_a  # eight leaking diodes: small beside it
