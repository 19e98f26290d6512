"""TaskGame (envs.engine.taskgame): the task loop both rulesets share, seen through a countdown game and both rulesets.

The countdown: a counter starts at 3; each decision takes 1 or 2 off it; at 0 the game is over.
"""
from types import SimpleNamespace
from typing import NamedTuple

import numpy as np
import pytest

from envs.cityfight.game import CityfightGame
from envs.engine.contract import IllegalActionError
from envs.engine.dice import Dice, SeededDice
from envs.engine.flow import Flow
from envs.engine.taskgame import TaskGame
from envs.rifles.game import RiflesGame

FLOW = Flow()
START = 3


class Count(NamedTuple):
    left: int


@FLOW.task(Count)
def count(game, left):
    game.left = left
    game.log.add("count", f"{left} left")
    if left:
        game.decide("take")


@FLOW.answer("take")
def take(game, ctx, name, n):
    game.push(Count(game.left - n))


def _scenario(path):
    return SimpleNamespace(path=path, tables=None, options={"fast": False, "loud": True})


class Countdown(TaskGame):
    """The smallest TaskGame: its hooks record what the loop asked of them."""

    FLOW = FLOW
    CODEC = SimpleNamespace(decoded=[("take", (1,)), ("take", (2,))])   # ActionCodec.decoded: action -> (name, args)
    config = SimpleNamespace(scenario_path=lambda name: name or "countdown", load_scenario=_scenario)
    legal = SimpleNamespace(mask=lambda game: np.array([True, game.left >= 2]),
                            why=lambda game, action: f"only {game.left} left",
                            label=lambda game, action: f"take {action + 1}")
    render = SimpleNamespace(text=lambda game, side: f"{game.left} left", rgb=None)
    encode = staticmethod(lambda game, side: np.array([game.left], dtype=np.float32))
    view_of = staticmethod(lambda game, side: ("view", side, game.left))

    def __init__(self, scenario, dice: Dice, options: dict | None = None, *, _setup: bool = True) -> None:
        super().__init__(scenario, dice, options)
        self.after_tasks = 0
        if _setup:
            self.decision, self.tasks, self.left = None, [], None
            self.push(Count(START))
            self.run()

    @property
    def game_over(self) -> bool:
        return self.left == 0

    @property
    def current_side(self):
        return None if self.game_over else 0

    def check_invariants(self) -> None:
        assert self.count >= 0

    def decide(self, kind: str, **ctx) -> None:
        self.decision = (kind, ctx)

    def after_task(self) -> None:
        self.after_tasks += 1

    def returns(self):
        return (1.0,) if self.game_over else (0.0,)

    def to_dict(self) -> dict:
        return {"scenario": self.scenario.path, "options": dict(self.options), "dice": self.dice.to_dict(),
                "left": self.left, "decision": self.decision, "tasks": [FLOW.save(t) for t in self.tasks]}

    @classmethod
    def from_dict(cls, data: dict, dice: Dice | None = None) -> "Countdown":
        game = cls._without_setup(data, dice)
        game.left, game.decision, game.tasks = data["left"], data["decision"], [FLOW.load(t) for t in data["tasks"]]
        return game


class Prepared(Countdown):
    """A countdown whose rules build each decision's mask themselves (as Cityfight's turn.py does)."""

    def take_prepared_mask(self):
        return None if self.decision is None else np.array([True, False])


# Options ---------------------------------------------------------------------------------------------
def test_an_unknown_option_is_an_error_naming_the_known_ones():
    with pytest.raises(ValueError) as error:
        Countdown.new(colour=True)
    assert str(error.value) == "unknown option 'colour'; known: fast, loud"


def test_options_override_the_scenario_and_are_toggles_by_default():
    assert Countdown.new(fast=1, loud=0).options == {"fast": True, "loud": False}
    assert Countdown.new(fast="yes").options == {"fast": True, "loud": True}


