"""`rubble league` and `rubble exploit` on the toy duel (rock, paper, scissors; tests/toy_duel.py): the pool and
meta-strategy survive save and resume exactly, a best response finds the always-rock agent's counter, bad input
is one line."""
import json

import numpy as np
import pytest

from agents.trained import Actor
from tests import toy_duel
from tests.training.helpers import run_cli, write_config
from training.league.config import LeagueSettings, load_league_settings
from training.league.pool import LATEST, League, Member, meta_strategy
from training.league.run import LeagueDir, LeagueRequest, LeagueRun, new_league, run_league
from training.learn import train

toy_duel.register()
ENV = toy_duel.NAME
LEAGUE = {"round_steps": 128, "rating_games": 4}


def toy_config(tmp_path, **changes):
    """The tiny config, PPO quick enough to learn a one-decision game in a few hundred steps."""
    return write_config(tmp_path, **{"imitation": {"games": 0}, "league": LEAGUE, "ppo.learning_rate": 0.01, **changes})


def draws(league: League, learner: str, n: int = 200) -> list[str]:
    return [league.draw(learner) for _ in range(n)]


# The pool and the meta-strategy --------------------------------------------------------------------------------------
def test_pfsp_puts_the_games_where_the_learner_loses():
    probs = meta_strategy(np.array([0.9, 0.5, 0.1]), "squared")
    assert probs.argmax() == 2 and probs.argmin() == 0 and probs.sum() == pytest.approx(1.0)
    assert meta_strategy(np.array([0.9, 0.1]), "uniform").tolist() == [0.5, 0.5]   # plain fictitious self-play


def test_the_pool_and_meta_strategy_round_trip_through_json_and_the_draws_continue_the_same_sequence():
    settings = LeagueSettings(self_play=0.3)
    league = League.new(("blue", "red"), seed=5, settings=settings)
    league.join(Member("red-r1", "red", "pool/red-r1.zip", 1))
    for opponent, result in (("scripted", 1.0), ("red-r1", -1.0), ("red-r1", 0.0), (LATEST, 1.0)):
        league.record("blue", opponent, result)
    league.update_meta("blue")
    draws(league, "blue", 17)                      # the generator has moved on before the save
    saved = json.loads(json.dumps(league.to_dict()))
    reloaded = League.from_dict(saved, settings)
    assert reloaded.state == league.state and reloaded.to_dict() == saved
    assert reloaded.state.meta["blue"]["red-r1"] > reloaded.state.meta["blue"]["scripted"]   # it loses to red-r1
    assert draws(reloaded, "blue") == draws(league, "blue")
    assert set(draws(League.from_dict(saved, settings), "blue", 400)) == {LATEST, "scripted", "random", "red-r1"}


def test_the_league_section_of_a_config_is_checked_in_one_line(tmp_path):
    from envs.engine.scenario import ScenarioError

    assert load_league_settings(toy_config(tmp_path)).round_steps == 128
    with pytest.raises(ScenarioError, match="weighting"):
        load_league_settings(toy_config(tmp_path, league={"weighting": "hardest"}))


# A league run --------------------------------------------------------------------------------------------------------
def test_a_league_saves_its_pool_stops_on_ctrl_c_and_resumes_where_it_stood(tmp_path, monkeypatch):
    ldir = new_league(LeagueRequest(env=ENV, rounds=1, config_path=toy_config(tmp_path), results=tmp_path))
    _, status, final = run_league(ldir, progress=False)
    assert status == "finished" and set(final) == {"blue", "red"}
    pools = json.loads(ldir.file.read_text())["league"]["pools"]
    assert [m["name"] for m in pools["red"]] == ["scripted", "random", "red-r1"]
    for member in pools["red"][2:]:
        assert Actor.read(ldir.path / member["file"]).meta["side"] == "red"    # snapshots are actor.zip, no pickle
    league = json.loads(ldir.file.read_text())["league"]
    assert "red-r1@red" in league["ratings"]
    played = league["tallies"]["blue"]      # the training games were counted against the opponents drawn
    assert played[LATEST]["games"] > 0 and sum(t["games"] for t in played.values()) >= 128 / 2
    assert sum(league["meta"]["blue"].values()) == pytest.approx(1.0) and "red-r1" in league["meta"]["blue"]

    # A second round, stopped by Ctrl-C at its end: everything as it stood is saved, and a resume finishes it.
    def interrupt(self):
        raise KeyboardInterrupt
    monkeypatch.setattr(LeagueRun, "end_round", interrupt)
    run, status, _ = run_league(ldir, progress=False, budget=(None, 2))
    assert status == "interrupted"
    saved = json.loads(ldir.file.read_text())
    assert saved["run"]["status"] == "interrupted" and saved["run"]["turn"] == 2 and saved["run"]["round"] == 2
    reloaded = League.from_dict(saved["league"], run.settings)
    assert reloaded.state == run.league.state
    assert draws(reloaded, "red") == draws(run.league, "red")       # the draws go on as they would have
    monkeypatch.undo()
    run, status, _ = run_league(ldir, progress=False)
    info = json.loads(ldir.file.read_text())["run"]
    assert status == "finished" and info["round"] == 3 and info["sessions"] == 3
    assert [m.name for m in run.league.state.pools["blue"]][-1] == "blue-r2"


