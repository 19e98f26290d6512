"""`rubble audit ENV`: which rules of a scripted side's priority list carry it, which have no measurable effect, which hurt.

For every ablation the list allows (agents/priority.py: a rule off, a criterion dropped, a criterion moved one
step down), the audited side plays the same seeds as the unchanged list, against the same opponent: game i of
every series uses seed SEED+i, so the dice start alike and the difference in win rate is read game by game
(paired, common random numbers). A rule "carries" the list when switching it off loses games beyond the paired
95 % interval; it has "no measurable effect (interval ±X)" when the interval holds zero (X: how large an effect
these games could have missed); it "hurts" when the list wins more without it. With many changes in one report,
which are significant is decided by Holm's procedure over all of them (training/audit/report.py).
"""
from __future__ import annotations

import multiprocessing
from collections import Counter
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from functools import partial

from tqdm import tqdm

from agents.priority import Ablation
from envs.engine.contract import decide
from envs.engine.dice import agent_seed
from training import lookup
from training.measure.paired import Difference, paired_difference
from training.measure.simulate import MAX_DECISIONS, worker_count
from training.measure.stats import wilson_interval

from .departures import count_departures
from .setup import AuditSetup, audited_factory


@dataclass(frozen=True)
class Adoption:
    """The list as written, but wherever `rule` decides it takes the answer of the trained agent `model`."""

    rule: str
    model: str

    def label(self, priorities) -> str:
        return f"{self.rule}: the trained agent's answers"


class Adopting:
    """An audited agent that hands the decisions of one rule to a trained agent."""

    needs_observation = True

    def __init__(self, listed, trained, rule: str) -> None:
        self.listed, self.trained, self.rule = listed, trained, rule

    def act(self, observation, mask, view) -> int:
        answer = self.listed.act(observation, mask, view)   # first: which rule decides may only show by answering
        if self.listed.rule_for(view) == self.rule:
            return self.trained.act(observation, mask, view)
        return answer


@dataclass(frozen=True)
class AblationResult:
    ablation: Ablation | Adoption | None          # None: the list as written
    label: str
    wins: tuple[int, ...]              # per seed: 1 if the audited side won
    change: Difference | None          # against the list as written, paired

    @property
    def win_rate(self) -> float:
        return sum(self.wins) / len(self.wins)

    def win_interval(self) -> tuple[float, float]:
        return wilson_interval(sum(self.wins), len(self.wins))

    @property
    def verdict(self) -> str:
        """This change's verdict on its own 95 % interval (a report of many: `verdict_words` with Holm's)."""
        return verdict_words(self.change)


def verdict_words(change: Difference | None, significant: bool | None = None) -> str:
    """'carries the list', 'hurts the list', or 'no measurable effect (interval ±X points)': a change whose interval
    holds zero, with the half-width of that interval, so a reader sees how large an effect could hide in it.
    `significant`: a verdict decided over many changes (Holm); default: this change's own interval."""
    if change is None:
        return "the list as written"
    if change.identical:
        return f"no measurable effect (identical in all {change.n:,} games)"
    if not (change.significant if significant is None else significant):
        alone = "; significant alone, not over the report's many changes" if change.significant else ""
        return f"no measurable effect (interval ±{100 * change.half_width:.1f} points{alone})"
    return "carries the list" if change.diff < 0 else "hurts the list"


@dataclass(frozen=True)
class Audit:
    setup: AuditSetup
    agent: str                          # the audited agent's class name
    rules: tuple[str, ...]
    priorities: dict
    rule_words: dict                    # rule -> what it does, in words
    decided: Counter                    # rule -> decisions it took in the unchanged list's games
    results: tuple[AblationResult, ...]
    departures: object = None           # training.audit.departures.DepartureCount, with a trained model

    @property
    def baseline(self) -> AblationResult:
        return self.results[0]

    @property
    def side_name(self) -> str:
        return lookup.ruleset(self.setup.ruleset).sides[self.setup.side]


def make_audited(rs, factory, plan: Ablation | Adoption | None, side: int, seed: int):
    agent = factory(side, seed)
    if isinstance(plan, Adoption):
        return Adopting(agent, lookup.agent(rs, plan.model)(side, seed), plan.rule)
    return agent if plan is None else agent.ablate(plan, seed)


