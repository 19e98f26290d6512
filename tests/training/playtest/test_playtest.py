"""`rubble playtest`: variants as data, paired dice, rule telemetry, the report, tuning and the Ray backend."""
from __future__ import annotations

import csv
import importlib.util
import re
from collections import Counter

import pytest
import yaml

import envs
from envs import registry
from envs.engine.contract import decide
from envs.engine.dice import SeededDice, agent_seed
from envs.engine.scenario import Fields, ScenarioError
from tests import toy_game
from tests.training.helpers import run_cli
from training import lookup
from training.measure.paired import paired_difference
from training.playtest import run as playtest_run
from training.playtest.catalog import catalog_rules, never_fired
from training.playtest.dice import PAIRINGS, PhaseDice, phases_match_seed, stream_matches_seed
from training.playtest.run import Plan, run_games
from training.playtest.scenario import new_game as variant_game
from training.playtest.spec import VariantBuilder, load_playtest, variant_from_words
from training.playtest.telemetry import play

URBAN = "rifles-urban"
SCRIPTED = ("scripted", "scripted")


def shared_prefix(a, b) -> int:
    """How many rolls two games made alike before their faces first differ."""
    n = min(len(a), len(b))
    return next((i for i in range(n) if a[i] != b[i]), n)


def urban_variants(*words):
    rs = registry.get(URBAN)
    builder = VariantBuilder(rs, None)
    return rs, tuple(variant_from_words(builder, w) for w in words)


# Paired dice -------------------------------------------------------------------------------------------------------
@pytest.mark.parametrize("pairing", PAIRINGS)
def test_paired_games_roll_identical_dice_streams(pairing):
    rs, variants = urban_variants(["committed"], ["no-em", "exposed_movement=false"])
    factories = [lookup.agent(rs, "scripted")] * 2
    for seed in range(8):
        a, b = (play(rs, v, factories, seed, pairing=pairing) for v in variants)
        assert a.dice_from_seed and b.dice_from_seed       # each game's rolls are its seed's streams, in order
        assert shared_prefix(a.dice, b.dice) >= 1          # and both games start on the same rolls


def test_decision_streams_remove_more_variance_than_one_stream_per_game():
    """Advanced Urban (RU-VAR-1) rolls at set-up, so with one stream per game every later roll of a pair differs;
    with a stream per decision the pair's games read the same dice again from the first decision on."""
    rs, variants = urban_variants(["committed"], ["advanced", "advanced_urban=true"])
    reduction = {}
    for pairing in ("game", "decision"):
        records = run_games(Plan(rs.name, variants, (SCRIPTED,), pairing), range(150)).records
        wins = [[int(r.returns[0] > 0) for r in records if r.variant == i] for i in (0, 1)]
        reduction[pairing] = paired_difference(*wins).variance_reduction
    assert reduction["decision"] > 0.5 > 0.1 > reduction["game"]   # measured: 82 % and -3 % on these seeds


def test_the_phase_check_fails_for_another_seed_or_order():
    dice = PhaseDice(5)
    for key in ((1, 0), (1, 1), (2, 0), (1, 0)):            # a phase that comes back resumes its stream
        dice.enter(key)
        for sides in (6, 10, 6):
            dice.roll(sides)
    assert phases_match_seed(dice.log, dice.keys, 5)
    assert not phases_match_seed(dice.log, dice.keys, 6)
    assert not phases_match_seed(dice.log, list(reversed(dice.keys)), 5)


def test_the_stream_check_fails_for_another_seed():
    dice = SeededDice(5)
    for sides in (6, 6, 10, 3, 6, 2) * 100:      # more than one 512-draw buffer
        dice.roll(sides)
    assert stream_matches_seed(dice.log, 5)
    assert not stream_matches_seed(dice.log, 6)
    assert not stream_matches_seed(dice.log[1:], 5)   # a skipped roll breaks the order


def test_identical_variants_play_identical_games():
    rs, variants = urban_variants(["a"], ["b"])
    records = run_games(Plan(rs.name, variants, (SCRIPTED,)), range(6)).records
    by_variant = [[r for r in records if r.variant == i] for i in (0, 1)]
    for a, b in zip(*by_variant):
        assert (a.dice, a.returns, a.rules, a.casualties, a.decisions) == (b.dice, b.returns, b.rules, b.casualties, b.decisions)


