"""Renderings (fog of war) and the agents' plumbing."""
import numpy as np

from agents.base import decide
from envs import registry

from .builders import office


def test_side_rendering_shows_own_elements_only():
    game = office(seed=2)
    umpire, attacker = game.render_text(None), game.render_text(0)
    assert "DL" in umpire and "DL" not in attacker and "AL" in attacker
    frame = game.render_rgb(0)
    assert frame.dtype == np.uint8 and frame.ndim == 3 and frame.shape[2] == 3


def test_scripted_doctrine_plays_legal_actions_for_both_sides():
    factories = registry.agents("cityfight")
    for seed in range(2):
        game = office(seed)
        from envs.engine.dice import SeededDice
        game.dice = SeededDice(seed)
        agents = [factories["scripted"](0, seed), factories["scripted"](1, seed)]
        while game.current_side is not None:
            game.apply(decide(agents[game.current_side], game, game.current_side))
        assert game.winner in (0, 1, 2)
