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

import numpy as np
import yaml

from envs.engine.scenario import ScenarioError, load_yaml
from envs.rifles.actions import CODEC

from .priority import Ablatable, Criterion, Priority
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


# Each feature's two ends in the game's words, as a person reads the line (lowest first, highest first).
GAME_WORDS = {
    "activate": {"engaged": ("groups not Engaged first", "Engaged groups first"),
                 "range_to_nearest_player": ("the group nearest a visible player group first",
                                             "the group farthest from the visible player groups first"),
                 "stripe": ("the group on the lowest Stripe first", "the group on the highest Stripe first"),
                 "units": ("the group with fewest units first", "the group with most units first"),
                 "suppressed": ("the group with fewest Suppressed units first",
                                "the group with most Suppressed units first")},
    "place": {"terrain_rank": ("the best terrain first (complex, MS, Building, Rubble, Wall, Woods, then Open)",
                               "the poorest terrain first (Open before Woods, Wall, Rubble, Building, MS)")},
    "target": {"range": ("the nearest target first", "the farthest target first"),
               "tn": ("the target it hits most easily (lowest TN) first", "the target hardest to hit (highest TN) first"),
               "units": ("the target with fewest units first", "the target with most units first"),
               "suppressed": ("the target with fewest Suppressed units first",
                              "the target with most Suppressed units first")},
    "free_attacker": {"range_to_mover": ("the group nearest the mover first", "the group farthest from the mover first"),
                      "units": ("the group with fewest units first", "the group with most units first")},
    "advance": {"stripe_after": ("toward Stripe 1 rather than away", "away from Stripe 1 rather than toward it"),
                "gap_after": ("the move that ends closest to a visible player group",
                              "the move that ends farthest from the visible player groups"),
                "moves": ("stay on its Stripe when it may", "move a Stripe when it may")},
}


