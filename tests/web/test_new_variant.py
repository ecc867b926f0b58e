"""One room per job: a game describes itself, and nothing outside ``src/sudoku_table/rules`` knows
it by id.

A small throw-away variant is registered from this test only, with its own place in the list,
its own ending, its own part of the score and its own heuristic. The panel lists it where it
says, serves its board, plays it through the API, words its ending and its score, lets the
computer play it by its heuristic and draws it in a real browser, and its printable overlay
renders, with no change anywhere outside this file.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any, ClassVar

import pytest

from sudoku_table.ai.heuristics import HEURISTICS, Heuristic, heuristic_for
from sudoku_table.ai.heuristics import register as register_heuristic
from sudoku_table.rules.actions import Action, Place
from sudoku_table.rules.errors import Illegal
from sudoku_table.rules.game import (
    CARDS,
    END_REASONS,
    SCORE_PARTS,
    VARIANTS,
    Game,
    PieceLook,
    PieceWords,
    Said,
    State,
    all_variants,
    new_game,
    register,
)
from sudoku_table.rules.geometry import Geometry

from ..table.fakes import FakeKosmos, grid
from .helpers import LiveServer, place, put
from .test_browser import PHONE

ROOT = Path(__file__).resolve().parents[2]


CORNERS = ("a1", "d4")


class TinySudoku(FakeKosmos):
    """A 4x4 card game with two marked cells and pieces of its own colours; it ends as soon as
    both marked corners hold a card, and counts each player's cards."""

    id = "tiny-sudoku"
    order: ClassVar[int] = 15  # between the first and the second game
    name = "Tiny Sudoku"
    summary = "A 4x4 board registered by a test."
    family: ClassVar[str] = "Test games"
    max_players: ClassVar[int] = 2
    player_labels: ClassVar[tuple[str, ...]] = ("Red", "Blue")
    piece_looks: ClassVar[tuple[PieceLook, ...]] = (PieceLook("#cc0000", "#ffffff"),
                                                    PieceLook("#0000cc", "#ffffff"))
    piece_words: ClassVar[PieceWords] = CARDS
    has_set_asides: ClassVar[bool] = True
    set_aside_limit: ClassVar[int | None] = 3
    end_reasons: ClassVar[Mapping[str, str]] = {
        **Game.end_reasons, "corners_taken": "both marked corners hold a card"}
    score_parts: ClassVar[Mapping[str, str]] = {"cards_down": "cards on the board"}

    def finish(self, state: State) -> State:
        if not state.over and all(c in state.board for c in CORNERS):
            scores = self.scores(state)
            return state.replace(over=True, to_move=None, winners=tuple(
                p for p, s in enumerate(scores) if s == max(scores)))
        return super().finish(state)

    def end_reason(self, state: State) -> str | None:
        if state.over and all(c in state.board for c in CORNERS):
            return "corners_taken"
        return super().end_reason(state)

    def score_breakdown(self, state: State) -> list[dict[str, int]]:
        return [{"cards_down": score} for score in self.scores(state)]

    def build_geometry(self) -> Geometry:
        g = grid(self.id)
        return Geometry(id=g.id, cells=g.cells, houses=g.houses, numbers=g.numbers,
                        sections=g.sections, neighbours=g.neighbours, regions=g.regions,
                        marked={"dots": CORNERS})


class CornerSeeker(Heuristic):
    """Tiny Sudoku's own heuristic: a card on a marked corner is worth ten; it counts how often
    the engine asked it."""

    asked = 0

    def standing(self, game: Game, state: State) -> list[float]:
        CornerSeeker.asked += 1
        standing = [float(s) for s in game.scores(state)]
        for cell in CORNERS:
            piece = state.board.get(cell)
            if piece is not None and piece.owner is not None:
                standing[piece.owner] += 10
        return standing


@pytest.fixture
def tiny() -> Iterator[type[Game]]:
    all_variants()  # the real variants first
    register(TinySudoku)
    register_heuristic(TinySudoku, CornerSeeker())
    try:
        yield TinySudoku
    finally:
        del VARIANTS[TinySudoku.id]
        del HEURISTICS[TinySudoku]


def test_no_variant_id_outside_the_rules() -> None:
    ids = [cls.id for cls in all_variants()]
    pattern = re.compile("|".join(re.escape(i) for i in ids))
    package = ROOT / "src" / "sudoku_table"
    places = [*(package / "web").rglob("*"), *(package / "table").rglob("*"),
              package / "overlay.py"]
    for path in places:
        if not path.is_file() or path.suffix not in {".py", ".js", ".html", ".css", ".yaml"}:
            continue
        found = pattern.search(path.read_text(encoding="utf-8"))
        assert found is None, f"{path.relative_to(ROOT)} names the variant {found.group()}"


