"""The `rubble` command: list the environments, play one, simulate series of games, benchmark the adapters,
train, evaluate, report and playtest."""
from __future__ import annotations

import argparse
import sys
from pathlib import Path

import envs  # noqa: F401 - importing the package registers every ruleset
from envs import registry
from envs.engine.scenario import ScenarioError
from envs.paths import PROJECT_ROOT

from . import arguments as arg
from . import lookup, output, playtest_cli, replay_cli
from .lookup import CommandError


def _shown_path(path) -> str:
    """A scenario path relative to the repo root when it lies inside it."""
    text = str(path)
    root = str(PROJECT_ROOT) + "/"
    return text[len(root):] if text.startswith(root) else text


def describe(rs) -> tuple[str, int]:
    """The `rubble list` entry of one ruleset, and how many of its scenario files are broken."""
    lines = [
        f"{rs.name}  (gym id {rs.gym_id})",
        f"  sides: {', '.join(rs.sides)}",
        f"  actions: {rs.num_actions}  observation size: {rs.observation_size}",
        "  scenarios:",
    ]
    try:
        scenarios = rs.scenarios()
    except ScenarioError as exc:       # e.g. a RUBBLE_CONFIGS tree without this ruleset's folder
        scenarios, lines[-1] = {}, f"  scenarios: none: {exc}"
    if not scenarios and lines[-1] == "  scenarios:":
        lines[-1] = "  scenarios: none (no YAML file in its scenarios folder)"
    broken = 0
    for name, path in sorted(scenarios.items()):
        default = "  (default)" if name == rs.default_scenario else ""
        problem = lookup.scenario_problem(rs, name)
        broken += problem is not None
        lines.append(f"    {name}: {_shown_path(path)}{default}" + (f"  BROKEN: {problem}" if problem else ""))
    lines.append(f"  agents: {', '.join(lookup.agent_factories(rs))}")
    return "\n".join(lines), broken + (not scenarios)


def cmd_list(args) -> int:
    rulesets = registry.all_rulesets()
    if not rulesets:
        print("no environments are registered")
        return 0
    entries = [describe(rs) for rs in rulesets]
    print("\n\n".join(text for text, _ in entries))
    broken = sum(n for _, n in entries)
    if broken:
        raise CommandError(f"{broken} scenario file(s) or folder(s) broken or missing (marked above); "
                           "the other scenarios play")
    return 0


def cmd_play(args) -> int:
    from .play import play

    rs = lookup.ruleset(args.env)
    scenario = lookup.scenario(rs, args.scenario)
    side = lookup.side(rs, args.side) if args.side is not None else rs.default_learner_side
    agents = ["person" if s == side else args.enemy for s in range(len(rs.sides))]
    enemy = lookup.agent(rs, args.enemy, tuple(s for s in range(len(rs.sides)) if s != side))
    recorder = replay_cli.recorder_from(args, agents, args.seed, numbered=True)
    return play(rs, scenario, side, enemy, args.seed, sys.stdin, sys.stdout, recorder)


def side_agents(rs, args) -> tuple[str, ...]:
    """The agent name of each side: --agents a,b,... or --player / --enemy for sides 0 and 1."""
    if args.agents:
        names = tuple(a.strip() for a in args.agents.split(","))
    elif len(rs.sides) <= 2:
        names = (args.player, args.enemy)[: len(rs.sides)]  # a solo ruleset has only side 0 to play
    else:
        raise CommandError(f"{rs.name} has {len(rs.sides)} sides ({', '.join(rs.sides)}): name their agents with --agents")
    if len(names) != len(rs.sides):
        raise CommandError(f"--agents names {len(names)} agents; {rs.name} has sides {', '.join(rs.sides)}")
    for side, name in enumerate(names):
        lookup.agent(rs, name, (side,))  # an unknown name or a model of another side fails here, before any game
    return names


def cmd_simulate(args) -> int:
    from .simulate import Matchup, simulate

    rs = lookup.ruleset(args.env)
    matchup = Matchup(rs.name, lookup.scenario(rs, args.scenario), side_agents(rs, args))
    recorder = replay_cli.recorder_from(args, matchup.agents, args.seed)
    if args.csv is not None and args.csv.exists():
        raise CommandError(f"--csv {args.csv}: the file exists; name a new one (an earlier series is never overwritten)")
    print(replay_cli.recording(lambda: simulate(matchup, args.games, args.seed, args.jobs, not args.quiet, recorder,
                                                args.csv)))
    return 0


