"""The "Block Six" scenario as loaded (rules catalog §15 Urban: RU-SCN-1..4, RU-VAR-1/2, RU-TAB-1)."""
from pathlib import Path

import numpy as np
import pytest

from envs.engine.dice import DiceError, ScriptedDice
from envs.rifles import config, fire
from envs.rifles.game import RiflesGame
from envs.rifles.state import FIRST, GROUND, QUALITY
from envs.rifles.tasks import EndPhase, Reveal

from .builders import act, dice, enemy, fresh, only, player, put, where


def new(*faces, **options):
    return RiflesGame.new("block_six", dice=ScriptedDice(list(faces)), **options)


def run_end_phase(game):
    """Run the End Phase task on its own (RB-TURN-6), as the flow does after the Enemy Phase."""
    game.decision = None
    game.push(EndPhase())
    game.run()


# RU-SCN-1: setup --------------------------------------------------------------------------------
def test_RU_SCN_1_setup_positions_markers_and_strongpoint():
    game = new()
    assert (game.turn, game.phase, game.decision, game.outcome) == (1, "player", ("player", {}), None)
    assert {g.name: g.position for g in game.players} == {
        "A": (1, 0, GROUND), "B": (1, where(game, "1a")[1], GROUND), "C": (1, 0, GROUND)}
    assert [(m.name, m.stripe) for m in game.markers] == [("E1", 3), ("E2", 4), ("E3", 5), ("E4", 5), ("E5", 6)]
    assert [e.name for e in game.enemies] == ["S"]
    s = game.enemies[0]
    assert s.position == (4, where(game, "4b")[1], GROUND) and game.feature_by_id("4b").sealed
    layout = {f.fid: (f.stripe, f.kind, f.sealed, f.complex is not None)
              for stripe in game.places[1:] for f in stripe[1:]}
    assert layout == {
        "1a": (1, "wall", False, False),
        "2a": (2, "building", False, False), "2b": (2, "wall", False, False),
        "3a": (3, "rubble", False, False), "3b": (3, "wall", False, False),
        "4a": (4, "ms", False, True), "4b": (4, "building", True, False),
        "5a": (5, "ms", False, True), "5b": (5, "rubble", False, False),
        "6a": (6, "ms", False, False), "6b": (6, "wall", False, False),
    }
    assert game.dice.remaining == 0                       # no marker within range 1 of Stripe 1: nothing to reveal


def test_RU_SCN_1_setup_runs_the_reveal_sweep(tmp_path: Path):
    text = Path(config.scenario_path("block_six")).read_text()
    assert "{id: E1, stripe: 3}" in text
    near = tmp_path / "block_six_near.yaml"
    near.write_text(text.replace("{id: E1, stripe: 3}", "{id: E1, stripe: 2}"))
    with pytest.raises(DiceError):
        RiflesGame.new(str(near), dice=ScriptedDice([]))  # the sweep wants a die for E1
    game = RiflesGame.new(str(near), dice=ScriptedDice([1]))
    assert game.markers[0] is None and game.dice.remaining == 0
    assert game.decision == ("player", {})


# RU-SCN-2: the player's squad ------------------------------------------------------------------
def test_RU_SCN_2_player_groups_units_ap_recon():
    game = new()
    q = {v: k for k, v in QUALITY.items()}
    squad = {g.name: [(u.name, q[u.quality], u.weapon, u.leader) for u in g.units] for g in game.players}
    assert squad == {
        "A": [("A1", "veteran", "smg", True), ("A2", "regular", "smg", False),
              ("A3", "regular", "rifle", False), ("A4", "regular", "rifle", False)],
        "B": [("B1", "regular", "rifle", True), ("B2", "regular", "lmg", False), ("B3", "recruit", "rifle", False)],
        "C": [("C1", "veteran", "rifle", False), ("C2", "recruit", "rifle", False)],
    }
    assert {g.name: g.demo_charges for g in game.players} == {"A": 2, "B": 0, "C": 0}
    assert all(g.sewers for g in game.players)
    assert game.ap == game.scenario.ap == 4
    assert game.recon == game.scenario.recon_points == 2
    assert game.bap == 2                                  # A1 and B1 are Leaders (RB-TURN-2)
    assert game.scenario.turns == 10 and game.start_units == 9


