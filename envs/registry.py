"""The registry: every ruleset's name -> where it lives, loaded on first use; and the agents that can play it.

Entries are strings ("envs.rifles.ruleset:RiflesUrban"), as Gymnasium's registry keeps entry points, so that
registering costs no import: a ruleset's modules load when `get` first asks for it. Agents are registered
the same way, by the module that provides them (`agents.base`, `agents.scripted.rifles`...): that module
calls `register_agent` when it is imported, and `agents()` imports the providers a ruleset names on first
use. The registry itself imports only the contract, so any layer may use it.
"""
from __future__ import annotations

import importlib
from dataclasses import dataclass

from .engine.contract import AgentFactory, Ruleset


@dataclass(frozen=True)
class Entry:
    """Where a ruleset lives and which modules provide agents for it, as import strings."""

    name: str                       # CLI name, e.g. "rifles-urban"
    gym_id: str                     # e.g. "rubble/RiflesUrban-v0"
    entry_point: str                # "module:RulesetClass"
    agent_providers: tuple[str, ...] = ()   # modules that register agents for it when imported


#: Modules that register agents for every ruleset: the uniform random agent; the named trained agents
#: (results/agents.yaml: `strongest`, `league`...), each for the rulesets and sides that file lists.
COMMON_AGENT_PROVIDERS = ("agents.base", "agents.named")

_ENTRIES: dict[str, Entry] = {}
_LOADED: dict[str, Ruleset] = {}
_AGENTS: dict[str, dict[str, AgentFactory]] = {}    # ruleset name ("*": every ruleset) -> agent name -> factory
_PROVIDERS_LOADED: set[str] = set()


def register(name: str, gym_id: str, entry_point: str | Ruleset, agent_providers: tuple[str, ...] = ()) -> Entry:
    """Register a ruleset by entry point (or an instance, e.g. a test's toy game); importing nothing."""
    if name in _ENTRIES:
        raise ValueError(f"ruleset {name!r} registered twice")
    if isinstance(entry_point, Ruleset):
        _LOADED[name] = _checked(entry_point, name, gym_id, "the instance given")
        entry_point = f"{type(entry_point).__module__}:{type(entry_point).__qualname__}"
    _ENTRIES[name] = Entry(name, gym_id, entry_point, tuple(agent_providers))
    return _ENTRIES[name]


def entries() -> list[Entry]:
    """Every registered entry, by name; nothing is imported."""
    return [_ENTRIES[n] for n in names()]


def names() -> list[str]:
    return sorted(_ENTRIES)


def entry(name: str) -> Entry:
    """The entry registered as `name` (CLI name or Gymnasium id); a clear error lists the known names."""
    for found in _ENTRIES.values():
        if name in (found.name, found.gym_id):
            return found
    raise KeyError(f"unknown environment {name!r}; known: {', '.join(names())}")


def get(name: str) -> Ruleset:
    """The ruleset registered as `name` (CLI name or Gymnasium id), its modules imported on first use."""
    found = entry(name)
    if found.name not in _LOADED:
        _LOADED[found.name] = _checked(_instance(found.entry_point), found.name, found.gym_id, found.entry_point)
    return _LOADED[found.name]


def all_rulesets() -> list[Ruleset]:
    """Every registered ruleset, loaded."""
    return [get(n) for n in names()]


def _instance(entry_point: str):
    """The ruleset an entry point names: its class, instantiated (anything else is returned for _checked to refuse)."""
    module, _, attribute = entry_point.partition(":")
    found = getattr(importlib.import_module(module), attribute)
    return found() if isinstance(found, type) and issubclass(found, Ruleset) else found


def _checked(ruleset, name: str, gym_id: str, source: str) -> Ruleset:
    """The ruleset, if it is one and agrees with its registration."""
    if not isinstance(ruleset, Ruleset):
        raise TypeError(f"{source} is not an envs.engine.contract.Ruleset: {ruleset!r}")
    if (ruleset.name, ruleset.gym_id) != (name, gym_id):
        raise ValueError(f"{source} says it is {ruleset.name!r} / {ruleset.gym_id!r}; "
                         f"it was registered as {name!r} / {gym_id!r}")
    return ruleset


# Agents -----------------------------------------------------------------------------------------------------
def register_agent(agent_name: str, factory: AgentFactory, rulesets: tuple[str, ...] = ("*",)) -> None:
    """Make `agent_name` playable in `rulesets` ("*": all): `factory(side, seed)` builds it for one side."""
    for ruleset in rulesets:
        _AGENTS.setdefault(ruleset, {})[agent_name] = factory


def agents(name: str) -> dict[str, AgentFactory]:
    """Agent name -> factory(side, seed) for the ruleset `name`, its providers imported on first use."""
    found = entry(name)
    for provider in COMMON_AGENT_PROVIDERS + found.agent_providers:
        if provider not in _PROVIDERS_LOADED:
            importlib.import_module(provider)
            _PROVIDERS_LOADED.add(provider)
    return {**_AGENTS.get("*", {}), **_AGENTS.get(found.name, {})}


# Agents saved in files (trained models): a loader per file suffix, registered by the module that reads them.
_LOADERS: dict[str, object] = {}
#: Modules that register loaders for saved agents.
AGENT_LOADER_PROVIDERS = ("agents.trained", "agents.mixture")


def register_agent_loader(suffix: str, loader) -> None:
    """Make a path ending in `suffix` an agent spec: `loader(ruleset, path)` returns its factory(side, seed)."""
    _LOADERS[suffix] = loader


def agent_loader(path: str):
    """The loader registered for the suffix of `path`, or None; providers are imported on first use."""
    for provider in AGENT_LOADER_PROVIDERS:
        if provider not in _PROVIDERS_LOADED:
            importlib.import_module(provider)
            _PROVIDERS_LOADED.add(provider)
    return next((loader for suffix, loader in _LOADERS.items() if path.endswith(suffix)), None)
