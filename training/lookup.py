"""Turn names given on the command line into registry objects; an unknown name is one clear CommandError."""
from __future__ import annotations

from agents import named
from agents.mixture import SUFFIX as MIXTURE
from envs import registry
from envs.engine.contract import AgentFactory, Ruleset
from envs.engine.scenario import ScenarioError


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
    """`name` if the ruleset has that scenario and its file loads; None stays None (the ruleset's default)."""
    known = rs.scenarios()
    if name is not None and name not in known:
        raise _unknown("scenario", name, sorted(known))
    rs.new_game(name, seed=0)    # a broken file fails here, in one line, before any game or progress bar starts
    return name


def scenario_problem(rs: Ruleset, name: str) -> str | None:
    """Why scenario `name` cannot be played (its file's error, in one line), or None."""
    try:
        rs.new_game(name, seed=0)
    except ScenarioError as exc:
        return str(exc)
    return None


def side(rs: Ruleset, name: str) -> int:
    """A side by name or by number."""
    try:
        return rs.side_number(name)
    except ValueError:
        raise _unknown("side", name, rs.sides) from None


def agent_factories(rs: Ruleset) -> dict[str, AgentFactory]:
    """The agents registered for a ruleset; every ruleset can at least be played by 'random'."""
    return registry.agents(rs.name)


def agent(rs: Ruleset, name: str, sides: tuple[int, ...] = ()) -> AgentFactory:
    """The factory for agent `name`: a registered agent, or a trained model given as a .zip path (or a mixture of
    them, a .mixture.json path), which must have been trained for each of `sides` (the sides it is to play), else a
    CommandError says what it is."""
    if name.endswith(".zip"):
        return _trained(rs, name, sides)
    if name.endswith(MIXTURE):
        return _mixture(rs, name, sides)
    if name.startswith("distilled:"):
        return _distilled(rs, name.removeprefix("distilled:"))
    factories = agent_factories(rs)
    if isinstance(factories.get(name), named.NamedAgent):
        return _named(rs, factories[name], sides)
    if name in factories:
        return factories[name]
    raise _unknown("agent", name, [*factories, "or a trained model's .zip path", "or a .mixture.json path"])


def _named(rs: Ruleset, chosen: named.NamedAgent, sides: tuple[int, ...]) -> AgentFactory:
    """A named agent (results/agents.yaml): each of `sides` must be one it names, and its file must fit that side;
    each side then plays its own actor or mixture, checked now as a path given by hand would be."""
    try:
        paths = {side: str(chosen.entry(rs, side).file) for side in sides}
    except named.NamedAgentError as exc:
        raise CommandError(str(exc)) from None
    checked = {side: agent(rs, path, (side,)) for side, path in paths.items()}
    return lambda side, seed: checked[side](side, seed) if side in checked else chosen(side, seed)


def _distilled(rs: Ruleset, path: str) -> AgentFactory:
    """A distilled priority list (agents/distilled.py) as an enemy; the file is read and checked now."""
    from agents import distilled

    try:
        factory = distilled.factory(path)
    except distilled.DistilledListError as exc:
        raise CommandError(str(exc)) from None
    written_for = distilled.load_yaml(path).get("ruleset")
    if written_for != rs.name and not (str(written_for).startswith("rifles") and rs.name.startswith("rifles")):
        raise CommandError(f"{path}: a distilled list of {written_for}, not of {rs.name}")
    return factory


def _mixture(rs: Ruleset, path: str, sides: tuple[int, ...]) -> AgentFactory:
    """A mixture of trained actors (agents/mixture.py); the file and its members are read and checked now."""
    from agents import mixture, trained

    try:
        factory = mixture.factory(rs, path)
        for side in sides:
            factory(side, 0)          # checks every member against the side
    except trained.ModelFileError as exc:
        raise CommandError(str(exc)) from None
    return factory


def _trained(rs: Ruleset, path: str, sides: tuple[int, ...]) -> AgentFactory:
    """A trained actor's factory; the file is read and checked now (cached), so a bad one fails here in one line."""
    from agents import trained

    try:
        actor = trained.read_actor(path)
        for side in sides or (None,):
            trained.check_fits(actor, rs, side, path)
    except trained.ModelFileError as exc:
        raise CommandError(str(exc)) from None
    return lambda side, seed: trained.load(path, rs, side, seed)
