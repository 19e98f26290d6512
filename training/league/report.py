"""A league's report.md and each side's curve.png: where the learners stand, the pools, the meta-strategy, the
ratings, and the command that reproduces the league."""
from __future__ import annotations

from training.learn.evallog import read_eval_rows
from training.learn.final import duration, imitation_lines
from training.learn.runreport import final_table, plot_curve, shown_path
from training.measure.ladder import ladder_table
from training.measure.series import HELD_OUT_SEED, TRAIN_EVAL_SEED, format_share

from .pool import LATEST
from .ratings import ranked


def write_league_report(run, final: dict) -> None:
    """report.md in the league folder (rewritten at every session's end) and <side>/curve.png."""
    for side, learner in run.sides.items():
        rows = read_eval_rows(learner.rundir.eval_csv)
        if rows:
            plot_curve(rows, [], learner.rundir.curve, f"{run.info.env}: league {side} ({run.info.run})")
    info = run.info
    text = [f"# {info.env} / league {info.run}", ""]
    for heading, lines in (("Result", summary_lines(run, final)), *final_sections(run, final),
                           ("Learning curves", curve_lines(run)), ("Pools and meta-strategy", pool_lines(run)),
                           ("Ratings", rating_lines(run)), ("Run", run_lines(run)), ("Reproduce", reproduce_lines(run)),
                           ("Config", ["```yaml", run.ldir.config.read_text(encoding="utf-8").rstrip(), "```"])):
        text += [f"## {heading}", "", *lines, ""]
    run.ldir.report.write_text("\n".join(text), encoding="utf-8")


def summary_lines(run, final: dict) -> list[str]:
    info = run.info
    steps = ", ".join(f"{side} {learner.model.num_timesteps:,}" for side, learner in run.sides.items())
    done = f"{info.round - 1} rounds ({steps} timesteps) in {duration(info.trained_seconds)}"
    if not final:
        return [f"**{info.status}** after {done}. Continue with `rubble league {info.env} --resume {info.run}`."]
    lines = [f"After {done}, against the scripted opponent on held-out seeds (95 % Wilson intervals):", ""]
    for side, rows in final.items():
        lines.append(f"- the league's {side} (`{shown_path(run.sides[side].rundir.actor)}`) wins "
                     f"**{format_share(rows[0].result.tally)}**; the scripted {side} wins "
                     f"{format_share(rows[2].result.tally)} on the same seeds")
    return lines


def final_sections(run, final: dict) -> list[tuple[str, list[str]]]:
    games = run.config.final_games
    note = (f"Held-out seeds {HELD_OUT_SEED:,}..{HELD_OUT_SEED + games - 1:,}; the learner plays deterministically; "
            "the baselines are the built-in agents on the same side and seeds.")
    return [(f"Final evaluation: {side}", [*final_table(rows, side), "", note]) for side, rows in final.items()]


def curve_lines(run) -> list[str]:
    lines = []
    for side, learner in run.sides.items():
        rows = read_eval_rows(learner.rundir.eval_csv)
        if rows:
            lines += [f"![{side}]({side}/curve.png)", "",
                      f"{side}: against the scripted opponent ({int(rows[-1]['games'])} games, seeds "
                      f"{TRAIN_EVAL_SEED}..{TRAIN_EVAL_SEED + int(rows[-1]['games']) - 1}) at each round's end: first "
                      f"{rows[0]['win_rate']:.1%}, last {rows[-1]['win_rate']:.1%} at {int(rows[-1]['timesteps']):,} "
                      "timesteps.", ""]
    return lines or ["No evaluation yet."]


