"""Every `rubble` verb and every `python -m training...` entry point still answers `--help` after the move of
training/ into subpackages: the commands the README and docs give keep working."""
import subprocess
import sys

import pytest

from envs.paths import PROJECT_ROOT
from training.cli import build_parser, main

VERBS = sorted(build_parser()._subparsers._group_actions[0].choices)
MODULES = ("training.cli", "training.learn.throughput", "training.measure.decision_budget", "training.play.pictures",
           "training.replay.examples")


def test_every_verb_the_readme_names_is_registered():
    assert set(VERBS) >= {"list", "play", "simulate", "bench", "train", "league", "league-average", "exploit",
                          "exploit-summary", "evaluate", "report", "audit", "distill", "replay", "playtest"}


@pytest.mark.parametrize("verb", VERBS)
def test_each_verb_answers_help(verb, capsys):
    assert main([verb, "--help"]) == 0
    out = capsys.readouterr().out
    assert out.startswith(f"usage: rubble {verb}")


@pytest.mark.parametrize("module", MODULES)
def test_each_module_entry_point_answers_help(module):
    done = subprocess.run([sys.executable, "-m", module, "--help"], cwd=PROJECT_ROOT, capture_output=True, text=True,
                          timeout=120)
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("usage:")
