"""The LED language: one word per lit square, and the one place that turns words into lights.

The panel draws the same words (docs/api.md), so a meaning never depends on colour alone: every
word also has its own pattern or level. ``last`` is the only word whose colour depends on who
acted; the player colours live here too so that the panel can draw them identically.
"""

from __future__ import annotations

from collections.abc import Mapping

from sudoku_table.firmware.ports import RGB, Frame, Light

SIGNALS = ("illegal", "conflict", "flip", "number", "dead", "target", "missing", "extra",
           "setup", "last", "computer", "hint", "unsaved", "replayed", "better")
"""Every word of the LED language, as docs/api.md names them. ``replayed`` and ``better`` are
shown only while a finished game is replayed on the board (``replaying``), never with a
game's own words."""

PRIORITY = ("dead", "last", "target", "hint", "computer", "conflict", "flip", "missing", "extra",
            "setup", "number", "illegal", "unsaved")
"""When several words apply to one square, the later one wins: what the players must do about
that square now beats what it merely is; nothing counts while the table cannot save."""

RED: RGB = (255, 0, 0)
AMBER: RGB = (255, 150, 0)
ORANGE: RGB = (255, 60, 0)
WHITE: RGB = (255, 255, 255)
BLUE: RGB = (0, 60, 255)
GREEN: RGB = (0, 255, 0)
CYAN: RGB = (0, 190, 255)
PINK: RGB = (255, 51, 204)
LAVENDER: RGB = (153, 102, 255)
LIME: RGB = (170, 255, 119)

LIGHTS: Mapping[str, Light] = {
    # Every word has its own pattern and level, so colour-blind players can tell them apart;
    # the colours follow DESIGN.md. Within a pattern, the level says how urgent it is.
    "illegal": Light(RED, "blink_fast", 1.0),  # take this piece away
    "extra": Light(ORANGE, "blink_fast", 0.6),  # a piece the game does not expect
    "flip": Light(AMBER, "blink_slow", 1.0),  # turn this piece over
    "missing": Light(ORANGE, "blink_slow", 0.6),  # a piece belongs here
    "number": Light(WHITE, "pulse", 1.0),  # tell the panel this piece's number
    "setup": Light(CYAN, "pulse", 0.6),  # put the next start piece here
    # Green looks much brighter than red on WS2812 chips; a lower level evens them out.
    "target": Light(GREEN, "steady", 0.6),
    "conflict": Light(RED, "steady", 0.35),  # the piece an illegal one clashes with
    "dead": Light(BLUE, "steady", 0.15),  # only a blank may go here
    # The two words that speak for the engine, in colours kept apart from every other word's
    # and every player's under simulated colour blindness (tests/web/test_palette.py).
    "computer": Light(PINK, "pulse", 0.8),  # carry out the computer's action here
    "hint": Light(LAVENDER, "steady", 1.0),  # the hint asked for acts here
    # The table cannot save: this piece is not counted yet (and the board's corners say the
    # table cannot save). A pattern of its own, in a colour kept apart from every other light.
    "unsaved": Light(LIME, "double_blink", 1.0),
    # A finished game replayed on the board: the computer's better move is the hint it would
    # have given then, in the hint's colour, pulsing as the engine's words do.
    "better": Light(LAVENDER, "pulse", 0.9),
}

STEP_BACK: Mapping[str, float] = {"target": 0.12}
"""The level some words dim to while a hint shows. A number chosen lights green every square
where it fits (most of a KOSMOS board early on); the one square a hint names must stand out of
them, so while the hint shows they step back to a glow, still there to be seen."""

FELT = Light(WHITE, "steady", 1.0)
"""The LEDs' own acknowledgement of a square whose sensor has felt a change that does not
count yet (a piece put down or lifted, not yet at rest): full white, steady, for the fraction of
a second until the game's answer replaces it. It never appears in the view: the panel shows
what counts."""

PLAYER_COLORS: tuple[RGB, ...] = (
    (255, 214, 170),  # player 0 (White in the DOMINARI games): warm white
    (150, 0, 255),  # player 1 (Black): violet, since a black light cannot be seen
    (0, 200, 120),  # player 2: sea green
    (255, 0, 140),  # player 3: magenta
)
NOBODY_COLOR: RGB = (255, 180, 0)
"""``last`` for an action of nobody's (never expected, but a frame must still be drawable)."""


def player_color(player: int | None) -> RGB:
    """The colour of ``player`` for ``last`` flashes (gold for nobody)."""
    if player is None or not 0 <= player < len(PLAYER_COLORS):
        return NOBODY_COLOR
    return PLAYER_COLORS[player]


def light(word: str, player: int | None = None) -> Light:
    """The light for one signal word; ``player`` colours ``last`` and ``replayed`` (the move
    of a finished game shown on the board: steady in its player's colour)."""
    if word == "last":
        return Light(player_color(player), "flash", 1.0)
    if word == "replayed":
        return Light(player_color(player), "steady", 0.8)
    return LIGHTS[word]


def merge(layers: Mapping[str, set[str] | frozenset[str]]) -> dict[str, str]:
    """One word per square from sets of squares per word, by ``PRIORITY``."""
    signals: dict[str, str] = {}
    for word in PRIORITY:
        for square in layers.get(word, ()):
            signals[square] = word
    return signals


def compose_frame(signals: Mapping[str, str], last_player: int | None = None) -> Frame:
    """The LED frame showing ``signals``; unnamed squares stay dark. While a hint shows, the
    words of ``STEP_BACK`` dim to their level behind it."""
    behind = "hint" in signals.values()
    frame: dict[str, Light] = {}
    for square, word in signals.items():
        lit = light(word, last_player)
        if behind and word in STEP_BACK:
            lit = Light(lit.color, lit.pattern, STEP_BACK[word])
        frame[square] = lit
    return frame


def hex_color(rgb: RGB) -> str:
    """``#rrggbb`` for the panel."""
    return "#{:02x}{:02x}{:02x}".format(*rgb)


def legend() -> dict[str, dict[str, object]]:
    """Every word with its colour, pattern and level, so the panel can draw the same lights;
    the words that step back while a hint shows also carry that level (``behind_hint``)."""
    result: dict[str, dict[str, object]] = {}
    for word in SIGNALS:
        lit = light(word, 0)
        result[word] = {"color": hex_color(lit.color), "pattern": lit.pattern, "level": lit.level}
        if word in STEP_BACK:
            result[word]["behind_hint"] = STEP_BACK[word]
    return result
