"""Building damage through play (CF-BLD-1..8), conditions (CF-COND-1, CF-VAR-1, CF-SRCH-19..21, CF-REC-10) and
their public encoding (CF-HID-1, CF-HID-9), all with scripted dice."""
import numpy as np
import pytest

from envs import registry
from envs.cityfight import damage, recovery, search
from envs.cityfight.actions import SQUARES
from envs.cityfight.board import sight
from envs.cityfight.config import BRICK, CLUTTERED, CONCRETE, OPEN, WOOD, WOODEN_METAL
from envs.cityfight.game import CityfightGame
from envs.cityfight.hidden import hidden_variants
from envs.cityfight.movement import building_step_ok, ends_movement
from envs.cityfight.observation import CONTEXT, GLOBAL, PLANES, P, encode

from .builders import act, activate, build, decision, el, illegal, legal, search_msq, sq

new_game = registry.get("cityfight").new_game

# e3: a one-square Concrete building (no doorway); c6-e6: a Brick building, e6 its doorway square;
# h8: a one-square Wooden/Metal building; b9: Wood; f1: rubble from the start.
MAP = """
.....:...
.........
....C....
.........
.........
..BBb....
.........
.......W.
.T.......
"""
N, E, S, W, NE = 0, 1, 2, 3, 4   # DIRECTIONS8 indices


def names(game, squares) -> list[str]:
    return [game.name(s) for s in squares]


def gunner(at="e1", row="D", enemies=(("D1", "B", "a9"),), friends=(), dice=(), **kw):
    """A1 (row D: FS 8 at range 1-2, unspotted 4) activated, ready to fire."""
    game = build(MAP, attackers=[("A1", row, at), *friends], defenders=list(enemies), dice=dice, **kw)
    activate(game, "A1")
    return game


def fire(game, target: str, count: int = 2) -> list:
    events = act(game, "fire", target)
    if decision(game) == "dice":
        events += act(game, "dice", count)
    if decision(game) == "return_fire" and not game.decision[1]["options"]:
        events += act(game, "pass")        # CF-HID-4: the target side's window, with nobody able to fire back
    return events


def planes(game, side):
    obs = encode(game, side)
    return obs[GLOBAL + CONTEXT:GLOBAL + CONTEXT + PLANES * SQUARES].reshape(PLANES, SQUARES)


def plane(game, side, name, square) -> float:
    return float(planes(game, side)[P[name]][game.board.code[sq(game, square)]])


# CF-BLD-1 -----------------------------------------------------------------------------------------------------
def test_CF_BLD_1_kinetic_s_on_an_empty_building_square_adds_one_point():
    game = gunner(dice=[6, 1])                        # 6 + 4 = 10 >= Concrete S 10: S
    events = fire(game, "e3")
    assert game.damage[sq(game, "e3")] == 1
    hit = [e for e in events if e.kind == "damage"]
    assert len(hit) == 1 and hit[0].side is None and hit[0].data["points"] == 1   # public (CF-HID-9)


def test_CF_BLD_1_occupied_or_not_and_k_adds_one_point_too():
    game = gunner(enemies=[("D1", "B", "e3"), ("D2", "B", "a9")], dice=[6, 1])
    fire(game, "e3")
    assert game.damage[sq(game, "e3")] == 1 and el(game, "D1").suppressed
    game = gunner(dice=[6, 6])                        # a double 6: K (CF-FIRE-12), still one point
    fire(game, "e3")
    assert game.damage[sq(game, "e3")] == 1


def test_CF_BLD_1_no_result_and_non_building_squares_take_no_damage():
    game = gunner(dice=[2, 1])                        # 2 + 4 = 6 < 10: nothing
    fire(game, "e3")
    assert game.damage[sq(game, "e3")] == 0
    game = gunner(dice=[6, 1])                        # S on the Open square e2: no damage anywhere
    fire(game, "e2")
    assert max(game.damage) == 0 and game.rubble == [game.scenario.terrain[i] == ":" for i in range(game.board.size)]


