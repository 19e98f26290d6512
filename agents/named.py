"""Named agents: the trained agents that ship, by ruleset, side and name (`strongest`, `league`), read from
results/agents.yaml and registered like any agent, so a name plays wherever an agent is taken (`--enemy strongest`,
`--player league`, `gymnasium.make(..., opponent="strongest")`).

The file says, for each ruleset, side and name: the actor's path (an actor.zip or a .mixture.json, relative to the
repo), how it was trained, and its measured win rate against the scripted opponent with its 95 % interval, the
number of games, the held-out seeds and the file the figure comes from. It is read once, bounded (its size, the
number of entries, every string's length, every number's range) and checked on load; anything else is a
NamedAgentError in one line naming the file and the field. A named agent plays only the sides it names.
"""
from __future__ import annotations

import math
import re
from dataclasses import dataclass
from pathlib import Path

from envs import registry
from envs.engine.scenario import ScenarioError, load_yaml
from envs.paths import PROJECT_ROOT

from . import trained

#: where the named agents are listed (absent in an install without the repo's results/: then there are none)
REGISTRY_FILE = PROJECT_ROOT / "results" / "agents.yaml"
#: bounds of the file: bytes, entries in all, characters of a text field
MAX_BYTES, MAX_ENTRIES, MAX_TEXT = 256 * 1024, 500, 1000
#: names that are built in (agents registered by code) and may not be taken
RESERVED = ("random", "scripted", "person")
NAME = re.compile(r"^[a-z][a-z0-9-]{0,39}$")
SIDE = re.compile(r"^[A-Za-z0-9_-]{1,40}$")
FIELDS = {"path": True, "trained": True, "win_rate": True, "interval": True, "games": True, "seeds": True,
          "source": True, "note": False}
SUFFIXES = (".zip", ".mixture.json")


class NamedAgentError(trained.ModelFileError):
    """A named-agent file that is refused, or a named agent asked to play a side it does not have: one line."""


@dataclass(frozen=True)
class Entry:
    """One named agent for one side, with its measured strength against the scripted opponent."""

    path: str                      # relative to the repo root
    trained: str
    win_rate: float
    interval: tuple[float, float]
    games: int
    seeds: tuple[int, int]         # first and last held-out seed
    source: str                    # the file the figures come from
    note: str = ""

    @property
    def file(self) -> Path:
        """The actor's file, wherever the command runs from."""
        return PROJECT_ROOT / self.path

    def strength(self) -> str:
        """e.g. '93.4 % [90.9, 95.3] vs scripted, 500 games, seeds 1000000..1000499'."""
        low, high = self.interval
        return (f"{100 * self.win_rate:.1f} % [{100 * low:.1f}, {100 * high:.1f}] vs scripted, {self.games} games, "
                f"seeds {self.seeds[0]}..{self.seeds[1]}")


class NamedAgent:
    """factory(side, seed) of a named agent of one ruleset: each side plays its own actor (or mixture)."""

    def __init__(self, ruleset: str, name: str, sides: dict[str, Entry]) -> None:
        self.ruleset, self.name, self.sides = ruleset, name, sides
        self._factories: dict[int, object] = {}

    def entry(self, rs, side: int) -> Entry:
        """The entry of `side` (a number of `rs`), or NamedAgentError naming the sides it has."""
        name = rs.sides[side]
        if name not in self.sides:
            raise NamedAgentError(f"agent {self.name!r} of {self.ruleset} plays {', '.join(self.sides)}, "
                                  f"not the {name}")
        return self.sides[name]

    def __call__(self, side: int, seed: int):
        if side not in self._factories:
            rs = registry.get(self.ruleset)
            path = str(self.entry(rs, side).file)
            self._factories[side] = registry.agent_loader(path)(rs, path)
        return self._factories[side](side, seed)


def load(path: Path = REGISTRY_FILE) -> dict[str, dict[str, NamedAgent]]:
    """ruleset -> name -> NamedAgent, from `path` (none if it does not exist); NamedAgentError on a bad file."""
    path = Path(path)
    if not path.is_file():
        return {}
    if path.stat().st_size > MAX_BYTES:
        raise NamedAgentError(f"{shown(path)}: {path.stat().st_size} bytes; a named-agent file holds at most {MAX_BYTES}")
    try:
        data = load_yaml(path)
    except ScenarioError as exc:
        raise NamedAgentError(str(exc)) from None
    data = {} if data is None else data
    _mapping(path, "", data, "a mapping of ruleset names")
    known = registry.names()
    found: dict[str, dict[str, NamedAgent]] = {}
    count = 0
    for ruleset, sides in data.items():
        if ruleset not in known:
            raise NamedAgentError(f"{shown(path)}: field {ruleset!r}: expected a ruleset ({', '.join(known)})")
        _mapping(path, ruleset, sides, "a mapping of side names")
        by_name: dict[str, dict[str, Entry]] = {}
        for side, names in sides.items():
            where = f"{ruleset}.{side}"
            if not isinstance(side, str) or not SIDE.match(side):
                raise NamedAgentError(f"{shown(path)}: field {where!r}: expected a side name")
            _mapping(path, where, names, "a mapping of agent names")
            for name, fields in names.items():
                count += 1
                if count > MAX_ENTRIES:
                    raise NamedAgentError(f"{shown(path)}: more than {MAX_ENTRIES} entries")
                by_name.setdefault(_name(path, f"{where}.{name}", name), {})[side] = _entry(path, f"{where}.{name}", fields)
        found[ruleset] = {name: NamedAgent(ruleset, name, entries) for name, entries in by_name.items()}
    return found


