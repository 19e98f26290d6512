"""`rubble playtest`: compare two or more variants of a ruleset's rules or scenario on paired dice, with rule telemetry,
and write the report to results/<env>/playtests/<name>/ (or, with --tune, search a scenario field for a target win rate)."""
from __future__ import annotations

import argparse
import inspect
import os
import shlex
import sys
import time
from functools import partial
from pathlib import Path

from envs.engine.scenario import ScenarioError
from envs.engine.taskgame import TaskGame
from training import lookup
from training.folders import output
from training.lookup import CommandError
from training.playtest import scenario as playtest_scenario
from training.playtest.dice import PAIRINGS
from training.playtest.spec import COMMAND_LINE, Playtest, VariantBuilder, load_playtest, playtest_files, variant_from_words


def _playtest(rs, args) -> Playtest:
    """From --variant words, a named or given playtest file, or the ruleset's one committed playtest."""
    if args.variant:
        if len(args.variant) < 2 or args.playtest:
            raise CommandError("give two or more --variant NAME [KEY=VALUE ...], and no playtest file with them")
        builder = VariantBuilder(rs, args.scenario)
        variants = tuple(variant_from_words(builder, words) for words in args.variant)
        playtest = Playtest(args.name or "command-line", rs.name, variants)
    else:
        playtest = load_playtest(_playtest_path(rs, args.playtest), rs)
    return Playtest(args.name or playtest.name, rs.name, playtest.variants, args.games or playtest.games,
                    playtest.seed if args.seed is None else args.seed, playtest.source, playtest.description, playtest.agents,
                    args.pairing or playtest.pairing)


def _playtest_path(rs, given: str | None) -> Path:
    known = playtest_files(rs)
    if given is None:
        if len(known) != 1:
            raise CommandError(f"{rs.name} has {len(known)} committed playtests ({', '.join(known) or 'none'}): name one, "
                               "or give --variant twice")
        return next(iter(known.values()))
    if given in known:
        return known[given]
    if given.endswith((".yaml", ".yml")):
        return Path(given)
    raise CommandError(f"unknown playtest {given!r} for {rs.name}; known: {', '.join(known) or 'none'}, or a YAML path")


def trained_agents(rs, results: Path) -> tuple[str, ...]:
    """`--agents trained`: on every side the named agent `strongest` (results/agents.yaml, agents/named.py), else
    the strongest shipped trained actor (results/ENV/*/actor.zip of a finished run of that side whose last
    evaluation won most); a side without either fails naming it."""
    from agents import named
    from training.league.exploitability import best_model

    strongest = named.load().get(rs.name, {}).get("strongest")
    found = [str(strongest.sides[side].file) if strongest and side in strongest.sides else best_model(results, rs.name, side)
             for side in rs.sides]
    missing = [side for side, model in zip(rs.sides, found) if model is None]
    if missing:
        raise CommandError(f"--agents trained: no finished trained run of {', '.join(missing)} under {results / rs.name} "
                           "(train one with `rubble train`, or name the agents)")
    return tuple(str(model) for model in found)


def _tables(rs, args, playtest: Playtest | None = None, trained: bool = True) -> tuple[tuple[str, ...], ...]:
    """Table 1: the agents the command line names (`trained`: the strongest trained actor on every side), else the
    playtest file's, else scripted everywhere; table 2: a committed trained model on the learner side against
    scripted, when one exists (or the --trained model given)."""
    from training.league.exploitability import best_model

    from .arguments import side_agents

    named = args.agents or args.player != "scripted" or args.enemy != "scripted"
    if args.agents == "trained":
        first = trained_agents(rs, args.results)
    else:
        first = playtest.agents if playtest and playtest.agents and not named else side_agents(rs, args)
    for name in first:
        lookup.agent(rs, name)   # an unknown agent or an unfit model fails before any game
    if args.trained == "none" or not trained:
        return (first,)
    model = args.trained if args.trained != "auto" else best_model(args.results, rs.name, rs.sides[rs.default_learner_side])
    if model is None:
        return (first,)
    lookup.agent(rs, str(model))   # a missing or unfit model fails here, in one line
    second = tuple(str(model) if s == rs.default_learner_side else "scripted" for s in range(len(rs.sides)))
    return (first, second)


def _command(args, playtest: Playtest) -> str:
    words = ["rubble", "playtest", args.env]
    if playtest.source != COMMAND_LINE:
        words.append(playtest.source)
    if args.scenario:
        words += ["--scenario", args.scenario]
    for variant in args.variant or ():
        words += ["--variant", *variant]
    words += ["--games", str(playtest.games), "--seed", str(playtest.seed), "--pairing", playtest.pairing]
    if args.agents or args.player != "scripted" or args.enemy != "scripted":
        words += ["--agents", ",".join(args.agents.split(",") if args.agents else [args.player, args.enemy])]
    if args.trained != "auto":
        words += ["--trained", args.trained]
    return shlex.join(words)


