"""The panel in German and English: Flask-Babel with gettext catalogs.

Every word of the panel lives in one catalog per language under
``src/sudoku_table/web/translations`` (``pybabel extract/update/compile``, see README). The pages
translate with ``_()``; the JavaScript gets the same catalog as JSON (``GET /api/i18n``) and
translates with ``t()``; the table's message codes, next steps, end reasons and score parts are
catalog entries too (their English wording is the message id), so the panel words them in the
phone's language.

The language is the one chosen on the panel (kept in a cookie), else the best match of the
phone's ``Accept-Language``, else the table's own (``[panel] language``). Adding a language is a
new catalog and nothing else: ``LANGUAGES`` lists the catalogs found.
"""

from __future__ import annotations

import gettext
from pathlib import Path
from typing import Any

from babel import Locale, UnknownLocaleError
from babel.lists import format_list
from babel.messages.mofile import read_mo
from flask import Flask, current_app, request
from flask_babel import Babel, get_locale
from werkzeug.datastructures import LanguageAccept
from werkzeug.http import parse_accept_header, parse_cookie

from sudoku_table.rules.actions import (
    Action,
    Blank,
    Discard,
    EndTurn,
    Joker,
    Move,
    Place,
    action_from_json,
)
from sudoku_table.rules.wording import N_

TRANSLATIONS = Path(__file__).with_name("translations")
COOKIE = "lang"
SOURCE = "en"
"""The language the code is written in: its catalog is the identity."""

LANGUAGES: tuple[str, ...] = (SOURCE, *sorted(
    p.name for p in TRANSLATIONS.iterdir()
    if (p / "LC_MESSAGES" / "messages.po").is_file())) if TRANSLATIONS.is_dir() else (SOURCE,)
"""Every language the panel speaks: English and each catalog in ``translations``."""



def own_name(code: str) -> str:
    """A language's name in itself ("Deutsch", "English"), from the Unicode CLDR (Babel)."""
    try:
        name = Locale.parse(code).get_display_name(code) or code
    except (ValueError, UnknownLocaleError):
        return code
    return name[:1].upper() + name[1:]


def select_locale() -> str:
    chosen = request.cookies.get(COOKIE)
    if chosen in LANGUAGES:
        return chosen
    best = request.accept_languages.best_match(LANGUAGES)
    if best:
        return best
    return str(current_app.config.get("PANEL_LANGUAGE") or SOURCE)


def language_of(cookie: str | None, accept: str | None, default: str) -> str:
    """The language of a request from its raw headers (``select_locale`` without Flask, for
    answers the server gives before the app sees the request)."""
    chosen = parse_cookie(cookie or "").get(COOKIE)
    if chosen in LANGUAGES:
        return str(chosen)
    best = parse_accept_header(accept or "", LanguageAccept).best_match(LANGUAGES)
    return str(best or (default if default in LANGUAGES else SOURCE))


def megabytes(size: int, language: str) -> str:
    """A size in MB with one decimal, as ``language`` writes it ("0,3" in German)."""
    return f"{size / (1024 * 1024):.1f}".replace(".", "," if language == "de" else ".")


def init_i18n(app: Flask) -> None:
    app.config.setdefault("BABEL_TRANSLATION_DIRECTORIES", str(TRANSLATIONS))
    Babel(app, locale_selector=select_locale)

    @app.context_processor
    def _languages() -> dict[str, Any]:
        locale = str(get_locale() or SOURCE)
        return {"locale": locale, "languages": [(code, own_name(code)) for code in LANGUAGES]}


def current() -> str:
    """The language of this request."""
    return str(get_locale() or SOURCE)


_CATALOGS: dict[str, dict[str, str]] = {}


