"""Balance tuning: `rubble playtest ENV --tune FIELD=LOW..HIGH --target 0.5` searches one or two numeric scenario
fields for the values whose win rate is closest to the target, with Optuna's TPE sampler.

Every trial plays the same seeds (paired dice across trials), so two values are compared on the same games. The
answer comes with two intervals: the Wilson interval of the best value's win rate re-measured on fresh seeds (the
search's own seeds flatter the value it picked), and the range of tried values whose interval holds the target.
"""
from __future__ import annotations

import math
import sys
import time
from dataclasses import dataclass

from tqdm import tqdm

from training.lookup import CommandError
from training.measure.stats import SideTally, tally_side

from .run import Plan, run_games, terminate_as_interrupt
from .spec import COMMAND_LINE, VariantBuilder


@dataclass(frozen=True)
class Trial:
    values: tuple           # one per tuned field
    tally: SideTally

    def distance(self, target: float) -> float:
        return abs(self.tally.rate("wins") - target)


@dataclass(frozen=True)
class Tuning:
    """The search and its answer."""

    fields: tuple[str, ...]
    target: float
    trials: tuple[Trial, ...]
    best: Trial
    check: SideTally | None   # the best values re-played on fresh seeds (None: stopped before)
    seeds: range
    check_seeds: range
    interrupted: bool = False  # stopped by Ctrl-C or SIGTERM: the trials finished are kept

    def consistent(self) -> list[Trial]:
        """The tried values whose 95 % interval holds the target."""
        return [t for t in self.trials if t.tally.interval("wins")[0] <= self.target <= t.tally.interval("wins")[1]]


def _is_integer(builder: VariantBuilder, field: str, low: float, high: float) -> bool:
    """Whether a tuned field takes whole numbers; a field that is not a number fails in one line naming it."""
    default = builder.default(field)
    if isinstance(default, bool) or not isinstance(default, (int, float)):
        raise CommandError(f"--tune {field}: expected a numeric field (see --list-options), it is {default!r}")
    if isinstance(default, int) and not (float(low).is_integer() and float(high).is_integer()):
        raise CommandError(f"--tune {field}: an integer field needs whole bounds, got {low}..{high}")
    return isinstance(default, int)


def win_tally(rs, builder, base: dict, fields, values, agents, seeds, workers) -> SideTally:
    """The learner side's tally over `seeds` with the base settings and the fields set to `values`."""
    try:
        variant = builder.build("trial", {**base, **dict(zip(fields, values))}, COMMAND_LINE, "--tune")
    except ValueError as exc:   # a value the rules refuse (ScenarioError), named by field
        raise CommandError(str(exc)) from None
    plan = Plan(rs.name, (variant,), (tuple(agents),))
    outcome = run_games(plan, seeds, workers)
    if outcome.interrupted:
        raise KeyboardInterrupt
    return tally_side(outcome.records, rs.default_learner_side)


def tune(rs, scenario, ranges, target: float, agents, seeds: range, trials: int, workers: int = 1,
         sampler_seed: int = 0, progress: bool = False, base: dict | None = None) -> Tuning:
    """Search `ranges` [(field, low, high), ...] for the learner side's win rate closest to `target`, from the scenario
    with the `base` settings (a variant's rule options and edits)."""
    import optuna

    optuna.logging.set_verbosity(optuna.logging.WARNING)
    builder = VariantBuilder(rs, scenario)
    integer = [_is_integer(builder, f, lo, hi) for f, lo, hi in ranges]
    base = dict(base or {})
    fields = tuple(f for f, _, _ in ranges)
    played: dict[tuple, Trial] = {}

    def objective(trial) -> float:
        values = tuple(trial.suggest_int(f, int(lo), int(hi)) if whole else trial.suggest_float(f, lo, hi)
                       for (f, lo, hi), whole in zip(ranges, integer))
        if values not in played:   # the same values on the same seeds give the same games: play them once
            played[values] = Trial(values, win_tally(rs, builder, base, fields, values, agents, seeds, workers))
        return played[values].distance(target)

    study = optuna.create_study(direction="minimize", sampler=optuna.samplers.TPESampler(seed=sampler_seed))
    interrupted, check = False, None
    check_seeds = range(seeds.stop, seeds.stop + len(seeds))
    with terminate_as_interrupt():
        try:
            with tqdm(total=trials, desc=f"tune {', '.join(fields)}", unit="trial", disable=not progress) as bar:
                study.optimize(objective, n_trials=trials, callbacks=[lambda s, t: bar.update(1)])
        except KeyboardInterrupt:
            interrupted = True
        if not played:
            raise KeyboardInterrupt   # nothing finished: nothing to report
        best = min(played.values(), key=lambda t: (t.distance(target), t.values))
        if not interrupted:
            try:
                check = win_tally(rs, builder, base, fields, best.values, agents, check_seeds, workers)
            except KeyboardInterrupt:
                interrupted = True
    return Tuning(fields, target, tuple(sorted(played.values(), key=lambda t: t.values)), best, check, seeds, check_seeds,
                  interrupted)


