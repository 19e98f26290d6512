"""`rubble audit`: ablations of the scripted enemy's priority list (agents/priority.py), paired statistics, reports."""
from __future__ import annotations

import pytest

from agents.priority import Ablation, ablations
from agents.scripted.rifles import PRIORITIES, ScriptedEnemy, ScriptedPlayer
from envs import registry
from envs.engine.contract import decide
from envs.engine.dice import agent_seed
from tests.training.helpers import run_cli

ENEMY = 1


def every_ablation() -> list[Ablation]:
    return ablations(PRIORITIES, ScriptedEnemy.RULES)


def test_the_list_offers_each_rule_off_and_each_criterion_but_the_final_tie_break_dropped_or_moved():
    found = {(a.kind, a.rule, a.index) for a in every_ablation()}
    assert {("off", rule, 0) for rule in ScriptedEnemy.RULES} <= found
    # RB-AI-2: Engaged first, nearest, lower Stripe, lower ID -> drop 0..2, lower 0..1; lower ID is never touched.
    assert {(k, i) for k, r, i in found if r == "RB-AI-2" and k != "off"} == {
        ("drop", 0), ("drop", 1), ("drop", 2), ("lower", 0), ("lower", 1)}
    assert ("drop", "RB-AI-5", 1) not in found and ("lower", "RB-AI-5", 0) not in found


def test_moving_a_criterion_down_swaps_it_with_the_next():
    lowered = Ablation("lower", "RB-AI-2", 0).applied(PRIORITIES["RB-AI-2"])
    assert [c.words for c in lowered.criteria] == ["nearest to a visible player group", "Engaged first", "lower Stripe",
                                                    "lower ID"]
    dropped = Ablation("drop", "RB-AI-6", 1).applied(PRIORITIES["RB-AI-6"])
    assert [c.words for c in dropped.criteria] == ["nearest", "lower ID"]


def test_an_ablation_of_a_rule_the_agent_does_not_decide_by_is_refused():
    with pytest.raises(ValueError, match="no rule CF-AI-1"):
        ScriptedEnemy(ENEMY, 0).ablate(Ablation("off", "CF-AI-1"))
    with pytest.raises(ValueError, match="ablation kind"):
        Ablation("remove", "RB-AI-2")


@pytest.mark.parametrize("ablation", every_ablation(), ids=lambda a: f"{a.kind}-{a.rule}-{a.index}")
def test_an_ablation_changes_decisions_only_where_its_rule_decides(ablation):
    """Recorded situations: the unchanged automaton plays; the changed one is asked the same questions in step.
    Wherever another rule decides, both answer alike (the property the audit's pairing rests on)."""
    rs = registry.get("rifles-urban")
    asked_by_rule = 0
    for seed in range(12):
        state = rs.new_game(seed=seed)
        player = registry.agents(rs.name)["scripted"](0, agent_seed(seed, 0))
        written = ScriptedEnemy(ENEMY, agent_seed(seed, ENEMY))
        changed = ScriptedEnemy(ENEMY, agent_seed(seed, ENEMY)).ablate(ablation, seed)
        while not state.is_over:
            if state.current_side != ENEMY:
                state.apply(decide(player, state, 0))
                continue
            choice, other = decide(written, state, ENEMY), decide(changed, state, ENEMY)
            rule = written.rule_for(state.view(ENEMY))
            if rule == ablation.rule:
                asked_by_rule += 1
            else:
                assert choice == other, f"{ablation} changed a {rule} decision (seed {seed})"
            state.apply(choice)
    if ablation.rule in ("RB-AI-2", "RB-AI-5", "RB-AI-6", "RB-AI-9"):
        assert asked_by_rule > 0, f"{ablation.rule} never decided: the check above proved nothing for it"


def test_rubble_audit_writes_its_report_and_never_replaces_one_without_force(tmp_path, capsys):
    out = tmp_path / "audit"
    code, text, _ = run_cli(capsys, "audit", "rifles-urban", "--games", "6", "--out", str(out), "--quiet")
    assert code == 0 and "RB-AI-5 off (random legal choice)" in text
    report = (out / "report.md").read_text()
    assert "rubble audit rifles-urban --side enemy --audited scripted --against scripted --games 6" in report
    assert (out / "ablations.png").stat().st_size > 0 and "data:image/png;base64," in (out / "report.html").read_text()
    before = (out / "report.md").read_bytes()
    code, _, err = run_cli(capsys, "audit", "rifles-urban", "--games", "6", "--out", str(out), "--quiet")
    assert code == 0 and "holds an earlier audit, kept" in err and (tmp_path / "audit-2" / "report.md").exists()
    assert (out / "report.md").read_bytes() == before


