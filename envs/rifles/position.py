"""Positions a test can build (the contract's `build_position`): a Rifles game set up from a small dict.

    build_position({
        "scenario": "block_six",            # a name under configs/rifles/scenarios, a path to a YAML file, or the
                                            # scenario as data (a dict in the files' shape); default: the ruleset's
        "weapons": {"rifle": {"cf": 3}},    # unit stats: RB-TAB-3 rows changed for this game (every unit of that weapon)
        "markers": False,                   # keep the scenario's Enemy Markers (default: removed)
        "only": ["A", "X"],                 # keep only these groups (the others never took part)
        "lost": ["A2", "S"],                # units (or whole groups) eliminated earlier in the game
        "players": {"A": {"at": "5a", "level": 1, "suppressed": [0], "quality": "veteran"},
                    "B": {"loadout": [{"id": "B1", "quality": "regular", "weapon": "smg", "leader": True}],
                          "demo_charges": 1}},
        "enemies": {"X": {"weapons": ["rifle", "lmg"], "at": "4a", "quality": "veteran", "leader": True}},
        "darkness": {"K": {"types": ["crawler", "crawler"], "at": 2}},   # Darkness groups (Night Crossing)
        "turn": 3, "phase": "player",       # the turn, and where in it play starts
    }, dice=ScriptedDice([6, 1]))

`scenario`: a name under configs/rifles/scenarios; a path (a `pathlib.Path`, or a string with a `/` or ending in
.yaml) to a scenario file anywhere; or a dict in the scenario files' own shape, checked as a file is (errors name
`position.scenario`). A game built from data or with changed `weapons` saves its `scenario_built` record
(`{"scenario": ..., "weapons": ...}`) with `to_dict`, and `from_dict` builds the same scenario again.

A group (`players`, `enemies`, `darkness`), each key optional:
  * place: `at` (a feature id, or a Stripe number for its Open), `level` (0 Ground, 1 First Floor), `in_sewer`;
  * profile and loadout: `loadout` (its units in the scenario files' `units` shape: id, quality, weapon, leader;
    a unit's stats are its weapon's RB-TAB-3 row, RB-GEN-4), `quality` (every unit's: recruit | regular |
    veteran), `weapons` + `leader` (shorthand loadout: units named <group>1, <group>2, ..., the first the Leader if
    `leader`), `demo_charges` and `sewers` (a player group's, RU-DC-1, RU-SEW-1);
  * state: `suppressed` (unit indices: one result taken, RB-HIT-1).
`players` names the scenario's player groups; `enemies` a scenario enemy group (changed) or a new revealed group
(`weapons` or `loadout` needed; its quality the scenario's enemy quality unless given); `darkness` a new Darkness
group of `types` (their `kind`, RD-GEN-3: Regular, never Suppressed).

`lost`: units eliminated before the position (a unit's name, or a group's name for all its units): out of play,
in the graveyard; a player unit counts as eliminated (RB-VIC-3's squad morale, an exit scenario's
`loss_eliminated`, RD-SCN-3, which ends the game at once when reached). `only` leaves groups out: they never took
part (a player group left out is not among the squad's starting units, so RB-VIC-3 does not count it).

`phase` is where turn `turn` (default 1, at most the scenario's last) starts:
  * "player" (default): the Player Phase begins (RB-TURN-2: AP from the scenario, one BAP per unsuppressed Leader):
    the player's first decision;
  * "enemy": the player has ended the Player Phase: the Enemy Phase runs with `dice` (RB-TURN-5) to its first
    enemy decision;
  * "end": the turn end: the End Phase's checks (RB-TURN-6, RB-VIC-3, the Hold objective, the time limit) run with
    `dice`, then the next turn's Player Phase, or the game ends.

The Enemy Markers stay unrevealed where the scenario puts them (no RB-EM-2 sweep at build: the first move
sweeps). What the build rolls (RU-ADV-1 with the `advanced_urban` option, an Enemy Phase or End Phase played
through) comes from `dice` and is the game's `setup_events`, which travel with `to_dict`. Every cache is derived
here; an unknown key, group, unit, feature or weapon fails in one line naming the field.
"""
from __future__ import annotations

import copy

import msgspec

from envs.engine.dice import Dice, ScriptedDice

from . import config, schema
from .built import PositionError, check_keys, scenario_for
from .game import RiflesGame
from .state import ENEMY, FIRST, GROUND, PLAYER, QUALITY, Group, Unit
from .tasks import EndPhase, EnemyPhase, PlayerPhase

SPEC_KEYS = {"scenario", "weapons", "markers", "only", "lost", "players", "enemies", "darkness", "turn", "phase"}
PLACE_KEYS = {"at", "level", "in_sewer", "suppressed"}
PROFILE_KEYS = {"loadout", "quality"}
PLAYER_KEYS = PLACE_KEYS | PROFILE_KEYS | {"demo_charges", "sewers"}
ENEMY_KEYS = PLACE_KEYS | PROFILE_KEYS | {"weapons", "leader"}
DARK_KEYS = PLACE_KEYS | {"types"}
#: where a position may start in its turn, and the task that plays the turn from there (RB-TURN-1)
PHASES = {"player": PlayerPhase, "enemy": EnemyPhase, "end": EndPhase}