@pytest.mark.integration
def test_the_panel_lists_serves_and_plays_a_new_variant(tiny: type[Game], client: Any) -> None:
    listed = {v["id"]: v for v in client.get("/api/variants").get_json()}
    assert list(listed).index("tiny-sudoku") == 1  # where its order puts it
    entry = listed["tiny-sudoku"]
    assert entry["family"] == "Test games" and entry["default_names"] == ["Red", "Blue"]
    assert entry["traits"]["piece_looks"][0]["fill"] == "#cc0000"
    assert entry["traits"]["set_aside_limit"] == 3
    board = client.get("/api/variants/tiny-sudoku").get_json()
    assert board["marked"] == {"dots": ["a1", "d4"]} and len(board["cells"]) == 16
    started = client.post("/api/game", json={"variant": "tiny-sudoku"}).get_json()
    assert started["player_names"] == ["Red", "Blue"]
    view = place(client, "a1", 1)
    view = place(client, "b1", 2)
    assert view["game"]["cells"] == {"a1": {"owner": 0, "number": 1},
                                     "b1": {"owner": 1, "number": 2}}
    assert put(client, "c1")["table"]["prompt"]["kind"] == "number"


@pytest.mark.integration
def test_a_new_variant_words_its_own_ending_and_score(tiny: type[Game], client: Any) -> None:
    client.post("/api/game", json={"variant": "tiny-sudoku"})
    place(client, "a1", 1)
    view = place(client, "d4", 2)
    game = view["game"]
    assert game["over"] and game["end_reason"] == "corners_taken"
    assert game["breakdown"] == [{"cards_down": 1}, {"cards_down": 1}]
    nxt = view["table"]["next"]
    assert nxt["code"] == "game_over" and nxt["params"]["reason"] == "corners_taken"
    codes = client.get("/api/i18n").get_json()["codes"]
    assert codes["end"]["corners_taken"] == "both marked corners hold a card"
    assert codes["parts"]["cards_down"] == "cards on the board"
    assert END_REASONS["corners_taken"] == "both marked corners hold a card"
    assert SCORE_PARTS["cards_down"] == "cards on the board"


@pytest.mark.integration
def test_the_computer_plays_a_new_variant_by_its_own_heuristic(tiny: type[Game],
                                                                client: Any) -> None:
    assert isinstance(heuristic_for(new_game("tiny-sudoku")), CornerSeeker)
    CornerSeeker.asked = 0
    client.post("/api/game", json={"variant": "tiny-sudoku", "computers": {"0": "normal"}})
    panel = client.application.extensions["sudoku_table"]
    assert panel.table.wait_for_computer(30)
    plan = client.get("/api/state").get_json()["table"]["plan"]
    assert CornerSeeker.asked > 0
    assert plan["cell"] in CORNERS  # a corner is worth ten to it, any other card one


class Unworded(TinySudoku):
    """Tiny Sudoku with an ending and a score part it forgets to declare."""

    id = "unworded-sudoku"

    def end_reason(self, state: State) -> str | None:
        return "forgotten" if state.over else None

    def score_breakdown(self, state: State) -> list[dict[str, int]]:
        return [{"forgotten_part": score} for score in self.scores(state)]


def test_an_ending_or_a_score_part_a_game_does_not_declare_fails_loudly() -> None:
    game = Unworded()
    state = game.initial_state()
    for cell, number in (("a1", 1), ("d4", 2)):
        state = game.apply(state, Place(cell, number))
    assert state.over
    with pytest.raises(KeyError, match="forgotten"):
        game.document(state)
    with pytest.raises(KeyError, match="forgotten_part"):
        Unworded.end_reasons = {**TinySudoku.end_reasons, "forgotten": "forgotten"}
        try:
            game.document(state)
        finally:
            del Unworded.end_reasons


def test_a_variant_must_declare_its_place_and_keep_each_code_s_words() -> None:
    all_variants()

    class Unplaced(FakeKosmos):
        id = "unplaced-sudoku"

    with pytest.raises(ValueError, match="declares no order"):
        register(Unplaced)

    class Reworded(TinySudoku):
        id = "reworded-sudoku"
        end_reasons: ClassVar[Mapping[str, str]] = {"board_full": "the board is quite full"}

    with pytest.raises(ValueError, match="board_full"):
        register(Reworded)
    assert "unplaced-sudoku" not in VARIANTS and "reworded-sudoku" not in VARIANTS