def law_at_e6(preset=0, **kw):
    """A1 with a LAW (FS 9, G2) at e9 fires at the Brick doorway square e6 (range 3): accuracy 4 + 4 - 2 = 6, on
    target; effect dice 2, 1: impact 2 + 9 = 11 >= Brick K; blast 1 + 9 = 10 on the 8 around (Brick d6: S)."""
    game = build(MAP, attackers=[("A1", "B", "e9", "LAW")], defenders=[("D1", "B", "a1")], dice=[4, 4, 2, 1], **kw)
    game.damage[sq(game, "e6")] = preset
    activate(game, "A1")
    return game, act(game, "special", "e6")


def test_CF_BLD_1_he_impact_and_blast_add_one_point_per_building_square():
    game, events = law_at_e6()
    assert {game.name(s): game.damage[s] for s in range(game.board.size) if game.damage[s]} == {"e6": 1, "d6": 1}
    assert [e.data["square"] for e in events if e.kind == "damage"] == [sq(game, "e6"), sq(game, "d6")]


# CF-BLD-2 -----------------------------------------------------------------------------------------------------
def test_CF_BLD_2_orthogonal_non_building_neighbours_nearest_the_firer_first():
    game = gunner()
    e3 = sq(game, "e3")
    assert names(game, damage.rubble_neighbours(game, e3, sq(game, "e1"))) == ["e2", "f3", "d3", "e4"]
    assert names(game, damage.rubble_neighbours(game, e3, sq(game, "a5"))) == ["d3", "e4", "e2", "f3"]
    assert names(game, damage.rubble_neighbours(game, sq(game, "d6"), sq(game, "i1"))) == ["d5", "d7"]   # c6, e6: building


def test_CF_BLD_2_ties_clockwise_from_north():
    game = gunner()
    e3 = sq(game, "e3")
    assert names(game, damage.rubble_neighbours(game, e3, e3)) == ["e2", "f3", "e4", "d3"]        # all equal
    assert names(game, damage.rubble_neighbours(game, e3, sq(game, "i7"))) == ["f3", "e4", "e2", "d3"]   # f3, e4 tie


# CF-BLD-3 -----------------------------------------------------------------------------------------------------
def test_CF_BLD_3_two_points_make_the_first_rubble_neighbour_rubble():
    game = gunner(dice=[6, 1])
    game.damage[sq(game, "e3")] = 1
    events = fire(game, "e3")
    e2 = sq(game, "e2")
    assert game.damage[sq(game, "e3")] == 2 and game.rubble[e2] and game.cover[e2] == CLUTTERED
    assert [s for s in range(game.board.size) if game.rubble[s]] == [sq(game, "f1"), e2]
    assert game.cover[sq(game, "e3")] == CONCRETE                       # no cover change yet
    assert [e.data["square"] for e in events if e.kind == "rubble"] == [e2]


def test_CF_BLD_3_the_new_rubble_counts_for_the_one_rubble_step():
    game = gunner(dice=[6, 1], friends=[("A2", "B", "e1")])
    game.damage[sq(game, "e3")] = 1
    fire(game, "e3")
    act(game, "pass")
    activate(game, "D1")
    act(game, "pass")
    activate(game, "A2")
    act(game, "move", S)                               # into the new rubble e2 (CF-MOVE-5)
    assert el(game, "A2").rubble_steps == 1
    illegal(game, "move", NE)                          # f1, rubble from the start: a second rubble step
    assert legal(game, "move", E)                      # f2, Open


# CF-BLD-4 -----------------------------------------------------------------------------------------------------
def blocked_door_game(**kw):
    game = gunner(at="e8", friends=[("A2", "B", "e5")], dice=[5, 1], **kw)   # 5 + 4 = 9 >= Brick S 9: S
    game.damage[sq(game, "e6")] = 3
    return game


