"""Where a trained agent departs from a scripted side's priority list.

The trained agent plays the audited side; at each of its decisions the scripted list is asked the same question
(the same view and mask) and the two answers are compared, counted by the rule that governs the decision. What a
rule's departures are worth is measured by the audit (training/audit/ablation.py `Adoption`): the list plays, taking the
trained agent's answer wherever that rule decides, on the same seeds as the list as written.
"""
from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

from envs.engine.contract import decide
from envs.engine.dice import agent_seed
from training import lookup
from training.measure.simulate import MAX_DECISIONS

from .setup import AuditSetup, audited_factory


@dataclass(frozen=True)
class Example:
    """One departure, kept to be drawn: the game before the decision, the rule, the two answers in words."""

    seed: int
    state: object
    rule: str
    listed: str
    trained: str


@dataclass
class DepartureCount:
    decided: Counter = field(default_factory=Counter)      # rule -> decisions the trained agent took under it
    departed: Counter = field(default_factory=Counter)     # rule -> of those, answered unlike the list
    examples: list[Example] = field(default_factory=list)  # the first departure of each rule

    def shown(self, count: int = 3) -> list[Example]:
        """The examples of the `count` rules that departed most (a report shows two or three, not all)."""
        return sorted(self.examples, key=lambda e: -self.departed[e.rule])[:count]


def _players(rs, setup: AuditSetup, audited, seed: int) -> list:
    return [audited(side, agent_seed(seed, side)) if side == setup.side
            else lookup.agent(rs, setup.against)(side, agent_seed(seed, side)) for side in range(len(rs.sides))]


def count_departures(setup: AuditSetup, model: str, examples_per_rule: int = 1) -> DepartureCount:
    """The trained agent (`model`) plays the audited side over the setup's seeds; its answers against the list's."""
    rs = lookup.ruleset(setup.ruleset)
    listed_factory, trained_factory = audited_factory(rs, setup), lookup.agent(rs, model)
    count = DepartureCount()
    for seed in setup.seeds:
        agents = _players(rs, setup, trained_factory, seed)
        listed = listed_factory(setup.side, agent_seed(seed, setup.side))
        state = rs.new_game(scenario=setup.scenario, seed=seed)
        for _ in range(MAX_DECISIONS):
            if state.is_over:
                break
            side = state.current_side
            action = decide(agents[side], state, side)
            if side == setup.side:
                answer = decide(listed, state, side)
                rule = listed.rule_for(state.view(side))
                count.decided[rule] += 1
                if answer != action:
                    count.departed[rule] += 1
                    if sum(e.rule == rule for e in count.examples) < examples_per_rule:
                        count.examples.append(Example(seed, state.clone(), rule, state.action_label(answer),
                                                      state.action_label(action)))
            state.apply(action)
    return count
