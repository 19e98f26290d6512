"""Replay files: one game as JSON (`.rubble.json`, or gzipped `.rubble.json.gz`), written while it is played and
verified by playing its actions again from its seed.

The format (schemas/rubble-replay-v3.schema.json, described in docs/guides/replays.md; VERSIONS says what each
version adds):

    {"format": "rubble-replay", "version": 3, "ruleset": ..., "scenario": ..., "options": {...}, "seed": ...,
     "sides": [...], "agents": [...], "dice": null or {"kind": "table", "setup": [[sides, face], ...]},
     "steps": [{"side", "action", "label", "events": [...], ("rolled": [[sides, face], ...])}, ...],
     "outcome": {"over", "returns", "turn", "decisions"}}

Each event is {"kind", "side", "dice", "text", "rules", "data"}: `rules` are the rule IDs (CF-FIRE-3...) that the
event's text or data name, when they name any. Loading is `json.loads` and nothing else: a replay cannot run code.
Games are deterministic given the seed, so the file stores actions, not states (and, for a game whose dice were
rolled at the table, `rubble play --dice manual`, every face typed: `dice` and each step's `rolled`); `verify`
re-plays them and compares every event and the outcome: exactly for the current version; a file of an older
version that this rubble still reads is compared exactly but for the event-data keys VERSIONS says it did not
record.
"""
from __future__ import annotations

import gzip
import json
import os
import re
import zlib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from envs.engine.dice import ManualDice

from .errors import ReplayError, ReplayFileError
from .table_dice import check_rolled, check_table_header, table_dice

FORMAT = "rubble-replay"
VERSION = 3
#: Every format version this rubble reads -> the event-data keys files of that version may lack: annotations the
#: engine added to events after the version was written. The one place the older versions' gaps are named; the
#: current version lacks nothing, so its events are compared exactly.
#:   1: the first format.
#:   2: events carry every annotation the engine gives, among them the Rifles dice `rolls`
#:      (envs.engine.events.roll: what each die needed and what followed), which version 1 files written before
#:      that annotation lack. A version 1 file that has `rolls` (written after it) still has them compared.
#:   3: a game whose dice were rolled at the table records every face (`dice`, each step's `rolled`), so it
#:      verifies; older files are all games of the program's seeded dice.
VERSIONS: dict[int, frozenset[str]] = {
    1: frozenset({"rolls"}),
    2: frozenset(),
    3: frozenset(),
}
SUFFIXES = (".rubble.json", ".rubble.json.gz")
#: A replay's JSON, decompressed, is refused past this many megabytes: the longest committed game is 68 KB, a long
#: random Cityfight game a few MB, while 1 MB of gzip inflates to 2 GB (issue #37). RUBBLE_REPLAY_MAX_MB sets it.
MAX_MB = 32
MAX_MB_VARIABLE = "RUBBLE_REPLAY_MAX_MB"
#: read this much at a time, so that a file is refused once past the bound, never inflated whole first
CHUNK = 1 << 20
#: Rule IDs as the catalogs in /work/shared/rules write them: CF-LDR-2, RF-FIRE-3a, UW-MOVE-4...
RULE_ID = re.compile(r"\b[A-Z]{2,3}-[A-Z]{2,6}-\d+[a-z]?\b")


# Events as JSON ------------------------------------------------------------------------------------------------
def plain(value: Any) -> Any:
    """`value` as JSON data: tuples become lists, numpy scalars Python numbers, anything else its str()."""
    if isinstance(value, (str, bool, type(None))):
        return value
    if isinstance(value, (int, np.integer)):
        return int(value)
    if isinstance(value, (float, np.floating)):
        return float(value)
    if isinstance(value, dict):
        return {str(k): plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple, np.ndarray)):
        return [plain(v) for v in value]
    return str(value)


def rule_ids(rule: str, text: str, data: dict) -> list[str]:
    """The rule IDs an event names: the rule that produced it (Event.rule), then IDs written in its text or data."""
    found = ([rule] if rule else []) + RULE_ID.findall(text) + RULE_ID.findall(json.dumps(data))
    return list(dict.fromkeys(found))   # unique, in order


def event_record(event) -> dict:
    """One engine Event as the replay stores it."""
    data = plain(event.data)
    return {"kind": event.kind, "side": plain(event.side), "dice": plain(event.dice), "text": event.text,
            "rules": rule_ids(event.rule, event.text, data), "data": data}