def test_CF_BLD_4_four_points_lower_cover_block_doorways_second_neighbour():
    game = blocked_door_game()
    e6 = sq(game, "e6")
    assert game.door[e6] == 1 and game.cover[e6] == BRICK
    events = fire(game, "e6")
    assert game.damage[e6] == 4 and game.cover[e6] == WOODEN_METAL and game.door[e6] == 2
    assert names(game, damage.rubble_neighbours(game, e6, sq(game, "e8"))) == ["e7", "f6", "e5"]
    assert game.rubble[sq(game, "f6")] and not game.rubble[sq(game, "e7")] and not game.rubble[sq(game, "e5")]
    assert ["damage", "cover", "blocked", "rubble"] == [e.kind for e in events if e.kind in
                                                        ("damage", "cover", "blocked", "rubble")]


def test_CF_BLD_4_a_blocked_doorway_can_no_longer_be_used():
    game = blocked_door_game()
    fire(game, "e6")
    act(game, "pass")
    activate(game, "D1")
    act(game, "pass")
    activate(game, "A2")
    illegal(game, "move", S)                           # e5 -> e6 through the blocked doorway
    game = blocked_door_game()
    act(game, "pass")
    activate(game, "D1")
    act(game, "pass")
    activate(game, "A2")
    assert legal(game, "move", S)                      # the same step before the damage


def test_CF_BLD_4_breaches_are_blocked_too_then_and_later():
    game = gunner()
    d6, e6 = sq(game, "d6"), sq(game, "e6")
    game.door[d6] = 1                                   # a breach made earlier (CF-HE-13)
    for _ in range(4):
        damage.hit_square(game, d6, "S", sq(game, "d9"))
    assert game.door[d6] == 2
    for _ in range(4):
        damage.hit_square(game, sq(game, "e3"), "S", sq(game, "e1"))
    assert damage.breach(game, sq(game, "e3")) and game.door[sq(game, "e3")] == 2   # a later breach: blocked at once
    assert not damage.breach(game, e6) and game.door[e6] == 1                          # a doorway already
    assert damage.breach(game, sq(game, "c6")) and game.door[sq(game, "c6")] == 1      # undamaged: a new way in
    assert not damage.breach(game, sq(game, "a1"))                                       # not a building


# CF-BLD-5 -----------------------------------------------------------------------------------------------------
def test_CF_BLD_5_eight_points_two_classes_below_the_original_third_neighbour():
    game = gunner(at="e8", dice=[5, 1])
    e6 = sq(game, "e6")
    game.damage[e6], game.cover[e6], game.door[e6] = 7, WOODEN_METAL, 2     # as left by the 4th point
    fire(game, "e6")                                    # 5 + 4 = 9 >= Wooden/Metal S 8
    assert game.damage[e6] == 8 and game.cover[e6] == CLUTTERED           # Brick, two classes down
    assert game.rubble[sq(game, "e5")] and not game.rubble[sq(game, "e7")] and not game.rubble[sq(game, "f6")]


def test_CF_BLD_5_from_concrete_and_from_wooden_metal():
    game = gunner()
    for square, firer, cover in (("e3", "e1", WOODEN_METAL), ("h8", "h6", OPEN)):
        for _ in range(8):
            damage.hit_square(game, sq(game, square), "S", sq(game, firer))
        assert game.cover[sq(game, square)] == cover
    assert [game.name(s) for s in range(game.board.size) if game.rubble[s] and s != sq(game, "f1")] == \
        ["e2", "d3", "f3", "h7", "g8", "i8"]
    game.damage[sq(game, "e3")] = 20
    damage.hit_square(game, sq(game, "e3"), "K", sq(game, "e1"))           # nothing more past 8
    assert game.cover[sq(game, "e3")] == WOODEN_METAL and not game.rubble[sq(game, "e4")]