def test_rubble_audit_of_a_side_without_a_priority_list_fails_in_one_line(tmp_path, capsys):
    code, _, err = run_cli(capsys, "audit", "cityfight", "--side", "defender", "--audited", "random", "--games", "2",
                           "--out", str(tmp_path / "a"))
    assert code == 2 and "declares no priority list" in err and err.count("\n") == 1


def test_a_trained_agents_departures_are_counted_by_rule_and_shown_with_pictures(tmp_path, capsys):
    model = "results/rifles-urban/enemy-bc-ppo-10min/actor.zip"
    out = tmp_path / "audit"
    code, text, _ = run_cli(capsys, "audit", "rifles-urban", "--games", "3", "--out", str(out), "--quiet",
                            "--trained", model)
    assert code == 0 and "## Where the trained agent departs from the list" in text
    rows = [line for line in text.splitlines() if line.startswith("| RB-AI-2 | ")]
    decided, departed = rows[0].split(" | ")[1:3]
    assert int(decided.replace(",", "")) >= int(departed.split(" (")[0].replace(",", "")) > 0
    assert (out / "departure-1.png").stat().st_size > 0 and not (out / "departure-4.png").exists()


def test_handing_a_rule_to_an_agent_that_answers_as_the_list_changes_nothing():
    from training.audit.ablation import Adopting

    rs = registry.get("rifles-urban")
    for seed in range(5):
        games = [rs.new_game(seed=seed), rs.new_game(seed=seed)]
        player = [registry.agents(rs.name)["scripted"](0, agent_seed(seed, 0)) for _ in games]
        enemies = [ScriptedEnemy(ENEMY, 1), Adopting(ScriptedEnemy(ENEMY, 1), ScriptedEnemy(ENEMY, 1), "RB-AI-2")]
        for state, me, them in zip(games, player, enemies):
            while not state.is_over:
                side = state.current_side
                state.apply(decide(them if side == ENEMY else me, state, side))
        assert games[0].returns() == games[1].returns() and games[0].to_dict() == games[1].to_dict()


def test_a_distilled_list_is_audited_like_the_original(tmp_path, capsys):
    from agents import distilled

    path = tmp_path / "enemy.yaml"
    distilled.write_list(path, "rifles-urban", {"RB-AI-2": [("units", "lowest"), ("stripe", "highest")], "RU-AI-3": "no"},
                         "by hand")
    out = tmp_path / "audit"
    code, text, _ = run_cli(capsys, "audit", "rifles-urban", "--audited", f"distilled:{path}", "--games", "4",
                            "--out", str(out), "--quiet")
    assert code == 0 and f"distilled:{path} (DistilledEnemy)" in text
    assert "RB-AI-2 without 'the group with fewest units first'" in text and "RU-AI-3 off" in text


@pytest.mark.parametrize("kind, step", [("off", s) for s in ScriptedPlayer.STEPS] + [("lower", "fire"), ("lower", "rally")])
def test_the_scripted_players_steps_change_decisions_only_where_that_step_decided(kind, step):
    rs = registry.get("rifles-urban")
    for seed in range(8):
        state = rs.new_game(seed=seed)
        enemy = ScriptedEnemy(ENEMY, agent_seed(seed, ENEMY))
        written = ScriptedPlayer(0, agent_seed(seed, 0))
        changed = ScriptedPlayer(0, agent_seed(seed, 0)).ablate(Ablation(kind, step))
        while not state.is_over:
            if state.current_side == ENEMY:
                state.apply(decide(enemy, state, ENEMY))
                continue
            choice, other = decide(written, state, 0), decide(changed, state, 0)
            if written.rule_for(state.view(0)) != step:
                assert choice == other, f"{kind} {step} changed a decision taken by {written.rule_for(state.view(0))}"
            state.apply(choice)


def test_rubble_audit_of_the_scripted_player_strikes_out_and_moves_its_steps(tmp_path, capsys):
    code, text, _ = run_cli(capsys, "audit", "rifles-urban", "--side", "player", "--games", "4", "--out",
                            str(tmp_path / "a"), "--quiet")
    assert code == 0 and "'fire at the best target' struck out" in text
    assert "'fight when Engaged' moved one step down" in text and "- **advance** advance toward the objective" in text
