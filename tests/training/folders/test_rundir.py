"""A run name is one folder name, matched in full."""
import pytest

from training.folders.rundir import check_run_name


@pytest.mark.parametrize("name", ["run\n", "run\n\n", "../up", "a/b", ".", "..", "", "-dash", "run name"])
def test_a_run_name_is_refused_unless_it_is_one_plain_folder_name(name):
    with pytest.raises(ValueError, match="expected one folder name"):
        check_run_name(name)


def test_a_plain_run_name_is_kept():
    assert check_run_name("player-vs-scripted-seed0.v2_b") == "player-vs-scripted-seed0.v2_b"
