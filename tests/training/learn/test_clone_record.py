"""A run's record never claims what its files do not hold: a kill during the first save after behaviour cloning
leaves a run that clones again on resume (here from the clone cache), not one whose run.json and report.md say
the policy was cloned while the resumed model starts fresh."""
from __future__ import annotations

import pytest
from sb3_contrib import MaskablePPO

from tests.training.helpers import ENV, write_config
from training.learn.train import TrainRequest, new_run, run_session


class Killed(BaseException):
    """A kill: nothing catches it, nothing after it runs."""


def test_a_kill_during_the_first_save_after_cloning_leaves_a_run_that_clones_again(tmp_path, monkeypatch):
    run = new_run(TrainRequest(env=ENV, side="player", timesteps=64, results=tmp_path / "results",
                               config_path=write_config(tmp_path, imitation={"games": 2, "epochs": 1})))

    def killed(self, *args, **kwargs):
        raise Killed
    with monkeypatch.context() as patch:
        patch.setattr(MaskablePPO, "save", killed)          # the process dies writing model.zip
        with pytest.raises(Killed):
            run_session(run, progress=False)
    assert not run.model.exists()
    assert run.read_info().imitation == {}                   # no claim of a clone the files do not hold

    outcome = run_session(run, progress=False)
    record = outcome.info.imitation
    assert outcome.status == "finished" and record.get("cached")   # cloned again: from the cache the kill left
    assert "the cloned start of an earlier run, loaded from" in run.report.read_text()


def test_a_record_left_without_its_model_is_dropped_and_the_run_clones(tmp_path):
    """A run left by the old order (run.json with the record, no model.zip): the resume does not trust it."""
    run = new_run(TrainRequest(env=ENV, side="player", timesteps=64, results=tmp_path / "results",
                               config_path=write_config(tmp_path, imitation={"games": 2, "epochs": 1})))
    stale = {"games": 2, "teacher_wins": 0, "decisions": 1, "epochs": 1, "accuracy": 0.123456, "teacher": "scripted"}
    run.write_info(run.read_info().with_progress(imitation=stale, status="running", sessions=1))
    outcome = run_session(run, progress=False)
    assert outcome.info.imitation["accuracy"] != stale["accuracy"]
    assert "0.123456" not in run.report.read_text() and "12.3" not in run.report.read_text()
