"""What the table says aloud: announcements made from one moment of the game to the next.

After every change the table hands ``Announcer.observe`` the moment it shows (``Moment``: the
message, the next step, the LED words, the end); ``announce`` compares it with the moment before
and names what is new, as ``Part``s of one kind each: a game begun or resumed, the action just
accepted with its points, completed areas and areas decided early (Duell der Meister), a piece
to take away and why, flips to make, the computer's move to carry out, whose turn it is, the end
with the winner. Nothing already said is
said again: a turn is announced once per change of the player, flips once per action, and a
board put right in between changes nothing.

Parts are codes with parameters, like the view's messages: ``words`` says them in a language
(``Voice``), English by default; the panel says them in each phone's language and the table's
speaker in its own (``sudoku_table.speech``). Each announcement gets an id of its own, so that a
phone and the speaker tell a new announcement from one already heard.
"""

from __future__ import annotations

import itertools
import secrets
import threading
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from sudoku_table.rules.actions import OFF
from sudoku_table.rules.game import END_REASONS
from sudoku_table.rules.wording import N_
from sudoku_table.speech.announcement import Announcement, Part, Seats

from .view import MESSAGES, NEXT_STEPS, BlankChoice, Message, Next

if TYPE_CHECKING:
    from .companion import Companion
    from .present import Look

KINDS = ("game", "action", "pass", "take_away", "step", "flips", "computer", "turn", "end")
"""The kinds of part, in the order one announcement says them. A speaker that falls behind
drops a part not yet spoken when a newer part of the same kind arrives."""

GAME_MESSAGES = ("new_game", "new_game_draws", "set_up_board", "set_up_board_draws",
                 "clear_board", "board_set", "resumed")
"""The table's messages that are said aloud as they appear (kind ``game``)."""

ILLEGAL_MESSAGES = ("number_illegal", "blank_illegal", "no_number_here_because",
                    "number_illegal_move", "not_computers_move", "illegal")
"""Messages that carry why a piece is illegal (``why``: the rules' reason as a template)."""

COMPUTER_SILENT = ("computer_thinking", "remote_waiting")
"""Computer steps not said: the computer's move follows within a second (another table's
player is told by that table; the bar here says whom the table waits for)."""

ATTENTION_STEPS = ("take_away", "take_away_number", "take_away_card", "lay_joker", "say_joker",
                   "set_aside", "lift_again", "bear_off", "put_right", "computer_take_away",
                   "computer_put_back", "remote_take_away", "remote_put_back", "undo_on_board",
                   "redo_on_board")
"""Next steps said as they come (kind ``step``): what is out of the ordinary. The ordinary ones
(put a piece down, tap its number, move) are what a turn means, said by the turn itself. The
colour of a blank is asked beside the next step (``table.blank_choice``): said to its setter as
it comes (``blank_question``)."""

PHRASES: Mapping[str, str] = {
    "action": N_("{player}: {action}"),
    "place": N_("{number} on {cell}"),
    "blank": N_("blank on {cell}"),
    "blank_of": N_("blank in {player}'s colour on {cell}"),
    "blank_question": N_("{player}: the blank on {square} counts as {owner}'s colour; if it "
                         "shows another colour, tap that one"),
    "joker": N_("joker on {cell}"),
    "discard": N_("{number} set aside"),
    "end_turn": N_("end of turn"),
    "move": N_("{start} to {square}"),
    "jump": N_("{start} to {square} via {via}"),
    "bear_off": N_("{cell} borne off"),
    "completed": N_("{areas} complete"),
    "claimed": N_("{areas} decided early"),
    "plus": N_("plus {points}"),
    "minus": N_("minus {points}"),
    "player_plus": N_("{player} plus {points}"),
    "player_minus": N_("{player} minus {points}"),
    "taken_back": N_("{action}: taken back"),
    "take_away": N_("take the piece on {square} away: {reason}"),
    "take_away_plain": N_("take the piece on {square} away"),
    "turn": N_("{player}'s turn"),
    "winner": N_("game over: {reason}. {player} wins"),
    "winners": N_("game over: {reason}. {players} share the win"),
    "draw": N_("game over: {reason}. A draw"),
    "speech_on": N_("speech at the table is on"),
    "passed": N_("{player} can play nothing and is passed over"),
    "passed_many": N_("{players} can play nothing and are passed over"),
}
"""Every spoken phrase of the announcements with its English wording (the catalog has the
German); the ``game``, ``flips`` and ``computer`` parts are said with the table's own messages
and next steps (``view.MESSAGES``, ``view.NEXT_STEPS``)."""


