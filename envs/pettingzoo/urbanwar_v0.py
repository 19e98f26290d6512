"""PettingZoo AEC constructor for Urban War: `urbanwar_v0.env()` (every side an agent)."""
from envs.pettingzoo_env import aec_env_factory

env, raw_env = aec_env_factory("urbanwar")
