"""The shape of a ruleset's scenario files, declared once as msgspec Structs: checked on load (unknown keys, types,
ranges, choices) and exported as JSON Schema, which a designer's editor (the YAML language server) uses to validate
and complete a scenario as it is typed.

The Structs say what each key may hold; the ruleset's loader (`config.py`) then reads the checked file into its
frozen dataclasses and checks what a schema cannot say (a group's feature on its own stripe, ids that must exist).
msgspec rather than pydantic: one small wheel without dependencies in the core install (pydantic brings
pydantic-core, annotated-types and typing-extensions), and it exports JSON Schema as well.
"""
from __future__ import annotations

import json
import re
import typing
from pathlib import Path

import msgspec

from .scenario import Fields

#: The first line of a scenario file that points the YAML language server at its schema.
SCHEMA_COMMENT = "# yaml-language-server: $schema={}"


class Spec(msgspec.Struct, forbid_unknown_fields=True, frozen=True):
    """A mapping in a scenario file: only the declared keys."""


class BasedOn:
    """A scenario file that is either whole (`whole`) or, when it names `key`, a variant of another scenario that
    gives only what it changes (`variant`: the same fields, none required but `key`). Checked as whichever it is;
    exported as one JSON Schema that picks by the key (if/then/else), so the editor checks both kinds of file."""

    def __init__(self, whole: type, variant: type, key: str = "based_on") -> None:
        self.whole, self.variant, self.key = whole, variant, key

    def spec_for(self, data) -> type:
        return self.variant if isinstance(data, dict) and self.key in data else self.whole


def check(f: Fields, spec):
    """The file's data as the Struct `spec` declares (a BasedOn pair: as whichever kind the file is, its defaults
    filled in); ScenarioError (file, line, field, what was expected) unless the data has that shape."""
    if isinstance(spec, BasedOn):
        spec = spec.spec_for(f.data)
    try:
        return msgspec.convert(f.data, spec, strict=True)
    except msgspec.ValidationError as err:
        raise _error(f, spec, str(err)) from None


_AT = re.compile(r"^(?P<text>.*?)(?: - at `(?P<key>key` in `)?\$(?P<path>[^`]*)`)?$")


def _error(f: Fields, spec: type, message: str):
    found = _AT.match(message)
    text, path = found["text"], _named(spec, f.data, found["path"] or "", bool(found["key"]))
    unknown = re.fullmatch(r"Object contains unknown field `(.+)`", text)
    if unknown:
        at = Fields({unknown[1]: None}, f.file, path, f.lines)
        at.unknown(_keys(spec, path))                     # raises, suggesting the nearest known key
    missing = re.fullmatch(r"Object missing required field `(.+)`", text)
    if missing:
        return f.error(_join(path, missing[1]), "a value (the field is missing)")
    if text.startswith("Invalid"):                      # a value outside a Literal or a tagged union's tags
        return f.error(path, "one of " + ", ".join(_choices(spec, path)), _value(f.data, path))
    expected = re.sub(r"^Expected ", "", re.sub(r", got (`[^`]+`|\d+)$", "", text))
    expected = re.sub(r"`(\w+) \| null`", r"`\1`", expected)     # `X | None`: null is the default, not what to write
    got = path.rpartition(".")[2] if found["key"] else _value(f.data, path)     # a bad key: the key itself
    return f.error(path or "<top>", _whole(expected, _meta(spec, path)) + (" as a key" if found["key"] else ""), got)


