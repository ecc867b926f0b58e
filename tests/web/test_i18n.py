"""The panel in German and English: the catalog holds exactly what the code says, the language
follows the phone, the switch and the config, and a game played in German shows no English.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from babel.messages.extract import extract_from_dir
from babel.messages.frontend import parse_mapping_cfg
from babel.messages.mofile import read_mo
from babel.messages.pofile import read_po

from sudoku_table.web import i18n

from .test_browser import Phone, play_the_books_duell_example

ROOT = Path(__file__).resolve().parents[2]
KEYWORDS = {"_": None, "gettext": None, "N_": None, "t": None, "Nn_": (1, 2)}
with (ROOT / "babel.cfg").open(encoding="utf-8") as _cfg:
    METHODS, _ = parse_mapping_cfg(_cfg)
"""Where pybabel extracts from (babel.cfg): the very same for the tests."""
PLACEHOLDER = re.compile(r"\{(\w+)\}|%\((\w+)\)s")


def extracted() -> set[str]:
    """Every message id the code marks for translation, as ``pybabel extract`` finds it."""
    ids = set()
    for _, _, message, _, _ in extract_from_dir(str(ROOT), METHODS, keywords=KEYWORDS):
        ids.add(message if isinstance(message, str) else message[0])
    return ids


def catalog(language: str) -> dict[str, str]:
    """Every entry of ``language``'s catalog, by its English id (a wording that changes with
    a number by its singular, with all its forms joined)."""
    path = i18n.TRANSLATIONS / language / "LC_MESSAGES" / "messages.po"
    with path.open("rb") as f:
        return {_key(m.id): _text(m.string) for m in read_po(f) if m.id}


def _key(message_id: str | tuple[str, ...]) -> str:
    return message_id if isinstance(message_id, str) else message_id[0]


def _text(string: str | tuple[str, ...]) -> str:
    return string if isinstance(string, str) else \
        " | ".join(string) if all(string) else ""


@pytest.fixture(scope="module")
def code_ids() -> set[str]:
    return extracted()


def test_german_is_a_catalog_and_english_the_code() -> None:
    assert i18n.LANGUAGES == ("en", "de")


@pytest.mark.parametrize("language", [lang for lang in i18n.LANGUAGES if lang != i18n.SOURCE])
def test_every_word_is_translated_and_nothing_unused(code_ids: set[str], language: str) -> None:
    words = catalog(language)
    missing = sorted(code_ids - set(words))
    unused = sorted(set(words) - code_ids)
    assert not missing, f"{language} lacks: {missing[:10]}"
    assert not unused, f"{language} holds entries nothing uses: {unused[:10]}"
    empty = sorted(k for k, v in words.items() if not v)
    assert not empty, f"{language} has empty translations: {empty[:10]}"


SCRIPT_WORDS = re.compile(r'\bt\(\s*"((?:[^"\\\n]|\\.)*)"')
"""A word a script marks for the catalog: ``t("...")`` with its text in double quotes."""


@pytest.mark.parametrize("language", [lang for lang in i18n.LANGUAGES if lang != i18n.SOURCE])
def test_every_word_a_script_marks_is_in_the_catalog(code_ids: set[str], language: str) -> None:
    # The extractor reads no ``t(...)`` inside a template string (`... ${t("...")}`): such a
    # word never reached the catalog and stood in English on a German page.
    import json

    words = catalog(language)
    static = Path(i18n.__file__).parent / "static"
    lines = [line for path in static.glob("*.js")
             for line in path.read_text(encoding="utf-8").splitlines()
             if not line.lstrip().startswith("//")]  # a comment's example is no word
    marked = {json.loads(f'"{text}"') for line in lines for text in SCRIPT_WORDS.findall(line)}
    assert marked, "no marked word found: the pattern no longer fits the scripts"
    assert not sorted(marked - code_ids), "not extracted: " + repr(sorted(marked - code_ids))
    assert not sorted(marked - set(words)), f"{language} lacks {sorted(marked - set(words))}"


@pytest.mark.parametrize("language", [lang for lang in i18n.LANGUAGES if lang != i18n.SOURCE])
def test_translations_keep_their_placeholders(language: str) -> None:
    for english, words in catalog(language).items():
        said = {a or b for a, b in PLACEHOLDER.findall(words)}
        assert said <= {a or b for a, b in PLACEHOLDER.findall(english)}, (english, words)


@pytest.mark.parametrize("language", [lang for lang in i18n.LANGUAGES if lang != i18n.SOURCE])
def test_the_compiled_catalog_matches_its_source(language: str) -> None:
    folder = i18n.TRANSLATIONS / language / "LC_MESSAGES"
    with (folder / "messages.mo").open("rb") as f:
        compiled = {_key(m.id): _text(m.string) for m in read_mo(f) if m.id}
    assert compiled == catalog(language), \
        "run: pybabel compile -d src/sudoku_table/web/translations"


def test_the_code_marks_every_message_code_for_the_catalog(code_ids: set[str]) -> None:
    from sudoku_table.rules.game import END_REASONS, SCORE_PARTS, all_variants
    from sudoku_table.table.view import MESSAGES, NEXT_STEPS

    for table in (MESSAGES, NEXT_STEPS, END_REASONS, SCORE_PARTS):
        assert set(table.values()) <= code_ids
    for cls in all_variants():
        assert cls.summary in code_ids, cls.id
        for label in cls.player_labels:
            assert label in code_ids


@pytest.mark.integration
def test_the_language_follows_the_phone_the_switch_and_the_config(tmp_path: Path) -> None:
    from .helpers import open_composition

    panel = open_composition(tmp_path / "data")
    client = panel.app.test_client()
    german = client.get("/play", headers={"Accept-Language": "de-DE,de;q=0.9,en;q=0.5"})
    assert b'lang="de"' in german.data and "Rückgängig".encode() in german.data
    english = client.get("/play", headers={"Accept-Language": "en-GB"})
    assert b'lang="en"' in english.data and b">Undo<" in english.data
    words = client.get("/api/i18n", headers={"Accept-Language": "de"}).get_json()
    assert words["language"] == "de" and words["strings"]["Undo"] == "Rückgängig"
    assert words["codes"]["next"]["turn_over"] == "turn over {squares}"
    # The switch on every page: kept in a cookie, it wins over the phone's own preference.
    switched = client.get("/language/de?next=/table")
    assert switched.status_code == 302 and switched.headers["Location"].endswith("/table")
    page = client.get("/table", headers={"Accept-Language": "en"})
    assert b'lang="de"' in page.data
    assert client.get("/language/xx").status_code == 404
    assert client.get("/language/de?next=//evil.example").status_code == 400
    panel.close()

    from sudoku_table.web import create_app
    from sudoku_table.web.config import PanelConfig

    app = create_app(panel.table, config=PanelConfig(language="de"))
    assert b'lang="de"' in app.test_client().get("/").data  # no preference: the table's own


def test_a_bad_language_in_the_config_is_refused() -> None:
    from sudoku_table.web.config import PanelConfig

    with pytest.raises(ValueError, match="language"):
        PanelConfig(language="fr")


ENGLISH_ONLY = re.compile(r"[A-Za-z][a-z]{3,}")


def english_vocabulary() -> set[str]:
    """Words of the UI's own English (the pages', the scripts' and the table's codes') that
    its German never uses."""
    german = catalog("de")
    ui = set()
    page_methods = [(pattern, method) for pattern, method in METHODS if method != "python"]
    for _, _, message, _, _ in extract_from_dir(str(ROOT), page_methods, keywords=KEYWORDS):
        ui.add(message if isinstance(message, str) else message[0])
    from sudoku_table.table.view import MESSAGES, NEXT_STEPS

    ui |= set(MESSAGES.values()) | set(NEXT_STEPS.values())
    quoted = re.compile(r'"[^"]*"|\'[^\']*\'|\{[^}]*\}')  # JSON examples, placeholders
    german_words = {w.lower() for text in german.values()
                    for w in ENGLISH_ONLY.findall(quoted.sub(" ", text))}
    english = {w.lower() for text in ui for w in ENGLISH_ONLY.findall(text)}
    from sudoku_table.rules.game import all_variants

    names = {w for cls in all_variants()  # the games' own names, said alike in every language
             for w in ENGLISH_ONLY.findall(f"{cls.name} {cls.family}".lower())}
    return english - german_words - names - {"anna"}


class EnglishWatch:
    """Looks at a German page for any word of the UI's English (and, in the card games'
    play page, for a card called a Stein) at the moments a test names; the full games by taps
    in ``test_companion`` play every family this way on a German phone."""

    def __init__(self, phone: Phone, variant: str) -> None:
        from sudoku_table.rules.game import new_game

        self.phone = phone
        self.variant = variant
        self.vocabulary = english_vocabulary()
        self.cards = new_game(variant).piece_word == "card"
        self.seen: list[str] = []

    def look(self, where: str) -> None:
        page = self.phone.page
        text = page.evaluate("document.body.innerText")
        found = {w for w in ENGLISH_ONLY.findall(text) if w.lower() in self.vocabulary}
        assert not found, (where, sorted(found))
        assert "journal" not in text.lower(), where
        if self.cards and page.url.endswith("/play"):  # a card is a Karte, never a Stein
            assert not re.search(r"Stein", text), (where, re.findall(r".{30}Stein.{10}", text))
        self.seen.append(where)

    def pages(self) -> None:
        """The start page, joining, the rules and the table's page."""
        page = self.phone.page
        for path in ("/", "/join", "/rules", "/table"):
            page.goto(self.phone.url + path)
            page.wait_for_load_state("networkidle")
            self.look(path)

    def start_form(self) -> None:
        page = self.phone.page
        page.goto(self.phone.url + "/")
        page.click(f"[data-variant='{self.variant}']")
        page.wait_for_selector("#player-names input")
        self.look("the start form")


