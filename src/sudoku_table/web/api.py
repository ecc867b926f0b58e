"""The JSON API of docs/api.md, plus the panel's own endpoints (finished games, LEDs, rules).

Every handler checks the shape of its input against the OpenAPI document (``validation``),
hands it to the table, and answers
with the table's view. The table and the rules raise their own errors for inputs that make no
sense in the game; ``errors`` turns them into 4xx JSON, and nothing has changed by then.
"""

from __future__ import annotations

import json
import logging
import sqlite3
from collections.abc import Callable, Iterator
from functools import lru_cache
from pathlib import Path
from typing import Any, TypeVar

from flask import Blueprint, Response, current_app, g, jsonify, request, stream_with_context

from sudoku_table import power as power_control
from sudoku_table.rules.errors import RulesError
from sudoku_table.rules.squares import SQUARES
from sudoku_table.rules.wording import N_
from sudoku_table.table.archive import ArchiveBusy, ArchiveError, NotJson, Outcome, export_chunks
from sudoku_table.table.journal import JournalError, now_iso
from sudoku_table.table.shelf import Shelf, Summary
from sudoku_table.version import current as current_version

from . import PanelState, catalog, i18n, palette, settings
from .errors import ApiError, said
from .markdown import render
from .seats import require_turn
from .security import check_request, input_needs_pin, require_pin
from .streaming import paced, release_once
from .validation import json_body, query
from .views import present

api = Blueprint("api", __name__, url_prefix="/api")
log = logging.getLogger(__name__)
T = TypeVar("T")


@api.before_request
def _guard() -> None:
    check_request()
    query()  # the parameters the document gives the endpoint, and no other


def _download_wanted() -> bool:
    return query().get("download") in ("1", "true")


def _panel() -> PanelState:
    return current_app.extensions["sudoku_table"]


def _view() -> dict[str, Any]:
    return present(_panel(), _panel().table.view())


# --- games and boards ---------------------------------------------------------------------------

OPENAPI_PATH = Path(__file__).with_name("openapi.yaml")
"""The exact reference of this API (``docs/openapi.yaml`` is the same file)."""
SIM_FELT_WAIT = 1.0
"""Clearing the simulated board lifts one piece once the scan has felt the one before (at most
this long): never several of one line within one scan (a line fault), however late the scan
runs on a busy machine, and all of them settling together."""


@lru_cache(maxsize=1)
def openapi_document() -> dict[str, Any]:
    """The OpenAPI 3.1 document of this API, parsed once."""
    import yaml

    document = yaml.safe_load(OPENAPI_PATH.read_text(encoding="utf-8"))
    assert isinstance(document, dict)
    return document


@api.get("/openapi.json")
def openapi() -> Response:
    return jsonify(openapi_document())


@api.get("/variants")
def list_variants() -> Response:
    return jsonify(catalog.variants())


@api.get("/variants/<variant_id>")
def variant_geometry(variant_id: str) -> Response:
    """The board; ``?options={...}`` (a JSON object) for a game whose options shape it (a
    puzzle's board)."""
    text = query().get("options")
    options = None
    if text is not None:
        try:
            options = json.loads(text)
        except ValueError:
            options = None
        if not isinstance(options, dict):
            raise ApiError(N_("options must be a JSON object"))
    return jsonify(catalog.geometry(variant_id, options))


@api.get("/variants/<variant_id>/setup")
def variant_setup(variant_id: str) -> Response:
    """The documented start position, or with ``?seed=N`` a random proposal (Duell gold cards)."""
    seed_text = query().get("seed")
    seed = None if seed_text is None else int(seed_text)
    catalog.check_variant(variant_id)
    return jsonify(catalog.proposed_setup(variant_id, seed))