# CF-BLD-6 -----------------------------------------------------------------------------------------------------
def test_CF_BLD_6_elements_of_both_sides_in_the_new_rubble_are_killed():
    game = gunner(enemies=[("D1", "B", "e2"), ("D2", "B", "a9")], friends=[("A2", "A", "e2")], dice=[6, 1])
    game.damage[sq(game, "e3")] = 1
    events = fire(game, "e3")
    assert not el(game, "D1").alive and not el(game, "A2").alive and el(game, "A1").alive and el(game, "D2").alive
    killed = [e for e in events if e.kind == "killed"]
    assert [e.text.split()[0] for e in killed] == ["A2", "D1"] and game.winner is None


def test_CF_BLD_6_the_firer_itself_when_its_square_is_the_first_neighbour():
    game = gunner(at="e2", friends=[("A2", "B", "i1")], dice=[6, 1])     # range 1: FS 8, unspotted 4
    game.damage[sq(game, "e3")] = 1
    fire(game, "e3")
    assert not el(game, "A1").alive and game.rubble[sq(game, "e2")]


def test_CF_BLD_6_a_square_already_rubble_does_not_become_rubble_again():
    game = gunner(enemies=[("D1", "B", "e2"), ("D2", "B", "a9")], dice=[6, 1])
    game.rubble[sq(game, "e2")], game.cover[sq(game, "e2")] = True, CLUTTERED
    game.damage[sq(game, "e3")] = 1
    events = fire(game, "e3")
    assert el(game, "D1").alive and "rubble" not in [e.kind for e in events]


def test_CF_BLD_6_rubble_in_a_wood_keeps_the_wood():
    game = gunner()
    b9 = sq(game, "b9")
    damage.make_rubble(game, b9)
    assert game.rubble[b9] and game.cover[b9] == WOOD and ends_movement(game, b9)
    assert not sight(game, sq(game, "a9"), sq(game, "c9"))


# CF-BLD-7 -----------------------------------------------------------------------------------------------------
def test_CF_BLD_7_cover_steps_concrete_brick_wooden_metal_cluttered_open():
    game = gunner()
    e3 = sq(game, "e3")
    assert [damage.lowered_cover(game, e3, n) for n in range(6)] == [CONCRETE, BRICK, WOODEN_METAL, CLUTTERED, OPEN,
                                                                      OPEN]
    assert [damage.lowered_cover(game, sq(game, "c6"), n) for n in (1, 2)] == [WOODEN_METAL, CLUTTERED]


def test_CF_BLD_7_knocked_down_to_open_it_is_still_a_building_for_movement_and_los():
    game = gunner(at="h6", friends=[("A2", "B", "g7")])
    h8 = sq(game, "h8")
    for _ in range(8):
        damage.hit_square(game, h8, "S", sq(game, "h6"))
    assert game.cover[h8] == OPEN and game.is_open(h8) and game.board.building[h8] >= 0
    assert not sight(game, sq(game, "h7"), sq(game, "h9")) and not sight(game, sq(game, "g8"), sq(game, "i8"))
    assert ends_movement(game, h8) and not building_step_ok(game, sq(game, "g7"), h8, True)
    assert not building_step_ok(game, sq(game, "g8"), h8, False)          # no doorway: still walled


# CF-BLD-8 -----------------------------------------------------------------------------------------------------
def target_game(occupants: str, dice):
    """A1 (row D at e8: FS 8, unspotted 4) fires at the Brick doorway square e6, empty (D1 far away) or D1's."""
    enemies = [("D2", "B", "a1"), ("D1", "B", "e6" if occupants else "i1")]
    game = gunner(at="e8", enemies=enemies, dice=dice)
    if occupants == "suppressed":
        el(game, "D1").suppressed = True
    if occupants == "moved twice":
        el(game, "D1").entered = 2
    return game


def test_CF_BLD_8_damage_ignores_the_occupants_fs_modifiers():
    # [5, 1]: FS 4 gives 9 = Brick S -> 1 point; suppressed occupants (FS 8 -> 4 -> 2) get nothing.
    for occupants in ("", "suppressed"):
        game = target_game(occupants, [5, 1])
        fire(game, "e6")
        assert game.damage[sq(game, "e6")] == 1
    assert el(game, "D1").fired_on and game.sections[1][0].pool == 12            # fired on, no result
    # [3, 1]: FS 4 gives 7, nothing -> no point; occupants that moved twice (FS 16 -> 8) get 11, K -> S.
    for occupants in ("", "moved twice"):
        game = target_game(occupants, [3, 1])
        fire(game, "e6")
        assert game.damage[sq(game, "e6")] == 0
    assert el(game, "D1").suppressed