class RuleCounter:
    """Passes decisions through to the audited agent, counting which of its rules took each."""

    def __init__(self, agent, counts: Counter) -> None:
        self.agent, self.counts = agent, counts
        self.needs_observation = getattr(agent, "needs_observation", True)

    def act(self, observation, mask, view) -> int:
        action = self.agent.act(observation, mask, view)
        self.counts[self.agent.rule_for(view)] += 1
        return action


def play_audited(setup: AuditSetup, ablation: Ablation | Adoption | None, seed: int, counts: Counter | None = None) -> int:
    """One game; 1 if the audited side won it. `counts` (if given) tallies the rules the audited side decided by."""
    rs = lookup.ruleset(setup.ruleset)
    audited = audited_factory(rs, setup)
    opponent = lookup.agent(rs, setup.against)
    agents = []
    for side in range(len(rs.sides)):
        if side == setup.side:
            agent = make_audited(rs, audited, ablation, side, agent_seed(seed, side))
            agents.append(agent if counts is None else RuleCounter(agent, counts))
        else:
            agents.append(opponent(side, agent_seed(seed, side)))
    state = rs.new_game(scenario=setup.scenario, seed=seed)
    for _ in range(MAX_DECISIONS):
        if state.is_over:
            return int(state.returns()[setup.side] > 0)
        side = state.current_side
        state.apply(decide(agents[side], state, side))
    raise RuntimeError(f"{rs.name} game seed {seed} passed {MAX_DECISIONS} decisions without ending")


def _play_job(job) -> int:
    setup, ablation, seed = job
    return play_audited(setup, ablation, seed)


def _series(setup: AuditSetup, plans: Sequence[Ablation | Adoption | None], jobs: int, progress: bool) -> list[tuple[int, ...]]:
    work = [(setup, plan, seed) for plan in plans for seed in setup.seeds]
    jobs = worker_count(jobs, len(work))
    bar = partial(tqdm, total=len(work), desc=f"audit {setup.ruleset}", unit="game", disable=not progress)
    if jobs <= 1:
        wins = list(bar(map(_play_job, work)))
    else:
        with ProcessPoolExecutor(jobs, mp_context=multiprocessing.get_context("fork")) as pool:
            wins = list(bar(pool.map(_play_job, work, chunksize=max(1, len(work) // (jobs * 16)))))
    n = len(setup.seeds)
    return [tuple(wins[i * n:(i + 1) * n]) for i in range(len(plans))]


SAMPLE_GAMES = 200


def run_audit(setup: AuditSetup, jobs: int = 1, progress: bool = True, model: str | None = None) -> Audit:
    """The unchanged list and every ablation, each over `setup.seeds`, paired against the unchanged list; with a
    trained `model`, also where it departs from the list and, per rule, the list taking its answers there."""
    rs = lookup.ruleset(setup.ruleset)
    agent = audited_factory(rs, setup)(setup.side, 0)
    decided: Counter = Counter()
    for seed in setup.seeds[:SAMPLE_GAMES]:      # which rules decide, and how often: a sample is plenty
        play_audited(setup, None, seed, decided)
    # A rule that never decided in the sample cannot change a game: it is listed as such, not played.
    plans = [None, *(a for a in agent.ablation_plan() if decided[a.rule])]
    departures = None
    if model is not None:
        departures = count_departures(setup, model)
        plans += [Adoption(rule, model) for rule in agent.RULES if departures.departed[rule]]
    series = _series(setup, plans, jobs, progress)
    base = series[0]
    results = [AblationResult(None, "the list as written", base, None)]
    for plan, wins in zip(plans[1:], series[1:]):
        label = agent.describe(plan) if isinstance(plan, Ablation) else plan.label(agent.priorities)
        results.append(AblationResult(plan, label, wins, paired_difference(base, wins)))
    words = {rule: agent.rule_words(rule) for rule in agent.RULES}
    return Audit(setup, type(agent).__name__, tuple(agent.RULES), agent.priorities, words, decided, tuple(results),
                 departures)
