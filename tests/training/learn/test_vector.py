"""The training environments: the mask reaches MaskablePPO through the wrappers, in both vector env kinds."""
import numpy as np
import pytest
from sb3_contrib.common.maskable.utils import get_action_masks, is_masking_supported

from tests.training.helpers import ENV
from training.learn.vector import make_env, make_vec_env


def test_the_training_env_keeps_the_mask_and_leaves_out_the_events():
    env = make_env(ENV, None, "scripted", "player")
    _, info = env.reset(seed=0)
    assert "events" not in info and info["action_mask"].any()
    masks = env.get_wrapper_attr("action_masks")   # as SB3 reaches it, through Monitor
    action = int(np.flatnonzero(masks())[0])
    *_, info = env.step(action)
    assert "events" not in info and np.array_equal(info["action_mask"], masks())


@pytest.mark.parametrize("kind", ["dummy", "subproc"])
def test_vector_envs_give_one_mask_per_env(kind):
    venv = make_vec_env(ENV, None, "scripted", "enemy", 2, kind)
    try:
        venv.seed(0)
        venv.reset()
        assert is_masking_supported(venv)
        masks = get_action_masks(venv)
        assert masks.shape == (2, venv.action_space.n) and masks.any(axis=1).all()
        venv.step(np.array([int(np.flatnonzero(m)[0]) for m in masks]))
    finally:
        venv.close()
