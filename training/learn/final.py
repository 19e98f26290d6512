"""The end of a training session: the held-out evaluation, curve.png and report.md of the run."""
from __future__ import annotations

from training import lookup
from training.folders.rundir import is_saved_agent
from training.measure.series import HELD_OUT_SEED, TRAIN_EVAL_SEED, format_share, seeds_from

from .evallog import read_eval_rows
from .runreport import Baseline, FinalRow, final_table, plot_curve, shown_path, write_report


def final_evaluation(session) -> list[FinalRow]:
    """The model against the scripted and random opponents, and the built-in agents as baselines, on held-out seeds."""
    rows = read_eval_rows(session.rundir.eval_csv)
    if not rows or rows[-1]["timesteps"] < session.info.updated_timesteps:
        session.evaluate(session.info.updated_timesteps)   # the curve ends at the saved model
    seeds = seeds_from(HELD_OUT_SEED, session.config.final_games)
    run = session.info.run
    table = [FinalRow(run, name, session.play_learner(name, seeds)) for name in ("scripted", "random")]
    for name in ("scripted", "random"):
        agent = lookup.agent(session.rs, name)
        table.append(FinalRow(f"{name} (baseline)", "scripted", session.play_learner("scripted", seeds, agent)))
    return table


def baselines(session) -> list[Baseline]:
    """The built-in agents on the learner's side against the scripted opponent, on the curve's seeds."""
    seeds = seeds_from(TRAIN_EVAL_SEED, session.config.eval_games)
    side = session.info.side
    return [Baseline(f"{name} {side} (same seeds)", session.play_learner("scripted", seeds, lookup.agent(session.rs, name)))
            for name in ("scripted", "random")]


def write_run_report(session, final: list[FinalRow]) -> None:
    """curve.png and report.md from eval.csv, run.json and the final table (empty if interrupted)."""
    rows = read_eval_rows(session.rundir.eval_csv)
    info = session.info
    if rows:
        title = f"{info.env}: {info.side} vs {info.opponent_label} ({info.run})"
        plot_curve(rows, baselines(session), session.rundir.curve, title)
    sections = [("Result", summary_lines(session, final)), ("Learning curve", curve_lines(rows))]
    if final:
        sections.append(("Final evaluation", final_lines(session, final)))
    sections += [("Run", run_lines(session)), ("Reproduce", reproduce_lines(session)),
                 ("Versions", version_lines(info)), ("Config", ["```yaml", session.config.to_yaml().rstrip(), "```"])]
    write_report(session.rundir.report, info, sections)


def summary_lines(session, final: list[FinalRow]) -> list[str]:
    """One paragraph: how far the run got and the headline win rates."""
    info = session.info
    done = f"{info.trained_timesteps:,} timesteps in {duration(info.trained_seconds)} of training"
    if not final and info.status == "finished":
        return [f"**finished** after {done}; the command that trained it played the held-out games "
                f"(`rubble exploit`: results/{info.env}/league/exploitability.md)."]
    if not final:
        return [f"**{info.status}** after {done}. Continue with `rubble train {info.env} --resume {info.run}`."]
    others = " and ".join(s for s in session.rs.sides if s != info.side)
    vs_scripted, vs_random, baseline = final[0].result.tally, final[1].result.tally, final[2].result.tally
    return [f"After {done}, the trained {info.side} wins **{format_share(vs_scripted)}** against the scripted "
            f"{others} and **{format_share(vs_random)}** against the random {others} (95 % Wilson intervals). "
            f"The scripted {info.side} wins {format_share(baseline)} against the scripted {others} on the same seeds."]


def curve_lines(rows: list[dict]) -> list[str]:
    if not rows:
        return ["No evaluation yet."]
    best = max(rows, key=lambda r: r["win_rate"])
    return ["![learning curve](curve.png)", "",
            f"Periodic evaluation against the scripted opponent ({int(rows[-1]['games'])} games, seeds "
            f"{TRAIN_EVAL_SEED}..{TRAIN_EVAL_SEED + int(rows[-1]['games']) - 1}, deterministic play): "
            f"{len(rows)} points in `eval.csv`; first {rows[0]['win_rate']:.1%}, best {best['win_rate']:.1%} "
            f"at {int(best['timesteps']):,} timesteps, last {rows[-1]['win_rate']:.1%} at {int(rows[-1]['timesteps']):,}."]


