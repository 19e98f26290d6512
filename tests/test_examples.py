"""Every example in examples/ runs a few iterations, as a researcher would start it (kept tiny: CI time)."""
from __future__ import annotations

import torch

from examples import cleanrl_masked_ppo, sb3_maskable_ppo


def test_sb3_maskable_ppo_learns_a_few_steps(tmp_path, capsys):
    model = sb3_maskable_ppo.main(["--timesteps", "128", "--n-envs", "2", "--n-steps", "64",
                                   "--save", str(tmp_path / "model.zip")])
    assert model.num_timesteps >= 128 and (tmp_path / "model.zip").exists()


def test_cleanrl_masked_ppo_runs_on_async_vector_env(capsys):
    before = None
    agent = cleanrl_masked_ppo.main(["--iterations", "2", "--num-envs", "2", "--num-steps", "32"])
    for parameter in agent.parameters():
        assert torch.isfinite(parameter).all(), "masked logits produced NaN somewhere"
        before = parameter
    assert before is not None


def test_the_readme_quick_start_loop_runs_as_written():
    from pathlib import Path

    readme = (Path(__file__).parents[1] / "README.md").read_text()
    section = readme[readme.index("## Python"):]
    code = section[section.index("```python\n") + len("```python\n"):section.index("```\n", section.index("```python"))]
    namespace: dict = {}
    exec(compile(code, "README.md", "exec"), namespace)     # the first snippet a researcher copies
    assert namespace["done"] is True