def register(path: Path = REGISTRY_FILE) -> None:
    """Register every named agent of `path` for its ruleset."""
    for ruleset, agents in load(path).items():
        for name, agent in agents.items():
            registry.register_agent(name, agent, (ruleset,))


def shown(path: Path) -> str:
    """`path` relative to the repo when it is inside it."""
    try:
        return str(Path(path).resolve().relative_to(PROJECT_ROOT))
    except ValueError:
        return str(path)


def _fail(path: Path, where: str, expected: str, got) -> NamedAgentError:
    text = repr(got)
    return NamedAgentError(f"{shown(path)}: field {where!r}: expected {expected}, got "
                           f"{text if len(text) <= 60 else text[:57] + '...'}")


def _mapping(path: Path, where: str, value, expected: str) -> None:
    if not isinstance(value, dict) or not value:
        raise _fail(path, where or "(top)", f"{expected} (not empty)", value)


def _name(path: Path, where: str, name) -> str:
    if not isinstance(name, str) or not NAME.match(name):
        raise _fail(path, where, "an agent name (lower-case letters, digits and '-', at most 40)", name)
    if name in RESERVED:
        raise _fail(path, where, f"a name other than the built-in {', '.join(RESERVED)}", name)
    return name


def _entry(path: Path, where: str, fields) -> Entry:
    if not isinstance(fields, dict):
        raise _fail(path, where, f"a mapping with {', '.join(f for f, need in FIELDS.items() if need)}", fields)
    for field in fields:
        if field not in FIELDS:
            raise _fail(path, f"{where}.{field}", f"a known field ({', '.join(FIELDS)})", field)
    for field, needed in FIELDS.items():
        if needed and field not in fields:
            raise NamedAgentError(f"{shown(path)}: field '{where}.{field}': missing")
    entry = Entry(
        path=_file(path, f"{where}.path", fields["path"], SUFFIXES),
        trained=_text(path, f"{where}.trained", fields["trained"]),
        win_rate=_rate(path, f"{where}.win_rate", fields["win_rate"]),
        interval=tuple(_pair(path, f"{where}.interval", fields["interval"], _rate)),
        games=_count(path, f"{where}.games", fields["games"]),
        seeds=tuple(_pair(path, f"{where}.seeds", fields["seeds"], _seed)),
        source=_file(path, f"{where}.source", fields["source"], (".md",)),
        note=_text(path, f"{where}.note", fields.get("note", "")),
    )
    low, high = entry.interval
    if not low <= entry.win_rate <= high:
        raise _fail(path, f"{where}.interval", f"an interval holding win_rate {entry.win_rate}", list(entry.interval))
    if entry.seeds[1] - entry.seeds[0] + 1 != entry.games:
        raise _fail(path, f"{where}.seeds", f"{entry.games} seeds (first..last, one per game)", list(entry.seeds))
    return entry


def _text(path: Path, where: str, value) -> str:
    if not isinstance(value, str) or len(value) > MAX_TEXT:
        raise _fail(path, where, f"a text of at most {MAX_TEXT} characters", value)
    return value


def _file(path: Path, where: str, value, suffixes: tuple[str, ...]) -> str:
    text = _text(path, where, value)
    if not text or text.startswith("/") or ".." in Path(text).parts or not text.endswith(suffixes):
        raise _fail(path, where, f"a path inside the repo ending in {' or '.join(suffixes)}", value)
    return text


def _rate(path: Path, where: str, value) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not (0 <= value <= 1) or math.isnan(value):
        raise _fail(path, where, "a fraction from 0 to 1", value)
    return float(value)


def _count(path: Path, where: str, value) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= 10_000_000:
        raise _fail(path, where, "a whole number from 1 to 10,000,000", value)
    return value


def _seed(path: Path, where: str, value) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value < 2**63:
        raise _fail(path, where, "a seed (a whole number from 0)", value)
    return value


def _pair(path: Path, where: str, value, item) -> list:
    if not isinstance(value, list) or len(value) != 2:
        raise _fail(path, where, "a list of two: [low, high]", value)
    pair = [item(path, f"{where}[{i}]", v) for i, v in enumerate(value)]
    if pair[0] > pair[1]:
        raise _fail(path, where, "low <= high", value)
    return pair


register()
