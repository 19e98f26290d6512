"""Load and validate YAML scenarios and tables; a bad file fails naming the file, the field and what was expected.

Rulesets read their files through `Fields`, which tracks where in the file it is:

    f = Fields.load("configs/rifles/scenarios/block_six.yaml")
    turns = f.int("turns", min=1, default=10)
    for g in f.list("player.groups"): ...
"""
from __future__ import annotations

from pathlib import Path

import yaml


class ScenarioError(ValueError):
    """A scenario or table file is missing a field or has a wrong value."""

    def __init__(self, file: str, field: str, expected: str, got=None) -> None:
        self.file, self.field, self.expected = file, field, expected
        got_text = "" if got is None else f", got {got!r}"
        super().__init__(f"{file}: field '{field}': expected {expected}{got_text}")


_MISSING = object()


class Fields:
    """A mapping read field by field, with the file name and dotted path for errors."""

    def __init__(self, data, file: str, path: str = "") -> None:
        self.data, self.file, self.path = data, file, path
        if not isinstance(data, dict):
            raise ScenarioError(file, path or "<top>", "a mapping of fields", type(data).__name__)

    @classmethod
    def load(cls, path) -> Fields:
        """Read a YAML file; a missing file or YAML syntax error is a ScenarioError too."""
        path = Path(path)
        try:
            data = yaml.safe_load(path.read_text(encoding="utf-8"))
        except FileNotFoundError:
            raise ScenarioError(str(path), "<file>", "an existing YAML file") from None
        except yaml.YAMLError as err:
            raise ScenarioError(str(path), "<file>", f"valid YAML ({err})") from None
        return cls(data if data is not None else {}, str(path))

    def where(self, key: str) -> str:
        return f"{self.path}.{key}" if self.path else str(key)

    def error(self, key: str, expected: str, got=None) -> ScenarioError:
        return ScenarioError(self.file, self.where(key), expected, got)

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
        return Fields(value, self.file, self.where(key))

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
        return [Fields(v, self.file, f"{self.where(key)}[{i}]") for i, v in enumerate(values)]

    def unknown(self, allowed) -> None:
        """Fail on keys not in `allowed` (catches typos such as `turn:` for `turns:`)."""
        for key in self.data:
            if key not in allowed:
                raise self.error(str(key), "a known field: " + ", ".join(sorted(allowed)), "unknown field")
