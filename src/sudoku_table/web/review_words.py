"""The review of a game in words and as one document: for the panel (in the request's
language) and for ``sudoku-table review`` (in the configured or given language).

The judgement itself is language-free (``sudoku_table.ai.review``: codes, numbers, actions); this
module words it with the players' names: each move, the computer's move and its reasons (the
hints' own words), the verdict, what chance decided, and one summary per player ("Anna: 14 of
18 moves as good as the computer's; the biggest chance missed: 7 on c4 (+5 points), move 23").
Every sentence is a catalog entry (``N_``), so German and English come from one place.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from sudoku_table.ai.reasons import WORDINGS, Motive
from sudoku_table.ai.review import Judgement, Summary, summarize
from sudoku_table.rules.actions import Action, Discard, Joker
from sudoku_table.rules.game import Game, State
from sudoku_table.rules.wording import N_, Nn_

from .i18n import action_words, translate, translate_n

VERDICT_WORDS: Mapping[str, str] = {
    "best": N_("the computer's own move"),
    "good": N_("as good as the computer's move"),
    "forced": N_("the only possible move"),
    "slip": N_("a little weaker than the computer's move"),
    "miss": N_("a chance missed"),
}
"""Each verdict of ``sudoku_table.ai.review.VERDICTS`` in words."""

GAIN_WORDS: Mapping[str, tuple[str, str]] = {
    "points": Nn_("+{n} point", "+{n} points"),
    "markers": Nn_("+{n} marker", "+{n} markers"),
}
"""How much better the computer's move was, in the family's unit, all of it at once."""
CHANCE_GAIN = N_("chance to win +{n} %")
"""How much better the computer's move was where the game is won by reaching a goal."""
NOW_WORDS: Mapping[str, tuple[str, str]] = {
    "points": Nn_("{n} point now", "{n} points now"),
    "markers": Nn_("{n} marker now", "{n} markers now"),
}
"""The part of the difference the two moves score at once (a player can count it)."""
LATER_WORDS: Mapping[str, tuple[str, str]] = {
    "points": Nn_("{n} point still to come", "{n} points still to come"),
    "markers": Nn_("{n} marker still to come", "{n} markers still to come"),
}
"""The part the computer expects later: the open areas and what the next reply can take."""
LATER_WHY = N_("estimated after {player}'s best reply")
"""Why points still to come are an estimate: they are what the search expects of the
position after the next player's best reply, not points on the board."""

REVIEW_REASONS: Mapping[str, str | tuple[str, str]] = {
    "points_plain": Nn_("+{points} point", "+{points} points"),
    "flips": Nn_("flips {count} piece", "flips {count} pieces"),
    "markers": Nn_("+{points} marker: {areas}", "+{points} markers: {areas}"),
    "jumps": Nn_("jumps {count} time", "jumps {count} times"),
    "advances": Nn_("brings the piece {steps} step nearer the exit",
                    "brings the piece {steps} steps nearer the exit"),
    "builds_four": Nn_("counts toward {count} group of four still open to {mover}",
                       "counts toward {count} groups of four still open to {mover}"),
    "frees": Nn_("lets {count} more piece of {mover} move",
                 "lets {count} more pieces of {mover} move"),
    "hinders": Nn_("leaves {player} {count} fewer piece that can move",
                   "leaves {player} {count} fewer pieces that can move"),
    "least_given": Nn_("leaves {player} at most {points} point for their next stone "
                       "(no square leaves fewer)",
                       "leaves {player} at most {points} points for their next stone "
                       "(no square leaves fewer)"),
    "extends_lead": N_("adds to {mover}'s lead in {areas}"),
    "crosses": N_("gets {mover}'s {number} past {player}'s {number}: the two can no longer "
                  "block each other"),
    "prepares": N_("{mover}'s next stone can complete {areas}"),
    "end_turn": N_("no blank helps now: {mover} ends the turn"),
    "set_aside": N_("{number} fits nowhere: {mover} sets it aside"),
    "joker": N_("{number} fits nowhere: {mover} lays it face down as a joker"),
}
"""The review's own wording of the reasons a hint words for the player it is given to:
the review speaks of every player by name (never "you"), and a reason that counts says its
noun in the form its number needs (one Vierergruppe, two Vierergruppen). A reason not
listed is worded as the hint words it (``reasons.WORDINGS``)."""