def criterion(decision: str, feature: str, first: str) -> Criterion:
    words, key = VOCABULARY[decision][feature]
    sign = 1 if first == "lowest" else -1
    return Criterion(GAME_WORDS[decision][feature][0 if sign == 1 else 1],
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
    data = _document(path)
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
    """factory(side, seed) for `distilled:PATH`; the file is read and checked now (a Rifles enemy's list, or any
    other ruleset's preferences in front of its scripted list: DistilledList)."""
    data = _document(path)
    if data.get("ruleset") not in ("rifles-urban", "rifles-darkness"):
        ruleset, _, rules = read_overrides(path, data)
        return lambda side, seed=0: DistilledList(ruleset, side, seed, rules)
    rankings, answers, _ = read_list(path)
    return lambda side, seed=0: DistilledEnemy(side, seed, rankings, answers)


def _document(path) -> dict:
    """The list file read with the project's one YAML reader (aliases refused), its `rules` a mapping and its
    ruleset a registered one; DistilledListError names what is wrong."""
    try:
        data = load_yaml(path)
    except ScenarioError as exc:
        where = f"line {exc.line}: " if exc.line else ""
        raise DistilledListError(f"{path}: not a readable YAML file ({where}{str(exc).split(': ', 2)[-1]})") from None
    if not isinstance(data, dict) or not isinstance(data.get("rules"), dict):
        raise _fail(path, "rules", "a mapping of rule ID to its ranking or answer", None if not isinstance(data, dict)
                    else data.get("rules"))
    from envs import registry
    if data.get("ruleset") not in registry.names():
        raise _fail(path, "ruleset", f"one of {', '.join(registry.names())}", data.get("ruleset"))
    return data


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


# Any ruleset: the scripted list as written, with a few lines in front of some of its rules ------------------------
#
# For Cityfight, Konflikt '47 and Urban War (and any ruleset whose scripted side names the rule of each decision,
# agents/priority.py Ablatable), a distilled list keeps the scripted list and puts, in front of a rule, preferences a
# person applies to the legal answers before that rule decides: each keeps the answers it ranks best ("prefer to Fire",
# "the target with the most models first"); if the rule's own answer survives, it is taken, else the first survivor
# (lowest ID). The file:
#
#     ruleset: k47
#     side: B
#     rules:
#       KC-AI-13:
#         - {feature: "answer:order:down", first: highest}
#
# A feature is `kind:FAMILY` (an answer of that kind), `answer:FAMILY:ARG` (that very answer) or one of NUMERIC.

def _k47_numeric(view, ctx, name, args):
    from envs.k47.board import centre, inches
    me = view.units[ctx["uid"]] if "uid" in ctx else None
    foes = [u for u in view.living() if me is not None and u.side != me.side]
    if name == "cell" and foes:
        cell = view.board.cell_of(args[0])
        return {"range_to_enemy": min(inches(centre(cell), view.point_of(e), view.board.cell_in) for e in foes)}
    if name == "target":
        t = view.units[args[0]]
        return {"target_models": len(t.models), "target_inside": int(t.inside), "he": int(args[1])}
    if name == "unit":
        u = view.units[args[0]]
        return {"pins": u.pins, "models": len(u.models), "inside": int(u.inside)}
    return {}


NUMERIC = {   # ruleset -> (function (view, ctx, family, args) -> {feature: value}, {feature: (lowest words, highest words)})
    "k47": (_k47_numeric, {
        "range_to_enemy": ("the cell nearest the enemy", "the cell farthest from the enemy"),
        "target_models": ("the target with fewest models", "the target with most models"),
        "target_inside": ("a target in the open", "a target inside a building"),
        "he": ("not the HE shot", "the HE shot"),
        "pins": ("the unit with fewest pins", "the unit with most pins"),
        "models": ("the unit with fewest models", "the unit with most models"),
        "inside": ("a unit in the open", "a unit inside a building"),
    }),
}
# Words for answers: ruleset -> family -> (argument -> words)
ANSWER_WORDS = {
    "k47": {"order": lambda a: f"the {('Fire', 'Advance', 'Run', 'Ambush', 'Rally', 'Down')[a[0]]} order"},
    "cityfight": {"dice": lambda a: f"{a[0] + 1} {'die' if a[0] == 0 else 'dice'}",
                  "weapon": lambda a: ("the kinetic weapons", "the special weapon")[a[0]],
                  "announce": lambda a: f"announce {a[0]}"},
    "urbanwar": {"order": lambda a: ("Snap-fire", "Overwatch")[a[0]], "initiative": lambda a: ("go first", "go second")[a[0]],
                 "action": lambda a: ("Rush", "Move+Shoot", "Charge", "Fight", "Break off")[a[0]],
                 "followup": lambda a: ("no follow-up", "follow up")[a[0]],
                 "deploy_first": lambda a: ("deploy first", "let the opponent deploy first")[a[0]],
                 "edge": lambda a: ("the north edge", "the south edge")[a[0]]},
}
KIND_WORDS = {"pass": "Pass", "out": "Out (end the side's activations)", "activate": "activating an element",
              "move": "a step", "run": "a run", "search": "a search", "overwatch": "Overwatch", "fire": "fire",
              "special": "the special weapon", "smoke": "smoke", "join": "joining the search", "react": "firing back",
              "unit": "activating a unit", "cell": "moving to a cell", "enter": "entering a building",
              "floor": "changing floor", "assault": "an assault", "ram": "ramming", "target": "a shot", "yes": "yes",
              "react_none": "no reaction", "dest": "a destination", "shoot": "a shot", "cc_target": "a close-combat target",
              "deploy": "a deployment cell", "order": "an order", "action": "an action", "followup": "a follow-up",
              "initiative": "initiative", "edge": "an edge", "deploy_first": "deploying first", "dice": "dice",
              "weapon": "a weapon", "announce": "an announcement"}
SMALL_FAMILY = 16      # families up to this size get one feature per answer (when the ruleset names them)


def _codec_module(ruleset: str):
    from importlib import import_module
    return import_module(f"envs.{ruleset}.actions").CODEC


def action_features(ruleset: str, view, ctx, actions) -> dict[str, np.ndarray]:
    """Each legal action's value of every feature a list may rank by (module section above); 0 where it does not
    apply (an answer of another kind)."""
    codec = _codec_module(ruleset)
    numeric = NUMERIC.get(ruleset, (None, {}))[0]
    named = ANSWER_WORDS.get(ruleset, {})
    rows = []
    for a in actions:
        name, args = codec.decode(int(a))
        row = {f"kind:{name}": 1.0}
        if name in named:
            row[f"answer:{name}:{':'.join(map(str, args))}"] = 1.0
        if numeric is not None:
            row.update({k: float(v) for k, v in numeric(view, ctx, name, args).items()})
        rows.append(row)
    keys = sorted({k for row in rows for k in row})
    return {k: np.array([row.get(k, 0.0) for row in rows]) for k in keys}


def feature_words(ruleset: str, feature: str, first: str) -> str:
    """A preference in the game's words: 'prefer the Down order', 'avoid Pass', 'the target with most models'."""
    high = first == "highest"
    if feature.startswith("kind:"):
        words = KIND_WORDS.get(feature[5:], feature[5:].replace("_", " "))
        return f"prefer {words}" if high else f"avoid {words} when anything else is legal"
    if feature.startswith("answer:"):
        _, family, args = feature.split(":", 2)
        words = ANSWER_WORDS[ruleset][family](tuple(int(x) for x in args.split(":")))
        return f"prefer {words}" if high else f"avoid {words} when anything else is legal"
    low_words, high_words = NUMERIC[ruleset][1][feature]
    return f"{high_words if high else low_words} first"


class DistilledList(Ablatable):
    """The scripted list of a side with a distilled list's preferences in front of some of its rules.

    Audited like the list it stands in front of (`rubble audit --audited distilled:PATH`): the ablations are the
    scripted list's own, and a rule switched off decides at random whether or not preferences stand in front of it."""

    name = "distilled"
    needs_observation = False

    def __init__(self, ruleset: str, side: int, seed, rules: dict[str, list[tuple[str, str]]]) -> None:
        from envs import registry
        self.ruleset, self.rules = ruleset, rules
        self.listed = registry.agents(ruleset)["scripted"](side, seed)

    # The audit reads and changes the list underneath (agents/priority.py Ablatable)
    @property
    def priorities(self) -> dict[str, Priority]:
        return self.listed.priorities

    @property
    def RULES(self) -> tuple[str, ...]:           # noqa: N802 (Ablatable's name)
        return self.listed.RULES

    @property
    def SEQUENCE(self) -> tuple[str, ...]:        # noqa: N802
        return self.listed.SEQUENCE

    def ablate(self, ablation, seed: int | None = 0):
        self.listed.ablate(ablation, seed)
        return self

    def describe(self, ablation) -> str:
        return self.listed.describe(ablation)

    def rule_words(self, rule: str) -> str:
        words = self.listed.rule_words(rule)
        criteria = self.rules.get(rule)
        if not criteria:
            return words
        return "; ".join(feature_words(self.ruleset, f, first) for f, first in criteria) + f"; then the list: {words}"

    def act(self, observation, mask, view) -> int:
        answer = self.listed.act(observation, mask, view)
        rule = self.listed.rule_for(view)
        criteria = self.rules.get(rule)
        if not criteria or self.listed.is_off(rule):
            return answer
        legal = np.flatnonzero(mask)
        if len(legal) < 2:
            return answer
        kind, ctx = view.decision
        values = action_features(self.ruleset, view, ctx, legal)
        return int(legal[follow(values, criteria, int(np.searchsorted(legal, answer)), len(legal))])

    def rule_for(self, view):
        return self.listed.rule_for(view)


def follow(values: dict[str, np.ndarray], criteria, listed: int, count: int) -> int:
    """The index a list's preferences pick: each keeps the options it ranks best; the rule's own answer (`listed`)
    if it survives, else the first survivor."""
    alive = np.ones(count, dtype=bool)
    for feature, first in criteria:
        v = values.get(feature)
        if v is None:
            continue
        v = v if first == "lowest" else -v
        alive &= v == v[alive].min()
    return listed if 0 <= listed < count and alive[listed] else int(np.flatnonzero(alive)[0])


def read_overrides(path, data) -> tuple[str, str, dict]:
    rules = {}
    for rule, entry in data["rules"].items():
        if not isinstance(entry, list) or not entry:
            raise _fail(path, f"rules.{rule}", "a list of {feature, first}", entry)
        criteria = []
        for i, item in enumerate(entry):
            where = f"rules.{rule}[{i}]"
            if not isinstance(item, dict) or set(item) != {"feature", "first"} or item["first"] not in FIRST:
                raise _fail(path, where, "exactly the keys feature and first (lowest or highest)", item)
            feature = item["feature"]
            known = feature.startswith(("kind:", "answer:")) or feature in NUMERIC.get(data["ruleset"], (None, {}))[1]
            if not isinstance(feature, str) or not known:
                raise _fail(path, f"{where}.feature", "kind:FAMILY, answer:FAMILY:ARG or a named feature", feature)
            criteria.append((feature, item["first"]))
        rules[str(rule)] = criteria
    return data["ruleset"], data.get("side"), rules


def write_overrides(path, ruleset: str, side: str, rules: dict, note: str) -> None:
    doc = {"ruleset": ruleset, "side": side, "note": note,
           "rules": {rule: [{"feature": f, "first": first} for f, first in criteria] for rule, criteria in rules.items()}}
    Path(path).write_text(yaml.safe_dump(doc, sort_keys=False, width=120))


# The Rifles enemy's rules, paraphrased from the catalog (rules/rifles.md §13), for a rule card
RIFLES_RULE_WORDS = {
    "RB-AI-2": "activation order: nearest a visible player group, Engaged first, lower Stripe, lower ID",
    "RB-AI-4": "order: d6 plus posture on the order table",
    "RB-AI-5": "placement: first free feature in the order complex, MS, Building, Rubble, Wall, Woods; else Open",
    "RU-AI-2": "entering an MS: on a d6 of 4+ the group goes to the First Floor",
    "RB-AI-6": "target: nearest visible player group in range, then lowest TN, then lower ID",
    "RB-AI-9": "@Advance: one Stripe toward the nearest visible player group (none: toward Stripe 1)",
    "RD-AI-1": "Darkness: a group next to a player group attacks it; Fast groups make Fast attacks",
    "RU-AI-3": "on an MS Ground Floor with @Cover or @Attack, first move up, free",
    "RU-AI-4": "@Advance into a Stripe with a free complex building ends inside it",
    "RB-AI-11": "opportunity fire: the nearest enemy group with the mover in range",
    "RB-AI-10": "close combat: the eligible player group with fewest units, then lower ID",
}