@dataclass(frozen=True)
class Moment:
    """What an announcement is made from: one moment of the game as the players see it."""

    game: object
    """The companion: a new one is a new game."""
    actions: int
    message: Message | None
    next: Next
    mover: int | None
    over: bool
    winners: tuple[int, ...]
    reason: str | None
    illegal: frozenset[str]
    computers: frozenset[int]
    blank_choice: BlankChoice | None = None
    passed: tuple[int, ...] = ()
    """The players passed over after the last action (they could play nothing)."""


BOARD_STEPS: Mapping[str, str] = {
    "redo_on_board": N_("Redone."),
    "moves": N_("Move the piece from {from} to {to}."),
    "take_away": N_("Take away {squares}."),
    "put_back": N_("Put back {squares}."),
    "turn_back": N_("Turn {squares} back over."),
    "turn": N_("Turn {squares} over."),
}
"""A take-back's or a redo's board in words, the what-now bar's own sentences: only what is to
be done, each in a sentence (an empty "put back" is not said). A take-back opens with no word
of its own: the action's part of the same announcement says what was taken back."""

BOARD_CODES = ("undo_on_board", "redo_on_board")
"""The next steps that say a take-back's or a redo's board (``BOARD_STEPS``)."""


def moment(c: Companion, look: Look) -> Moment:
    """The moment the table shows now (under its lock; cheap: everything is computed already)."""
    state = c.state
    return Moment(c, len(c.actions), c.message, look.next, state.to_move, state.over,
                  tuple(state.winners), c.game.end_reason(state) if state.over else None,
                  frozenset(s for s, word in look.signals.items() if word == "illegal"),
                  frozenset(c.computers), look.blank_choice,
                  tuple(getattr(state, "passed", ()) or ()))


def _key(step: Next) -> tuple[Any, ...]:
    """What makes a next step new: its code and parameters; for putting the board right the
    code alone (each piece lifted or put back changes which squares blink)."""
    return (step["code"],) if step["code"] == "put_right" else (step["code"], step["params"])


def _part(kind: str, code: str, seat: int | None = None, **params: Any) -> Part:
    return {"kind": kind, "code": code, "params": params, "seat": seat}


def announce(before: Moment | None, now: Moment, turn: int | None) -> tuple[list[Part], int | None]:
    """What is new from ``before`` to ``now``, in the order of ``KINDS``; ``turn`` is the seat
    whose turn was announced last (None: nobody's yet), and the second value the seat whose
    turn is announced after these parts."""
    if before is None or before.game is not now.game:
        before, turn = None, None
    parts: list[Part] = []
    message = now.message
    if message is not None and before is not None and message is before.message:
        message = None  # no news
    news = None if message is None else _news(message)
    if news is not None:
        parts.append(news)
        if news["code"] == "taken_back":
            turn = None  # whoever is to move again is told so
        elif news["code"] == "action" and now.passed:
            parts.append(_part("pass", "passed", None, players=list(now.passed)))
    appeared = now.illegal - (before.illegal if before is not None else frozenset())
    if appeared:
        parts.append(_take_away(min(appeared), message, now.mover))
    parts.extend(_steps(before, now, bool(appeared)))
    computer = _computer(before, now)
    if computer is not None:
        parts.append(computer)
        turn = now.next["actor"]
    if now.over:
        if before is None or not before.over:
            parts.append(_part("end", "end", winners=list(now.winners), reason=now.reason))
        return parts, None
    step = now.next
    person = (step["actor"] is not None and step["actor"] == now.mover
              and now.mover not in now.computers
              and step["code"] not in ("turn_over", "set_up", "set_up_number", "clear_board"))
    if person and now.mover != turn:
        parts.append(_part("turn", "turn", now.mover, player=now.mover))
        turn = now.mover
    return parts, turn


