"""The lean core: the environments, scripted agents and no-learning CLI verbs import no learning library, and a
verb that needs an extra says in one line which one. Runs in CI's core-only venv (no torch) and in the full one."""
from __future__ import annotations

import importlib.util
import json
import subprocess
import sys

import pytest

from training import cli

LEARNING = ("torch", "stable_baselines3", "sb3_contrib", "tensorboard", "pygame")
CORE_MODULES = ("envs", "envs.gym_env", "envs.pettingzoo_env", "agents.base", "agents.scripted.rifles",
                "agents.scripted.cityfight", "agents.trained", "training.cli", "training.measure.simulate", "training.play.terminal",
                "training.measure.bench", "training.measure.evaluate", "training.league.exploitability")


def test_the_core_imports_no_learning_library():
    code = (f"import sys, json, importlib; [importlib.import_module(m) for m in {CORE_MODULES!r}]; "
            f"print(json.dumps([m for m in {LEARNING!r} if m in sys.modules]))")
    loaded = json.loads(subprocess.run([sys.executable, "-c", code], check=True, capture_output=True, text=True).stdout)
    assert loaded == []


@pytest.mark.parametrize("argv, extra", [(["train", "rifles-urban"], "train"), (["bench", "--peers"], "bench")])
def test_a_verb_needing_a_missing_extra_says_which_in_one_line(monkeypatch, capsys, argv, extra):
    found = importlib.util.find_spec
    monkeypatch.setattr(importlib.util, "find_spec",
                        lambda name, *a: None if name.split(".")[0] in LEARNING else found(name, *a))
    assert cli.main(argv) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and f'pip install -e ".[{extra}]"' in err, err


@pytest.mark.skipif(importlib.util.find_spec("torch") is not None, reason="the core-only install has no torch")
def test_without_torch_train_refuses_in_one_line(capsys):
    assert cli.main(["train", "rifles-urban"]) == 2
    assert capsys.readouterr().err.startswith("rubble: train needs the 'train' extra")
