"""Playtests on all five rulesets: casualties through the ruleset contract (or 'not measured', never zeros), Konflikt
'47 variants and tuning, SIGTERM, the catalog IDs of each option, and what the report says about its agents."""
from __future__ import annotations

import csv
import os
import re
import signal

import pytest

from envs import registry
from envs.engine.contract import LiveUnit, Ruleset, decide
from envs.engine.dice import agent_seed
from tests.training.helpers import run_cli
from training import lookup
from training.playtest import run as playtest_run
from training.playtest.spec import VariantBuilder, variant_from_words
from training.playtest.telemetry import play

#: the event by which each ruleset removes a dead unit
DEATH = {"rifles-urban": "eliminated", "rifles-darkness": "eliminated", "cityfight": "killed", "k47": "destroyed",
         "urbanwar": "removed"}


def committed(rs):
    return variant_from_words(VariantBuilder(rs, None), ["committed"])


@pytest.mark.parametrize("env", sorted(DEATH))
def test_casualties_are_counted_on_every_ruleset_where_units_died(env):
    rs = registry.get(env)
    factories = [lookup.agent(rs, "scripted")] * len(rs.sides)
    total = 0
    for seed in range(3):
        record = play(rs, committed(rs), factories, seed, pairing="game")   # the game `rubble simulate` plays
        state = rs.new_game(seed=seed)
        agents = [f(s, agent_seed(seed, s)) for s, f in enumerate(factories)]
        events = list(state.setup_events)
        while not state.is_over:
            events += state.apply(decide(agents[state.current_side], state, state.current_side))
        deaths = [e for e in events if e.kind == DEATH[env]]
        assert record.casualties is not None and len(record.casualties) == len(deaths)
        assert sorted(c.side for c in record.casualties) == sorted(e.side for e in deaths)
        total += len(deaths)
    assert total > 0   # units died, and the columns show them


@pytest.mark.parametrize("env", sorted(DEATH))
def test_every_ruleset_declares_its_units_and_their_cells_through_the_contract(env):
    rs = registry.get(env)
    state = rs.new_game(seed=0)
    agents = [lookup.agent(rs, "scripted")(s, s) for s in range(len(rs.sides))]
    while not rs.live_units(state) and not state.is_over:   # Urban War deploys its models first
        state.apply(decide(agents[state.current_side], state, state.current_side))
    units = rs.live_units(state)
    assert units and all(isinstance(u, LiveUnit) for u in units.values())
    picture = state.render_rgb(None)
    for unit in units.values():
        x0, y0, x1, y1 = rs.cell_box(unit.cell)
        assert 0 <= x0 < x1 < picture.shape[1] and 0 <= y0 < y1 < picture.shape[0]
        assert rs.cell_name(state, unit.cell)


def test_a_ruleset_that_does_not_declare_its_units_shows_casualties_as_not_measured(tmp_path, capsys, monkeypatch):
    rs = registry.get("rifles-urban")
    monkeypatch.setattr(type(rs), "live_units", Ruleset.live_units)    # what a ruleset that declares nothing has
    assert play(rs, committed(rs), [lookup.agent(rs, "scripted")] * 2, 0).casualties is None
    code, _, err = run_cli(capsys, "playtest", "rifles-urban", "--variant", "a", "--variant", "b", "ap=5", "--games", "2",
                           "--jobs", "1", "--trained", "none", "--results", tmp_path, "--quiet")
    assert code == 0, err
    folder = tmp_path / "rifles-urban" / "playtests" / "command-line"
    report = (folder / "report.md").read_text()
    assert "Casualties: not measured" in report and "lost per game" not in report
    rows = list(csv.DictReader((folder / "games.csv").open()))
    assert {r["player_lost"] for r in rows} == {"not measured"}


