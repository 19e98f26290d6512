"""Every copy of a game in progress plays on exactly as the original: pickle, deepcopy, clone and to_dict/from_dict
of the game state; pickle and deepcopy of the Gymnasium env and of the AEC env. Each copy is made mid-game, after
the original's observations were taken (what fills the rulesets' observation caches), then the original and its
copies play the same actions side by side for up to STEPS decisions: every side's observation, the masks, the
events and the returns must agree at every one. Copies are compared with the original, never with each other (two
copies that share a fault agree with each other).
"""
from __future__ import annotations

import copy
import json
import pickle

import numpy as np

from envs.engine.dice import Dice
from envs.engine.events import Event
from envs.gym_env import RubbleEnv
from envs.pettingzoo_env import aec_env_factory
from tests import checkers

#: decisions played before copying (several mid-game points), then decisions compared after it
SPLITS = (3, 40, 150)
STEPS = checkers.env_int("RUBBLE_COPY_STEPS", 200)
SEED = 5


def pickled(x):
    return pickle.loads(pickle.dumps(x))


def cloned(state):
    """A clone given the original's own future dice: a clone branches its dice (rollouts never shift the game's),
    so only with the same rolls can it be held to the original's game."""
    twin = state.clone()
    twin.dice = Dice.from_dict(state.dice.to_dict())
    return twin


def restored(state):
    return type(state).from_dict(json.loads(json.dumps(state.to_dict())))


STATE_COPIES = {"pickle": pickled, "deepcopy": copy.deepcopy, "clone": cloned, "to_dict/from_dict": restored}
ENV_COPIES = {"pickle": pickled, "deepcopy": copy.deepcopy}


def plain(value):
    """`value` in a form `==` compares exactly: arrays by dtype, shape and bytes, events by their fields."""
    if isinstance(value, np.ndarray):
        return value.dtype.str, value.shape, value.tobytes()
    if isinstance(value, Event):
        return value.kind, value.text, value.side, value.dice, value.rule
    if isinstance(value, dict):
        return tuple(sorted((k, plain(v)) for k, v in value.items()))
    if isinstance(value, list | tuple):
        return tuple(plain(v) for v in value)
    return value


def assert_same(original, twins: dict, what: str, step: int) -> None:
    """Each copy's record equals the original's, failing on the first copy and field that differ."""
    for name, record in twins.items():
        if record != original:
            fields = [i for i, (a, b) in enumerate(zip(original, record)) if a != b]
            raise AssertionError(f"{what}: the {name} copy differs from the original {step} decisions after the "
                                 f"copy, in record fields {fields}")


# The game state -------------------------------------------------------------------------------------------------
def state_record(state, events: list) -> tuple:
    """Every side's observation, the mask, the events and the returns after a decision (checkers.record)."""
    return checkers.record(state, events)


def check_state_copies(ruleset, split: int) -> int:
    """Copies of the game after `split` random decisions follow it for STEPS decisions; how many were compared."""
    rng = np.random.default_rng(SEED + split)
    state = ruleset.new_game(seed=SEED + split)
    if len(checkers.play_recorded(state, rng, split)) < split or state.current_side is None:
        return 0
    twins = {name: make(state) for name, make in STATE_COPIES.items()}
    assert_same(state_record(state, []), {n: state_record(t, []) for n, t in twins.items()}, "state", 0)
    for step in range(1, STEPS + 1):
        if state.current_side is None:
            return step
        action = checkers.random_action(rng, state.legal_action_mask())
        expected = state_record(state, state.apply(action))
        assert_same(expected, {n: state_record(t, t.apply(action)) for n, t in twins.items()}, "state", step)
    return STEPS


def test_game_state_copies_play_on_as_the_original(ruleset):
    compared = [check_state_copies(ruleset, split) for split in SPLITS]
    assert sum(compared) > 0, "no game lasted to a copy"


# The Gymnasium env ----------------------------------------------------------------------------------------------
def gym_record(env: RubbleEnv, result: tuple) -> tuple:
    """A step's (or reset's) result, with every side's observation and the game's returns."""
    state = env.state
    sides = tuple(state.observation(s).tobytes() for s in range(len(env.ruleset.sides)))
    return plain(result), sides, state.current_side, tuple(state.returns())


def gym_step(env: RubbleEnv, action: int) -> tuple:
    """Step; at the end of a game, reset unseeded (the copy's np_random must give the same next game)."""
    result = env.step(action)
    record = gym_record(env, result)
    if result[2] or result[3]:
        record += gym_record(env, env.reset())
    return record


def test_gymnasium_env_copies_play_on_as_the_original(ruleset):
    for split in SPLITS:
        env = RubbleEnv(ruleset.name, opponent=checkers.default_opponent(ruleset), umpire_events=True)
        env.reset(seed=SEED + split)
        rng = np.random.default_rng(SEED + split)
        for _ in range(split):
            gym_step(env, checkers.random_action(rng, env.action_masks()))
        twins = {name: make(env) for name, make in ENV_COPIES.items()}
        for step in range(1, STEPS + 1):
            action = checkers.random_action(rng, env.action_masks())
            expected = gym_step(env, action)
            assert_same(expected, {n: gym_step(t, action) for n, t in twins.items()}, "Gymnasium env", step)


# The AEC env ----------------------------------------------------------------------------------------------------
def aec_step(env, action=None) -> tuple:
    """One AEC step (a dead step for a finished agent; a reset once every agent is done) and everything the agents
    may read after it: the selection, each agent's observe(), rewards, terminations, truncations, infos, state()."""
    if not env.agents:
        env.reset()
    else:
        terminated = env.last()[2]
        env.step(None if terminated else action)
    if not env.agents:
        return ("ended",)
    unwrapped = env.unwrapped
    observed = {a: plain(env.observe(a)) for a in env.agents}
    return (env.agent_selection, observed, plain(unwrapped.rewards), plain(unwrapped._cumulative_rewards),
            plain(unwrapped.terminations), plain(unwrapped.truncations), plain(unwrapped.infos),
            plain(env.state()), tuple(unwrapped.game.returns()))


def aec_action(env, rng: np.random.Generator):
    """A random legal action of the selected agent (None when it is finished or the episode is over)."""
    if not env.agents or env.last()[2]:
        return None
    return checkers.random_action(rng, env.observe(env.agent_selection)["action_mask"].astype(bool))


def test_aec_env_copies_play_on_as_the_original(ruleset):
    factory, _ = aec_env_factory(ruleset.name)
    for split in SPLITS:
        env = pickled(factory)(umpire_events=True)
        env.reset(seed=SEED + split)
        rng = np.random.default_rng(SEED + split)
        for _ in range(split):
            aec_step(env, aec_action(env, rng))
        twins = {name: make(env) for name, make in ENV_COPIES.items()}
        for step in range(1, STEPS + 1):
            action = aec_action(env, rng)
            expected = aec_step(env, action)
            assert_same(expected, {n: aec_step(t, action) for n, t in twins.items()}, "AEC env", step)
