"""What users run on top of the environments: train, play, playtest, replay, audit, measure; the `rubble` CLI.

One subpackage per capability; arrows point down only (import-linter, `.importlinter`):

    cli/        parse the command line, call one capability; nothing imports it
    league/     leagues, their pools and ratings, best responses and exploitability, a league's average
    learn/      train and resume a run: config, callbacks, imitation, clone cache, extractors, warm start,
                its report; `python -m training.learn.throughput` (where training time goes)
    play/       a person plays in the terminal: the screen, the menus, each ruleset's pieces, pictures
    playtest/   rule and scenario variants on paired dice: spec, dice, games, telemetry, summaries, tuning, report
    audit/      a scripted side's priority list: ablations, a trained agent's departures, distillation, report
    replay/     replay files, the recorder, the viewer page and GIF, unit cards, examples, foreign-loop wrappers
    measure/    series of games and their statistics: simulate, series, stats, paired differences, ladders,
                evaluate, bench, decision budget, the report document (Markdown and HTML)
    folders/    where results are written: a run's folder (run.json), an output folder claimed for a command
    lookup.py   names given by a user -> registry objects (rulesets, scenarios, sides, agents), one clear error

Layers, top to bottom: cli | league | learn, play, playtest, audit | replay | measure | folders | lookup.
league builds on learn (a league's learners are training sessions); the four in the middle never import
each other.

Before (2026-11-28): 68 modules flat in training/, 209 imports among them, two circles (cli <-> playtest_cli
through `side_agents`/`require_extra`; audit <-> departures through `AuditSetup`). The moves, old -> new:

    cli, arguments, playtest_cli, replay_cli            -> cli/main, arguments, playtest, replay (+ learn,
                                                           league, measure, audit: the verbs, split from cli)
    rundir, output                                      -> folders/
    stats, series, simulate, evaluate, ladder, bench,
    decision_budget, playtest_stats, playtest_document  -> measure/ (paired, document)
    replay, replay_record/html/serve/browser/wrappers/
    examples, unit_cards                                -> replay/ (files, recorder, viewer, serve, ...)
    train, resume, callbacks, clonecache, config, extractors, final, evallog, imitation, runreport,
    vector, warm_start, measure                         -> learn/ (measure -> throughput)
    league, league_*, exploit, exploit_summary,
    exploitability                                      -> league/ (run, average, config, pool, ratings, report)
    play, play_*                                        -> play/ (terminal, menu, pictures, rulesets, screen)
    playtest_*                                          -> playtest/
    audit, audit_report, departures, distill            -> audit/ (ablation, report, departures, distill;
                                                           setup: AuditSetup cut out of the circle)
"""
from importlib import import_module


def lazy_exports(package: str, names: dict[str, str]):
    """A package's `__getattr__` for its public names: each imported from its module on first use, so that
    importing a package never pulls in what only some of its names need (torch, matplotlib, Ray)."""
    def __getattr__(name: str):
        if name not in names:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        return getattr(import_module(f"{package}.{names[name]}"), name)
    return __getattr__
