"""sb3-contrib MaskablePPO on a Rubble Gymnasium id, vectorised with SB3's make_vec_env: no wrapper needed.

    python -m examples.sb3_maskable_ppo --env rubble/RiflesUrban-v0 --timesteps 200000

MaskablePPO reads the legal actions from the env's `action_masks()` (int8, one per env). The opponent plays
inside the env; `illegal_action` stays at its default ("lose"), though a masked policy never picks one.
"""
from __future__ import annotations

import argparse

from sb3_contrib import MaskablePPO
from stable_baselines3.common.env_util import make_vec_env


def train(env_id: str, timesteps: int, n_envs: int, n_steps: int, seed: int = 0) -> MaskablePPO:
    # "envs:" makes gymnasium.make import the package that registers the ids (needed in spawned processes).
    vec_env = make_vec_env(f"envs:{env_id}", n_envs=n_envs, seed=seed, env_kwargs={"opponent": "scripted"})
    model = MaskablePPO("MlpPolicy", vec_env, n_steps=n_steps, batch_size=min(64, n_steps * n_envs), seed=seed,
                        verbose=0)
    return model.learn(total_timesteps=timesteps)


def main(argv: list[str] | None = None) -> MaskablePPO:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--env", default="rubble/RiflesUrban-v0")
    parser.add_argument("--timesteps", type=int, default=100_000)
    parser.add_argument("--n-envs", type=int, default=4)
    parser.add_argument("--n-steps", type=int, default=256)
    parser.add_argument("--save", default=None, help="where to save the trained model (.zip)")
    args = parser.parse_args(argv)
    model = train(args.env, args.timesteps, args.n_envs, args.n_steps)
    episodes = list(model.ep_info_buffer)
    if episodes:
        print(f"{len(episodes)} episodes, mean return {sum(e['r'] for e in episodes) / len(episodes):+.3f}")
    if args.save:
        model.save(args.save)
    return model


if __name__ == "__main__":
    main()
