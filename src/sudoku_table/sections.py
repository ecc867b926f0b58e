"""The config file's sections as pydantic models, and one line naming the key for a bad value.

Every layer declares its own section (``[leds]``, ``[panel]``, ``[computer]``, ...) as a
:class:`Section`: a frozen model whose fields carry their type, default, bounds and choices, and
whose docstrings describe them. pydantic checks a parsed TOML file against them and yields the
JSON schema the docs publish (``docs/config.schema.json``). Its errors are turned here into the
table's own one-line messages (``leds.brightness must be between 0 and 1, got 1.5``), so a bad
config reads the same whichever layer owns the key.
"""

from __future__ import annotations

import typing
from collections.abc import Sequence
from typing import Any

from pydantic import BaseModel, ConfigDict, ValidationError
from pydantic.fields import FieldInfo
from pydantic_core import ErrorDetails, PydanticCustomError


class Section(BaseModel):
    """One section of the config file: every key known, every value checked, nothing changed
    after loading."""

    model_config = ConfigDict(frozen=True, extra="forbid", use_attribute_docstrings=True,
                              validate_default=False)


class Says:
    """Metadata for ``Annotated``: what a value of this field must be, in words, for the
    message of a bad value (``must be a GPIO number from 0 to 27``). A value of the wrong type
    gets ``wrong_type`` (``always``: the same words), else the plain type's words (``must be a
    whole number``)."""

    __slots__ = ("words", "wrong_type")

    def __init__(self, words: str, *, always: bool = False,
                 wrong_type: str | None = None) -> None:
        self.words = words
        self.wrong_type = words if always else wrong_type

    def __repr__(self) -> str:
        return f"Says({self.words!r})"


_TYPE_WORDS = {
    "int_type": "must be a whole number", "int_from_float": "must be a whole number",
    "int_parsing": "must be a whole number",
    "float_type": "must be a number", "float_parsing": "must be a number",
    "finite_number": "must be a finite number",
    "bool_type": "must be true or false", "bool_parsing": "must be true or false",
    "string_type": "must be text in quotes",
    "list_type": "must be a list", "tuple_type": "must be a list",
    "dict_type": "must be a table of keys and values",
}


def whole_number(value: object) -> object:
    """A ``BeforeValidator`` refusing anything but a whole number (``90.0``, ``true``) before a
    ``Literal`` of whole numbers, which on its own would take ``90.0`` for ``90``."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise PydanticCustomError("int_type", "Input should be a valid integer")
    return value


class ConfigProblem(ValueError):
    """A check that needs more than one key, raised from a model validator: its text is the
    whole message (it names the keys itself)."""


def _metadata(model: type[BaseModel], loc: Sequence[int | str]) -> tuple[list[Any], Any]:
    """The metadata and the type of the field (or list item) at ``loc`` under ``model``."""
    metadata: list[Any] = []
    annotation: Any = model
    for part in loc:
        if isinstance(annotation, type) and issubclass(annotation, BaseModel):
            field: FieldInfo | None = annotation.model_fields.get(str(part))
            if field is None:
                return [], None
            metadata, annotation = list(field.metadata), field.annotation
        elif typing.get_origin(annotation) in (tuple, list, dict):  # an item or a value
            args = typing.get_args(annotation)
            annotation = (args[-1] if typing.get_origin(annotation) is dict else args[0]) \
                if args else None
            metadata = []
            if typing.get_origin(annotation) is typing.Annotated:
                annotation, *extra = typing.get_args(annotation)
                metadata = list(extra)
                for item in extra:
                    if isinstance(item, FieldInfo):
                        metadata += item.metadata
        else:
            return [], None
    return metadata, annotation


def _key(prefix: str, loc: Sequence[int | str]) -> str:
    key = prefix
    for part in loc:
        key += f"[{part}]" if isinstance(part, int) else (f".{part}" if key else str(part))
    return key


def _bound_words(kind: str, metadata: list[Any], annotation: Any, ctx: dict[str, Any]) -> str:
    low = next((m.ge for m in metadata if hasattr(m, "ge")), None)
    high = next((m.le for m in metadata if hasattr(m, "le")), None)
    if kind == "greater_than":
        return f"must be greater than {ctx['gt']:g}"
    if low is not None and high is not None:
        if annotation is int:
            return f"must be from {low} to {high}"
        return f"must be between {low:g} and {high:g}"
    if kind == "greater_than_equal":
        return f"must be at least {ctx['ge']:g}"
    return f"must be at most {ctx['le']:g}"


def explain(error: ErrorDetails, model: type[BaseModel], prefix: str = "") -> str:
    """One line for one of pydantic's errors: the key, what it must be, what it was."""
    loc = error["loc"]
    kind = error["type"]
    ctx: dict[str, Any] = dict(error.get("ctx") or {})
    key = _key(prefix, loc)
    if kind == "value_error" and isinstance(ctx.get("error"), ConfigProblem):
        return str(ctx["error"])
    if kind == "extra_forbidden":
        metadata, parent = _metadata(model, loc[:-1])
        known = ", ".join(parent.model_fields) if isinstance(parent, type) and issubclass(
            parent, BaseModel) else ""
        if not prefix and len(loc) == 1:
            return f"unknown section [{loc[0]}] (known: {known})"
        return f"unknown key {key} (known: {known})"
    metadata, annotation = _metadata(model, loc)
    says = next((m for m in metadata if isinstance(m, Says)), None)
    got = repr(error["input"])
    if isinstance(annotation, type) and issubclass(annotation, BaseModel) and kind in (
            "model_type", "model_attributes_type", "dict_type"):
        return f"{key} must be a section ([{key}]), got {got}"
    if says is not None and kind in _TYPE_WORDS and says.wrong_type:
        words = says.wrong_type
    elif says is not None and kind not in _TYPE_WORDS:
        words = says.words
    elif kind in _TYPE_WORDS:
        words = _TYPE_WORDS[kind]
    elif kind in ("too_short", "too_long"):
        low = next((m.min_length for m in metadata if hasattr(m, "min_length")), None)
        high = next((m.max_length for m in metadata if hasattr(m, "max_length")), None)
        count = low if low == high else ctx.get("min_length", ctx.get("max_length"))
        exactly = "exactly" if low == high else ("at least" if kind == "too_short" else "at most")
        return f"{key} must list {exactly} {count} values, got {ctx.get('actual_length')}"
    elif kind == "literal_error":
        choices = typing.get_args(annotation) if typing.get_origin(annotation) is typing.Literal \
            else ()
        listed = ", ".join(repr(c) for c in choices) or ctx.get("expected", "")
        words = f"must be one of {listed}"
    elif kind in ("greater_than", "greater_than_equal", "less_than_equal"):
        words = _bound_words(kind, metadata, annotation, ctx)
    else:
        words = f"is not right: {error['msg']}"
    return f"{key} {words}, got {got}"


def first_problem(error: ValidationError, model: type[BaseModel], prefix: str = "") -> str:
    """The one line for the first of ``error``'s problems (a config stops at its first)."""
    return explain(error.errors()[0], model, prefix)