def final_lines(session, final: list[FinalRow]) -> list[str]:
    games = session.config.final_games
    return final_table(final, session.info.side) + [
        "", f"Held-out seeds {HELD_OUT_SEED:,}..{HELD_OUT_SEED + games - 1:,} (never used while training); the model "
        "plays deterministically (the most likely legal action); the baselines are the built-in agents on the "
        "same side and seeds."]


def run_lines(session) -> list[str]:
    info = session.info
    rate = info.trained_timesteps / info.trained_seconds if info.trained_seconds else 0.0
    return [f"- status: {info.status}; sessions: {info.sessions}",
            f"- timesteps: {info.trained_timesteps:,} (model updated on {info.updated_timesteps:,}); "
            f"training time {info.trained_seconds:.0f} s ({rate:,.0f} timesteps/s including evaluations)",
            f"- budget: {budget_text(info)}; environments: {info.envs} ({session.config.vec_env}); "
            f"opponent: {shown_opponent(info)}; scenario: {info.scenario or session.rs.default_scenario}; seed: {info.seed}",
            *imitation_lines(info), *shaping_lines(session.config),
            "- files: `actor.zip` (the trained actor, what plays), `model.zip` (MaskablePPO with optimizer state, "
            "for `--resume`), `eval.csv`, `curve.png`, `config.yaml`, "
            "`run.json`, `checkpoints/`, TensorBoard logs in `tb/`"]


def shaping_lines(config) -> list[str]:
    """Which numbers carry the shaped reward when it is on: the training logs do, the win rates never do."""
    if not config.reward_shaping:
        return []
    return [f"- reward shaping {config.reward_shaping:g} (Ruleset.standing): each step's reward adds that times the "
            "change of the learner's standing, so TensorBoard's `rollout/ep_rew_mean` (SB3's Monitor) is the "
            "result plus the shaped part; every win rate here and in `eval.csv` counts results only"]


def imitation_lines(info) -> list[str]:
    """What behaviour cloning did before PPO, if it ran."""
    i = info.imitation
    if not i:
        return ["- imitation: none (PPO from a random policy)"]
    if "start_from" in i:
        return [f"- start: the {info.side} began as the actor of `{i['start_from']}` (`start_from`, "
                "training/learn/warm_start.py) in place of behaviour cloning; its value head from fresh weights"]
    return [f"- imitation: before PPO the policy copied the {i['teacher']} {info.side} (behaviour cloning, "
            f"training/learn/imitation.py): {i['decisions']:,} decisions from {i['games']:,} games (the teacher won "
            f"{i['teacher_wins']:,}), {i['epochs']} epochs, {i['accuracy']:.1%} of the teacher's choices matched "
            f"afterwards; {i['seconds']:.0f} s of the training time{cached_text(i)}"]


def cached_text(imitation: dict) -> str:
    """Where the cloned start came from when an earlier run with the same config had cloned it."""
    return f" (the cloned start of an earlier run, loaded from `{imitation['cached']}`)" if "cached" in imitation else ""


def duration(seconds: float) -> str:
    return f"{seconds:.0f} s" if seconds < 90 else f"{seconds / 60:.1f} min"


def budget_text(info) -> str:
    return f"{info.timesteps:,} timesteps" if info.timesteps is not None else f"{info.minutes:g} minutes"


def train_command(info, config_path: str, budget: str) -> str:
    scenario = f" --scenario {info.scenario}" if info.scenario else ""
    return (f"rubble train {info.env} --side {info.side} --opponent {shown_opponent(info)}{scenario} --seed {info.seed} "
            f"--envs {info.envs} --config {config_path} {budget}")


def shown_opponent(info) -> str:
    return shown_path(info.opponent) if is_saved_agent(info.opponent) else info.opponent


def reproduce_lines(session) -> list[str]:
    info = session.info
    config = shown_path(session.rundir.config)
    budget = f"--timesteps {info.timesteps}" if info.timesteps is not None else f"--minutes {info.minutes:g}"
    lines = ["This run:", "", "```sh", train_command(info, config, budget), "```"]
    if info.minutes is not None and info.updated_timesteps:
        lines += ["", "The same model, step for step, as a step budget (same seed and timesteps give the same games "
                  "and updates; only for a run that was never interrupted: a resumed run plays other games after "
                  "the resume):", "",
                  "```sh", train_command(info, config, f"--timesteps {info.updated_timesteps}"), "```"]
    return lines


def version_lines(info) -> list[str]:
    packages = ", ".join(f"{name} {version}" for name, version in info.versions.items())
    return [f"- git commit: `{info.git_commit}`", f"- packages: {packages}"]