# Konflikt '47 ------------------------------------------------------------------------------------------------------------
def test_a_konflikt_47_playtest_with_scenario_and_tables_variants(tmp_path, capsys):
    code, out, err = run_cli(capsys, "playtest", "k47", "--variant", "base", "--variant", "short", "turns=4",
                             "tables.quality.regular.morale=8", "--games", "2", "--jobs", "1", "--trained", "none",
                             "--results", tmp_path, "--quiet")
    assert code == 0, err
    folder = tmp_path / "k47" / "playtests" / "command-line"
    rows = list(csv.DictReader((folder / "games.csv").open()))
    assert {r["variant"] for r in rows} == {"base", "short"}
    assert all(int(r["turns"]) <= 5 for r in rows if r["variant"] == "short")          # the edited scenario was played
    assert sum(int(r["A_lost"]) + int(r["B_lost"]) for r in rows) > 0
    assert "regular infantry" in (folder / "report.md").read_text()


@pytest.mark.parametrize("env", sorted(DEATH))
def test_a_scenario_path_plays_as_its_name_on_every_ruleset(env):
    """The contract: new_game takes a scenario name or its YAML path (Konflikt '47 added '.yaml' to a path)."""
    rs = registry.get(env)
    for name, path in rs.scenarios().items():
        by_path, by_name = rs.new_game(path, seed=3), rs.new_game(name, seed=3)
        assert by_path.legal_action_mask().tolist() == by_name.legal_action_mask().tolist()
        assert (by_path.observation(0) == by_name.observation(0)).all()


def test_tuning_konflikt_47_runs_and_keeps_every_trial(tmp_path, capsys):
    pytest.importorskip("optuna")
    code, out, err = run_cli(capsys, "playtest", "k47", "--tune", "turns=2..8", "--trials", "2", "--games", "2",
                             "--jobs", "1", "--results", tmp_path, "--quiet")
    assert code == 0, err
    text = (tmp_path / "k47" / "playtests" / "tune-turns" / "tuning.md").read_text()
    assert len(re.findall(r"^\| \d+ \| ", text, re.M)) == 2


def test_tuning_says_when_no_value_reaches_the_target():
    from training.measure.stats import SideTally
    from training.playtest.tune import Trial, Tuning, format_tuning

    trials = tuple(Trial((v,), SideTally(60, 0, 0)) for v in (1, 2, 3))   # every value wins every game
    text = format_tuning(Tuning(("ap",), 0.2, trials, trials[0], SideTally(60, 0, 0), range(60), range(60, 120)), "player")
    assert "No value reaches the target" in text and "none of the 3 values tried" in text
    assert len(re.findall(r"^\| \d \| ", text, re.M)) == 3


# Stopping, options, agents -------------------------------------------------------------------------------------------------
def test_sigterm_reports_the_seeds_already_played(tmp_path, capsys, monkeypatch):
    real = playtest_run.play_task

    def term_at_seed_3(plan, table, seed):
        if seed == 3:
            os.kill(os.getpid(), signal.SIGTERM)
        return real(plan, table, seed)

    monkeypatch.setattr(playtest_run, "play_task", term_at_seed_3)
    before = signal.getsignal(signal.SIGTERM)
    code, _, _ = run_cli(capsys, "playtest", "rifles-urban", "--variant", "a", "--variant", "b", "ap=5", "--games", "10",
                         "--jobs", "1", "--trained", "none", "--results", tmp_path, "--quiet")
    assert code == 130 and signal.getsignal(signal.SIGTERM) == before
    folder = tmp_path / "rifles-urban" / "playtests" / "command-line"
    assert "Stopped by the user after 3 of 10 seeds" in (folder / "report.md").read_text()


def test_the_catalog_rules_that_name_an_option_are_cited(tmp_path):
    from training.playtest.catalog import naming_rules

    (tmp_path / "k.md").write_text("- **KC-ORD-12**: destroyed (flag `pinned_out`, default on).\n"
                                   "- **KC-SCN-12**: flag pinned_out is open to study.\n"
                                   "- **KC-VAR-1** — Night toggle: time = night.\n"
                                   "- **KC-X-2**: Spotting: at night nothing changes.\n- **RB-X-1**: `pinned_out`\n")
    assert naming_rules("pinned_out", ("KC-",), tmp_path) == ["KC-ORD-12", "KC-SCN-12"]
    assert naming_rules("night", ("KC-",), tmp_path) == ["KC-VAR-1"]       # a plain word: in the rule's title only


