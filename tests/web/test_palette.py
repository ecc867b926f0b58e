"""The panel's seat colours stay apart for every eye: checked under simulated deuteranopia,
protanopia and tritanopia (Machado et al. 2009) by their CIELAB distance."""

from __future__ import annotations

from app.web import palette

CLEAR = 25.0
"""A CIELAB distance (delta E 1976) two colours keep even under a simulated deficiency."""

OLD_SEATS = ("#ffd6aa", "#9600ff", "#00c878", "#ff008c")
"""The colours the panel used before (peach, violet, sea green, pink) and its gold."""
OLD_GOLD = "#ffb400"


def test_seats_and_gold_stay_apart_under_every_deficiency() -> None:
    colors = [*palette.SEATS, palette.GOLD]
    assert palette.closest_pair(colors) >= CLEAR


def test_the_old_colours_did_not() -> None:
    """The check finds the fault a new user saw: peach and pink both turned yellowish."""
    assert palette.closest_pair([*OLD_SEATS, OLD_GOLD]) < CLEAR


def test_the_simulation_is_the_published_one() -> None:
    # Pure grey stays grey, and the deficiencies confuse what they are known to confuse.
    for kind in palette.SIMULATIONS:
        r, g, b = palette.simulate("#808080", kind)
        assert abs(r - g) < 0.02 and abs(g - b) < 0.02, kind
    assert palette.distance("#ff0000", "#00ff00", "deuteranopia") < palette.distance(
        "#ff0000", "#00ff00")
    assert palette.distance("#0000ff", "#00ff00", "tritanopia") < palette.distance(
        "#0000ff", "#00ff00")


def test_every_choice_is_distinct_from_gold_and_marks_cover_every_seat() -> None:
    for color in palette.CHOICES:
        assert palette.distance(color, palette.GOLD) >= CLEAR, color
    assert len(palette.MARKS) >= 4 and len(set(palette.MARKS)) == len(palette.MARKS)


ENGINE_CLEAR = 15.0
"""A CIELAB distance the engine's two lights keep from every other light, under every eye."""


def test_the_computer_and_hint_lights_stay_apart_from_every_other_light() -> None:
    from app.table.signals import PLAYER_COLORS, SIGNALS, hex_color, legend

    colors = legend()
    # ``last`` and ``replayed`` take the colour of the seat that moved; ``better`` (a finished
    # game's better move, in a replay) is the hint it would have been: the hint's colour with
    # a pattern of its own.
    others = [colors[w]["color"] for w in SIGNALS
              if w not in ("computer", "hint", "last", "replayed", "better")]
    others += [hex_color(c) for c in PLAYER_COLORS]  # the ``last`` flash of every seat
    assert colors["better"]["color"] == colors["hint"]["color"]
    assert colors["better"]["pattern"] != colors["hint"]["pattern"]
    for word in ("computer", "hint"):
        mine = str(colors[word]["color"])
        for other in [*others, colors["hint" if word == "computer" else "computer"]["color"]]:
            assert palette.closest_pair([mine, str(other)]) >= ENGINE_CLEAR, (word, other)
    assert palette.closest_pair(["#ff0000", "#ff3c00"]) < ENGINE_CLEAR  # the check can fail