# Recording -------------------------------------------------------------------------------------------------------
@dataclass
class Replay:
    """One game being recorded (or loaded): the header, the steps so far and, once over, the outcome."""

    ruleset: str
    scenario: str
    seed: int
    sides: list[str]
    agents: list[str]
    options: dict = field(default_factory=dict)
    steps: list[dict] = field(default_factory=list)
    outcome: dict | None = None
    dice: dict | None = None       # dice rolled at the table: {"kind": "table", "setup": rolls before step 1}

    def finish(self, state) -> None:
        """Record the outcome as the game stands (over or cut short)."""
        self.outcome = outcome_of(state, len(self.steps))

    def to_dict(self) -> dict:
        return {"format": FORMAT, "version": VERSION, "ruleset": self.ruleset, "scenario": self.scenario,
                "options": plain(self.options), "seed": int(self.seed), "sides": list(self.sides),
                "agents": list(self.agents), "dice": self.dice, "steps": self.steps, "outcome": self.outcome}


def outcome_of(state, decisions: int) -> dict:
    return {"over": bool(state.is_over), "returns": [float(r) for r in state.returns()],
            "turn": plain(getattr(state, "turn", None)), "decisions": decisions}


class RecordingState:
    """A GameState whose `apply` also records into a Replay; everything else goes to the state itself.

    Wrapping, rather than changing every game loop, lets any driver (simulate, play, the adapters) record.
    Dice rolled at the table (ManualDice) cannot be rolled again from the seed: their faces are recorded, those
    of the set-up in the header (unless `replay` already has them: a resumed game), the rest with their step."""

    def __init__(self, state, replay: Replay) -> None:
        self._state, self.replay = state, replay
        self._table = isinstance(getattr(state, "dice", None), ManualDice)
        if self._table and replay.dice is None:
            replay.dice = {"kind": "table", "setup": [list(r) for r in state.dice.log]}

    def apply(self, action):
        side = self._state.current_side
        # The label is read before the move: after it, the same index may mean something else.
        label = self._state.action_label(int(action)) if isinstance(action, (int, np.integer)) else None
        rolled_before = len(self._state.dice.log) if self._table else 0
        events = self._state.apply(action)   # an illegal action raises here and records nothing
        step = {"side": int(side), "action": int(action), "label": label, "events": [event_record(e) for e in events]}
        if self._table:
            step["rolled"] = [list(r) for r in self._state.dice.log[rolled_before:]]
        self.replay.steps.append(step)
        if self._state.is_over:
            self.replay.finish(self._state)
        return events

    def __getattr__(self, name):
        return getattr(self._state, name)


def start(rs, scenario: str | None, seed: int, agents, options: dict | None = None):
    """A new game of `rs` and its recording: (RecordingState, Replay)."""
    options = dict(options or {})
    state = rs.new_game(scenario=scenario, seed=seed, **options)
    replay = Replay(rs.name, scenario or rs.default_scenario, int(seed), list(rs.sides), [str(a) for a in agents], options)
    return RecordingState(state, replay), replay


# Files -------------------------------------------------------------------------------------------------------
def dumps(replay: Replay | dict) -> bytes:
    data = replay.to_dict() if isinstance(replay, Replay) else replay
    return json.dumps(data, separators=(",", ":"), ensure_ascii=False).encode("utf-8")


def write(replay: Replay | dict, path: Path) -> Path:
    """Write the replay to `path` (gzipped if it ends in .gz); FileExistsError rather than overwrite a file."""
    path = Path(path)
    if not path.name.endswith(SUFFIXES):
        raise ValueError(f"{path}: a replay file name ends in {' or '.join(SUFFIXES)}")
    path.parent.mkdir(parents=True, exist_ok=True)
    body = dumps(replay)
    if path.name.endswith(".gz"):
        body = gzip.compress(body, mtime=0)   # mtime 0: the same game gives the same bytes
    with open(path, "xb") as f:               # "x": never overwrite a replay silently
        f.write(body)
    return path


def file_name(ruleset: str, agents, seed: int, gz: bool = True) -> str:
    """'cityfight-scripted-vs-attacker-bc-seed7.rubble.json.gz': agents shortened to safe labels."""
    labels = "-vs-".join(agent_label(a) for a in agents)
    return f"{ruleset}-{labels}-seed{seed}" + (".rubble.json.gz" if gz else ".rubble.json")


