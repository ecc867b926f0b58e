"""Speech on the panel: the table's announcements in each phone's language, and the Table
page's speech settings.

Every view carries ``table.say``, the table's last announcement (``sudoku_table.table.announce``);
``say_in`` words it in the request's language, with the players' names as the panel shows them.
The table's own speaker (``sudoku_table.speech``) says the same parts in the language chosen on the
Table page (``sentence_of``). ``GET``/``POST /api/table/speech`` read and change that speaker's
settings (on, volume, language; with the PIN like the other settings), and ``POST
/api/speech/repeat`` has it say the last announcement again.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from babel.lists import format_list
from flask import Blueprint, Flask, Response, current_app, jsonify

from sudoku_table.rules.wording import N_
from sudoku_table.table import announce, asking

from . import i18n, settings
from .security import check_request
from .validation import json_body, query

if TYPE_CHECKING:
    from sudoku_table.speech import Speaker, SpeechSettings

    from . import PanelState

speech_api = Blueprint("speech_api", __name__, url_prefix="/api")

_RANGE = re.compile(r"\b([a-i][1-9])-([a-i][1-9])\b")


class CatalogVoice(announce.Voice):
    """The words of one of the panel's languages, from its gettext catalog."""

    def __init__(self, language: str) -> None:
        self.language = language if language in i18n.LANGUAGES else i18n.SOURCE
        self._words = i18n.catalog(self.language)

    def text(self, english: str) -> str:
        return self._words.get(english, english)

    def area(self, name: str) -> str:
        # "line d8-f8" is said "line d8 to f8": a dash is read as "minus".
        worded = i18n.area(name, self.language)
        return _RANGE.sub(lambda m: self.text(announce.PHRASES["move"]).format(
            start=m.group(1), square=m.group(2)), worded)

    def join(self, items: list[str]) -> str:
        return format_list(items, locale=self.language) if items else ""


def sentence_of(part: announce.Part, seats: announce.Seats, language: str) -> str:
    """One part of an announcement as a sentence of ``language``: the table's speaker."""
    voice = CatalogVoice(language)
    names = announce.seat_names(seats, voice.text)
    if part["kind"] == "answer":  # an answer to a question asked with speak=1
        return asking.say(part["params"]["phrases"], voice, names)
    return announce.sentence(announce.say_part(part, voice, names))


def say_in(say: dict[str, Any] | None, names: list[str], language: str) -> dict[str, Any]:
    """The view's ``table.say`` worded in ``language``, ``names`` naming the seats."""
    if not say or not say.get("parts"):
        return dict(say or {"id": None, "text": "", "parts": []})
    voice = CatalogVoice(language)
    parts: list[announce.Part] = [{"kind": p["kind"], "code": p["code"], "params": p["params"],
                                   "seat": p["seat"]} for p in say["parts"]]
    texts = announce.words(parts, voice, names)
    return {**say, "text": " ".join(t for t in texts if t), "language": voice.language,
            "parts": [{**p, "text": text} for p, text in zip(say["parts"], texts, strict=True)]}


# --- the table's speaker and its settings ------------------------------------------------------


@dataclass
class SpeechPanel:
    """The table's speaker as the panel knows it (None: this table has none)."""

    speaker: Speaker | None = None


def attach(app: Flask, speaker: Speaker | None) -> None:
    """Give the panel the table's speaker (the composition root does)."""
    app.extensions["sudoku_table_speech"] = SpeechPanel(speaker)


def _speaker() -> Speaker | None:
    holder = current_app.extensions.get("sudoku_table_speech")
    return holder.speaker if holder is not None else None


def _panel() -> PanelState:
    return current_app.extensions["sudoku_table"]


