"""The search: one engine for every game, over the rules protocol only.

``choose`` answers the mover's next action. What the mover knows is the position and, where
the game hides it (``Game.hidden_hands``), the card or stone in hand; the others' cards and
every later draw are chance, drawn from what each player has left (``Game.hand_supply``).

The search is Monte Carlo tree search over positions (an action fixes the card it plays, so
the position after it is known). At a node of a hidden-hand game the mover's card is drawn
anew on each visit and only that card's actions are open (information-set MCTS with
availability counts). A newly reached node opens all the open actions at once and scores each
position with the family's heuristic (``heuristics``), so the tree grows best-first where the
heuristic is unsure. Values are every player's estimated chance to win; each mover picks for
itself, so three and four players need nothing extra.

DOMINARI turns of several actions: the search plays a number piece and then the blanks the
blank policy (``blank_step``) chooses; asked in a blank phase, the engine answers that
policy's next step. The policy is a function of the position alone, so asking again on each
following position returns the rest of the planned turn.

Effort is counted in positions evaluated, never in seconds: the same seed, position and level
give the same action on any machine. The clock is only a safety stop (``Decision.clock_stop``,
logged as a warning).
"""

from __future__ import annotations

import logging
import math
import random
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from sudoku_table.rules.actions import Action, Blank, EndTurn, action_number
from sudoku_table.rules.game import BLANKS_PHASE, Game, State

from .heuristics import Heuristic, heuristic_for

log = logging.getLogger(__name__)

LEVELS = ("easy", "normal", "strong")
"""The computer's levels, weakest first."""


@dataclass(frozen=True, slots=True)
class Budget:
    """A level's effort: ``positions`` the search may evaluate, and ``seconds`` after which
    the clock stops it anyway (a safety stop, reported)."""

    positions: int
    seconds: float


DEFAULT_BUDGETS: Mapping[str, Budget] = {
    "easy": Budget(positions=1, seconds=1.0),
    "normal": Budget(positions=150, seconds=1.0),
    "strong": Budget(positions=800, seconds=1.0),
}
"""The budgets on a desktop PC (``strong`` answers within a second there); a Pi sets its own
in the ``[computer]`` section of the config."""

EASY_RANDOM = 0.35
"""How often ``easy`` plays any legal action instead of looking (its budget is one look:
the action whose position looks best one action ahead)."""
EXPLORATION = 0.05
"""The UCB constant (values are chances between 0 and 1)."""


class EngineError(ValueError):
    """The engine cannot answer: the game is over, a level is unknown, or the hand is not
    one the mover can hold. The message says which."""


@dataclass(slots=True)
class Decision:
    """What a search found: the action, every player's estimated chance to win after it,
    and how much it looked (``clock_stop`` is True when the clock cut it short)."""

    action: Action
    values: list[float]
    positions: int = 0
    seconds: float = 0.0
    clock_stop: bool = False
    hand: int | None = None


# --- what the mover may hold ----------------------------------------------------------------

def draw(supply: Mapping[int, int], rng: random.Random) -> int:
    """A number drawn from ``supply`` (counts per number), each card equally likely."""
    total = sum(supply.values())
    pick = rng.randrange(total)
    for number in sorted(supply):
        pick -= supply[number]
        if pick < 0:
            return number
    raise AssertionError("empty supply")  # pragma: no cover - callers check


def mover_hand(game: Game, state: State, hand: int | None, rng: random.Random) -> int | None:
    """The number the mover plays: ``hand`` checked against their supply, or drawn from it
    (None in games that hide nothing). ``EngineError`` for a hand they cannot hold."""
    assert state.to_move is not None
    supply = game.hand_supply(state, state.to_move)
    if supply is None:
        if hand is not None:
            raise EngineError(f"{game.name} hides no card or stone: there is no hand to give")
        return None
    if hand is None:
        return draw(supply, rng)
    if isinstance(hand, bool) or not isinstance(hand, int) or supply.get(hand, 0) <= 0:
        held = ", ".join(str(n) for n in sorted(supply)) or "none"
        raise EngineError(f"player {state.to_move + 1} cannot hold {hand!r}: the numbers they "
                          f"can still draw are {held}")
    return hand


