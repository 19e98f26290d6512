"""The decider-sequence benchmark (tests/generic/decider_sequence.py) finds a sequence that tells a side what its
observation hides, and does not count sequences that part after something the side saw (CF-HID-4, UW-HID-6)."""
from __future__ import annotations

import numpy as np

from envs import registry
from tests import toy_game
from tests.generic import decider_sequence

SEEDS = list(range(12))


class BlindRace(toy_game.ToyRaceState):
    """The toy race with no "my turn" flag in the observation: who decides is known only from the sequence."""

    def observation(self, side: int) -> np.ndarray:
        obs = super().observation(side)
        obs[3] = 0.0
        return obs


class LeakyRace(BlindRace):
    """A defect on purpose: red, when its secret lucky number is 6 (TOY-4), is passed over silently at the end of
    blue's turn, so blue is asked again at once and learns red's number from the sequence alone."""

    def _end_turn(self) -> None:
        if self.current_side == 0 and self.lucky[1] == 6 and self.turn < self.turn_limit:
            self.turn += 1
            self.ap = toy_game.AP_PER_TURN
            return
        super()._end_turn()


def race_ruleset(state_type: type) -> toy_game.ToyRace:
    class Race(toy_game.ToyRace):
        def new_game(self, scenario=None, seed=0, dice=None, **options):
            return state_type.from_dict(toy_game.new_game(scenario, seed, dice, **options).to_dict())

        def hidden_variants(self, state, side: int):
            return [state_type.from_dict(v.to_dict()) for v in toy_game.hidden_variants(state, side)]

    Race.state_type = state_type
    return Race()


def tally(state_type: type) -> decider_sequence.Tally:
    ruleset, total = race_ruleset(state_type), decider_sequence.Tally()
    for seed in SEEDS:
        total = total.add(decider_sequence.check_game(ruleset, "random", seed))
    return total


def test_CF_HID_4_the_check_finds_a_turn_passed_over_on_a_hidden_fact():
    found = tally(LeakyRace)
    assert found.checked > 0 and found.differing > 0, found
    assert "blue" in found.examples[0]


def test_the_check_counts_nothing_in_a_race_without_the_defect():
    # Red's hidden lucky number changes red's scores (TOY-4), so the race may end sooner in a variant: the deciders
    # part, but blue saw a different score.
    found = tally(BlindRace)
    assert found.checked > 0 and found.differing == 0, found


def test_UW_HID_6_deciders_that_part_after_a_public_removal_are_not_counted():
    # Urban War, scripted play, seed 83: at team_b's decision 283 the variant with other dice removes B1 with A4's
    # shot (decision 295), so A5 has no target and the game ends at 299, where the real game asks team_a to shoot.
    # Both games end with B1 removed (the same observation), but team_b saw the removal four decisions sooner.
    ruleset = registry.get("urbanwar")
    actions = decider_sequence.played_actions(ruleset, "scripted", 83)
    state = ruleset.new_game(seed=83)
    for action in actions[:283]:
        state.apply(action)
    assert decider_sequence.told_apart_before(ruleset, state.to_dict(), 0, actions, 1, 283, 299)
    assert not decider_sequence.told_apart_before(ruleset, state.to_dict(), 0, actions, 1, 283, 295)
    assert decider_sequence.check_game(ruleset, "scripted", 83).differing == 0
