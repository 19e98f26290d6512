"""`policy.extractor: grid`: the CNN over the board's planes (training/learn/extractors.py), its numpy twin in actor.zip
(agents/grid_actor.py), and the config field that selects it."""
from __future__ import annotations

import json
import zipfile
from types import SimpleNamespace

import numpy as np
import pytest
import torch

from agents import trained
from agents.grid_actor import conv3x3
from envs import registry
from envs.engine.scenario import ScenarioError
from envs.gym_env import RubbleEnv
from tests import toy_game
from tests.training.helpers import ENV, run_cli, write_config
from training.folders.rundir import RunDir
from training.learn.config import load_config
from training.learn.extractors import GridExtractor, policy_kwargs
from training.learn.train import Session, TrainRequest, check_config, new_run, run_session

GRID_ENVS = ("cityfight", "rifles-urban")


def grid_model(env: str, seed: int = 0, scale: float = 0.1):
    """A MaskablePPO grid policy for `env` whose weights are drawn at `scale` (SB3's initial action layer is 100
    times smaller: every logit near 0 would make any two actors agree)."""
    from sb3_contrib import MaskablePPO

    policy = SimpleNamespace(net_arch=(32,), activation="tanh", extractor="grid")   # a config's policy section
    model = MaskablePPO("MlpPolicy", RubbleEnv(env), n_steps=16, batch_size=16, seed=seed, device="cpu",
                        policy_kwargs=policy_kwargs(policy, registry.get(env)))
    generator = torch.Generator().manual_seed(seed)
    with torch.no_grad():
        for p in model.policy.parameters():
            p.copy_(torch.randn(p.shape, generator=generator) * scale)
    setattr(model, trained.META_ATTRIBUTE, {"env": env, "side": registry.get(env).sides[0]})
    return model


def observations(env: str, count: int, seed: int = 0) -> list[np.ndarray]:
    """`count` observations of the deciding side from seeded games of random legal play."""
    rs, rng, out = registry.get(env), np.random.default_rng(seed), []
    game_seed = seed
    while len(out) < count:
        state = rs.new_game(seed=game_seed)
        while not state.is_over and len(out) < count:
            out.append(state.observation(state.current_side))
            state.apply(int(rng.choice(np.flatnonzero(state.legal_action_mask()))))
        game_seed += 1
    return out


def torch_logits(model, batch: np.ndarray) -> np.ndarray:
    with torch.no_grad():
        policy = model.policy
        features = policy.pi_features_extractor(torch.as_tensor(batch))
        return policy.action_net(policy.mlp_extractor.forward_actor(features)).numpy()


# The config field ---------------------------------------------------------------------------------------------
def test_a_bad_extractor_is_named_with_its_file_in_one_line(tmp_path, capsys):
    path = write_config(tmp_path, **{"policy.extractor": "cnn"})
    with pytest.raises(ScenarioError, match="field 'policy.extractor': expected one of mlp, grid, got 'cnn'"):
        load_config(path)
    code, _, err = run_cli(capsys, "train", ENV, "--config", path, "--results", tmp_path / "results", "--quiet")
    assert code == 2 and err.count("\n") == 1 and "policy.extractor" in err and str(path) in err
    assert not (tmp_path / "results").exists()


def test_the_default_extractor_is_the_mlp_and_grid_round_trips(tmp_path):
    assert load_config(write_config(tmp_path)).extractor == "mlp"
    config = load_config(write_config(tmp_path, **{"policy.extractor": "grid"}))
    copy = tmp_path / "copy.yaml"
    copy.write_text(config.to_yaml(), encoding="utf-8")
    assert config.extractor == "grid" and load_config(copy) == config


def test_grid_on_a_ruleset_without_planes_is_refused_naming_the_field(tmp_path):
    path = write_config(tmp_path, **{"policy.extractor": "grid"})
    with pytest.raises(ScenarioError, match="field 'policy.extractor': expected mlp \\(toy-race declares no board"):
        check_config(load_config(path), 2, path, toy_game.RULESET)


