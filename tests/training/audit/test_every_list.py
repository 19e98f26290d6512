"""Every ruleset's scripted sides declare their priority lists (agents/priority.py): each decision names a catalog
rule; switching one off or striking it out changes only the decisions that rule takes; a generic distilled list
(agents/distilled.py DistilledList) with no lines plays the scripted side's games, and its card speaks the game's words."""
from __future__ import annotations

import re
from pathlib import Path

import numpy as np
import pytest

from agents import distilled
from agents.priority import Ablatable, Ablation
from envs import registry
from envs.engine.contract import decide
from envs.engine.dice import agent_seed
from training.audit import distill

CATALOG = {"cityfight": "cityfight", "k47": "k47", "urbanwar": "urbanwar"}
SIDES = [("cityfight", 0), ("cityfight", 1), ("k47", 0), ("k47", 1), ("urbanwar", 0), ("urbanwar", 1)]


def catalog_ids(name: str) -> set[str]:
    path = Path("/work/shared/rules") / f"{CATALOG[name]}.md"
    if not path.exists():
        pytest.skip("rule catalog not on this machine")
    return set(re.findall(r"\*\*([A-Z]{2}-[A-Z]+-\d+)\*\*", path.read_text()))


def played(name: str, seed: int, audited: int, make):
    """One game, the audited side played by `make(side, seed)`; (agent, list of (rule, action)) of its decisions."""
    rs = registry.get(name)
    scripted = registry.agents(name)["scripted"]
    agents = [make(s, agent_seed(seed, s)) if s == audited else scripted(s, agent_seed(seed, s)) for s in (0, 1)]
    state = rs.new_game(seed=seed)
    taken = []
    for _ in range(3000):
        if state.is_over:
            break
        side = state.current_side
        action = decide(agents[side], state, side)
        if side == audited:
            taken.append((agents[side].rule_for(state.view(side)), action))
        state.apply(action)
    return agents[audited], taken


@pytest.mark.parametrize("name,side", SIDES)
def test_every_decision_of_a_scripted_side_names_a_rule_of_its_list_that_the_catalog_has(name, side):
    agent, taken = played(name, 3, side, registry.agents(name)["scripted"])
    assert isinstance(agent, Ablatable)
    assert set(agent.RULES) <= catalog_ids(name)
    assert set(agent.SEQUENCE) <= set(agent.RULES)
    assert {rule for rule, _ in taken} <= set(agent.RULES)
    assert all(agent.rule_words(rule) for rule in agent.RULES)


@pytest.mark.parametrize("name,side,kind", [("k47", 1, "off"), ("k47", 1, "strike"), ("urbanwar", 1, "off"),
                                            ("urbanwar", 1, "strike"), ("cityfight", 1, "strike")])
def test_an_ablation_changes_nothing_before_its_rule_first_decides_and_a_struck_rule_never_decides(name, side, kind):
    """The ablated list plays the same game as the list as written up to the first decision its rule takes."""
    scripted = registry.agents(name)["scripted"]
    from importlib import import_module
    reactions = set(import_module(f"agents.scripted.{name}").DECISION_RULES.values())   # rules of other decisions too
    pool = [r for r in scripted(side, 0).SEQUENCE if r not in reactions] if kind == "strike" else scripted(side, 0).RULES
    # the first game from seed 5 in which a rule of the pool decides (a catch-all is not in it: Urban War's B side
    # plays seed 5 by UW-AI-11 and never reaches UW-AI-8 or UW-AI-10 there)
    for game_seed in range(5, 25):
        _, written = played(name, game_seed, side, scripted)
        counts = {}
        for rule, _ in written:
            counts[rule] = counts.get(rule, 0) + 1
        if any(r in counts for r in pool):
            break
    assert any(r in counts for r in pool), (name, side, pool)
    rule = max((r for r in pool if r in counts), key=lambda r: counts[r])
    _, ablated = played(name, game_seed, side, lambda s, seed: scripted(s, seed).ablate(Ablation(kind, rule), seed))
    if kind == "strike":            # a struck rule never decides; the activation order (ranked by rules) may change
        assert rule not in {r for r, _ in ablated}
        return
    first = next(i for i, (r, _) in enumerate(written) if r == rule)
    assert [a for _, a in ablated[:first]] == [a for _, a in written[:first]]
    if kind == "off":
        assert ablated != written or counts[rule] < 3