# Statistics ------------------------------------------------------------------------------------------------------------
def test_paired_difference_exact_values():
    d = paired_difference([1, 0, 1, 1], [1, 1, 1, 0])
    assert d.diff == 0
    # per-game differences 0, 1, 0, -1: variance 2/3; unpaired: 0.25 + 0.25
    assert d.paired == pytest.approx((-1.959964 * (2 / 3 / 4) ** 0.5, 1.959964 * (2 / 3 / 4) ** 0.5))
    assert d.unpaired == pytest.approx((-1.959964 * (0.5 / 4) ** 0.5, 1.959964 * (0.5 / 4) ** 0.5))
    assert not d.significant


def test_pairing_removes_the_variance_that_games_share():
    a = [1, 0, 1, 1, 0, 1, 0, 0, 1, 1] * 5
    b = [1, 1, 1, 1, 1, 1, 0, 1, 1, 1] * 5         # wins wherever a wins, and more
    d = paired_difference(a, b)
    assert d.diff == pytest.approx(0.3)
    assert d.significant and d.paired[0] > 0
    assert d.unpaired[1] - d.unpaired[0] > d.paired[1] - d.paired[0]
    assert 0 < d.variance_reduction < 1


# Telemetry ----------------------------------------------------------------------------------------------------------
@pytest.mark.parametrize("env, killed", [(URBAN, "eliminated"), ("cityfight", "killed")])
def test_telemetry_counts_every_rule_and_casualty_the_events_show(env, killed):
    rs = registry.get(env)
    variant = variant_from_words(VariantBuilder(rs, None), ["committed"])
    factories = [lookup.agent(rs, "scripted")] * len(rs.sides)
    for seed in range(3):
        record = play(rs, variant, factories, seed, pairing="game")   # the game `rubble simulate` plays
        state = rs.new_game(seed=seed)
        agents = [f(s, agent_seed(seed, s)) for s, f in enumerate(factories)]
        events = list(state.setup_events)
        while not state.is_over:
            events += state.apply(decide(agents[state.current_side], state, state.current_side))
        assert record.rules == Counter(e.rule for e in events if e.rule)
        assert len(record.casualties) == sum(e.kind == killed for e in events)
        assert record.returns == tuple(state.returns()) and record.turns == state.turn


def test_never_fired_lists_the_catalog_rules_no_event_cited(tmp_path):
    (tmp_path / "toy.md").write_text("- **TOY-1** one\n- **TOY-2** two\n- **XX-1** other\n- **TOY-3** three\n")
    rules = catalog_rules(("TOY-",), tmp_path)
    assert rules == ["TOY-1", "TOY-2", "TOY-3"]
    assert never_fired(rules, Counter({"TOY-2": 4})) == ["TOY-1", "TOY-3"]


# Variants as data: errors name the file and the field -------------------------------------------------------------
def write_playtest(tmp_path, variants, **top):
    path = tmp_path / "bad.yaml"
    path.write_text(yaml.safe_dump({"ruleset": URBAN, "variants": variants, **top}), encoding="utf-8")
    return path


@pytest.mark.parametrize("variants, top, field, expected", [
    ({"a": {}, "b": {"turn": 8}}, {}, "variants.b.turn", "a rule option"),
    ({"a": {}, "b": {"exposed_movement": "no"}}, {}, "variants.b.exposed_movement", "true or false"),
    ({"a": {}, "b": {"turns": 0}}, {}, "variants.b.turns", "an integer in 1..100"),
    ({"a": {}, "b": {"enemy.quality": "elite"}}, {}, "variants.b.enemy.quality", "one of recruit, regular, veteran"),
    ({"a": {}, "b": {"tables.tn_cap": 9}}, {}, "variants.b.tables.tn_cap", "an integer in 2..6"),
    ({"a": {}, "b": {"scenario": "nowhere"}}, {}, "variants.b.scenario", "a scenario of rifles-urban"),
    ({"a": {}}, {}, "variants", "two or more variant names"),
    ({"a": {}, "b": {}}, {"game": 5}, "game", "a known field"),
    ({"a": {}, "b": {}}, {"games": 0}, "games", "an integer >= 1"),
    ({"a": {}, "b": {}}, {"agents": ["scripted"]}, "agents", "a list of 2 agent names"),
    ({"a": {}, "b": {}}, {"pairing": "turn"}, "pairing", "one of decision, phase, game"),
    ({"a": {}, "b": {}}, {"agents": ["scripted", "genius"]}, "agents[1]", "an agent of rifles-urban"),
])
def test_a_bad_variant_fails_naming_file_and_field(tmp_path, variants, top, field, expected):
    path = write_playtest(tmp_path, variants, **top)
    with pytest.raises(ScenarioError) as err:
        load_playtest(path, registry.get(URBAN))
    assert err.value.file == str(path) and err.value.field == field
    assert expected in err.value.expected