def require_extra(extra: str, verb: str, *modules: str) -> None:
    """CommandError in one line, naming the extra to install, unless every module imports."""
    import importlib.util
    missing = [m for m in modules if importlib.util.find_spec(m) is None]
    if missing:
        raise CommandError(f"{verb} needs the {extra!r} extra ({', '.join(missing)} missing): "
                           f"pip install -e \".[{extra}]\"")


def cmd_bench(args) -> int:
    import json

    from . import bench

    if args.peers:
        require_extra("bench", "bench --peers", "pygame")
    names = [lookup.ruleset(n).name for n in args.env] or registry.names()
    if not names:
        raise CommandError("no environments are registered to bench")
    apis = args.api or list(bench.APIS)
    if args.profile:
        print("\n\n".join(bench.profile(name, api, args.seconds, args.seed) for name in names for api in apis))
        return 0
    rows = bench.run_suite(names, apis, args.seconds, args.seed, args.reps, args.peers,
                           progress=None if args.quiet else lambda line: print(line, file=sys.stderr, flush=True))
    if args.json:
        print(json.dumps({"peer": bench.PEER if args.peers else None, "clock": "CPU time of the bench process",
                          "seconds": args.seconds, "repetitions": args.reps, "seed": args.seed,
                          "rows": [row.as_dict() for row in rows]}, indent=1))
    else:
        print(bench.format_rows(rows, args.reps))
    return 0


def cmd_train(args) -> int:
    require_extra("train", "train", "torch", "stable_baselines3", "sb3_contrib", "tensorboard")
    from agents.trained import ModelFileError

    from .rundir import RunInUseError
    from .train import run_session

    _refuse_settings_on_resume(args, ("side", "opponent", "seed", "config", "envs", "scenario", "run_name"),
                               "run", "--minutes or --timesteps")
    rundir = _resume_dir(args) if args.resume else _new_run(args)
    print(f"run folder: {_shown_path(rundir.path)}", flush=True)
    try:
        outcome = run_session(rundir, progress=not args.quiet, budget=(args.timesteps, args.minutes))
    except (RunInUseError, ModelFileError) as exc:
        raise CommandError(str(exc)) from None
    except KeyboardInterrupt:  # Ctrl-C after the model was saved (during the final evaluation)
        print(f"interrupted; the model is saved in {_shown_path(rundir.model)}", file=sys.stderr)
        return 130
    print(rundir.report.read_text(encoding="utf-8").split("## Learning curve")[0].strip())
    if outcome.status == "interrupted":
        return 130  # the shell's code for Ctrl-C: scripts can tell a stopped run from a finished one
    print(f"\nreport: {_shown_path(rundir.report)}")
    return 0


def _new_run(args):
    from envs.engine.scenario import ScenarioError

    from .config import default_config_path
    from .train import TrainRequest, new_run

    rs = lookup.ruleset(args.env)
    side = rs.sides[lookup.side(rs, args.side) if args.side is not None else rs.default_learner_side]
    opponent = args.opponent or "scripted"
    # an unknown opponent, a missing .zip or one trained for another side fails before anything is made
    lookup.agent(rs, opponent, tuple(s for s in range(len(rs.sides)) if rs.sides[s] != side))
    request = TrainRequest(env=rs.name, side=side, opponent=opponent, scenario=lookup.scenario(rs, args.scenario),
                           seed=args.seed or 0, timesteps=args.timesteps, minutes=args.minutes,
                           config_path=args.config or default_config_path(rs.name), envs=args.envs, run=args.run_name,
                           results=args.results)
    try:
        return new_run(request)
    except (ScenarioError, FileExistsError, ValueError) as exc:
        raise CommandError(str(exc)) from None


def _refuse_settings_on_resume(args, flags, what: str, changeable: str) -> None:
    """A resume keeps what it resumes as it was made: a setting given beside --resume would be silently ignored."""
    fixed = [flag for flag in flags if getattr(args, flag) is not None]
    if args.resume and fixed:
        names = ", ".join("--" + ("run" if f == "run_name" else f) for f in fixed)
        raise CommandError(f"--resume keeps the {what}'s settings ({names} given); only {changeable} may change")


