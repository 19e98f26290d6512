"""`rubble evaluate` (pairings and the rating ladder) and `rubble report` (exploitability)."""
import csv
import json

import pytest

from envs import registry
from tests.training.helpers import ENV, run_cli, tiny_actor
from training.league.exploitability import best_model
from training.measure.evaluate import Contestant, pairings
from training.measure.ladder import rate
from training.measure.stats import GameRecord


@pytest.fixture(scope="module")
def player_model(tmp_path_factory):
    return tiny_actor(tmp_path_factory.mktemp("run") / "actor.zip")


def test_pairings_put_each_agent_only_on_the_sides_it_plays():
    both, player_only = Contestant("scripted", "scripted", (0, 1)), Contestant("m.zip", "m", (0,))
    assert pairings([both, player_only], 2) == [(both, both), (player_only, both)]


def test_evaluate_plays_every_pairing_and_writes_the_ladder(tmp_path, capsys, player_model):
    code, out, err = run_cli(capsys, "evaluate", ENV, "--agents", "scripted", "random", player_model,
                             "--games", 2, "--results", tmp_path, "--quiet")
    assert code == 0, err
    ladder = tmp_path / ENV / "ladder"
    rows = list(csv.DictReader((ladder / "pairings.csv").open()))
    assert len(rows) == 3 * 2                      # player: scripted, random, the model; enemy: scripted, random
    run = player_model.parent.name                  # an actor.zip is labelled by its run folder
    assert {(r["player"], r["enemy"]) for r in rows} >= {(run, "scripted"), ("scripted", "scripted")}
    assert all(int(r["player_wins"]) + int(r["player_draws"]) + int(r["player_losses"]) == 2 for r in rows)
    text = (ladder / "ladder.md").read_text()
    assert "seeds 1,000,000..1,000,001" in text and "| 1 | " in text and f"{run}@player" in text
    assert "random@enemy" in text and f"{run}@enemy" not in text
    assert (ladder / "ladder.png").stat().st_size > 1000
    assert "## Ladder" in out and "note:" not in err


def test_evaluate_warns_about_seeds_used_in_training(tmp_path, capsys):
    code, _, err = run_cli(capsys, "evaluate", ENV, "--agents", "random", "--games", 1, "--seed", 0,
                           "--results", tmp_path, "--quiet")
    assert code == 0 and "note: seeds below 1,000,000" in err


def test_the_ladder_ranks_the_side_that_always_wins_first():
    class Pair:
        agents = (Contestant("a", "a", (0, 1)), Contestant("b", "b", (0, 1)))
        records = tuple(GameRecord(i, (1.0, -1.0), 10) for i in range(20))
    ratings = rate([Pair()], ("player", "enemy"))
    assert [r.entry for r in ratings] == ["a@player", "b@enemy"] and ratings[0].games == 20


def test_report_sets_scripted_and_trained_side_by_side(tmp_path, capsys, player_model):
    code, out, err = run_cli(capsys, "report", ENV, "--player", player_model, "--games", 3, "--results", tmp_path)
    assert code == 0, err
    text = (tmp_path / ENV / "exploitability.md").read_text()
    table = [line for line in text.splitlines() if line.startswith(("| player", "| enemy"))]
    assert [line.split(" | ")[1] for line in table] == ["scripted", f"trained ({player_model})", "scripted", "trained"]
    assert "no trained enemy yet: `rubble train rifles-urban --side enemy`" in text
    assert "- player: the trained player wins" in text


def test_report_picks_the_finished_run_that_evaluated_best(tmp_path):
    runs = (("a", 100, "finished", 0.30), ("b", 300, "finished", 0.20), ("c", 900, "interrupted", 0.90))
    for name, steps, status, win_rate in runs:
        folder = tmp_path / ENV / name
        folder.mkdir(parents=True)
        (folder / "actor.zip").write_bytes(b"")
        (folder / "run.json").write_text(json.dumps({"side": "player", "status": status, "trained_timesteps": steps}))
        (folder / "eval.csv").write_text(f"timesteps,win_rate\n0,0.0\n{steps},{win_rate}\n")
    assert best_model(tmp_path, ENV, "player") == tmp_path / ENV / "a" / "actor.zip"
    assert best_model(tmp_path, ENV, "enemy") is None


def test_report_covers_every_registered_env_by_default(tmp_path, capsys, monkeypatch):
    # Only the two Rifles envs: other rulesets may be half-written in a working tree.
    monkeypatch.setattr(registry, "names", lambda: ["rifles-darkness", "rifles-urban"])
    code, out, _ = run_cli(capsys, "report", "--games", 1, "--results", tmp_path)
    assert code == 0
    assert all((tmp_path / name / "exploitability.md").is_file() for name in ("rifles-darkness", "rifles-urban"))
