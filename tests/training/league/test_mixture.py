"""A mixture of trained actors (agents/mixture.py) and a league's average strategy (training/league/average.py)."""
from __future__ import annotations

import json
import shutil

import numpy as np
import pytest

from agents import mixture
from envs import registry
from envs.gym_env import RubbleEnv
from tests.training.helpers import ENV, run_cli, tiny_actor
from training import lookup


@pytest.fixture(scope="module")
def enemies(tmp_path_factory):
    """Two different untrained enemy actors and a player actor, in one folder."""
    folder = tmp_path_factory.mktemp("actors")
    return {"a": tiny_actor(folder / "enemy-a.zip", side="enemy", seed=1),
            "b": tiny_actor(folder / "enemy-b.zip", side="enemy", seed=2),
            "player": tiny_actor(folder / "player.zip", side="player", seed=3)}


def write_mixture(folder, members, name="enemy.mixture.json"):
    path = folder / name
    path.write_text(json.dumps({"members": members}), encoding="utf-8")
    return path


@pytest.fixture
def three_to_one(enemies, tmp_path):
    for key in "ab":
        shutil.copyfile(enemies[key], tmp_path / enemies[key].name)
    return write_mixture(tmp_path, [{"actor": "enemy-a.zip", "weight": 3}, {"actor": "enemy-b.zip", "weight": 1}])


def test_the_member_of_a_game_follows_its_seed_and_the_weights(three_to_one):
    rs = registry.get(ENV)
    agent = mixture.load(three_to_one, rs, side=1, seed=0)
    drawn = []
    for seed in range(2000):
        agent.reseed(seed)
        drawn.append(agent.member.name)
    again = mixture.load(three_to_one, rs, side=1, seed=0)
    for seed in (5, 17, 1999):
        again.reseed(seed)
        assert again.member.name == drawn[seed]            # the same seed, the same member, whatever came before
    share = drawn.count("enemy-a.zip") / len(drawn)
    assert 0.72 < share < 0.78                              # weight 3 of 4


def test_a_mixture_plays_as_its_member_does(three_to_one):
    rs = registry.get(ENV)
    agent = mixture.load(three_to_one, rs, side=1, seed=3)
    state = rs.new_game(seed=0)
    rng, checked = np.random.default_rng(0), 0
    while not state.is_over and checked < 20:
        mask = state.legal_action_mask()
        if state.current_side == 1:
            observation = state.observation(1)
            assert agent.act(observation, mask, None) == agent.member.act(observation, mask, None)
            checked += 1
        state.apply(int(rng.choice(np.flatnonzero(mask))))
    assert checked == 20


def test_a_mixture_as_the_gym_opponent_is_the_same_game_for_the_same_seed(three_to_one):
    def episode(seed):
        env = RubbleEnv(ENV, opponent=str(three_to_one), learner_side="player")
        obs, _ = env.reset(seed=seed)
        trace, rng, done = [obs], np.random.default_rng(seed), False
        while not done:
            obs, reward, terminated, truncated, _ = env.step(int(rng.choice(np.flatnonzero(env.action_masks()))))
            trace.append(obs)
            done = terminated or truncated
        return np.stack(trace), reward

    first, second = episode(4), episode(4)
    assert np.array_equal(first[0], second[0]) and first[1] == second[1]


def test_simulate_takes_a_mixture_by_its_path(three_to_one, capsys):
    code, out, err = run_cli(capsys, "simulate", ENV, "--games", 4, "--player", "scripted", "--enemy", three_to_one,
                             "--quiet")
    assert code == 0, err
    assert "enemy.mixture.json" in out


