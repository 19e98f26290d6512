"""Compact set-ups and checks for Rifles rule tests: groups placed by hand, dice scripted.

    game = fresh()                       # Block Six, no markers, player to decide, AP 4
    put(game, "A", "5a", level=1)        # a player group onto a feature (or a Stripe number: the Open)
    x = enemy(game, "X", ["rifle", "lmg"], "4a")
    dice(game, 6, 1, 4)                  # the next rolls, in order
    act(game, "activate", 0); act(game, "fire", x.gid, 0)
    game, c, x = one_on_one("C", 2, ["rifle"], 3)    # the usual first lines of a fire or close combat test

Rifles in the Darkness (test_darkness_*.py) play Night Crossing:

    game = night()                                   # Night Crossing, no markers, player to decide, AP 4
    k = dark(game, "K", ["crawler", "crawler"], 2)   # a revealed Darkness group on Stripe 2's Open
    events = enemy_turn(game, k)                     # end the Player Phase, K activates (no order roll scripted)

Dice are scripted face by face: a d6 per die; a random unit among n rolls one die of size n (none for one
unit); 1d3 one face, 2d3 two faces; D66 two faces.
"""
from __future__ import annotations

import json

import numpy as np
import pytest

from envs.engine.contract import IllegalActionError
from envs.engine.dice import ScriptedDice
from envs.rifles.actions import CODEC
from envs.rifles.game import RiflesGame
from envs.rifles.state import ENEMY, GROUND, QUALITY, Group, Unit


# Building a position ------------------------------------------------------------------------------
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
    game.refresh()
    return group


def player(game: RiflesGame, name: str) -> Group:
    """The player group called `name`."""
    return next(g for g in game.players if g.name == name)


def enemy(game: RiflesGame, name: str, weapons, at, level: int = 0, quality: str = "regular", leader: bool = False) -> Group:
    """A revealed enemy group placed by hand."""
    slot = len(game.enemies)
    units = [Unit(f"{name}{i + 1}", ENEMY, QUALITY[quality], w, leader and i == 0) for i, w in enumerate(weapons)]
    stripe, place = where(game, at)
    group = Group(slot, name, ENEMY, units, stripe, place, level)
    game.enemies.append(group)
    game.refresh()
    return group


def night(markers: bool = False, **options) -> RiflesGame:
    """A new Night Crossing at the first player decision (markers removed unless asked for)."""
    return fresh("night_crossing", markers=markers, **options)


def dark(game: RiflesGame, name: str, types, at, level: int = GROUND) -> Group:
    """A revealed Darkness group (units `name`1, `name`2, ...) made by the engine's own constructor, placed by hand."""
    group = game.new_enemy_group(name, [(t, False) for t in types], 1, [f"{name}{i + 1}" for i in range(len(types))])
    group.stripe, group.place = where(game, at)
    group.level = level
    game.refresh()
    return group


def only(game: RiflesGame, *names: str) -> None:
    """Remove every group not named (so tests see only the groups they use)."""
    for g in game.players:
        if g.name not in names:
            g.units = []
    for g in game.enemies:
        if g.name not in names:
            g.units = []
    game.refresh()


def ready(game: RiflesGame, name: str, at=None, level: int = GROUND) -> Group:
    """Activate player group `name`, put on `at` (and `level`) first unless `at` is None (then it stays where it is)."""
    group = player(game, name) if at is None else put(game, name, at, level)
    act(game, "activate", group.gid)
    return group


def one_on_one(name: str, at, weapons, enemy_at, enemy_level: int = 0, keep=(), activate: bool = True):
    """Fresh game of only `name` (activated on `at`), `keep` and enemy X (`weapons`) on `enemy_at`: (game, group, x)."""
    game = fresh()
    x = enemy(game, "X", list(weapons), enemy_at, level=enemy_level)
    only(game, name, "X", *keep)
    group = put(game, name, at)
    if activate:
        act(game, "activate", group.gid)
    return game, group, x


# Playing ------------------------------------------------------------------------------------------
def act(game: RiflesGame, family: str, *args: int):
    """Apply one action by family and arguments; returns the events."""
    return game.apply(CODEC.encode(family, *args))


def move_args(game: RiflesGame, at, recon: int = 0) -> tuple[int, int, int]:
    """The arguments of a `move` action to `at` (a feature id or a Stripe number)."""
    stripe, place = where(game, at)
    return (stripe - 1, place, recon)


def start_enemy_phase(game: RiflesGame) -> list:
    """End the Player Phase (no dice); the enemy must choose which group activates. Returns the events."""
    events = act(game, "end_phase")
    assert game.decision[0] == "activate", game.decision
    return events


def activate(game: RiflesGame, group: Group, *faces: int):
    """Activate enemy `group` with the next dice scripted (the order roll first); returns the events."""
    dice(game, *faces)
    return act(game, "e_activate", group.gid)


def enemy_turn(game: RiflesGame, group: Group, *faces: int):
    """End the Player Phase and activate enemy `group` with the next dice scripted (the order roll first)."""
    start_enemy_phase(game)
    return activate(game, group, *faces)


def stalker_chose_p(at=1):
    """Night Crossing with a Stalker T on `at` that, in the Enemy Phase, has chosen P as its target: the enemy now
    decides between a Fast attack and Close Combat (RD-AI-1). Returns (game, t, p)."""
    game = night()
    t = dark(game, "T", ["stalker"], at)
    p = player(game, "P")
    enemy_turn(game, t)
    act(game, "e_target", p.gid)
    return game, t, p


# Looking ------------------------------------------------------------------------------------------
def legal(game: RiflesGame, family: str, *args: int) -> bool:
    """Whether the action is in the legal mask."""
    return bool(game.legal_action_mask()[CODEC.encode(family, *args)])


def legal_actions(game: RiflesGame) -> set[tuple[str, tuple[int, ...]]]:
    """Every legal action as (family, args)."""
    return {CODEC.decode(int(a)) for a in np.flatnonzero(game.legal_action_mask())}


def families(game: RiflesGame) -> set[str]:
    """The families of the legal actions."""
    return {family for family, _ in legal_actions(game)}


def moves(game: RiflesGame) -> set[tuple[int, int, int]]:
    """Legal moves as (stripe, place, recon)."""
    return {(args[0] + 1, args[1], args[2]) for family, args in legal_actions(game) if family == "move"}


def assert_illegal(game: RiflesGame, family: str, *args: int) -> None:
    """The action is masked out, and applying it raises IllegalActionError and changes nothing (as data and as JSON)."""
    assert not legal(game, family, *args), (family, args)
    before = game.to_dict()
    with pytest.raises(IllegalActionError):
        act(game, family, *args)
    after = game.to_dict()
    assert after == before
    assert json.dumps(after, sort_keys=True) == json.dumps(before, sort_keys=True)


def unit(group: Group, name: str) -> Unit:
    """The unit called `name` in `group`."""
    return next(u for u in group.units if u.name == name)


def rolled(game: RiflesGame) -> list[tuple[int, int]]:
    """(sides, face) of every die rolled by the current scripted dice."""
    return list(game.dice.log)


def kinds(events) -> list[str]:
    """The kind of each event."""
    return [e.kind for e in events]


def texts(events, kind: str | None = None) -> list[str]:
    """The text of each event (of `kind` only, when given), without the dice rolled."""
    return [e.text for e in events if kind is None or e.kind == kind]
