"""A scripted side's priority list as data, so that an audit can switch a rule off or move a criterion down.

A solo game's enemy is a list a person runs by hand: for each decision, a rule (e.g. RB-AI-2) ranks the options
by criteria in order ("Engaged first, then nearest, then lower Stripe, then lower ID"). Here a `Priority` is one
such rule: its catalog ID, the decision it governs, and its criteria, each a plain-words name and a key maker
(built once per decision from the side's view, so that what every option shares is worked out once).

An `Ablation` changes the list the way a designer would try it at the table:

* `off`: the rule is not followed; its decision is taken at random among the legal actions (seeded);
* `drop`: one criterion is struck out (the later ones now decide);
* `lower`: one criterion swaps places with the next one;
* `strike`: a rule of a first-applicable sequence (Konflikt '47's R1..R10, Cityfight's plans, Urban War's UW-AI-7..11)
  is struck out: the next rule of the sequence that applies decides instead.

Agents that support audits (agents/scripted/*.py) keep their priorities in a dict by rule ID, and their
decisions without a ranking (a die roll, a yes/no) by rule ID too, so `off` applies to every rule they cite.
"""
from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace

import numpy as np

KeyMaker = Callable[..., Callable[[object], object]]   # (view, ctx) -> (option -> sortable); lower ranks first


@dataclass(frozen=True)
class Criterion:
    words: str
    key: KeyMaker


@dataclass(frozen=True)
class Priority:
    """One rule of the list: the option with the lowest criteria tuple wins; a lone option is taken unranked."""

    rule: str
    decision: str
    criteria: tuple[Criterion, ...]

    def choose(self, options: Sequence, view, ctx):
        """The first option, in the order given, of those with the lowest criteria tuple.

        Worked out as a person runs the list: the first criterion keeps the options it ranks best, the next one
        ranks only those, and so on until one is left; a later criterion (a target number, a range) is worked
        out only for the options still tied. Same choice as the minimum of the whole tuples."""
        tied = list(options)
        for criterion in self.criteria:
            if len(tied) == 1:
                break
            key = criterion.key(view, ctx)
            ranks = [key(option) for option in tied]
            best = min(ranks)
            tied = [option for option, rank in zip(tied, ranks) if rank == best]
        return tied[0]

    def words(self) -> str:
        return ", then ".join(c.words for c in self.criteria) or "the first option listed"


ABLATION_KINDS = ("off", "drop", "lower", "strike")


@dataclass(frozen=True)
class Ablation:
    """One change to the list: `kind` of rule `rule` (for drop/lower, at criterion `index`)."""

    kind: str
    rule: str
    index: int = 0

    def __post_init__(self):
        if self.kind not in ABLATION_KINDS:
            raise ValueError(f"ablation kind: expected one of {ABLATION_KINDS}, got {self.kind!r}")

    def label(self, priorities: dict[str, Priority]) -> str:
        if self.kind == "off":
            return f"{self.rule} off (random legal choice)"
        if self.kind == "strike":
            return f"{self.rule} struck out (the next rule that applies decides)"
        words = priorities[self.rule].criteria[self.index].words
        if self.kind == "drop":
            return f"{self.rule} without '{words}'"
        return f"{self.rule} with '{words}' moved one step down"

    def applied(self, priority: Priority) -> Priority:
        criteria = list(priority.criteria)
        if self.kind == "strike":
            return priority
        if self.kind == "drop":
            del criteria[self.index]
        elif self.kind == "lower":
            criteria[self.index], criteria[self.index + 1] = criteria[self.index + 1], criteria[self.index]
        return replace(priority, criteria=tuple(criteria))


def ablations(priorities: dict[str, Priority], rules: Sequence[str], sequence: Sequence[str] = ()) -> list[Ablation]:
    """Every ablation a list allows: each rule off; each criterion of a ranking dropped and moved down one step.
    A ranking's last criterion is its final tie-break (lower ID), which orders every option: dropping it changes
    nothing (options come in ID order) and moving a criterion below it is the same as dropping that criterion,
    so neither is listed."""
    found = [Ablation("off", rule) for rule in rules] + [Ablation("strike", rule) for rule in sequence]
    for rule, priority in priorities.items():
        count = len(priority.criteria)
        found += [Ablation("drop", rule, i) for i in range(count - 1)]
        found += [Ablation("lower", rule, i) for i in range(count - 2)]
    return found


class Ablatable:
    """Mixin for a scripted agent with `priorities` (rule -> Priority), `RULES` (every rule ID it decides by) and
    `rule_for(view)` (the rule that takes the decision now asked):
    `ablate(ablation)` changes this agent's list; a rule that is off decides at random among the legal actions,
    with a generator of its own (the agent's own dice, e.g. RB-AI-4's order roll, stay as they were); a rule of
    `SEQUENCE` (first applicable wins) may also be struck out (`struck`), the next one that applies deciding.

    An agent that works out its rule while answering calls `answered(rule, action, mask)` last: it records the
    rule for `rule_for` and swaps the answer for a random legal one when that rule is off."""

    priorities: dict[str, Priority]
    RULES: tuple[str, ...] = ()
    SEQUENCE: tuple[str, ...] = ()
    struck: frozenset = frozenset()
    last_rule: str | None = None

    def ablate(self, ablation: Ablation, seed: int | None = 0):
        if ablation.rule not in self.RULES:
            raise ValueError(f"{type(self).__name__} decides by {', '.join(self.RULES)}; no rule {ablation.rule}")
        self.off = getattr(self, "off", set())
        if ablation.kind == "off":
            self.off = self.off | {ablation.rule}
            self.off_rng = np.random.default_rng(seed)
        elif ablation.kind == "strike":
            if ablation.rule not in self.SEQUENCE:
                raise ValueError(f"{type(self).__name__}: only rules of its sequence ({', '.join(self.SEQUENCE)}) "
                                 f"can be struck out; not {ablation.rule}")
            self.struck = self.struck | {ablation.rule}
        else:
            self.priorities = {**self.priorities, ablation.rule: ablation.applied(self.priorities[ablation.rule])}
        return self

    def rule_for(self, view) -> str | None:
        """The rule that takes (or, once `act` has answered, took) the decision now asked."""
        raise NotImplementedError

    def ablation_plan(self) -> list[Ablation]:
        return ablations(self.priorities, self.RULES, self.SEQUENCE)

    def answered(self, rule: str, action: int, mask) -> int:
        """`action`, taken by `rule` (recorded for rule_for); a random legal action when that rule is off."""
        self.last_rule = rule
        if rule in getattr(self, "off", ()):
            return self.random_legal(mask)
        return action

    def describe(self, ablation: Ablation) -> str:
        return ablation.label(self.priorities)

    def rule_words(self, rule: str) -> str:
        """What the rule does, in words, for a report."""
        priority = self.priorities.get(rule)
        return f"ranks by {priority.words()}" if priority else "decides without a ranking (a die, or a yes/no)"

    def is_off(self, rule: str) -> bool:
        return rule in getattr(self, "off", ())

    def random_legal(self, mask) -> int:
        legal = np.flatnonzero(mask)
        return int(legal[self.off_rng.integers(len(legal))])