def test_the_cli_runs_a_league_whose_agents_play_as_any_model(tmp_path, capsys):
    config = toy_config(tmp_path)
    code, out, err = run_cli(capsys, "league", ENV, "--rounds", 1, "--config", config, "--results", tmp_path,
                             "--run", "tiny", "--quiet")
    assert code == 0, err
    enemy = tmp_path / ENV / "league" / "tiny" / "red" / "actor.zip"
    code, out, err = run_cli(capsys, "simulate", ENV, "--enemy", enemy, "--games", 4, "--quiet")
    assert code == 0 and "red" in out, err
    code, _, err = run_cli(capsys, "league", ENV, "--rounds", 1, "--config", config, "--results", tmp_path,
                           "--run", "tiny", "--quiet")
    assert code == 2 and "exists" in err and len(err.strip().splitlines()) == 1     # never over an earlier league


# Best responses ------------------------------------------------------------------------------------------------------
def test_a_best_response_to_the_always_rock_agent_learns_paper_and_the_table_grows(tmp_path, capsys, monkeypatch):
    # the code the best response starts from, as its run.json records it: the row names that commit, not the one
    # checked out when the row is written (a merge may land while it trains)
    monkeypatch.setattr(train, "git_commit", lambda: "a" * 40)
    config = toy_config(tmp_path)
    argv = ("exploit", ENV, "--agent", "scripted", "--side", "blue", "--timesteps", 512, "--games", 50,
            "--config", config, "--results", tmp_path, "--quiet")
    code, out, err = run_cli(capsys, *argv)
    assert code == 0, err
    assert f"config: {config}" in out
    run = tmp_path / ENV / "league" / "exploit" / "red-vs-scripted-seed0"
    first = (run / "eval.csv").read_text().splitlines()[1].split(",")
    assert first[3] == "0"                          # untrained, it did not win: the test can fail
    assert "Final evaluation" not in (run / "report.md").read_text()   # the measurement plays the held-out games
    actor = Actor.read(run / "actor.zip")
    assert int(np.argmax(actor.logits(np.array([0.0, 1.0], np.float32)))) == toy_duel.PAPER
    table = tmp_path / ENV / "league" / "exploitability.md"
    assert "| scripted | blue |" in table.read_text() and "100.0 % [92.9, 100.0] (50/50)" in table.read_text()
    assert json.loads((run / "run.json").read_text())["git_commit"] == "a" * 40
    assert table.read_text().rstrip().endswith("| `aaaaaaaaaaaa` |")
    code, _, err = run_cli(capsys, *argv)           # a second measurement is a second row, the first one kept
    assert code == 0, err
    assert table.read_text().count("| scripted | blue |") == 2
    assert (tmp_path / ENV / "league" / "exploit" / "red-vs-scripted-seed0-2").is_dir()


@pytest.mark.parametrize("argv, expected", [
    (("exploit", ENV, "--agent", "rocky", "--side", "blue"), "unknown agent 'rocky'"),
    (("exploit", ENV, "--agent", "scripted", "--side", "blue", "--minutes", "-2"), "expected minutes > 0"),
    (("exploit", ENV, "--agent", "missing/actor.zip", "--side", "red"), "missing/actor.zip: no such file"),
    (("exploit", ENV, "--agent", "scripted", "--side", "green"), "unknown side 'green'"),
    (("league", ENV, "--minutes", "0"), "expected minutes > 0"),
    (("league", ENV, "--resume", "nowhere"), "no league 'nowhere'"),
    (("league", ENV, "--resume", "x", "--seed", "3"), "--resume keeps the league's settings"),
])
def test_bad_input_is_one_line(tmp_path, capsys, argv, expected):
    code, out, err = run_cli(capsys, *argv, "--results", tmp_path)
    assert code != 0 and expected in err and len(err.strip().splitlines()) == 1, err
    assert not (tmp_path / ENV / "league" / "exploit").exists()