def test_CF_BLD_8_so_the_public_damage_tells_the_firer_nothing_about_the_occupants():
    seen = []
    for occupants in ("", "suppressed", "moved twice"):
        for faces in ([5, 1], [3, 1]):
            game = target_game(occupants, faces)
            fire(game, "e6")
            seen.append((tuple(faces), encode(game, 0).tobytes(), game.render_text(0)))
    by_dice = {}
    for faces, obs, text in seen:
        by_dice.setdefault(faces, set()).add((obs, text))
    assert all(len(v) == 1 for v in by_dice.values())


# CF-HID-1 / CF-HID-9: damage, rubble and blocked doorways are public ---------------------------------------
def test_CF_HID_1_damage_rubble_and_blocked_doorways_reach_both_observations():
    game = blocked_door_game()
    before = [encode(game, s) for s in (0, 1)]
    fire(game, "e6")
    for side in (0, 1):
        assert plane(game, side, "damage", "e6") == 4 / 8 and plane(game, side, "door_blocked", "e6") == 1
        assert plane(game, side, "door_open", "e6") == 0 and plane(game, side, "rubble", "f6") == 1
        assert plane(game, side, "wooden_metal", "e6") == 1 and plane(game, side, "brick", "e6") == 0
        assert plane(game, side, "cluttered", "f6") == 1 and plane(game, side, "open", "f6") == 0
        assert not np.array_equal(before[side], encode(game, side))
        assert "damage: e6 4#" in game.render_text(side)
    assert game.render_rgb(0).shape == game.render_rgb(1).shape


def test_CF_HID_9_he_damage_and_the_rubble_it_causes_are_public():
    game, events = law_at_e6(preset=1)                  # the impact makes 2 points: e7 (nearest the firer) is rubble
    assert game.damage[sq(game, "e6")] == 2 and game.rubble[sq(game, "e7")]
    assert all(e.side is None for e in events if e.kind in ("damage", "rubble"))
    for side in (0, 1):
        assert plane(game, side, "damage", "e6") == 2 / 8 and plane(game, side, "damage", "d6") == 1 / 8
        assert plane(game, side, "rubble", "e7") == 1 and plane(game, side, "he_impact", "e6") == 1


def test_CF_HID_9_damage_and_rubble_are_the_same_in_every_hidden_variant():
    game = blocked_door_game(enemies=[("D1", "B", "a1"), ("D2", "B", "h2")])
    fire(game, "e6")
    for side in (0, 1):
        obs = encode(game, side)
        for variant in hidden_variants(game, side):
            assert variant.damage == game.damage and variant.rubble == game.rubble and variant.door == game.door
            assert np.array_equal(obs, encode(variant, side))


# CF-COND-1 ----------------------------------------------------------------------------------------------------
def test_CF_COND_1_weather_is_an_option_and_validated():
    game = build(MAP, attackers=[("A1", "B", "a1")], defenders=[("D1", "B", "i9")], weather="fog")
    assert game.conditions == {"time": "day", "weather": "fog", "illuminated": ()}
    assert build(MAP, attackers=[("A1", "B", "a1")]).conditions["weather"] == "clear"
    assert new_game(seed=3, weather="snow", night=True).conditions == {"time": "night", "weather": "snow",
                                                                        "illuminated": (15,)}
    with pytest.raises(ValueError, match="weather"):
        build(MAP, attackers=[("A1", "B", "a1")], weather="hail")
    import gymnasium

    import envs  # noqa: F401  (registers the gym ids)
    env = gymnasium.make("rubble/Cityfight-v0", weather="fog")
    env.reset(seed=1)
    assert env.unwrapped._state.conditions["weather"] == "fog"
    game = new_game(seed=3, weather="rain")
    again = CityfightGame.from_dict(game.to_dict())
    assert again.conditions["weather"] == "rain" and again.options["weather"] == "rain"