@pytest.mark.skipif(not __import__("training.playtest.catalog", fromlist=["x"]).CATALOG_DIR.is_dir(),
                    reason="the rules catalogs are not beside the project")
def test_list_options_cites_the_catalog_ids_of_each_konflikt_47_option(capsys):
    code, out, _ = run_cli(capsys, "playtest", "k47", "--list-options")
    assert code == 0
    assert re.search(r"pinned_out\s+default True\s+KC-ORD-12, KC-SCN-12", out)
    assert re.search(r"no_building_entry\s+default False\s+KC-SCN-11", out)
    assert "no catalog rule names it" not in out


def test_the_report_says_what_its_agents_measure():
    from training.playtest.report import Context, agents_words

    ctx = Context(None, ("player", "enemy"), 0, range(2), "local", "", 0.0, False, [])
    scripted = agents_words(ctx, ("scripted", "scripted"))
    assert "measure how these agents fare" in scripted and "--agents trained" in scripted
    trained = agents_words(ctx, ("results/x/player/actor.zip", "results/x/enemy/actor.zip"))
    assert "Both sides trained" in trained and "results/x/player/actor.zip" in trained
    ctx = Context(None, ("player", "enemy"), 0, range(2), "local", "", 0.0, False, [], ruleset="rifles-urban")
    strongest = "results/rifles-urban/player-bc-ppo-15min-seed1/actor.zip"
    words = agents_words(ctx, (strongest, "results/rifles-urban/enemy-bc-ppo-10min/actor.zip"))
    assert "player (named `strongest` in results/agents.yaml: " in words and " vs scripted" in words


def test_agents_trained_takes_the_strongest_shipped_actor_of_every_side():
    from agents import named
    from training.cli.playtest import trained_agents
    from training.folders.rundir import RESULTS_ROOT

    rs = registry.get("rifles-urban")
    player, enemy = trained_agents(rs, RESULTS_ROOT)
    strongest = named.load()["rifles-urban"]["strongest"]    # the named agents, where results/agents.yaml names them
    assert (player, enemy) == (str(strongest.sides["player"].file), str(strongest.sides["enemy"].file))
    assert player.endswith("actor.zip") and "/rifles-urban/" in enemy
    empty = named.REGISTRY_FILE.parent / "no-such-agents.yaml"
    assert not empty.exists()
    from unittest import mock
    with mock.patch.object(named, "load", lambda path=empty: {}):           # none named: the best finished runs
        player, enemy = trained_agents(rs, RESULTS_ROOT)
    assert "/rifles-urban/player-" in player and "/rifles-urban/enemy-" in enemy


def test_trained_auto_announces_its_table_and_expected_time(tmp_path, capsys):
    from training.folders.rundir import RESULTS_ROOT

    run = tmp_path / "rifles-urban" / "player-run"     # a shipped run, seen from the results folder of this test
    run.mkdir(parents=True)
    for name in ("run.json", "eval.csv", "actor.zip"):
        (run / name).symlink_to(RESULTS_ROOT / "rifles-urban" / "player-bc-ppo-15min-seed1" / name)
    code, out, err = run_cli(capsys, "playtest", "rifles-urban", "--variant", "a", "--variant", "b", "ap=5", "--games", "2",
                             "--jobs", "1", "--results", tmp_path, "--quiet")
    assert code == 0, err
    assert re.search(r"--trained auto adds table 2: the trained actor \S+/actor.zip .* 4 more games, "
                     r"about [\d.]+ s", err), err
    report = (tmp_path / "rifles-urban" / "playtests" / "command-line" / "report.md").read_text()
    assert "`--trained auto` adds table 2" in report and "## Table 2" in report
    assert "This report makes 2 comparisons" in report and "Holm" in report
