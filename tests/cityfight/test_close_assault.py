"""Close assault (CF-CA-1..11)."""
from envs.cityfight import assault

from .builders import act, activate, build, decision, el, forced, illegal, legal, sq

MAP = """
.........
.........
..BB.....
..Bb.....
.........
.........
.........
.........
.........
"""


def move_in(enemies, dice, row="C", at="e6", direction=1, friends=(), **kw):
    game = build(MAP, attackers=[("A1", row, at), *friends], defenders=list(enemies), dice=dice, **kw)
    activate(game, "A1")
    act(game, "move", direction)
    return game


def test_CF_CA_1_a_step_into_enemy_starts_a_terrain_round():
    game = move_in([("D1", "B", "f6")], [2, 3])
    assert not el(game, "D1").alive and el(game, "A1").square == sq(game, "f6")


def test_CF_CA_1_fire_into_the_own_engaged_square_is_an_open_round_for_one_ap():
    game = build(MAP, attackers=[("A1", "C", "d4")], defenders=[("D1", "B", "d4")], dice=[5, 4])
    activate(game, "A1")
    assert legal(game, "fire", "d4")
    act(game, "fire", "d4")                              # open round: 5 + 3 = 8 >= Open S 6 although d4 is Brick
    assert not el(game, "D1").alive and el(game, "A1").fired and el(game, "A1").ap_spent == 1


def test_CF_CA_2_higher_die_plus_ca():
    game = move_in([("D1", "B", "f6"), ("D2", "B", "a9")], [1, 2, 1, 2])   # 2 + 3 = 5 < 6; D1 strikes back 2 + 2 = 4
    assert el(game, "D1").alive and el(game, "A1").alive
    assert assault.assault_total(game, el(game, "A1"), [1, 5]) == 8


def test_CF_CA_3_terrain_round_uses_the_squares_cover_strike_backs_open():
    game = move_in([("D1", "B", "d4")], [5, 4, 4, 1], at="d5", direction=0)   # into the doorway d4 (Brick S 9)
    assert el(game, "D1").alive                          # 5 + 3 = 8 < 9
    assert not el(game, "A1").alive                      # D1: 4 + 2 = 6 >= Open S 6


def test_CF_CA_4_an_s_counts_as_k_so_a_six_always_kills():
    game = move_in([("D1", "B", "d4")], [6, 1], row="A", at="d5", direction=0)
    assert not el(game, "D1").alive


def test_CF_CA_5_any_double_kills_the_roller_after_its_result():
    game = move_in([("D1", "B", "f6")], [3, 3])
    assert not el(game, "D1").alive and not el(game, "A1").alive


def test_CF_CA_6_k_kills_every_enemy_there_no_spread_no_damage():
    game = move_in([("D1", "B", "f6"), ("D2", "B", "f6"), ("D3", "B", "e4")], [4, 1])
    assert not el(game, "D1").alive and not el(game, "D2").alive
    assert el(game, "D3").alive and not el(game, "D3").suppressed
    assert game.damage == [0] * len(game.damage)


def test_CF_CA_7_each_surviving_enemy_strikes_back_until_none_is_left():
    game = move_in([("D1", "B", "f6"), ("D2", "B", "f6")], [1, 2, 4, 1])   # A1 misses; D1 kills A1; D2 has no roll
    assert not el(game, "A1").alive and game.dice.remaining == 0


def test_CF_CA_8_suppressed_cannot_strike_back_in_the_first_round():
    game = build(MAP, attackers=[("A1", "C", "e6"), ("A2", "C", "e6")], defenders=[("D1", "B", "f6")], dice=[1, 2])
    el(game, "D1").suppressed = True
    activate(game, "A1")
    act(game, "move", 1)                                 # no strike-back rolled (only 2 dice scripted)
    assert el(game, "A1").alive and game.dice.remaining == 0


def test_CF_CA_8_later_rounds_suppressed_elements_strike_back():
    game = build(MAP, attackers=[("A1", "C", "f6")], defenders=[("D1", "B", "f6")], dice=[1, 2, 4, 1])
    el(game, "D1").suppressed = True
    activate(game, "A1")
    act(game, "fire", "f6")                              # an open round in an already Engaged square
    assert not el(game, "A1").alive


def test_CF_CA_9_ooa_elements_may_take_part():
    game = build(MAP, attackers=[("A1", "C", "f6")], defenders=[("D1", "B", "f6")])
    el(game, "A1").ooa = True
    activate(game, "A1")
    assert legal(game, "fire", "f6")


def test_CF_CA_10_everyone_in_the_square_spends_no_more_ap():
    game = move_in([("D1", "B", "f6"), ("D2", "B", "f6"), ("D3", "B", "a9")], [1, 2, 1, 2, 1, 2])
    assert all(el(game, n).assaulted for n in ("A1", "D1", "D2"))
    assert game.current_side == 0 and decision(game) == "act" and forced(game)   # CF-HID-4: asked, pass only
    act(game, "pass")
    assert game.current_side == 1 and decision(game) == "activate"
    illegal(game, "activate", "D1")


def test_CF_CA_11_elements_killed_in_assault_are_revealed_by_type():
    game = move_in([("D1", "B", "f6"), ("DL", "L", "f6")], [4, 1, 2, 4])   # K; DL rolls 2: killed; LR roll
    assert game.knowledge[0].killed == {"B": 1, "L": 1}
