"""A distilled enemy: the Rifles automaton with its rankings and answers replaced by a list a person can follow.

The list is a YAML file (what `rubble distill` writes, and what a designer edits by hand):

    ruleset: rifles-urban
    side: enemy
    rules:
      RB-AI-2:                       # a ranking: criteria in order, each a readable feature and which end wins
        - {feature: engaged, first: highest}
        - {feature: range_to_nearest_player, first: lowest}
      RU-AI-3: {answer: "yes"}       # a yes/no decision: the answer always given

Each ranking ends with its options' own order (lower ID) as the final tie-break. A rule the file leaves out keeps
the automaton's own ranking; dice (RB-AI-4, RU-AI-2) stay dice. `--enemy distilled:PATH` plays it; `rubble audit
--audited distilled:PATH` audits it like the original.
"""
from __future__ import annotations

from pathlib import Path

import yaml

from envs.engine.scenario import ScenarioError, load_yaml
from envs.rifles.actions import CODEC

from .priority import Criterion, Priority
from .scripted.rifles import DECISION_RULES, PRIORITIES, ScriptedEnemy, best_tn


class DistilledListError(ValueError):
    """A distilled list file that cannot be read: names the file, the field and what was expected."""


def _suppressed(group) -> int:
    return sum(bool(u.suppressed) for u in group.units)


def _foe_stripe_gap(view, stripe: int) -> int:
    return min((abs(f.stripe - stripe) for f in view.foe_groups()), default=99)


# Readable features of each ranked decision's options: name -> (words, key maker (view, ctx) -> option -> number).
# Options are groups (activate, target, free_attacker), places (place) or Stripe steps -1/0/+1 (advance).
VOCABULARY = {
    "activate": {
        "engaged": ("Engaged", lambda v, c: lambda g: int(g.engaged)),
        "range_to_nearest_player": ("range to the nearest visible player group",
                                    lambda v, c: (lambda foes: lambda g: min((v.distance(g, f) for f in foes), default=99))(
                                        v.foe_groups())),
        "stripe": ("Stripe", lambda v, c: lambda g: g.stripe),
        "units": ("units in the group", lambda v, c: lambda g: len(g.units)),
        "suppressed": ("Suppressed units", lambda v, c: lambda g: _suppressed(g)),
    },
    "place": {
        "terrain_rank": ("place in the terrain priority (complex, MS, Building, Rubble, Wall, Woods, Open)",
                         lambda v, c: lambda p: v.priority_rank(c["stripe"], p)),
    },
    "target": {
        "range": ("range", lambda v, c: (lambda me: lambda t: v.distance(me, t))(v.group(1, c["group"]))),
        "tn": ("best TN", lambda v, c: (lambda me: lambda t: best_tn(v, me, t, c.get("units")))(v.group(1, c["group"]))),
        "units": ("units in the target", lambda v, c: lambda t: len(t.units)),
        "suppressed": ("Suppressed units in the target", lambda v, c: lambda t: _suppressed(t)),
    },
    "free_attacker": {
        "range_to_mover": ("range to the mover", lambda v, c: (lambda m: lambda g: v.distance(g, m))(v.group(0, c["target"]))),
        "units": ("units in the group", lambda v, c: lambda g: len(g.units)),
    },
    "advance": {
        "stripe_after": ("Stripe after the move", lambda v, c: (lambda me: lambda d: me.stripe + d)(v.group(1, c["group"]))),
        "gap_after": ("Stripes to the nearest visible player group after the move",
                      lambda v, c: (lambda me: lambda d: _foe_stripe_gap(v, me.stripe + d))(v.group(1, c["group"]))),
        "moves": ("moving at all", lambda v, c: lambda d: abs(d)),
    },
}
RANKED_RULES = {"RB-AI-2": "activate", "RB-AI-5": "place", "RB-AI-6": "target", "RB-AI-10": "target",
                "RB-AI-9": "advance", "RB-AI-11": "free_attacker"}
ANSWERS = {"RU-AI-3": ("yes", "no"), "RU-AI-4": ("yes", "no"), "RD-AI-1": ("fast attack", "fight")}
TIE_BREAK = Criterion("lower ID", lambda v, c: lambda option: 0)   # min keeps the options' own (ID) order
FIRST = ("lowest", "highest")


def criterion(decision: str, feature: str, first: str) -> Criterion:
    words, key = VOCABULARY[decision][feature]
    sign = 1 if first == "lowest" else -1
    return Criterion(f"{'fewest/lowest' if sign == 1 else 'most/highest'} {words} first",
                     lambda v, c: (lambda k: lambda option: sign * k(option))(key(v, c)))


def ranking(rule: str, criteria: list[tuple[str, str]]) -> Priority:
    decision = RANKED_RULES[rule]
    return Priority(rule, decision, (*(criterion(decision, f, first) for f, first in criteria), TIE_BREAK))


