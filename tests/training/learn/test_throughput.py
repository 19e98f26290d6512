"""training.learn.throughput names each part of a training step by the file and function it profiles: each must exist, or
its line reads 0 s whatever the code costs (the opponent's line did, after `decide` moved to the engine)."""
from __future__ import annotations

from pathlib import Path

import pytest
import sb3_contrib
import stable_baselines3

from envs.paths import PROJECT_ROOT
from training.learn.throughput import PARTS

ROOTS = (*(PROJECT_ROOT / package for package in ("envs", "agents", "training")),
         Path(stable_baselines3.__file__).parent, Path(sb3_contrib.__file__).parent)


def defining_files(suffix: str, name: str) -> list[Path]:
    """Files ending with `suffix` under the project's packages and the SB3 packages that define a function `name`."""
    files = [path for root in ROOTS for path in root.rglob(Path(suffix).name) if path.as_posix().endswith(suffix)]
    return [path for path in files if f"def {name}(" in path.read_text(encoding="utf-8")]


@pytest.mark.parametrize(("label", "suffix", "name"), PARTS, ids=[label.strip() for label, _, _ in PARTS])
def test_every_profiled_part_names_a_function_that_exists(label, suffix, name):
    assert defining_files(suffix, name), f"{label}: no {suffix} defines {name}()"