def candidates(game: Game, state: State) -> list[Action]:
    """The actions the engine weighs: every legal action, except that in a blank phase the
    next player's number pieces (an implicit end of turn) are left out."""
    actions = list(game.legal_actions(state))
    if state.phase == BLANKS_PHASE:
        actions = [a for a in actions if isinstance(a, Blank | EndTurn)]
    return actions


def group_by_number(actions: Sequence[Action]) -> dict[int | None, list[Action]]:
    """``actions`` by the card or stone they play (None: no number)."""
    groups: dict[int | None, list[Action]] = {}
    for action in actions:
        groups.setdefault(action_number(action), []).append(action)
    return groups


# --- the blank policy -------------------------------------------------------------------------

def blank_step(game: Game, state: State, heuristic: Heuristic) -> tuple[Action, State]:
    """In a blank phase: the blank that improves the mover's margin most, or ``end_turn``
    when none does (ties end the turn). Returns the action and the position after it."""
    mover = state.to_move
    assert mover is not None
    options = [a for a in candidates(game, state) if isinstance(a, Blank)]
    end = EndTurn()
    best_action: Action = end
    best_state = game._apply(state, end)
    best = heuristic.margin(game, best_state, mover)
    for action in options:
        after = game._apply(state, action)
        margin = heuristic.margin(game, after, mover)
        if margin > best + 1e-9:
            best, best_action, best_state = margin, action, after
    return best_action, best_state


def play_turn(game: Game, state: State, action: Action, heuristic: Heuristic) -> State:
    """The position after ``action`` and, if it opens a blank phase of the same mover, after
    the blanks the blank policy lays."""
    mover = state.to_move
    after = game._apply(state, action)
    while not after.over and after.phase == BLANKS_PHASE and after.to_move == mover:
        _, after = blank_step(game, after, heuristic)
    return after


# --- the tree ---------------------------------------------------------------------------------

@dataclass(slots=True, eq=False)
class Node:
    """A position in the tree: its one-look values, the sums of the values backed up through
    it, its actions by number (listed on the first visit), its children and how often each
    child was open when the node was visited (its availability)."""

    state: State
    values: list[float]
    visits: int = 1
    total: list[float] = field(default_factory=list)
    groups: dict[int | None, list[Action]] | None = None
    children: dict[Action, Node] = field(default_factory=dict)
    avail: dict[Action, int] = field(default_factory=dict)

    def mean(self, player: int) -> float:
        return self.total[player] / self.visits