def _news(message: Message) -> Part | None:
    """A new message of the table that is said: a game's start or end, an action, a take-back."""
    code, params = message["code"], message["params"]
    if code in GAME_MESSAGES:
        return _part("game", code, **{k: v for k, v in params.items()
                                      if k in ("game", "pieces")})
    if code == "action":
        return _part("action", "action", None,
                     action=params.get("action"), player=params.get("player"),
                     points=list(params.get("points") or []),
                     completed=list(params.get("completed") or []),
                     claimed=list(params.get("claimed") or []))
    if code in ("taken_back", "taken_back_on_board"):
        return _part("action", "taken_back", action=params.get("action"))
    return None


def _take_away(square: str, message: Message | None, mover: int | None) -> Part:
    """An illegal piece to take away, with the rule it breaks when the new message says it."""
    why = message.get("params", {}).get("why") if (
        message is not None and message["code"] in ILLEGAL_MESSAGES) else None
    if isinstance(why, dict) and isinstance(why.get("text"), str):
        return _part("take_away", "take_away", mover, square=square, why=why)
    return _part("take_away", "take_away_plain", mover, square=square)


def _steps(before: Moment | None, now: Moment, appeared: bool) -> list[Part]:
    """A next step that needs attention, a blank's question and pieces to turn over, when new."""
    parts: list[Part] = []
    step = now.next
    was = before.next if before is not None else None
    if step["code"] in BOARD_CODES:  # a take-back's board: once per take-back or redo
        fresh = was is None or was["code"] != step["code"] or (
            before is not None and before.actions != now.actions)
    else:
        fresh = was is None or _key(was) != _key(step)
    if step["code"] in ATTENTION_STEPS and not appeared and fresh:
        parts.append(_part("step", step["code"], step["actor"], **step["params"]))
    question = now.blank_choice
    if question is not None and question["player"] not in now.computers and (
            before is None or before.blank_choice != question):
        parts.append(_part("step", "blank_question", question["player"],
                           square=question["square"], owner=question["owner"]))
    if step["code"] == "turn_over" and (was is None or was["code"] != "turn_over"
                                        or (before is not None
                                            and before.actions != now.actions)):
        parts.append(_part("flips", "turn_over", step["actor"],
                           squares=list(step["params"].get("squares") or [])))
    return parts


def _computer(before: Moment | None, now: Moment) -> Part | None:
    """The computer's new step (its move to carry out, its card to draw...), or the move of a
    seat at another table, when it is said. Addressed to whoever is at hand: neither has a
    hand here."""
    step = now.next
    was = before.next if before is not None else None
    if (step["code"].startswith(("computer_", "remote_")) and step["code"] not in COMPUTER_SILENT
            and step["code"] not in ATTENTION_STEPS
            and (was is None or (was["code"], was["params"]) != (step["code"], step["params"]))):
        return _part("computer", step["code"], None, **step["params"])
    return None


# --- saying it ---------------------------------------------------------------------------------


class Voice:
    """How one language says things; this one is English, word for word. The panel's catalog
    gives the others (``sudoku_table.web.speech``)."""

    language = "en"

    def text(self, english: str) -> str:
        """A phrase's wording (the English message id in, the language's template out)."""
        return english

    def area(self, name: str) -> str:
        """An area's name ("rank 4", "block b4") in this language."""
        return name

    def join(self, items: list[str]) -> str:
        """"a, b and c"."""
        if len(items) <= 1:
            return "".join(items)
        return f"{', '.join(items[:-1])} and {items[-1]}"