def _resume_dir(args):
    from .train import resume_request

    rs = lookup.ruleset(args.env)
    try:
        rundir = resume_request(args.results, rs.name, args.resume)
    except FileNotFoundError as exc:
        raise CommandError(str(exc)) from None
    _check_resume_budget(rundir, args.timesteps, args.minutes)
    return rundir


def _check_resume_budget(rundir, timesteps, minutes) -> None:
    """A resume's --minutes/--timesteps set the run's total budget; one already spent would train nothing and
    only play the final evaluation again, so it is refused, naming what the run has done."""
    info = rundir.read_info()
    if timesteps is not None and timesteps <= info.trained_timesteps:
        raise CommandError(f"{_shown_path(rundir.path)}: --timesteps is the run's total budget and it has trained "
                           f"{info.trained_timesteps:,} already; expected more than that")
    if minutes is not None and minutes * 60 <= info.trained_seconds:
        raise CommandError(f"{_shown_path(rundir.path)}: --minutes is the run's total budget and it has trained "
                           f"{info.trained_seconds / 60:.1f} minutes already; expected more than that")


def cmd_league(args) -> int:
    require_extra("train", "league", "torch", "stable_baselines3", "sb3_contrib", "tensorboard")
    from agents.trained import ModelFileError

    from .league import run_league
    from .rundir import RunInUseError

    _refuse_settings_on_resume(args, ("seed", "config", "scenario", "run_name"), "league", "--minutes or --rounds")
    ldir = _resume_league(args) if args.resume else _new_league(args)
    print(f"league folder: {_shown_path(ldir.path)}", flush=True)
    try:
        run, status, _ = run_league(ldir, progress=not args.quiet, budget=(args.minutes, args.rounds))
    except (RunInUseError, ModelFileError) as exc:
        raise CommandError(str(exc)) from None
    except KeyboardInterrupt:  # Ctrl-C after the league was saved (during the final evaluation)
        print(f"interrupted; the league is saved in {_shown_path(ldir.path)}", file=sys.stderr)
        return 130
    print(ldir.report.read_text(encoding="utf-8").split("## Learning curves")[0].strip())
    if status == "interrupted":
        return 130
    print(f"\nreport: {_shown_path(ldir.report)}")
    return 0


def _new_league(args):
    from envs.engine.scenario import ScenarioError

    from .config import default_config_path
    from .league import LeagueRequest, new_league

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
    from .league import find_league

    rs = lookup.ruleset(args.env)
    try:
        return find_league(args.results, rs.name, args.resume)
    except FileNotFoundError as exc:
        raise CommandError(str(exc)) from None


def cmd_league_average(args) -> int:
    require_extra("train", "league-average", "torch", "stable_baselines3", "sb3_contrib", "tensorboard")
    from .league import find_league
    from .league_average import write_average

    rs = lookup.ruleset(args.env)
    try:
        ldir = find_league(args.results, rs.name, args.league)
    except FileNotFoundError as exc:
        raise CommandError(str(exc)) from None
    side = rs.sides[lookup.side(rs, args.side)]
    print(f"wrote {_shown_path(write_average(ldir, side, args.from_round))}")
    return 0


def cmd_exploit(args) -> int:
    require_extra("train", "exploit", "torch", "stable_baselines3", "sb3_contrib", "tensorboard")
    from envs.engine.scenario import ScenarioError

    from .config import default_config_path
    from .exploit import ExploitRequest, append_row, check_table, measure, row, summary, table_path

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
    print(f"config: {_shown_path(config)} (the same config, seed and budget for every agent measured)", flush=True)
    try:
        found = measure(request, progress=not args.quiet)
    except (ScenarioError, FileExistsError, ValueError) as exc:
        raise CommandError(str(exc)) from None
    if found.best_response is None:
        print(f"interrupted: no row written; the best response's run is {_shown_path(found.rundir.path)}",
              file=sys.stderr)
        return 130
    append_row(table, rs.name, row(found), args.games)
    print("\n".join(summary(found)))
    print(f"row added to {_shown_path(table)}")
    return 0


def cmd_exploit_summary(args) -> int:
    from .exploit import table_path
    from .exploit_summary import read_table, summary_table

    rs = lookup.ruleset(args.env)
    table = table_path(args.results, rs.name)
    print(f"{_shown_path(table)}, gathered per frozen agent, config and budget:\n")
    print(summary_table(read_table(table)))
    return 0


