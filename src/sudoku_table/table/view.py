"""The table's view, typed: what the panel is sent, every kind of prompt, and messages as data.

The view (``Table.view()``, ``GET /api/state`` and every live view event) is a ``View``. What
the table waits for from the panel is a ``Prompt``: a tagged union whose ``kind`` says which of
the shapes below it has. Messages are a code with its parameters (``Message``): the panel can
say them in any language and name the player; ``render`` gives the English wording, which the
view also carries as ``table.message`` for tools that just print it. docs/api.md lists every
prompt kind and message code.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Literal, TypedDict

from sudoku_table.rules.actions import Action, Blank, Discard, Joker, Move, Place
from sudoku_table.rules.wording import N_

# --- messages -----------------------------------------------------------------------------------


class Message(TypedDict):
    """One message line: a code of ``MESSAGES`` and its parameters."""

    code: str
    params: dict[str, Any]


MESSAGES: Mapping[str, str] = {
    "action": N_("{action}"),
    "taken_back": N_("{action}: taken back"),
    "taken_back_on_board": N_("{action}: taken back on the board"),
    "remote_declined": N_("the host table did not count this table's last action: "
                          "{reason}"),
    "remote_rejoined": N_("the game goes on with {table} as its host"),
    "remote_taken_over": N_("this table hosts the game now ({table} is gone): give the other "
                            "tables their new join codes"),
    "remote_closed": N_("{table} left the game to start another: this table keeps it as it "
                        "stands"),
    "remote_failed": N_("the game with the other table stopped following: {detail}"),
    "remote_followed": N_("this table follows the shared game again, as {table} hosts it: "
                          "put the board right as the bar says"),
    "colour_changed": N_("{action}: colour changed"),
    "redone": N_("{action}: put back"),
    "new_game": N_("{game}: new game"),
    "set_up_board": N_("{game}: set up the board"),
    "new_game_draws": N_("{game}: new game. Lay the computer's cards face up beside the board: "
                         "the table draws one for it on each of its turns"),
    "set_up_board_draws": N_("{game}: set up the board, and lay the computer's cards face up "
                             "beside it: the table draws one for it on each of its turns"),
    "new_game_deal": N_("{game}: new game. The table deals: lay all {pieces} open beside the "
                        "board, sorted by number; on your turn take the one your phone shows"),
    "set_up_board_deal": N_("{game}: set up the board, and lay all {pieces} open beside it, "
                            "sorted by number: the table deals, your phone shows your own"),
    "swap_card": N_("the table dealt the {number}: put the {number} on {square} instead of the "
                    "{piece} lying there"),
    "clear_board": N_("{game}: first take the {pieces} left on the board away"),
    "resumed": N_("{game} resumed: put right any blinking squares"),
    "resumed_check_faces": N_("{game} resumed: put right any blinking squares, and check that "
                              "{squares} show the colour the panel draws (the last move or a "
                              "take-back turned them, and the table cannot see faces)"),
    "over_before_stop": N_("{game} was over before the table stopped"),
    "over_check_faces": N_("{game} was over before the table stopped: check that {squares} "
                           "show the colour the panel draws (they were turned by the last move, "
                           "and the table cannot see faces)"),
    "board_set": N_("the board is set: the game can start"),
    "board_clear": N_("the board is clear"),
    "cancelled_piece": N_("the new {piece} on {square} is cancelled: take it away"),
    "cancelled_number": N_("the {number} chosen in advance is cancelled"),
    "all_turned": N_("all turned over"),
    "turn_first": N_("turn over the blinking amber pieces first"),
    "one_at_a_time": N_("one new {piece} at a time: {square} is waiting"),
    "cannot_move": N_("the piece on {square} cannot move now"),
    "dead_field": N_("{square} is a dead field: no number fits there"),
    "no_number_here": N_("no number may go on {square} now"),
    "no_number_here_because": N_("no number may go on {square} now: {reason}"),
    "number_illegal": N_("{number} on {square}: {reason}"),
    "blank_illegal": N_("a blank on {square}: {reason}"),
    "put_back": N_("put back: no move"),
    "not_a_move": N_("{start} to {square} is not a legal move"),
    "number_illegal_move": N_("{start} to {square}: {reason}"),
    "jump_on": N_("{square}: go on jumping"),
    "illegal": N_("{reason}"),
    "cancelled_hand": N_("the computer's {number} is cancelled: tell its number again"),
    "hand_told": N_("the computer holds a {number}"),
    "not_computers_move": N_("{square}: {reason}"),
    "computer_failed": N_("the computer could not choose a move ({detail}): play it for the "
                          "computer by hand"),
    # Notices: what the table tells about itself, its save file (the journal) and its hardware.
    # A player reads them: they speak of the save file, never of the journal.
    "journal_fresh_failed": N_("cannot start a new save file at {file}: {detail}; this game is "
                            "not saved"),
    "journal_open_failed": N_("cannot open the save file {file}: {detail}; it is kept as it is, "
                              "and nothing is saved until it opens"),
    "journal_unmovable": N_("the save file {file} is unreadable ({detail}) and could not be moved "
                         "aside: {error}"),
    "journal_set_aside": N_("the save file {file} was unreadable ({detail}); it was kept as "
                         "{kept} and a new save file started"),
    "journal_restart_failed": N_("cannot start a new save file: {detail}; this game is not saved"),
    "journal_not_copied": N_("the save file could not be copied before its check: {detail}"),
    "journal_kept_main_and_wal": N_("the save file as found at start (both of its parts) was kept "
                                 "as {kept}"),
    "journal_kept_wal": N_("the save file's latest writes as found at start were kept as {kept}"),
    "journal_not_kept": N_("the save file as found at start could not be kept: {detail}"),
    "mark_unwritable": N_("the save file's mark {file} cannot be written ({detail}); lost actions "
                       "could go unnoticed"),
    "mark_missing": N_("the save file's mark {file} was missing: whether actions were lost after "
                    "a power cut or damage before this start cannot be told"),
    "mark_damaged": N_("the save file's mark {file} was damaged: whether actions were lost after "
                    "a power cut or damage before this start cannot be told"),
    "mark_unreadable": N_("the save file's mark {file} was unreadable ({detail}): whether actions "
                       "were lost after a power cut or damage before this start cannot be told"),
    "lost_game": N_("the save file lost game {game} with its {actions} after a power cut or "
                 "damage"),
    "lost_games": N_("the save file lost game {game} with its {actions} after a power cut or "
                  "damage; {games} games are missing in all"),
    "lost_actions": N_("the save file lost {actions} of game {game} after a power cut or damage; "
                    "the game resumes from action {resume}"),
    "lost_actions_damaged": N_("the save file lost {actions} of game {game} after a power cut or "
                            "damage"),
    "entries_differ": N_("the entries of game {game} differ from the save file's mark at action "
                      "{seq}: they were damaged or replaced"),
    "lost_finished": N_("the save file lost {games} after a power cut or damage"),
    "start_damaged": N_("game {game}: its start data are damaged; it is kept in the save file"),
    "entries_damaged": N_("game {game}: {entries} damaged from entry {first}; they are kept in "
                       "the save file"),
    "record_bad_checksum": N_("the record of finished game {game} is damaged (its checksum does "
                           "not match); it is kept in the save file and left out of the "
                           "finished games"),
    "record_not_json": N_("the record of finished game {game} is damaged (it is not valid JSON); "
                       "it is kept in the save file and left out of the finished games"),
    "not_saved": N_("{detail}: the table cannot save, so nothing counts until it can"),
    "finish_not_kept": N_("{detail}; the finished game is kept as soon as the table can save"),
    "saves_again": N_("the table saves again"),
    "journal_cannot_open": N_("cannot open the save file {file} now ({detail}); it is kept as "
                              "it is and opened as soon as it can be"),
    "held": N_("{action} waits: the table cannot save it yet, and it counts as soon as it can"),
    "held_undo": N_("taking back {action} waits: the table cannot save it yet"),
    "held_cancelled": N_("{action} was never saved and is given up: put the board right"),
    "held_cancelled_undo": N_("taking back {action} was never saved and is given up: put the "
                              "board right"),
    "held_cancelled_on_board": N_("{action} was never saved: given up, as the board is back "
                                  "as before"),
    "held_cancelled_on_board_undo": N_("taking back {action} was never saved: given up, as "
                                       "the board is back as before"),
    "journal_error": N_("{detail}"),
    "not_replayed": N_("game {game} ({variant}) could not be replayed: {detail}; it is kept in "
                    "the save file, set aside"),
    "resumed_set_aside": N_("Game {game} ({name}) resumed with {actions}; {entries} set aside in "
                         "{file}"),
    "resumed_set_aside_because": N_("Game {game} ({name}) resumed with {actions}; {entries} set "
                                 "aside in {file} ({detail})"),
    "resumed_kept": N_("Game {game} ({name}) resumed with {actions}; {entries} set aside in the "
                    "save file"),
    "resumed_kept_because": N_("Game {game} ({name}) resumed with {actions}; {entries} set aside "
                            "in the save file ({detail})"),
    "leds_failed": N_("the LEDs could not be updated: {detail}"),
    "unknown_square": N_("a sensor reported an unknown square {square}; ignored"),
    "internal_error": N_("an internal error happened; the game is unchanged, see the log"),
    "finished_unreadable": N_("the finished games could not be read: {detail}"),
    "import_cut_off": N_("loading a file of finished games was cut off when the table stopped; "
                      "its {games} were taken out again: load the file once more"),
}
"""Every message code with its English wording. ``reason`` parameters carry the rules' own
explanation (English for now); ``action`` parameters carry the action in the record format
(docs/records.md) and are worded by ``describe``."""


ANNOUNCEMENTS = frozenset({"action", "taken_back", "taken_back_on_board", "colour_changed",
                           "redone", "new_game", "set_up_board", "new_game_draws",
                           "new_game_deal", "set_up_board_deal",
                           "set_up_board_draws", "resumed", "resumed_check_faces",
                           "over_check_faces",
                           "over_before_stop", "board_set", "board_clear", "remote_followed"})
"""Messages that tell what happened to the game: they stay while the game stands as they tell
(into the next player's turn); every other message belongs to the player it was said to."""


def message(code: str, **params: Any) -> Message:
    """A message; ``KeyError`` for a code that is not in ``MESSAGES`` (a bug, caught by tests)."""
    if code not in MESSAGES:
        raise KeyError(f"unknown message code {code!r}")
    return {"code": code, "params": params}


def describe(action: Action) -> str:
    """A short English phrase for an action."""
    if isinstance(action, Place):
        return f"{action.number} on {action.cell}"
    if isinstance(action, Blank):
        return f"a blank on {action.cell}"
    if isinstance(action, Move):
        if action.bears_off:
            return f"{action.path[0]} borne off"
        return " to ".join(action.path)
    if isinstance(action, Discard):
        return f"{action.number} set aside"
    if isinstance(action, Joker):
        return f"a joker on {action.cell}"
    return "end of turn"


def counted(n: int, word: str) -> str:
    """``1 action``, ``2 actions``, ``2 damaged entries``."""
    if n == 1:
        return f"{n} {word}"
    return f"{n} {word[:-1]}ies" if word.endswith("y") else f"{n} {word}s"


def count(n: int, noun: str) -> dict[str, Any]:
    """A parameter that counts something: ``{"count": 3, "noun": "action"}`` (each language
    words the noun and its plural; English by ``counted``)."""
    return {"count": n, "noun": noun}


def _english(value: Any) -> Any:
    if isinstance(value, dict) and set(value) == {"count", "noun"}:
        return counted(value["count"], value["noun"])
    return value


def render(msg: Message | None) -> str | None:
    """The English wording of a message."""
    if msg is None:
        return None
    params = {k: _english(v) for k, v in msg["params"].items()}
    if "action" in params:
        from sudoku_table.rules.actions import action_from_json

        params["action"] = describe(action_from_json(params["action"]))
    return MESSAGES[msg["code"]].format(**params)


# --- the next step -------------------------------------------------------------------------------


class Next(TypedDict):
    """The next physical act at the table: a code of ``NEXT_STEPS``, its parameters, and the
    seat who is to do it (None when anyone may: clearing or setting up the board)."""

    code: str
    params: dict[str, Any]
    actor: int | None


NEXT_STEPS: Mapping[str, str] = {
    "clear_board": N_("take away the {pieces} left on the board"),
    "set_up": N_("put the start piece {number} on {square} ({left} to go)"),
    "set_up_number": N_("the {number}s: put a piece on each of the {count} lit squares ({left} "
                        "to go in all)"),
    "game_over": N_("the game is over: {reason}"),
    "turn_over": N_("turn over {squares}"),
    "say_number": N_("tap the number of the new piece on {square}"),
    "take_away": N_("no number may go on {square}: take the piece away"),
    "take_away_number": N_("the {number} may not go on {square}: take it away"),
    "take_away_card": N_("the {piece} the table dealt may not go on {square}: take it away"),
    "say_joker": N_("no number may go on {square}: a stone that fits nowhere is a joker there "
                    "(tap Joker and its number), any other stone is taken away"),
    "lay_joker": N_("lay the {number} face down as a joker"),
    "set_aside": N_("the {number} fits nowhere: set it aside"),
    "lift_again": N_("that is no move: lift the piece from {square} again"),
    "bear_off": N_("bear the piece off from {square}, or set it down"),
    "set_down": N_("set the piece from {square} down where it may go"),
    "jump_on": N_("jump on from {square}, or leave it there"),
    "put_right": N_("put the board right: the blinking squares"),
    "place_number": N_("put your {number} on the board"),
    "blanks_or_end": N_("lay blanks on dead fields, or end your turn"),
    "undo_on_board": N_("the action is taken back: put the board as it was before it (take "
                        "away {take_away}, put back {put_back}, turn {turn} back over)"),
    "redo_on_board": N_("the action is put back: put the board as it was after it (put back "
                        "{put_back}, take away {take_away}, turn {turn} over)"),
    "move": N_("move one of your pieces"),
    "place": N_("put a piece down, then tap its number"),
    "place_own": N_("put your {piece} down: your phone knows its number"),
    "place_dealt": N_("take the {piece} the table dealt you (your phone shows it) from the "
                      "open ones and put it down"),
    "computer_thinking": N_("the computer is choosing its move"),
    "computer_hand": N_("turn over the computer's {piece} and tap its number"),
    "computer_place": N_("put the computer's {number} on {square}"),
    "computer_blank": N_("put a blank on {square} for the computer"),
    "computer_blank_of": N_("put a blank of player {player}'s colour on {square} for the "
                            "computer"),
    "computer_joker": N_("lay the computer's {number} face down on {square} as a joker"),
    "computer_set_aside": N_("set the computer's {number} aside"),
    "computer_draw_place": N_("take the computer's {number} and put it on {square}"),
    "computer_draw_set_aside": N_("take the computer's {number} and set it aside"),
    "computer_move": N_("lift {start} and set it down on {square}"),
    "computer_jump": N_("lift {start} and jump to {square} via {via}"),
    "computer_bear_off": N_("lift {start} and bear it off"),
    "computer_end_turn": N_("the computer ends its turn"),
    "computer_take_away": N_("that is not the computer's move: take the piece on {square} away"),
    "computer_put_back": N_("that is not the computer's move: put the piece back on {square}"),
    "remote_waiting": N_("waiting for the move from {table}"),
    "remote_place": N_("{table} played: put the {number} on {square}"),
    "remote_blank": N_("{table} played: put a blank on {square}"),
    "remote_blank_of": N_("{table} played: put a blank of player {player}'s colour on "
                          "{square}"),
    "remote_joker": N_("{table} played: lay the {number} face down on {square} as a joker"),
    "remote_set_aside": N_("{table} played: set the {number} aside"),
    "remote_move": N_("{table} played: lift {start} and set it down on {square}"),
    "remote_jump": N_("{table} played: lift {start} and jump to {square} via {via}"),
    "remote_bear_off": N_("{table} played: lift {start} and bear it off"),
    "remote_end_turn": N_("{table} ends the turn"),
    "remote_take_away": N_("that is not the move from {table}: take the piece on {square} "
                           "away"),
    "remote_put_back": N_("that is not the move from {table}: put the piece back on "
                          "{square}"),
    "cannot_save": N_("the table cannot save: nothing counts until it can"),
}
"""Every next step with its English wording (the panel names the player who acts)."""


def step(code: str, actor: int | None, **params: Any) -> Next:
    """A next step; ``KeyError`` for a code that is not in ``NEXT_STEPS`` (a bug)."""
    if code not in NEXT_STEPS:
        raise KeyError(f"unknown next step {code!r}")
    return {"code": code, "params": params, "actor": actor}


def render_next(nxt: Next) -> str:
    """The English wording of a next step."""
    from sudoku_table.rules.game import END_REASONS

    params = {k: _english(v) for k, v in nxt["params"].items()}
    for key in ("squares", "via", "take_away", "put_back", "turn"):
        if isinstance(params.get(key), list):
            params[key] = ", ".join(params[key]) or "-"
    piece = params.get("piece")
    if isinstance(piece, dict):
        params["number"] = "blank" if piece.get("blank") else piece.get("number")
    if "reason" in params:
        params["reason"] = END_REASONS.get(str(params["reason"]), str(params["reason"]))
    return NEXT_STEPS[nxt["code"]].format(**params)


# --- prompts ------------------------------------------------------------------------------------


class SetupPrompt(TypedDict):
    """Put the next start piece down: ``piece`` (owner, number) on ``square``, ``left`` to go;
    ``squares`` are the start squares lit now (by number: every square of ``piece``'s
    number still to be set)."""

    kind: Literal["setup"]
    square: str
    piece: dict[str, Any]
    left: int
    squares: list[str]


class NumberPrompt(TypedDict):
    """Which number is on the new piece on ``square``; ``choices`` are the legal ones."""

    kind: Literal["number"]
    square: str
    choices: list[int]


class _JokerPromptBase(TypedDict):
    kind: Literal["joker"]
    number: int


class JokerPrompt(_JokerPromptBase, total=False):
    """The stone ``number`` fits nowhere: lay it face down as a joker (on ``square``, when
    it is already down)."""

    square: str


class _DiscardPromptBase(TypedDict):
    kind: Literal["discard"]
    number: int


class DiscardPrompt(_DiscardPromptBase, total=False):
    """The card ``number`` fits nowhere: set it aside (lifting it from ``square``, when down)."""

    square: str


class BearOffPrompt(TypedDict):
    """The lifted piece may leave the board from ``square`` along ``path``."""

    kind: Literal["bear_off"]
    square: str
    path: list[str]


class BlankPrompt(TypedDict):
    """The blank on ``square`` may be of any player in ``choices``; it is ``owner``'s now."""

    kind: Literal["blank"]
    square: str
    choices: list[int]
    owner: int | None


class HandPrompt(TypedDict):
    """Tell the number of the computer's card or stone (one of ``choices``)."""

    kind: Literal["hand"]
    choices: list[int]


class PlacePrompt(TypedDict):
    """The number ``number`` is chosen: put its piece down."""

    kind: Literal["place"]
    number: int


class EndTurnPrompt(TypedDict):
    """Blanks may still go on the dead fields in ``choices``, or the turn ends."""

    kind: Literal["end_turn"]
    choices: list[str]


Prompt = (SetupPrompt | NumberPrompt | JokerPrompt | DiscardPrompt | BearOffPrompt | BlankPrompt
          | PlacePrompt | EndTurnPrompt | HandPrompt)
"""What the table waits for from the panel; ``kind`` tells the shapes apart."""

PROMPT_KINDS = ("setup", "number", "joker", "discard", "bear_off", "blank", "place", "end_turn",
                "hand")

Pad = TypedDict("Pad", {"numbers": list[int], "for": str})
"""The numbers the panel's pad offers now, ``for`` the new piece's prompt (``number``), the
computer's card (``hand``), or a number chosen before its piece goes down (``in_hand``)."""


class BlankChoice(TypedDict):
    """The blank on ``square`` counts as ``owner``'s colour; ``player``, who set it, may say it
    shows another of ``choices`` (until the next action)."""

    square: str
    choices: list[int]
    owner: int | None
    player: int


# --- the view -----------------------------------------------------------------------------------


Guidance = TypedDict("Guidance", {"from": str, "to": str})
"""Move the extra piece on ``from`` to the missing square ``to``."""


class TableView(TypedDict, total=False):
    """What the table shows and asks (docs/api.md); the game's fields only while one runs."""

    occupied: list[str]
    felt: list[str]
    signals: dict[str, str]
    prompt: Prompt | None
    message: str | None
    message_code: Message | None
    guidance: list[Guidance]
    faults: list[dict[str, Any]]
    notices: list[str]
    notice_codes: list[Message]
    hints: bool
    in_hand: int | None
    version: int
    legend: dict[str, Any]
    player_colors: list[str]
    recovery: dict[str, Any] | None
    variant_name: str
    names: list[str]
    colors: list[str]
    setting_up: bool
    clearing: bool
    can_undo: bool
    discard_choices: list[int]
    joker_choices: list[int]
    next: Next
    next_text: str
    unturned: dict[str, int | None]
    moves: list[dict[str, Any]]
    computers: dict[str, str]
    computer_draws: bool
    deal: bool
    plan: dict[str, Any] | None
    hint: dict[str, Any] | None
    saving: dict[str, Any]
    pad: Pad | None
    blank_choice: BlankChoice | None
    where_offered: bool
    can_redo: bool
    replay: dict[str, Any] | None
    say: dict[str, Any]
    network: dict[str, Any]
    seats: list[dict[str, Any]]
    join: dict[str, Any]
    holder: dict[str, Any]
    """The fields only the phone of the mover whose card is hidden may see (``showing``'s
    ``holder_part``); the panel takes it out of every view it sends."""


class View(TypedDict):
    """The whole view: the state document of docs/records.md (None before a game), what the
    table shows and asks, and the version that grows with every change."""

    game: dict[str, Any] | None
    table: TableView
    version: int
    boot: str
