"""The review of a finished game: every move beside the computer's best move in its place.

Each move is judged alone, from the position before it and with what its player knew: the
position, and where the game hides the hand (``Game.hidden_hands``) the card or stone in hand,
which is the one the move played. The cards still to come are not looked at: the judgement of
move ``i`` is a function of the position before it and of that move, never of the record after
it (``tests/ai/test_review.py`` changes the later draws and checks nothing moves).

Judging a move takes two steps:

1. The engine's move for that position and hand at the chosen level (``strong`` by default),
   seeded by the move's number, with its reasons: the same reasons a hint gives.
2. One yardstick for the move played and the engine's move alike: the position after each,
   then the next player's best reply one look ahead for every card they may hold, weighted by
   how many of it they have left (for the games that hide nothing, the one reply). That is the
   look the ``strong`` KOSMOS search judges by (``engine.expectimax``), so there both sides are
   measured as the engine measured them; in the games it searches by the tree, it is a second,
   common look, so the engine's move may come out no better than the one played (then the
   move played is as good, never better by a negative amount).

What a move is worth is counted in the unit of its family (``Heuristic.measure``): points (or
Duell's markers) where the game is won by them: the mover's margin over the best other player,
points to come included, after the reply; the chance to win where the game is won by reaching a
goal (four in a row, bearing off) and nothing is counted on the way. A move is *as good as the
computer's* when it loses less than ``TOLERANCE`` of that unit; a forced move (one action open)
is never counted against anybody. Where a hand is hidden, the review says where chance
decided: the card allowed one move only, or which of the two moves was better depended on the
next player's card (``Judgement.odds``).
"""

from __future__ import annotations

import math
import time
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from sudoku_table.rules.actions import Action, action_from_json, action_number
from sudoku_table.rules.game import Game, State

from .engine import (
    Budget,
    EngineError,
    candidates,
    decide,
    group_by_number,
    play_turn,
)
from .heuristics import Heuristic, heuristic_for
from .reasons import Motive

REVIEW_VERSION = 2
"""Changes whenever the judgement of a move changes, so that kept reviews are made again."""

VERDICTS = ("best", "good", "forced", "slip", "miss")
"""A move's verdict: the computer's own move; as good as it (within ``TOLERANCE``); the only
move open; a little weaker; a chance missed (weaker by ``MISSED`` or more)."""

AS_GOOD = ("best", "good", "forced")
"""The verdicts that count as "as good as the computer's"."""

TOLERANCE: Mapping[str, float] = {"points": 0.5, "markers": 0.5, "chance": 0.03}
"""Less than this much worse counts as good as the computer's move (half a point rounds to
nothing; three points of percentage are within the estimate's noise)."""
MISSED: Mapping[str, float] = {"points": 2.0, "markers": 1.0, "chance": 0.10}
"""This much worse or more is a chance missed; between the two, a slip."""


@dataclass(frozen=True, slots=True)
class Outlook:
    """The mover's worth after a move: the chance to win and the margin (in the family's
    points) after the next player's reply, averaged over the cards that player may hold;
    ``cards`` keeps each card's weight and worth (None: no card, one reply)."""

    chance: float
    margin: float
    cards: Mapping[int | None, tuple[int, float, float]] = field(default_factory=dict)

    def worth(self, measure: str) -> float:
        return self.chance if measure == "chance" else self.margin


