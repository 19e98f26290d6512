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


# Any ruleset's scripted side (agents/distilled.py DistilledList) -------------------------------------------------

@dataclass(frozen=True)
class Choice:
    """One recorded decision of the trained agent: every legal action's features, its choice, the list's answer."""

    rule: str
    values: dict[str, np.ndarray]
    chosen: int
    listed: int


def collect_any(ruleset: str, scenario, model: str, seeds, side: int, against: str = "scripted",
                per_rule_cap: int = 4000) -> list[Choice]:
    """The trained agent plays `side` over `seeds` against `against`; each of its decisions with a choice (two or more
    legal actions) is recorded with the rule the scripted list would have decided it by (at most `per_rule_cap` per
    rule: the first ones)."""
    from agents.distilled import action_features

    rs = lookup.ruleset(ruleset)
    trained, other, scripted = lookup.agent(rs, model), lookup.agent(rs, against), lookup.agent(rs, "scripted")
    found, counts = [], Counter()
    for seed in seeds:
        agents = [trained(s, agent_seed(seed, s)) if s == side else other(s, agent_seed(seed, s))
                  for s in range(len(rs.sides))]
        listed = scripted(side, agent_seed(seed, side))
        state = rs.new_game(scenario=scenario, seed=seed)
        for _ in range(MAX_DECISIONS):
            if state.is_over:
                break
            current = state.current_side
            action = decide(agents[current], state, current)
            if current == side:
                answer = decide(listed, state, side)
                view = state.view(side)
                rule = listed.rule_for(view)
                legal = np.flatnonzero(state.legal_action_mask())
                if len(legal) >= 2 and counts[rule] < per_rule_cap and action in legal and answer in legal:
                    counts[rule] += 1
                    kind, ctx = view.decision
                    found.append(Choice(rule, action_features(ruleset, view, ctx, legal),
                                        int(np.searchsorted(legal, action)), int(np.searchsorted(legal, answer))))
            state.apply(action)
    return found


def agreement_any(choices: list[Choice], criteria) -> int:
    from agents.distilled import follow
    return sum(follow(c.values, criteria, c.listed, len(c.values[next(iter(c.values))])) == c.chosen
               for c in choices)


MIN_GAIN = 2          # a line must win over at least this many fitted decisions, or it is not worth a person's time


def fit_any(choices: list[Choice], size: int = 12) -> tuple[dict, dict]:
    """Greedy lexicographic fit in front of the scripted list's own rules (module docstring): at each step the
    preference, for whichever rule, that makes the list answer as the trained agent did most often. Returns
    (rule -> [(feature, first)], rule -> (agreement with the lines, agreement of the list as written, decisions))."""
    by_rule: dict[str, list[Choice]] = {}
    for c in choices:
        by_rule.setdefault(c.rule, []).append(c)
    chosen = {rule: [] for rule in by_rule}
    base = {rule: agreement_any(ds, []) for rule, ds in by_rule.items()}
    score = dict(base)
    features = {rule: sorted({f for c in ds for f in c.values}) for rule, ds in by_rule.items()}
    while sum(map(len, chosen.values())) < size:
        best = None
        for rule, ds in by_rule.items():
            if score[rule] == len(ds):
                continue
            used = {f for f, _ in chosen[rule]}
            for feature in features[rule]:
                if feature in used:
                    continue
                for first in FIRST:
                    gain = agreement_any(ds, chosen[rule] + [(feature, first)]) - score[rule]
                    if best is None or gain > best[0]:
                        best = (gain, rule, feature, first)
        if best is None or best[0] < MIN_GAIN:
            break
        gain, rule, feature, first = best
        chosen[rule].append((feature, first))
        score[rule] += gain
    fitted = {rule: (score[rule], base[rule], len(ds)) for rule, ds in by_rule.items()}
    return {rule: c for rule, c in chosen.items() if c}, fitted


def held_out_any(choices: list[Choice], rules: dict) -> dict:
    """Per rule: (decisions, agreement of the list as written, agreement of the distilled list) on games not fitted."""
    by_rule: dict[str, list[Choice]] = {}
    for c in choices:
        by_rule.setdefault(c.rule, []).append(c)
    return {rule: (len(ds), agreement_any(ds, []), agreement_any(ds, rules.get(rule, []))) for rule, ds in by_rule.items()}