def test_a_bad_command_line_variant_is_one_line_naming_the_field(capsys):
    code, _, err = run_cli(capsys, "playtest", URBAN, "--variant", "a", "--variant", "b", "ap=lots")
    assert code == 2
    assert err.strip().count("\n") == 0
    assert "command line: field '--variant b.ap': expected an integer, got 'lots'" in err


def test_list_options_names_defaults_and_rule_ids(capsys):
    code, out, _ = run_cli(capsys, "playtest", URBAN, "--list-options")
    assert code == 0
    assert re.search(r"exposed_movement\s+default True\s+RU-VAR-2", out)
    assert re.search(r"advanced_urban\s+default False\s+RU-VAR-1", out)
    assert re.search(r"turns\s+default 10\s+RB-TURN-1", out)


def test_a_variant_edits_scenario_and_tables_fields():
    rs, (variant,) = urban_variants(["short", "turns=3", "ap=6", "tables.tn_cap=5", "exposed_movement=false"])
    game = variant_game(rs, variant, seed=0)
    assert (game.scenario.turns, game.scenario.ap, game.tables.tn_cap) == (3, 6, 5)
    assert game.options["exposed_movement"] is False


# The report -----------------------------------------------------------------------------------------------------------
def test_report_files_and_no_silent_overwrite(tmp_path, capsys):
    argv = ("playtest", URBAN, "block_six_urban_options", "--games", "4", "--jobs", "1", "--trained", "none",
            "--results", tmp_path, "--quiet")
    code, out, err = run_cli(capsys, *argv)
    assert code == 0, err
    folder = tmp_path / URBAN / "playtests" / "block-six-urban-options"
    report = (folder / "report.md").read_text()
    assert "paired 95 % CI" in report and "unpaired" in report and "were cited by no event" in report
    html = (folder / "report.html").read_text()
    assert html.count("data:image/png;base64,") >= 5 and "src='http" not in html
    rows = list(csv.DictReader((folder / "games.csv").open()))
    assert len(rows) == 3 * 4 and {r["variant"] for r in rows} == {"committed", "no-exposed-movement", "advanced-urban"}
    assert all(r["dice_from_seed"] == "True" for r in rows)
    assert "Paired dice (decision)" in report
    again = yaml.safe_load((folder / "playtest.yaml").read_text())
    assert again["variants"]["no-exposed-movement"] == {"scenario": "block_six", "exposed_movement": False}
    assert again["agents"] == ["scripted", "scripted"]

    code, _, err = run_cli(capsys, *argv)
    assert code == 0 and "holds an earlier playtest report, kept" in err and "--force" in err
    assert (folder / "report.md").read_text() == report and (folder.parent / f"{folder.name}-2" / "report.md").exists()
    code, _, _ = run_cli(capsys, *argv, "--force")
    assert code == 0


def test_ctrl_c_reports_the_seeds_already_played(tmp_path, capsys, monkeypatch):
    real = playtest_run.play_task

    def stop_at_seed_3(plan, table, seed):
        if seed == 3:
            raise KeyboardInterrupt
        return real(plan, table, seed)

    monkeypatch.setattr(playtest_run, "play_task", stop_at_seed_3)
    code, _, _ = run_cli(capsys, "playtest", URBAN, "--variant", "a", "--variant", "b", "ap=5", "--games", "10",
                         "--jobs", "1", "--trained", "none", "--results", tmp_path, "--quiet")
    assert code == 130
    folder = tmp_path / URBAN / "playtests" / "command-line"
    assert "Stopped by the user after 3 of 10 seeds" in (folder / "report.md").read_text()
    assert len(list(csv.DictReader((folder / "games.csv").open()))) == 2 * 3


# Backends --------------------------------------------------------------------------------------------------------------
def test_results_do_not_depend_on_the_worker_count():
    rs, variants = urban_variants(["a"], ["b", "exposed_movement=false"])
    plan = Plan(rs.name, variants, (SCRIPTED,))
    assert run_games(plan, range(6), 1).records == run_games(plan, range(6), 2).records


@pytest.mark.skipif(importlib.util.find_spec("ray") is None, reason="the 'ray' extra is not installed")
def test_local_and_ray_backends_give_identical_results():
    import ray

    rs, variants = urban_variants(["a"], ["b", "exposed_movement=false", "turns=8"])
    plan = Plan(rs.name, variants, (SCRIPTED,))
    local = run_games(plan, range(10, 18), 2)
    try:
        remote = run_games(plan, range(10, 18), 2, backend="ray")
    finally:
        ray.shutdown()
    assert remote.records == local.records and len(local.records) == 16