# The extractor --------------------------------------------------------------------------------------------------
@pytest.mark.parametrize("env", GRID_ENVS)
def test_the_extractor_reads_the_board_and_the_rest(env):
    rs = registry.get(env)
    layout = rs.observation_layout()
    extractor = GridExtractor(RubbleEnv(env).observation_space, layout.to_dict())
    batch = torch.as_tensor(np.stack(observations(env, 8)))
    features = extractor(batch)
    assert features.shape == (8, extractor.features_dim) and torch.isfinite(features).all()
    # a change on the board moves the board's features only; a change in the vector part, the vector's only
    board = extractor.board[0].out_features
    for position, changed, same in ((int(layout.plane_indices()[0, 0, 0]), slice(0, board), slice(board, None)),
                                    (int(layout.vector_indices()[0]), slice(board, None), slice(0, board))):
        moved = batch.clone()
        moved[:, position] += 5.0
        after = extractor(moved)
        assert torch.equal(after[:, same], features[:, same])
        assert not torch.equal(after[:, changed], features[:, changed])


def test_the_numpy_convolution_is_torchs():
    rng = np.random.default_rng(0)
    for channels, height, width, stride in ((3, 5, 4, 1), (3, 5, 4, 2), (25, 6, 1, 2), (4, 7, 7, 2)):
        image = rng.standard_normal((channels, height, width)).astype(np.float32)
        weights = rng.standard_normal((5, channels, 3, 3)).astype(np.float32)
        bias = rng.standard_normal(5).astype(np.float32)
        expected = torch.nn.functional.conv2d(torch.as_tensor(image)[None], torch.as_tensor(weights),
                                              torch.as_tensor(bias), stride=stride, padding=1)[0].numpy()
        assert np.allclose(conv3x3(image, weights, bias, stride), expected, atol=1e-5)


# actor.zip ------------------------------------------------------------------------------------------------------
@pytest.fixture(scope="module")
def actors(tmp_path_factory) -> dict:
    """env -> (model, actor.zip path) of a grid policy, for each of GRID_ENVS."""
    out = {}
    for env in GRID_ENVS:
        model = grid_model(env)
        path = tmp_path_factory.mktemp(env) / "actor.zip"
        trained.Actor.of(model).save(path)
        out[env] = model, path
    return out


@pytest.fixture(params=GRID_ENVS)
def saved(request, actors):
    """(env, model, actor.zip path) of a grid policy."""
    return (request.param, *actors[request.param])


def test_the_numpy_actor_gives_the_torch_policys_logits(saved):
    """Parity over 300 seeded observations: in memory (float32) to float rounding; from actor.zip (float16) to the
    logits of the same policy with its weights rounded to float16."""
    env, model, path = saved
    batch = np.stack(observations(env, 300))
    in_memory, from_file = trained.Actor.of(model), trained.read_actor(path)
    assert from_file.kind == "grid" and in_memory.kind == "grid"
    expected = torch_logits(model, batch)
    # logits far from 0 that differ between observations: agreement means something
    assert np.abs(expected).max() > 0.5 and len({int(i) for i in expected.argmax(axis=1)}) > 1
    assert np.allclose(np.stack([in_memory.logits(o) for o in batch]), expected, atol=1e-4, rtol=1e-4)
    rounded = grid_model(env)
    with torch.no_grad():
        for p in rounded.policy.parameters():
            p.copy_(p.half().float())
    expected16 = torch_logits(rounded, batch)
    got = np.stack([from_file.logits(o) for o in batch])
    assert np.allclose(got, expected16, atol=1e-3, rtol=1e-3)
    masks_agree = [np.argmax(g) == np.argmax(e) for g, e in zip(got, expected16)]
    assert all(masks_agree)


def test_a_grid_actor_survives_save_and_read_and_plays_its_ruleset(saved):
    env, model, path = saved
    rs = registry.get(env)
    actor = trained.read_actor(path)
    original = trained.Actor.of(model)
    assert actor.meta == {"env": env, "side": rs.sides[0]}
    assert actor.encoder.layout.to_dict() == rs.observation_layout().to_dict()
    for name, array in original.encoder.arrays().items():
        assert np.array_equal(actor.encoder.arrays()[name], array.astype(np.float16).astype(np.float32)), name
    agent = trained.load(path, rs, side=0)
    state = rs.new_game(seed=0)
    mask = state.legal_action_mask()
    assert mask[agent.act(state.observation(0), mask, None)]


