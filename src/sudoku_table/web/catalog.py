"""What the panel knows about the games: names, player counts, options, boards and rules text.

Everything comes from the variant registry and what each variant declares about itself
(``Game.traits``), so a new variant shows up on the panel without a change here.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from functools import lru_cache
from pathlib import Path
from typing import Any

from sudoku_table.rules.drawing import drawing
from sudoku_table.rules.errors import RulesError, UnknownVariantError
from sudoku_table.rules.game import Game, all_variants, new_game, variant_class
from sudoku_table.rules.wording import N_

from . import i18n
from .errors import ApiError

RULES_TEXT_DIR = Path(__file__).resolve().parent.parent / "rules" / "text"

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
        "family": cls.family or cls.name,
        "players": [cls.min_players, cls.max_players],
        "options": options,
        "description": cls.summary,
        "default_names": default_player_names(cls.id, cls.max_players),
        "has_setup": _has_default_setup(cls.id) and not cls.setup_from_options,
        "rules": rules_path(cls.id).is_file(),
        "traits": cls.traits(),
    }


def variants() -> list[dict[str, Any]]:
    return [describe(cls) for cls in all_variants()]


def seat_names(variant_id: str, players: int, names: list[str] | None,
               computers: Mapping[str, str] | None = None) -> list[str]:
    """The players' names as typed, each empty or missing one replaced by its seat's name; a
    computer's seat is "Computer (strong)" in the request's language."""
    from sudoku_table.table.computer import COMPUTER_NAME, LEVEL_WORDS

    typed = list(names or [])[:players]
    typed += [""] * (players - len(typed))
    result = [n or d for n, d in zip(typed, default_player_names(variant_id, players),
                                     strict=True)]
    for seat, level in (computers or {}).items():
        if seat.isdigit() and int(seat) < players and level in LEVEL_WORDS:
            result[int(seat)] = i18n.translate(COMPUTER_NAME,
                                               level=i18n.translate(LEVEL_WORDS[level]))
    return result


def default_player_names(variant_id: str, players: int) -> list[str]:
    """The seats' names by the colour of their pieces (White and Black in the DOMINARI games),
    else Player 1..4."""
    try:
        labels = variant_class(variant_id).player_labels
    except UnknownVariantError:
        labels = ()
    return [labels[i] if i < len(labels) else f"Player {i + 1}" for i in range(players)]


@lru_cache(maxsize=64)
def _geometry_json(variant_id: str, options_key: str) -> dict[str, Any]:
    game = new_game(variant_id, None, json.loads(options_key))
    return {**game.geometry.to_json(), "drawing": drawing(game.geometry).to_json()}


def check_variant(variant_id: str) -> type[Game]:
    """The variant class; a 404 naming the known ids for anything else."""
    try:
        return variant_class(variant_id)
    except UnknownVariantError as e:
        raise ApiError(str(e), 404) from None


def geometry(variant_id: str, options: dict[str, Any] | None = None) -> dict[str, Any]:
    """GET /api/variants/ID: the board (cached: geometries never change)."""
    check_variant(variant_id)
    try:
        key = json.dumps(options or {}, sort_keys=True)
    except (TypeError, ValueError):
        raise RulesError(N_("option values must be plain text or numbers")) from None
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


def rules_path(variant_id: str, language: str = "en") -> Path:
    """The rules text of a variant in ``language``: ``text/ID.md`` in English (the language of
    the code), ``text/LANG/ID.md`` in another."""
    if language != "en":
        translated = RULES_TEXT_DIR / language / f"{variant_id}.md"
        if translated.is_file():
            return translated
    return RULES_TEXT_DIR / f"{variant_id}.md"


def rules_text(variant_id: str, language: str = "en") -> str | None:
    """The variant's rules in Markdown in ``language`` (English where that language has no
    text of its own), or None when they are not written yet."""
    path = rules_path(variant_id, language)
    try:
        return path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        return None


def variant_name(variant_id: str) -> str:
    """The game's own name, or the id when it is not a known variant."""
    try:
        return variant_class(variant_id).name
    except UnknownVariantError:
        return variant_id