COUNTED: Mapping[str, str] = {"points_plain": "points", "flips": "count", "markers": "points",
                              "jumps": "count", "advances": "steps", "builds_four": "count",
                              "frees": "count", "hinders": "count", "least_given": "points"}
"""The parameter whose number picks the form of each reason of ``REVIEW_REASONS`` that
changes with a number."""

SUMMARY = N_("{player}: {good} of {moves} moves as good as the computer's")
SUMMARY_ONE = N_("{player}: {good} of 1 move as good as the computer's")
SUMMARY_NONE = N_("{player}: no move with a choice")
SUMMARY_PENDING = N_("{player}: no move judged yet")
SUMMARY_MISSED = N_("the biggest chance missed: {action} ({gain}), move {move}")
SUMMARY_FORCED = Nn_("{count} more move had only one possibility",
                     "{count} more moves had only one possibility")
KNOWN = N_("Each move is judged only with what its player knew: what they held in hand, not "
           "the {pieces} still to come.")
KNOWN_ALL = N_("Each move is judged in the position its player saw; nothing was hidden.")
FORCED_CARD = N_("The {number} fitted only here: chance decided this move, not the player.")
FORCED_NOWHERE = N_("The {number} fitted nowhere: chance decided this move, not the player.")
FORCED_MOVE = N_("There was no other move.")
ODDS = N_("Chance decided which was better: {player}'s move would have done as well for {good} "
          "of the {total} {pieces} {next} could hold next.")
MOVE = N_("Move {move}: {player}: {action}")
BETTER = N_("The computer: {action}")
SCORED = N_("{player} {points}")


def player_names(game: Game, names: Sequence[str], language: str) -> list[str]:
    """The players' names as typed in the record, else their seats' names (White, Black;
    Player 3) in ``language``."""
    found = []
    for seat in range(game.players):
        typed = names[seat] if seat < len(names) else ""
        if typed:
            found.append(typed)
        elif seat < len(game.player_labels):
            found.append(translate(game.player_labels[seat], language))
        else:
            found.append(translate("Player {n}", language, n=seat + 1))
    return found


def reason_words(game: Game, reason: Motive, names: Sequence[str], mover: int,
                 language: str) -> str:
    """A reason of ``mover``'s move in ``language``: the players by their names, the areas
    as the board shows them (``Geometry.place_name``), each noun in the form its number
    needs (``REVIEW_REASONS``)."""
    params: dict[str, Any] = {"mover": names[mover]}
    for key, value in reason.params.items():
        if key == "player" and isinstance(value, int) and 0 <= value < len(names):
            params[key] = names[value]
        elif key == "areas" and isinstance(value, list | tuple):
            params[key] = [game.geometry.place_name(str(a)) for a in value]
        elif isinstance(value, tuple):
            params[key] = list(value)
        else:
            params[key] = value
    wording = REVIEW_REASONS.get(reason.code, WORDINGS[reason.code])
    if isinstance(wording, tuple):
        return translate_n(wording, int(reason.params[COUNTED[reason.code]]), language,
                           **params)
    return translate(wording, language, **params)


def _lead(points: Sequence[int], player: int) -> int:
    """What a move gave ``player`` at once, beyond the best other player."""
    others = [n for p, n in enumerate(points) if p != player]
    return points[player] - max(others, default=0) if points else 0


