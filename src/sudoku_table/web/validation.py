"""Shape checks for request bodies and query parameters, from the OpenAPI document.

The document (``openapi.yaml``) is the one statement of every body and parameter: each
operation's ``requestBody`` schema and its query parameters are compiled once, when the app is
made, into JSON Schema Draft 2020-12 validators (``jsonschema``, the OpenAPI 3.1 dialect), and
every request is checked against its own operation before anything reaches the table. The
first error becomes one translated sentence naming the field, what it must be and what came
(``explain``), as precise as the hand-written checks it replaces.

The table and the rules judge whether an input makes sense in the game (is this square on this
board, is this number legal, is this a known game); only the shape is checked here.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

from flask import current_app, request
from jsonschema import Draft202012Validator, ValidationError, validators
from referencing import Registry
from referencing.jsonschema import DRAFT202012

from sudoku_table.rules.wording import N_
from sudoku_table.safejson import parse_json

from .errors import ApiError

MAX_DEPTH = 8
"""The deepest nesting of arrays and objects any request needs (a setup piece is depth 3)."""

DOCUMENT_URI = "urn:sudoku-table:openapi"
METHODS = ("get", "post", "put", "patch", "delete")
_ANCHORED_END = re.compile(r"(?<!\\)\$$")


def _whole(_checker: Any, instance: object) -> bool:
    """JSON Schema counts 3.0 as an integer; the table takes whole numbers written as such."""
    return isinstance(instance, int) and not isinstance(instance, bool)


def _pattern(validator: Any, pattern: str, instance: object, schema: Mapping[str, Any]) -> Any:
    """``pattern`` as ECMA-262 reads it: ``$`` ends the text (in Python it also matches before
    a final newline, which would let ``"a1\\n"`` pass as a square)."""
    if isinstance(instance, str) and not re.search(_ANCHORED_END.sub(r"\\Z", pattern),
                                                   instance):
        yield ValidationError(f"{instance!r} does not match {pattern!r}")


ShapeValidator = validators.extend(
    Draft202012Validator, {"pattern": _pattern},
    type_checker=Draft202012Validator.TYPE_CHECKER.redefine("integer", _whole))


@dataclass(frozen=True)
class Operation:
    """What one documented operation accepts: its body's validator (None: it takes no JSON
    body to check here) and its query parameters' validators by name."""

    body: Any = None
    query: Mapping[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class Shapes:
    """Every operation of the document, compiled; ``operation`` finds one by Flask rule."""

    operations: Mapping[tuple[str, str], Operation]
    named: Mapping[int, str]
    """The document's named schemas by the identity of their object (``Square``, ``Pin``):
    their errors are worded by name, not by keyword."""

    @classmethod
    def from_document(cls, document: Mapping[str, Any]) -> Shapes:
        registry: Registry[Any] = Registry().with_resource(
            DOCUMENT_URI, DRAFT202012.create_resource(dict(document)))

        def compile_(schema: Mapping[str, Any]) -> Any:
            ShapeValidator.check_schema(schema)
            return ShapeValidator(_rooted(schema), registry=registry)

        operations: dict[tuple[str, str], Operation] = {}
        components = document.get("components", {})
        for path, item in document.get("paths", {}).items():
            for method in METHODS:
                op = item.get(method)
                if not isinstance(op, dict):
                    continue
                body = None
                content = (_resolve(document, op.get("requestBody")) or {}).get("content", {})
                json_schema = content.get("application/json", {}).get("schema")
                if json_schema is not None:
                    body = compile_(json_schema)
                query = {}
                for parameter in op.get("parameters", []):
                    parameter = _resolve(document, parameter)
                    if parameter.get("in") == "query":
                        query[parameter["name"]] = compile_(parameter.get("schema", {}))
                operations[(path, method)] = Operation(body, query)
        named = {id(schema): name for name, schema in components.get("schemas", {}).items()}
        return cls(operations, named)

    def operation(self, rule: str | None, method: str) -> Operation:
        """The operation a Flask rule (``/api/games/<int:game_id>``) answers; a route the
        document does not hold (the pages) takes no query parameters and no body."""
        if rule is None:
            return Operation()
        path = re.sub(r"<(?:[^:<>]+:)?([^<>]+)>", r"{\1}", rule)
        return self.operations.get((path, method.lower()), Operation())


def _rooted(schema: Mapping[str, Any]) -> dict[str, Any]:
    """A schema of the document, its local references (``#/components/...``) pointed at the
    document itself."""
    def point(node: Any) -> Any:
        if isinstance(node, dict):
            return {k: (DOCUMENT_URI + v if k == "$ref" and isinstance(v, str)
                        and v.startswith("#") else point(v)) for k, v in node.items()}
        if isinstance(node, list):
            return [point(v) for v in node]
        return node
    return point(schema)


def _resolve(document: Mapping[str, Any], node: Any) -> Any:
    """A ``$ref`` of the document (a parameter, a request body) followed to what it names."""
    while isinstance(node, dict) and isinstance(node.get("$ref"), str):
        target: Any = document
        for part in node["$ref"].lstrip("#/").split("/"):
            target = target[part]
        node = target
    return node


@lru_cache(maxsize=1)
def compiled() -> Shapes:
    """The document's shapes, compiled once per process (the app keeps them from its start)."""
    from .api import openapi_document

    return Shapes.from_document(openapi_document())


def shapes() -> Shapes:
    return current_app.extensions["sudoku_table_shapes"]


def _current() -> Operation:
    rule = request.url_rule.rule if request.url_rule is not None else None
    return shapes().operation(rule, request.method)


# --- the checks ---------------------------------------------------------------------------------

def json_body() -> dict[str, Any]:
    """The request's JSON object, checked against its operation's ``requestBody`` schema; a
    clear 400 for anything else (413 for too large a body).

    The body is read once, up to ``MAX_CONTENT_LENGTH`` (Flask answers 413 beyond it)."""
    raw = request.get_data(cache=True)
    try:
        data = parse_json(raw, MAX_DEPTH)
    except ValueError as e:
        raise ApiError(f"the request body is {e}" if str(e).startswith("not ")
                       else str(e)) from None
    if not isinstance(data, dict):
        raise ApiError(N_("the request body must be a JSON object"))
    validator = _current().body
    if validator is not None:
        _refuse(validator.iter_errors(data))
    return data


def query() -> dict[str, str]:
    """The query parameters, checked against the operation's documented ones: known names
    only, each once, each value as its schema says."""
    allowed = _current().query
    args = request.args
    unknown = sorted(k for k in args if k not in allowed)
    if unknown:
        names = ", ".join(sorted(allowed)) or "none"
        raise ApiError(N_("unknown query parameter {unknown} (parameters: {names})"),
                       params={"unknown": repr(unknown[0]), "names": names})
    clean: dict[str, str] = {}
    for name, validator in allowed.items():
        values = args.getlist(name)
        if not values:
            continue
        if len(values) > 1:
            raise ApiError(N_("the query parameter {name} is given more than once"),
                           params={"name": repr(name)})
        if not validator.is_valid(values[0]):
            raise ApiError(N_("the query parameter {name} has a bad value {value}"),
                           params={"name": name, "value": _shown(values[0])})
        clean[name] = values[0]
    return clean


def _refuse(errors: Iterable[ValidationError]) -> None:
    found = sorted(errors, key=_order)
    if found:
        raise explain(found[0])


# --- the words of each error --------------------------------------------------------------------

ORDER = ("additionalProperties", "required")
"""Unknown fields are told first (a typo explains what follows), then missing ones."""


def _order(error: ValidationError) -> tuple[int, int, str]:
    rank = ORDER.index(error.validator) if error.validator in ORDER else len(ORDER)
    return rank, len(error.path), "/".join(map(str, error.path))


def _name(path: Iterable[Any]) -> str:
    """A field's name as a request writes it: ``names[2]``, ``setup.c3.owner``."""
    name = ""
    for part in path:
        name += f"[{part}]" if isinstance(part, int) else (f".{part}" if name else str(part))
    return name


def _shown(value: object) -> str:
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


NAMED = {
    "Square": N_("{name} must be a sensor square a1..i9, got {value}"),
    "PlayerName": N_("{name} must be text of at most 24 characters, spaces around it aside, "
                     "got {value}"),
    "Pin": N_("{name} must be the table's PIN as text of at most {most} digits, got {value}"),
}
"""The words for a value that breaks one of the document's named schemas."""


def explain(error: ValidationError) -> ApiError:
    """One error of the validator as the sentence a player or a client reads."""
    if error.validator in ("oneOf", "anyOf") and error.context:
        return _explain_choice(error)
    name = _name(error.absolute_path)
    schema = error.schema if isinstance(error.schema, dict) else {}
    instance = error.instance
    if error.validator == "additionalProperties":
        allowed = sorted(schema.get("properties", {}))
        unknown = sorted(k for k in instance if k not in allowed)
        # Only whole bodies are closed: a nested object's name would go in front.
        return ApiError(N_("the request has no field {unknown} (fields: {items})"),
                        params={"unknown": repr(unknown[0]),
                                "items": ", ".join(allowed) or "none"})
    if error.validator == "required":
        missing = [k for k in schema.get("required", []) if k not in instance]
        return ApiError(N_("the request needs {missing}") if not name
                        else N_("{name} needs {missing}"),
                        params={"name": name, "missing": repr(missing[0])})
    if "propertyNames" in error.schema_path:
        return ApiError(N_("{name} cannot have the key {value}"),
                        params={"name": name, "value": _shown(instance)})
    if error.validator == "maxProperties":
        return ApiError(N_("{name} can hold at most {most} entries"),
                        params={"name": name, "most": schema["maxProperties"]})
    if error.validator == "uniqueItems":
        return ApiError(N_("{name} cannot hold the same value twice, got {value}"),
                        params={"name": name, "value": _shown(instance)})
    return _requirement(name, schema, instance)


def _explain_choice(error: ValidationError) -> ApiError:
    """A ``oneOf``: the branch the value meant is the one it does not fail at the top (its
    kind: ``type`` at the value, a ``const`` or ``enum`` of a field like an input's ``type``);
    with no such branch, the kind itself is wrong."""
    branches: dict[int, list[ValidationError]] = {}
    for sub in error.context or ():
        branches.setdefault(sub.relative_schema_path[0], []).append(sub)
    if all(s.validator == "required" for subs in branches.values() for s in subs):
        wanted = [k for subs in branches.values() for s in subs for k in s.validator_value
                  if k not in s.instance]
        return ApiError(N_("the request needs one of {choices}"),
                        params={"choices": ", ".join(wanted)})
    meant = {index: subs for index, subs in branches.items() if not any(
        (s.validator == "type" and not s.relative_path)
        or (s.validator in ("const", "enum") and len(s.relative_path) == 1) for s in subs)}
    if meant:
        return explain(sorted(next(iter(meant.values())), key=_order)[0])
    kinds = [s for subs in branches.values() for s in subs
             if s.validator in ("const", "enum") and len(s.relative_path) == 1]
    if kinds:
        choices: list[Any] = []
        for s in kinds:
            choices += [s.validator_value] if s.validator == "const" else list(s.validator_value)
        return ApiError(N_("unknown {name} {value} (one of {choices})"),
                        params={"name": _name(kinds[0].absolute_path),
                                "value": _shown(kinds[0].instance),
                                "choices": ", ".join(map(str, choices))})
    last = branches[max(branches)]
    return explain(sorted(last, key=_order)[0])


def _requirement(name: str, schema: Mapping[str, Any], instance: object) -> ApiError:
    """What a value must be, from the schema it breaks."""
    params: dict[str, Any] = {"name": name, "value": _shown(instance)}
    named = shapes().named.get(id(schema))
    if named in NAMED:
        return ApiError(NAMED[named], params={**params, "most": schema.get("maxLength")})
    kinds = schema.get("type")
    kinds = [kinds] if isinstance(kinds, str) else list(kinds or [])
    if "enum" in schema or "const" in schema:
        choices = schema.get("enum", [schema.get("const")])
        return ApiError(N_("{name} must be one of {choices}, got {value}"),
                        params={**params, "choices": ", ".join(
                            str(c) for c in choices if c is not None)})
    if "boolean" in kinds:
        return ApiError(N_("{name} must be true or false, got {value}"), params=params)
    if "integer" in kinds or "number" in kinds:
        bounds = {"low": schema.get("minimum"), "high": schema.get("maximum")}
        if bounds["low"] is not None and bounds["high"] is not None:
            return ApiError(N_("{name} must be a whole number from {low} to {high}, got {value}")
                            if "integer" in kinds else
                            N_("{name} must be a number from {low} to {high}, got {value}"),
                            params={**params, **bounds})
        return ApiError(N_("{name} must be a whole number, got {value}"), params=params)
    if "string" in kinds:
        if "maxLength" in schema:
            return ApiError(N_("{name} must be text of at most {most} characters, got {value}"),
                            params={**params, "most": schema["maxLength"]})
        return ApiError(N_("{name} must be text, got {value}"), params=params)
    if "array" in kinds:
        return ApiError(N_("{name} must be a list of at most {most} items, got {value}"),
                        params={**params, "most": schema.get("maxItems", "any")})
    if "object" in kinds:
        return ApiError(N_("{name} must be an object, got {value}"), params=params)
    return ApiError(N_("{name} has a bad value {value}"), params=params)  # a keyword not used yet