@api.get("/variants/<variant_id>/overlay")
def variant_overlay(variant_id: str) -> Response:
    """The printable overlay of a game, in the request's language: one SVG sheet
    (``?paper=svg``, the default) or tiled onto A4 or US Letter pages as a PDF
    (``?paper=a4``, ``?paper=letter``); Kakuro's clue option with ``?options=A``."""
    from sudoku_table.overlay import OverlayError, render
    from sudoku_table.rules.game import new_game
    from sudoku_table.tiles import TileError, tile_pdf

    wanted = query()
    catalog.check_variant(variant_id)
    game_options = None
    if "options" in wanted:
        keys = list(catalog.variant_class(variant_id).option_defaults)
        if not keys:
            raise ApiError(N_("{game} has no options"), params={"game": variant_id})
        game_options = {keys[0]: wanted["options"]}
    language = i18n.current()

    def say(text: str) -> str:
        return i18n.translate(text, language)

    try:
        game = new_game(variant_id, options=game_options)
        svg = render(game, float(current_app.config["OVERLAY_PITCH_MM"]), say)
    except (RulesError, OverlayError) as e:
        raise ApiError(str(e), 422) from None
    paper = wanted.get("paper", "svg")
    if paper == "svg":
        response = Response(svg, mimetype="image/svg+xml")
        name = f"{variant_id}-overlay.svg"
    else:
        try:
            data = tile_pdf(svg, paper, title=game.name, say=say)
        except TileError as e:
            raise ApiError(str(e), 422) from None
        response = Response(data, mimetype="application/pdf")
        name = f"{variant_id}-overlay-{paper}.pdf"
    response.headers["Content-Disposition"] = f'attachment; filename="{name}"'
    return response


@api.get("/i18n")
def words() -> Response:
    """The panel's words in the request's language: the catalog (English message id to text)
    and the English wording of every code the table sends (messages, next steps, end reasons,
    score parts), for the JavaScript to translate exactly as the pages do."""
    from sudoku_table.ai import WORDINGS
    from sudoku_table.rules.game import END_REASONS, SCORE_PARTS
    from sudoku_table.table.computer import LEVEL_WORDS
    from sudoku_table.table.view import MESSAGES, NEXT_STEPS

    language = i18n.current()
    return jsonify({
        "language": language,
        "languages": list(i18n.LANGUAGES),
        "strings": i18n.catalog(language),
        "codes": {"messages": dict(MESSAGES), "next": dict(NEXT_STEPS),
                  "end": dict(END_REASONS), "parts": dict(SCORE_PARTS),
                  "reasons": dict(WORDINGS), "levels": dict(LEVEL_WORDS)},
    })


@api.get("/legend")
def legend() -> Response:
    """The LED language with the colours and patterns the LEDs use, for drawing the same, and
    the panel's colours and marks for the players' pieces (``palette``)."""
    from sudoku_table.table import signals

    return jsonify({
        "signals": signals.legend(),
        "players": list(palette.SEATS),
        "nobody": palette.GOLD,
        "marks": list(palette.MARKS),
        "choices": list(palette.CHOICES),
    })


@api.get("/rules/<variant_id>")
def rules(variant_id: str) -> Response:
    catalog.check_variant(variant_id)
    text = catalog.rules_text(variant_id, i18n.current())
    if text is None:
        raise ApiError(N_("the rules of {variant_id} are not written yet"),
                       404, params={"variant_id": variant_id})
    return jsonify({"id": variant_id, "markdown": text, "html": render(text)})


# --- the game -----------------------------------------------------------------------------------

@api.post("/game")
def new_game() -> Response:
    """Start a game; with a PIN set, only with the PIN (it ends or replaces the last game)."""
    body = json_body()
    variant = body["variant"]
    known = catalog.known_variant_ids()
    if variant not in known:
        raise ApiError(N_("unknown variant {variant} (one of {known})"),
                       params={"variant": repr(variant), "known": ", ".join(known)})
    panel = _panel()
    require_pin(body)
    # As typed, trimmed; an empty one is the seat's default, in each language.
    names = [name.strip() for name in body.get("names") or []]
    view = panel.table.new_game(
        variant, body.get("players"), body.get("options") or {}, body.get("setup"),
        hints=body.get("hints", False), names=names, replace=body.get("replace", False),
        colors=body.get("colors") or [], computers=body.get("computers") or {},
        computer_draws=body.get("computer_draws", False), deal=body.get("deal", False),
        remote=body.get("remote"),
    )
    panel.seating.new_game(panel.table.game_id)
    return jsonify(present(panel, view))


@api.post("/join")
def join_game() -> Response:
    """Join the game of another table by its join code (docs/network.md)."""
    body = json_body()
    panel = _panel()
    require_pin(body)
    view = panel.table.join(body["code"], replace=body.get("replace", False))
    panel.seating.new_game(panel.table.game_id)
    return jsonify(present(panel, view))


