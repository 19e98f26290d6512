"""A run's model.zip is checked from its central directory before a byte is inflated (training/learn/resume.py
MODEL_LIMITS): a zip bomb is refused in well under a second and 100 MB, in one line naming the file and member."""
from __future__ import annotations

import zipfile

import pytest

from agents.trained import ModelFileError
from tests.training.helpers import ENV, cost, tiny_model
from training.learn import resume

BOMB = 300 << 20          # what `data` inflates to: 300 MB of spaces after a JSON object, deflated to ~300 KB


def bomb_model(path, member="data", size=BOMB):
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED, compresslevel=1) as z:
        with z.open(member, "w", force_zip64=True) as f:
            f.write(b"{}")
            chunk = b" " * (1 << 20)
            for _ in range(size >> 20):
                f.write(chunk)
        z.writestr("_stable_baselines3_version", "2.9.2")
    return path


@pytest.mark.parametrize("member", ["data", "policy.pth"])
def test_a_model_zip_bomb_is_refused_in_under_a_second_and_100_mb(tmp_path, member):
    import sb3_contrib  # noqa: F401 - imported before measuring: its import is not the file's cost
    path = bomb_model(tmp_path / "model.zip", member)
    raised, seconds, peak = cost(lambda: resume.load_model(path, ENV, "player", {}))
    assert isinstance(raised, ModelFileError), raised
    message = str(raised)
    assert message.startswith(f"{path}: member {member!r}") and "\n" not in message, message
    assert seconds < 1 and peak < 100 << 20, (seconds, peak)


def test_a_member_sb3_never_writes_is_refused(tmp_path):
    path = tmp_path / "model.zip"
    with zipfile.ZipFile(path, "w") as z:
        z.writestr("data", "{}")
        z.writestr("../../evil.py", "")
    with pytest.raises(ModelFileError, match=r"^.*model\.zip: member '\.\./\.\./evil\.py' unexpected"):
        resume.serialized_keys(path)


def test_a_real_model_zip_fits_the_limits(tmp_path):
    from agents.archive import check_zip

    names = {info.filename for info in check_zip(tiny_model(tmp_path / "model.zip"), resume.MODEL_LIMITS)}
    assert {"data", "policy.pth", "policy.optimizer.pth", "pytorch_variables.pth"} <= names


def test_a_damaged_tensor_is_refused_in_one_line(tmp_path):
    """torch's refusal runs to a dozen lines (weights_only advice, a link); the resume prints one per file."""
    path = tiny_model(tmp_path / "good.zip")
    damaged = tmp_path / "model.zip"
    with zipfile.ZipFile(path) as src, zipfile.ZipFile(damaged, "w") as z:
        for info in src.infolist():
            z.writestr(info.filename, b"garbage" if info.filename == "policy.pth" else src.read(info))
    from sb3_contrib import MaskablePPO
    model = MaskablePPO.load(path, device="cpu")
    replacements = resume.safe_objects({}, model.observation_space, model.action_space, [8], None, 0.2,
                                       model.policy_kwargs)
    with pytest.raises(ModelFileError) as refused:
        resume.load_model(damaged, ENV, "player", replacements)
    message = str(refused.value)
    assert message.startswith(f"{damaged}: not loadable (") and "\n" not in message and len(message) < 300, message
