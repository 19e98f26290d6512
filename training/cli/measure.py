"""The verbs that play series of games and time them: `rubble simulate`, `bench` and `evaluate`."""
from __future__ import annotations

import sys
from pathlib import Path

from envs import registry
from training import lookup
from training.folders import output
from training.lookup import CommandError

from . import arguments as arg
from . import replay as replay_cli
from .arguments import require_extra, shown_path, side_agents


def cmd_simulate(args) -> int:
    from training.measure.simulate import Matchup, simulate

    rs = lookup.ruleset(args.env)
    matchup = Matchup(rs.name, lookup.scenario(rs, args.scenario), side_agents(rs, args))
    recorder = replay_cli.recorder_from(args, matchup.agents, args.seed)
    if args.csv is not None and args.csv.exists():
        raise CommandError(f"--csv {args.csv}: the file exists; name a new one (an earlier series is never overwritten)")
    print(replay_cli.recording(lambda: simulate(matchup, args.games, args.seed, args.jobs, not args.quiet, recorder,
                                                args.csv)))
    return 0


def cmd_bench(args) -> int:
    import json

    from training.measure import bench

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


def cmd_evaluate(args) -> int:
    from training.measure.evaluate import evaluate
    from training.measure.series import HELD_OUT_SEED

    rs = lookup.ruleset(args.env)
    scenario = lookup.scenario(rs, args.scenario)
    if args.seed < HELD_OUT_SEED:
        print(f"note: seeds below {HELD_OUT_SEED:,} include those of the evaluations during training", file=sys.stderr)
    for name in args.agents:
        lookup.agent(rs, name)      # an unknown agent or a bad .zip fails before any folder is made
    recorder = replay_cli.recorder_from(args, (), args.seed)
    out_dir = output.writable_folder(output.choose(args.results / rs.name / "ladder", args.force, "evaluation",
                                                   shown_path))
    try:
        text = replay_cli.recording(lambda: evaluate(rs, scenario, args.agents, args.games, args.seed, args.jobs,
                                                     out_dir, not args.quiet, recorder))
    except BaseException:
        output.release(out_dir)             # an empty claim would push the next evaluation to ladder-2/
        raise
    print(text)
    print(f"\nwritten: {shown_path(out_dir / 'ladder.md')}, ladder.png, pairings.csv")
    return 0


def add_simulate(sub) -> None:
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


def add_bench(sub) -> None:
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


def add_evaluate(sub) -> None:
    from training.folders.rundir import RESULTS_ROOT
    from training.measure.series import HELD_OUT_SEED

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
