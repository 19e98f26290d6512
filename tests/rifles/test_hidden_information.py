"""Hidden information (rules catalog §14, RB-HID-1..5) and the generic suite's hidden_variants hook."""
from __future__ import annotations

import pytest

import envs  # noqa: F401  (registers the rulesets)
from agents.scripted.rifles import ScriptedEnemy
from envs import registry
from envs.engine.dice import ScriptedDice
from envs.rifles import enemy as enemy_rules
from envs.rifles.actions import CODEC
from envs.rifles.game import RiflesGame
from envs.rifles.hidden import hidden_variants, sewer_variants, with_other_dice
from envs.rifles.state import ENEMY, PLAYER
from tests import checkers

from .builders import act, dice, enemy, fresh, only, player, put

RIFLES = registry.get("rifles-urban")


# Helpers ------------------------------------------------------------------------------------------
def obs(game, side: int) -> bytes:
    return game.observation(side).tobytes()


def mask(game) -> bytes:
    return game.legal_action_mask().tobytes()


def scripted_choice(game, seed: int = 0) -> int:
    return ScriptedEnemy(seed=seed).act(game.observation(ENEMY), game.legal_action_mask(), game.view(ENEMY))


def without_dice(game) -> dict:
    data = game.to_dict()
    data.pop("dice")
    return data


def sewer_game(stripe: int, **options):
    """C below ground on `stripe` (it entered at a sewer entrance and crawled), B visible on Stripe 6,
    enemy X (two Rifles) on Stripe 4."""
    game = fresh(**options)
    x = enemy(game, "X", ["rifle", "rifle"], 4)
    only(game, "B", "C", "X")
    put(game, "B", 6)
    c = put(game, "C", stripe)
    c.in_sewer = True
    game.refresh()
    return game, player(game, "B"), c, x


# RB-HID-1 -----------------------------------------------------------------------------------------
def change_sealed(game):
    game.feature_by_id("4b").sealed = False


def change_rubble(game):
    game.feature_by_id("2a").kind = "rubble"


def change_enemy_state(game):
    game.enemies[0].units[0].hits = 1


def change_engaged(game):
    s, b = game.enemies[0], player(game, "B")
    s.engaged_with, b.engaged_with = b.gid, s.gid


def change_marker(game):
    game.markers[0] = None


def change_turn(game):
    game.turn += 1


def change_ap(game):
    game.ap -= 1


def change_bap(game):
    game.bap -= 1


def change_recon(game):
    game.recon -= 1


def change_charges(game):
    player(game, "A").demo_charges -= 1


def change_player_unit(game):
    player(game, "C").units[1].hits = 1


@pytest.mark.parametrize("change", [change_sealed, change_rubble, change_enemy_state, change_engaged, change_marker,
                                    change_turn, change_ap, change_bap, change_recon, change_charges,
                                    change_player_unit])
def test_RB_HID_1_both_sides_see_public_state(change):
    game = fresh(markers=True)
    before = obs(game, PLAYER), obs(game, ENEMY)
    change(game)
    game.refresh()
    assert obs(game, PLAYER) != before[0]
    assert obs(game, ENEMY) != before[1]


def test_RB_HID_1_rolled_dice_are_in_the_events():
    game = fresh()
    x = enemy(game, "X", ["rifle", "rifle"], 2)
    only(game, "B", "X")
    act(game, "activate", player(game, "B").gid)
    dice(game, 2, 3, 3, 2)                                  # B1, B2 (LMG: 2 dice), B3 at TN 4: no hit
    events = act(game, "fire", x.gid, 0)
    fire = [e for e in events if e.kind == "fire"]
    assert len(fire) == 1 and fire[0].dice == (2, 3, 3, 2)


# RB-HID-2 -----------------------------------------------------------------------------------------
def test_RB_HID_2_markers_hold_no_contents():
    game = fresh(markers=True)
    data = game.to_dict()
    assert [sorted(m) for m in data["markers"]] == [["name", "slot", "stripe"]] * 5
    assert {tuple(sorted(m.__slots__)) for m in game.markers} == {("name", "slot", "stripe")}


