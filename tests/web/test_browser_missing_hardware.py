"""The Table page of a table started without part of its hardware: what is missing and the
fix stand first on the page, readable on every screen and in both languages."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from sudoku_table.firmware.problems import diagnose

from .helpers import live_composition
from .layout import check_layout

pytestmark = [pytest.mark.browser, pytest.mark.integration]

SIZES = [(390, 844), (844, 390), (1280, 800)]
SHOTS = Path(__file__).resolve().parents[2] / "build" / "screenshots"


@pytest.fixture
def degraded(tmp_path: Path) -> Iterator[str]:
    """A live panel whose hardware reports the two problems a Pi without SPI and with a 1-wire
    overlay on rank 1 has."""
    boot = tmp_path / "config.txt"
    boot.write_text("dtparam=audio=on\ndtoverlay=w1-gpio\n", encoding="utf-8")
    with live_composition(tmp_path / "data") as (url, panel):
        panel.hardware.problems = (
            diagnose("sensors", OSError("GPIO busy"), {4: "matrix row rank 1"}, boot),
            diagnose("leds", OSError("/dev/spidev0.0 is missing: SPI0 is off"), {}, boot))
        yield url


@pytest.mark.parametrize("size", SIZES, ids=[f"{w}x{h}" for w, h in SIZES])
@pytest.mark.parametrize("language", ["en", "de"])
def test_missing_hardware_is_said_first_and_fits(degraded: str, page_for: Any,
                                                 size: tuple[int, int], language: str) -> None:
    page = page_for(f"{degraded}/table", size, language)
    card = page.locator("#missing-hardware")
    assert card.is_visible()
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / f"missing-hardware-{language}-{size[0]}x{size[1]}.png"))
    heading = {"en": "Hardware missing", "de": "Hardware fehlt"}[language]
    assert card.locator("h2").inner_text() == heading
    text = card.inner_text()
    assert "dtoverlay=w1-gpio" in text and "dtoverlay=spi0-0cs" in text
    if language == "de":
        assert "Setz '#' vor diese Zeile" in text and "Die Reedschalter" in text
    # First on the page, under the title: nothing of the table's other cards comes before it.
    box = card.bounding_box()
    first_card = page.locator("main section.card").first.bounding_box()
    assert box is not None and first_card is not None and box["y"] <= first_card["y"]
    # Its heading is on the first screen; every line of it stays inside the screen's width.
    assert check_layout(page, in_view=["#missing-title"]) == []
    for item in card.locator("li").all():
        item_box = item.bounding_box()
        assert item_box is not None and item_box["x"] >= 0
        assert item_box["x"] + item_box["width"] <= size[0]
    assert page.errors == []


def test_a_table_with_all_its_hardware_shows_no_such_card(tmp_path: Path, page_for: Any) -> None:
    with live_composition(tmp_path / "data") as (url, _panel):
        page = page_for(f"{url}/table", (390, 844))
        assert page.locator("#missing-hardware").count() == 0
