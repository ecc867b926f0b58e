"""The build guide's stack figures and parts list come from the code, in both languages."""

from __future__ import annotations

from pathlib import Path

import pytest

from sudoku_table.parts import margins, stack, tactile
from sudoku_table.parts.config import BuildConfig

HARDWARE = Path(__file__).resolve().parents[2] / "hardware"


@pytest.mark.parametrize("name", ["README.md", "README.de.md"])
def test_the_guide_states_the_computed_distance_and_field(name: str) -> None:
    text = (HARDWARE / name).read_text(encoding="utf-8")
    est = stack.estimate(BuildConfig(), 40.0)
    for figure in (f"**{est.distance_mm:.1f} mm**", f"**{est.centred_mt:.1f} mT**",
                   f"**{est.off_centre_mt:.1f} mT**", f"**{abs(est.neighbour_mt):.2f} mT**",
                   f"**{est.margin:.1f}**", f"{est.needed_mt:.1f} mT"):
        assert figure in text, (name, figure)
    for option in stack.options(BuildConfig()):
        assert f"| {option.contacts_mm:.1f} mm | {option.field_mt:.1f} mT |" in text, name
    bat85 = margins.column_low(margins.BAT85)
    assert f"**{bat85.margin_v:.2f} V**" in text and f"| {bat85.total_v:.2f} V |" in text
    for source in ("Dexter Magnetic Technologies", "e-magnetica.pl", "Littelfuse",
                   "Br/2 * ((D+z)/sqrt(R^2+(D+z)^2) - z/sqrt(R^2+z^2))"):
        assert source in text, (name, source)


@pytest.mark.parametrize("name", ["README.md", "README.de.md"])
def test_the_guide_states_the_allowance_and_the_tactile_tiles_margin(name: str) -> None:
    text = (HARDWARE / name).read_text(encoding="utf-8")
    build = BuildConfig()
    assert f"**{stack.allowance_mm(build, 40.0):.2f} mm**" in text
    assert f"**{tactile.estimate(40.0, build).margin:.1f}**" in text
    for needed in ("liblouis-bin", "--game", "parts/tactile/", "tile-3-black.stl",
                   "tile-blank-white.stl", "tiles-1-9.3mf", "overlay-classic-sudoku.3mf",
                   "en-ueb-g1.ctb", "de-g0.utb"):
        assert needed in text, (name, needed)


@pytest.mark.parametrize("name", ["README.md", "README.de.md"])
def test_the_guide_names_the_parts_with_margins_and_the_order_of_work(name: str) -> None:
    text = (HARDWARE / name).read_text(encoding="utf-8")
    for needed in ("BAT85", "BAT43", "330 Ohm", "1 kOhm", "10 kOhm", "BC337", "CEM-1203(42)",
                   "PG7", "424 x 424 mm", "10 A", "0,25 mm²" if name.endswith("de.md")
                   else "0.25 mm2", "jig.stl", "parts/cross-section.svg",
                   "parts/carrier-template.svg", "parts/wiring-layout.svg",
                   "parts/spacer-tiles.svg", "parts/spacer-laser.svg", "sudoku-table parts",
                   "selftest --part leds", "selftest --part sensors", "selftest --part buzzer"):
        assert needed in text, (name, needed)
    # The jig comes before the parts list: test one square before buying 91 of everything.
    jig = text.index("jig.stl")
    parts_list = text.index("| 91 (81 + 10")
    assert jig < parts_list
