"""Distilled priority lists (agents/distilled.py, training/audit/distill.py): the vocabulary is faithful, the YAML
round-trips, a bad file fails naming file and field, the fit finds a planted list."""
from __future__ import annotations

import numpy as np
import pytest

from agents import distilled
from agents.scripted.rifles import ScriptedEnemy
from envs import registry
from envs.engine.contract import decide
from envs.engine.dice import agent_seed
from tests.training.helpers import run_cli
from training.audit.distill import Ranked, agreement, fit

# The automaton's own list written in the distilled vocabulary (RB-AI-9 left out: the automaton keeps its own).
AUTOMATON = {
    "RB-AI-2": [("engaged", "highest"), ("range_to_nearest_player", "lowest"), ("stripe", "lowest")],
    "RB-AI-5": [("terrain_rank", "lowest")],
    "RB-AI-6": [("range", "lowest"), ("tn", "lowest")],
    "RB-AI-10": [("units", "lowest")],
    "RB-AI-11": [("range_to_mover", "lowest")],
    "RU-AI-3": "yes",
    "RU-AI-4": "yes",
}


def play(rs, enemy_factory, seed):
    state = rs.new_game(seed=seed)
    agents = [registry.agents(rs.name)["scripted"](0, agent_seed(seed, 0)), enemy_factory(1, agent_seed(seed, 1))]
    while not state.is_over:
        side = state.current_side
        state.apply(decide(agents[side], state, side))
    return state


def test_the_automaton_written_as_a_distilled_list_plays_the_automatons_games(tmp_path):
    path = tmp_path / "enemy.yaml"
    distilled.write_list(path, "rifles-urban", AUTOMATON, "the automaton, by hand")
    rs = registry.get("rifles-urban")
    factory = distilled.factory(str(path))
    for seed in range(15):
        assert play(rs, factory, seed).to_dict() == play(rs, ScriptedEnemy, seed).to_dict(), f"seed {seed}"


def test_a_distilled_list_round_trips_through_its_yaml(tmp_path):
    path = tmp_path / "enemy.yaml"
    distilled.write_list(path, "rifles-urban", AUTOMATON, "note")
    rankings, answers, data = distilled.read_list(path)
    assert answers == {"RU-AI-3": "yes", "RU-AI-4": "yes"}
    assert [c.words for c in rankings["RB-AI-6"].criteria] == ["the nearest target first",
                                                               "the target it hits most easily (lowest TN) first",
                                                               "lower ID"]
    assert data["rules"]["RB-AI-2"] == [{"feature": f, "first": first} for f, first in AUTOMATON["RB-AI-2"]]
    assert set(rankings) == {rule for rule, value in AUTOMATON.items() if not isinstance(value, str)}


@pytest.mark.parametrize("body, field", [
    ("ruleset: rifles-urban\nside: enemy\nrules: {RB-AI-2: [{feature: bravery, first: lowest}]}\n",
     "rules.RB-AI-2[0].feature"),
    ("ruleset: rifles-urban\nside: enemy\nrules: {RB-AI-2: [{feature: units, first: middle}]}\n", "rules.RB-AI-2[0].first"),
    ("ruleset: rifles-urban\nside: enemy\nrules: {RU-AI-3: {answer: maybe}}\n", "rules.RU-AI-3"),
    ("ruleset: rifles-urban\nside: enemy\nrules: {XX-1: []}\n", "rules"),
    ("ruleset: cityfight\nside: enemy\nrules: {}\n", "ruleset/side"),
    ("rules: [unclosed\n", "not a readable YAML file"),
])
def test_a_bad_distilled_list_fails_in_one_line_naming_file_and_field(tmp_path, body, field):
    path = tmp_path / "bad.yaml"
    path.write_text(body)
    with pytest.raises(distilled.DistilledListError) as caught:
        distilled.read_list(path)
    message = str(caught.value)
    assert message.startswith(f"{path}: {field}") and "\n" not in message


def test_a_bad_distilled_list_on_the_cli_is_one_line_and_exit_2(tmp_path, capsys):
    path = tmp_path / "bad.yaml"
    path.write_text("ruleset: rifles-urban\nside: enemy\nrules: {RB-AI-2: [{feature: bravery, first: lowest}]}\n")
    code, _, err = run_cli(capsys, "simulate", "rifles-urban", "--games", "1", "--enemy", f"distilled:{path}", "--quiet")
    assert code == 2 and "rules.RB-AI-2[0].feature" in err and err.count("\n") == 1


def test_the_fit_finds_a_planted_lexicographic_list():
    rng = np.random.default_rng(0)
    decisions = []
    for _ in range(300):     # planted: most units first, then lowest range; ID breaks ties
        units, rng_ = rng.integers(1, 4, size=4).astype(float), rng.integers(0, 3, size=4).astype(float)
        order = sorted(range(4), key=lambda i: (-units[i], rng_[i], i))
        decisions.append(Ranked("RB-AI-2", {"units": units, "range_to_nearest_player": rng_,
                                            "engaged": np.zeros(4), "stripe": rng.integers(1, 6, size=4).astype(float),
                                            "suppressed": np.zeros(4)}, order[0]))
    rules, fitted = fit(decisions, {}, size=12)
    assert rules["RB-AI-2"][:2] == [("units", "highest"), ("range_to_nearest_player", "lowest")]
    assert fitted["RB-AI-2"] == (300, 300, False) and agreement(decisions, rules["RB-AI-2"]) == 300


def test_a_rule_the_automaton_answers_worse_than_one_criterion_gets_that_criterion():
    decisions = [Ranked("RB-AI-9", {"stripe_after": np.array([1.0, 2.0, 3.0]), "gap_after": np.array([0.0, 0.0, 0.0]),
                                    "moves": np.array([1.0, 0.0, 1.0])}, chosen=0, automaton_agrees=False)
                 for _ in range(10)]
    rules, fitted = fit(decisions, {}, size=12)
    assert rules["RB-AI-9"] == [("stripe_after", "lowest")] and fitted["RB-AI-9"] == (10, 10, False)