def test_CF_COND_1_weather_option_in_a_scenario_file_is_validated(tmp_path):
    from envs.cityfight import config
    from envs.engine.scenario import ScenarioError
    text = open(config.scenario_path("office_block")).read()
    good, bad = tmp_path / "good.yaml", tmp_path / "bad.yaml"
    good.write_text(text.replace("options:\n", "options:\n  weather: rain\n", 1))
    bad.write_text(text.replace("options:\n", "options:\n  weather: hail\n", 1))
    assert config.load_scenario(str(good)).options["weather"] == "rain"
    with pytest.raises(ScenarioError, match="weather"):
        config.load_scenario(str(bad))


def test_CF_COND_1_conditions_act_only_through_search_and_recovery():
    """The same fire with the same dice does the same by day in clear weather and at night in fog."""
    results = []
    for options in ({}, {"night": True, "weather": "fog"}):
        game = build(attackers=[("A1", "D", "k8")], defenders=[("D1", "B", "k10"), ("D2", "B", "a1")], dice=[4, 2],
                     **options)
        activate(game, "A1")
        assert legal(game, "fire", "k10") and legal(game, "move", N)
        fire(game, "k10")                                # 4 + 4 = 8 >= Open K 8 -> S (unspotted)
        results.append((el(game, "D1").suppressed, game.sections[1][0].pool, list(game.damage),
                        game.legal_action_mask().tobytes()))
    assert results[0] == results[1] and results[0][0]


def test_CF_COND_1_conditions_are_public_in_both_observations():
    from envs.cityfight.config import WEATHERS
    from envs.cityfight.observation import DECISIONS, PHASES
    at = 2 + len(PHASES) + 2 + len(DECISIONS) + 3 + 2 * 2
    game = build(attackers=[("A1", "B", "k8")], defenders=[("D1", "B", "a1")], night=True, weather="snow")
    for side in (0, 1):
        obs = encode(game, side)
        assert obs[at] == 1 and obs[at + 2 + WEATHERS.index("snow")] == 1
        assert plane(game, side, "illuminated", "k8") == 1 and plane(game, side, "illuminated", "a1") == 0
        assert "(night, snow, lit D3)" in game.render_text(side)
    day = build(attackers=[("A1", "B", "k8")], defenders=[("D1", "B", "a1")])
    assert encode(day, 0)[at] == 0 and plane(day, 0, "illuminated", "k8") == 0


# CF-VAR-1 -----------------------------------------------------------------------------------------------------
def test_CF_VAR_1_night_search_minus_2_and_recovery_minus_1_outside_lit_d3():
    game = build(attackers=[("A1", "B", "a8"), ("A2", "B", "k8")], defenders=[("D1", "B", "r18")], dice=[3, 4],
                 night=True)
    assert game.conditions["illuminated"] == (game.board.msq_names.index("D3"),)
    activate(game, "A1")
    search_msq(game, "A3")
    assert game.knowledge[1].last_search[1] == 3 + 4 + 2 - 2          # own MSq +2, night -2 (CF-SRCH-20)
    for name in ("A1", "A2"):
        el(game, name).suppressed = True
    from .builders import dice
    dice(game, 1, 1)                                    # no leader: LR 3 - 2, not fired on +2, cover 0
    assert recovery.target(game, el(game, "A1")) == 3 - 2 + 2 - 1     # a8 in A3: unlit (CF-REC-10)
    assert recovery.target(game, el(game, "A2")) == 3 - 2 + 2          # k8 in D3: lit
    dice(game, 3, 3)
    recovery.roll(game, el(game, "A1"))
    recovery.roll(game, el(game, "A2"))
    assert el(game, "A1").suppressed and not el(game, "A2").suppressed


