"""The panel's seat colours stay apart for every eye: checked under simulated deuteranopia,
protanopia and tritanopia (Machado et al. 2009) by their CIELAB distance."""

from __future__ import annotations

from sudoku_table.web import palette

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
"""A CIELAB distance the lights of their own colour keep from every other light, under every
eye: the engine's two, and the table's word for "not saved"."""
OWN_COLOURS = ("computer", "hint", "unsaved")


def test_the_computer_hint_and_unsaved_lights_stay_apart_from_every_other_light() -> None:
    from sudoku_table.table.signals import PLAYER_COLORS, SIGNALS, hex_color, legend

    colors = legend()
    # ``last`` and ``replayed`` take the colour of the seat that moved; ``better`` (a finished
    # game's better move, in a replay) is the hint it would have been: the hint's colour with
    # a pattern of its own.
    others = [colors[w]["color"] for w in SIGNALS
              if w not in (*OWN_COLOURS, "last", "replayed", "better")]
    others += [hex_color(c) for c in PLAYER_COLORS]  # the ``last`` flash of every seat
    assert colors["better"]["color"] == colors["hint"]["color"]
    assert colors["better"]["pattern"] != colors["hint"]["pattern"]
    for word in OWN_COLOURS:
        mine = str(colors[word]["color"])
        rivals = [colors[w]["color"] for w in OWN_COLOURS if w != word]
        for other in [*others, *rivals]:
            assert palette.closest_pair([mine, str(other)]) >= ENGINE_CLEAR, (word, other)
    assert palette.closest_pair(["#ff0000", "#ff3c00"]) < ENGINE_CLEAR  # the check can fail


def test_every_light_has_a_pattern_and_level_of_its_own() -> None:
    """Never colour alone: no two words share both their pattern and their level."""
    from sudoku_table.table.signals import SIGNALS, legend

    looks = [(legend()[w]["pattern"], legend()[w]["level"]) for w in SIGNALS if w != "last"]
    assert len(set(looks)) == len(looks)
    assert legend()["unsaved"]["pattern"] == "double_blink"  # an alarm of its own
