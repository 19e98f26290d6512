"""agents.trained: a saved actor plays through `rubble simulate` and the Gymnasium env; loads are cached and checked."""
import re

import numpy as np
import pytest

from agents import trained
from envs import registry
from envs.gym_env import RubbleEnv
from tests.training.helpers import ENV, run_cli, tiny_model


@pytest.fixture(scope="module")
def model(tmp_path_factory):
    """An untrained MaskablePPO model in memory, and its actor.zip on disk."""
    from sb3_contrib import MaskablePPO
    folder = tmp_path_factory.mktemp("run")
    sb3 = MaskablePPO.load(tiny_model(folder / "model.zip"), device="cpu")
    trained.Actor.of(sb3).save(folder / "actor.zip")
    return sb3, folder / "actor.zip"


@pytest.fixture(scope="module")
def actor_path(model):
    return model[1]


def test_simulate_plays_an_actor_by_its_path(actor_path, capsys):
    code, out, err = run_cli(capsys, "simulate", ENV, "--games", 3, "--player", actor_path, "--enemy", "scripted",
                             "--seed", 1_000_000, "--quiet")
    assert code == 0, err
    row = next(line for line in out.splitlines() if line.startswith("player"))
    wins, draws, losses = (int(n) for n in re.findall(r"(\d+) +[\d.]+%", row))
    assert wins + draws + losses == 3


def test_the_actor_plays_what_masked_deterministic_predict_picks(model):
    sb3, path = model
    rs = registry.get(ENV)
    agent = trained.load(path, rs, side=0)
    rng, checked = np.random.default_rng(0), 0
    for seed in range(3):
        state = rs.new_game(seed=seed)
        while not state.is_over and checked < 60:
            mask = state.legal_action_mask()
            if state.current_side == 0:
                observation = state.observation(0)
                expected, _ = sb3.policy.predict(observation, action_masks=mask, deterministic=True)
                # float16 weights: the choices agree with the full model's on these states
                assert agent.act(observation, mask, None) == int(expected) and mask[agent.act(observation, mask, None)]
                checked += 1
            state.apply(int(rng.choice(np.flatnonzero(mask))))
    assert checked >= 30


def test_an_actor_is_read_once_per_path(actor_path):
    rs = registry.get(ENV)
    first, second = trained.load(actor_path, rs, 0), trained.load(actor_path, rs, 0, seed=9)
    assert first.policy is second.policy


def test_an_actor_as_the_gym_opponent(tmp_path):
    from tests.training.helpers import tiny_actor
    path = tiny_actor(tmp_path / "actor.zip", side="enemy")
    env = RubbleEnv(ENV, opponent=str(path), learner_side="player")   # the actor plays its own side
    env.reset(seed=0)
    assert env.action_masks().any()


def ruleset_like(**fields):
    """A ruleset like ENV's with some metadata changed (a subclass: rulesets are classes with class metadata)."""
    return type("Variant", (type(registry.get(ENV)),), fields)()


@pytest.mark.parametrize("side, ruleset, message", [
    (1, None, "trained as the player, not the enemy"),
    (0, {"name": "other-env"}, "trained for rifles-urban, not other-env"),
    (0, {"name": ENV, "num_actions": 3}, rf"model has observation shape \({registry.get(ENV).observation_size},\) and 184 actions; "
                                         "rifles-urban needs"),
])
def test_an_actor_for_another_side_ruleset_or_size_is_refused_naming_the_file(actor_path, side, ruleset, message):
    rs = registry.get(ENV) if ruleset is None else ruleset_like(**ruleset)
    with pytest.raises(trained.ModelFileError, match=f"^{re.escape(str(actor_path))}: {message}"):
        trained.load(actor_path, rs, side)


def test_the_actor_file_is_a_tenth_of_the_model(model, actor_path):
    assert trained.is_actor_file(actor_path) and not trained.is_actor_file(actor_path.with_name("model.zip"))
    assert actor_path.stat().st_size < actor_path.with_name("model.zip").stat().st_size / 4
    assert trained.read_actor(actor_path).meta == {"env": ENV, "side": "player"}