def seat_names(seats: Seats, say: Callable[[str], str]) -> list[str]:
    """Each seat's name as said: the name typed, else the seat's own (White, Player 2); a
    computer seat is "Computer (strong)"."""
    from .computer import COMPUTER_NAME, LEVEL_WORDS

    names = []
    for i in range(seats["players"]):
        level = seats["computers"].get(str(i))
        typed = seats["names"][i] if i < len(seats["names"]) else ""
        label = seats["labels"][i] if i < len(seats["labels"]) else ""
        if level is not None and level in LEVEL_WORDS:
            names.append(say(COMPUTER_NAME).format(level=say(LEVEL_WORDS[level])))
        else:
            names.append(typed or (say(label) if label else say(N_("Player {n}")).format(
                n=i + 1)))
    return names


def _action(voice: Voice, action: Mapping[str, Any] | None, names: list[str],
            mover: Any = None) -> str:
    if not isinstance(action, Mapping):
        return ""
    kind = action.get("type")
    say = voice.text
    owner = action.get("owner")
    if kind == "blank" and isinstance(owner, int) and owner != mover and 0 <= owner < len(names):
        # A blank in another player's colour (Revers, Score): whose colour is said.
        return say(PHRASES["blank_of"]).format(player=names[owner], cell=action.get("cell"))
    if kind in ("place", "blank", "joker", "discard", "end_turn"):
        return say(PHRASES[str(kind)]).format(number=action.get("number"),
                                              cell=action.get("cell"))
    if kind == "move":
        path = [str(p) for p in action.get("path") or []]
        if len(path) < 2:
            return ""
        if path[-1] == OFF:
            return say(PHRASES["bear_off"]).format(cell=path[0])
        if len(path) > 2:
            return say(PHRASES["jump"]).format(start=path[0], square=path[-1],
                                               via=voice.join(path[1:-1]))
        return say(PHRASES["move"]).format(start=path[0], square=path[-1])
    return ""


COUNTED: Mapping[str, tuple[str, str]] = {
    "piece": (N_("1 piece"), N_("{count} pieces")),
    "action": (N_("1 action"), N_("{count} actions")),
    "entry": (N_("1 entry"), N_("{count} entries")),
    "damaged entry": (N_("1 damaged entry"), N_("{count} damaged entries")),
    "finished game": (N_("1 finished game"), N_("{count} finished games")),
}
"""How a counted parameter (``view.count``) is said, one and many."""


def _count(voice: Voice, value: Mapping[str, Any]) -> str:
    one, many = COUNTED.get(str(value.get("noun")), ("1 {noun}", "{count} {noun}s"))
    n = value.get("count")
    return voice.text(one if n == 1 else many).format(count=n, noun=value.get("noun"))


def _params(params: Mapping[str, Any], voice: Voice, names: list[str]) -> dict[str, Any]:
    """The parameters of a message or a next step as said: counts and actions in words,
    lists of squares or areas as a list of the language, players by name, the rules' reason
    (``why``) in the language's words, other words from the catalog."""
    said: dict[str, Any] = {}
    for key, value in params.items():
        if isinstance(value, Mapping) and set(value) == {"count", "noun"}:
            said[key] = _count(voice, value)
        elif key == "action":
            said[key] = _action(voice, value, names, params.get("player"))
        elif key == "player" and isinstance(value, int):
            said[key] = names[value] if 0 <= value < len(names) else str(value + 1)
        elif key == "piece" and isinstance(value, Mapping):  # a start piece: its number
            said[key] = voice.text("blank") if value.get("blank") else value.get("number")
            said["number"] = said[key]
        elif isinstance(value, list):
            said[key] = voice.join([voice.area(str(v)) for v in value])
        elif isinstance(value, str):
            said[key] = voice.text(value)
        else:
            said[key] = value
    why = params.get("why")
    if isinstance(why, Mapping) and isinstance(why.get("text"), str):
        try:
            said["reason"] = voice.text(why["text"]).format(
                **_params(why.get("params") or {}, voice, names))
        except (KeyError, IndexError, ValueError):
            pass
    if "reason" in params and params["reason"] in END_REASONS:
        said["reason"] = voice.text(END_REASONS[params["reason"]])
    return said