def rewrite(source, target, meta_changes=None, drop=(), replace=None) -> None:
    """A copy of the actor.zip `source` with its meta changed, arrays dropped or replaced."""
    with np.load(source, allow_pickle=False) as data:
        arrays = {name: data[name] for name in data.files}
    meta = json.loads(str(arrays["meta"]))
    meta.update(meta_changes or {})
    arrays["meta"] = np.array(json.dumps(meta))
    for name in drop:
        del arrays[name]
    arrays.update(replace or {})
    with open(target, "wb") as f:
        np.savez_compressed(f, **arrays)


@pytest.mark.parametrize("changes, message", [
    ({"meta_changes": {"extractor": "transformer"}}, "extractor 'transformer' unknown; expected one of mlp, grid"),
    ({"drop": ("conv1_w",)}, "grid encoder: conv1_w and conv1_b missing"),
    ({"replace": {"conv0_w": np.zeros((16, 2, 3, 3), np.float16)}}, r"grid encoder: conv0 must be weights \(out, "),
    ({"replace": {"grid_b": np.full(128, np.inf, np.float16)}}, "grid encoder: grid holds NaN or infinite weights"),
    ({"meta_changes": {"layout": {"size": 3}}}, "grid encoder: layout is not an observation layout"),
    ({"meta_changes": {"conv_strides": [1]}}, "layers must be w0, b0"),
    ({"meta_changes": {"extractor": "mlp"}}, "layers must be w0, b0"),
    ({"replace": {"w0": np.zeros((32, 100), np.float16)}}, "layer 0 takes 100 inputs; the grid encoder gives 192"),
])
def test_a_malformed_grid_actor_is_refused_in_one_line(actors, tmp_path, changes, message):
    path = actors[ENV][1]
    bad = tmp_path / "actor.zip"
    rewrite(path, bad, **changes)
    with pytest.raises(trained.ModelFileError, match=f"^{bad}: {message}") as err:
        trained.read_actor(bad)
    assert "\n" not in str(err.value)


def test_a_grid_actor_whose_planes_moved_is_refused_for_play(saved, tmp_path):
    env, _, path = saved
    layout = registry.get(env).observation_layout().to_dict()
    layout["planes"]["offset"] -= 1
    bad = tmp_path / "actor.zip"
    rewrite(path, bad, meta_changes={"layout": layout})
    with pytest.raises(trained.ModelFileError, match=f"^{bad}: its grid encoder reads the planes"):
        trained.load(bad, registry.get(env), 0)
    assert zipfile.is_zipfile(bad)


def test_a_grid_actor_warm_starts_a_fresh_grid_policy_to_the_same_logits(saved):
    """league.start_from on a grid policy: the encoder's convolutions and dense layers go in with the rest, so the
    fresh policy plays what actor.zip plays; an MLP policy is refused in one line naming the file."""
    from training.learn.warm_start import put_actor

    env, _, path = saved
    actor, fresh = trained.read_actor(path), grid_model(env, seed=7)
    batch = np.stack(observations(env, 50))
    put_actor(fresh.policy, actor, path)
    assert np.allclose(torch_logits(fresh, batch), np.stack([actor.logits(o) for o in batch]), atol=1e-4, rtol=1e-4)
    from sb3_contrib import MaskablePPO

    mlp = MaskablePPO("MlpPolicy", RubbleEnv(env), n_steps=16, batch_size=16, device="cpu",
                      policy_kwargs={"net_arch": [32], "activation_fn": torch.nn.Tanh})
    with pytest.raises(trained.ModelFileError, match=f"^{path}: it was trained with the grid extractor"):
        put_actor(mlp.policy, actor, path)


# Training with it ------------------------------------------------------------------------------------------------
def test_a_grid_run_clones_trains_saves_a_grid_actor_and_resumes(tmp_path, monkeypatch):
    monkeypatch.setenv("RUBBLE_CACHE", str(tmp_path / "cache"))
    config = write_config(tmp_path, **{"policy.extractor": "grid"}, imitation={"games": 3, "epochs": 1})
    run = new_run(TrainRequest(env=ENV, side="player", timesteps=128, config_path=config, results=tmp_path))
    assert run_session(run, progress=False).status == "finished"
    assert run.read_info().imitation["accuracy"] > 0
    assert trained.read_actor(run.actor).kind == "grid"
    session = Session(RunDir(run.path), run.read_info().with_progress(timesteps=256), load_config(run.config), False)
    assert isinstance(session.model.policy.features_extractor, GridExtractor)
    assert session.model.num_timesteps >= 128
    session._close_envs()
