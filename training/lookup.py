"""Turn names given on the command line into registry objects; an unknown name is one clear CommandError."""
from __future__ import annotations

import importlib
from pathlib import Path

from envs import registry
from envs.engine.contract import AgentFactory, Ruleset



class CommandError(Exception):
    """A problem with what the user asked for, reported in one line without a traceback."""


def _unknown(kind: str, name: str, known) -> CommandError:
    return CommandError(f"unknown {kind} {name!r}; known: {', '.join(known)}")


def ruleset(name: str) -> Ruleset:
    """The registered ruleset called `name` (CLI name or Gymnasium id)."""
    try:
        return registry.get(name)
    except KeyError as exc:
        raise CommandError(exc.args[0]) from None


def scenario(rs: Ruleset, name: str | None) -> str | None:
    """`name` if the ruleset has that scenario; None stays None (the ruleset's default)."""
    known = rs.scenarios()
    if name is None or name in known:
        return name
    raise _unknown("scenario", name, sorted(known))


def side(rs: Ruleset, name: str) -> int:
    """A side by name or by number."""
    try:
        return rs.side_number(name)
    except ValueError:
        raise _unknown("side", name, rs.sides) from None


def agent_factories(rs: Ruleset) -> dict[str, AgentFactory]:
    """The agents registered for a ruleset; every ruleset can at least be played by 'random'."""
    return registry.agents(rs.name)


def agent(rs: Ruleset, name: str) -> AgentFactory:
    """The factory for agent `name`: a registered agent, or a trained model given as a .zip path."""
    if name.endswith(".zip"):
        return _trained(rs, name)
    factories = agent_factories(rs)
    if name in factories:
        return factories[name]
    raise _unknown("agent", name, [*factories, "or a trained model's .zip path"])


def _trained(rs: Ruleset, path: str) -> AgentFactory:
    if not Path(path).is_file():
        raise CommandError(f"no trained model at {path!r}")
    try:
        trained = importlib.import_module("agents.trained")  # lazily: it imports torch and stable-baselines3
    except ModuleNotFoundError as exc:
        if exc.name != "agents.trained":
            raise
        raise CommandError("trained models need agents/trained.py, which this version of rubble does not have yet") from None
    try:  # load now (it is cached): a model that does not fit fails here, in one line, not mid-series
        trained.check_fits(trained.load_model(path), rs, path)
    except ValueError as exc:
        raise CommandError(str(exc)) from None
    except Exception as exc:  # noqa: BLE001 - a zip that is not a model fails in many ways inside SB3
        raise CommandError(f"{path} is not a model saved by rubble train ({type(exc).__name__}: {exc})") from None
    return lambda side, seed: trained.load(path, rs, side, seed)
