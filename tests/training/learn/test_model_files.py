"""No file a user loads runs code: a crafted model.zip or actor.zip is refused by every command and env constructor
in one line, and its payload never runs (the marker file stays absent). Every actor is checked before it plays."""
from __future__ import annotations

import base64
import io
import json
import pickle
import subprocess
import zipfile
from pathlib import Path

import numpy as np
import pytest

from agents import trained
from envs import registry
from envs.gym_env import RubbleEnv
from tests.training.helpers import ENV, run_cli


class Payload:
    """Unpickling this creates the marker file: proof that code ran."""

    def __init__(self, marker: Path) -> None:
        self.marker = marker

    def __reduce__(self):
        return (Path.touch, (self.marker,))


def malicious_model_zip(path: Path, marker: Path) -> Path:
    """An SB3-shaped model.zip whose `data` holds a pickled payload under a :serialized: key."""
    blob = base64.b64encode(pickle.dumps(Payload(marker))).decode()
    data = {"policy_class": {":type:": "<class 'abc.ABCMeta'>", ":serialized:": blob},
            "rubble_meta": {"env": ENV, "side": "player"}}
    with zipfile.ZipFile(path, "w") as z:
        z.writestr("data", json.dumps(data))
        z.writestr("_stable_baselines3_version", "2.9.2")
    return path


def malicious_actor_zip(path: Path, marker: Path) -> Path:
    """An actor.zip (npz) with an object array that would unpickle the payload."""
    arrays = {"meta": np.array(json.dumps({"env": ENV, "side": "player", "activation": "Tanh"})),
              "w0": np.array([Payload(marker)], dtype=object), "b0": np.zeros(1, np.float32)}
    buffer = io.BytesIO()
    np.savez(buffer, **arrays, allow_pickle=True)
    path.write_bytes(buffer.getvalue())
    return path


@pytest.fixture(params=["model", "actor"])
def crafted(request, tmp_path):
    marker = tmp_path / "PWNED"
    make = malicious_model_zip if request.param == "model" else malicious_actor_zip
    return make(tmp_path / f"{request.param}.zip", marker), marker


@pytest.mark.parametrize("argv", [
    ("simulate", ENV, "--games", 1, "--player", "{path}", "--enemy", "random", "--quiet"),
    ("evaluate", ENV, "--agents", "random", "{path}", "--games", 1, "--results", "{tmp}", "--quiet"),
    ("report", ENV, "--player", "{path}", "--games", 1, "--results", "{tmp}"),
    ("play", ENV, "--enemy", "{path}"),
    ("train", ENV, "--opponent", "{path}", "--timesteps", 8, "--results", "{tmp}"),
])
def test_no_command_runs_a_crafted_file_and_each_refuses_it_in_one_line(crafted, argv, capsys, tmp_path):
    path, marker = crafted
    args = [str(a).format(path=path, tmp=tmp_path / "results") for a in argv]
    code, _, err = run_cli(capsys, *args)
    assert not marker.exists(), "the file's payload ran"
    assert code == 2 and len(err.strip().splitlines()) == 1 and str(path) in err, err


def test_no_env_constructor_runs_a_crafted_file(crafted):
    path, marker = crafted
    with pytest.raises(trained.ModelFileError, match=f"^{path}: "):
        RubbleEnv(ENV, opponent=str(path))
    with pytest.raises(trained.ModelFileError):
        import gymnasium
        gymnasium.make("rubble/RiflesUrban-v0", opponent=str(path))
    assert not marker.exists()


def actor_arrays(**changes) -> dict:
    """A valid two-layer actor for ENV's sizes, with `changes` to its arrays."""
    rs = registry.get(ENV)
    arrays = {"meta": np.array(json.dumps({"env": ENV, "side": "player", "activation": "ReLU"})),
              "w0": np.zeros((4, rs.observation_size), np.float16), "b0": np.zeros(4, np.float16),
              "w1": np.zeros((rs.num_actions, 4), np.float16), "b1": np.zeros(rs.num_actions, np.float16)}
    arrays.update(changes)
    return {k: v for k, v in arrays.items() if v is not None}


@pytest.mark.parametrize("changes, message", [
    ({}, None),
    ({"w0": np.full((4, registry.get(ENV).observation_size), np.nan, np.float16)}, "layer 0 holds NaN or infinite weights"),
    ({"w1": np.zeros((184, 5), np.float16)}, "layer 1 takes 5 inputs; the layer before gives 4"),
    ({"b1": np.zeros(7, np.float16)}, r"layer 1 must be float weights \(out, in\) and bias \(out,\)"),
    ({"b1": None}, "layers must be w0, b0, ..., w1, b1"),
    ({"meta": np.array("{not json")}, "meta is not valid JSON"),
    ({"meta": np.array(json.dumps({"env": ENV}))}, "meta must be a JSON object with string fields env and side"),
    ({"meta": np.array(json.dumps({"env": ENV, "side": "player", "activation": "GELU"}))}, "activation 'GELU' unknown"),
])
def test_an_actor_is_checked_layer_by_layer_before_it_plays(tmp_path, changes, message):
    path = tmp_path / "actor.zip"
    with open(path, "wb") as f:
        np.savez_compressed(f, **actor_arrays(**changes))
    if message is None:
        rs = registry.get(ENV)
        assert trained.load(path, rs, 0).act(np.zeros(rs.observation_size, np.float32), np.ones(rs.num_actions, bool), None) == 0
        return
    with pytest.raises(trained.ModelFileError, match=f"^{path}: {message}"):
        trained.read_actor(path)


def shipped_files(root: Path) -> list[Path]:
    """The files under `root` a commit carries: tracked, or untracked and not ignored (results/.gitignore keeps the
    resumable model.zip and checkpoints on the machine that trained them). Outside a git checkout, every file."""
    try:
        listed = subprocess.run(["git", "-C", str(root), "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
                                capture_output=True, check=True).stdout.decode()
    except (OSError, subprocess.CalledProcessError):
        return [path for path in root.rglob("*") if path.is_file()]
    return [root / name for name in listed.split("\0") if name and (root / name).is_file()]


def test_results_hold_no_pickle_bearing_file():
    """Every file under results/ that a user might load is free of pickles: no SB3 model.zip, no .pkl/.pt, and every
    zip/npz loads with allow_pickle=False."""
    root = Path(__file__).resolve().parents[3] / "results"
    offenders = []
    for path in shipped_files(root):
        if path.suffix in (".pkl", ".pickle", ".pt", ".pth"):
            offenders.append(path)
        elif path.suffix in (".zip", ".npz"):
            with zipfile.ZipFile(path) as z:
                if "data" in z.namelist() or any(n.endswith(".pth") for n in z.namelist()):
                    offenders.append(path)
                    continue
            try:
                trained.Actor.read(path)
            except trained.ModelFileError:
                offenders.append(path)
    assert not offenders, f"pickle-bearing or unreadable model files under results/: {offenders}"