class CornerSudoku(TinySudoku):
    """Tiny Sudoku whose first card must go on a marked corner: a rule of where a piece may go,
    declared by the game alone."""

    id = "corner-sudoku"
    name = "Corner Sudoku"

    def where_rule(self, state: State) -> Said | None:
        return Said("the first card goes on a marked corner") if not state.board else None

    def check(self, state: State, action: Action) -> Illegal | None:
        if isinstance(action, Place) and not state.board and action.cell not in ("a1", "d4"):
            return Illegal("the first card goes on a marked corner")
        return super().check(state, action)

    def legal_actions(self, state: State) -> Iterator[Action]:
        for action in super().legal_actions(state):
            if state.board or not isinstance(action, Place) or action.cell in ("a1", "d4"):
                yield action


@pytest.mark.integration
def test_a_new_variant_says_its_own_rule_of_where_a_piece_may_go(client: Any) -> None:
    """Said before the first try and lit on request from the game's declaration alone (no
    variant id anywhere outside src/sudoku_table/rules, as above)."""
    all_variants()
    register(CornerSudoku)
    try:
        view = client.post("/api/game", json={"variant": "corner-sudoku"}).get_json()
        nxt = view["table"]["next"]
        assert nxt["params"]["rule"] == {"text": "the first card goes on a marked corner",
                                         "params": {}}
        assert view["table"]["where_offered"]
        view = client.post("/api/input", json={"type": "where"}).get_json()
        assert {s for s, w in view["table"]["signals"].items() if w == "target"} == {"a1", "d4"}
        view = place(client, "a1", 1)
        assert "rule" not in view["table"]["next"]["params"]
        assert not view["table"]["where_offered"]
    finally:
        del VARIANTS[CornerSudoku.id]


def test_the_overlay_of_a_new_variant_renders(tiny: type[Game]) -> None:
    from sudoku_table.overlay import marked_cells, render

    game = new_game("tiny-sudoku")
    assert marked_cells(game) == ("a1", "d4")
    svg = render(game, 40.0)
    assert svg.startswith("<?xml") or svg.startswith("<svg")
    assert "Tiny Sudoku" in svg


@pytest.mark.browser
def test_the_play_page_draws_a_new_variant(tiny: type[Game], browser: Any,  # noqa: F811
                                           tmp_path: Path) -> None:
    from sudoku_table.assembly import open_panel

    panel = open_panel(sim=True, data=tmp_path / "data", config_path=None)
    live = LiveServer(panel.app)
    context = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True)
    try:
        panel.table.new_game("tiny-sudoku")
        page = context.new_page()
        page.set_default_timeout(6000)
        errors: list[str] = []
        page.on("pageerror", lambda e: errors.append(str(e)))
        page.goto(live.url + "/play")
        page.wait_for_selector("#board [data-square='d4']")
        assert page.locator("#board [data-square]").count() == 16
        dots = page.eval_on_selector_all("#board .dot", "ds => ds.map(d => d.dataset.dot)")
        assert sorted(dots) == ["a1", "d4"]
        assert page.inner_text("#sim-help") == CARDS.handle  # its pieces' own words
        page.click("#board [data-square='b2']")  # the simulated board: a piece goes down
        page.wait_for_selector("#board [data-square='b2'][data-occupied='true']:not([data-felt])")
        # Both corners taken: the page words the game's own ending and its part of the score.
        client = panel.app.test_client()
        client.post("/api/input", json={"type": "number", "square": "b2", "number": 1})
        place(client, "a1", 2)
        place(client, "d4", 1)
        page.wait_for_selector("#end:not([hidden])")
        assert "both marked corners hold a card" in page.inner_text("#end-why")
        headings = page.eval_on_selector_all("#breakdown thead th",
                                             "hs => hs.map(h => h.textContent)")
        assert "cards on the board" in headings
        assert not errors, errors
    finally:
        context.close()
        live.close()
        panel.close()