def gain_words(judged: Judgement, names: Sequence[str], language: str) -> str:
    """How much better the computer's move was: "chance to win +12 %" where the game is won
    by reaching a goal; else in points (or markers) a player can check: the points the two
    moves score at once, and the points the computer only expects, said as such and why
    ("+1 point now, +3 points still to come, estimated after Ben's best reply")."""
    measure = judged.measure
    if measure == "chance":
        return translate(CHANCE_GAIN, language, n=round(100 * judged.loss))
    total = round(judged.loss)
    now = _lead(judged.best_points, judged.player) - _lead(judged.points, judged.player)
    later = total - now
    if later == 0 or judged.opponent is None:
        return translate_n(GAIN_WORDS[measure], total, language, n=total)
    said = translate_n(LATER_WORDS[measure], later, language, n=_signed(later)) + ", " + \
        translate(LATER_WHY, language, player=names[judged.opponent])
    if now == 0:
        return said
    return translate_n(NOW_WORDS[measure], now, language, n=_signed(now)) + ", " + said


def _signed(n: int) -> str:
    return f"+{n}" if n > 0 else str(n)


def _pieces(game: Game, language: str) -> str:
    return translate(game.piece_words.many, language)


def known_words(game: Game, language: str) -> str:
    """What each move is judged with: what its player held (hidden hands), else everything."""
    if game.hidden_hands:
        return translate(KNOWN, language, pieces=_pieces(game, language))
    return translate(KNOWN_ALL, language)


def note_words(game: Game, judged: Judgement, names: Sequence[str], language: str) -> str | None:
    """What chance decided about this move, if anything: the card in hand left one move
    only, or which of the two moves was better depended on the next player's card."""
    if judged.verdict == "forced":
        if judged.hand is None:
            return translate(FORCED_MOVE, language)
        template = FORCED_NOWHERE if isinstance(judged.action, Discard | Joker) else FORCED_CARD
        return translate(template, language, number=judged.hand)
    if judged.odds is not None and judged.opponent is not None:
        return translate(ODDS, language, player=names[judged.player], good=judged.odds[0],
                         total=judged.odds[1], pieces=_pieces(game, language),
                         next=names[judged.opponent])
    return None


def summary_words(summary: Summary, names: Sequence[str], language: str) -> str:
    """One player's summary in a sentence."""
    name = names[summary.player]
    if not summary.moves:
        return translate(SUMMARY_PENDING, language, player=name)
    if not summary.choices:
        text = translate(SUMMARY_NONE, language, player=name)
    else:
        text = translate(SUMMARY_ONE if summary.choices == 1 else SUMMARY, language,
                         player=name, good=summary.as_good, moves=summary.choices)
    if summary.biggest is not None:
        biggest = summary.biggest
        text += "; " + translate(SUMMARY_MISSED, language,
                                 action=action_words(biggest.best, language),
                                 gain=gain_words(biggest, names, language),
                                 move=biggest.index + 1)
    if summary.forced and summary.choices:
        text += " (" + translate_n(SUMMARY_FORCED, summary.forced, language,
                                   count=summary.forced) + ")"
    return text


def scored_words(points: Sequence[int], names: Sequence[str], language: str) -> str:
    """What a move gave each player ("Anna +3, Ben -1"), or empty."""
    return ", ".join(translate(SCORED, language, player=names[p],
                               points=f"+{n}" if n > 0 else str(n))
                     for p, n in enumerate(points) if n)