@pytest.fixture
def german(browser: Any, server: str) -> Iterator[Phone]:
    """A German phone (390x844) on a fresh panel; it must end without script errors."""
    context = browser.new_context(viewport={"width": 390, "height": 844}, locale="de-DE",
                                  bypass_csp=True)
    page = context.new_page()
    page.set_default_timeout(5000)
    phone = Phone(page, server)
    yield phone
    context.close()
    assert not phone.errors, phone.errors


def test_vocabulary_is_not_empty() -> None:
    words = english_vocabulary()
    assert {"undo", "scores", "board", "turn"} <= words, sorted(words)[:40]


@pytest.mark.integration
def test_api_errors_come_in_the_request_language(tmp_path: Path) -> None:
    from .helpers import open_composition

    panel = open_composition(tmp_path / "data")
    client = panel.app.test_client()
    german = {"Accept-Language": "de"}
    answer = client.post("/api/input", json={"type": "undo"}, headers=german)
    assert answer.status_code == 422
    assert answer.get_json()["error"] == "es läuft kein Spiel: wähle zuerst ein Spiel"
    assert client.post("/api/input", json={"type": "undo"}).get_json()["error"] == (
        "no game is running: choose a game first")
    bad = client.post("/api/input", json={"type": "number", "number": 3, "square": "z9"},
                      headers=german).get_json()["error"]
    assert bad.startswith("square muss ein Sensorfeld a1..i9 sein")
    client.post("/api/game", json={"variant": "classic-sudoku", "players": 2}, headers=german)
    client.post("/api/sim/square", json={"square": "a1", "occupied": True})
    client.post("/api/input", json={"type": "number", "square": "a1", "number": 1})
    refused = client.post("/api/game", json={"variant": "revers-dominari"}, headers=german)
    assert refused.status_code == 409
    assert refused.get_json()["error"].startswith("Classic-Sudoku läuft noch")
    panel.close()