@pytest.mark.browser
def test_the_play_page_shows_only_what_the_game_has(browser: Any,  # noqa: F811
                                                    tmp_path: Path) -> None:
    """The legend lists only the game's own LED words, and the hint light (every game can give
    a hint, switched per game); the computer's light only when a seat is the computer's."""
    from sudoku_table.assembly import open_panel

    panel = open_panel(sim=True, data=tmp_path / "data", config_path=None)
    live = LiveServer(panel.app)
    context = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True)
    try:
        page = context.new_page()
        page.set_default_timeout(6000)
        for variant, hints in (("halma-dominari", True), ("classic-sudoku", True)):
            panel.table.new_game(variant)
            page.goto(live.url + "/play")
            page.wait_for_selector("#board [data-square]")
            words = page.eval_on_selector_all("#legend [data-signal]",
                                              "items => items.map(i => i.dataset.signal)")
            # the game's own words, the hint's, and the table's own (it cannot save)
            assert sorted(words) == sorted([*new_game(variant).signals, "hint", "unsaved"]), \
                variant
            assert page.is_visible("#hints-switch") == hints, variant
    finally:
        context.close()
        live.close()
        panel.close()


@pytest.mark.browser
@pytest.mark.parametrize("language, words", [
    ("en", {"duell-der-meister": ("take this card away", "a card may go here"),
            "sudoku-family": ("take this stone away", "a stone may go here")}),
    ("de", {"duell-der-meister": ("diese Karte wegnehmen", "hierhin darf eine Karte"),
            "sudoku-family": ("diesen Stein wegnehmen", "hierhin darf ein Stein")}),
])
def test_the_legend_says_the_games_own_word_for_its_pieces(
        browser: Any, tmp_path: Path, language: str,  # noqa: F811
        words: dict[str, tuple[str, str]]) -> None:
    """The legend's lights that name a piece come from the game (``piece_words.lights``),
    in the page's language: Duell der Meister speaks of cards, SUDOKU FAMILY of stones."""
    from sudoku_table.assembly import open_panel
    from sudoku_table.web.i18n import translate

    panel = open_panel(sim=True, data=tmp_path / "data", config_path=None)
    live = LiveServer(panel.app)
    context = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True,
                                  locale=language, extra_http_headers={"Accept-Language": language})
    try:
        page = context.new_page()
        page.set_default_timeout(6000)
        for variant, (illegal, target) in words.items():
            panel.table.new_game(variant)
            page.goto(live.url + "/play")
            page.wait_for_selector("#legend [data-signal='illegal']")
            said = dict(page.eval_on_selector_all(
                "#legend [data-signal]", "items => items.map(i => [i.dataset.signal, "
                "i.lastElementChild.textContent.trim()])"))
            assert (said["illegal"], said["target"]) == (illegal, target), variant
            lights = new_game(variant).piece_words.lights
            assert said["illegal"] == translate(lights["illegal"], language), variant
        # Words the script has never seen, served as the game's: the legend says them.
        def serve_tiles(route: Any) -> None:
            variants = route.fetch().json()
            for entry in variants:
                entry["traits"]["piece_words"]["lights"]["illegal"] = "take this tile away"
            route.fulfill(json=variants)

        page.route("**/api/variants", serve_tiles)
        page.goto(live.url + "/play")
        page.wait_for_selector("#legend [data-signal='illegal']")
        assert page.inner_text("#legend [data-signal='illegal'] span:last-child") \
            == "take this tile away"
    finally:
        context.close()
        live.close()
        panel.close()


def test_a_variant_declares_its_pieces_words_not_a_bare_word() -> None:
    with pytest.raises(TypeError, match="piece_words"):
        class Bare(TinySudoku):  # noqa: F841 (never made)
            piece_word = "tile"
    lights = {"illegal": "take this tile away", "conflict": "the tile it clashes with",
              "number": "tell the panel this tile's number", "target": "a tile may go here",
              "missing": "a tile belongs here", "extra": "this tile does not belong here",
              "setup": "put a start tile here"}
    tiles = PieceWords("tile", "tiles", "a tile", "Tap a square to put a tile down or lift it.",
                       "Draw a tile for the computer and tap its number.", lights)

    class Tiled(TinySudoku):
        piece_words = tiles

    assert Tiled.piece_word == "tile" and Tiled.traits()["piece_words"]["many"] == "tiles"
    assert Tiled.traits()["piece_words"]["lights"]["illegal"] == "take this tile away"
    # Every light that names a piece is worded, and no other.
    with pytest.raises(ValueError, match=r"missing: setup; unknown: -"):
        PieceWords("tile", "tiles", "a tile", "", "",
                   {k: v for k, v in lights.items() if k != "setup"})
    with pytest.raises(ValueError, match=r"missing: -; unknown: flip"):
        PieceWords("tile", "tiles", "a tile", "", "", {**lights, "flip": "turn this tile over"})
