"""`rubble distill ENV`: fit a priority list a person can follow to a trained enemy's decisions, and play it.

What is fitted: for each ranked decision (activation, placement, targets, advance, free attacks) an order of
criteria from a fixed vocabulary of things read off the table (agents/distilled.py VOCABULARY), ending with lower
ID; for each yes/no decision, the answer. The fit is greedy lexicographic preference learning (as in Schmitt &
Martignon 2006, "On the complexity of learning lexicographic strategies"; Yaman et al. 2008): start from ID order
alone; at each step add, to whichever rule, the criterion (feature and which end first) that makes the list agree
with the trained agent's choices most often over the recorded decisions; stop when no criterion adds agreement or
the list reaches its size (12 lines by default). Agreement is exact: the list's choice, ties broken by ID, is the
trained agent's choice.
"""
from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

import numpy as np

from agents.distilled import ANSWERS, FIRST, RANKED_RULES, VOCABULARY
from agents.scripted.rifles import ScriptedEnemy
from envs.engine.contract import decide
from envs.engine.dice import agent_seed
from envs.rifles.actions import CODEC
from training import lookup
from training.measure.simulate import MAX_DECISIONS

ENEMY = 1


@dataclass(frozen=True)
class Ranked:
    """One recorded ranked decision: each option's value of every vocabulary feature, and the trained choice."""

    rule: str
    values: dict[str, np.ndarray]      # feature -> value per option
    chosen: int                        # index of the trained agent's option
    automaton_agrees: bool = False     # the automaton's own rule answered as the trained agent did


def _options(kind: str, view, ctx) -> tuple[list, list[int]]:
    """The decision's options (as the vocabulary's key makers take them) and the action of each."""
    if kind in ("activate", "free_attacker"):
        groups = [view.group(1, slot) for slot in ctx["options"]]
        return groups, [CODEC.encode(f"e_{kind}", g.gid) for g in groups]
    if kind == "target":
        groups = [view.group(0, slot) for slot in ctx["options"]]
        return groups, [CODEC.encode("e_target", g.gid) for g in groups]
    if kind == "place":
        return list(ctx["options"]), [CODEC.encode("e_place", p) for p in ctx["options"]]
    return list(ctx["options"]), [CODEC.encode("e_advance", d + 1) for d in ctx["options"]]


def _answer_given(rule: str, action: int) -> str:
    yes = CODEC.encode("e_fast", 1) if rule == "RD-AI-1" else CODEC.encode("e_yes")
    return ANSWERS[rule][0] if action == yes else ANSWERS[rule][1]


def record(state, rule: str, action: int, ranked: list[Ranked], answers: dict[str, Counter], listed_answer: int) -> None:
    view = state.view(ENEMY)
    kind, ctx = view.decision
    if rule in ANSWERS:
        answers.setdefault(rule, Counter())[_answer_given(rule, action)] += 1
        return
    if rule not in RANKED_RULES:
        return
    options, actions = _options(kind, view, ctx)
    if len(options) < 2 or action not in actions:
        return
    values = {f: np.array([key(view, ctx)(o) for o in options], dtype=float)
              for f, (_, key) in VOCABULARY[RANKED_RULES[rule]].items()}
    ranked.append(Ranked(rule, values, actions.index(action), listed_answer == action))


def collect(ruleset: str, scenario, model: str, seeds, against: str = "scripted") -> tuple[list[Ranked], dict]:
    """The trained enemy plays `seeds` against `against`; every decision it takes is recorded."""
    rs = lookup.ruleset(ruleset)
    trained, player = lookup.agent(rs, model), lookup.agent(rs, against)
    listed = ScriptedEnemy(ENEMY, 0)           # names the rule of each decision, and gives the list's own answer
    ranked, answers = [], {}
    for seed in seeds:
        agents = [player(0, agent_seed(seed, 0)), trained(ENEMY, agent_seed(seed, ENEMY))]
        state = rs.new_game(scenario=scenario, seed=seed)
        for _ in range(MAX_DECISIONS):
            if state.is_over:
                break
            side = state.current_side
            action = decide(agents[side], state, side)
            if side == ENEMY:
                listed_answer = decide(listed, state, ENEMY)
                record(state, listed.rule_for(state.view(ENEMY)), action, ranked, answers, listed_answer)
            state.apply(action)
    return ranked, answers


def agreement(decisions: list[Ranked], criteria: list[tuple[str, str]]) -> int:
    """How many decisions the ranking (criteria, then ID) answers as the trained agent did."""
    hits = 0
    for d in decisions:
        alive = np.ones(len(next(iter(d.values.values()))), dtype=bool)
        for feature, first in criteria:
            v = d.values[feature] * (1 if first == "lowest" else -1)
            alive &= v == v[alive].min()
        hits += int(np.flatnonzero(alive)[0] == d.chosen)
    return hits


