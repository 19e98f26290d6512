"""The committed example replays: per ruleset, a trained side beating the scripted enemy, with its viewer page
and a screenshot, in results/<env>/replays/. Regenerate (after removing the old files) with

    python -m training.replay.examples [ENV ...]
    python -m training.replay.examples --pages      # only the pages and screenshots, from the committed replays
    python -m training.replay.examples --rerecord   # replays of an older format version, at the current one

and time `--verify` on them (the ruleset imported first, each replay verified for 5 s):

    python -m training.replay.examples --time
"""
from __future__ import annotations

import argparse
import sys
from pathlib import Path

from envs.paths import PROJECT_ROOT
from training import lookup
from training.measure.series import HELD_OUT_SEED
from training.measure.simulate import play_game

from . import files as replay
from .recorder import Recorder

#: ruleset -> the agents per side: one trained side (its actor.zip under results/<env>/) against the scripted other.
EXAMPLES = {
    "rifles-urban": ("results/rifles-urban/player-bc-ppo-15min/actor.zip", "scripted"),
    "rifles-darkness": ("results/rifles-darkness/player-bc-ppo-10min/actor.zip", "scripted"),
    "cityfight": ("results/cityfight/attacker-bc-ppo-30min-relu/actor.zip", "scripted"),
    "k47": ("results/k47/A-bc-ppo-30min/actor.zip", "scripted"),
    "urbanwar": ("scripted", "results/urbanwar/team_b-bc-ppo-shaped-30min/actor.zip"),
}
#: how many held-out seeds to try for a game the trained side wins
TRIES = 20


def replay_dir(env: str) -> Path:
    return PROJECT_ROOT / "results" / env / "replays"


def trained_side(agents: tuple[str, ...]) -> int:
    """The side an example's trained model plays."""
    return next(side for side, agent in enumerate(agents) if agent.endswith(".zip"))


def make(env: str) -> Path:
    """Play held-out seeds until the trained side wins, write that game's replay, page and screenshot; its path."""
    rs = lookup.ruleset(env)
    agents = EXAMPLES[env]
    factories = [lookup.agent(rs, str(PROJECT_ROOT / a) if a.endswith(".zip") else a) for a in agents]
    scripted = 1 - trained_side(agents)
    recorder = Recorder(replay_dir(env), agents, losses_of=scripted, gz=False)   # only a game the scripted side lost
    for seed in range(HELD_OUT_SEED, HELD_OUT_SEED + TRIES):
        play_game(rs, None, factories, seed, recorder)
        path = replay_dir(env) / replay.file_name(env, agents, seed, gz=False)
        if path.exists():
            break
    else:
        raise RuntimeError(f"{env}: the trained side won none of {TRIES} games")
    page_and_screenshot(path)
    return path


def page_and_screenshot(path: Path) -> None:
    """The viewer page of a replay and (when a browser is here) its screenshot, two thirds into the game."""
    from .browser import missing, screenshot
    from .viewer import write_html

    html = write_html(path, path.with_name(path.name.replace(".rubble.json", ".html")))
    if missing() is None:
        steps = len(replay.load(path)["steps"])
        screenshot(html, path.with_name(path.name.replace(".rubble.json", ".png")), steps=steps * 2 // 3)


def rerecord_committed() -> list[str]:
    """Every committed replay of an older format version recorded again at the current one (replay.rerecord: the
    same actions, verified, and the same outcome), replacing it, a line per file. Its page shows no event data and
    no version, so it is unchanged (regenerate with --pages to check)."""
    lines = []
    for env in EXAMPLES:
        for path in sorted(replay_dir(env).glob("*.rubble.json")):
            data = replay.load(path)
            if data["version"] == replay.VERSION:
                continue
            again = replay.rerecord(data, path)
            if [s["action"] for s in again.steps] != [s["action"] for s in data["steps"]] or again.outcome != data["outcome"]:
                raise RuntimeError(f"{path}: re-recorded with other actions or another outcome; left as it is")
            fresh = replay.write(again, path.with_name("new-" + path.name))
            fresh.replace(path)
            lines.append(f"re-recorded at version {replay.VERSION} (was {data['version']}): {path}")
    return lines


def time_verify(seconds: float = 5.0) -> list[str]:
    """Per committed replay: steps, time per verification and per 1,000 steps."""
    import time

    lines = []
    for env in EXAMPLES:
        for path in sorted(replay_dir(env).glob("*.rubble.json")):
            data = replay.load(path)
            replay.replay_steps(data, path)    # warm-up: imports the ruleset, fills its caches
            start, runs = time.perf_counter(), 0
            while time.perf_counter() - start < seconds:
                replay.replay_steps(data, path)
                runs += 1
            each = (time.perf_counter() - start) / runs
            lines.append(f"{env:16} {len(data['steps']):4} steps  {each * 1000:7.1f} ms per verify  "
                         f"{each / len(data['steps']) * 1000:6.2f} s per 1,000 steps")
    return lines


def main(argv: list[str] | None = None) -> int:
    """Record the example replays of the named rulesets, or re-record, re-draw or time the committed ones."""
    parser = argparse.ArgumentParser(prog="python -m training.replay.examples", description=__doc__.splitlines()[0])
    parser.add_argument("env", nargs="*", help=f"rulesets to record (default: all of {', '.join(EXAMPLES)})")
    what = parser.add_mutually_exclusive_group()
    what.add_argument("--time", action="store_true", help="time the verification of every committed replay")
    what.add_argument("--rerecord", action="store_true", help="re-record committed replays of an older format version")
    what.add_argument("--pages", action="store_true", help="the viewer pages and screenshots again, from the committed replays")
    args = parser.parse_args(argv)
    if args.time:
        print("\n".join(time_verify()))
    elif args.rerecord:
        print("\n".join(rerecord_committed()) or "every committed replay is at the current version")
    elif args.pages:
        for env in EXAMPLES:
            for found in sorted(replay_dir(env).glob("*.rubble.json")):
                page_and_screenshot(found)
    else:
        for name in args.env or list(EXAMPLES):
            print(make(name))
    return 0


if __name__ == "__main__":
    sys.exit(main())