def _board(rs, variant):
    """The baseline scenario's board picture and the ruleset's cell geometry (picture None where cells are not located)."""
    from training.playtest.board import board_picture

    found = board_picture(rs, playtest_scenario.new_game(rs, variant, seed=0))
    return found.picture, found.box, found.label


def announce_trained(rs, playtest: Playtest, tables, args) -> str:
    """What `--trained auto` adds to the run, and about how long it takes (one game of it timed, scaled to the run);
    printed before the games and kept in the report. '' when it adds nothing."""
    from training.measure.simulate import worker_count
    from training.playtest.telemetry import play

    if args.trained != "auto" or len(tables) < 2:
        return ""
    model, side = tables[1][rs.default_learner_side], rs.sides[rs.default_learner_side]
    factories = [lookup.agent(rs, name) for name in tables[1]]
    start = time.perf_counter()
    play(rs, playtest.variants[0], factories, playtest.seed, 1, 0, playtest.pairing)
    per_game = time.perf_counter() - start
    games = playtest.games * len(playtest.variants)
    expected = per_game * games / worker_count(args.jobs, playtest.games)
    from training.playtest.report import agent_name

    return (f"`--trained auto` adds table 2: the trained actor `{agent_name(model)}` (the best finished run of the {side}) "
            f"plays the {side} against scripted agents, {games} more games, about {expected:.{0 if expected >= 10 else 1}f} s "
            f"(one game took {per_game:.1f} s); `--trained none` leaves it out.")


def run_playtest(rs, playtest: Playtest, tables, args) -> int:
    from training.playtest.catalog import ruleset_rules
    from training.playtest.report import Context, write_report
    from training.playtest.run import Plan, run_games
    from training.playtest.summary import summarise_table

    # Never over an earlier report: beside it (NAME-2, ...) unless --force, as evaluate and report do
    folder = output.writable_folder(output.choose(args.results / rs.name / "playtests" / playtest.name, args.force,
                                                  "playtest report"))
    seeds = range(playtest.seed, playtest.seed + playtest.games)
    plan = Plan(rs.name, playtest.variants, tables, playtest.pairing)
    added = announce_trained(rs, playtest, tables, args)
    if added:
        print(added.replace("`", ""), file=sys.stderr)
    start = time.perf_counter()
    outcome = run_games(plan, seeds, args.jobs, args.backend, args.ray_address, progress=not args.quiet)
    seconds = time.perf_counter() - start
    if not outcome.records:
        print("stopped before any game finished: no report written", file=sys.stderr)
        return 130
    catalog, catalog_source = ruleset_rules(rs.rule_prefixes)
    focus = rs.default_learner_side
    summaries = [summarise_table(agents, playtest.variants, [r for r in outcome.records if r.table == t], focus, catalog)
                 for t, agents in enumerate(tables)]
    board, box, label = _board(rs, playtest.variants[0])
    ctx = Context(playtest, rs.sides, focus, seeds, args.backend, _command(args, playtest), seconds, outcome.interrupted,
                  catalog, board, box, catalog_source, added, rs.name)
    write_report(folder, ctx, summaries, label)
    _print_summary(summaries, rs.sides[focus])
    print(f"\nreport: {folder / 'report.md'}, report.html, games.csv")
    return 130 if outcome.interrupted else 0


def _print_summary(summaries, side: str) -> None:
    from training.measure.paired import format_difference
    from training.measure.series import format_share
    from training.playtest.report import agent_name
    from training.playtest.summary import report_verdicts

    m = sum(len(t.comparisons) for t in summaries)
    for number, (table, verdicts) in enumerate(zip(summaries, report_verdicts(summaries)), 1):
        print(f"table {number}: {', '.join(map(agent_name, table.agents))}")
        for v in table.variants:
            print(f"  {v.name:<20} {side} wins {format_share(v.tally)}")
        for c, verdict in zip(table.comparisons, verdicts):
            print(f"  {table.variants[c.variant].name} - {table.variants[0].name}: {format_difference(c.difference, verdict, m)}")
    if m > 1:
        print(f"  (significance by Holm's procedure over the {m} comparisons)")