def evaluate_any(ruleset: str, scenario, agents: dict[str, str], seeds, side: int,
                 against: str = "scripted") -> dict[str, list[int]]:
    """Per agent spec on `side`: 1/0 per seed, that side winning against `against` on every other side."""
    rs = lookup.ruleset(ruleset)
    other = lookup.agent(rs, against)
    wins = {}
    for label, spec in agents.items():
        mine = lookup.agent(rs, spec)
        wins[label] = []
        for seed in seeds:
            players = [mine(s, agent_seed(seed, s)) if s == side else other(s, agent_seed(seed, s))
                       for s in range(len(rs.sides))]
            state = rs.new_game(scenario=scenario, seed=seed)
            for _ in range(MAX_DECISIONS):
                if state.is_over:
                    break
                current = state.current_side
                state.apply(decide(players[current], state, current))
            wins[label].append(int(state.returns()[side] > 0))
    return wins


FEW = 30            # a line fitted on fewer decisions than this is flagged on the card


def paired_words(a: list[int], b: list[int], label: str) -> str:
    """`label`: b minus a on the same seeds, in points with the paired 95 % interval, or 'identical in all N games'."""
    from training.measure.paired import paired_difference
    n = len(a)
    differ = sum(x != y for x, y in zip(a, b))
    if not differ:
        return f"{label}: identical in all {n:,} games."
    p = paired_difference(a, b)
    return (f"{label}: {100 * p.diff:+.1f} points, paired 95 % interval [{100 * p.paired[0]:.1f}, "
            f"{100 * p.paired[1]:.1f}] ({differ:,} of {n:,} games differ; "
            f"{'significant' if p.significant else 'not significant'} at 95 %).")


def card_rows(ruleset: str, side: int, rules: dict, fitted: dict) -> list[tuple[str, str, str, bool]]:
    """(rule ID, what the catalog says, paraphrased, what the distilled list says, fitted on few decisions) for every
    rule of the side's scripted list, in its order."""
    from agents.distilled import RIFLES_RULE_WORDS, feature_words
    from envs import registry

    listed = registry.agents(ruleset)["scripted"](side, 0)
    rows = []
    for rule in listed.RULES:
        catalog = RIFLES_RULE_WORDS.get(rule) if ruleset.startswith("rifles") else listed.rule_words(rule)
        criteria = rules.get(rule)
        if isinstance(criteria, str):
            says = f"always '{criteria}'"
        elif criteria and isinstance(criteria[0], tuple):
            says = "; ".join(feature_words(ruleset, f, first) for f, first in criteria) + "; then as written"
        elif criteria:
            says = "; ".join(criteria) + "; then lower ID"
        else:
            says = "as written"
        decisions = fitted.get(rule, (0, 0, 0))[-1] if rule in fitted else 0
        rows.append((rule, catalog or "", says, bool(criteria) and decisions < FEW))
    return rows


def rule_card_html(title: str, subtitle: str, rows, footer: str) -> str:
    import html as h
    body = "".join(
        f"<tr class='{'changed' if says != 'as written' else ''}'><td class='id'>{h.escape(rule)}</td>"
        f"<td>{h.escape(catalog)}</td><td>{h.escape(says)}{' <b>⚠ fitted on fewer than 30 decisions</b>' if few else ''}"
        f"</td></tr>" for rule, catalog, says, few in rows)
    return ("<!doctype html><meta charset='utf-8'><title>" + h.escape(title) + "</title><style>"
            "body{font-family:Georgia,serif;width:1000px;margin:16px;color:#222}h1{font-size:22px;margin:0 0 4px}"
            ".sub{font-size:13px;color:#555;margin-bottom:10px}table{border-collapse:collapse;width:100%;font-size:14px}"
            "td,th{border:1px solid #aaa;padding:5px 7px;vertical-align:top;text-align:left}th{background:#eee}"
            ".id{font-family:monospace;white-space:nowrap}tr.changed td{background:#fff6d8}"
            ".foot{font-size:12px;color:#555;margin-top:8px}</style>"
            f"<h1>{h.escape(title)}</h1><div class='sub'>{h.escape(subtitle)}</div>"
            "<table><tr><th>rule</th><th>what the rule says (catalog, paraphrased)</th><th>the distilled list: "
            "what to do at the table</th></tr>" + body + f"</table><div class='foot'>{h.escape(footer)}</div>")


def render_card(html_path, png_path) -> str:
    """The card as a PNG: headless Chromium when installed, else matplotlib (the table's text). Returns which."""
    import shutil
    import subprocess
    from pathlib import Path

    chromium = shutil.which("chromium") or ("/usr/bin/chromium" if Path("/usr/bin/chromium").exists() else None)
    if chromium:
        try:
            subprocess.run([chromium, "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars",
                            f"--screenshot={Path(png_path).resolve()}", "--window-size=1040,900",
                            f"file://{Path(html_path).resolve()}"], check=True, capture_output=True, timeout=120)
            if Path(png_path).exists():
                return "chromium"
        except (subprocess.SubprocessError, OSError):
            pass
    import matplotlib
    matplotlib.use("Agg")
    import re

    import matplotlib.pyplot as plt
    text = re.sub(r"<[^>]+>", " ", Path(html_path).read_text())
    fig = plt.figure(figsize=(10, 8))
    fig.text(0.02, 0.98, text[:4000], va="top", wrap=True, fontsize=8)
    fig.savefig(png_path, dpi=100)
    plt.close(fig)
    return "matplotlib"


