"""Every example in examples/ runs a few iterations, as a researcher would start it (kept tiny: CI time)."""
from __future__ import annotations

import pytest
import torch

from examples import cleanrl_masked_ppo, sb3_maskable_ppo


def test_sb3_maskable_ppo_learns_a_few_steps(tmp_path, capsys):
    model = sb3_maskable_ppo.main(["--timesteps", "64", "--n-envs", "2", "--n-steps", "32",
                                   "--save", str(tmp_path / "model.zip")])
    assert model.num_timesteps >= 64 and (tmp_path / "model.zip").exists()


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
    section = readme[readme.index("## In Python"):]
    code = section[section.index("```python\n") + len("```python\n"):section.index("```\n", section.index("```python"))]
    namespace: dict = {}
    exec(compile(code, "README.md", "exec"), namespace)     # the first snippet a researcher copies
    assert namespace["done"] is True


def test_tianshou_collects_whole_games_with_masked_random_self_play():
    pytest.importorskip("tianshou", reason='the examples extra: pip install -e ".[examples]"')
    from examples import tianshou_pettingzoo

    stats = tianshou_pettingzoo.collect("rifles-urban", episodes=1, num_envs=1)
    assert stats.n_collected_episodes == 1 and stats.n_collected_steps > 0


def test_torchrl_pettingzoo_wrapper_with_masks_plays_only_legal_actions():
    pytest.importorskip("torchrl", reason='the examples extra: pip install -e ".[examples]"')
    from examples import torchrl_pettingzoo

    data = torchrl_pettingzoo.rollout("rifles-urban", steps=60)
    from envs import registry
    assert data.batch_size[0] == 60 and data["state"].shape[-1] == 2 * registry.get("rifles-urban").observation_size
    for group in ("player", "enemy"):
        assert not data["next", group, "info", "illegal_action"].any(), f"{group} played a masked-out action"