def cmd_evaluate(args) -> int:
    from .evaluate import evaluate
    from .series import HELD_OUT_SEED

    rs = lookup.ruleset(args.env)
    scenario = lookup.scenario(rs, args.scenario)
    if args.seed < HELD_OUT_SEED:
        print(f"note: seeds below {HELD_OUT_SEED:,} include those of the evaluations during training", file=sys.stderr)
    for name in args.agents:
        lookup.agent(rs, name)      # an unknown agent or a bad .zip fails before any folder is made
    out_dir = output.writable_folder(output.choose(args.results / rs.name / "ladder", args.force, "evaluation",
                                                   _shown_path))
    recorder = replay_cli.recorder_from(args, (), args.seed)
    text = replay_cli.recording(lambda: evaluate(rs, scenario, args.agents, args.games, args.seed, args.jobs, out_dir,
                                                 not args.quiet, recorder))
    print(text)
    print(f"\nwritten: {_shown_path(out_dir / 'ladder.md')}, ladder.png, pairings.csv")
    return 0


def cmd_report(args) -> int:
    from .exploitability import best_model, write_report

    names = args.env or registry.names()
    for name in names:
        rs = lookup.ruleset(name)
        models = {}
        for side, given in enumerate((args.player, args.enemy)[: len(rs.sides)]):
            if given is not None:
                lookup.agent(rs, given, (side,))   # a missing or unfit .zip, or one of another side, fails here
            models[side] = given or _str(best_model(args.results, rs.name, rs.sides[side]))
        out = output.choose(args.results / rs.name / "exploitability.md", args.force, "report", _shown_path)
        output.writable_folder(out.parent)
        print(write_report(rs, lookup.scenario(rs, args.scenario), models, args.games, args.seed, out))
        print(f"written: {_shown_path(out)}\n")
    return 0


def cmd_audit(args) -> int:
    from .audit import AuditSetup, run_audit
    from .audit_report import write
    from .series import seeds_from

    rs = lookup.ruleset(args.env)
    side = lookup.side(rs, args.side or rs.sides[-1])
    lookup.agent(rs, args.against)
    setup = AuditSetup(rs.name, lookup.scenario(rs, args.scenario), side, args.against,
                       tuple(seeds_from(args.seed, args.games)), args.audited)
    listed = "scripted" if args.audited == "scripted" else "distilled"
    out = output.choose(args.out or args.results / rs.name / "audit" / f"{listed}-{rs.sides[side]}-vs-{args.against}",
                        args.force, "audit", _shown_path)
    if args.trained:
        lookup.agent(rs, args.trained)     # a missing or unfit model fails here, in one line
    audit = run_audit(setup, args.jobs, not args.quiet, args.trained)
    command = (f"rubble audit {rs.name} --side {rs.sides[side]} --audited {args.audited} --against {args.against} "
               f"--games {args.games} "
               f"--seed {args.seed}" + (f" --scenario {args.scenario}" if args.scenario else "")
               + (f" --trained {args.trained}" if args.trained else ""))
    write(audit, out, command, force=args.force)
    print((out / "report.md").read_text())
    print(f"written: {_shown_path(out / 'report.md')}, report.html, ablations.png")
    return 0


def cmd_distill(args) -> int:
    from agents import distilled

    from .audit_report import html_page
    from .distill import FIT_SEED, collect, evaluate, fit, report
    from .series import seeds_from

    rs = lookup.ruleset(args.env)
    if not rs.name.startswith("rifles") or lookup.side(rs, args.side) != 1:
        raise CommandError(f"distill fits the Rifles enemy automaton's list; not {rs.name}'s {args.side}")
    lookup.agent(rs, args.trained)
    out = output.choose(args.out or args.results / rs.name / "audit" / "distilled", args.force, "distilled list",
                        _shown_path)
    scenario = lookup.scenario(rs, args.scenario)
    ranked, answers = collect(rs.name, scenario, args.trained, seeds_from(FIT_SEED, args.fit_games))
    rules, fitted = fit(ranked, answers, args.size)
    out.mkdir(parents=True, exist_ok=True)
    list_path = out / "enemy.yaml"
    distilled.write_list(list_path, rs.name, rules, f"fitted to {args.trained}")
    seeds = seeds_from(args.seed, args.games)
    wins = evaluate(rs.name, scenario, {"the original list": "scripted", "the distilled list": f"distilled:{list_path}",
                                        "the trained agent": args.trained}, seeds)
    command = (f"rubble distill {rs.name} --side enemy --trained {args.trained} --fit-games {args.fit_games} "
               f"--games {args.games} --size {args.size}")
    lines = distilled.describe(*distilled.read_list(list_path)[:2])
    text = report(rs.name, args.trained, _shown_path(list_path), lines, fitted, wins, seeds, args.fit_games, command)
    (out / "report.md").write_text(text)
    (out / "report.html").write_text(html_page(text, {}))
    print(text)
    print(f"written: {_shown_path(list_path)}, report.md, report.html")
    return 0