def _whole(expected: str, meta: dict) -> str:
    """msgspec names the one bound broken; a designer wants the whole range and what the value is ("an integer in
    1..10 (AS, UW-STAT-1)") and, for a list of fixed length, what its items are ("a list of 2 items ([x, y])")."""
    what = f" ({meta['description']})" if "description" in meta else ""
    if re.fullmatch(r"`(int|float)` [<>]=? \S+", expected):
        whole = "ge" in meta and "le" in meta
        return _plain(f"{expected.split()[0]} in {meta['ge']}..{meta['le']}" if whole else expected) + what
    length = re.fullmatch(r"`(array|str|object)` of length (<=|>=)? ?(\d+)", expected)
    if length is None:
        return _plain(expected)
    kind, bound, n = length[1], length[2], int(length[3])
    low = n if bound is None else meta.get("min_length", n if bound == ">=" else 0)
    high = n if bound is None else meta.get("max_length", n if bound == "<=" else None)
    whole, one, many = _SIZED[kind]
    return f"{whole} of {_count(low, high, one, many)}" + what


_SIZED = {"array": ("a list", "item", "items"), "str": ("a string", "character", "characters"),
          "object": ("a mapping", "entry", "entries")}


def _count(low: int, high: int | None, one: str, many: str) -> str:
    """2 items, 1..8 items, at most 1 item, at least 4 items."""
    counted = lambda k: f"{k} {one if k == 1 else many}"   # noqa: E731
    if high is None:
        return "at least " + counted(low)
    if low == high:
        return counted(low)
    return "at most " + counted(high) if low == 0 else f"{low}..{high} {many}"


def _plain(expected: str) -> str:
    """msgspec's `int` <= 100 as: an integer <= 100."""
    names = {"`int`": "an integer", "`str`": "a string", "`bool`": "true or false", "`float`": "a number",
             "`array`": "a list", "`object`": "a mapping of fields", "`int | null`": "an integer", "`str | null`": "a string"}
    for name, words in names.items():
        expected = expected.replace(name, words)
    return expected


def _meta(spec: type, path: str) -> dict:
    """The constraints (ge, le, min_length, max_length, description) declared on the field at `path` (msgspec Meta)."""
    *head, last = _steps(path) or [None]
    types = [spec]
    for step in head:
        types = [t for tp in types for option in _options(tp) for t in _inner(option, step)]
    found = (t for tp in types for option in _options(tp) for t in _inner(option, last))
    meta: dict = {}
    for declared in (member for t in found for member in _members(t)):     # `X | None`: X's constraints
        for m in typing.get_args(declared)[1:] if typing.get_origin(declared) is typing.Annotated else ():
            meta.update({k: getattr(m, k) for k in ("ge", "le", "min_length", "max_length", "description")
                         if getattr(m, k, None) is not None})
    return meta


def _members(tp) -> tuple:
    """The members of a union (Annotated kept), else (tp,)."""
    return typing.get_args(tp) if typing.get_origin(tp) in (typing.Union, _UnionType) else (tp,)


def _choices(spec: type, path: str) -> list[str]:
    """The values a Literal at `path` allows, or the tags of the tagged union whose tag field `path` is."""
    parent, _, last = path.rpartition(".")
    found = [str(a) for tp in _types_at(spec, path) if typing.get_origin(tp) is typing.Literal for a in typing.get_args(tp)]
    tags = [str(tp.__struct_config__.tag) for tp in _types_at(spec, parent)
            if hasattr(tp, "__struct_config__") and tp.__struct_config__.tag_field == last]
    return found or tags


def _named(spec: type, data, raw: str, at_key: bool) -> str:
    """msgspec's path with each mapping key it writes as `[...]` named: the first entry that fails, as msgspec
    checks entries in order ("weapons[...].cf" -> "weapons.smg.cf"); `at_key`: the error is about a key."""
    first, *rest = raw.split("[...]")
    path = first.lstrip(".")
    for tail in rest:
        path = _join(path, _failing_key(spec, data, path, False)) + tail
    return _join(path, _failing_key(spec, data, path, True)) if at_key else path


def _failing_key(spec: type, data, path: str, key_itself: bool) -> str:
    """The first key of the mapping at `path` whose key (or value) does not convert to the declared type."""
    mapping = _value(data, path) or {}
    kinds = [typing.get_args(tp) for tp in _types_at(spec, path) if _is_mapping(tp)]
    key_type, value_type = kinds[0] if kinds else (typing.Any, typing.Any)
    for key, value in mapping.items():
        try:
            msgspec.convert(key if key_itself else value, key_type if key_itself else value_type, strict=True)
        except msgspec.ValidationError:
            return str(key)
    return "[...]"


