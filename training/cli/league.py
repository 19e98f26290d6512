"""The verbs of leagues and best responses: `rubble league`, `league-average`, `exploit`, `exploit-summary`."""
from __future__ import annotations

import sys
from pathlib import Path

from training import lookup
from training.folders import output
from training.lookup import CommandError

from . import arguments as arg
from .arguments import refuse_settings_on_resume, require_extra, shown_path


def cmd_league(args) -> int:
    require_extra("train", "league", "torch", "stable_baselines3", "sb3_contrib", "tensorboard")
    from agents.trained import ModelFileError
    from training.folders.rundir import RunInUseError
    from training.league.run import run_league

    refuse_settings_on_resume(args, ("seed", "config", "scenario", "run_name"), "league", "--minutes or --rounds")
    ldir = _resume_league(args) if args.resume else _new_league(args)
    print(f"league folder: {shown_path(ldir.path)}", flush=True)
    try:
        run, status, _ = run_league(ldir, progress=not args.quiet, budget=(args.minutes, args.rounds))
    except (RunInUseError, ModelFileError) as exc:
        raise CommandError(str(exc)) from None
    except KeyboardInterrupt:  # Ctrl-C after the league was saved (during the final evaluation)
        print(f"interrupted; the league is saved in {shown_path(ldir.path)}", file=sys.stderr)
        return 130
    print(ldir.report.read_text(encoding="utf-8").split("## Learning curves")[0].strip())
    if status == "interrupted":
        return 130
    print(f"\nreport: {shown_path(ldir.report)}")
    return 0


def _new_league(args):
    from envs.engine.scenario import ScenarioError
    from training.league.run import LeagueRequest, new_league
    from training.learn.config import default_config_path

    rs = lookup.ruleset(args.env)
    request = LeagueRequest(env=rs.name, scenario=lookup.scenario(rs, args.scenario), seed=args.seed or 0,
                            minutes=args.minutes, rounds=args.rounds,
                            config_path=args.config or default_config_path(rs.name), run=args.run_name,
                            results=args.results)
    try:
        return new_league(request)
    except (ScenarioError, FileExistsError, ValueError) as exc:
        raise CommandError(str(exc)) from None


def _resume_league(args):
    from training.league.run import find_league

    rs = lookup.ruleset(args.env)
    try:
        return find_league(args.results, rs.name, args.resume)
    except FileNotFoundError as exc:
        raise CommandError(str(exc)) from None


def cmd_league_average(args) -> int:
    require_extra("train", "league-average", "torch", "stable_baselines3", "sb3_contrib", "tensorboard")
    from training.league.average import write_average
    from training.league.run import find_league

    rs = lookup.ruleset(args.env)
    try:
        ldir = find_league(args.results, rs.name, args.league)
    except FileNotFoundError as exc:
        raise CommandError(str(exc)) from None
    side = rs.sides[lookup.side(rs, args.side)]
    print(f"wrote {shown_path(write_average(ldir, side, args.from_round))}")
    return 0


def cmd_exploit(args) -> int:
    require_extra("train", "exploit", "torch", "stable_baselines3", "sb3_contrib", "tensorboard")
    from envs.engine.scenario import ScenarioError
    from training.league.exploit import ExploitRequest, append_row, check_table, measure, row, summary, table_path
    from training.learn.config import default_config_path

    rs = lookup.ruleset(args.env)
    side = rs.sides[lookup.side(rs, args.side)]
    lookup.agent(rs, args.agent, (rs.sides.index(side),))   # unknown, missing or unfit: one line, nothing made
    config = Path(args.config) if args.config else default_config_path(rs.name)
    request = ExploitRequest(env=rs.name, agent=args.agent, side=side, seed=args.seed, games=args.games,
                             minutes=args.minutes, timesteps=args.timesteps, config_path=config,
                             scenario=lookup.scenario(rs, args.scenario), results=args.results,
                             start_from=args.start_from)
    table = table_path(args.results, rs.name)
    output.writable_folder(table.parent)
    check_table(table)
    print(f"config: {shown_path(config)} (the same config, seed and budget for every agent measured)", flush=True)
    try:
        found = measure(request, progress=not args.quiet)
    except (ScenarioError, FileExistsError, ValueError) as exc:
        raise CommandError(str(exc)) from None
    if found.best_response is None:
        print(f"interrupted: no row written; the best response's run is {shown_path(found.rundir.path)}",
              file=sys.stderr)
        return 130
    append_row(table, rs.name, row(found), args.games)
    print("\n".join(summary(found)))
    print(f"row added to {shown_path(table)}")
    return 0