@api.post("/take-over")
def take_over() -> Response:
    """At a table that joined a game whose host's table is gone: host it from here."""
    body = json_body()
    panel = _panel()
    require_pin(body)
    return jsonify(present(panel, panel.table.take_over()))


@api.get("/state")
def state() -> Response:
    return jsonify(_view())


@api.get("/record")
def record() -> Response:
    data = _panel().table.record()
    if data is None:
        raise ApiError(N_("no game has been started"), 404)
    if _download_wanted():
        return _download(data, f"{data.get('variant', 'game')}-current.json")
    return jsonify(data)


@api.post("/input")
def game_input_endpoint() -> Response:
    body = json_body()
    data = {k: v for k, v in body.items() if k != "pin"
            and not (k == "owner" and v is None)}  # no owner: the table assumes the mover's
    panel = _panel()
    seat = g.get("seat")  # a seat's phone plays its own seat, without the PIN
    if seat is None and panel.pin.enabled and \
            input_needs_pin(data, panel.table.view()["table"].get("prompt")):
        require_pin(body)
    view = panel.table.input(data, seat)
    return jsonify(present(_panel(), view))


@api.post("/hint")
def hint() -> Response:
    """Ask for a hint for the person to move. The answer comes at once with ``table.hint``
    ``{"status": "thinking"}``; the advised action and its reasons follow as a new view (the
    live stream, or GET /api/state). Changes nothing in the game, so it needs no PIN."""
    json_body()
    require_turn()
    return jsonify(present(_panel(), _panel().table.hint()))


@api.post("/sim/square")
def sim_square() -> Response:
    """The simulated board: put a piece down on a square or lift it, as a hand would."""
    panel = _panel()
    simulator = panel.simulator
    if simulator is None:
        raise ApiError(N_("real sensors are attached: move the pieces on the table itself"), 404)
    body = json_body()
    where, occupied = body["square"], body["occupied"]
    simulator.set_square(where, occupied)
    panel.table.wait_for_occupied(where, occupied, 1.0)
    return jsonify(_view())


@api.post("/sim/clear")
def sim_clear() -> Response:
    """The simulated board: lift every piece, one at a time as hands would (on or off the
    game's board)."""
    panel = _panel()
    simulator = panel.simulator
    if simulator is None:
        raise ApiError(N_("real sensors are attached: take the pieces off the table itself"), 404)
    json_body()
    squares = panel.table.view()["table"]["occupied"]
    table = panel.table
    for where in squares:  # a sweeping hand: the next piece once the last is felt gone
        simulator.set_square(where, False)
        table.wait_for_felt(where, False, SIM_FELT_WAIT)
    for where in squares:  # each counts once it has been off its square for the settle time
        table.wait_for_occupied(where, False, 1.0 + len(squares) * SIM_FELT_WAIT)
    return jsonify(_view())


# --- finished games -----------------------------------------------------------------------------

PAGE_MOST = 100


def _reading() -> tuple[Shelf, Callable[[], None]]:
    """A place among the archive's readers for this client and an open shelf, or 503 (a few
    reads at once, one host not all of them: see ``streaming``). The caller gives the place
    back with the function returned (once the answer has ended)."""
    panel = _panel()
    shelf = panel.table.finished.shelf()
    if shelf is None:
        raise ApiError(N_("the table keeps no save file, so it has no finished games"), 404)
    host = request.remote_addr or "?"
    refused = panel.readers.acquire(host)
    if refused is not None:
        raise ApiError(N_("the table is busy sending finished games to other devices: try "
                          "again in a moment"), 503, retry_after=1)
    release = release_once(lambda: panel.readers.release(host))
    try:
        shelf.__enter__()
    except sqlite3.Error as e:
        release()
        raise ApiError(N_("the finished games cannot be read now ({detail})"), 503,
                       params={"detail": str(e)}) from None
    return shelf, release


def _streamed(chunks: Iterator[str], shelf: Shelf, release: Callable[[], None],
              mimetype: str = "application/json") -> Response:
    """An answer made while it is sent (``streaming.paced``); the shelf is closed and the
    reader's place given back when it ends, however it ends."""

    def closed() -> None:
        shelf.close()
        release()

    def made() -> Iterator[str]:
        try:
            yield from chunks
        except sqlite3.Error:  # the journal went bad in the middle: the answer ends short
            log.exception("a read of the finished games failed")
        finally:
            closed()

    response = Response(stream_with_context(paced(made(), request.environ)), mimetype=mimetype)
    response.call_on_close(closed)
    return response