def build_position(spec: dict, dice: Dice | None = None, default_scenario: str = "block_six",
                   **options) -> RiflesGame:
    """A Rifles game set up as `spec` says (see the module docstring), with `dice` (default: no dice left)."""
    check_keys("position", spec, SPEC_KEYS)
    built = {"scenario": copy.deepcopy(spec.get("scenario", default_scenario)), "weapons": spec.get("weapons") or {}}
    scenario = scenario_for(built)
    game = RiflesGame(scenario, dice if dice is not None else ScriptedDice([]), options, _setup=False)
    game.lay_out()                                    # RU-ADV-1 rolls with `dice`
    if not spec.get("markers", False):
        game.markers = [None] * len(game.markers)
    for name, item in spec.get("players", {}).items():
        check_keys(f"players.{name}", item, PLAYER_KEYS)
        _set_group(game, _group(game.players, name, "players"), item, f"players.{name}")
    for name, item in spec.get("enemies", {}).items():
        check_keys(f"enemies.{name}", item, ENEMY_KEYS)
        group = next((g for g in game.enemies if g.name == name), None) or _new_enemy(game, name, item)
        _set_group(game, group, item, f"enemies.{name}")
    for name, item in spec.get("darkness", {}).items():
        check_keys(f"darkness.{name}", item, DARK_KEYS)
        _set_group(game, _new_darkness(game, name, item), item, f"darkness.{name}")
    if "only" in spec:
        _keep_only(game, spec["only"])
    game.start_units = sum(len(g.units) for g in game.players)     # RB-VIC-3: the squad that takes part
    _mark_lost(game, spec.get("lost", ()))
    game.turn = _turn(spec.get("turn", 1), scenario)
    _start(game, spec.get("phase", "player"))
    return game


# The scenario ------------------------------------------------------------------------------------------------


# Groups ------------------------------------------------------------------------------------------------------


def _group(groups: list[Group], name: str, field: str) -> Group:
    for group in groups:
        if group.name == name:
            return group
    raise PositionError(f"{field}.{name}: no such group; known: {', '.join(g.name for g in groups)}")


def _new_enemy(game: RiflesGame, name: str, item: dict) -> Group:
    """A new revealed enemy group in the Open of Stripe 1 until placed; its units are set by `_set_group`."""
    if "weapons" not in item and "loadout" not in item:
        raise PositionError(f"enemies.{name}: a new enemy group needs `weapons` or `loadout`")
    group = Group(len(game.enemies), name, ENEMY, [], 1)
    game.enemies.append(group)
    return group


def _new_darkness(game: RiflesGame, name: str, item: dict) -> Group:
    """RD-GEN-3: a Darkness group of `types` (each unit's kind), Regular."""
    types = game.scenario.darkness.types if game.scenario.darkness is not None else {}
    for t in item.get("types", ()):
        if t not in types:
            raise PositionError(f"darkness.{name}.types: expected Darkness types of the scenario ({', '.join(types)}), "
                                f"got {t!r}")
    if not item.get("types"):
        raise PositionError(f"darkness.{name}.types: expected a list of Darkness types")
    return game.new_enemy_group(name, [(t, False) for t in item["types"]], 1,
                                [f"{name}{i + 1}" for i in range(len(item["types"]))])


def _set_group(game: RiflesGame, group: Group, item: dict, field: str) -> None:
    """The loadout and profile first (what the group is), then its place and state."""
    if "weapons" in item:
        _check_weapons(game, item["weapons"], f"{field}.weapons")
        quality = QUALITY[game.scenario.enemy_quality]
        group.units = [Unit(f"{group.name}{i + 1}", group.side, quality, w, item.get("leader", False) and i == 0)
                       for i, w in enumerate(item["weapons"])]
    if "loadout" in item:
        group.units = _loadout(game, group, item["loadout"], f"{field}.loadout")
    if "quality" in item:
        if item["quality"] not in QUALITY:
            raise PositionError(f"{field}.quality: expected one of {', '.join(QUALITY)}, got {item['quality']!r}")
        for unit in group.units:
            if unit.kind is None:                      # RD-CC-4/7: a Darkness unit is always counted Regular
                unit.quality = QUALITY[item["quality"]]
    for key in ("demo_charges", "sewers"):
        if key in item:
            setattr(group, key, _checked(item[key], key, f"{field}.{key}"))
    _place(game, group, item, field)


def _checked(value, key: str, field: str):
    if key == "demo_charges" and (not isinstance(value, int) or isinstance(value, bool) or not 0 <= value <= 20):
        raise PositionError(f"{field}: expected an integer 0..20 (RU-DC-1), got {value!r}")
    if key in ("sewers", "in_sewer") and not isinstance(value, bool):
        raise PositionError(f"{field}: expected true or false, got {value!r}")
    return value


