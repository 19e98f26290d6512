"""The registry: every ruleset id -> its `Ruleset` (Gymnasium id, PettingZoo constructor, scenarios, agents)."""
from __future__ import annotations

from .engine.ruleset import Ruleset

_RULESETS: dict[str, Ruleset] = {}


def register(ruleset: Ruleset) -> Ruleset:
    if ruleset.name in _RULESETS:
        raise ValueError(f"ruleset {ruleset.name!r} registered twice")
    _RULESETS[ruleset.name] = ruleset
    return ruleset


def names() -> list[str]:
    return sorted(_RULESETS)


def get(name: str) -> Ruleset:
    """The ruleset registered as `name` (CLI name or Gymnasium id); a clear error lists the known names."""
    for ruleset in _RULESETS.values():
        if name in (ruleset.name, ruleset.gym_id):
            return ruleset
    raise KeyError(f"unknown environment {name!r}; known: {', '.join(names())}")


def all_rulesets() -> list[Ruleset]:
    return [_RULESETS[n] for n in names()]