def agent_label(agent: str) -> str:
    """An agent spec as a file-name part: a model path becomes its run folder's name."""
    path = Path(agent)
    name = path.parent.name if path.suffix == ".zip" and path.parent.name else path.stem or agent
    return re.sub(r"[^A-Za-z0-9_.]+", "_", name).strip("_") or "agent"


def free_path(path: Path) -> Path:
    """`path`, or the first of name-2, name-3... (before the suffix) that no file holds yet."""
    path = Path(path)
    suffix = next(s for s in (".rubble.json.gz", ".rubble.json") if path.name.endswith(s))
    stem = path.name[: -len(suffix)]
    number = 1
    while path.exists():
        number += 1
        path = path.with_name(f"{stem}-{number}{suffix}")
    return path


def max_bytes() -> int:
    """The bound on a replay's decompressed size: $RUBBLE_REPLAY_MAX_MB megabytes, else MAX_MB."""
    given = os.environ.get(MAX_MB_VARIABLE, "").strip()
    if not given:
        return MAX_MB << 20
    try:
        megabytes = float(given)
    except ValueError:
        megabytes = -1.0
    if not megabytes > 0:
        raise ReplayError(f"{MAX_MB_VARIABLE}={given[:40]!r}: expected a positive number of megabytes")
    return int(megabytes * (1 << 20))


def read_bounded(path: Path, limit: int) -> bytes:
    """The file's bytes, gunzipped if it is gzip, read CHUNK at a time: ReplayFileError once past `limit` bytes."""
    with open(path, "rb") as raw:
        gzipped = raw.read(2) == b"\x1f\x8b"
        raw.seek(0)
        stream = gzip.GzipFile(fileobj=raw) if gzipped else raw
        chunks, size = [], 0
        while chunk := stream.read(CHUNK):
            size += len(chunk)
            if size > limit:
                what = "inflates to more than" if gzipped else "holds more than"
                bound = f"{limit >> 20} MB" if limit % (1 << 20) == 0 else f"{limit} bytes"
                raise ReplayFileError(f"{path}: {what} {bound} of JSON; expected at most that for one game "
                                      f"({MAX_MB_VARIABLE} raises the bound)")
            chunks.append(chunk)
    return b"".join(chunks)


def load(path: Path, limit: int | None = None) -> dict:
    """The replay in `path` as a checked dict; ReplayError (one line naming the file) if it cannot be one.
    `limit`: the most bytes of JSON it may hold once decompressed (default: max_bytes())."""
    path = Path(path)
    limit = max_bytes() if limit is None else limit
    try:
        data = json.loads(read_bounded(path, limit).decode("utf-8"))
    except RecursionError:                  # [[[[... nested past Python's stack: no replay nests so deep
        raise ReplayFileError(f"{path}: JSON nested too deep; expected the few levels of a replay") from None
    except FileNotFoundError:
        raise ReplayFileError(f"{path}: no such file") from None
    except (OSError, EOFError, zlib.error) as exc:
        raise ReplayFileError(f"{path}: not a readable gzip file (truncated?): {exc}") from None
    except UnicodeDecodeError:
        raise ReplayFileError(f"{path}: not UTF-8 text, so not a replay") from None
    except json.JSONDecodeError as exc:
        raise ReplayFileError(f"{path}: not complete JSON (truncated?): {exc.msg} at line {exc.lineno} "
                          f"column {exc.colno}") from None
    check_header(data, path)
    return data


#: field -> (type, what it must be), checked on load so that a bad file fails naming the field.
HEADER = {
    "ruleset": (str, "a registered ruleset name"),
    "scenario": (str, "a scenario name"),
    "options": (dict, "the game options (an object)"),
    "seed": (int, "the game's seed (a whole number)"),
    "sides": (list, "the side names"),
    "agents": (list, "an agent name per side"),
    "steps": (list, "the list of steps"),
}
STEP = {"side": int, "action": int, "label": (str, type(None)), "events": list}