def cmd_playtest(args) -> int:
    from .arguments import require_extra

    rs = lookup.ruleset(args.env)
    if args.list_options:
        return _list_options(rs, args.scenario)
    if args.backend == "ray":
        require_extra("ray", "playtest --backend ray", "ray")
    try:
        if args.tune:
            require_extra("tune", "playtest --tune", "optuna")
            from training.playtest.tune import run_tuning
            return run_tuning(rs, _tables(rs, args, trained=False)[0], args)
        playtest = _playtest(rs, args)
        return run_playtest(rs, playtest, _tables(rs, args, playtest), args)
    except ScenarioError as exc:
        raise CommandError(str(exc)) from None


def _list_options(rs, scenario: str | None) -> int:
    from training.playtest.catalog import naming_rules
    from training.playtest.options import format_settings, rule_options, scenario_fields

    path = playtest_scenario.base_path(rs, scenario or rs.default_scenario)
    if path is None:
        raise CommandError(f"unknown scenario {scenario!r}; known: {', '.join(sorted(rs.scenarios()))}")
    game = rs.new_game(scenario=scenario or rs.default_scenario, seed=0)
    source = inspect.getsource(type(game).config) if isinstance(game, TaskGame) else ""   # where option defaults live
    naming = partial(naming_rules, prefixes=rs.rule_prefixes)
    print(format_settings(rule_options(dict(game.options), path, source, naming), scenario_fields(path), Path(path).stem))
    return 0


def _tune_range(text: str) -> tuple[str, float, float]:
    field, eq, span = text.partition("=")
    low, dots, high = span.partition("..")
    try:
        values = float(low), float(high)
    except ValueError:
        values = None
    if not (eq and dots and field and values and values[0] < values[1]):
        raise argparse.ArgumentTypeError(f"expected FIELD=LOW..HIGH with LOW < HIGH, e.g. ap=2..6, got {text}")
    return field, *values


def add_playtest(sub, count, seed) -> None:
    from training.folders.rundir import RESULTS_ROOT

    p = sub.add_parser("playtest", help="compare rule or scenario variants on paired dice; a report with rule telemetry")
    p.add_argument("env")
    p.add_argument("playtest", nargs="?", help="a committed playtest (configs/<ruleset>/playtests/NAME.yaml) or a YAML path "
                                               "(default: the environment's one committed playtest)")
    p.add_argument("--variant", nargs="+", action="append", metavar="WORD",
                   help="NAME [KEY=VALUE ...]: a variant (twice or more); KEY is a rule option, scenario, a dotted "
                        "scenario field or tables.FIELD (see --list-options)")
    p.add_argument("--list-options", action="store_true", help="the rule options and scenario fields, defaults, rule IDs")
    p.add_argument("--scenario", help="the scenario the variants start from (default: the playtest's, else the env's)")
    p.add_argument("--games", type=count, help="games per variant and table (default: the playtest's)")
    p.add_argument("--seed", type=seed, help="game i uses seed SEED+i under every variant (default: the playtest's)")
    p.add_argument("--pairing", choices=PAIRINGS, help="how paired games share dice: a stream per decision (default), "
                                                     "per phase, or one per game (as `rubble simulate`)")
    p.add_argument("--player", default="scripted", help="agent for side 0 in table 1")
    p.add_argument("--enemy", default="scripted", help="agent for side 1 in table 1")
    p.add_argument("--agents", help="comma-separated agent per side for table 1 (overrides --player/--enemy); trained: "
                                   "the strongest trained actor of every side (results/ENV/*/actor.zip)")
    p.add_argument("--trained", default="auto", help="table 2: a trained model .zip on the learner side against scripted; "
                                                     "auto (default): the best committed run, if any (announced with "
                                                     "its expected time); none: no table 2")
    p.add_argument("--jobs", type=count, default=os.cpu_count() or 1, help="worker processes (default: all cores)")
    p.add_argument("--backend", choices=("local", "ray"), default="local", help="local processes, or Ray tasks")
    p.add_argument("--ray-address", help="a running Ray cluster (default: start Ray locally)")
    p.add_argument("--name", help="report folder name (default: the playtest's name)")
    p.add_argument("--force", action="store_true", help="replace an existing report (else one is written beside it)")
    p.add_argument("--tune", action="append", type=_tune_range, metavar="FIELD=LOW..HIGH",
                   help="search one or two numeric scenario fields for the win rate closest to --target (Optuna)")
    p.add_argument("--target", type=float, default=0.5, help="the win rate --tune aims at (default 0.5)")
    p.add_argument("--trials", type=count, default=20, help="values --tune tries (default 20)")
    p.add_argument("--results", type=Path, default=RESULTS_ROOT, help="writes RESULTS/ENV/playtests/NAME/")
    p.add_argument("--quiet", action="store_true", help="no progress bar")
    p.set_defaults(run=cmd_playtest)
