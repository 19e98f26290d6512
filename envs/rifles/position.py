"""Positions a test can build (the contract's `build_position`): a Rifles game set up from a small dict.

    build_position({
        "scenario": "block_six",            # default: the ruleset's; its terrain, options and tables
        "markers": False,                   # keep the scenario's Enemy Markers (default: removed)
        "only": ["A", "X"],                 # keep only these groups (default: every group)
        "players": {"A": {"at": "5a", "level": 1, "suppressed": [0]}},    # a feature id, or a Stripe number (the Open)
        "enemies": {"X": {"weapons": ["rifle", "lmg"], "at": "4a", "quality": "veteran", "leader": True}},
        "darkness": {"K": {"types": ["crawler", "crawler"], "at": 2}},   # Darkness groups (Night Crossing)
    }, dice=ScriptedDice([6, 1]))

The game is at the player's first decision of turn 1 (AP to spend once a group is activated). Every cache is
derived here; an unknown key, group, feature or weapon fails in one line naming the field.
"""
from __future__ import annotations

from envs.engine.dice import Dice, ScriptedDice

from .game import RiflesGame
from .state import ENEMY, GROUND, QUALITY, Group, Unit

SPEC_KEYS = {"scenario", "markers", "only", "players", "enemies", "darkness"}
PLACEMENT_KEYS = {"at", "level", "suppressed"}
ENEMY_KEYS = PLACEMENT_KEYS | {"weapons", "quality", "leader"}
DARK_KEYS = PLACEMENT_KEYS | {"types"}


class PositionError(ValueError):
    """A position spec the builder cannot set up; the message names the field."""


def build_position(spec: dict, dice: Dice | None = None, default_scenario: str = "block_six",
                   **options) -> RiflesGame:
    """A Rifles game set up as `spec` says (see the module docstring), with `dice` (default: no dice left)."""
    _check_keys("position", spec, SPEC_KEYS)
    game = RiflesGame.new(spec.get("scenario", default_scenario), dice=ScriptedDice([]), **options)
    if not spec.get("markers", False):
        game.markers = [None] * len(game.markers)
    for name, where in spec.get("players", {}).items():
        _check_keys(f"players.{name}", where, PLACEMENT_KEYS)
        _place(game, _group(game.players, name, "players"), where, f"players.{name}")
    for name, item in spec.get("enemies", {}).items():
        _check_keys(f"enemies.{name}", item, ENEMY_KEYS)
        _place(game, _new_enemy(game, name, item), item, f"enemies.{name}")
    for name, item in spec.get("darkness", {}).items():
        _check_keys(f"darkness.{name}", item, DARK_KEYS)
        group = game.new_enemy_group(name, [(t, False) for t in item["types"]], 1,
                                     [f"{name}{i + 1}" for i in range(len(item["types"]))])
        _place(game, group, item, f"darkness.{name}")
    if "only" in spec:
        _keep_only(game, set(spec["only"]))
    game.dice = dice if dice is not None else ScriptedDice([])
    game.refresh()
    return game


def _check_keys(field: str, given: dict, known: set) -> None:
    if not isinstance(given, dict):
        raise PositionError(f"{field}: expected a mapping, got {given!r}")
    unknown = sorted(set(given) - known)
    if unknown:
        raise PositionError(f"{field}: unknown key {unknown[0]!r}; known: {', '.join(sorted(known))}")


def _group(groups: list[Group], name: str, field: str) -> Group:
    for group in groups:
        if group.name == name:
            return group
    raise PositionError(f"{field}.{name}: no such group; known: {', '.join(g.name for g in groups)}")


def _new_enemy(game: RiflesGame, name: str, item: dict) -> Group:
    """A revealed enemy group of the given weapons (first unit the leader if asked)."""
    quality = item.get("quality", "regular")
    if quality not in QUALITY:
        raise PositionError(f"enemies.{name}.quality: expected one of {', '.join(QUALITY)}, got {quality!r}")
    for weapon in item["weapons"]:
        if weapon not in game.tables.weapons:
            raise PositionError(f"enemies.{name}.weapons: unknown weapon {weapon!r}")
    units = [Unit(f"{name}{i + 1}", ENEMY, QUALITY[quality], w, item.get("leader", False) and i == 0)
             for i, w in enumerate(item["weapons"])]
    group = Group(len(game.enemies), name, ENEMY, units, 1)
    game.enemies.append(group)
    return group


def _place(game: RiflesGame, group: Group, where: dict, field: str) -> None:
    """Put a group on a feature (its id) or a Stripe's Open (a number), on a level, some units suppressed."""
    at = where.get("at", None)
    if isinstance(at, int):
        group.stripe, group.place = at, 0
    elif at is not None:
        try:
            feature = game.feature_by_id(at)
        except (KeyError, StopIteration, ValueError):
            raise PositionError(f"{field}.at: no feature {at!r} on this map") from None
        group.stripe, group.place = feature.stripe, feature.place
    group.level = where.get("level", GROUND)
    for index in where.get("suppressed", ()):
        group.units[index].hits = 1   # RB-HIT-1: one result suppresses an OK unit


def _keep_only(game: RiflesGame, names: set[str]) -> None:
    """Remove every group not named: its units are gone, as eliminated groups' are."""
    for group in game.players + game.enemies:
        if group.name not in names:
            group.units = []