def check_header(data, path) -> None:
    """ReplayError naming the first field that is missing or of the wrong kind."""
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise ReplayFileError(f"{path}: field 'format': expected {FORMAT!r}; this is not a rubble replay")
    version = data.get("version")
    if isinstance(version, bool) or version not in VERSIONS:
        raise ReplayFileError(f"{path}: field 'version': expected one of the replay format versions this rubble reads "
                          f"({', '.join(map(str, VERSIONS))}), the file is version {version!r:.40}")
    for name, (kind, meaning) in HEADER.items():
        if not isinstance(data.get(name), kind) or isinstance(data.get(name), bool):
            raise ReplayFileError(f"{path}: field {name!r}: expected {meaning}, got {data.get(name)!r:.60}")
    for i, step in enumerate(data["steps"], 1):
        for name, kind in STEP.items():
            if not isinstance(step, dict) or not isinstance(step.get(name), kind) or isinstance(step.get(name), bool):
                raise ReplayFileError(f"{path}: step {i}: field {name!r} missing or of the wrong type")
    if not isinstance(data.get("outcome"), (dict, type(None))):
        raise ReplayFileError(f"{path}: field 'outcome': expected an object or null")
    if "dice" in data["options"]:
        raise ReplayFileError(f"{path}: field 'options': 'dice' is no rule option (a table game's dice are the field "
                              "'dice')")
    check_table_header(data, path)


# Playing a replay again -----------------------------------------------------------------------------------------
def new_state(data: dict, path="replay"):
    """The game a replay starts from, rebuilt from its ruleset, scenario, options and seed."""
    from envs import registry

    try:
        rs = registry.get(data["ruleset"])
    except KeyError:
        raise ReplayFileError(f"{path}: field 'ruleset': unknown ruleset {data['ruleset']!r}; known: "
                          f"{', '.join(registry.names())}") from None
    if data["scenario"] not in rs.scenarios():
        raise ReplayFileError(f"{path}: field 'scenario': {rs.name} has no scenario {data['scenario']!r}")
    if list(rs.sides) != data["sides"]:
        raise ReplayFileError(f"{path}: field 'sides': {rs.name} has sides {list(rs.sides)}, the file says {data['sides']}")
    dice = table_dice(data, path)
    options = dict(data["options"], dice=dice) if dice is not None else data["options"]
    try:
        return rs, rs.new_game(scenario=data["scenario"], seed=data["seed"], **options)
    except (TypeError, ValueError) as exc:
        raise ReplayFileError(f"{path}: field 'options': the game cannot start with them: {exc}") from None


def replay_steps(data: dict, path="replay", on_step=None):
    """Play every recorded step again and check it; returns the final state. ReplayError names the first step
    that differs. `on_step(index, state)` is called with the start state (index 0) and after each step."""
    from envs.engine.contract import IllegalActionError

    _, state = new_state(data, path)
    if on_step:
        on_step(0, state)
    for i, step in enumerate(data["steps"], 1):
        where = f"{path}: step {i}"
        if state.is_over:
            raise ReplayError(f"{where}: the game is already over, yet the file goes on")
        if step["side"] != state.current_side:
            raise ReplayError(f"{where}: the file has side {step['side']} deciding, the game has side {state.current_side}")
        label = state.action_label(step["action"]) if 0 <= step["action"] < len(state.legal_action_mask()) else None
        if step["label"] is not None and label != step["label"]:
            raise ReplayError(f"{where}: action {step['action']} is {label!r} here, the file says {step['label']!r}")
        rolled_before = len(state.dice.log) if "rolled" in step else 0
        try:
            events = state.apply(step["action"])
        except IllegalActionError as exc:
            raise ReplayError(f"{where}: {exc}") from None
        if "rolled" in step:
            check_rolled(step, state, rolled_before, where)
        compare_events(step["events"], [event_record(e) for e in events], where, VERSIONS[data["version"]])
        if on_step:
            on_step(i, state)
    check_outcome(data, state, path)
    return state


def compare_events(recorded: list, replayed: list, where: str, lacks=frozenset()) -> None:
    """Every recorded event must be exactly the one the game gives: a key missing, extra or of another value, in the
    event or in its `data`, is a difference named in the error. `lacks`: event-data keys the file's version did not
    record (VERSIONS); the game's value of such a key is left out where the file's event has none."""
    for j, (old, new) in enumerate(zip(recorded, replayed), 1):
        if lacks and isinstance(old, dict) and isinstance(old.get("data"), dict):
            new = {**new, "data": {k: v for k, v in new["data"].items() if k in old["data"] or k not in lacks}}
        difference = event_difference(old, new)
        if difference:
            raise ReplayError(f"{where}: event {j} {difference}")
    if len(recorded) != len(replayed):
        raise ReplayError(f"{where}: the file has {len(recorded)} events, the game gives {len(replayed)}")


