"""The import layers (.importlinter) and lint (ruff): arrows point one way, rulesets stand alone, no cycles inside a
package, and ruff finds nothing."""
from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("envs", "agents", "training")


def lint_imports(root: Path) -> subprocess.CompletedProcess:
    """import-linter over the packages under `root`, with the project's contracts, no cache."""
    env = {**os.environ, "PYTHONPATH": str(root)}
    return subprocess.run([sys.executable, "-c", "import sys; from importlinter.cli import lint_imports_command; "
                           "sys.exit(lint_imports_command())", "--no-cache", "--config", str(ROOT / ".importlinter")],
                          cwd=root, env=env, capture_output=True, text=True)


def test_the_project_keeps_every_import_contract():
    result = lint_imports(ROOT)
    assert result.returncode == 0, result.stdout[-3000:]


@pytest.mark.parametrize("module, line", [
    ("envs/rifles/fire.py", "import agents.base"),
    ("envs/cityfight/game.py", "import torch"),
    ("envs/engine/dice.py", "import gymnasium"),
    ("envs/rifles/game.py", "from envs import gym_env"),
    ("envs/cityfight/search.py", "import pettingzoo"),
    ("envs/cityfight/ammo.py", "from envs.cityfight import game"),
])
def test_a_wrong_arrow_breaks_the_contracts(tmp_path, module, line):
    for package in PACKAGES:
        shutil.copytree(ROOT / package, tmp_path / package, ignore=shutil.ignore_patterns("__pycache__"))
    with open(tmp_path / module, "a") as source:
        source.write(f"\n{line}\n")
    result = lint_imports(tmp_path)
    broken = result.stdout.partition("Broken contracts")[2]
    importer = module.removesuffix(".py").replace("/", ".")
    assert result.returncode != 0 and importer.rpartition(".")[2] in broken, result.stdout[-2000:]


def test_ruff_finds_nothing():
    """Lint and import order (pyproject.toml [tool.ruff])."""
    result = subprocess.run([sys.executable, "-m", "ruff", "check", "--no-cache", "."], cwd=ROOT,
                            capture_output=True, text=True)
    assert result.returncode == 0, result.stdout[-3000:]
