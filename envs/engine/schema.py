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


def check(f: Fields, spec: type) -> None:
    """ScenarioError (file, line, field, what was expected) unless the file's data has the shape `spec` declares."""
    try:
        msgspec.convert(f.data, spec, strict=True)
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
    expected = re.sub(r"^Expected ", "", re.sub(r", got `\w+`$", "", text))
    got = path.rpartition(".")[2] if found["key"] else _value(f.data, path)     # a bad key: the key itself
    return f.error(path or "<top>", _plain(expected) + (" as a key" if found["key"] else ""), got)


def _plain(expected: str) -> str:
    """msgspec's `int` <= 100 as: an integer <= 100."""
    names = {"`int`": "an integer", "`str`": "a string", "`bool`": "true or false", "`float`": "a number",
             "`array`": "a list", "`object`": "a mapping of fields", "`int | null`": "an integer", "`str | null`": "a string"}
    for name, words in names.items():
        expected = expected.replace(name, words)
    return expected


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
    keys = {name for tp in types for name in getattr(tp, "__struct_fields__", ())}
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
        return list(typing.get_args(tp)[-1:])
    return [typing.get_type_hints(tp, include_extras=True)[step]] if step in getattr(tp, "__struct_fields__", ()) else []


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


def json_schema(spec: type, title: str) -> dict:
    """The JSON Schema of `spec` (draft 2020-12), titled for the editor."""
    schema = msgspec.json.schema(spec)
    return {"$schema": "https://json-schema.org/draft/2020-12/schema", "title": title, **schema}


def schema_text(spec: type, title: str) -> str:
    return json.dumps(json_schema(spec, title), indent=2, sort_keys=True) + "\n"


def write_schema(spec: type, title: str, path: Path) -> Path:
    path.write_text(schema_text(spec, title), encoding="utf-8")
    return path