class Search:
    """One search from one position, for one mover holding ``hand``."""

    def __init__(self, game: Game, heuristic: Heuristic, rng: random.Random,
                 budget: Budget) -> None:
        self.game = game
        self.heuristic = heuristic
        self.rng = rng
        self.budget = budget
        self.positions = 0
        self.clock_stop = False

    def node(self, state: State) -> Node:
        self.positions += 1
        values = self.heuristic.values(self.game, state)
        return Node(state, values, total=list(values))

    def open_actions(self, node: Node, hand: int | None) -> list[Action]:
        """The actions open at ``node`` on this visit: in a hidden-hand game those of the
        card in hand (``hand`` at the root, else drawn from the mover's supply)."""
        if node.groups is None:
            node.groups = group_by_number(candidates(self.game, node.state))
        groups = node.groups
        if len(groups) == 1 and None in groups:
            return groups[None]
        if hand is None and node.state.to_move is not None:
            supply = self.game.hand_supply(node.state, node.state.to_move)
            if supply:
                hand = draw(supply, self.rng)
        if hand in groups:
            return groups[hand]
        return [a for group in groups.values() for a in group]

    def expand(self, node: Node, actions: Sequence[Action]) -> list[float]:
        """Open every action of ``actions`` not yet in the tree; the value to back up is the
        best child for the mover."""
        mover = node.state.to_move
        assert mover is not None
        for action in actions:
            if action not in node.children:
                after = play_turn(self.game, node.state, action, self.heuristic)
                node.children[action] = self.node(after)
        best = max((node.children[a] for a in actions), key=lambda c: c.mean(mover))
        return [best.total[p] / best.visits for p in range(len(best.total))]

    def iterate(self, root: Node, hand: int | None) -> None:
        path = [root]
        node = root
        first = True
        while True:
            state = node.state
            if state.over or state.to_move is None:
                value = list(node.values)
                break
            actions = self.open_actions(node, hand if first else None)
            first = False
            if not actions:  # pragma: no cover - the rules always leave an action
                value = list(node.values)
                break
            if any(a not in node.children for a in actions):
                if not node.children and node is not root:
                    # Its replies now speak for it: drop the one-look estimate it was
                    # opened with, so that a move's value is what the replies leave of it.
                    node.visits = 0
                    node.total = [0.0] * len(node.total)
                value = self.expand(node, actions)
                break
            mover = state.to_move
            for a in actions:
                node.avail[a] = node.avail.get(a, 0) + 1
            best_action = actions[0]
            best_score = -math.inf
            for a in actions:
                child = node.children[a]
                score = child.mean(mover) + EXPLORATION * math.sqrt(
                    math.log(node.avail[a] + 1) / child.visits)
                if score > best_score:
                    best_score, best_action = score, a
            node = node.children[best_action]
            path.append(node)
        for visited in path:
            visited.visits += 1
            for p, v in enumerate(value):
                visited.total[p] += v

    def run(self, state: State, hand: int | None) -> tuple[Action, Node]:
        started = time.perf_counter()
        root = self.node(state)
        self.iterate(root, hand)
        rounds = 1
        while self.positions < self.budget.positions and rounds < 2 * self.budget.positions:
            # (the round limit ends a search whose whole tree is open: a game about to end)
            if time.perf_counter() - started > self.budget.seconds:
                self.clock_stop = True
                break
            self.iterate(root, hand)
            rounds += 1
        actions = self.open_actions(root, hand)
        mover = state.to_move
        assert mover is not None
        # Most visited first; among equals a move whose replies were looked at beats one
        # judged by a single look (whose value the replies have not yet lowered).
        best = max(actions, key=lambda a: (root.children[a].visits,
                                           bool(root.children[a].children),
                                           root.children[a].mean(mover)))
        return best, root.children[best]


# --- the levels -------------------------------------------------------------------------------

def decide(game: Game, state: State, *, level: str = "normal", seed: int = 0,
           hand: int | None = None, budget: Budget | None = None) -> Decision:
    """The mover's next action at ``level``, with what the search found (see ``choose``)."""
    if level not in LEVELS:
        raise EngineError(f"unknown level {level!r} (one of {', '.join(LEVELS)})")
    if state.over or state.to_move is None:
        raise EngineError("the game is over")
    budget = budget or DEFAULT_BUDGETS[level]
    rng = random.Random(seed)
    heuristic = heuristic_for(game)
    started = time.perf_counter()
    number = mover_hand(game, state, hand, rng)
    if state.phase == BLANKS_PHASE:
        action, after = blank_step(game, state, heuristic)
        return Decision(action, heuristic.values(game, after), 1,
                        time.perf_counter() - started, hand=number)
    actions = candidates(game, state)
    if number is not None:
        actions = [a for a in actions if action_number(a) == number]
    if not actions:  # pragma: no cover - a running game always has an action
        raise EngineError("no legal action")
    if level == "easy" and rng.random() < EASY_RANDOM:
        action = actions[rng.randrange(len(actions))]
        after = play_turn(game, state, action, heuristic)
        return Decision(action, heuristic.values(game, after), 1,
                        time.perf_counter() - started, hand=number)
    if budget.positions <= len(actions):
        action, values = _one_look(game, state, actions, heuristic)
        return Decision(action, values, len(actions), time.perf_counter() - started,
                        hand=number)
    if level == "strong" and heuristic.search == "expectimax":
        found = expectimax(game, state, actions, heuristic, budget)
        seconds = time.perf_counter() - started
        if found.clock_stop:
            log.warning("the %s search of %s stopped on the clock after %.2f s (%d positions "
                        "of %d)", level, game.id, budget.seconds, found.positions,
                        budget.positions)
        found.seconds, found.hand = seconds, number
        return found
    search = Search(game, heuristic, rng, budget)
    action, child = search.run(state, number)
    if search.clock_stop:
        log.warning("the %s search of %s stopped on the clock after %.2f s (%d positions of "
                    "%d)", level, game.id, budget.seconds, search.positions, budget.positions)
    values = [child.total[p] / child.visits for p in range(state.players)]
    return Decision(action, values, search.positions, time.perf_counter() - started,
                    search.clock_stop, hand=number)