def test_the_rulesets_name_their_known_options():
    with pytest.raises(ValueError) as error:
        RiflesGame.new(colour=True)
    assert str(error.value) == ("unknown option 'colour'; known: advanced_urban, enemy_rolls_as_choices, "
                                "exit_allowed, exposed_movement")
    with pytest.raises(ValueError) as error:
        CityfightGame.new(colour=True)
    assert str(error.value) == ("unknown option 'colour'; known: allow_under_announce, force_level, night, smoke, "
                                "weather")


def test_rifles_options_are_toggles():
    assert RiflesGame.new(advanced_urban=1).options["advanced_urban"] is True


def test_cityfight_keeps_force_level_and_weather_as_given_and_checks_them():
    game = CityfightGame.new(force_level="company", weather="fog", night=1)
    assert (game.options["force_level"], game.options["weather"], game.options["night"]) == ("company", "fog", True)
    with pytest.raises(ValueError) as error:
        CityfightGame.new(weather="hail")
    assert str(error.value) == "weather must be one of ('clear', 'rain', 'fog', 'snow') (or None: the scenario's)"
    with pytest.raises(ValueError) as error:
        CityfightGame.new(force_level="platoon")
    assert str(error.value) == "force_level must be one of ('section', 'company')"


# The loop --------------------------------------------------------------------------------------------
def test_new_loads_the_named_scenario_with_seeded_dice():
    game = Countdown.new("drill", seed=7)
    assert game.scenario.path == "drill"
    assert game.dice.to_dict() == SeededDice(7).to_dict()
    assert Countdown.new().scenario.path == "countdown"


def test_run_stops_at_a_decision_after_checking_every_task():
    game = Countdown.new()
    assert (game.left, game.decision, game.after_tasks) == (3, ("take", {}), 1)
    assert [str(e) for e in game.setup_events] == ["3 left"] and game.log.take() == []   # the set-up's, not apply's


def test_apply_answers_the_decision_runs_on_and_returns_what_it_caused():
    game = Countdown.new()
    game.log.take()
    events = game.apply(1)
    assert [str(e) for e in events] == ["1 left"]
    assert (game.left, game.after_tasks) == (1, 2)
    assert game.legal_action_mask().tolist() == [True, False]
    assert [str(e) for e in game.apply(0)] == ["0 left"]
    assert game.game_over and game.is_over and game.returns() == (1.0,)


def test_an_illegal_action_is_refused_and_changes_nothing():
    game = Countdown.new()
    game.apply(1)
    with pytest.raises(IllegalActionError) as error:
        game.apply(1)
    assert str(error.value) == "action 1 (take 2) is illegal: only 1 left"
    assert (game.left, game.decision) == (1, ("take", {}))


def test_the_mask_is_cached_until_the_next_answer():
    game = Countdown.new()
    mask = game.legal_action_mask()
    assert game.legal_action_mask() is mask
    game.apply(0)
    assert game.legal_action_mask() is not mask


def test_a_mask_the_rules_prepared_is_used_instead_of_the_legal_one():
    game = Prepared.new()
    assert game.left == 3 and game.legal_action_mask().tolist() == [True, False]


def test_the_protocol_delegates_to_the_rulesets_parts():
    game = Countdown.new()
    assert game.observation(0).tolist() == [3.0]
    assert game.view(0) == ("view", 0, 3)
    assert game.action_label(1) == "take 2"
    assert game.render_text() == "3 left"


def test_clone_copies_the_game_on_a_branched_dice_stream():
    game = Countdown.new(seed=3, fast=True)
    copy = game.clone()
    assert copy is not game and copy.to_dict()["left"] == 3 and copy.options == game.options
    assert copy.decision == game.decision and copy.tasks == game.tasks
    assert copy.dice.to_dict() != game.dice.to_dict()
    assert game.dice.d6() == SeededDice(3).d6()          # cloning never shifts the game's own dice


def test_a_task_game_without_its_parts_names_them():
    class Bare(Countdown):
        CODEC = legal = None
    with pytest.raises(TypeError, match="Bare must set CODEC, legal"):
        Bare(_scenario("countdown"), SeededDice(0))
