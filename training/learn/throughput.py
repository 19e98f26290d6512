"""Where training time goes, and how fast it runs: `python -m training.learn.throughput ENV [--timesteps N]`.

Prints (1) timesteps/s of the whole learn() loop for DummyVecEnv and SubprocVecEnv with 1..16 environments,
(2) a cProfile of one learn() run split into: the environments (the ruleset and the scripted opponent inside
`VecEnv.step`), the masks, the policy's forward pass while collecting, and the PPO update. No evaluation,
no checkpoints, no imitation: only what every training step costs. Numbers are for the machine it runs on.
"""
from __future__ import annotations

import argparse
import cProfile
import pstats
import time
from dataclasses import asdict

import torch
from stable_baselines3.common.vec_env import VecEnvWrapper

from envs import registry

from .config import default_config_path, load_config
from .extractors import policy_kwargs
from .vector import make_vec_env

#: (label, file suffix, function name): cumulative time under these functions, from the profile.
PARTS = (
    ("environments: VecEnv.step (ruleset + opponent + wrappers)", "vec_env/dummy_vec_env.py", "step_wait"),
    ("  the ruleset: GameState.apply (learner's and opponent's actions)", "engine/taskgame.py", "apply"),
    ("  the ruleset: GameState.observation", "engine/taskgame.py", "observation"),
    ("  the ruleset: GameState.legal_action_mask", "engine/taskgame.py", "legal_action_mask"),
    ("  the opponent's decisions (engine.contract.decide: its view, observation, mask and act)", "engine/contract.py", "decide"),
    ("  new games (RubbleEnv.reset)", "envs/gym_env.py", "reset"),
    ("action masks (get_action_masks)", "maskable/utils.py", "get_action_masks"),
    ("policy forward while collecting", "maskable/policies.py", "forward"),
    ("PPO update (MaskablePPO.train)", "ppo_mask/ppo_mask.py", "train"),
)