def _read(read: Callable[[Shelf], T]) -> T:
    """``read`` of the finished games at once (not streamed), with a reader's place and the
    shelf ``_reading`` opened, both given back before the answer is sent; 503 when the journal
    cannot be read."""
    shelf, release = _reading()
    try:
        return read(shelf)
    except sqlite3.Error as e:
        raise ApiError(N_("the finished games cannot be read now ({detail})"), 503,
                       params={"detail": str(e)}) from None
    finally:
        shelf.close()
        release()


def _summary(game: Summary) -> dict[str, Any]:
    return {
        "id": game.id,
        "variant": game.variant,
        "finished": game.finished,
        "name": catalog.variant_name(str(game.variant)),
        "players": game.players,
        "names": catalog.seat_names(str(game.variant), int(game.players or 0),
                                    game.names if isinstance(game.names, list) else None),
        "scores": game.scores,
        "winners": game.winners,
        "end_reason": game.end_reason,
        "imported": game.imported,
        "unfinished": game.unfinished,
    }


@api.get("/games")
def finished_games() -> Response:
    """Finished games, newest first, without their records (download those one by one); a
    game replaced by a new one before its end is among them, marked ``unfinished``.

    Without ``limit``: every one, as a JSON list (streamed). With ``limit`` (1 to 100): one
    page, ``{"games": [...], "next": id or null, "total": n}``; the next page is asked with
    ``after=<next>``. Read beside the game, never under the table's lock."""
    wanted = query()
    after = int(wanted["after"]) if "after" in wanted else None
    if "limit" not in wanted:
        if after is not None:
            raise ApiError(N_("after needs limit: ask for pages with ?limit=20&after=<next>"))
        shelf, release = _reading()
        return _streamed(_every_summary(shelf), shelf, release)
    limit = int(wanted["limit"])
    if not 1 <= limit <= PAGE_MOST:
        raise ApiError(N_("limit must be a whole number from 1 to {most}, got {limit}"),
                       params={"most": PAGE_MOST, "limit": limit})
    (games, following), total = _read(lambda shelf: (shelf.page(after, limit), shelf.count()))
    return jsonify({"games": [_summary(g) for g in games], "next": following, "total": total})


def _every_summary(shelf: Shelf) -> Iterator[str]:
    """The old answer of ``GET /api/games``, a page at a time: ``[{...}, {...}]``."""
    yield "["
    after, first = None, True
    while True:
        games, after = shelf.page(after, PAGE_MOST)
        for game in games:
            yield ("" if first else ",") + json.dumps(_summary(game))
            first = False
        if after is None:
            break
    yield "]"


@api.get("/games/<int:game_id>/record")
def finished_record(game_id: int) -> Response:
    game = _read(lambda shelf: shelf.game(game_id))
    if game is None:
        raise ApiError(N_("there is no finished game {game_id}"), 404,
                       params={"game_id": game_id})
    response = Response(_pieces(game.record), mimetype="application/json")
    if _download_wanted():
        _attachment(response, f"{game.variant or 'game'}-{game_id}.json")
    return response


def _pieces(text: str, size: int = 64 * 1024) -> Iterator[str]:
    for start in range(0, len(text), size):
        yield text[start:start + size]


@api.get("/games/export")
def export_games() -> Response:
    """Every finished game in one file (docs/records.md, "Finished games file"), named with
    today's date; ``?download=0`` shows it instead of saving it. Streamed from one snapshot of
    the journal, a few games in memory at a time. Unfinished games (replaced before their end)
    stay on this table: another table takes only finished ones."""
    from datetime import date

    shelf, release = _reading()
    chunks = export_chunks(shelf.every(finished_only=True), now_iso(),
                           current_version().to_json())
    response = _streamed(chunks, shelf, release)
    if query().get("download") not in ("0", "false"):
        _attachment(response, f"sudoku-table-games-{date.today().isoformat()}.json")
    return response