@pytest.mark.parametrize("content, message", [
    ("{", "not JSON"),
    ('{"players": []}', "expected a JSON object with 'members'"),
    ('{"members": []}', "members: expected a non-empty list"),
    ('{"members": [{"actor": 3}]}', r"members\[0\]: expected"),
    ('{"members": [{"actor": "enemy-a.zip", "weight": 0}]}', r"members\[0\].weight: expected a positive finite"),
    ('{"members": [{"actor": "enemy-a.zip", "weight": true}]}', r"members\[0\].weight: expected a positive finite"),
    ('{"members": [{"actor": "missing.zip"}]}', r"members\[0\]: .*missing.zip: no such file"),
])
def test_a_bad_mixture_file_is_refused_in_one_line_naming_file_and_field(enemies, tmp_path, content, message):
    shutil.copyfile(enemies["a"], tmp_path / "enemy-a.zip")
    path = tmp_path / "bad.mixture.json"
    path.write_text(content, encoding="utf-8")
    with pytest.raises(lookup.CommandError, match=message) as caught:
        lookup.agent(registry.get(ENV), str(path), (1,))
    assert "\n" not in str(caught.value) and str(caught.value).startswith(str(path))


def test_members_of_two_sides_or_for_the_wrong_side_are_refused(enemies, tmp_path):
    for key in ("a", "player"):
        shutil.copyfile(enemies[key], tmp_path / enemies[key].name)
    rs = registry.get(ENV)
    mixed = write_mixture(tmp_path, [{"actor": "enemy-a.zip"}, {"actor": "player.zip"}], "mixed.mixture.json")
    with pytest.raises(lookup.CommandError, match="mixed.mixture.json: members: expected actors of one side"):
        lookup.agent(rs, str(mixed), (1,))
    enemy_only = write_mixture(tmp_path, [{"actor": "enemy-a.zip"}], "enemy.mixture.json")
    with pytest.raises(lookup.CommandError, match=r"enemy.mixture.json: members\[0\]: .*trained as the enemy, not the player"):
        lookup.agent(rs, str(enemy_only), (0,))


def fake_league(folder, enemies, rounds=5):
    """A league folder with the enemy's main snapshots of `rounds` rounds and one exploiter snapshot."""
    (folder / "pool").mkdir(parents=True)
    pool = [{"name": "scripted", "side": "enemy", "file": None, "round": 0}]
    for r in range(1, rounds + 1):
        shutil.copyfile(enemies["ab"[r % 2]], folder / "pool" / f"enemy-r{r}.zip")
        pool.append({"name": f"enemy-r{r}", "side": "enemy", "file": f"pool/enemy-r{r}.zip", "round": r})
    shutil.copyfile(enemies["a"], folder / "pool" / "enemy-exploiter-r5.zip")
    pool.append({"name": "enemy-exploiter-r5", "side": "enemy", "file": "pool/enemy-exploiter-r5.zip", "round": 5})
    league = {"run": {}, "league": {"sides": ["player", "enemy"], "pools": {"player": [], "enemy": pool},
                                    "tallies": {}, "meta": {}, "ratings": {}, "rng": {}}}
    (folder / "league.json").write_text(json.dumps(league), encoding="utf-8")


def test_league_average_takes_the_main_learners_second_half_and_never_overwrites(enemies, tmp_path, capsys):
    league = tmp_path / ENV / "league" / "toy"
    fake_league(league, enemies)
    code, out, err = run_cli(capsys, "league-average", ENV, "toy", "--side", "enemy", "--results", tmp_path)
    assert code == 0, err
    written = json.loads((league / "enemy-average" / "enemy.mixture.json").read_text())
    assert [m["actor"] for m in written["members"]] == ["enemy-r3.zip", "enemy-r4.zip", "enemy-r5.zip"]
    agent = lookup.agent(registry.get(ENV), str(league / "enemy-average" / "enemy.mixture.json"), (1,))(1, 0)
    assert agent.member.name in {"enemy-r3.zip", "enemy-r4.zip", "enemy-r5.zip"}
    code, _, err = run_cli(capsys, "league-average", ENV, "toy", "--side", "enemy", "--results", tmp_path)
    assert code != 0 and "exists; remove it first" in err


def test_evaluate_rates_a_mixture_on_its_members_side(three_to_one, capsys):
    code, out, err = run_cli(capsys, "evaluate", ENV, "--agents", "scripted", three_to_one, "--games", 4, "--quiet",
                             "--results", three_to_one.parent)
    assert code == 0, err
    assert three_to_one.parent.name in out
