"""``GET /api/say``: ask the table a question, for a player who cannot see the board.

The answer (``sudoku_table.table.asking``) is read from the view as the asking device may see it
(``views.present``: a seat's phone hears its own card, nobody else's) and worded in the
request's language. With ``speak=1`` the table's speaker says it too, in its own language; the
speaker is heard by everyone at the table, so what it says is the answer the shared panel would
get, never what only the asking seat may know.
"""

from __future__ import annotations

import itertools
from typing import TYPE_CHECKING, Any

from flask import Blueprint, Response, current_app, g, jsonify

from sudoku_table.rules.game import Game
from sudoku_table.rules.wording import N_
from sudoku_table.table import announce, asking

from . import i18n
from .errors import ApiError
from .security import check_request
from .speech import CatalogVoice, speech_settings
from .validation import query

if TYPE_CHECKING:
    from sudoku_table.speech import Speaker

    from . import PanelState

asking_api = Blueprint("asking_api", __name__, url_prefix="/api")

_ANSWERS = itertools.count(1)
"""Each spoken answer's number, for its announcement id."""


def _panel() -> PanelState:
    return current_app.extensions["sudoku_table"]


def seats_of(game: Game | None, table: dict[str, Any]) -> announce.Seats:
    """Who sits at the table, as the announcements name them."""
    if game is None:
        return {"players": 0, "names": [], "labels": [], "computers": {}}
    return {"players": game.players, "names": list(table.get("names") or []),
            "labels": list(game.player_labels), "computers": dict(table.get("computers") or {})}


def answer_for(panel: PanelState, q: asking.Question,
               seat: int | None) -> tuple[list[asking.Phrase], announce.Seats]:
    """The answer to ``q`` as ``seat``'s phone may hear it (None: the shared panel)."""
    from .seats import private

    view, game, state = panel.table.position()
    table = private(panel, view, dict(view["table"]), seat)
    at = asking.Position(game, state, table, seat)
    return asking.ask(q, at), seats_of(game, table)


def words(answer: list[asking.Phrase], seats: announce.Seats, language: str) -> str:
    """An answer in ``language``, the players named as the panel names them."""
    voice = CatalogVoice(language)
    return asking.say(answer, voice, announce.seat_names(seats, voice.text))


def _speaker() -> Speaker | None:
    holder = current_app.extensions.get("sudoku_table_speech")
    return holder.speaker if holder is not None else None


def _speak(panel: PanelState, q: asking.Question) -> str | None:
    """Have the table's speaker say the shared panel's answer; why not, when it cannot."""
    speaker = _speaker()
    problem = speaker.problem() if speaker is not None else N_("this table has no speaker")
    if speaker is None or problem is not None:
        return i18n.translate(N_("the table cannot speak: {problem}"),
                              problem=i18n.translate(problem or ""))
    if not speech_settings(panel).on:
        return i18n.translate(N_("speech at the table is off: switch it on on the Table page, "
                                 "or switch on this phone's speech"))
    public, seats = answer_for(panel, q, None)
    speaker.announce({"id": f"answer-{next(_ANSWERS)}", "seats": seats,
                      "parts": [{"kind": "answer", "code": "answer",
                                 "params": {"phrases": public}, "seat": None}]})
    return None


@asking_api.before_request
def _guard() -> None:
    check_request()


@asking_api.get("/say")
def say() -> Response:
    """Answer one question (docs/api.md "Asking the table"); a bad question is a 400 that
    changes nothing."""
    args = query()
    try:
        q = asking.question(args.get("q", ""), square=args.get("square"),
                            rank=args.get("rank"), file=args.get("file"),
                            number=args.get("number"))
    except asking.QuestionError as e:
        raise ApiError(e.template, params=e.params) from None
    panel = _panel()
    answer, seats = answer_for(panel, q, g.get("seat"))
    body: dict[str, Any] = {"text": words(answer, seats, i18n.current()),
                            "language": i18n.current()}
    if args.get("speak") == "1":
        reason = _speak(panel, q)
        body.update(spoken=reason is None, reason=reason)
    return jsonify(body)
