"""The ruleset contract (envs/engine/contract.py) and the lazy registry (envs/registry.py)."""
from __future__ import annotations

import json
import subprocess
import sys

import pytest

from envs import registry
from envs.engine.contract import GameState, Ruleset
from tests import toy_game


def test_a_ruleset_class_without_a_method_is_abstract_by_name():
    class NoVariants(Ruleset):
        name, gym_id, sides, num_actions = "x", "rubble/X-v0", ("a", "b"), 3
        observation_size, default_scenario, state_type = 4, "s", toy_game.ToyRaceState

        def scenarios(self): return {}
        def new_game(self, scenario=None, seed=0, dice=None, **options): return None
        def build_position(self, spec, dice=None, **options): return None
        def turn_limit(self, state): return 1
    with pytest.raises(TypeError, match="hidden_variants"):
        NoVariants()


def test_a_ruleset_without_its_metadata_names_the_missing_field():
    class NoSize(toy_game.ToyRace):
        observation_size = None
    with pytest.raises(TypeError, match="must set observation_size"):
        NoSize()


def test_a_state_without_invariants_cannot_be_made_and_the_error_names_them():
    body = {k: v for k, v in vars(toy_game.ToyRaceState).items() if k not in ("check_invariants", "__dict__", "__weakref__")}
    partial = type("Partial", (GameState,), body)
    with pytest.raises(TypeError, match="check_invariants"):
        partial(toy_game.SeededDice(0))


def test_registering_imports_nothing_and_get_loads_on_first_use(monkeypatch):
    monkeypatch.setattr(registry, "_ENTRIES", dict(registry._ENTRIES))
    registry.register("never-loaded", "rubble/NeverLoaded-v0", "rubble_no_such_package.ruleset:Missing")
    assert "never-loaded" in registry.names()
    with pytest.raises(ModuleNotFoundError, match="rubble_no_such_package"):
        registry.get("never-loaded")


def test_an_entry_point_that_is_not_a_ruleset_is_refused(monkeypatch):
    monkeypatch.setattr(registry, "_ENTRIES", dict(registry._ENTRIES))
    registry.register("not-a-ruleset", "rubble/NotARuleset-v0", "json:loads")
    with pytest.raises(TypeError, match="not an envs.engine.contract.Ruleset"):
        registry.get("not-a-ruleset")


def test_a_ruleset_registered_under_another_name_is_refused(monkeypatch):
    monkeypatch.setattr(registry, "_ENTRIES", dict(registry._ENTRIES))
    registry.register("mislabelled", "rubble/Mislabelled-v0", "tests.toy_game:ToyRace")
    with pytest.raises(ValueError, match="registered as 'mislabelled'"):
        registry.get("mislabelled")


def test_sides_by_name_number_or_default():
    rs = registry.get("cityfight")
    assert [rs.side_number(s) for s in ("attacker", "defender", 1, "0", None)] == [0, 1, 1, 0, 0]
    for bad in ("umpire", 2, "7"):
        with pytest.raises(ValueError, match="cityfight"):
            rs.side_number(bad)


def test_import_envs_loads_no_ruleset_adapter_pettingzoo_or_torch():
    code = ("import sys, json, envs; print(json.dumps(sorted(m for m in sys.modules if m.startswith("
            "('envs', 'agents', 'training', 'pettingzoo', 'torch')))))")
    loaded = json.loads(subprocess.run([sys.executable, "-c", code], check=True, capture_output=True,
                                       text=True).stdout)
    assert loaded == ["envs", "envs.engine", "envs.engine.contract", "envs.engine.dice", "envs.engine.events",
                      "envs.registry"]


def test_gymnasium_make_loads_the_ruleset_on_first_use():
    import gymnasium
    env = gymnasium.make("rubble/RiflesDarkness-v0", opponent="random")
    obs, info = env.reset(seed=3)
    assert obs.shape == env.observation_space.shape and info["action_mask"].any()
