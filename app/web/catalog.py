"""What the panel knows about the games: names, player counts, options, boards and rules text.

Everything comes from the variant registry, so a new variant shows up on the panel without a
change here. A variant that has no summary of its own gets the short description below.
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path
from typing import Any

from app.rules.errors import RulesError, UnknownVariantError
from app.rules.game import Game, all_variants, new_game, variant_class

from .errors import ApiError

RULES_TEXT_DIR = Path(__file__).resolve().parent.parent / "rules" / "text"

FAMILIES: dict[str, str] = {
    "halma-dominari": "DOMINARI",
    "vierer-dominari": "DOMINARI",
    "revers-dominari": "DOMINARI",
    "score-dominari": "DOMINARI",
    "classic-sudoku": "KOSMOS SUDOKU",
    "labyrinth-sudoku": "KOSMOS SUDOKU",
    "killer-sudoku": "KOSMOS SUDOKU",
    "kakuro": "KOSMOS SUDOKU",
    "3d-sudoku": "KOSMOS SUDOKU",
    "hexa-sudoku": "KOSMOS SUDOKU",
    "duell-der-meister": "Duell der Meister",
    "sudoku-family": "SUDOKU FAMILY",
}

DESCRIPTIONS: dict[str, str] = {
    "halma-dominari": "Race your six pieces across the 6x6 board and off its far corner, "
                      "stepping and jumping forwards without breaking the Sudoku rule.",
    "vierer-dominari": "Place numbers 1-5 next to the pieces on the board; four of your pieces "
                       "in a row or a full 2x2 block wins.",
    "revers-dominari": "Enclose your opponent's pieces to turn them over to your colour; "
                       "complete blocks and lines of your colour to score.",
    "score-dominari": "Grow your colour from your corner and score blocks, ranks and files "
                      "made only of your pieces.",
    "classic-sudoku": "Take turns placing cards on the 9x9 Sudoku; finishing a short line "
                      "inside a block scores for whoever holds most of it.",
    "labyrinth-sudoku": "Classic play on a board of nine irregular regions.",
    "killer-sudoku": "The board is split into small cages; every finished cage scores.",
    "kakuro": "Cards fill the white runs of a Kakuro grid; with clues, a run may not pass its "
              "sum.",
    "3d-sudoku": "Three faces of a cube, with lines that turn the corner from face to face.",
    "hexa-sudoku": "A hexagonal board with lines in three directions and coloured regions.",
    "duell-der-meister": "Two players fight for the ranks, files and blocks of a Sudoku seeded "
                         "with nine gold cards; twelve markers win.",
    "sudoku-family": "Draw numbered stones from the bag and place them on a star of six "
                     "triangles; completed triangles and lines score.",
}

PLAYER_LABELS: dict[str, list[str]] = {family: [] for family in FAMILIES.values()}
PLAYER_LABELS["DOMINARI"] = ["White", "Black"]


def known_variant_ids() -> list[str]:
    return [cls.id for cls in all_variants()]


def describe(cls: type[Game]) -> dict[str, Any]:
    """One entry of GET /api/variants."""
    options = {
        key: {"default": default, "choices": list(cls.option_choices.get(key, ()))}
        for key, default in cls.option_defaults.items()
    }
    return {
        "id": cls.id,
        "name": cls.name,
        "family": FAMILIES.get(cls.id, cls.name),
        "players": [cls.min_players, cls.max_players],
        "options": options,
        "description": cls.summary or DESCRIPTIONS.get(cls.id, ""),
        "default_names": default_player_names(cls.id, cls.max_players),
        "has_setup": _has_default_setup(cls.id),
        "rules": rules_path(cls.id).is_file(),
    }


def variants() -> list[dict[str, Any]]:
    return [describe(cls) for cls in all_variants()]


def default_player_names(variant_id: str, players: int) -> list[str]:
    """White and Black in the DOMINARI games, Player 1..4 elsewhere."""
    labels = PLAYER_LABELS.get(FAMILIES.get(variant_id, ""), [])
    return [labels[i] if i < len(labels) else f"Player {i + 1}" for i in range(players)]


@lru_cache(maxsize=64)
def _geometry_json(variant_id: str, options_key: tuple[tuple[str, Any], ...]) -> dict[str, Any]:
    game = new_game(variant_id, None, dict(options_key))
    return game.geometry.to_json()


def check_variant(variant_id: str) -> type[Game]:
    """The variant class; a 404 naming the known ids for anything else."""
    try:
        return variant_class(variant_id)
    except UnknownVariantError as e:
        raise ApiError(str(e), 404) from None


def geometry(variant_id: str, options: dict[str, Any] | None = None) -> dict[str, Any]:
    """GET /api/variants/ID: the board (cached: geometries never change)."""
    check_variant(variant_id)
    key = tuple(sorted((options or {}).items()))
    try:
        hash(key)
    except TypeError:
        raise RulesError("option values must be plain text or numbers") from None
    return _geometry_json(variant_id, key)


@lru_cache(maxsize=32)
def _has_default_setup(variant_id: str) -> bool:
    try:
        return bool(new_game(variant_id).default_setup())
    except (RulesError, NotImplementedError):
        return False


def proposed_setup(variant_id: str, seed: int | None) -> dict[str, Any]:
    """The variant's setup: its documented default, or with a seed a random proposal."""
    game = new_game(variant_id)
    return {c: p.to_json() for c, p in game.default_setup(seed).items()}


def rules_path(variant_id: str) -> Path:
    return RULES_TEXT_DIR / f"{variant_id}.md"


def rules_text(variant_id: str) -> str | None:
    """The variant's rules in Markdown, or None when they are not written yet."""
    path = rules_path(variant_id)
    try:
        return path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        return None