def test_RB_HID_2_contents_are_decided_by_the_reveal_die():
    games, before = [], []
    for die in (1, 2, 6):
        game = fresh(markers=True)
        put(game, "C", 2)
        games.append(game)
        before.append((without_dice(game), obs(game, PLAYER), obs(game, ENEMY)))
        assert before[-1] == before[0]                      # the same game before the reveal
        act(game, "activate", player(game, "C").gid)
        dice(game, die)
        act(game, "recon_reveal", 1)                        # E2 on Stripe 4
    assert games[0].markers[1] is None and len(games[0].enemies) == 1     # 1: nothing, removed
    assert [u.weapon for u in games[1].enemies[1].units] == ["rifle", "rifle"]
    assert [u.weapon for u in games[2].enemies[1].units] == ["hmg", "rifle"]


# RB-HID-3 -----------------------------------------------------------------------------------------
def test_RB_HID_3_enemy_sees_that_a_group_is_below_not_where():
    game, b, c, x = sewer_game(3)
    enemy_view = game.view(ENEMY)
    assert c not in enemy_view.foe_groups() and enemy_view.group(PLAYER, c.gid) is None
    assert game.view(PLAYER).group(PLAYER, c.gid) is c
    moved = [sewer_game(s)[0] for s in (1, 5)]
    assert obs(moved[0], ENEMY) == obs(moved[1], ENEMY) == obs(game, ENEMY)
    assert obs(moved[0], PLAYER) != obs(moved[1], PLAYER)           # the player knows where C is
    up = sewer_game(3)[0]
    player(up, "C").in_sewer = False
    assert obs(up, ENEMY) != obs(game, ENEMY)                       # below ground or not is public


def test_RB_HID_3_enemy_view_hides_an_active_sewer_group():
    game, b, c, x = sewer_game(3)
    act(game, "activate", c.gid)
    assert game.view(ENEMY).active is None
    assert game.view(PLAYER).active is c


def test_RB_HID_3_sewer_groups_count_for_no_target():
    game, b, c, x = sewer_game(4)                           # C right under X
    put(game, "B", 2)                                       # range 2
    assert enemy_rules.targets(game, x) == [b.gid]
    c.in_sewer = False
    assert enemy_rules.targets(game, x) == [c.gid, b.gid]


def test_RB_HID_3_sewer_groups_count_for_no_distance_or_activation_order():
    game = fresh()
    x = enemy(game, "X", ["rifle"], 2)
    y = enemy(game, "Y", ["rifle"], 5)
    only(game, "B", "C", "X", "Y")
    put(game, "B", 1)
    c = put(game, "C", 5)
    c.in_sewer = True
    assert enemy_rules.nearest_distance(game, y) == 4
    act(game, "end_phase")
    assert game.decision[1]["options"] == [x.gid, y.gid]
    assert CODEC.decode(scripted_choice(game)) == ("e_activate", (x.gid,))


def test_RB_HID_3_sewer_groups_are_never_charged():
    game, b, c, x = sewer_game(4)
    x.units.extend(type(x.units[0])(f"X{i}", ENEMY, 1, "rifle") for i in (3, 4))
    assert enemy_rules.cc_targets(game, x) == []                    # C under X, B at range 2
    c.in_sewer = False
    assert enemy_rules.cc_targets(game, x) == [c.gid]


def test_RB_HID_3_enemy_decisions_do_not_depend_on_the_sewer_stripe():
    seen = []
    for stripe in range(1, 7):
        game, b, c, x = sewer_game(stripe)
        act(game, "end_phase")
        first = (obs(game, ENEMY), mask(game), game.decision, scripted_choice(game))
        dice(game, 4)                                       # @Advance
        act(game, "e_activate", x.gid)
        second = (obs(game, ENEMY), mask(game), game.decision, scripted_choice(game))
        seen.append((first, second))
    assert all(s == seen[0] for s in seen)
    assert seen[0][1][2] == ("advance", {"group": 1, "options": [0, 1]})   # toward B only
    assert CODEC.decode(seen[0][1][3]) == ("e_advance", (2,))


# RB-HID-4 -----------------------------------------------------------------------------------------
def test_RB_HID_4_games_differing_only_in_dice_look_the_same():
    games = [RiflesGame.new(seed=seed) for seed in (1, 2, 3)]
    assert games[0].dice.to_dict() != games[1].dice.to_dict()
    for game in games[1:]:
        assert without_dice(game) == without_dice(games[0])
        for side in (PLAYER, ENEMY):
            assert obs(game, side) == obs(games[0], side)
        assert mask(game) == mask(games[0])