def expectimax(game: Game, state: State, actions: Sequence[Action], heuristic: Heuristic,
               budget: Budget) -> Decision:
    """Two plies over the hidden cards: every action is looked at once; then, best first and
    as far as the budget goes, each is judged by the next player's best reply to every card
    they may hold, averaged by how many of that card they have left (the mover's own later
    cards do not matter here: the reply is the next player's). The action with the best
    average wins; an action the budget did not reach keeps its one-look rank below them.
    Deterministic: no card is drawn."""
    mover = state.to_move
    assert mover is not None
    started = time.perf_counter()
    looked = _looks(game, state, actions, heuristic, mover)
    positions = len(actions)
    best: tuple[float, float] | None = None
    _, chosen, _, chosen_values = looked[0]
    clock_stop = False
    for rank, ((_, margin), action, after, _values) in enumerate(looked):
        if rank >= 2 and positions >= budget.positions:
            break
        if rank >= 1 and time.perf_counter() - started > budget.seconds:
            clock_stop = True
            break
        expected, cost = _replies(game, after, mover, heuristic)
        positions += cost
        key = (expected[mover], margin)
        if best is None or key > best:
            best, chosen, chosen_values = key, action, expected
    return Decision(chosen, chosen_values, positions, clock_stop=clock_stop)


def _replies(game: Game, after: State, mover: int,
             heuristic: Heuristic) -> tuple[list[float], int]:
    """Every player's chance to win after the next player's best reply, averaged over the
    cards they may hold; and how many positions that looked at."""
    nxt = after.to_move
    if after.over or nxt is None or nxt == mover:
        return heuristic.values(game, after), 0
    groups = group_by_number(candidates(game, after))
    supply = game.hand_supply(after, nxt)
    weights: dict[int | None, int] = (
        {n: left for n, left in supply.items() if left > 0 and n in groups} if supply
        else {None: 1} if None in groups else {n: 1 for n in groups})
    total = sum(weights.values())
    expected = [0.0] * after.players
    cost = 0
    for number, weight in weights.items():
        replies = groups[number]
        reply_values = _looks(game, after, replies, heuristic, nxt)[0][3]
        cost += len(replies)
        for p, v in enumerate(reply_values):
            expected[p] += v * weight / total
    return expected, cost


Look = tuple[tuple[float, float], Action, State, list[float]]
"""One action looked at: its key for the player judging it (chance to win, then margin), the
action, the position after it and every player's values there."""


def _looks(game: Game, state: State, actions: Sequence[Action], heuristic: Heuristic,
           player: int) -> list[Look]:
    """Each action one look ahead, judged by ``player``: best first (equal keys keep the order
    of ``actions``)."""
    looked: list[Look] = []
    for action in actions:
        after = play_turn(game, state, action, heuristic)
        values = heuristic.values(game, after)
        looked.append(((values[player], heuristic.margin(game, after, player)), action, after,
                       values))
    looked.sort(key=lambda look: look[0], reverse=True)
    return looked


def _one_look(game: Game, state: State, actions: Sequence[Action],
              heuristic: Heuristic) -> tuple[Action, list[float]]:
    """The action whose position looks best to the mover after one look."""
    mover = state.to_move
    assert mover is not None
    _, action, _, values = _looks(game, state, actions, heuristic, mover)[0]
    return action, values


def choose(game: Game, state: State, *, level: str = "normal", seed: int = 0,
           hand: int | None = None, budget: Budget | None = None) -> Action:
    """A legal action for the player to move in ``state``.

    ``level`` is one of ``LEVELS``; ``seed`` makes the answer repeatable (same seed, same
    position, same action); ``hand`` is the mover's card or stone where the game hides it
    (None: drawn from the mover's supply with the seed). ``budget`` overrides the level's
    effort (``DEFAULT_BUDGETS``, or the config's ``[computer]`` section). ``EngineError``
    when the game is over, the level is unknown or the hand cannot be the mover's.
    """
    return decide(game, state, level=level, seed=seed, hand=hand, budget=budget).action