def speech_settings(panel: PanelState) -> SpeechSettings:
    """The speaker's settings as saved on the Table page (off, 60 %, the panel's language
    until changed)."""
    from sudoku_table.speech import SpeechSettings

    saved = settings.load(panel.settings_path).get("speech")
    saved = saved if isinstance(saved, dict) else {}
    on = saved.get("on") is True
    volume = saved.get("volume")
    if isinstance(volume, bool) or not isinstance(volume, int | float) or not 0 <= volume <= 1:
        volume = SpeechSettings.volume
    language = saved.get("language")
    if language not in i18n.LANGUAGES:
        language = panel.config.language if panel.config.language in i18n.LANGUAGES \
            else i18n.SOURCE
    return SpeechSettings(on=on, volume=float(volume), language=str(language))


def language_chosen(panel: PanelState) -> bool:
    """Whether the speaker's language was ever chosen on the Table page (until then it speaks
    the language of the page where it is first set)."""
    saved = settings.load(panel.settings_path).get("speech")
    return isinstance(saved, dict) and saved.get("language") in i18n.LANGUAGES


def settings_reader(panel: PanelState) -> Any:
    """A function giving the current settings, for the speaker's thread."""
    return lambda: speech_settings(panel)


def _status() -> dict[str, Any]:
    panel = _panel()
    speaker = _speaker()
    chosen = speech_settings(panel)
    problem = speaker.problem() if speaker is not None else N_("this table has no speaker")
    problem = i18n.translate(problem) if problem else None
    status = speaker.status() if speaker is not None else {"error": None, "said": []}
    language = chosen.language if language_chosen(panel) else i18n.current()
    return {"available": problem is None, "problem": problem, "error": status["error"],
            "on": chosen.on, "volume": chosen.volume, "language": language,
            "languages": [{"code": c, "name": i18n.own_name(c)} for c in i18n.LANGUAGES],
            "engine": speaker.engine.name if speaker is not None else None,
            "said": status["said"]}


@speech_api.before_request
def _guard() -> None:
    check_request()
    query()


@speech_api.get("/table/speech")
def table_speech() -> Response:
    """The table's speech: whether it can speak (and why not), on or off, volume, language."""
    return jsonify({"speech": _status()})


@speech_api.post("/table/speech")
def change_table_speech() -> Response:
    """Switch the table's speech on or off, set its volume (0..1) and language; with the PIN
    where one is set, like the other settings."""
    from .api import setting_body

    body = setting_body()
    panel = _panel()
    with settings.lock:  # read, change and write as one: a change made meanwhile is kept
        chosen = speech_settings(panel)
        volume = body.get("volume", chosen.volume)
        # Never chosen: the language of the page where the speaker is first set.
        language = body.get("language", chosen.language if language_chosen(panel)
                            else i18n.current())
        on = body.get("on", chosen.on)
        settings.update(panel.settings_path,
                        speech={"on": on, "volume": float(volume), "language": language})
    speaker = _speaker()
    if on and speaker is not None and (not chosen.on or body.keys() & {"volume", "language"}):
        # A sign of life in the new voice, as the buzzer gives when it is switched on.
        speaker.announce({"id": "speech-on", "seats": {"players": 0, "names": [], "labels": [],
                                                       "computers": {}},
                          "parts": [{"kind": "test", "code": "speech_on", "params": {},
                                     "seat": None}]})
    return jsonify({"speech": _status()})


@speech_api.post("/speech/repeat")
def repeat() -> Response:
    """The table's speaker says the last announcement again (changes nothing: no PIN)."""
    json_body()
    panel = _panel()
    speaker = _speaker()
    problem = speaker.problem() if speaker is not None else N_("this table has no speaker")
    if problem is not None:
        return jsonify({"repeated": False, "reason": i18n.translate(
            N_("the table cannot speak: {problem}"), problem=i18n.translate(problem))})
    if not speech_settings(panel).on:
        return jsonify({"repeated": False, "reason": i18n.translate(
            N_("speech at the table is off: switch it on on the Table page, or switch on "
               "this phone's speech"))})
    if not panel.table.announcer.repeat():
        return jsonify({"repeated": False, "reason": i18n.translate(
            N_("the table has said nothing yet"))})
    return jsonify({"repeated": True, "reason": None})