def build(env: str, kind: str, envs: int, seed: int = 0, config_path=None):
    """MaskablePPO on `envs` environments of `kind`, with the config at `config_path` (None: the env's default)
    otherwise."""
    from sb3_contrib import MaskablePPO

    config = load_config(config_path or default_config_path(env))
    torch.set_num_threads(config.torch_threads)
    venv = make_vec_env(env, None, "scripted", None, envs, kind)   # the env's default learner side
    ppo = {**asdict(config.ppo), "n_steps": max(2, config.ppo.n_steps * config.envs // envs)}  # same rollout size
    ppo["batch_size"] = min(ppo["batch_size"], ppo["n_steps"] * envs)
    return MaskablePPO("MlpPolicy", venv, seed=seed, device="cpu", verbose=0,
                       policy_kwargs=policy_kwargs(config, registry.get(env)), **ppo)


def speed(env: str, kind: str, envs: int, timesteps: int, config_path=None) -> float:
    """Timesteps per second of learn() (setup excluded)."""
    model = build(env, kind, envs, config_path=config_path)
    start = time.perf_counter()
    model.learn(timesteps)
    rate = model.num_timesteps / (time.perf_counter() - start)
    model.env.close()
    return rate


def profile(env: str, envs: int, timesteps: int, config_path=None) -> tuple[float, list[tuple[str, float]]]:
    """(total seconds, [(part, seconds)]) of one profiled learn() on a DummyVecEnv."""
    model = build(env, "dummy", envs, config_path=config_path)
    profiler = cProfile.Profile()
    profiler.enable()
    model.learn(timesteps)
    profiler.disable()
    stats = pstats.Stats(profiler).stats
    total = max(cum for (_, _, name), (_, _, _, cum, _) in stats.items() if name == "learn")
    return total, [(label, cumulative(stats, path, name)) for label, path, name in PARTS]


def cumulative(stats: dict, path: str, name: str) -> float:
    """Cumulative seconds of the function `name` defined in a file ending with `path`."""
    return sum(cum for (file, _, func), (_, _, _, cum, _) in stats.items() if func == name and file.endswith(path))


class TimedVecEnv(VecEnvWrapper):
    """Adds up the wall time spent in the wrapped environments' reset and step (no profiler overhead)."""

    def __init__(self, venv) -> None:
        super().__init__(venv)
        self.seconds = 0.0

    def reset(self):
        start = time.perf_counter()
        observations = self.venv.reset()
        self.seconds += time.perf_counter() - start
        return observations

    def step_wait(self):
        start = time.perf_counter()
        result = self.venv.step_wait()
        self.seconds += time.perf_counter() - start
        return result


def shares(env: str, envs: int, timesteps: int, config_path=None) -> dict[str, float]:
    """Wall seconds of learn(), of the environments' steps and of the PPO update, measured without a profiler, and
    the CPU seconds of this process in learn() and in the update (on a shared machine the fairer comparison)."""
    model = build(env, "dummy", envs, config_path=config_path)
    timed = TimedVecEnv(model.env)
    model.env = timed
    update = {"seconds": 0.0, "cpu": 0.0}
    train = model.train

    def timed_train() -> None:
        start, cpu = time.perf_counter(), time.process_time()
        train()
        update["seconds"] += time.perf_counter() - start
        update["cpu"] += time.process_time() - cpu

    model.train = timed_train   # an instance attribute: learn() calls self.train()
    start, cpu = time.perf_counter(), time.process_time()
    model.learn(timesteps)
    return {"learn": time.perf_counter() - start, "environments": timed.seconds, "update": update["seconds"],
            "learn_cpu": time.process_time() - cpu, "update_cpu": update["cpu"], "timesteps": model.num_timesteps}


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(prog="python -m training.learn.throughput", description=__doc__)
    parser.add_argument("env", nargs="?", default="rifles-urban")
    parser.add_argument("--timesteps", type=int, default=32768)
    parser.add_argument("--counts", type=int, nargs="*", default=[1, 2, 4, 8, 16], help="env counts to time (none: skip)")
    parser.add_argument("--config", default=None, help="a training config (default: the env's own), e.g. to time "
                                                       "policy.extractor: grid")
    parser.add_argument("--no-profile", action="store_true", help="skip the cProfile run")
    args = parser.parse_args(argv)
    print(f"{args.env}: timesteps/s of learn(), {args.timesteps:,} timesteps, rollouts of the config's size")
    for kind in ("dummy", "subproc"):
        for envs in args.counts:
            if kind == "subproc" and envs == 1:
                continue
            print(f"  {kind:<8} {envs:>2} envs: {speed(args.env, kind, envs, args.timesteps, args.config):>7,.0f}",
                  flush=True)
    timed = shares(args.env, 8, args.timesteps, args.config)
    print(f"wall time (no profiler, dummy, 8 envs): learn() {timed['learn']:.1f} s")
    for part in ("environments", "update"):
        print(f"  {part:<14} {timed[part]:>6.1f} s  {timed[part] / timed['learn']:>5.1%}")
    rest = timed["learn"] - timed["environments"] - timed["update"]
    print(f"  {'rest':<14} {rest:>6.1f} s  {rest / timed['learn']:>5.1%}  (policy forward while collecting, buffer, callbacks)")
    print(f"CPU time of this process: learn() {timed['learn_cpu']:.1f} s, {timed['timesteps'] / timed['learn_cpu']:,.0f} "
          f"timesteps per CPU second; the update {timed['update_cpu']:.1f} s, {timed['update_cpu'] / timed['learn_cpu']:.1%}")
    if args.no_profile:
        return
    total, parts = profile(args.env, 8, args.timesteps, args.config)
    print(f"profile (cProfile, dummy, 8 envs): learn() {total:.1f} s")
    for label, seconds in parts:
        print(f"  {label:<58} {seconds:>6.1f} s  {seconds / total:>5.1%}")


if __name__ == "__main__":
    main()