def _value(v) -> str:
    return str(v) if isinstance(v, int) else f"{v:.3g}"


def _share(tally: SideTally) -> str:
    lo, hi = tally.interval("wins")
    return f"{100 * tally.rate('wins'):.1f} % [{100 * lo:.1f}, {100 * hi:.1f}]"


def format_tuning(t: Tuning, side: str) -> str:
    """The answer, its intervals and every trial, as Markdown."""
    named = ", ".join(f"{f} = {_value(v)}" for f, v in zip(t.fields, t.best.values))
    consistent = t.consistent()
    check = (f"{_share(t.check)} re-played on fresh seeds {t.check_seeds.start}..{t.check_seeds.stop - 1}"
             if t.check is not None else "not re-played on fresh seeds (stopped before)")
    lines = [f"Stopped by the user after {len(t.trials)} values: the answer is the best of those tried.", ""] if t.interrupted else []
    if consistent:
        spans = [(min(tr.values[i] for tr in consistent), max(tr.values[i] for tr in consistent)) for i in range(len(t.fields))]
        span_text = "; ".join(f"{f} {_value(lo)}..{_value(hi)}" for f, (lo, hi) in zip(t.fields, spans))
        lines += [f"Answer: **{named}**: {side} wins {_share(t.best.tally)} on the search seeds "
                  f"{t.seeds.start}..{t.seeds.stop - 1}, {check} (target {100 * t.target:.0f} %).",
                  "",
                  f"Tried values whose 95 % interval holds the target: {span_text} ({len(consistent)} of {len(t.trials)} tried).",
                  ""]
    else:
        lines += [f"No value reaches the target: none of the {len(t.trials)} values tried has a 95 % interval holding "
                  f"{100 * t.target:.0f} %. The closest is **{named}**: {side} wins {_share(t.best.tally)} on the search "
                  f"seeds {t.seeds.start}..{t.seeds.stop - 1}, {check}. Every trial is listed below; a wider range, another "
                  "field or more games may reach it.",
                  ""]
    lines += ["| " + " | ".join(t.fields) + f" | {side} wins (95 % CI) | distance to target |",
              "|" + "---|" * (len(t.fields) + 2)]
    lines += ["| " + " | ".join(map(_value, tr.values)) + f" | {_share(tr.tally)} | {100 * tr.distance(t.target):.1f} pp |"
              for tr in t.trials]
    return "\n".join(lines)


def run_tuning(rs, agents, args) -> int:
    """`--tune`: search from the scenario (with the settings of one --variant, if given); write tuning.md in
    results/ENV/playtests/NAME/ and print the answer."""
    from .report import prepare_folder
    from .spec import variant_from_words

    if len(args.tune) > 2 or len(args.variant or ()) > 1:
        raise CommandError("--tune searches one or two fields, from the scenario and at most one --variant")
    if not 0 <= args.target <= 1:
        raise CommandError(f"--target is a win rate in 0..1, got {args.target}")
    builder = VariantBuilder(rs, args.scenario)
    base = variant_from_words(builder, args.variant[0]).settings() if args.variant else {}
    scenario = base.pop("scenario", builder.scenario)
    folder = args.results / rs.name / "playtests" / (args.name or f"tune-{'-'.join(f for f, _, _ in args.tune)}")
    try:
        prepare_folder(folder, args.force, "tuning.md")
    except FileExistsError as exc:
        raise CommandError(str(exc)) from None
    games, seed = args.games or 200, args.seed or 0
    start = time.perf_counter()
    try:
        result = tune(rs, scenario, args.tune, args.target, agents, range(seed, seed + games), args.trials, args.jobs, seed,
                      progress=not args.quiet, base=base)
    except KeyboardInterrupt:
        print("stopped before any value was tried to its end: no tuning report written", file=sys.stderr)
        return 130
    side = rs.sides[rs.default_learner_side]
    ranges = " ".join(f"--tune {f}={_value(lo)}..{_value(hi)}" for f, lo, hi in args.tune)
    variant = f" --variant {' '.join(args.variant[0])}" if args.variant else ""
    text = (f"# Tuning {', '.join(result.fields)} of {rs.name} ({scenario}) for a {side} win rate of "
            f"{100 * args.target:.0f} %\n\n{len(result.trials)} values tried by Optuna's TPE sampler (seed {seed}) in "
            f"{args.trials} trials, {games} games each on the same seeds; agents {', '.join(agents)}; "
            f"{math.ceil(time.perf_counter() - start)} s.\n\nReproduce: `rubble playtest {rs.name} --scenario {scenario}{variant} "
            f"{ranges} --target {args.target} --trials {args.trials} --games {games} --seed {seed}`\n\n"
            + format_tuning(result, side) + "\n")
    (folder / "tuning.md").write_text(text, encoding="utf-8")
    print(text)
    print(f"written: {folder / 'tuning.md'}")
    return 130 if result.interrupted else 0