def cmd_exploit_summary(args) -> int:
    from training.league.exploit import table_path
    from training.league.exploit_summary import read_table, summary_table

    rs = lookup.ruleset(args.env)
    table = table_path(args.results, rs.name)
    print(f"{shown_path(table)}, gathered per frozen agent, config and budget:\n")
    print(summary_table(read_table(table)))
    return 0


def add_league(sub) -> None:
    from training.folders.rundir import RESULTS_ROOT

    p = sub.add_parser("league", help="both sides learn together against a pool of their past selves (PFSP)")
    p.add_argument("env")
    budget = p.add_mutually_exclusive_group()
    budget.add_argument("--minutes", type=arg.minutes, help="wall-clock budget over every session (default: the "
                                                            "config's `minutes`)")
    budget.add_argument("--rounds", type=arg.every, help="budget in rounds (each side learns league.round_steps "
                                                         "timesteps per round)")
    p.add_argument("--seed", type=arg.seed, help="seeds the models, the games and the opponent draws (default 0)")
    p.add_argument("--config", help="training config with an optional `league:` section (default: "
                                    "configs/training/ENV.yaml, else default.yaml)")
    p.add_argument("--scenario")
    p.add_argument("--run", dest="run_name", help="name of the league folder (default: league-seedN, numbered if taken)")
    p.add_argument("--resume", metavar="RUN", help="continue a league (name under results/ENV/league, or its folder); "
                                                   "--minutes/--rounds may set a new budget")
    p.add_argument("--results", type=Path, default=RESULTS_ROOT, help="leagues go to RESULTS/ENV/league/ "
                                                                      "(default: results/)")
    p.add_argument("--quiet", action="store_true", help="no progress bar")
    p.set_defaults(run=cmd_league)


def add_league_average(sub) -> None:
    from training.folders.rundir import RESULTS_ROOT

    p = sub.add_parser("league-average", help="a league side's average strategy (its main learner's snapshots, "
                                              "equally weighted) as a .mixture.json agent beside the league")
    p.add_argument("env")
    p.add_argument("league", help="the league (name under results/ENV/league, or its folder)")
    p.add_argument("--side", required=True, help="by name or number")
    p.add_argument("--from-round", type=arg.every, help="the first round averaged (default: the second half)")
    p.add_argument("--results", type=Path, default=RESULTS_ROOT, help="where leagues are (default: results/)")
    p.set_defaults(run=cmd_league_average)


def add_exploit(sub) -> None:
    from training.folders.rundir import RESULTS_ROOT

    p = sub.add_parser("exploit", help="train a best response against a frozen agent; its win rate, in "
                                       "RESULTS/ENV/league/exploitability.md")
    p.add_argument("env")
    p.add_argument("--agent", required=True, help="the frozen agent: scripted, random, an actor.zip "
                                                      "or a .mixture.json")
    p.add_argument("--side", required=True, help="the frozen agent's side, by name or number")
    budget = p.add_mutually_exclusive_group()
    budget.add_argument("--minutes", type=arg.minutes, help="the best response's wall-clock budget (default: the "
                                                            "config's `minutes`)")
    budget.add_argument("--timesteps", type=arg.timesteps, help="budget in the best response's decisions")
    p.add_argument("--seed", type=arg.seed, default=0, help="seeds the best response's training (default 0)")
    p.add_argument("--games", type=arg.games, default=500, help="held-out games of the best response against the agent")
    p.add_argument("--start-from", metavar="ACTOR", help="an actor.zip of the best response's side to start from "
                                                         "instead of behaviour cloning (the row's budget names it)")
    p.add_argument("--config", help="training config (default: configs/training/ENV.yaml, else default.yaml)")
    p.add_argument("--scenario")
    p.add_argument("--results", type=Path, default=RESULTS_ROOT, help="writes RESULTS/ENV/league/ (default: results/)")
    p.add_argument("--quiet", action="store_true", help="no progress bar")
    p.set_defaults(run=cmd_exploit)

    p = sub.add_parser("exploit-summary", help="the exploitability table's rows gathered per frozen agent: every "
                                               "seed, pooled and best seed")
    p.add_argument("env")
    p.add_argument("--results", type=Path, default=RESULTS_ROOT, help="reads RESULTS/ENV/league/ (default: results/)")
    p.set_defaults(run=cmd_exploit_summary)