# RU-SCN-3: the enemy -------------------------------------------------------------------------
def test_RU_SCN_3_enemy_quality_posture_reveal_table_strongpoint():
    game = new()
    assert game.scenario.enemy_quality == "regular" and game.scenario.posture == 0
    assert game.scenario.reveal_table == {
        1: (), 2: (("rifle", False),) * 2, 3: (("rifle", False),) * 2,
        4: (("rifle", False),) * 3 + (("smg", True),), 5: (("lmg", False), ("rifle", False)),
        6: (("hmg", False), ("rifle", False))}
    s = game.enemies[0]
    assert [(u.name, u.weapon, u.quality) for u in s.units] == [("S1", "hmg", QUALITY["regular"]), ("S2", "rifle", QUALITY["regular"])]


def test_RU_SCN_3_revealed_groups_are_regular():
    game = fresh(markers=True)
    put(game, "A", 2)
    game.decision = None
    game.push(Reveal(0, -1, 0))                       # E1 on Stripe 3
    dice(game, 6)
    game.run()
    assert game.decision[0] == "place"
    e1 = game.enemies[-1]
    assert [(u.weapon, u.quality) for u in e1.units] == [("hmg", QUALITY["regular"]), ("rifle", QUALITY["regular"])]


@pytest.mark.parametrize("face, order", [(1, "cover"), (5, "advance"), (6, "close_combat")])
def test_RU_SCN_3_strongpoint_is_bound_to_its_sealed_building(face, order):
    game = fresh()
    only(game, "A", "S")
    a = player(game, "A")
    a.in_sewer = True                                     # no visible target: @Attack would advance anyone else
    s = game.enemies[0]
    act(game, "end_phase")
    assert game.decision == ("activate", {"options": [s.gid]})
    dice(game, face)
    events = act(game, "e_activate", s.gid)
    assert f"order: {order}" in next(e.text for e in events if e.kind == "order")
    assert s.position == (4, where(game, "4b")[1], GROUND)
    assert game.turn == 2 and game.decision == ("player", {})
    assert game.dice.remaining == 0


# RU-SCN-4: victory ---------------------------------------------------------------------------
@pytest.mark.parametrize("level", [GROUND, FIRST])
def test_RU_SCN_4_win_at_the_end_phase_holding_5a(level):
    game = fresh()
    only(game, "A")
    put(game, "A", "5a", level)
    game.refresh()
    act(game, "end_phase")
    assert game.outcome == 1 and game.returns() == (1.0, -1.0)
    assert game.is_over and game.turn == 1


def test_RU_SCN_4_win_is_checked_only_at_the_end_phase():
    game = fresh()
    only(game, "A")
    a = put(game, "A", "4a", FIRST)
    game.refresh()
    act(game, "activate", a.gid)
    act(game, "hop")
    assert a.position == (5, where(game, "5a")[1], FIRST)
    assert game.outcome is None and game.decision == ("player", {})
    act(game, "end_phase")
    assert game.outcome == 1


def test_RU_SCN_4_win_in_5a_turned_to_rubble():
    game = fresh()
    only(game, "A")
    game.feature_by_id("5a").kind = "rubble"
    put(game, "A", "5a")
    run_end_phase(game)
    assert game.outcome == 1


@pytest.mark.parametrize("where_enemy", [("4a", GROUND), ("4a", FIRST), ("5a", FIRST)])
def test_RU_SCN_4_no_win_with_an_enemy_in_4a_or_5a(where_enemy):
    game = fresh()
    only(game, "A", "X")
    put(game, "A", "5a", GROUND)
    enemy(game, "X", ["rifle"], where_enemy[0], level=where_enemy[1])
    run_end_phase(game)
    assert game.outcome is None and game.turn == 2 and game.decision == ("player", {})


def test_RU_SCN_4_enemy_elsewhere_does_not_stop_the_win():
    game = fresh()
    only(game, "A", "X")
    put(game, "A", "5a", GROUND)
    enemy(game, "X", ["rifle"], "5b")
    run_end_phase(game)
    assert game.outcome == 1


def test_RU_SCN_4_no_win_when_engaged_without_ok_unit_in_open_or_in_sewer():
    game = fresh()
    only(game, "A")
    a = put(game, "A", "5a")
    a.engaged_with = 0                                     # Engaged (with the Strongpoint's slot, for the test)
    assert not game.hold_objective()
    a.engaged_with = -1
    for u in a.units:
        u.hits = 1                                         # all Suppressed
    assert not game.hold_objective()
    a.units[3].hits = 0
    assert game.hold_objective()
    put(game, "A", 5)                                      # the Open of Stripe 5 is not 5a
    assert not game.hold_objective()
    put(game, "A", 5)
    a.in_sewer = True
    assert not game.hold_objective()
    run_end_phase(game)
    assert game.outcome is None and game.turn == 2