def event_difference(old, new: dict) -> str | None:
    """The first difference between a recorded event and the game's, in words naming the field (for `data`, the
    key), or None when they are equal."""
    if not isinstance(old, dict):
        return f"is {old!r:.80} in the file, not an event"
    if isinstance(old.get("data"), dict):
        return key_difference(old, new, skip="data") or key_difference(old["data"], new["data"], "data key ")
    return key_difference(old, new)


def key_difference(old: dict, new: dict, what: str = "field ", skip: str = "") -> str | None:
    """The first key of `new` (then of `old`) that one lacks or whose values differ, in words."""
    for key in [*new, *(k for k in old if k not in new)]:
        if key == skip:
            continue
        if key not in old:
            return f"lacks {what}{key!r}: the game gives {new[key]!r:.80}"
        if key not in new:
            return f"has {what}{key!r}, which the game does not give: the file has {old[key]!r:.80}"
        if old[key] != new[key]:
            where, mine, theirs = first_mismatch(old[key], new[key])
            return f"differs in {what}{key!r}{where}: the file has {mine!r:.80}, the game gives {theirs!r:.80}"
    return None


def first_mismatch(old, new, where: str = "") -> tuple[str, Any, Any]:
    """Where two unequal JSON values first differ ("[0]['result']", or "" for the values themselves) and the two
    values there, so that a long list of rolls is not cut before its difference."""
    if isinstance(old, dict) and isinstance(new, dict) and old.keys() == new.keys():
        key = next(k for k in new if old[k] != new[k])
        return first_mismatch(old[key], new[key], f"{where}[{key!r}]")
    if isinstance(old, list) and isinstance(new, list) and len(old) == len(new):
        i = next(i for i, (a, b) in enumerate(zip(old, new)) if a != b)
        return first_mismatch(old[i], new[i], f"{where}[{i}]")
    return where, old, new


def check_outcome(data: dict, state, path) -> None:
    recorded = data.get("outcome")
    if recorded is None:
        if state.is_over:
            raise ReplayError(f"{path}: field 'outcome': missing, though the game is over after step {len(data['steps'])}")
        raise ReplayError(f"{path}: field 'outcome': missing: {ends_early(data)}; expected the outcome every "
                          "recorder writes (over: false for a game stopped before its end)")
    actual = outcome_of(state, len(data["steps"]))
    for name, value in actual.items():
        if recorded.get(name) != value:
            raise ReplayError(f"{path}: field 'outcome': {name} is {recorded.get(name)!r} in the file, "
                              f"{value!r} when replayed (truncated file?)")


def rerecord(data: dict, path="replay") -> Replay:
    """A replay of an older version this rubble reads, recorded again at the current one: the same header and
    actions, verified first, then played once more with the events as the game gives them now (so with the
    annotations the older version lacks). The outcome stays unwritten if the file left it so."""
    replay_steps(data, path)
    _, state = new_state(data, path)
    again = Replay(data["ruleset"], data["scenario"], data["seed"], list(data["sides"]), list(data["agents"]),
                   dict(data["options"]))
    recording = RecordingState(state, again)
    for step in data["steps"]:
        recording.apply(step["action"])
    if data.get("outcome") is not None and again.outcome is None:
        again.finish(state)                 # a game cut short keeps its (not over) outcome
    return again


def verify(path: Path) -> tuple[dict, object]:
    """Load and re-play a replay; (its data, the final state). ReplayError on the first difference."""
    data = load(path)
    return data, replay_steps(data, path)


def ends_early(data: dict) -> str:
    """What a file without an outcome is: a record cut short (a game stopped on purpose has an outcome)."""
    return f"the record ends early, after step {len(data['steps'])}, with no outcome (a file cut short?)"


def result_text(data: dict) -> str:
    """'attacker won', 'a draw', 'not finished' (stopped before its end, on purpose) or that the record ends
    early (no outcome: the file was cut short)."""
    if data.get("outcome") is None:
        return ends_early(data)
    out = data["outcome"]
    if not out.get("over"):
        return "not finished"
    returns = out["returns"]
    winners = [s for s, r in zip(data["sides"], returns) if r == max(returns) and r > 0]
    return f"{' and '.join(winners)} won" if winners else "a draw"


def summary(data: dict) -> str:
    """One line: what was played and how it ended."""
    agents = ", ".join(f"{s}: {a}" for s, a in zip(data["sides"], data["agents"]))
    return (f"{data['ruleset']}, scenario {data['scenario']}, seed {data['seed']} ({agents}): "
            f"{len(data['steps'])} steps, {result_text(data)}")
