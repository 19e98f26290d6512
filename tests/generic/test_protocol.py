"""The GameState protocol, checked on every registered ruleset: masks, determinism, saves, clones, hidden info."""
from __future__ import annotations

import pytest

from tests import checkers

MASK_STATES = checkers.env_int("RUBBLE_MASK_STATES", 60)
SEEDS = (0, 1, 2)


def test_mask_exact_both_ways(ruleset):
    for state in checkers.sample_states(ruleset, seed=11, count=MASK_STATES):
        checkers.check_mask_exact(ruleset, state)


def test_arrays_have_declared_shapes_and_are_fresh(ruleset):
    for state in checkers.sample_states(ruleset, seed=12, count=MASK_STATES):
        for side in range(len(ruleset.sides)):
            checkers.check_arrays(ruleset, state, side)


def test_every_action_has_a_label(ruleset):
    for state in checkers.sample_states(ruleset, seed=14, count=10):
        checkers.check_labels(ruleset, state)


@pytest.mark.parametrize("seed", SEEDS)
def test_same_seed_same_game(ruleset, seed):
    for scenario in checkers.scenario_names(ruleset):
        checkers.check_determinism(ruleset, seed, scenario)


@pytest.mark.parametrize("seed", SEEDS)
def test_save_restore_mid_game(ruleset, seed):
    for split in (0, 3, 17):
        checkers.check_save_restore(ruleset, seed, split)


@pytest.mark.parametrize("seed", SEEDS)
def test_clone_does_not_alias(ruleset, seed):
    for split in (0, 5, 23):
        checkers.check_clone(ruleset, seed, split)


def test_hidden_information(ruleset):
    checked = sum(checkers.check_hidden_information(ruleset, state)
                  for state in checkers.sample_states(ruleset, seed=13, count=MASK_STATES))
    assert checked > 0, "hidden_variants never returned a variant"


def test_who_decides_next_reveals_no_hidden_unit(ruleset):
    """CF-HID-4 / UW-HID-6 for every ruleset: games that differ only in what the acting side may not know give it
    the same next decider (the AEC agent_selection sequence), and the same observation and mask when it decides."""
    checked, leaks = checkers.count_prompt_leaks(ruleset, games=checkers.env_int("RUBBLE_PROMPT_GAMES", 2), seed=31)
    assert checked > 0 and leaks == 0
