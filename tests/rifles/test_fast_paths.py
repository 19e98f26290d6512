"""The speed-ups of the Rifles hot paths give exactly what the plain computations give.

Each fast path (the legal mask in a bytearray, the enemy-held Ground levels worked out once per mask,
`has_shooter`, `best_target_number`, the observation packed with struct and its cached map block) is
checked against the straightforward computation it replaces, on every decision of played games, and the
map block right after the terrain changes that must rebuild it (RU-DC-5 breach, RU-DC-7 collapse).
"""
from __future__ import annotations

import numpy as np
import pytest

import envs  # noqa: F401  (registers the rulesets)
from agents.base import decide
from envs import registry
from envs.rifles import demo, fire, geometry, legal, observation
from envs.rifles.actions import NUM_ACTIONS
from envs.rifles.game import RiflesGame
from envs.rifles.state import GROUND

from .builders import fresh

GAMES = [("rifles-urban", {}), ("rifles-urban", {"advanced_urban": True, "enemy_rolls_as_choices": True}),
         ("rifles-darkness", {}), ("rifles-darkness", {"night_visibility": True, "exposed_movement": True})]


def decisions(env: str, options: dict, games: int = 4):
    """Every decision point of a few random-player v scripted-enemy games."""
    ruleset = registry.get(env)
    for seed in range(games):
        game = ruleset.new_game(seed=seed, **options)
        agents = {0: registry.agents(ruleset.name)["random"](0, seed), 1: registry.agents(ruleset.name)["scripted"](1, seed)}
        while game.current_side is not None:
            yield game
            game.apply(decide(agents[game.current_side], game, game.current_side))


def plain_mask(game) -> np.ndarray:
    m = np.zeros(NUM_ACTIONS, dtype=bool)
    kind, ctx = game.decision
    m[list(legal.LEGAL[kind](game, ctx))] = True
    return m


def fresh_observation(game, side: int) -> np.ndarray:
    """The observation of a copy of `game` with nothing cached."""
    return observation.encode(RiflesGame.from_dict(game.to_dict()), side)


@pytest.mark.parametrize("env, options", GAMES)
def test_mask_equals_the_plain_mask(env, options):
    for game in decisions(env, options):
        m = legal.mask(game)
        assert m.dtype == np.bool_ and m.shape == (NUM_ACTIONS,)
        assert np.array_equal(m, plain_mask(game))


@pytest.mark.parametrize("env, options", GAMES)
def test_enemy_ground_is_where_groups_at_finds_an_enemy(env, options):
    """RB-MAP-4: the set `moves` checks holds exactly the Ground levels groups_at finds an enemy on."""
    for game in decisions(env, options):
        held = legal.enemy_ground(game)
        for stripe in range(1, len(game.places)):
            for place in range(len(game.places[stripe])):
                assert ((stripe, place) in held) == bool(geometry.groups_at(game.enemies, stripe, place, GROUND))


@pytest.mark.parametrize("env, options", GAMES)
def test_has_shooter_and_best_target_number_equal_the_plain_ones(env, options):
    """RB-FIRE-1 shooters and RB-FIRE-2 target numbers, both ways between every pair of groups; lowest_tn is the
    least target_number of the shooters (of some units too)."""
    for game in decisions(env, options):
        pairs = [(a, b) for a in game.players for b in game.enemies] + [(b, a) for a in game.players for b in game.enemies]
        for firer in game.players:
            assert fire.targets_with_shooter(game, firer, game.enemies) == [
                e for e in game.enemies if fire.has_shooter(game, firer, e)]
        for firer, target in pairs:
            for free in (False, True):
                shooters = fire.shooters(game, firer, target, free)
                assert fire.has_shooter(game, firer, target, free) == bool(shooters)
            weapons = [game.tables.weapons[u.weapon] for u in firer.units]
            plain = min((fire.target_number(game, firer.position, target.position, w) for w in weapons), default=7)
            assert fire.best_target_number(game, firer.position, target.position, weapons) == plain
            for units in (None, firer.units[::2]):       # all the shooters, and those of every other unit
                shooters = [u for u in fire.shooters(game, firer, target) if units is None or u in units]
                assert fire.has_shooter(game, firer, target, units=units) == bool(shooters)
                plain = min((fire.target_number(game, firer.position, target.position, game.tables.weapons[u.weapon])
                             for u in shooters), default=7)
                assert fire.lowest_tn(game, firer, target, units) == plain