@dataclass(frozen=True, slots=True)
class Judgement:
    """One move of a game beside the computer's move in its place.

    ``index`` counts the record's actions from 0; ``player`` made the move holding ``hand``
    (None where nothing is hidden); ``points`` are what the move gave each player at once, and
    ``best_points`` what the computer's move would have. ``worth``/``best_worth`` are in the
    family's ``measure`` (the chance from 0 to 1, or points); ``loss`` is how much worse the
    move was (0 when it was no worse). ``odds``: where the next player's card decided which of
    the two moves was better, how many of the cards they might hold favoured the move played,
    of how many (by weight), else None; ``opponent`` is the player who moved next."""

    index: int
    player: int
    action: Action
    best: Action
    verdict: str
    measure: str
    hand: int | None = None
    points: tuple[int, ...] = ()
    best_points: tuple[int, ...] = ()
    worth: float = 0.0
    best_worth: float = 0.0
    loss: float = 0.0
    chance: float = 0.0
    best_chance: float = 0.0
    reasons: tuple[Motive, ...] = ()
    played_reasons: tuple[Motive, ...] = ()
    odds: tuple[int, int] | None = None
    opponent: int | None = None
    seconds: float = 0.0

    @property
    def as_good(self) -> bool:
        return self.verdict in AS_GOOD

    def to_json(self) -> dict[str, Any]:
        """The judgement as data (docs/records.md, "The review of a game")."""
        return {
            "index": self.index, "move": self.index + 1, "player": self.player,
            "action": self.action.to_json(), "hand": self.hand,
            "points": list(self.points), "best": self.best.to_json(),
            "best_points": list(self.best_points), "verdict": self.verdict,
            "measure": self.measure, "worth": _round(self.worth),
            "best_worth": _round(self.best_worth), "loss": _round(self.loss),
            "chance": round(self.chance, 3), "best_chance": round(self.best_chance, 3),
            "reasons": [r.to_json() for r in self.reasons],
            "played_reasons": [r.to_json() for r in self.played_reasons],
            "odds": list(self.odds) if self.odds is not None else None,
            "opponent": self.opponent, "seconds": round(self.seconds, 3),
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Judgement:
        """A judgement kept as ``to_json`` wrote it."""
        odds = data.get("odds")
        return cls(
            index=int(data["index"]), player=int(data["player"]),
            action=action_from_json(data["action"]), best=action_from_json(data["best"]),
            verdict=str(data["verdict"]), measure=str(data["measure"]),
            hand=data.get("hand"), points=tuple(data.get("points") or ()),
            best_points=tuple(data.get("best_points") or ()),
            worth=float(data.get("worth") or 0.0), best_worth=float(data.get("best_worth") or 0.0),
            loss=float(data.get("loss") or 0.0), chance=float(data.get("chance") or 0.0),
            best_chance=float(data.get("best_chance") or 0.0),
            reasons=tuple(_reason(r) for r in data.get("reasons") or ()),
            played_reasons=tuple(_reason(r) for r in data.get("played_reasons") or ()),
            odds=(int(odds[0]), int(odds[1])) if odds else None,
            opponent=data.get("opponent"), seconds=float(data.get("seconds") or 0.0))


def _reason(data: Mapping[str, Any]) -> Motive:
    return Motive(str(data["code"]), dict(data.get("params") or {}))


def _round(value: float) -> float:
    return round(value, 3) if math.isfinite(value) else (1e9 if value > 0 else -1e9)


# --- the yardstick ----------------------------------------------------------------------------

def _margin(game: Game, heuristic: Heuristic, state: State, player: int) -> float:
    """``player``'s margin over the best other player: the heuristic's standing while the game
    runs, the final score once it is over (a win is not infinitely many points)."""
    if state.over:
        scores = game.scores(state)
        others = [s for p, s in enumerate(scores) if p != player]
        return float(scores[player] - (max(others) if others else 0))
    return heuristic.margin(game, state, player)


def outlook(game: Game, heuristic: Heuristic, after: State, mover: int) -> Outlook:
    """The mover's worth in ``after`` (the position after a move and, in DOMINARI, the blanks
    the blank policy lays), after the next player's best reply to each card they may hold."""
    nxt = after.to_move
    if after.over or nxt is None or nxt == mover:
        chance = heuristic.values(game, after)[mover]
        margin = _margin(game, heuristic, after, mover)
        return Outlook(chance, margin, {None: (1, chance, margin)})
    replies = candidates(game, after)
    supply = game.hand_supply(after, nxt)
    if supply is None:  # nothing hidden: the next player chooses among all their moves
        groups: dict[int | None, list[Action]] = {None: replies}
        weights: dict[int | None, int] = {None: 1}
    else:  # each card they may hold, as likely as the copies of it they have left
        groups = group_by_number(replies)
        weights = {n: left for n, left in supply.items() if left > 0 and n in groups}
    total = sum(weights.values())
    cards: dict[int | None, tuple[int, float, float]] = {}
    chance = margin = 0.0
    for number, weight in weights.items():
        reply_after, values = best_reply(game, heuristic, after, groups[number], nxt)
        card_chance = values[mover]
        card_margin = _margin(game, heuristic, reply_after, mover)
        cards[number] = (weight, card_chance, card_margin)
        chance += card_chance * weight / total
        margin += card_margin * weight / total
    return Outlook(chance, margin, cards)


def best_reply(game: Game, heuristic: Heuristic, state: State, replies: Sequence[Action],
               player: int) -> tuple[State, list[float]]:
    """The position after ``player``'s reply that looks best to them one look ahead (their
    chance to win; the first of equals), with every player's chance there. One estimate per
    reply: half the work of ranking by chance and then margin, with the same choice wherever
    the chances differ."""
    best: tuple[State, list[float]] | None = None
    for reply in replies:
        reply_after = play_turn(game, state, reply, heuristic)
        values = heuristic.values(game, reply_after)
        if best is None or values[player] > best[1][player]:
            best = (reply_after, values)
    assert best is not None, "a running game always has a reply"
    return best


def verdict(loss: float, measure: str) -> str:
    """``good``, ``slip`` or ``miss`` for a move that lost ``loss`` against the computer's."""
    if loss < TOLERANCE[measure]:
        return "good"
    return "slip" if loss < MISSED[measure] else "miss"


def _odds(played: Outlook, best: Outlook, measure: str) -> tuple[int, int] | None:
    """How many of the next player's cards (by weight) favoured the move played, of how many,
    where the card decided it (some did, some did not); None otherwise."""
    if len(played.cards) < 2 or set(played.cards) != set(best.cards):
        return None
    index = 1 if measure == "chance" else 2
    favoured = total = 0
    for number, entry in played.cards.items():
        weight = entry[0]
        total += weight
        if entry[index] >= best.cards[number][index] - TOLERANCE[measure]:
            favoured += weight
    return (favoured, total) if 0 < favoured < total else None


REVIEW_SECONDS = 30.0
"""The clock of a review's searches: a review is not waited for move by move, so only the
positions count (the same record, level and budget always judge alike); the clock stops a
search only where something went badly wrong."""


def review_budget(budget: Budget) -> Budget:
    """A level's effort for a review: its positions, with the review's generous clock."""
    return Budget(budget.positions, max(budget.seconds, REVIEW_SECONDS))


# --- one move, one game -----------------------------------------------------------------------

def judge(game: Game, state: State, action: Action, *, index: int, level: str = "strong",
          budget: Budget | None = None) -> Judgement:
    """Judge ``action`` played in ``state`` (the ``index``-th action of its game) against the
    computer's move at ``level``, with only what the mover knew: ``state`` and, where the
    game hides the hand, the card the action played. ``EngineError`` when the position has no
    move to judge (the game is over). A move that hands the turn on first (a DOMINARI number
    piece put down in the previous player's blank phase) is its own player's, judged in the
    position after the hand-over (``Game.chosen_in``) against that player's best move."""
    started = time.perf_counter()
    state = game.chosen_in(state, action)
    mover = state.to_move
    if state.over or mover is None:
        raise EngineError("the game is over")
    heuristic = heuristic_for(game)
    measure = heuristic.measure
    hand = action_number(action) if game.hand_supply(state, mover) is not None else None
    decision = decide(game, state, level=level, seed=index, hand=hand, budget=budget)
    best = decision.action
    open_actions = candidates(game, state)
    if hand is not None:
        open_actions = [a for a in open_actions if action_number(a) == hand]
    after = game.apply(state, action)
    best_after = after if best == action else game.apply(state, best)
    turn = play_turn(game, state, action, heuristic)
    played_look = outlook(game, heuristic, turn, mover)
    best_look = (played_look if best == action else
                 outlook(game, heuristic, play_turn(game, state, best, heuristic), mover))
    loss = max(0.0, best_look.worth(measure) - played_look.worth(measure))
    if len(open_actions) <= 1:
        said = "forced"
    elif best == action:
        said = "best"
    else:
        said = verdict(loss, measure)
    odds = _odds(played_look, best_look, measure) if said in ("slip", "miss") else None
    return Judgement(
        index=index, player=mover, action=action, best=best, verdict=said, measure=measure,
        hand=hand, points=tuple(after.last.points), best_points=tuple(best_after.last.points),
        worth=played_look.worth(measure), best_worth=best_look.worth(measure),
        loss=0.0 if said in ("best", "forced") else loss,
        chance=played_look.chance, best_chance=best_look.chance,
        reasons=tuple(heuristic.reasons(game, state, best, best_after, mover)
                      or outlook_reason(best_look)),
        played_reasons=tuple(heuristic.reasons(game, state, action, after, mover)),
        odds=odds, opponent=turn.to_move if turn.to_move != mover else None,
        seconds=time.perf_counter() - started)


def outlook_reason(look: Outlook) -> tuple[Motive]:
    """The reason for a move whose family names none (no points now, no threat, nothing
    blocked): what the search sees after it, the mover's chance to win after the next
    player's best reply. Every move the review shows thus has a reason."""
    return (Motive("chance", {"percent": round(100 * look.chance)}),)


def review(game: Game, states: Sequence[State], actions: Sequence[Action], *,
           level: str = "strong", budget: Budget | None = None,
           start: int = 0) -> Iterator[Judgement]:
    """Every move of a replayed record from ``start`` on, one judgement at a time (so a caller
    can show the first ones while the rest are found). ``states[i]`` is the position before
    ``actions[i]``."""
    for index in range(start, len(actions)):
        yield judge(game, states[index], actions[index], index=index, level=level,
                    budget=budget)


# --- what each player did ---------------------------------------------------------------------

@dataclass(frozen=True, slots=True)
class Summary:
    """One player's moves in a few numbers: how many, how many had a choice, how many of those
    were as good as the computer's, how many were forced, and the move with the biggest chance
    missed (its judgement, None when every move was as good)."""

    player: int
    moves: int
    choices: int
    as_good: int
    forced: int
    biggest: Judgement | None

    def to_json(self) -> dict[str, Any]:
        biggest = self.biggest
        return {"player": self.player, "moves": self.moves, "choices": self.choices,
                "as_good": self.as_good, "forced": self.forced,
                "biggest": None if biggest is None else {
                    "index": biggest.index, "move": biggest.index + 1,
                    "best": biggest.best.to_json(), "loss": _round(biggest.loss),
                    "measure": biggest.measure, "best_points": list(biggest.best_points)}}


def summarize(judgements: Sequence[Judgement], players: int) -> list[Summary]:
    """Each player's summary, in seat order."""
    found = []
    for player in range(players):
        mine = [j for j in judgements if j.player == player]
        choices = [j for j in mine if j.verdict != "forced"]
        weaker = [j for j in choices if not j.as_good]
        biggest = max(weaker, key=lambda j: (j.loss, -j.index)) if weaker else None
        found.append(Summary(player, len(mine), len(choices),
                             sum(1 for j in choices if j.as_good),
                             len(mine) - len(choices), biggest))
    return found