def test_a_file_that_is_not_an_exploitability_table_is_never_overwritten(tmp_path, capsys):
    table = tmp_path / ENV / "league" / "exploitability.md"
    table.parent.mkdir(parents=True)
    table.write_text("my notes\n")
    code, _, err = run_cli(capsys, "exploit", ENV, "--agent", "scripted", "--side", "blue", "--timesteps", 128,
                           "--games", 4, "--config", toy_config(tmp_path), "--results", tmp_path, "--quiet")
    assert code == 2 and "not an exploitability table" in err and table.read_text() == "my notes\n"


def test_a_league_folder_reads_back_as_written(tmp_path):
    ldir = new_league(LeagueRequest(env=ENV, rounds=1, config_path=toy_config(tmp_path), results=tmp_path, seed=4))
    info, league = LeagueDir(ldir.path).read(LeagueSettings())
    assert info.seed == 4 and info.rounds == 1 and info.status == "new"
    assert league.state == League.new(("blue", "red"), 4, LeagueSettings()).state


# Main exploiters -----------------------------------------------------------------------------------------------------
def test_main_exploiters_play_only_the_current_policy_and_their_snapshots_join_the_pools(tmp_path):
    config = toy_config(tmp_path, league={**LEAGUE, "exploiters": True, "exploiter_steps": 64, "exploiter_reset": 1.0,
                                          "exploiter_rounds": 3})
    ldir = new_league(LeagueRequest(env=ENV, rounds=1, config_path=config, results=tmp_path))
    run, status, final = run_league(ldir, progress=False)
    assert status == "finished" and set(final) == {"blue", "red"}       # the final tables are the main learners'
    assert run.learners["red-exploiter"].model.num_timesteps >= 64 and (ldir.path / "red-exploiter" / "actor.zip").is_file()
    league = json.loads(ldir.file.read_text())["league"]
    assert [m["name"] for m in league["pools"]["red"]] == ["scripted", "random", "red-r1", "red-exploiter-r1"]
    assert set(league["tallies"]["blue-exploiter"]) == {LATEST}         # never a pool member
    assert "red-exploiter-r1" in league["meta"]["blue"]                 # the main learner meets it from now on
    assert "Main exploiters" in ldir.report.read_text()


def test_a_main_exploiter_starts_again_after_its_rounds_and_forgets_its_results(tmp_path):
    config = toy_config(tmp_path, league={**LEAGUE, "exploiters": True, "exploiter_steps": 64, "exploiter_rounds": 1})
    ldir = new_league(LeagueRequest(env=ENV, rounds=1, config_path=config, results=tmp_path))
    run, status, _ = run_league(ldir, progress=False)
    saved = json.loads(ldir.file.read_text())
    assert status == "finished" and saved["run"]["started"] == {"blue-exploiter": 1, "red-exploiter": 1}
    assert saved["league"]["tallies"]["blue-exploiter"] == {} and saved["league"]["tallies"]["blue"] != {}
    member = League.from_dict(saved["league"], run.settings).member("blue", "blue-exploiter-r1")
    learnt = Actor.read(ldir.path / member.file)          # the snapshot that joined: what it had learnt
    now = Actor.of(run.learners["blue-exploiter"].model)
    obs = np.array([1.0, 0.0], np.float32)
    assert learnt.meta["side"] == "blue" and not np.allclose(learnt.logits(obs), now.logits(obs), atol=0.05)  # float16


# Starting from trained actors (league.start_from) --------------------------------------------------------------------
def trained_red(tmp_path):
    """A red actor.zip from a one-round league of its own."""
    first = new_league(LeagueRequest(env=ENV, rounds=1, config_path=toy_config(tmp_path), results=tmp_path, run="first"))
    run_league(first, progress=False)
    return first.path / "red" / "actor.zip"


