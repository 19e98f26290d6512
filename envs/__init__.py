"""Rubble's environments: importing `envs` registers every ruleset and its Gymnasium id.

    import gymnasium, envs
    env = gymnasium.make("rubble/RiflesUrban-v0", opponent="scripted")
    aec = envs.make_aec("rifles-urban")          # PettingZoo AEC env, every side an agent
"""
from __future__ import annotations

import importlib
from pathlib import Path

import gymnasium

from . import registry
from .engine.ruleset import Ruleset

#: One module per ruleset; importing it calls `envs.registry.register(Ruleset(...))`.
RULESET_MODULES = ["envs.rifles.ruleset", "envs.cityfight.ruleset"]

_ROOT = Path(__file__).resolve().parent.parent


def register_gym_id(ruleset: Ruleset) -> None:
    """Make `gymnasium.make(ruleset.gym_id)` build a RubbleEnv for `ruleset` (idempotent)."""
    if ruleset.gym_id not in gymnasium.registry:
        gymnasium.register(id=ruleset.gym_id, entry_point="envs.gym_env:RubbleEnv", kwargs={"ruleset": ruleset.name})


def _module_exists(name: str, root: Path) -> bool:
    """Whether module `name` has a source file under `root` (a module file or a package)."""
    base = root.joinpath(*name.split("."))
    return base.with_suffix(".py").is_file() or (base / "__init__.py").is_file()


def _load_rulesets(modules: list[str] = RULESET_MODULES, root: Path = _ROOT) -> None:
    """Import every ruleset module that exists and register the Gymnasium ids of all registered rulesets."""
    for name in modules:
        # A ruleset still being written may not have its module yet: only a missing file is skipped;
        # any error inside an existing module propagates.
        if _module_exists(name, root):
            importlib.import_module(name)
    for ruleset in registry.all_rulesets():
        register_gym_id(ruleset)


def make_aec(name: str, **kwargs):
    """The PettingZoo AEC env of a registered ruleset, wrapped to enforce the call order."""
    from .pettingzoo_env import aec_env_factory  # lazy: importing pettingzoo is not free

    env, _ = aec_env_factory(name)
    return env(**kwargs)


_load_rulesets()
