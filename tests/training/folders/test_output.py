"""A command's output place is claimed, not guessed: two commands started at once never write into one folder (or
one report file), and neither result is lost."""
from __future__ import annotations

import multiprocessing
import subprocess
import sys

import pytest

from envs.paths import PROJECT_ROOT
from training.folders import output


def _claim_after(barrier, path, file, queue) -> None:
    barrier.wait()                                  # every process asks at the same moment
    queue.put(str(output.claim(path, file=file)))


@pytest.mark.parametrize("file", [False, True], ids=["folder", "file"])
def test_processes_claiming_one_name_at_once_each_get_their_own(tmp_path, file):
    context = multiprocessing.get_context("spawn")
    barrier, queue = context.Barrier(4), context.Queue()
    target = tmp_path / ("exploitability.md" if file else "ladder")
    workers = [context.Process(target=_claim_after, args=(barrier, target, file, queue)) for _ in range(4)]
    for w in workers:
        w.start()
    got = sorted(queue.get(timeout=60) for _ in workers)
    for w in workers:
        w.join()
    expected = ["exploitability.md", "exploitability-2.md", "exploitability-3.md", "exploitability-4.md"] if file \
        else ["ladder", "ladder-2", "ladder-3", "ladder-4"]
    assert sorted(got) == sorted(str(tmp_path / name) for name in expected)


def test_an_empty_folder_is_not_reused_it_may_be_a_claim_just_made(tmp_path):
    (tmp_path / "ladder").mkdir()
    assert output.claim(tmp_path / "ladder") == tmp_path / "ladder-2"
    assert output.claim(tmp_path / "ladder", force=True) == tmp_path / "ladder"


def test_a_claim_given_back_empty_frees_the_name_and_a_written_one_stays(tmp_path):
    folder, report = output.claim(tmp_path / "ladder"), output.claim(tmp_path / "r.md", file=True)
    output.release(folder)
    output.release(report)
    assert not folder.exists() and not report.exists()
    kept = output.claim(tmp_path / "r.md", file=True)
    kept.write_text("result")
    output.release(kept)
    assert kept.read_text() == "result"


def test_two_evaluations_started_at_once_keep_both_results(tmp_path):
    """Before the claim, both picked results/ENV/ladder/ (made empty at once, so free to the other) and the second
    ladder.md overwrote the first."""
    argv = [sys.executable, "-m", "training.cli", "evaluate", "rifles-urban", "--games", "2", "--quiet",
            "--results", str(tmp_path)]
    runs = [subprocess.Popen([*argv, "--agents", *agents], cwd=PROJECT_ROOT, stdout=subprocess.PIPE,
                             stderr=subprocess.PIPE, text=True)
            for agents in (("random", "scripted"), ("scripted", "random"))]
    outs = [run.communicate(timeout=300) for run in runs]
    assert [run.returncode for run in runs] == [0, 0], outs
    folders = sorted(p.name for p in (tmp_path / "rifles-urban").iterdir())
    assert folders == ["ladder", "ladder-2"]
    written = {(tmp_path / "rifles-urban" / f / "ladder.md").read_text() for f in folders}
    assert len(written) == 2                        # two results, neither written over the other
