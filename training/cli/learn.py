"""The verbs that train one side: `rubble train` (new or `--resume`) and `rubble report`."""
from __future__ import annotations

import sys
from pathlib import Path

from envs import registry
from training import lookup
from training.folders import output
from training.lookup import CommandError

from . import arguments as arg
from .arguments import optional_str, refuse_settings_on_resume, require_extra, shown_path


def cmd_train(args) -> int:
    require_extra("train", "train", "torch", "stable_baselines3", "sb3_contrib", "tensorboard")
    from agents.trained import ModelFileError
    from training.folders.rundir import RunInUseError
    from training.learn.train import run_session

    refuse_settings_on_resume(args, ("side", "opponent", "seed", "config", "envs", "scenario", "run_name"),
                               "run", "--minutes or --timesteps")
    rundir = _resume_dir(args) if args.resume else _new_run(args)
    print(f"run folder: {shown_path(rundir.path)}", flush=True)
    try:
        outcome = run_session(rundir, progress=not args.quiet, budget=(args.timesteps, args.minutes))
    except (RunInUseError, ModelFileError) as exc:
        raise CommandError(str(exc)) from None
    except KeyboardInterrupt:  # Ctrl-C after the model was saved (during the final evaluation)
        print(f"interrupted; the model is saved in {shown_path(rundir.model)}", file=sys.stderr)
        return 130
    print(rundir.report.read_text(encoding="utf-8").split("## Learning curve")[0].strip())
    if outcome.status == "interrupted":
        return 130  # the shell's code for Ctrl-C: scripts can tell a stopped run from a finished one
    print(f"\nreport: {shown_path(rundir.report)}")
    return 0


def _new_run(args):
    from envs.engine.scenario import ScenarioError
    from training.learn.config import default_config_path
    from training.learn.train import TrainRequest, new_run

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


def _resume_dir(args):
    from training.learn.train import resume_request

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
        raise CommandError(f"{shown_path(rundir.path)}: --timesteps is the run's total budget and it has trained "
                           f"{info.trained_timesteps:,} already; expected more than that")
    if minutes is not None and minutes * 60 <= info.trained_seconds:
        raise CommandError(f"{shown_path(rundir.path)}: --minutes is the run's total budget and it has trained "
                           f"{info.trained_seconds / 60:.1f} minutes already; expected more than that")


def cmd_report(args) -> int:
    from training.league.exploitability import best_model, write_report

    names = args.env or registry.names()
    for name in names:
        rs = lookup.ruleset(name)
        models = {}
        for side, given in enumerate((args.player, args.enemy)[: len(rs.sides)]):
            if given is not None:
                lookup.agent(rs, given, (side,))   # a missing or unfit .zip, or one of another side, fails here
            models[side] = given or optional_str(best_model(args.results, rs.name, rs.sides[side]))
        out = output.choose(args.results / rs.name / "exploitability.md", args.force, "report", shown_path, file=True)
        try:
            print(write_report(rs, lookup.scenario(rs, args.scenario), models, args.games, args.seed, out))
        except BaseException:
            output.release(out)             # an empty claim would push the next report to exploitability-2.md
            raise
        print(f"written: {shown_path(out)}\n")
    return 0


def add_train(sub) -> None:
    from training.folders.rundir import RESULTS_ROOT

    p = sub.add_parser("train", help="train MaskablePPO on one side; evaluation, checkpoints, report")
    p.add_argument("env")
    p.add_argument("--side", help="the side that learns, by name or number (default: the env's learner side); "
                                  "the opponent plays the others")
    p.add_argument("--opponent", help="scripted (default), random, or a trained model's .zip")
    budget = p.add_mutually_exclusive_group()
    budget.add_argument("--minutes", type=arg.minutes, help="wall-clock budget: trains less on a slower or busier machine "
                                                            "(default: a step budget, see --timesteps)")
    budget.add_argument("--timesteps", type=arg.timesteps, help="budget in learner decisions: the same seed and timesteps "
                        "train the same agent on every machine (default: the config's `timesteps`, else its `minutes`)")
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


def add_report(sub) -> None:
    from training.folders.rundir import RESULTS_ROOT
    from training.measure.series import HELD_OUT_SEED

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