def say_message(code: str, params: Mapping[str, Any], voice: Voice, names: list[str]) -> str:
    """A message of the table (``view.MESSAGES``) in ``voice``'s language."""
    return voice.text(MESSAGES[code]).format(**_params(params, voice, names))


def say_step(code: str, params: Mapping[str, Any], voice: Voice, names: list[str]) -> str:
    """A next step (``view.NEXT_STEPS``) in ``voice``'s language."""
    return voice.text(NEXT_STEPS[code]).format(**_params(params, voice, names))


def say_part(part: Part, voice: Voice, names: list[str]) -> str:
    """One part in ``voice``'s language, ``names`` naming the seats."""
    say = voice.text
    p = part["params"]
    code = part["code"]
    if part["kind"] == "game":
        return say_message(code, p, voice, names)
    if code == "blank_question":
        return say(PHRASES["blank_question"]).format(
            player=_name(names, part["seat"]), square=p.get("square"),
            owner=_name(names, p.get("owner")))
    if code in BOARD_CODES:
        return _say_board(code, p, voice)
    if part["kind"] in ("step", "flips", "computer"):
        return say_step(code, p, voice, names)
    if code == "action":
        return _say_action(p, voice, names)
    if code == "taken_back":
        return say(PHRASES["taken_back"]).format(action=_action(voice, p.get("action"), names))
    if code == "take_away":
        reason = _params(p, voice, names).get("reason")
        if reason:
            return say(PHRASES["take_away"]).format(square=p["square"], reason=reason)
        return say(PHRASES["take_away_plain"]).format(square=p["square"])
    if code == "speech_on":
        return say(PHRASES["speech_on"])
    if code == "take_away_plain":
        return say(PHRASES["take_away_plain"]).format(square=p["square"])
    if code == "turn":
        return say(PHRASES["turn"]).format(player=_name(names, p.get("player")))
    if code == "passed":
        passed = [_name(names, seat) for seat in p.get("players") or []]
        if len(passed) == 1:
            return say(PHRASES["passed"]).format(player=passed[0])
        return say(PHRASES["passed_many"]).format(players=voice.join(passed))
    if code == "end":
        return _say_end(p, voice, names)
    return ""


def _say_board(code: str, p: Mapping[str, Any], voice: Voice) -> str:
    """What to do at the board after a take-back or a redo: only the steps there are."""
    say = voice.text
    said = [say(BOARD_STEPS[code])] if code in BOARD_STEPS else []
    for pair in p.get("moves") or []:
        said.append(say(BOARD_STEPS["moves"]).format(**{"from": pair.get("from"),
                                                        "to": pair.get("to")}))
    turn = "turn_back" if code == "undo_on_board" else "turn"
    for key, words in (("take_away", "take_away"), ("put_back", "put_back"), ("turn", turn)):
        squares = [str(s) for s in p.get(key) or []]
        if squares:
            said.append(say(BOARD_STEPS[words]).format(squares=voice.join(squares)))
    return " ".join(said).rstrip(".")


def _name(names: list[str], seat: Any) -> str:
    return names[seat] if isinstance(seat, int) and 0 <= seat < len(names) else ""


def _say_action(p: Mapping[str, Any], voice: Voice, names: list[str]) -> str:
    """An action with the areas it completed or claimed and the points it scored (the
    mover's first)."""
    say = voice.text
    mover = p.get("player")
    text = say(PHRASES["action"]).format(player=_name(names, mover), action=_action(
        voice, p["action"], names, mover))
    extra = []
    if p.get("completed"):
        areas = voice.join([voice.area(str(a)) for a in p["completed"]])
        extra.append(say(PHRASES["completed"]).format(areas=areas))
    if p.get("claimed"):  # Duell der Meister: houses won before they were full
        areas = voice.join([voice.area(str(a)) for a in p["claimed"]])
        extra.append(say(PHRASES["claimed"]).format(areas=areas))
    scored = list(enumerate(p.get("points") or []))
    scored.sort(key=lambda item: item[0] != mover)  # the mover's points first
    for seat, points in scored:
        if not isinstance(points, int) or not points:
            continue
        sign = "plus" if points > 0 else "minus"
        if seat == mover:
            extra.append(say(PHRASES[sign]).format(points=abs(points)))
        else:
            extra.append(say(PHRASES["player_" + sign]).format(player=_name(names, seat),
                                                                points=abs(points)))
    return ", ".join([text, *extra])