@pytest.mark.browser
def test_a_rules_reason_is_said_in_german(german: Phone) -> None:
    """The rules' reason for an illegal piece reaches the German panel in German, its areas
    named the German way ("Zeile", "Spalte", "Block")."""
    german.start("classic-sudoku", players=2)
    german.place("a1", 1)
    german.number(1)  # chosen in advance, then put where a 1 already stands in rank 1
    german.square("b1")
    german.page.wait_for_selector("#board [data-square='b1'][data-signal='illegal']")
    said = german.page.text_content("#message")
    assert "1 steht schon in Zeile 1" in said and "Block a1" in said, said
    assert "already" not in said


@pytest.mark.browser
def test_a_duell_claim_is_announced_in_german(german: Phone) -> None:
    """The rule book's Duell example on a German phone: the block the blue 9 decides is named
    the German way, as decided early, with the file it fills."""
    said = play_the_books_duell_example(german)
    assert said == ("Spieler 1: 9 auf a8 \u2014 Spieler 1 +2 "
                    "(Spalte a; vorzeitig entschieden: Block a7)")


@pytest.mark.integration  # the self-test runs the simulated table's scan in real time
def test_the_selftest_reports_in_german(capsys: pytest.CaptureFixture[str]) -> None:
    from sudoku_table.cli import main

    assert main(["selftest", "--sim", "--language", "de", "--inject", "stuck:c3"]) == 1
    said = capsys.readouterr().out
    assert "Selbsttest des simulierten Tisches" in said
    assert "hängt (nie geöffnet; oder dort blieb ein Stein liegen): c3" in said
    assert main(["selftest", "--sim", "--language", "en"]) == 0
    assert "all 81 switches closed and opened; no faults" in capsys.readouterr().out


