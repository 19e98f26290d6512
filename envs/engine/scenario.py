"""Load and validate YAML scenarios and tables; a bad file fails naming the file, the field and what was expected.

Rulesets read their files through `Fields`, which tracks where in the file it is:

    f = Fields.load("configs/rifles/scenarios/block_six.yaml")
    turns = f.int("turns", min=1, default=10)
    for g in f.list("player.groups"): ...
"""
from __future__ import annotations

import difflib
import json
from pathlib import Path

import yaml

#: A wrong value is quoted up to this many characters, so that the error stays one readable line.
SHOWN_VALUE = 80


class ScenarioError(ValueError):
    """A scenario or table file is missing a field or has a wrong value; its message is one line."""

    def __init__(self, file: str, field: str, expected: str, got=None, line: int | None = None) -> None:
        self.file, self.field, self.expected, self.line = file, field, expected, line
        got_text = "" if got is None else f", got {_shown(got)}"
        where = file if line is None else f"{file}:{line}"
        super().__init__(f"{where}: field '{field}': expected {expected}{got_text}")


def _shown(value) -> str:
    if isinstance(value, _Unknown):
        return value
    text = repr(value)
    return text if len(text) <= SHOWN_VALUE else text[:SHOWN_VALUE - 3] + "..."


class _Unknown(str):
    """A 'got' text shown as is, not quoted: "an unknown one (did you mean 'turns'? known: ...)"."""


def _yaml_error(path: Path, err: yaml.YAMLError) -> ScenarioError:
    """A YAML syntax error in one line, with the line and column PyYAML found it at."""
    mark = getattr(err, "problem_mark", None)
    problem = " ".join(filter(None, (getattr(err, "context", None), getattr(err, "problem", None)))) or str(err)
    line = None if mark is None else mark.line + 1
    column = "" if mark is None else f" (column {mark.column + 1})"
    return ScenarioError(str(path), "<file>", f"valid YAML{column}", _Unknown(" ".join(problem.split())), line)


class _AliasError(yaml.YAMLError):
    """An alias met while composing: a few bytes of nested aliases expand to gigabytes (the "billion laughs")."""

    def __init__(self, mark) -> None:
        super().__init__()
        self.problem_mark = mark


class _NoAliasLoader(yaml.SafeLoader):
    """PyYAML's safe loader that refuses every alias (*name) before expanding it: no committed config uses one."""

    def compose_node(self, parent, index):
        if self.check_event(yaml.AliasEvent):
            raise _AliasError(self.peek_event().start_mark)
        return super().compose_node(parent, index)


def _read_yaml(path: Path):
    """(the document's node, its data) of a YAML file without aliases; ScenarioError in one line naming the file."""
    try:
        text = path.read_text(encoding="utf-8")
        loader = _NoAliasLoader(text)
        try:
            node = loader.get_single_node()
            data = None if node is None else loader.construct_document(node)
        finally:
            loader.dispose()
    except FileNotFoundError:
        raise ScenarioError(str(path), "<file>", "an existing YAML file") from None
    except (OSError, UnicodeDecodeError) as err:
        raise ScenarioError(str(path), "<file>", "a readable UTF-8 YAML file", _Unknown(str(err))) from None
    except _AliasError as err:
        raise ScenarioError(str(path), "<file>", "YAML without aliases (*name): spell every value out",
                            _Unknown(f"an alias (column {err.problem_mark.column + 1})"), err.problem_mark.line + 1) from None
    except yaml.YAMLError as err:
        raise _yaml_error(path, err) from None
    return node, data


def load_yaml(path):
    """The data of a YAML file, read as every config is (no aliases); ScenarioError in one line naming the file.
    The one place the project reads YAML: a loader elsewhere calls this."""
    return _read_yaml(Path(path))[1]


def _node_lines(node, path: str, lines: dict) -> None:
    """Record the 1-based line of every field path below `node` ("player.groups[0].units[1]")."""
    lines.setdefault(path, node.start_mark.line + 1)
    if isinstance(node, yaml.MappingNode):
        for key, value in node.value:
            child = f"{path}.{key.value}" if path else str(key.value)
            lines.setdefault(child, key.start_mark.line + 1)   # the key's line, not its value's
            _node_lines(value, child, lines)
    elif isinstance(node, yaml.SequenceNode):
        for i, value in enumerate(node.value):
            _node_lines(value, f"{path}[{i}]", lines)


def _parent(path: str) -> str:
    """The enclosing field path: "a.b[2]" -> "a.b", "a.b" -> "a", "a" -> ""."""
    cut = max(path.rfind("."), path.rfind("[") if path.endswith("]") else -1)
    return path[:cut] if cut > 0 else ""


_MISSING = object()