def test_RB_HID_4_rolling_dice_changes_no_observation():
    game = RiflesGame.new(seed=5)
    before = obs(game, PLAYER), obs(game, ENEMY), mask(game)
    for _ in range(20):
        game.dice.d6()                                      # the stream moves on, nothing else
    assert (obs(game, PLAYER), obs(game, ENEMY), mask(game)) == before


def test_RB_HID_4_enemy_decision_with_other_dice_is_the_same():
    game, b, c, x = sewer_game(3)
    act(game, "end_phase")
    dice(game, 4)
    act(game, "e_activate", x.gid)
    game.dice = ScriptedDice([6, 6, 6])
    other = with_other_dice(game)
    assert other.to_dict()["dice"] != game.to_dict()["dice"]
    assert without_dice(other) == without_dice(game)
    for side in (PLAYER, ENEMY):
        assert obs(other, side) == obs(game, side)
    assert mask(other) == mask(game) and scripted_choice(other) == scripted_choice(game)


# RB-HID-5 -----------------------------------------------------------------------------------------
def test_RB_HID_5_enemy_observation_identical_for_any_sewer_stripe():
    game, b, c, x = sewer_game(3)
    variants = sewer_variants(game)
    assert sorted(v.players[c.gid].stripe for v in variants) == [1, 2, 4, 5, 6]
    for v in variants:
        assert without_dice(v) != without_dice(game)
        assert obs(v, ENEMY) == obs(game, ENEMY)
        assert obs(v, PLAYER) != obs(game, PLAYER)


def test_RB_HID_5_holds_during_an_enemy_decision():
    game, b, c, x = sewer_game(2)
    act(game, "end_phase")
    dice(game, 2)                                           # @Attack: B at range 2
    act(game, "e_activate", x.gid)
    assert game.decision[0] == "target" and game.decision[1]["options"] == [b.gid]
    for v in sewer_variants(game):
        assert obs(v, ENEMY) == obs(game, ENEMY) and mask(v) == mask(game)
        assert scripted_choice(v) == scripted_choice(game)


# The generic hook ----------------------------------------------------------------------------------
def test_RB_HID_contract_hook_varies_only_hidden_things():
    game, b, c, x = sewer_game(3)
    game.dice = ScriptedDice([])
    assert len(hidden_variants(game, PLAYER)) == 1                  # other dice only
    assert len(hidden_variants(game, ENEMY)) == 1 + 5               # and C on each other Stripe
    assert checkers.check_hidden_information(RIFLES, game) == 1 + 6


def test_RB_HID_hook_skips_a_sewer_group_with_a_charge_pending():
    game, b, c, x = sewer_game(3)
    game.demo[c.gid] = (3, 1, 0)
    assert sewer_variants(game) == []


def test_RB_HID_generic_sample_really_has_sewer_states():
    """The generic test_hidden_information (seed 13, RUBBLE_MASK_STATES states) meets sewer groups."""
    count = checkers.env_int("RUBBLE_MASK_STATES", 60)
    states = sewers = enemy_deciding = 0
    for state in checkers.sample_states(RIFLES, seed=13, count=count):
        states += 1
        variants = sewer_variants(state)
        if variants:
            sewers += 1
            enemy_deciding += state.current_side == ENEMY
            # the automaton's answer is the same in each variant too
            if state.current_side == ENEMY:
                choice = scripted_choice(state)
                assert all(scripted_choice(v) == choice for v in variants)
        checkers.check_hidden_information(RIFLES, state)
    assert states == count
    assert sewers >= count // 12 and enemy_deciding >= 1, (sewers, enemy_deciding)


def test_RB_HID_sampled_random_states_hold_the_hook():
    """More states than the generic suite samples, from other seeds."""
    checked = sewers = 0
    for seed in (21, 22):
        for state in checkers.sample_states(RIFLES, seed=seed, count=80):
            checked += checkers.check_hidden_information(RIFLES, state)
            sewers += bool(sewer_variants(state))
    assert checked > 0 and sewers > 0