def fit(ranked: list[Ranked], answers: dict[str, Counter], size: int = 12) -> tuple[dict, dict]:
    """Greedy lexicographic fit (module docstring). Returns (rules for write_list, agreement per rule)."""
    by_rule = {}
    for d in ranked:
        by_rule.setdefault(d.rule, []).append(d)
    rules: dict = {rule: count.most_common(1)[0][0] for rule, count in answers.items()}
    chosen = {rule: [] for rule in by_rule}
    score = {rule: agreement(ds, []) for rule, ds in by_rule.items()}
    while len(rules) + sum(map(len, chosen.values())) < size:
        best = None
        for rule, ds in by_rule.items():
            used = {f for f, _ in chosen[rule]}
            for feature in VOCABULARY[RANKED_RULES[rule]]:
                if feature in used:
                    continue
                for first in FIRST:
                    gain = agreement(ds, chosen[rule] + [(feature, first)]) - score[rule]
                    if best is None or gain > best[0]:
                        best = (gain, rule, feature, first)
        if best is None or best[0] <= 0:
            break
        gain, rule, feature, first = best
        chosen[rule].append((feature, first))
        score[rule] += gain
    for rule, ds in by_rule.items():     # a rule left to the automaton, where one criterion alone agrees more
        if not chosen[rule] and len(rules) + sum(map(len, chosen.values())) < size:
            single = max(((f, first) for f in VOCABULARY[RANKED_RULES[rule]] for first in FIRST),
                         key=lambda c: agreement(ds, [c]))
            if agreement(ds, [single]) > sum(d.automaton_agrees for d in ds):
                chosen[rule] = [single]
                score[rule] = agreement(ds, [single])
    rules.update({rule: criteria for rule, criteria in chosen.items() if criteria})
    # A rule given no criterion stays the automaton's own (agents/distilled.py): its agreement is the automaton's.
    fit_report = {rule: (score[rule] if chosen[rule] else sum(d.automaton_agrees for d in ds), len(ds), not chosen[rule])
                  for rule, ds in by_rule.items()}
    fit_report.update({rule: (count.most_common(1)[0][1], sum(count.values()), False) for rule, count in answers.items()})
    return rules, fit_report


FIT_SEED = 5 * 10**6          # the decisions fitted come from games no evaluation plays (series.HELD_OUT_SEED is 10**6)


def evaluate(ruleset: str, scenario, agents: dict[str, str], seeds, against: str = "scripted") -> dict[str, list[int]]:
    """Per agent name (an enemy spec the CLI knows): 1/0 per seed, the enemy winning against `against`."""
    rs = lookup.ruleset(ruleset)
    player = lookup.agent(rs, against)
    wins = {}
    for label, spec in agents.items():
        enemy = lookup.agent(rs, spec)
        wins[label] = []
        for seed in seeds:
            players = [player(0, agent_seed(seed, 0)), enemy(ENEMY, agent_seed(seed, ENEMY))]
            state = rs.new_game(scenario=scenario, seed=seed)
            while not state.is_over:
                side = state.current_side
                state.apply(decide(players[side], state, side))
            wins[label].append(int(state.returns()[ENEMY] > 0))
    return wins


def original_lines() -> list[str]:
    """The automaton's own list, numbered the same way as a distilled one."""
    from agents.scripted.rifles import PRIORITIES

    lines = [f"{rule} ({priority.decision}): {c.words}" for rule, priority in PRIORITIES.items()
             for c in priority.criteria[:-1]]
    lines += ["RB-AI-9 (advance): one Stripe toward the nearest visible player group", "RU-AI-3: always 'yes'",
              "RU-AI-4: always 'yes'"]
    return [f"{i}. {line}" for i, line in enumerate(lines, start=1)]


def report(ruleset: str, model: str, list_path: str, distilled: list[str], fitted: dict, wins: dict[str, list[int]],
           seeds, fit_games: int, command: str) -> str:
    from training.measure.paired import paired_difference
    from training.measure.stats import wilson_interval

    n = len(seeds)
    rows = []
    for label, series in wins.items():
        lo, hi = wilson_interval(sum(series), n)
        rows.append(f"| {label} | {100 * sum(series) / n:.1f} % [{100 * lo:.1f}, {100 * hi:.1f}] |")
    paired = paired_difference(wins["the original list"], wins["the distilled list"])
    agree = [f"| {rule} | {hit:,} of {total:,} ({100 * hit / total:.0f} %){' — the automaton’s own rule, kept' if kept else ''} |"
             for rule, (hit, total, kept) in fitted.items()]
    side_by_side = ["| distilled list | original list |", "| --- | --- |"]
    original = original_lines()
    for i in range(max(len(distilled), len(original))):
        left = distilled[i] if i < len(distilled) else ""
        right = original[i] if i < len(original) else ""
        side_by_side.append(f"| {left} | {right} |")
    return "\n".join([
        f"# {ruleset}: the enemy's priority list distilled from a trained agent", "",
        f"Fitted to the decisions of `{model}` playing the enemy in {fit_games:,} games (seeds from {FIT_SEED:,}) "
        f"against the scripted player; written to `{list_path}` (edit it and play it again with "
        f"`--enemy distilled:{list_path}`). Reproduce with:", "", f"    {command}", "",
        "## The lists", "", *side_by_side, "",
        "Each ranking ends with lower ID as its final tie-break; dice (RB-AI-4 orders, RU-AI-2 floors) stay dice.", "",
        "## How often the distilled list answers as the trained agent did (fitted decisions)", "",
        "| rule | same answer |", "| --- | --- |", *agree, "",
        f"## Against the scripted player, {n:,} held-out games (seeds {seeds[0]:,}..{seeds[-1]:,}, the same for each)",
        "", "| enemy | wins, 95 % Wilson interval |", "| --- | --- |", *rows, "",
        f"Distilled minus original, paired on the same seeds: {100 * paired.diff:+.1f} points "
        f"[{100 * paired.paired[0]:.1f}, {100 * paired.paired[1]:.1f}]"
        f" ({'significant' if paired.significant else 'not significant'} at 95 %).", ""])