def _say_end(p: Mapping[str, Any], voice: Voice, names: list[str]) -> str:
    """The end: why, and who won (or that nobody did)."""
    say = voice.text
    reason = say(END_REASONS.get(str(p.get("reason")), END_REASONS["no_moves"]))
    winners = [_name(names, w) for w in p.get("winners") or []]
    if len(winners) == 1:
        return say(PHRASES["winner"]).format(reason=reason, player=winners[0])
    if winners:
        return say(PHRASES["winners"]).format(reason=reason, players=voice.join(winners))
    return say(PHRASES["draw"]).format(reason=reason)


def sentence(text: str) -> str:
    """A phrase as a sentence: capitalised, with a full stop."""
    text = text.strip()
    if not text:
        return ""
    text = text[0].upper() + text[1:]
    return text if text[-1] in ".!?" else text + "."


def words(parts: list[Part], voice: Voice, names: list[str]) -> list[str]:
    """Each part as a sentence of ``voice``'s language."""
    return [sentence(say_part(part, voice, names)) for part in parts]


# --- keeping them -----------------------------------------------------------------------------

Listener = Callable[[Announcement], None]


class Announcer:
    """The table's announcements (``Table.announcer``): ``observe`` after every change (under
    the table's lock), ``last`` the newest, and every listener told of each new one at once
    (a listener must only queue it: it is called under the table's lock). The announcer's own
    lock keeps its listeners and ``last`` for a listener added or a repeat asked from another
    thread; it never waits for the table's."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._run = secrets.token_hex(3)  # ids stay new across restarts of the table
        self._ids = itertools.count(1)
        self._before: Moment | None = None
        self._turn: int | None = None
        self.last: Announcement | None = None
        self._listeners: list[Listener] = []

    def listen(self, listener: Listener) -> None:
        """Call ``listener`` with every new announcement, under the table's lock: it must only
        queue it (the table's speaker speaks in a thread of its own)."""
        with self._lock:
            self._listeners.append(listener)

    def observe(self, now: Moment | None, seats: Seats) -> Announcement | None:
        """Compare ``now`` with the moment before; a new announcement if anything is new."""
        if now is None:
            self._before, self._turn = None, None
            return None
        parts, self._turn = announce(self._before, now, self._turn)
        self._before = now
        if not parts:
            return None
        parts.sort(key=lambda part: KINDS.index(part["kind"]))
        said: Announcement = {"id": f"{self._run}-{next(self._ids)}", "parts": parts,
                              "seats": seats}
        with self._lock:
            self.last = said
            for listener in self._listeners:
                try:
                    listener(said)
                except Exception:  # a listener's fault never stops the table
                    import logging

                    logging.getLogger(__name__).exception("an announcement listener failed")
        return said

    def repeat(self) -> bool:
        """Tell the listeners the last announcement again (the panel's Repeat); False when
        there is none."""
        with self._lock:
            if self.last is None:
                return False
            for listener in self._listeners:
                listener({**self.last, "id": f"{self.last['id']}-again"})
            return True


def view(said: Announcement | None, names: list[str], voice: Voice | None = None) -> dict[str,
                                                                                          Any]:
    """The view's ``table.say``: the last announcement's id, its text and its parts, each
    with its text (in ``voice``'s language; English by default)."""
    if said is None:
        return {"id": None, "text": "", "parts": []}
    voice = voice or Voice()
    texts = words(said["parts"], voice, names)
    return {"id": said["id"], "text": " ".join(t for t in texts if t),
            "parts": [{"kind": p["kind"], "code": p["code"], "params": p["params"],
                       "seat": p["seat"], "text": text}
                      for p, text in zip(said["parts"], texts, strict=True)]}