CELL = re.compile(r"\b[a-i][1-9]\b")
HEADING = re.compile(r"^#+ ", re.MULTILINE)


@pytest.mark.parametrize("language", [lang for lang in i18n.LANGUAGES if lang != i18n.SOURCE])
def test_every_game_has_its_rules_in_every_language(language: str) -> None:
    """Each rules text exists in each language, with the same sections and every cell the
    English names (a rule dropped or added in translation shows here)."""
    from sudoku_table.rules.game import all_variants
    from sudoku_table.web import catalog as games

    for cls in all_variants():
        english = games.rules_text(cls.id)
        assert english is not None, cls.id
        path = games.rules_path(cls.id, language)
        assert path.parent.name == language, f"{cls.id} has no {language} rules text"
        words = path.read_text(encoding="utf-8")
        assert len(HEADING.findall(words)) == len(HEADING.findall(english)), cls.id
        assert sorted(CELL.findall(words)) == sorted(CELL.findall(english)), cls.id


@pytest.mark.integration
def test_the_rules_page_is_in_the_phone_language(tmp_path: Path) -> None:
    from .helpers import open_composition

    panel = open_composition(tmp_path / "data")
    client = panel.app.test_client()
    german = client.get("/rules/halma-dominari", headers={"Accept-Language": "de"}).data
    english = client.get("/rules/halma-dominari", headers={"Accept-Language": "en"}).data
    assert b"Aufbau" in german and b"Setting up" in english
    api = client.get("/api/rules/halma-dominari", headers={"Accept-Language": "de"}).get_json()
    assert "DOMINARI-Regel" in api["markdown"]
    panel.close()


def test_the_overlay_prints_its_words_in_german(capsys: pytest.CaptureFixture[str]) -> None:
    from sudoku_table.cli import main

    assert main(["overlay", "revers-dominari", "--language", "de"]) == 0
    svg = capsys.readouterr().out
    assert "mit 100 % drucken" in svg and "a1 ist unten links" in svg
    assert main(["overlay", "revers-dominari", "--language", "en"]) == 0
    assert "print at 100 %" in capsys.readouterr().out


def test_the_build_guide_has_a_german_twin_that_keeps_every_pin() -> None:
    english = (ROOT / "hardware" / "README.md").read_text(encoding="utf-8")
    german = (ROOT / "hardware" / "README.de.md").read_text(encoding="utf-8")
    assert "README.de.md" in english and "README.md" in german
    for pattern in (r"^#+ ", r"^\s*```", r"^\|", r"GPIO\s?\d+", r"`[^`\n]+`"):
        found = [re.findall(pattern, text, re.MULTILINE) for text in (english, german)]
        assert found[0] == found[1], pattern


def test_no_word_a_player_reads_speaks_of_the_journal(code_ids: set[str]) -> None:
    """The journal is the table's own name for its save file: a player reads of the save
    file (Speicherdatei) in every message, notice, question and page, in either language; the
    details the save file gives when it fails say so too."""
    import ast

    german = catalog("de")
    for english in code_ids:
        assert "journal" not in english.lower(), english
        assert "journal" not in german.get(english, "").lower(), english
    for path in (ROOT / "src" / "sudoku_table" / "table").glob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if (isinstance(node, ast.Call) and getattr(node.func, "id", None) == "JournalError"
                    or isinstance(node, ast.Call)
                    and getattr(node.func, "attr", None) == "start_over"):
                for text in ast.walk(node):
                    if isinstance(text, ast.Constant) and isinstance(text.value, str):
                        assert "journal" not in text.value.lower(), (path.name, text.value)