@api.post("/games/import")
def import_games() -> Response:
    """Take in a file of finished games: every record is replayed, new games are added,
    games already on the table skipped, bad ones rejected with the reason. A file that is not
    such an export, or that is too large, changes nothing. With a PIN set, only with the PIN
    (the ``X-Table-Pin`` header: the body is the file as it was exported); under the panel's
    server the PIN and the size are checked from the headers, before any of the body is read
    (``server``). The body is read as a stream (``archive.read_export``), never whole."""
    largest = int(current_app.config["IMPORT_MAX_BYTES"])
    size = request.content_length
    if size is not None and size > largest:
        raise ApiError(N_("the file is too large: {size} MB; the table takes files of up to "
                          "{most} MB"), 413,
                       params={"size": _megabytes(size), "most": _megabytes(largest)})
    require_pin()
    request.max_content_length = largest  # Flask's own limit is the 16 KiB of other bodies
    body = _Body(request.stream, largest)
    try:
        plan = _panel().table.finished.import_file(
            body, int(current_app.config["IMPORT_MAX_GROWTH"]),
            separate=size is None or size > SEPARATE_BYTES)
    except _TooLarge:
        raise ApiError(N_("the file is too large: {size} MB; the table takes files of up to "
                          "{most} MB"), 413, params={"size": _megabytes(body.count),
                                                     "most": _megabytes(largest)}) from None
    except ArchiveBusy as e:
        raise ApiError(said(e), 503, retry_after=5) from None
    except NotJson as e:
        raise ApiError(said(e)) from None
    except ArchiveError as e:
        raise ApiError(N_("{reason}. Nothing was changed."), 422,
                       params={"reason": said(e)}) from None
    except JournalError as e:
        raise ApiError(N_("the games could not be saved ({detail}). Nothing was changed."),
                       503, params={"detail": str(e)}) from None
    return jsonify({
        "added": plan.count("added"),
        "skipped": plan.count("skipped"),
        "rejected": plan.count("rejected"),
        "games": [_outcome(o) for o in plan.outcomes],
    })


SEPARATE_BYTES = 64 * 1024
"""A file larger than this (some twenty games) is replayed in a worker process of its own
(``archive.checking``); a smaller one takes less time than starting it."""


class _TooLarge(Exception):
    """The body of an import went past its cap while it was read."""


class _Body:
    """The request body for the streaming parser: a read of nothing answers nothing (werkzeug
    takes it for a client that went away), and reading past ``most`` bytes stops the import
    (a body sent in chunks has no length to check first)."""

    def __init__(self, stream: Any, most: int) -> None:
        self._stream = stream
        self._most = most
        self.count = 0

    def read(self, size: int | None = -1) -> bytes:
        if size == 0:
            return b""
        wanted = self._most + 1 - self.count if size is None or size < 0 else size
        data = self._stream.read(max(1, wanted))
        self.count += len(data)
        if self.count > self._most:
            raise _TooLarge()
        return bytes(data)


def _megabytes(size: int) -> str:
    return i18n.megabytes(size, i18n.current())


def _outcome(outcome: Outcome) -> dict[str, Any]:
    reason = None
    if outcome.reason is not None:
        params = {k: said(v) if isinstance(v, Exception) or hasattr(v, "template") else v
                  for k, v in outcome.reason.params.items()}
        reason = i18n.translate(outcome.reason.template, **params)
    known = outcome.variant in catalog.known_variant_ids()
    return {"index": outcome.index, "variant": outcome.variant,
            "name": catalog.variant_name(outcome.variant) if known and outcome.variant
            else None,
            "finished": outcome.finished, "result": outcome.result, "reason": reason}


def _download(data: Any, filename: str) -> Response:
    return _attachment(Response(json.dumps(data, indent=2), mimetype="application/json"),
                       filename)


def _attachment(response: Response, filename: str) -> Response:
    safe = "".join(ch for ch in filename if ch.isalnum() or ch in "-_.") or "record.json"
    response.headers["Content-Disposition"] = f'attachment; filename="{safe}"'
    return response


# --- the table itself ---------------------------------------------------------------------------

@api.get("/table")
def table_info() -> Response:
    panel = _panel()
    view = panel.table.view()
    table = view.get("table") or {}
    return jsonify({
        "simulated": panel.simulator is not None,
        "pin": panel.pin.enabled,
        "brightness": settings.brightness(panel),
        "sound": _sound_info(panel),
        "power": _power_status(),
        "occupied": table.get("occupied", []),
        "faults": view.get("faults", table.get("faults", [])),
    })