def catalog(language: str) -> dict[str, str]:
    """Every translated message of ``language`` (message id to text); empty for English."""
    if language not in _CATALOGS:
        strings: dict[str, str] = {}
        mo = TRANSLATIONS / language / "LC_MESSAGES" / "messages.mo"
        if language != SOURCE and mo.is_file():
            with mo.open("rb") as f:
                for message in read_mo(f):
                    if message.id and message.string and isinstance(message.id, str):
                        strings[message.id] = str(message.string)
        _CATALOGS[language] = strings
    return _CATALOGS[language]


AREA_KINDS = ("rank", "file", "block", "cage", "line", "region", "triangle")
"""The first word of an area's name ("rank 4", "block b4"): worded in the catalog."""
FACES = ("left face", "right face", "top face")


def area(name: str, language: str) -> str:
    """An area's name ("block b4", "left face 3") in ``language``; other text as it is."""
    words = catalog(language)
    if name.endswith(" exact"):  # Kakuro's extra point for a run filled exactly to its clue
        return area(name[:-len(" exact")], language) + " " + words.get("exact", "exact")
    for kind in (*FACES, *AREA_KINDS):
        if name == kind or name.startswith(kind + " "):
            return words.get(kind, kind) + name[len(kind):]
    return name


def action_words(action: Action, language: str) -> str:
    """An action in a few words ("7 on c4", "b2 → d4") in ``language``, as the play page
    says it."""
    if isinstance(action, Place):
        return translate(N_("{number} on {cell}"), language, number=action.number,
                         cell=action.cell)
    if isinstance(action, Blank):
        return translate(N_("blank on {cell}"), language, cell=action.cell)
    if isinstance(action, Joker):
        return translate(N_("joker on {cell}"), language, cell=action.cell)
    if isinstance(action, Discard):
        return translate(N_("{number} set aside"), language, number=action.number)
    if isinstance(action, Move):
        if action.bears_off:
            return translate(N_("{cell} borne off"), language, cell=action.path[0])
        return " \u2192 ".join(action.path)
    assert isinstance(action, EndTurn)
    return translate(N_("end of turn"), language)


_PLURALS: dict[str, gettext.NullTranslations] = {}


def plurals(language: str) -> gettext.NullTranslations:
    """The compiled catalog of ``language`` as gettext reads it, for the wordings that change
    with a number (its ``Plural-Forms`` rule picks the form); English is the code itself."""
    if language not in _PLURALS:
        mo = TRANSLATIONS / language / "LC_MESSAGES" / "messages.mo"
        found: gettext.NullTranslations = gettext.NullTranslations()
        if language != SOURCE and mo.is_file():
            with mo.open("rb") as f:
                found = gettext.GNUTranslations(f)
        _PLURALS[language] = found
    return _PLURALS[language]


def translate_n(forms: tuple[str, str], count: int, language: str | None = None, /,
                **params: Any) -> str:
    """A wording marked with ``Nn_`` in the form that fits the number ``count`` (its size
    counts: -1 is said like 1), in ``language``, with ``{name}`` parameters filled in as
    ``translate`` fills them."""
    language = language or current()
    words = plurals(language).ngettext(forms[0], forms[1], abs(count))
    return _fill(words, language, params)


def translate(text: str, language: str | None = None, **params: Any) -> str:
    """``text`` (an English message id) in ``language`` (the request's), with ``{name}``
    parameters filled in; a list parameter is said as a list of the language, its areas
    worded too, and an action (the record's JSON) in words (``action_words``)."""
    language = language or current()
    words = catalog(language).get(text, text)
    if not params:
        return words
    return _fill(words, language, params)


def _fill(words: str, language: str, params: dict[str, Any]) -> str:
    """``words`` with their parameters said in ``language`` (see ``translate``)."""
    table = catalog(language)
    said = {k: format_list([area(str(i), language) for i in v], locale=language)
            if isinstance(v, list) else table.get(v, v) if isinstance(v, str)
            else action_words(action_from_json(v), language)
            if isinstance(v, dict) and "type" in v else v
            for k, v in params.items()}
    return words.format(**said)