def _check_weapons(game: RiflesGame, weapons, field: str) -> None:
    if not isinstance(weapons, list) or not weapons:
        raise PositionError(f"{field}: expected a list of weapons, got {weapons!r}")
    for weapon in weapons:
        if weapon not in game.tables.weapons:
            raise PositionError(f"{field}: unknown weapon {weapon!r}")


def _loadout(game: RiflesGame, group: Group, given, field: str) -> list[Unit]:
    """A group's units in the scenario files' `units` shape (schema.Unit), weapons of the tables (or, for an enemy
    group, Darkness types: then the unit's kind, RD-GEN-3)."""
    try:
        specs = msgspec.convert(given, list[schema.Unit], strict=True)
    except msgspec.ValidationError as err:
        raise PositionError(f"{field}: {err}") from None
    if not specs:
        raise PositionError(f"{field}: expected at least one unit")
    types = game.scenario.darkness.types if game.scenario.darkness is not None else {}
    units = []
    for i, u in enumerate(specs):
        if u.weapon not in game.tables.weapons or (u.weapon in types and group.side == PLAYER):
            raise PositionError(f"{field}[{i}].weapon: unknown weapon {u.weapon!r}")
        kind = u.weapon if u.weapon in types else None
        units.append(Unit(u.id, group.side, QUALITY["regular" if kind else u.quality], u.weapon, u.leader, kind=kind))
    return units


def _place(game: RiflesGame, group: Group, where: dict, field: str) -> None:
    """Put a group on a feature (its id) or a Stripe's Open (a number), on a level, in the sewer, some units
    suppressed."""
    at = where.get("at", None)
    if isinstance(at, int) and not isinstance(at, bool):
        if not 1 <= at <= config.STRIPES:
            raise PositionError(f"{field}.at: expected a feature id or a Stripe 1..{config.STRIPES}, got {at!r}")
        group.stripe, group.place = at, 0
    elif at is not None:
        try:
            feature = game.feature_by_id(at)
        except (KeyError, StopIteration, ValueError, TypeError):
            raise PositionError(f"{field}.at: no feature {at!r} on this map") from None
        group.stripe, group.place = feature.stripe, feature.place
    group.start_stripe = group.stripe
    group.level = where.get("level", GROUND)
    if group.level not in (GROUND, FIRST):
        raise PositionError(f"{field}.level: expected 0 (Ground) or 1 (First Floor), got {group.level!r}")
    if "in_sewer" in where:
        group.in_sewer = _checked(where["in_sewer"], "in_sewer", f"{field}.in_sewer")
    for index in where.get("suppressed", ()):
        if not isinstance(index, int) or not 0 <= index < len(group.units):
            raise PositionError(f"{field}.suppressed: expected unit indices 0..{len(group.units) - 1}, got {index!r}")
        group.units[index].hits = 1   # RB-HIT-1: one result suppresses an OK unit


def _keep_only(game: RiflesGame, names) -> None:
    """Remove every group not named: its units never took part."""
    known = {g.name for g in game.players + game.enemies}
    for name in names:
        if name not in known:
            raise PositionError(f"only: no group {name!r}; known: {', '.join(sorted(known))}")
    for group in game.players + game.enemies:
        if group.name not in names:
            group.units = []


def _mark_lost(game: RiflesGame, lost) -> None:
    """Units eliminated earlier in the game: gone, in the graveyard, a player's counted as eliminated (RB-VIC-3,
    an exit scenario's `loss_eliminated`); not this turn's losses (`lost_this_turn` stays as it was)."""
    groups = game.players + game.enemies
    for name in lost:
        group = next((g for g in groups if g.name == name), None)
        units = list(group.units) if group is not None else \
            [u for g in groups for u in g.units if u.name == name]
        if not units:
            known = [g.name for g in groups if g.units] + [u.name for g in groups for u in g.units]
            raise PositionError(f"lost: no unit or group {name!r} in play; known: {', '.join(known)}")
        for unit in units:
            owner = next(g for g in groups if unit in g.units)
            game.eliminate(owner, unit)
    game.lost_this_turn = False


def _turn(turn, scenario: config.Scenario) -> int:
    if not isinstance(turn, int) or isinstance(turn, bool) or not 1 <= turn <= scenario.turns:
        raise PositionError(f"turn: an integer 1..{scenario.turns} (the scenario's last turn), got {turn!r}")
    return turn


# Where play starts -------------------------------------------------------------------------------------------
def _start(game: RiflesGame, phase: str) -> None:
    """Start turn `game.turn` at `phase` and play to the first decision; what that rolls is `setup_events`."""
    if phase not in PHASES:
        raise PositionError(f"phase: one of {', '.join(PHASES)}, got {phase!r}")
    if phase != "player":
        game.phase, game.ap, game.bap, game.active = phase, 0, 0, -1    # RB-TURN-4: the Player Phase is over
    game.decision, game.tasks = None, [PHASES[phase]()]
    game.refresh()
    game.run()
    game.setup_events = game.log.take()
    game.refresh()
