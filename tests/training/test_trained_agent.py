"""agents.trained: a saved model plays through `rubble simulate` and the Gymnasium env; loads are cached."""
import re

import numpy as np
import pytest

from agents import trained
from envs import registry
from envs.gym_env import RubbleEnv
from tests.training.helpers import ENV, run_cli, tiny_model


@pytest.fixture(scope="module")
def model_path(tmp_path_factory):
    return tiny_model(tmp_path_factory.mktemp("model") / "tiny.zip")


def test_simulate_plays_a_model_by_its_path(model_path, capsys):
    code, out, err = run_cli(capsys, "simulate", ENV, "--games", 3, "--player", model_path, "--enemy", "scripted",
                             "--seed", 1_000_000, "--quiet")
    assert code == 0, err
    row = next(line for line in out.splitlines() if line.startswith("player"))
    wins, draws, losses = (int(n) for n in re.findall(r"(\d+) +[\d.]+%", row))
    assert wins + draws + losses == 3


def test_the_agent_plays_only_legal_actions_deterministically(model_path):
    rs = registry.get(ENV)
    agent = trained.load(model_path, rs, side=0, seed=0)
    state = rs.new_game(seed=5)
    for _ in range(30):
        if state.is_over:
            break
        side, mask = state.current_side, state.legal_action_mask()
        if side == 0:
            observation = state.observation(0)
            action = agent.act(observation, mask, state.view(0))
            assert mask[action] and action == agent.act(observation, mask, state.view(0))
        else:
            action = int(np.flatnonzero(mask)[0])
        state.apply(action)


def test_the_agent_picks_what_masked_deterministic_predict_picks(model_path):
    rs = registry.get(ENV)
    agent = trained.load(model_path, rs, side=0)
    rng = np.random.default_rng(0)
    checked = 0
    for seed in range(3):
        state = rs.new_game(seed=seed)
        while not state.is_over and checked < 60:
            side, mask = state.current_side, state.legal_action_mask()
            if side == 0:
                observation = state.observation(0)
                expected, _ = agent.policy.predict(observation, action_masks=mask, deterministic=True)
                assert agent.act(observation, mask, None) == int(expected)
                checked += 1
            state.apply(int(rng.choice(np.flatnonzero(mask))))
    assert checked >= 30


def test_a_model_is_loaded_once_per_path(model_path):
    rs = registry.get(ENV)
    first, second = trained.load(model_path, rs, 0), trained.load(model_path, rs, 0, seed=9)
    assert first.policy is second.policy


def test_a_model_as_the_gym_opponent(model_path, recwarn):
    env = RubbleEnv(ENV, opponent=str(model_path), learner_side="enemy")   # the model plays its own side
    env.reset(seed=0)
    assert env.action_masks().any() and not recwarn.list


def ruleset_like(**fields):
    """A ruleset like ENV's with some metadata changed (a subclass: rulesets are classes with class metadata)."""
    return type("Variant", (type(registry.get(ENV)),), fields)()


def test_a_model_on_another_side_than_it_learned_is_a_warning(model_path):
    with pytest.warns(UserWarning, match="trained as player, not enemy"):
        trained.load(model_path, registry.get(ENV), side=1)


def test_a_model_in_another_env_than_it_learned_is_a_warning(model_path):
    other = ruleset_like(name="other-env")   # same spaces, another name
    with pytest.warns(UserWarning, match="trained on rifles-urban, not other-env"):
        trained.load(model_path, other, side=0)


def test_a_model_for_other_spaces_is_refused(model_path):
    smaller = ruleset_like(name="smaller", num_actions=3)
    with pytest.raises(ValueError, match=r"model has observation shape \(989,\) and 184 actions; smaller needs"):
        trained.load(model_path, smaller, 0)


@pytest.fixture(scope="module")
def actor_path(model_path, tmp_path_factory):
    path = tmp_path_factory.mktemp("actor") / "actor.zip"
    trained.Actor.of(trained.load_model(model_path)).save(path)
    return path


def test_the_actor_file_plays_as_the_model_does(model_path, actor_path):
    rs = registry.get(ENV)
    model, actor = trained.load(model_path, rs, side=0), trained.load(actor_path, rs, side=0)
    assert trained.is_actor_file(actor_path) and not trained.is_actor_file(model_path)
    assert actor_path.stat().st_size < model_path.stat().st_size / 4
    assert trained.model_meta(trained.load_model(actor_path)) == {"env": ENV, "side": "player"}
    rng, checked = np.random.default_rng(1), 0
    for seed in range(3):
        state = rs.new_game(seed=seed)
        while not state.is_over and checked < 60:
            mask = state.legal_action_mask()
            if state.current_side == 0:
                observation = state.observation(0)
                # float16 weights: the logits agree to rounding, the choices exactly (on these states)
                np.testing.assert_allclose(actor.logits(observation), model.logits(observation), atol=2e-3)
                assert actor.act(observation, mask, None) == model.act(observation, mask, None)
                checked += 1
            state.apply(int(rng.choice(np.flatnonzero(mask))))
    assert checked >= 30


def test_an_actor_for_other_spaces_is_refused(actor_path):
    smaller = ruleset_like(name="smaller", num_actions=3)
    with pytest.raises(ValueError, match=r"model has observation shape \(989,\) and 184 actions; smaller needs"):
        trained.load(actor_path, smaller, 0)


def test_an_actor_with_an_unknown_activation_is_refused():
    with pytest.raises(ValueError, match="activation 'GELU' unknown; known: Tanh, ReLU"):
        trained.Actor([(np.zeros((2, 3)), np.zeros(2))], "GELU", {})
