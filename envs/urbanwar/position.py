"""Positions for rule tests (the contract's `build_position`): a compact spec, every cache derived.

    build_position({
        "scenario": "block_7",                     # a name under configs/urbanwar/scenarios, a path to a YAML file,
                                                   # or the scenario as data (a dict in the files' shape)
        "map": {"=": [[10, 21]]},                  # cells changed to a terrain character (UW-TAB-2)
        "profiles": {"trooper": {"AS": 5, "ranged": "rifle"}},   # unit stats: a profile changed for this game
        "models": {"A1": [10, 20], "B3": [11, 20]},   # placed models (the others: removed, as `lost`)
        "profile": {"A1": "heavy"},                # a model's profile (one of the tables')
        "lost": ["A2", "B1"],                      # removed earlier in the game (UW-WIN-3 counts them)
        "orders": {"A1": "snap", "B3": "overwatch"},   # face-down orders (face-up with "snap!"/"overwatch!")
        "wounds": {"B1": 1}, "panic": ["A2"], "activated": ["A3"], "follow_ups_used": {"A1": 1},
        "turn": 2, "first": 0, "phase": "activation",  # the turn, the side to activate, where the turn starts
    }, dice=ScriptedDice([...]))

`scenario`: a name under configs/urbanwar/scenarios; a path (a `pathlib.Path`, or a string with a `/` or ending in
.yaml) to a scenario file anywhere; or a dict in the scenario files' own shape, checked as a file is (errors name
`position.scenario`). A game built from data, or with `map` or `profiles` changes, saves its `scenario_built`
record (`{"scenario", "map", "profiles"}`) with `to_dict`, and `from_dict` builds the same scenario again.

`profiles` changes profiles of the tables for this game (every model of that profile): the stats AS SH ST T W CD
SZ MV CAL FS (UW-STAT-1 ranges), the loadout `ranged` and `cc` (weapons of UW-TAB-3), `heavy_armour`,
`high_morale`, `battleshield`, `role`. `profile` gives a model another profile of the tables (its kind).

Models not placed are off the table and removed (w 0), as those named in `lost`: removed earlier in the game, so
UW-WIN-3's count of removed enemies counts them (both lists are public, UW-HID-1). A model may not be both placed
and lost.

`phase` is where turn `turn` (default 1) starts, `first` (default 0) being the side to activate and the turn-1
roll-off winner:
  * "activation" (default): the activation phase, `first` to activate (UW-TURN-9); with `"start": ["action",
    "A1"]`, A1 activated and its action decision next;
  * "orders": the turn from its start (UW-TURN-1..8: marker and order phases, then the initiative roll with `dice`);
  * "end": the turn's end (UW-TURN-12): the next turn starts, or after the last the limit decides (UW-WIN-3).

What the build plays through before the first decision is the game's `setup_events`, which travel with `to_dict`.
An unknown key, model, profile, stat or weapon fails in one line naming the field.
"""
from __future__ import annotations

import copy

from envs.engine.dice import Dice
from envs.engine.scenario import ScenarioError

from . import config
from .built import PositionError, scenario_for
from .tasks import BeginAction, NextActivation, TurnEnd, TurnStart

ORDER_NAMES = {"snap": 0, "overwatch": 1}
SPEC_KEYS = {"scenario", "map", "profiles", "models", "profile", "lost", "orders", "wounds", "panic", "activated",
             "follow_ups_used", "turn", "first", "start", "phase"}
PHASES = ("activation", "orders", "end")


def build_position(spec: dict, dice: Dice | None, scenario: str, **options):
    """An Urban War game set up as `spec` says (see the module docstring), with `dice` (default: seeded 0)."""
    from envs.engine.dice import SeededDice

    from .game import UrbanWarGame
    unknown = sorted(set(spec) - SPEC_KEYS)
    if unknown:
        raise PositionError(f"position: unknown key {unknown[0]!r}; known: {', '.join(sorted(SPEC_KEYS))}")
    sc = scenario_for({"scenario": copy.deepcopy(spec.get("scenario", scenario)), "map": spec.get("map") or {},
                       "profiles": spec.get("profiles") or {}})
    game = UrbanWarGame(sc, dice if dice is not None else SeededDice(0), options, _setup=False)
    ids = {m.id: m for m in game.models}
    for mid, (x, y) in spec.get("models", {}).items():
        _model(ids, mid, "models")
        if not (0 <= x < config.SIZE and 0 <= y < config.SIZE):
            raise PositionError(f"models.{mid}: expected a cell [x, y] in 0..{config.SIZE - 1}, got {[x, y]}")
        game.place(ids[mid], y * config.SIZE + x)
    for mid, key in spec.get("profile", {}).items():
        if key not in game.tables.profiles:
            raise PositionError(f"profile.{mid}: expected one of {', '.join(game.tables.profiles)}, got {key!r}")
        m = _model(ids, mid, "profile")
        m.profile, m.w = game.tables.profiles[key], game.tables.profiles[key].W
    for mid in spec.get("lost", ()):
        if _model(ids, mid, "lost").placed:
            raise PositionError(f"lost.{mid}: a model placed by `models` cannot also be lost")
    for m in game.models:
        if m.cell < 0:
            m.w, m.cell = 0, -1                   # removed before the position (UW-WIN-3 counts it)
    for mid, w in spec.get("wounds", {}).items():
        _model(ids, mid, "wounds").w = ids[mid].profile.W - w
    for mid in spec.get("panic", ()):
        _model(ids, mid, "panic").panic = True
    for mid in spec.get("activated", ()):
        _model(ids, mid, "activated").activated = True
    for mid, fu in spec.get("follow_ups_used", {}).items():
        _model(ids, mid, "follow_ups_used").fu_used = fu
    for mid, name in spec.get("orders", {}).items():
        m = _model(ids, mid, "orders")
        if name.rstrip("!") not in ORDER_NAMES:
            raise PositionError(f"orders.{mid}: expected snap or overwatch (! for face up), got {name!r}")
        game.orders.place_face_up(m.side, m.idx, ORDER_NAMES[name.rstrip("!")])
        if not name.endswith("!"):
            game.orders.face_up.discard(m.idx)
    turn = spec.get("turn", 1)
    if not isinstance(turn, int) or isinstance(turn, bool) or not 1 <= turn <= sc.turns:
        raise PositionError(f"turn: an integer 1..{sc.turns} (the scenario's last turn), got {turn!r}")
    game.turn, game.deployed, game.rolloff_winner = turn, True, spec.get("first", 0)
    _start(game, spec, ids)
    game.refresh()
    game.run()
    game.setup_events = game.log.take()
    return game


def _model(ids: dict, mid: str, field: str):
    if mid not in ids:
        raise PositionError(f"{field}.{mid}: expected a model of the scenario ({', '.join(ids)})")
    return ids[mid]


def _start(game, spec: dict, ids: dict) -> None:
    phase = spec.get("phase", "activation")
    if phase not in PHASES:
        raise PositionError(f"phase: one of {', '.join(PHASES)}, got {phase!r}")
    start = spec.get("start")
    if phase == "orders":
        game.push(TurnStart())
    elif phase == "end":
        game.push(TurnEnd())
    elif start:
        m = _model(ids, start[1], "start")
        m.activated = True
        game.orders.remove(m.idx)
        game.push(BeginAction(m.idx, False))
    else:
        game.push(NextActivation(spec.get("first", 0)))


# The scenario ------------------------------------------------------------------------------------------------


__all__ = ["PositionError", "ScenarioError", "build_position", "scenario_for"]
