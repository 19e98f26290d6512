"""The generic suite runs over every registered ruleset plus the toy one (registered here, never by `import envs`)."""
from __future__ import annotations

import os

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")   # render_mode="human" opens its pygame window headless

import envs  # noqa: F401  (registers the real rulesets)
from envs import registry
from tests import toy_game

toy_game.register()


def pytest_generate_tests(metafunc) -> None:
    """Parametrize every test taking `ruleset` over the whole registry, named by ruleset."""
    if "ruleset" in metafunc.fixturenames:
        rulesets = registry.all_rulesets()
        metafunc.parametrize("ruleset", rulesets, ids=[r.name for r in rulesets])