class DistilledEnemy(ScriptedEnemy):
    """The automaton, deciding by a distilled list where the list has a rule (module docstring)."""

    name = "distilled"

    def __init__(self, side: int, seed: int | None, rankings: dict[str, Priority], answers: dict[str, str]) -> None:
        super().__init__(side, seed)
        self.priorities = {**PRIORITIES, **rankings}
        self.answers = answers

    def _advance(self, view, ctx) -> int:
        if "RB-AI-9" not in self.priorities:
            return super()._advance(view, ctx)
        return CODEC.encode("e_advance", self.priorities["RB-AI-9"].choose(list(ctx["options"]), view, ctx) + 1)

    def _answer(self, rule: str, fallback) -> bool | None:
        return self.answers[rule] == ANSWERS[rule][0] if rule in self.answers else fallback

    def _move_up(self, view, ctx) -> int:
        return CODEC.encode("e_yes" if self._answer("RU-AI-3", True) else "e_no")

    def _through_complex(self, view, ctx) -> int:
        return CODEC.encode("e_yes" if self._answer("RU-AI-4", True) else "e_no")

    def _fast(self, view, ctx) -> int:
        return CODEC.encode("e_fast", int(self._answer("RD-AI-1", True)))


def _fail(path, field: str, expected: str, got) -> DistilledListError:
    return DistilledListError(f"{path}: {field}: expected {expected}, got {got!r}")


def _read_rule(path, rule: str, entry) -> tuple[str, object]:
    if rule in ANSWERS:
        if not isinstance(entry, dict) or entry.get("answer") not in ANSWERS[rule]:
            raise _fail(path, f"rules.{rule}", f"{{answer: {' or '.join(ANSWERS[rule])}}}", entry)
        return "answer", entry["answer"]
    if rule not in RANKED_RULES:
        raise _fail(path, "rules", f"rule IDs among {', '.join([*RANKED_RULES, *ANSWERS])}", rule)
    vocabulary = VOCABULARY[RANKED_RULES[rule]]
    if not isinstance(entry, list) or not entry:
        raise _fail(path, f"rules.{rule}", "a list of {feature, first}", entry)
    criteria = []
    for i, item in enumerate(entry):
        where = f"rules.{rule}[{i}]"
        if not isinstance(item, dict) or set(item) != {"feature", "first"}:
            raise _fail(path, where, "exactly the keys feature and first", item)
        if item["feature"] not in vocabulary:
            raise _fail(path, f"{where}.feature", f"one of {', '.join(vocabulary)}", item["feature"])
        if item["first"] not in FIRST:
            raise _fail(path, f"{where}.first", "lowest or highest", item["first"])
        criteria.append((item["feature"], item["first"]))
    return "ranking", criteria


def read_list(path) -> tuple[dict[str, Priority], dict[str, str], dict]:
    """(rankings, answers, the raw document) from a distilled list file; DistilledListError names what is wrong."""
    try:
        data = load_yaml(path)                  # the project's one YAML reader (aliases refused)
    except ScenarioError as exc:
        where = f"line {exc.line}: " if exc.line else ""
        raise DistilledListError(f"{path}: not a readable YAML file ({where}{str(exc).split(': ', 2)[-1]})") from None
    if not isinstance(data, dict) or not isinstance(data.get("rules"), dict):
        raise _fail(path, "rules", "a mapping of rule ID to its ranking or answer", None if not isinstance(data, dict)
                    else data.get("rules"))
    if data.get("ruleset") not in ("rifles-urban", "rifles-darkness") or data.get("side") != "enemy":
        raise _fail(path, "ruleset/side", "rifles-urban or rifles-darkness, side enemy",
                    (data.get("ruleset"), data.get("side")))
    rankings, answers = {}, {}
    for rule, entry in data["rules"].items():
        kind, value = _read_rule(path, rule, entry)
        if kind == "answer":
            answers[rule] = value
        else:
            rankings[rule] = ranking(rule, value)
    return rankings, answers, data


def write_list(path, ruleset: str, rules: dict, note: str) -> None:
    """Write a distilled list: `rules` maps a rule ID to [(feature, first), ...] or to an answer string."""
    doc = {"ruleset": ruleset, "side": "enemy", "note": note, "rules": {
        rule: ({"answer": value} if isinstance(value, str) else [{"feature": f, "first": first} for f, first in value])
        for rule, value in rules.items()}}
    Path(path).write_text(yaml.safe_dump(doc, sort_keys=False, width=120))


def factory(path: str):
    """factory(side, seed) for `distilled:PATH`; the file is read and checked now."""
    rankings, answers, _ = read_list(path)
    return lambda side, seed=0: DistilledEnemy(side, seed, rankings, answers)


def describe(rankings: dict[str, Priority], answers: dict[str, str]) -> list[str]:
    """The list as numbered lines in the game's words (rules in the automaton's order); a rule the list leaves out
    is named as kept from the automaton."""
    lines = []
    for rule in (*DECISION_RULES.values(), "RB-AI-10"):
        if rule in rankings:
            lines += [f"{rule} ({rankings[rule].decision}): {c.words}" for c in rankings[rule].criteria[:-1]]
        elif rule in answers:
            lines.append(f"{rule}: always '{answers[rule]}'")
        elif rule in RANKED_RULES:
            lines.append(f"{rule}: as the automaton")
    return [f"{i}. {line}" for i, line in enumerate(lines, start=1)]