@pytest.mark.parametrize("name,side", [("k47", 1), ("urbanwar", 1), ("cityfight", 1)])
def test_a_distilled_list_without_lines_plays_the_scripted_sides_games(tmp_path, name, side):
    path = tmp_path / "list.yaml"
    distilled.write_overrides(path, name, registry.get(name).sides[side], {}, "empty")
    _, written = played(name, 7, side, registry.agents(name)["scripted"])
    _, listed = played(name, 7, side, distilled.factory(str(path)))
    assert [a for _, a in listed] == [a for _, a in written]


def test_a_list_line_keeps_the_rules_own_answer_when_it_survives_else_the_first_survivor():
    values = {"kind:fire": np.array([0.0, 1.0, 1.0]), "kind:pass": np.array([1.0, 0.0, 0.0])}
    assert distilled.follow(values, [], 0, 3) == 0
    assert distilled.follow(values, [("kind:fire", "highest")], 2, 3) == 2
    assert distilled.follow(values, [("kind:fire", "highest")], 0, 3) == 1


def test_the_card_speaks_the_games_words_and_flags_lines_fitted_on_few_decisions():
    rows = distill.card_rows("k47", 1, {"KC-AI-13": [("answer:order:5", "highest")], "KC-AI-8": [("target_models", "highest")]},
                             {"KC-AI-13": (10, 2, 12), "KC-AI-8": (90, 80, 200)})
    says = {rule: (words, few) for rule, _, words, few in rows}
    assert says["KC-AI-13"] == ("prefer the Down order; then as written", True)
    assert says["KC-AI-8"] == ("the target with most models first; then as written", False)
    assert says["KC-AI-3"] == ("as written", False)
    assert all("_" not in words and ":" not in words for _, _, words, _ in rows)


def test_a_bad_generic_list_fails_in_one_line(tmp_path):
    path = tmp_path / "bad.yaml"
    path.write_text("ruleset: k47\nside: B\nrules: {KC-AI-8: [{feature: bravery, first: highest}]}\n")
    with pytest.raises(distilled.DistilledListError) as caught:
        distilled.factory(str(path))
    assert str(caught.value).startswith(f"{path}: rules.KC-AI-8[0].feature") and "\n" not in str(caught.value)


DISTILLED = {"k47": "results/k47/audit/distilled-B/B.yaml", "urbanwar": "results/urbanwar/audit/distilled-team_b/team_b.yaml",
             "cityfight": "results/cityfight/audit/distilled-defender/defender.yaml"}


@pytest.mark.parametrize("name", sorted(DISTILLED))
def test_a_rule_a_distilled_list_switches_off_decides_at_random_as_the_scripted_lists_does(tmp_path, name):
    """The audit's `off` reaches a rule with a distilled line in front of it: the line no longer speaks there."""
    side = 1
    _, _, lines = distilled.read_overrides(DISTILLED[name], distilled.load_yaml(DISTILLED[name]))
    _, written = played(name, 7, side, registry.agents(name)["scripted"])
    decided = {rule for rule, _ in written}
    rule = next(r for r in lines if r in decided)
    path = tmp_path / "one-line.yaml"
    distilled.write_overrides(path, name, registry.get(name).sides[side], {rule: lines[rule]}, "one line")
    factory = distilled.factory(str(path))
    assert isinstance(factory(side, 0), Ablatable) and factory(side, 0).RULES == written_rules(name, side)
    off = Ablation("off", rule)
    _, listed_off = played(name, 7, side, lambda s, seed: factory(s, seed).ablate(off, seed))
    _, scripted_off = played(name, 7, side, lambda s, seed: registry.agents(name)["scripted"](s, seed).ablate(off, seed))
    assert listed_off == scripted_off


def written_rules(name: str, side: int) -> tuple:
    return registry.agents(name)["scripted"](side, 0).RULES


def test_rubble_audit_takes_a_distilled_list_of_any_ruleset(tmp_path, capsys):
    from tests.training.helpers import run_cli

    code, text, _ = run_cli(capsys, "audit", "urbanwar", "--audited", f"distilled:{DISTILLED['urbanwar']}", "--games", "2",
                            "--out", str(tmp_path / "audit"), "--quiet")
    assert code == 0 and "(DistilledList)" in text
    assert "UW-AI-4** prefer " in text and "then the list: " in text      # the distilled line in front of the rule
    assert "UW-AI-4 off (random legal choice)" in text