def _join(path: str, key: str) -> str:
    return f"{path}.{key}" if path else key


def _steps(path: str) -> list:
    return [int(i) if i else k for k, i in re.findall(r"([^.\[\]]+)|\[(\d+)\]", path)]


def _is_mapping(tp) -> bool:
    return typing.get_origin(tp) is dict


def _value(data, path: str):
    """The value at `path` in the file's data, or None; a mapping key written as digits may be a YAML integer."""
    for step in _steps(path):
        if isinstance(data, dict) and step not in data and str(step).isdigit():
            step = int(step)
        try:
            data = data[step]
        except (KeyError, IndexError, TypeError):
            return None
    return data


def _keys(spec: type, path: str) -> list[str]:
    """The keys the Struct at `path` below `spec` declares (a tagged union: every variant's, and its tag)."""
    types = _types_at(spec, path)
    keys = {name for tp in types for name in _fields(tp)}
    tags = {tp.__struct_config__.tag_field for tp in types if getattr(tp, "__struct_config__", None) and tp.__struct_config__.tag_field}
    return sorted(keys | tags)


def _types_at(spec: type, path: str) -> list:
    """The type(s) declared at `path` below `spec`, unions opened (a tagged union: each variant)."""
    types = [spec]
    for step in _steps(path):
        types = [t for tp in types for option in _options(tp) for t in _inner(option, step)]
    return [option for tp in types for option in _options(tp)]


def _inner(tp, step) -> list:
    """The type one step (a field name, a mapping's key, or a list index) below `tp`, if `tp` has that step."""
    if _is_mapping(tp):
        return [typing.get_args(tp)[1]]
    if isinstance(step, int):
        args = typing.get_args(tp)
        fixed = typing.get_origin(tp) is tuple and Ellipsis not in args      # tuple[int, int, str]: per position
        return [args[step]] if fixed and step < len(args) else list(args[-1:])
    name = _fields(tp).get(step)
    return [typing.get_type_hints(tp, include_extras=True)[name]] if name else []


def _fields(tp) -> dict[str, str]:
    """A Struct's keys as the file spells them -> its attribute names (`in` is the attribute `in_`)."""
    return dict(zip(getattr(tp, "__struct_encode_fields__", ()), getattr(tp, "__struct_fields__", ())))


def _bare(tp):
    while typing.get_origin(tp) is typing.Annotated:
        tp = typing.get_args(tp)[0]
    return tp


def _options(tp) -> list:
    """The members of a union (a tagged union of Structs, or `X | None`), else [tp]; Annotated unwrapped."""
    tp = _bare(tp)
    args = typing.get_args(tp)
    return [_bare(a) for a in args if a is not type(None)] if typing.get_origin(tp) in (typing.Union, _UnionType) else [tp]


_UnionType = type(int | str)


def json_schema(spec, title: str) -> dict:
    """The JSON Schema of `spec` (draft 2020-12), titled for the editor; a BasedOn pair: the variant's schema when
    the file names the key, else the whole scenario's."""
    if isinstance(spec, BasedOn):
        (whole, variant), defs = msgspec.json.schema_components((spec.whole, spec.variant))
        schema = {"if": {"required": [spec.key]}, "then": variant, "else": whole, "$defs": defs}
    else:
        schema = msgspec.json.schema(spec)
    return {"$schema": "https://json-schema.org/draft/2020-12/schema", "title": title, **schema}


def schema_text(spec, title: str) -> str:
    return json.dumps(json_schema(spec, title), indent=2, sort_keys=True) + "\n"


def write_schema(spec, title: str, path: Path) -> Path:
    path.write_text(schema_text(spec, title), encoding="utf-8")
    return path