def _str(path) -> str | None:
    return None if path is None else str(path)


def _add_play(sub) -> None:
    p = sub.add_parser("play", help="play one side in the terminal against an agent")
    p.add_argument("env", help="environment name, e.g. rifles-urban")
    p.add_argument("--scenario", help="scenario name (default: the environment's default)")
    p.add_argument("--side", help="the side you play, by name or number (default: the learner side)")
    p.add_argument("--enemy", default="scripted", help="agent for the other side(s), or a trained model .zip")
    p.add_argument("--seed", type=arg.seed, default=0, help="seed of the dice and the agents")
    replay_cli.add_record_options(p, series=False)
    p.set_defaults(run=cmd_play)


def _add_simulate(sub) -> None:
    p = sub.add_parser("simulate", help="play N seeded games between agents and report results")
    p.add_argument("env")
    p.add_argument("--games", type=arg.games, default=100)
    p.add_argument("--player", default="scripted", help="agent for side 0")
    p.add_argument("--enemy", default="scripted", help="agent for side 1")
    p.add_argument("--agents", help="comma-separated agent per side, in side order (overrides --player/--enemy)")
    p.add_argument("--seed", type=arg.seed, default=0, help="game i uses seed SEED+i")
    p.add_argument("--scenario")
    p.add_argument("--jobs", type=arg.jobs, default=1, help="worker processes")
    p.add_argument("--quiet", action="store_true", help="no progress bar")
    p.add_argument("--csv", type=Path, help="also write one row per game (seed, returns, decisions, turns) to a new file")
    replay_cli.add_record_options(p, series=True)
    p.set_defaults(run=cmd_simulate)


def _add_bench(sub) -> None:
    p = sub.add_parser("bench", help="CPU-time speed of play through the adapters and of scripted games, one process")
    p.add_argument("env", nargs="*", help="environment names (default: all registered)")
    p.add_argument("--seconds", type=arg.seconds, default=3.0, help="CPU seconds per measurement and repetition")
    p.add_argument("--api", choices=("aec", "gym", "games"), action="append",
                   help="aec: PettingZoo AEC env, observation and mask every step; gym: Gymnasium env against the "
                        "scripted opponent; games: scripted against scripted (repeatable; default: all three)")
    p.add_argument("--reps", type=arg.every, default=3, help="repetitions (the table shows medians)")
    p.add_argument("--peers", action="store_true", help="also time PettingZoo's connect_four_v3, and compare")
    p.add_argument("--json", action="store_true", help="print the results as JSON instead of a table")
    p.add_argument("--profile", action="store_true", help="profile the named environments instead: the top functions")
    p.add_argument("--quiet", action="store_true", help="no progress lines on stderr")
    p.add_argument("--seed", type=arg.seed, default=0)
    p.set_defaults(run=cmd_bench)