class Fields:
    """A mapping read field by field, with the file name and dotted path for errors."""

    def __init__(self, data, file: str, path: str = "", lines: dict | None = None) -> None:
        self.data, self.file, self.path, self.lines = data, file, path, lines if lines is not None else {}
        if not isinstance(data, dict):
            raise ScenarioError(file, path or "<top>", "a mapping of fields", type(data).__name__, self.line_of(path))

    @classmethod
    def load(cls, path) -> Fields:
        """Read a YAML file; a missing or unreadable file or a YAML syntax error is a ScenarioError too."""
        path = Path(path)
        node, data = _read_yaml(path)
        lines: dict = {}
        if node is not None:
            _node_lines(node, "", lines)
        return cls(data if data is not None else {}, str(path), "", lines)

    def where(self, key: str) -> str:
        return f"{self.path}.{key}" if self.path else str(key)

    def line_of(self, path: str) -> int | None:
        """The line of a field path in the file, else of the nearest enclosing field that has one."""
        while path not in self.lines and path:
            path = _parent(path)
        return self.lines.get(path)

    def error(self, key: str, expected: str, got=None) -> ScenarioError:
        return ScenarioError(self.file, self.where(key), expected, got, self.line_of(self.where(key)))

    def has(self, key: str) -> bool:
        return key in self.data

    def raw(self, key: str, default=_MISSING):
        if key in self.data:
            return self.data[key]
        if default is _MISSING:
            raise self.error(key, "a value (the field is missing)")
        return default

    def int(self, key: str, *, min=None, max=None, default=_MISSING) -> int:
        value = self.raw(key, default)
        if isinstance(value, bool) or not isinstance(value, int):
            raise self.error(key, "an integer", value)
        if (min is not None and value < min) or (max is not None and value > max):
            raise self.error(key, f"an integer in {min if min is not None else '-inf'}..{max if max is not None else 'inf'}", value)
        return value

    def number(self, key: str, *, min=None, default=_MISSING) -> float:
        value = self.raw(key, default)
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            raise self.error(key, "a number", value)
        if min is not None and value < min:
            raise self.error(key, f"a number >= {min}", value)
        return float(value)

    def bool(self, key: str, *, default=_MISSING) -> bool:
        value = self.raw(key, default)
        if not isinstance(value, bool):
            raise self.error(key, "true or false", value)
        return value

    def str(self, key: str, *, default=_MISSING) -> str:
        value = self.raw(key, default)
        if not isinstance(value, str):
            raise self.error(key, "a string", value)
        return value

    def choice(self, key: str, options, *, default=_MISSING):
        value = self.raw(key, default)
        if value not in options:
            raise self.error(key, "one of " + ", ".join(map(str, options)), value)
        return value

    def sub(self, key: str, *, default=_MISSING) -> Fields:
        value = self.raw(key, default)
        if not isinstance(value, dict):
            raise self.error(key, "a mapping of fields", value)
        return Fields(value, self.file, self.where(key), self.lines)

    def list(self, key: str, *, default=_MISSING, min_len: int = 0) -> list:
        value = self.raw(key, default)
        if not isinstance(value, list):
            raise self.error(key, "a list", value)
        if len(value) < min_len:
            raise self.error(key, f"a list of at least {min_len} items", value)
        return value

    def items(self, key: str, *, default=_MISSING, min_len: int = 0) -> list[Fields]:
        """A list of mappings, each as Fields with its index in the path."""
        values = self.list(key, default=default, min_len=min_len)
        return [Fields(v, self.file, f"{self.where(key)}[{i}]", self.lines) for i, v in enumerate(values)]

    def unknown(self, allowed) -> None:
        """Fail on keys not in `allowed` (catches typos such as `turn:` for `turns:`), suggesting the nearest."""
        known = sorted(map(str, allowed))
        for key in self.data:
            if key not in allowed:
                near = difflib.get_close_matches(str(key), known, n=1)
                hint = f"did you mean '{near[0]}'? " if near else ""
                raise self.error(str(key), "a known field", _Unknown(f"an unknown one ({hint}known: {', '.join(known)})"))


def yaml_files(folder: Path) -> dict[str, str]:
    """Every YAML file in `folder`, by name (its stem); ScenarioError if the folder is missing (e.g. a RUBBLE_CONFIGS
    tree without this ruleset's folder), so that an empty list never hides a misplaced tree."""
    if not Path(folder).is_dir():
        raise ScenarioError(str(folder), "<folder>", "a folder of YAML files (is RUBBLE_CONFIGS the configs/ folder?)")
    return {p.stem: str(p) for p in sorted(Path(folder).glob("*.yaml"))}


def loadable(files: dict[str, str], load) -> dict[str, object]:
    """name -> `load(path)` for each of `files` (name -> path) that loads: a broken file fails only where it is used
    (its scenario played, its tables named), not every env's observation spaces, which are built from all the rest."""
    loaded = {}
    for name, path in files.items():
        try:
            loaded[name] = load(path)
        except ScenarioError:
            continue
    return loaded


class ContentCache:
    """The last `size` values built from data given inline (a scenario as a dict, a built position's record), keyed
    by the data's content: a game restored or cloned asks again for the same data and gets the same frozen value."""

    def __init__(self, size: int = 16) -> None:
        self.size, self.values = size, {}

    def get(self, data, build, *extra):
        """The value built from `data` (and `extra`, part of the key), built by `build()` on the first ask."""
        key = (json.dumps(data, sort_keys=True, default=repr), *extra)
        if key not in self.values:
            if len(self.values) >= self.size:
                del self.values[next(iter(self.values))]   # the oldest: inline scenarios are few per process
            self.values[key] = build()
        return self.values[key]