@pytest.mark.parametrize("env, options", GAMES)
def test_observation_equals_a_fresh_encoding(env, options):
    for game in decisions(env, options, games=2):
        for side in (0, 1):
            obs = game.observation(side)
            assert obs.dtype == np.float32 and obs.shape == (observation.SIZE,)
            assert obs.tobytes() == fresh_observation(game, side).tobytes()


def test_map_block_is_rebuilt_after_a_breach_and_a_collapse():
    """RU-DC-5 unseals a building and RU-DC-7 turns it into Rubble and dissolves its complex: the cached map
    block must follow each change (one made by hand, after the `refresh` a position set up by hand calls)."""
    game = fresh()
    game.observation(0)                                   # fills the cache
    building = next(f for stripe in game.places[1:] for f in stripe[1:] if f.is_building and f.complex is not None)
    building.sealed = True
    game.refresh()
    assert game.observation(0).tobytes() == fresh_observation(game, 0).tobytes()
    demo.breach(game, building)                           # RU-DC-5
    assert not building.sealed
    assert game.observation(0).tobytes() == fresh_observation(game, 0).tobytes()
    demo.collapse(game, building, 6)                      # RU-DC-7
    assert building.kind == "rubble" and building.complex is None
    assert game.observation(0).tobytes() == fresh_observation(game, 0).tobytes()


@pytest.mark.parametrize("env, options", GAMES)
def test_priority_choice_is_the_least_tuple_of_all_criteria(env, options):
    """agents/priority.py ranks criterion by criterion, working a later one out only for the options still tied;
    the choice must be the option with the least tuple of all its criteria (the first listed among equals). The rules
    list the options in the automaton's order already, so they are offered here in reverse too."""
    from agents.scripted.rifles import PRIORITIES, rule_of

    checked = 0
    for game in decisions(env, options):
        kind, ctx = game.decision
        if game.current_side != 1 or kind not in ("activate", "place", "target", "free_attacker"):
            continue
        view = game.view(1)
        priority = PRIORITIES[rule_of(kind, ctx)]
        listed = list(ctx["options"]) if kind == "place" else [view.group(0 if kind == "target" else 1, s) for s in ctx["options"]]
        keys = [criterion.key(view, ctx) for criterion in priority.criteria]
        for offered in (listed, listed[::-1]):
            plain = min(offered, key=lambda option: tuple(key(option) for key in keys))
            assert priority.choose(offered, view, ctx) == plain
        checked += 1
    assert checked


def scripted_decisions(env: str, options: dict, games: int = 12):
    """Every decision point of scripted-player v scripted-enemy games (more enemy fire and close combat than a random
    player draws)."""
    ruleset = registry.get(env)
    for seed in range(games):
        game = ruleset.new_game(seed=seed, **options)
        agents = {side: registry.agents(ruleset.name)["scripted"](side, seed) for side in (0, 1)}
        while game.current_side is not None:
            yield game
            game.apply(decide(agents[game.current_side], game, game.current_side))


@pytest.mark.parametrize("env, options", GAMES)
def test_rankings_the_rules_list_in_order_choose_their_first_option(env, options):
    """The scripted enemy takes the first option of RB-AI-2, RB-AI-6, RB-AI-10 and RB-AI-11 decisions unranked
    (agents.scripted.rifles.LISTED_IN_ORDER): at every such decision, the catalog's ranking must choose it, and the
    rules must list every option in the ranking's order."""
    from itertools import chain

    from agents.scripted.rifles import LISTED_IN_ORDER, PRIORITIES, rule_of

    checked = set()
    for game in chain(decisions(env, options), scripted_decisions(env, options)):
        kind, ctx = game.decision
        if game.current_side != 1 or kind not in ("activate", "target", "free_attacker"):
            continue
        rule = rule_of(kind, ctx)
        assert rule in LISTED_IN_ORDER
        view = game.view(1)
        priority = PRIORITIES[rule]
        listed = [view.group(0 if kind == "target" else 1, s) for s in ctx["options"]]
        keys = [criterion.key(view, ctx) for criterion in priority.criteria]
        assert listed == sorted(listed, key=lambda option: tuple(key(option) for key in keys))
        assert priority.choose(listed[::-1], view, ctx) is listed[0]
        checked.add(rule)
    assert "RB-AI-2" in checked and len(checked) >= 2