def _add_train(sub) -> None:
    from .rundir import RESULTS_ROOT

    p = sub.add_parser("train", help="train MaskablePPO on one side; evaluation, checkpoints, report")
    p.add_argument("env")
    p.add_argument("--side", help="the side that learns, by name or number (default: the env's learner side); "
                                  "the opponent plays the others")
    p.add_argument("--opponent", help="scripted (default), random, or a trained model's .zip")
    budget = p.add_mutually_exclusive_group()
    budget.add_argument("--minutes", type=arg.minutes, help="wall-clock budget (default: the config's `minutes`)")
    budget.add_argument("--timesteps", type=arg.timesteps, help="budget in learner decisions")
    p.add_argument("--seed", type=arg.seed, help="seeds the model, the training games and the agents (default 0)")
    p.add_argument("--config", help="hyperparameters (default: configs/training/ENV.yaml, else default.yaml)")
    p.add_argument("--envs", type=arg.envs, help="parallel environments (default: the config's `envs`)")
    p.add_argument("--scenario")
    p.add_argument("--run", dest="run_name", help="name of the run folder (default: SIDE-vs-OPPONENT-seedN, numbered if taken)")
    p.add_argument("--resume", metavar="RUN", help="continue an interrupted run (name under results/ENV, or its "
                                                   "folder); its settings are kept, --minutes/--timesteps may set a new budget")
    p.add_argument("--results", type=Path, default=RESULTS_ROOT, help="where runs go (default: results/)")
    p.add_argument("--quiet", action="store_true", help="no progress bar")
    p.set_defaults(run=cmd_train)


def _add_league(sub) -> None:
    from .rundir import RESULTS_ROOT

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


def _add_league_average(sub) -> None:
    from .rundir import RESULTS_ROOT

    p = sub.add_parser("league-average", help="a league side's average strategy (its main learner's snapshots, "
                                              "equally weighted) as a .mixture.json agent beside the league")
    p.add_argument("env")
    p.add_argument("league", help="the league (name under results/ENV/league, or its folder)")
    p.add_argument("--side", required=True, help="by name or number")
    p.add_argument("--from-round", type=arg.every, help="the first round averaged (default: the second half)")
    p.add_argument("--results", type=Path, default=RESULTS_ROOT, help="where leagues are (default: results/)")
    p.set_defaults(run=cmd_league_average)


def _add_exploit(sub) -> None:
    from .rundir import RESULTS_ROOT

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


def _add_evaluate(sub) -> None:
    from .rundir import RESULTS_ROOT
    from .series import HELD_OUT_SEED

    p = sub.add_parser("evaluate", help="every ordered pair of agents on both sides, on held-out seeds; a rating ladder")
    p.add_argument("env")
    p.add_argument("--agents", nargs="+", required=True, help="agent names and/or trained model .zip paths")
    p.add_argument("--games", type=arg.games, default=200, help="games per pairing")
    p.add_argument("--seed", type=arg.seed, default=HELD_OUT_SEED,
                   help=f"game i uses seed SEED+i (default {HELD_OUT_SEED}: seeds no training evaluation uses)")
    p.add_argument("--scenario")
    p.add_argument("--jobs", type=arg.jobs, default=1, help="worker processes")
    p.add_argument("--results", type=Path, default=RESULTS_ROOT, help="writes RESULTS/ENV/ladder/ (default: results/); "
                   "if an evaluation is there, ladder-2/, ladder-3/... beside it")
    p.add_argument("--force", action="store_true", help="replace the evaluation in RESULTS/ENV/ladder/")
    p.add_argument("--quiet", action="store_true")
    replay_cli.add_record_options(p, series=True)
    p.set_defaults(run=cmd_evaluate)


def _add_report(sub) -> None:
    from .rundir import RESULTS_ROOT
    from .series import HELD_OUT_SEED

    p = sub.add_parser("report", help="exploitability: scripted vs scripted beside trained vs scripted, per side")
    p.add_argument("env", nargs="*", help="environment names (default: every registered one)")
    p.add_argument("--player", help="trained player model .zip (default: the finished player run under RESULTS/ENV "
                                    "whose last periodic evaluation won most)")
    p.add_argument("--enemy", help="trained enemy model .zip (default: likewise)")
    p.add_argument("--games", type=arg.games, default=500, help="games per row")
    p.add_argument("--seed", type=arg.seed, default=HELD_OUT_SEED, help="game i uses seed SEED+i")
    p.add_argument("--scenario")
    p.add_argument("--results", type=Path, default=RESULTS_ROOT, help="reads runs from and writes to RESULTS/ENV/ "
                   "(exploitability.md; if one is there, exploitability-2.md, ... beside it)")
    p.add_argument("--force", action="store_true", help="replace RESULTS/ENV/exploitability.md")
    p.set_defaults(run=cmd_report)