# Tuning ------------------------------------------------------------------------------------------------------------------
class PlantedRace(toy_game.ToyRace):
    """The toy race read from a YAML scenario whose `red_head_start` gives red points before the first roll: blue's
    win rate falls as it grows, so the value nearest a target win rate is planted in a known, searchable place."""

    name = "toy-planted"
    gym_id = "rubble/ToyPlanted-v0"
    folder = None

    def scenarios(self):
        return {"standard": str(self.folder / "scenarios" / "standard.yaml")}

    def new_game(self, scenario=None, seed=0, dice=None, **options):
        f = Fields.load(self.scenarios().get(scenario or "standard", scenario))   # a name or a path
        state = toy_game.ToyRaceState(dice or SeededDice(seed), f.int("target", min=1), f.int("turn_limit", min=1))
        state.scores[1] = f.int("red_head_start", min=0)
        return state


@pytest.fixture(scope="module")
def planted(tmp_path_factory):
    folder = tmp_path_factory.mktemp("planted")
    (folder / "scenarios").mkdir()
    (folder / "scenarios" / "standard.yaml").write_text("target: 30\nturn_limit: 8\nred_head_start: 0\n")
    PlantedRace.folder = folder
    if PlantedRace.name not in registry.names():
        envs.register(PlantedRace.name, PlantedRace.gym_id, PlantedRace())
        registry.register_agent("scripted", toy_game.ToyScripted, rulesets=(PlantedRace.name,))
    return registry.get(PlantedRace.name)


def test_tuning_finds_the_planted_optimum_on_the_toy_ruleset(planted):
    pytest.importorskip("optuna")
    from training.playtest.tune import tune, win_tally

    seeds, target = range(60), 0.5
    builder = VariantBuilder(planted, None)
    exhaustive = {h: win_tally(planted, builder, {}, ("red_head_start",), (h,), SCRIPTED, seeds, 1).rate("wins")
                  for h in range(0, 13)}
    planted_best = min(exhaustive, key=lambda h: (abs(exhaustive[h] - target), h))
    assert exhaustive[0] > 0.6 and exhaustive[12] < 0.4     # the optimum lies inside the range, not at an end
    result = tune(planted, None, [("red_head_start", 0, 12)], target, SCRIPTED, seeds, trials=25)
    assert result.best.values == (planted_best,)
    assert result.best.tally.rate("wins") == exhaustive[planted_best]
    lo, hi = result.check.interval("wins")
    assert lo <= target <= hi                               # the fresh-seed interval holds the target


def test_tuning_rejects_a_field_that_is_not_a_number(planted, tmp_path, capsys):
    pytest.importorskip("optuna")
    code, _, err = run_cli(capsys, "playtest", URBAN, "--tune", "enemy.quality=1..3", "--results", tmp_path)
    assert code == 2 and "--tune enemy.quality: expected a numeric field" in err
    code, _, err = run_cli(capsys, "playtest", URBAN, "--tune", "ap=2.5..6", "--results", tmp_path)
    assert code == 2 and "whole bounds" in err



@pytest.mark.parametrize("argv, extra", [(["--backend", "ray"], "ray"), (["--tune", "ap=2..6"], "tune")])
def test_a_missing_extra_is_named_in_one_line(monkeypatch, capsys, argv, extra):
    found = importlib.util.find_spec
    monkeypatch.setattr(importlib.util, "find_spec",
                        lambda name, *a: None if name.split(".")[0] in ("ray", "optuna") else found(name, *a))
    code, _, err = run_cli(capsys, "playtest", URBAN, *argv)
    assert code == 2 and len(err.strip().splitlines()) == 1 and f'pip install -e ".[{extra}]"' in err, err


def test_without_the_catalogs_the_rules_are_those_the_code_cites(tmp_path):
    from training.playtest.catalog import cited_rules

    (tmp_path / "rules.py").write_text('game.log.add("x", "y", rule="TOY-2")  # TOY-10: and TOY-1\nOTHER-3\n')
    assert cited_rules(("TOY-",), [tmp_path]) == ["TOY-1", "TOY-2", "TOY-10"]
    assert {"RB-AI-2", "RU-AI-3", "RB-FIRE-2"} <= set(cited_rules(("RB-", "RU-")))