# CF-SRCH-19..21 through a whole search --------------------------------------------------------------------
SEARCH_MAP = """
............
............
............
............
....CC......
....Cc......
"""


def searched(dice, enemies=(("D1", "B", "e5"),), at="a1", msq="B2", **options):
    game = build(SEARCH_MAP, attackers=[("A1", "B", at)], defenders=list(enemies), dice=dice, **options)
    activate(game, "A1")
    search_msq(game, msq)
    return game


def test_CF_SRCH_19_rain_fog_snow_outside_the_own_msq_only():
    for weather, dm in (("clear", 0), ("rain", -1), ("fog", -2), ("snow", -2)):
        assert searched([3, 4], weather=weather).knowledge[1].last_search[1] == 7 + dm        # adjacent B2
        assert searched([3, 4], weather=weather, msq="A1").knowledge[1].last_search[1] == 7 + 2   # own: +2 only
        assert searched([3, 4], weather=weather, msq="C1").knowledge[1].last_search[1] == 7 - 2 + dm   # peri


def test_CF_SRCH_19_fog_can_hide_what_clear_weather_reveals():
    # B2 has 4 non-Open squares: SR 8. Clear: N 8 reveals e5; fog: N 6 does not.
    clear, fog = searched([4, 4]), searched([4, 4], weather="fog")
    e5 = sq(clear, "e5")
    assert clear.knowledge[0].occupied[e5] == 1 and fog.knowledge[0].occupied[e5] == -1


def test_CF_SRCH_20_night_minus_2_on_every_search_own_msq_too():
    for msq, dm in (("A1", 2), ("B2", 0), ("C1", -2)):
        assert searched([3, 4], msq=msq, night=True).knowledge[1].last_search[1] == 7 + dm - 2
    game = searched([3, 4], msq="A1", night=True, weather="fog")
    assert game.knowledge[1].last_search[1] == 7 + 2 - 2                # fog only outside the own MSq


def test_CF_SRCH_21_at_night_a_target_that_fired_and_did_not_move_gets_plus_4():
    def revealed(night, fired_still):
        game = build(SEARCH_MAP, attackers=[("A1", "B", "a1")], defenders=[("D1", "B", "e5")], dice=[3, 3],
                     night=night)
        el(game, "D1").fired_still = fired_still
        activate(game, "A1")
        search_msq(game, "B2")
        return game.knowledge[0].occupied[sq(game, "e5")] == 1
    assert revealed(True, True)           # N 6 - 2 = 4, + 4 = 8 >= SR 8
    assert not revealed(True, False)      # 4 < 8
    assert revealed(False, True)          # by day: N 6 + 2 = 8
    assert not revealed(False, False)     # 6 < 8
    game = build(SEARCH_MAP, attackers=[("A1", "B", "a1")], defenders=[("D1", "B", "e5")], night=True)
    el(game, "D1").fired_still = True
    assert search.target_dm(game, el(game, "D1")) == 4


# CF-REC-10 ----------------------------------------------------------------------------------------------------
def test_CF_REC_10_night_unlit_minus_1_in_the_recovery_phase():
    def recovers(square, night):
        game = build(attackers=[("A1", "B", square)], defenders=[("D1", "B", "r18")], dice=[3], night=night)
        el(game, "A1").suppressed = True
        recovery.recover_all(game)                    # no leader -2, LR 3, not fired on +2: 3; unlit night: 2
        assert game.dice.remaining == 0
        return not el(game, "A1").suppressed
    assert recovers("a8", False) and not recovers("a8", True)
    assert recovers("k8", True)                       # k8 is in D3, lit (CF-VAR-1)


def test_CF_HID_3_a_spent_LAW_does_not_show_which_element_fired_it():
    from envs.cityfight.observation import encode

    from .builders import office
    game = office(0)
    carrier = next(e for e in game.elements[0] if e.special == "LAW")
    before = encode(game, 1)
    carrier.special, carrier.shots = None, 0            # what spend_shot does after the one shot (CF-HE-12)
    assert (encode(game, 1) == before).all()