def _add_audit(sub) -> None:
    from .rundir import RESULTS_ROOT
    from .series import HELD_OUT_SEED

    p = sub.add_parser("audit", help="which rules of a scripted side's priority list carry it: each switched off or "
                                     "moved down, on paired dice")
    p.add_argument("env")
    p.add_argument("--side", help="the scripted side audited (default: the last side, the solo game's enemy)")
    p.add_argument("--audited", default="scripted", help="the list audited: scripted (default) or distilled:PATH")
    p.add_argument("--against", default="scripted", help="agent on every other side (default: scripted)")
    p.add_argument("--games", type=arg.games, default=1000, help="games per series (one series per change)")
    p.add_argument("--seed", type=arg.seed, default=HELD_OUT_SEED, help="game i of every series uses seed SEED+i")
    p.add_argument("--scenario")
    p.add_argument("--jobs", type=arg.jobs, default=1, help="worker processes")
    p.add_argument("--results", type=Path, default=RESULTS_ROOT, help="writes RESULTS/ENV/audit/LIST-SIDE-vs-AGAINST/")
    p.add_argument("--trained", metavar="MODEL", help="a trained model of the audited side (.zip): where it departs "
                                                     "from the list, and what taking its answers rule by rule is worth")
    p.add_argument("--out", type=Path, help="the report's folder instead")
    p.add_argument("--force", action="store_true", help="replace an existing report (else one is written beside it)")
    p.add_argument("--quiet", action="store_true")
    p.set_defaults(run=cmd_audit)


def _add_distill(sub) -> None:
    from .rundir import RESULTS_ROOT
    from .series import HELD_OUT_SEED

    p = sub.add_parser("distill", help="fit a priority list a person can follow to a trained enemy, and play it")
    p.add_argument("env")
    p.add_argument("--side", default="enemy", help="the side distilled (the Rifles enemy)")
    p.add_argument("--trained", required=True, metavar="MODEL", help="the trained model (.zip) to distil")
    p.add_argument("--fit-games", type=arg.games, default=300, help="games of the trained agent to fit on")
    p.add_argument("--games", type=arg.games, default=500, help="held-out games per enemy in the comparison")
    p.add_argument("--size", type=arg.every, default=12, help="most lines in the distilled list")
    p.add_argument("--seed", type=arg.seed, default=HELD_OUT_SEED, help="held-out game i uses seed SEED+i")
    p.add_argument("--scenario")
    p.add_argument("--results", type=Path, default=RESULTS_ROOT, help="writes RESULTS/ENV/audit/distilled/")
    p.add_argument("--out", type=Path, help="the folder instead")
    p.add_argument("--force", action="store_true", help="replace an existing list and report (else written beside them)")
    p.set_defaults(run=cmd_distill)


def build_parser() -> argparse.ArgumentParser:
    parser = arg.OneLineParser(prog="rubble", description=__doc__)
    sub = parser.add_subparsers(title="commands", metavar="COMMAND", parser_class=arg.OneLineParser)
    sub.add_parser("list", help="the registered environments, their scenarios and agents").set_defaults(run=cmd_list)
    _add_play(sub)
    _add_simulate(sub)
    _add_bench(sub)
    _add_train(sub)
    _add_league(sub)
    _add_league_average(sub)
    _add_exploit(sub)
    _add_evaluate(sub)
    _add_report(sub)
    _add_audit(sub)
    _add_distill(sub)
    replay_cli.add_replay(sub)
    playtest_cli.add_playtest(sub, arg.games, arg.seed)
    for p in (parser, *sub.choices.values()):   # before or after the verb; SUPPRESS: a verb's default never hides it
        p.add_argument("--debug", action="store_true", default=argparse.SUPPRESS,
                       help="show the traceback of an error instead of its one line")
    return parser


def main(argv: list[str] | None = None) -> int:
    """Run the `rubble` command; returns the exit status (2 for a bad name or usage, 1 for other errors)."""
    parser = build_parser()
    try:
        args = parser.parse_args(argv)
    except SystemExit as exc:     # a usage error (its one line is printed) or --help: a status, as for every error
        return exc.code or 0
    if not hasattr(args, "run"):
        parser.print_help(sys.stderr)
        return 2
    try:
        return args.run(args)
    except KeyboardInterrupt:
        print("rubble: interrupted", file=sys.stderr)
        return 130                # the shell's status for Ctrl-C
    except Exception as exc:      # every error ends in one line and a non-zero status; --debug shows where
        if getattr(args, "debug", False):
            raise
        return arg.report(exc)


if __name__ == "__main__":
    sys.exit(main())