def move_entry(game: Game, states: Sequence[State], actions: Sequence[Action], index: int,
               judged: Judgement | None, seats: Sequence[str], language: str) -> dict[str, Any]:
    """One move of the review document: what was played and scored, and once judged, the
    computer's move with its reasons, the verdict and what chance decided, worded."""
    action = actions[index]
    player = game.actor(states[index], action)
    after = states[index + 1]
    entry: dict[str, Any] = {
        "index": index, "move": index + 1, "player": player, "action": action.to_json(),
        "points": list(after.last.points), "verdict": None,
        "text": translate(MOVE, language, move=index + 1,
                          player=seats[player] if player is not None else "",
                          action=action_words(action, language)),
        "scored": scored_words(after.last.points, seats, language),
    }
    if judged is None:
        return entry
    entry.update(judged.to_json())
    entry.update({
        "verdict_text": translate(VERDICT_WORDS[judged.verdict], language),
        "best_text": translate(BETTER, language, action=action_words(judged.best, language)),
        "best_scored": scored_words(judged.best_points, seats, language),
        "gain": (gain_words(judged, seats, language)
                 if judged.verdict in ("slip", "miss") else None),
        "reasons": [{**r.to_json(), "text": reason_words(game, r, seats, judged.player,
                                                         language)}
                    for r in judged.reasons],
        "played_reasons": [{**r.to_json(), "text": reason_words(game, r, seats, judged.player,
                                                                language)}
                           for r in judged.played_reasons],
        "note": note_words(game, judged, seats, language),
    })
    return entry


def document(game: Game, states: Sequence[State], actions: Sequence[Action],
             judgements: Sequence[Judgement], names: Sequence[str], language: str,
             extra: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """The review as one JSON document (docs/records.md, "The review of a game"): every move
    (judged or not yet), the score of every player after every move, each player's summary,
    all worded in ``language``; ``extra`` fields (status, progress) are added as they are."""
    from sudoku_table.ai.heuristics import heuristic_for

    seats = player_names(game, names, language)
    judged = {j.index: j for j in judgements}
    done = [judged[i] for i in sorted(judged)]
    return {
        "variant": game.id, "name": translate(game.name, language), "players": game.players,
        "names": seats, "measure": heuristic_for(game).measure,
        "hidden_hands": game.hidden_hands,
        "known": known_words(game, language),
        "scores": [list(game.scores(s)) for s in states],
        "moves": [move_entry(game, states, actions, i, judged.get(i), seats, language)
                  for i in range(len(actions))],
        "summary": [{**s.to_json(), "name": seats[s.player],
                     "text": summary_words(s, seats, language)}
                    for s in summarize(done, game.players)],
        **(extra or {}),
    }


# --- for people at a terminal -------------------------------------------------------------------

TITLE = N_("{game}, {players}: each move beside the computer's ({level})")
SUMMARY_TITLE = N_("Summary")


def title_lines(game: Game, seats: Sequence[str], level: str, language: str) -> list[str]:
    """The head of the review as text: the game, its players, the level, what was known."""
    from sudoku_table.table.computer import LEVEL_WORDS

    return [translate(TITLE, language, game=translate(game.name, language),
                      players=", ".join(seats),
                      level=translate(LEVEL_WORDS.get(level, level), language)),
            known_words(game, language), ""]


def move_lines(entry: Mapping[str, Any]) -> list[str]:
    """One move of the review document as text: the move and its verdict, then (unless it
    was the computer's own move) the computer's move with its reasons, then the note."""
    head = entry["text"] + (f" ({entry['scored']})" if entry.get("scored") else "")
    if entry.get("verdict") is None:
        return [head]
    verdict = entry["verdict_text"] + (f" ({entry['gain']})" if entry.get("gain") else "")
    lines = [f"{head}: {verdict}"]
    if entry["verdict"] not in ("best", "forced"):
        best = entry["best_text"] + (f" ({entry['best_scored']})" if entry["best_scored"]
                                     else "")
        reasons = "; ".join(r["text"] for r in entry["reasons"])
        lines.append("    " + best + (f": {reasons}" if reasons else ""))
    if entry.get("note"):
        lines.append("    " + entry["note"])
    return lines


def summary_lines(doc: Mapping[str, Any], language: str) -> list[str]:
    """The players' summaries as text, under a heading."""
    return ["", translate(SUMMARY_TITLE, language), *[s["text"] for s in doc["summary"]]]
