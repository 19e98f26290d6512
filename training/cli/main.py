"""The `rubble` command: list the environments, play one, simulate series of games, benchmark the adapters,
train, evaluate, report and playtest."""
from __future__ import annotations

import argparse
import sys
from pathlib import Path

import envs  # noqa: F401 - importing the package registers every ruleset
from agents import named
from envs import registry
from envs.engine.scenario import ScenarioError
from training import lookup
from training.lookup import CommandError

from . import arguments as arg
from . import audit, league, learn, measure
from . import playtest as playtest_cli
from . import replay as replay_cli
from .arguments import shown_path


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
        lines.append(f"    {name}: {shown_path(path)}{default}" + (f"  BROKEN: {problem}" if problem else ""))
    factories = lookup.agent_factories(rs)
    lines.append(f"  agents: {', '.join(factories)}")
    lines += named_lines(factories)
    return "\n".join(lines), broken + (not scenarios)


def named_lines(factories) -> list[str]:
    """The named agents (results/agents.yaml) among `factories`: per name and side, the file and its strength."""
    lines = []
    for name, factory in factories.items():
        if isinstance(factory, named.NamedAgent):
            lines.append(f"    {name}:")
            lines += [f"      {side}: {entry.path}  ({entry.strength()})" for side, entry in factory.sides.items()]
    return lines


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
    from training.play.saves import SaveError, check_restorable, read_save
    from training.play.terminal import play

    resume = None
    if args.resume is not None:
        try:
            resume = read_save(args.resume)
        except SaveError as exc:
            raise CommandError(f"--resume: {exc}") from None
        args.env, args.scenario, args.seed = resume["env"], resume["scenario"], resume["seed"]
        args.side, args.enemy = str(resume["side"]), args.enemy or resume["enemy"]
        args.dice = args.dice or resume["dice"]
    if args.env is None:
        raise CommandError("rubble play: name the environment (e.g. rubble play cityfight) or give --resume FILE")
    args.enemy, args.dice = args.enemy or "scripted", args.dice or "seeded"
    rs = lookup.ruleset(args.env)
    scenario = lookup.scenario(rs, args.scenario)
    side = lookup.side(rs, args.side) if args.side is not None else rs.default_learner_side
    if resume is not None:
        try:
            check_restorable(rs, resume, args.resume)
        except SaveError as exc:
            raise CommandError(f"--resume: {exc}") from None
    agents = ["person" if s == side else args.enemy for s in range(len(rs.sides))]
    enemy = lookup.agent(rs, args.enemy, tuple(s for s in range(len(rs.sides)) if s != side))
    recorder = replay_cli.recorder_from(args, agents, args.seed, numbered=True)
    if args.web:
        arg.require_extra("web", "play --web", "starlette", "uvicorn")
        from training.play.web import WebGame, serve
        return serve(WebGame(rs, scenario, side, enemy, args.seed, recorder, agents), args.port)
    return play(rs, scenario, side, enemy, args.seed, sys.stdin, sys.stdout, recorder, manual=args.dice == "manual",
                save=args.save, resume=resume, enemy_name=args.enemy)


def add_play(sub) -> None:
    p = sub.add_parser("play", help="play one side in the terminal against an agent")
    p.add_argument("env", nargs="?", help="environment name, e.g. rifles-urban (not with --resume)")
    p.add_argument("--scenario", help="scenario name (default: the environment's default)")
    p.add_argument("--side", help="the side you play, by name or number (default: the learner side)")
    p.add_argument("--enemy", help="agent for the other side(s): scripted (default), distilled:FILE, a named agent "
                   "(strongest, league) or a trained model .zip")
    p.add_argument("--seed", type=arg.seed, default=0, help="seed of the dice and the agents")
    p.add_argument("--dice", choices=("seeded", "manual"), help="seeded (default): the program rolls; manual: the "
                   "table companion, you roll every die on your own table and type the faces")
    p.add_argument("--save", type=Path, metavar="FILE", help="keep the game in FILE after every decision")
    p.add_argument("--resume", type=Path, metavar="FILE", help="go on with a game kept with --save")
    replay_cli.add_record_options(p, series=False)
    p.add_argument("--web", action="store_true", help="play in the browser: a page served on 127.0.0.1 (the 'web' extra)")
    p.add_argument("--port", type=arg.port, default=0, help="with --web: the port (default: any free one)")
    p.set_defaults(run=cmd_play)


def build_parser() -> argparse.ArgumentParser:
    parser = arg.OneLineParser(prog="rubble", description=__doc__)
    sub = parser.add_subparsers(title="commands", metavar="COMMAND", parser_class=arg.OneLineParser)
    sub.add_parser("list", help="the registered environments, their scenarios and agents").set_defaults(run=cmd_list)
    add_play(sub)
    measure.add_simulate(sub)
    measure.add_bench(sub)
    learn.add_train(sub)
    league.add_league(sub)
    league.add_league_average(sub)
    league.add_exploit(sub)
    measure.add_evaluate(sub)
    learn.add_report(sub)
    audit.add_audit(sub)
    audit.add_distill(sub)
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