def test_a_main_learner_starts_from_the_actor_start_from_names_and_the_other_side_is_untouched(tmp_path):
    actor_path = trained_red(tmp_path)
    config = toy_config(tmp_path, name="start.yaml", league={**LEAGUE, "start_from": {"red": str(actor_path)}})
    ldir = new_league(LeagueRequest(env=ENV, rounds=1, config_path=config, results=tmp_path, run="second"))
    plain = new_league(LeagueRequest(env=ENV, rounds=1, config_path=toy_config(tmp_path), results=tmp_path, run="plain"))
    run, fresh = LeagueRun(ldir, progress=False), LeagueRun(plain, progress=False)    # the same seed: the same init
    run.imitate()
    started, trained = Actor.of(run.learners["red"].model), Actor.read(actor_path)
    for (w, b), (tw, tb) in zip(started.layers, trained.layers, strict=True):
        assert np.array_equal(w, tw) and np.array_equal(b, tb)      # float16 in the file, copied exactly
    assert not np.array_equal(Actor.of(fresh.learners["red"].model).layers[0][0], trained.layers[0][0])
    blue, fresh_blue = Actor.of(run.learners["blue"].model), Actor.of(fresh.learners["blue"].model)
    assert all(np.array_equal(w, v) for (w, _), (v, _) in zip(blue.layers, fresh_blue.layers, strict=True))
    run_json = json.loads((ldir.path / "red" / "run.json").read_text())
    assert run_json["imitation"] == {"start_from": str(actor_path.resolve())}
    _, status, _ = run_league(ldir, progress=False)
    assert status == "finished" and "the red began as the actor of" in ldir.report.read_text()


@pytest.mark.parametrize(("start", "changes", "expected"), [
    ({"green": "RED"}, {}, "start.yaml: field 'league.start_from.green': expected a side of toy-duel (blue, red)"),
    ({"blue": "RED"}, {}, "trained as the red, not the blue"),
    ({"red": "RED"}, {"policy.net_arch": [8]}, "its layers are 16x2, 3x16; the config's policy has 8x2, 3x8"),
    ({"red": "RED"}, {"policy.activation": "relu"}, "its activation is Tanh; the config's policy uses ReLU"),
    ({"red": "nowhere/actor.zip"}, {}, "nowhere/actor.zip"),
])
def test_a_start_that_does_not_fit_fails_in_one_line_before_the_league_is_made(tmp_path, capsys, start, changes, expected):
    actor_path = str(trained_red(tmp_path))
    start = {side: actor_path if path == "RED" else path for side, path in start.items()}
    config = toy_config(tmp_path, name="start.yaml", league={**LEAGUE, "start_from": start}, **changes)
    code, _, err = run_cli(capsys, "league", ENV, "--rounds", 1, "--config", config, "--results", tmp_path,
                           "--run", "bad", "--quiet")
    assert code == 2 and expected in err and len(err.strip().splitlines()) == 1, err
    assert not (tmp_path / ENV / "league" / "bad").exists()


def test_a_best_response_can_start_from_a_trained_actor_and_its_row_names_that_start(tmp_path, capsys):
    config = toy_config(tmp_path)
    common = ("--agent", "scripted", "--side", "blue", "--games", 20, "--config", config, "--results", tmp_path, "--quiet")
    code, _, err = run_cli(capsys, "exploit", ENV, "--timesteps", 512, *common)
    assert code == 0, err
    paper = tmp_path / ENV / "league" / "exploit" / "red-vs-scripted-seed0" / "actor.zip"
    code, _, err = run_cli(capsys, "exploit", ENV, "--timesteps", 64, "--start-from", paper, *common)
    assert code == 0, err
    run = tmp_path / ENV / "league" / "exploit" / "red-vs-scripted-seed0-2"
    games, wins = (run / "eval.csv").read_text().splitlines()[1].split(",")[2:4]
    assert int(games) > 0 and wins == games     # at step 0 it already plays paper (a cloned start wins none above)
    assert json.loads((run / "run.json").read_text())["imitation"] == {"start_from": str(paper.resolve())}
    assert "began as the actor of" in (run / "report.md").read_text()
    rows = (tmp_path / ENV / "league" / "exploitability.md").read_text().splitlines()[-2:]
    assert "| 512 timesteps |" in rows[0] and f"| 64 timesteps from {paper} |" in rows[1]


@pytest.mark.parametrize(("side", "start", "expected"), [
    ("red", "RED", "trained as the red, not the blue"),        # the best response plays blue
    ("blue", "nowhere/actor.zip", "nowhere/actor.zip"),
])
def test_a_best_response_start_that_does_not_fit_fails_in_one_line_and_makes_no_run(tmp_path, capsys, side, start,
                                                                                      expected):
    start = str(trained_red(tmp_path)) if start == "RED" else start
    code, _, err = run_cli(capsys, "exploit", ENV, "--agent", "scripted", "--side", side, "--timesteps", 64,
                           "--start-from", start, "--config", toy_config(tmp_path), "--results", tmp_path, "--quiet")
    assert code == 2 and expected in err and len(err.strip().splitlines()) == 1, err
    assert not (tmp_path / ENV / "league" / "exploit").exists()
