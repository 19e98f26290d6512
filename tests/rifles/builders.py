"""Compact set-ups for Rifles rule tests: Block Six's map, groups placed by hand, dice scripted.

    game = fresh()                       # Block Six, no markers, player to decide, AP 4
    put(game, "A", "5a", level=1)        # a player group onto a feature (or a Stripe number: the Open)
    x = enemy(game, "X", ["rifle", "lmg"], "4a")
    dice(game, 6, 1, 4)                  # the next rolls, in order
    act(game, "activate", 0); act(game, "fire", x.gid, 0)
"""
from __future__ import annotations

from envs.engine.dice import ScriptedDice
from envs.rifles.actions import CODEC
from envs.rifles.game import RiflesGame
from envs.rifles.state import ENEMY, QUALITY, Group, Unit


def fresh(scenario: str = "block_six", markers: bool = False, **options) -> RiflesGame:
    """A new game at the first player decision; markers removed unless asked for."""
    game = RiflesGame.new(scenario, dice=ScriptedDice([]), **options)
    if not markers:
        game.markers = [None] * len(game.markers)
    return game


def dice(game: RiflesGame, *faces: int) -> ScriptedDice:
    """Script the next rolls (each a primitive die face)."""
    game.dice = ScriptedDice(faces)
    return game.dice


def where(game: RiflesGame, at) -> tuple[int, int]:
    """(stripe, place) of a feature id such as '4a', or the Open of a Stripe number."""
    if isinstance(at, int):
        return at, 0
    f = game.feature_by_id(at)
    return f.stripe, f.place


def put(game: RiflesGame, name: str, at, level: int = 0) -> Group:
    """Move a group (player or enemy) by hand."""
    group = next(g for g in game.players + game.enemies if g.name == name)
    group.stripe, group.place = where(game, at)
    group.level = level
    game._mask = None
    return group


def player(game: RiflesGame, name: str) -> Group:
    return next(g for g in game.players if g.name == name)


def enemy(game: RiflesGame, name: str, weapons, at, level: int = 0, quality: str = "regular", leader: bool = False) -> Group:
    """A revealed enemy group placed by hand."""
    slot = len(game.enemies)
    units = [Unit(f"{name}{i + 1}", ENEMY, QUALITY[quality], w, leader and i == 0) for i, w in enumerate(weapons)]
    stripe, place = where(game, at)
    group = Group(slot, name, ENEMY, units, stripe, place, level)
    game.enemies.append(group)
    game._mask = None
    return group


def only(game: RiflesGame, *names: str) -> None:
    """Remove every player group not named (so tests see only the groups they use)."""
    for g in game.players:
        if g.name not in names:
            g.units = []
    for g in game.enemies:
        if g.name not in names:
            g.units = []
    game._mask = None


def act(game: RiflesGame, family: str, *args: int):
    """Apply one action by family and arguments; returns the events."""
    return game.apply(CODEC.encode(family, *args))


def legal(game: RiflesGame, family: str, *args: int) -> bool:
    return bool(game.legal_action_mask()[CODEC.encode(family, *args)])


def unit(group: Group, name: str) -> Unit:
    return next(u for u in group.units if u.name == name)


def texts(events) -> list[str]:
    return [str(e) for e in events]