def _sound_info(panel: PanelState) -> dict[str, Any]:
    hardware = panel.hardware
    buzzer = getattr(hardware, "buzzer", None)
    return {"available": buzzer is not None,
            "on": settings.table_sound(panel.settings_path),
            "problem": getattr(hardware, "buzzer_error", None) if buzzer is None else None}


def setting_body() -> dict[str, Any]:
    """The JSON body of a change to the table's settings, of the shape its operation documents
    and with the PIN where one is set (``ApiError`` otherwise, and nothing changes)."""
    body = json_body()
    require_pin(body)
    return body


@api.post("/table/sound")
def table_sound() -> Response:
    on = setting_body()["on"]
    panel = _panel()
    settings.save_table_sound(panel.settings_path, on)
    buzzer = getattr(panel.hardware, "buzzer", None)
    if on and buzzer is not None:
        buzzer.play("turn")  # a sign of life, as the phone gives when its sound is switched on
    return jsonify({"sound": _sound_info(panel)})


@api.post("/table/led-test")
def led_test() -> Response:
    setting_body()
    _panel().table.leds.test(step=LED_TEST_STEP)
    # The order and pace of the test, so that the panel can show the same on its drawing.
    return jsonify({"ok": True, "squares": list(SQUARES), "step": LED_TEST_STEP})


LED_TEST_STEP = 0.04
"""Seconds each square is lit in the LED test."""


@api.post("/table/brightness")
def brightness() -> Response:
    level = setting_body()["level"]
    panel = _panel()
    before = settings.brightness(panel)
    try:
        panel.table.leds.set_brightness(float(level))
    except (ValueError, RulesError) as e:
        raise ApiError(str(e)) from None
    try:
        settings.save_brightness(panel, float(level))
    except settings.NotSaved:
        if before is not None:  # not kept, so not shown either: the LEDs go back
            panel.table.leds.set_brightness(before)
        raise
    return jsonify({"brightness": float(level)})


# --- version and power --------------------------------------------------------------------------

@api.get("/version")
def version() -> Response:
    """The program's version (and its git commit when it runs from a git checkout)."""
    return jsonify(current_version().to_json())


POWER_REASONS: dict[str, str] = {
    power_control.OFF: N_("Shutting down from the panel is switched off in the table's "
                          "settings file."),
    power_control.NOT_PI: N_("This computer is not a Raspberry Pi: the panel never switches "
                             "it off."),
    power_control.SIMULATED: N_("This is the simulated table: the panel never switches this "
                                "computer off."),
    power_control.DENIED: N_("The system does not let the table switch itself off: run the "
                             "installer again."),
    power_control.NO_BUS: N_("The system's power service does not answer."),
}
"""Why the power control is unavailable, for each reason code of ``sudoku_table.power``."""


def _power_status() -> dict[str, Any]:
    status = _panel().power.status()
    return {
        "available": status.available,
        "actions": list(power_control.ACTIONS) if status.available else [],
        "reason": status.reason,
        "message": i18n.translate(POWER_REASONS[status.reason]) if status.reason else None,
    }


@api.get("/table/power")
def power_status() -> Response:
    """Whether the panel can shut the table down and restart it, and if not, why."""
    return jsonify(_power_status())


@api.post("/table/power")
def power() -> Response:
    """Shut the table down (``poweroff``) or restart it (``reboot``): with the PIN when one is
    set, and only when confirmed (``"confirm": true``; without it the answer is 409)."""
    body = json_body()
    action, confirm = body["action"], body.get("confirm", False)
    require_pin(body)
    status = _power_status()
    if not status["available"]:
        raise ApiError(status["message"], 503, reason=status["reason"])
    if not confirm:
        question = (N_("Shut the table down?") if action == "poweroff"
                    else N_("Restart the table?"))
        raise ApiError(question, 409, code=f"confirm_{action}", confirm=action)
    try:
        _panel().power.run(action)
    except power_control.PowerError as e:
        raise ApiError(N_("the table could not switch itself off: {detail}"), 503,
                       params={"detail": str(e)}) from None
    return jsonify({"action": action, "started": True})