def pool_lines(run) -> list[str]:
    """Per learner: each opponent it may draw, the decayed games and win-rate estimate, and its draw probability."""
    league, settings = run.league, run.settings
    lines = [f"PFSP (training/league/pool.py): a learner plays the other side's current policy in "
             f"{settings.self_play:.0%} of its games, else a member of the other side's pool drawn by the meta-strategy "
             f"below (weighting `{settings.weighting}` of its estimated win rate; each game scales earlier ones by "
             f"{settings.decay:g}).", ""]
    for learner in league.state.sides:
        lines += [f"**The {learner} learner's opponents** (the {league.other(learner)} pool):", "",
                  "| opponent | joined after round | games (decayed) | est. win rate | meta-strategy |",
                  "| --- | ---: | ---: | ---: | ---: |"]
        tallies, meta = league.state.tallies[learner], league.state.meta[learner]
        for member in league.opponents(learner):
            t = tallies.get(member.name)
            lines.append(f"| {member.name} | {member.round or '–'} | {t.games if t else 0:.1f} | "
                         f"{league.win_rate(learner, member.name):.1%} | {meta.get(member.name, 0.0):.1%} |")
        if LATEST in tallies:
            lines.append(f"| the {league.other(learner)}'s current policy | – | {tallies[LATEST].games:.1f} | "
                         f"{league.win_rate(learner, LATEST):.1%} | self-play share {settings.self_play:.0%} |")
        lines.append("")
    return lines + exploiter_lines(run)


def exploiter_lines(run) -> list[str]:
    """The main exploiters: their steps, the round each last started again, their estimate against the main policy."""
    names = [name for name in run.learners if name not in run.sides]
    if not names:
        return []
    lines = [f"**Main exploiters** (they play only the other side's current policy and start again from the cloned "
             f"start above {run.settings.exploiter_reset:.0%} wins or after {run.settings.exploiter_rounds} rounds):",
             "", "| exploiter | timesteps | last started after round | est. win rate since |", "| --- | ---: | ---: | ---: |"]
    for name in names:
        lines.append(f"| {name} | {run.learners[name].model.num_timesteps:,} | {run.info.started.get(name, 0)} | "
                     f"{run.league.win_rate(name, LATEST):.1%} |")
    return lines + [""]


def rating_lines(run) -> list[str]:
    ratings = ranked(run.league.state.ratings)
    if not ratings:
        return ["No snapshot has joined yet."]
    return [f"openskill Plackett-Luce from the rating games each new snapshot plays ({run.settings.rating_games} per "
            f"opponent: the built-in agents and the {run.settings.rating_opponents} newest snapshots of the other side):",
            "", *ladder_table(ratings)]


def run_lines(run) -> list[str]:
    info = run.info
    budget = f"{info.rounds} rounds" if info.rounds is not None else f"{info.minutes:g} minutes"
    return [f"- status: {info.status}; sessions: {info.sessions}; budget: {budget}; seed {info.seed}; scenario "
            f"{info.scenario or run.rs.default_scenario}; {info.envs} environments per side",
            *(line for learner in run.sides.values() for line in imitation_lines(learner.info)),
            f"- git commit `{info.git_commit}`; " + ", ".join(f"{k} {v}" for k, v in info.versions.items()),
            "- files: `league.json` (the run and the league: pools, tallies, meta-strategy, ratings, the draws' "
            "generator), `<side>/actor.zip` (the learner, what plays), `<side>/model.zip` (for `--resume`), "
            "`pool/*.zip` (the snapshots), `<side>/eval.csv`, `<side>/curve.png`, `config.yaml`"]


def reproduce_lines(run) -> list[str]:
    info = run.info
    budget = f"--rounds {info.rounds}" if info.rounds is not None else f"--minutes {info.minutes:g}"
    scenario = f" --scenario {info.scenario}" if info.scenario else ""
    return ["```sh", f"rubble league {info.env}{scenario} --seed {info.seed} --config {shown_path(run.ldir.config)} "
            f"{budget}", "```", "", "Play against its enemy: `rubble play " + info.env + " --enemy "
            + shown_path(run.sides[run.rs.sides[-1]].rundir.actor) + "`"]