def test_RU_SCN_4_loss_at_the_end_phase_of_turn_ten():
    game = fresh()
    only(game, "A")
    game.turn = 9
    run_end_phase(game)
    assert game.outcome is None and game.turn == 10
    events = act(game, "end_phase")
    assert game.outcome == -1 and game.returns() == (-1.0, 1.0)
    assert events[-1].kind == "game_over" and "time is up" in events[-1].text


def test_RU_SCN_4_win_on_turn_ten_beats_the_time_out():
    game = fresh()
    only(game, "A")
    game.turn = 10
    put(game, "A", "5a")
    run_end_phase(game)
    assert game.outcome == 1


def test_RU_SCN_4_loss_at_once_when_no_player_unit_is_left():
    game = fresh()
    only(game, "A", "X")
    a = player(game, "A")
    x = enemy(game, "X", ["hmg"], 1)
    game.decision = None
    a.units = a.units[:1]
    a.units[0].hits = 1
    dice(game, 6, 6, 6, 1)                                 # three hits; the first (USN 1) eliminates A1
    fire.resolve(game, x, a, 0)
    assert not a.alive and game.dice.remaining == 0
    game.check_at_once()
    assert game.outcome == -1


# RU-VAR-1 / RU-TAB-1: advanced urban -------------------------------------------------------------
def test_RU_VAR_1_advanced_urban_rolls_2a_and_6a_at_setup():
    assert config.load_scenario(config.scenario_path("block_six")).options["advanced_urban"] is False
    game = new(1, 6, advanced_urban=True)
    assert game.options["advanced_urban"] is True
    assert game.feature_by_id("2a").kind == "building"
    assert game.feature_by_id("6a").kind == "rubble"
    rolls = [(e.text, e.dice, e.rule) for e in game.setup_events if e.kind == "advanced_urban"]
    assert rolls == [("2a is a building", (1,), "RU-ADV-1"), ("6a is a rubble", (6,), "RU-ADV-1")]
    assert game.dice.remaining == 0


def test_RU_VAR_1_setup_rolls_are_not_the_first_actions_events_and_reach_the_reset_info():
    from envs.gym_env import RubbleEnv
    game = RiflesGame.new("block_six", seed=3, advanced_urban=True)
    first = game.apply(int(np.flatnonzero(game.legal_action_mask())[0]))
    assert all(e.kind != "advanced_urban" for e in first) and len(game.setup_events) == 2
    _, info = RubbleEnv("rifles-urban", umpire_events=True, advanced_urban=True).reset(seed=3)
    assert [e.kind for e in info["events"]][:2] == ["advanced_urban", "advanced_urban"]


def test_RU_VAR_1_off_by_default_rolls_nothing():
    game = new()
    assert not [e for e in game.log.events if e.kind == "advanced_urban"]
    assert game.feature_by_id("2a").kind == "building" and game.feature_by_id("6a").kind == "ms"


def test_RU_VAR_1_unknown_option_is_refused():
    with pytest.raises(ValueError):
        new(advanced_urbn=True)


@pytest.mark.parametrize("face, kind", [(1, "building"), (2, "building"), (3, "building"), (4, "ms"), (5, "ms"), (6, "rubble")])
def test_RU_TAB_1_advanced_building_roll(face, kind):
    game = new(face, face, advanced_urban=True)
    assert game.feature_by_id("2a").kind == kind and game.feature_by_id("6a").kind == kind
    assert game.tables.advanced_building == ((3, "building"), (5, "ms"), (6, "rubble"))


def test_RU_VAR_2_exposed_movement_on_by_default_off_by_option():
    assert new().options["exposed_movement"] is True
    on = fresh()
    only(on, "A")
    act(on, "activate", player(on, "A").gid)
    dice(on, 1, 1)
    events = act(on, "move", 1, 0, 0)
    assert [e.kind for e in events] == ["move", "exposed"]
    off = fresh(exposed_movement=False)
    only(off, "A")
    act(off, "activate", player(off, "A").gid)
    dice(off)
    events = act(off, "move", 1, 0, 0)
    assert [e.kind for e in events] == ["move"]
    assert player(off, "A").stripe == 2