def held_out_rifles(ranked: list[Ranked], answers: dict[str, Counter], rules: dict) -> dict:
    """The Rifles enemy's lists on games not fitted: per rule (decisions, the automaton's agreement, the distilled
    list's agreement)."""
    by_rule: dict[str, list[Ranked]] = {}
    for d in ranked:
        by_rule.setdefault(d.rule, []).append(d)
    out = {}
    for rule, ds in by_rule.items():
        automaton = sum(d.automaton_agrees for d in ds)
        out[rule] = (len(ds), automaton, agreement(ds, rules[rule]) if isinstance(rules.get(rule), list) else automaton)
    for rule, count in answers.items():
        total = sum(count.values())
        automaton = count[ANSWERS[rule][0]]           # the automaton always answers the first (yes, fast attack)
        out[rule] = (total, automaton, count[rules[rule]] if isinstance(rules.get(rule), str) else automaton)
    return out


def report_any(ruleset: str, side_name: str, model: str, list_path: str, rows, fitted: dict, held: dict,
               wins: dict[str, list[int]], seeds, fit_games: int, held_games: int, command: str) -> str:
    """The distilled list's report: the card's lines, agreement fitted and held out, the three agents' games."""
    from training.measure.stats import wilson_interval

    n = len(seeds)
    lines = [f"# {ruleset}: the {side_name}'s priority list distilled from a trained agent", "",
             f"Fitted to the decisions of `{model}` playing the {side_name} in {fit_games:,} games (seeds from "
             f"{FIT_SEED:,}) against the scripted opponent; written to `{list_path}` (play it with "
             f"`distilled:{list_path}`). The one-page rule card: `card.html`, `card.png`. Reproduce with:", "",
             f"    {command}", "", "## The list at the table", "",
             "| rule | what the rule says (catalog, paraphrased) | the distilled list |", "| --- | --- | --- |"]
    for rule, catalog, says, few in rows:
        lines.append(f"| {rule} | {catalog} | {'**' + says + '**' if says != 'as written' else says}"
                     f"{' ⚠ fitted on fewer than 30 decisions' if few else ''} |")
    lines += ["", "## How often the list answers as the trained agent did", "",
              f"Fitted: the decisions it was fitted on. Held out: {held_games:,} other games (seeds from "
              f"{HELD_OUT_FIT_SEED:,}), never used for fitting. Decisions with a single legal answer are not counted.", "",
              "| rule | fitted decisions | fitted: as written → distilled | held-out decisions | held out: as written → distilled |",
              "| --- | ---: | --- | ---: | --- |"]
    def pct(a, b):
        return f"{100 * a / b:.0f} %" if b else "–"
    for rule in sorted(set(fitted) | set(held), key=lambda r: [int(x) if x.isdigit() else x for x in r.split("-")]):
        hit, base, total = fitted.get(rule, (0, 0, 0))
        h_total, h_base, h_hit = held.get(rule, (0, 0, 0))
        warn = " ⚠ <30" if 0 < total < FEW else ""
        lines.append(f"| {rule} | {total:,}{warn} | {pct(base, total)} → {pct(hit, total)} | {h_total:,} | "
                     f"{pct(h_base, h_total)} → {pct(h_hit, h_total)} |")
    all_total = sum(v[0] for v in held.values())
    lines += ["", f"All held-out decisions: as written {pct(sum(v[1] for v in held.values()), all_total)}, "
              f"distilled {pct(sum(v[2] for v in held.values()), all_total)} of {all_total:,}.", "",
              f"## Against the scripted opponent, {n:,} held-out games (seeds {seeds[0]:,}..{seeds[-1]:,}, the same for each)",
              "", "| the side played by | wins, 95 % Wilson interval |", "| --- | --- |"]
    for label, series in wins.items():
        lo, hi = wilson_interval(sum(series), n)
        lines.append(f"| {label} | {100 * sum(series) / n:.1f} % [{100 * lo:.1f}, {100 * hi:.1f}] |")
    lines += ["", paired_words(wins["the original list"], wins["the distilled list"],
                               "Distilled minus original, paired on the same seeds"),
              "", paired_words(wins["the trained agent"], wins["the distilled list"],
                               "Distilled minus the trained agent, paired on the same seeds"), ""]
    return "\n".join(lines)


HELD_OUT_FIT_SEED = FIT_SEED + 500_000      # agreement measured on games neither fitted nor evaluated
