"""Suppression recovery (CF-REC-1..14)."""
from envs.cityfight import recovery

from .builders import build, dice, el, sq

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


def squad(leader="e5", element="e5", row="B", **kw):
    game = build(MAP, attackers=[("AL", "L", leader), ("A1", row, element)], defenders=[("D1", "B", "i9")], **kw)
    el(game, "A1").suppressed = True
    return game


def need(game, name="A1") -> int:
    return recovery.target(game, el(game, name))


def test_CF_REC_1_recover_on_d6_at_or_under_lr_plus_dms():
    game = squad(leader="a1", element="h8")             # LR 3, leader far (-2), not fired on (+2): 3
    assert need(game) == 3
    dice(game, 3)
    recovery.roll(game, el(game, "A1"))
    assert not el(game, "A1").suppressed
    game = squad(leader="a1", element="h8")
    dice(game, 4)
    recovery.roll(game, el(game, "A1"))
    assert el(game, "A1").suppressed


def test_CF_REC_2_leaders_first_then_element_order():
    game = build(MAP, attackers=[("A1", "B", "h8"), ("AL", "L", "a1"), ("A2", "B", "h8")], defenders=[("D1", "B", "i9")])
    for name in ("A1", "AL", "A2"):
        el(game, name).suppressed = True
    assert [e.name for e in recovery.recovery_order(game, 0)] == ["AL", "A1", "A2"]
    dice(game, 1, 6, 6, 6)
    recovery.recover_all(game)
    assert not el(game, "AL").suppressed and el(game, "A1").suppressed


def test_CF_REC_3_the_leaders_lr_without_the_suppressed_leader_minus_two():
    game = squad()
    el(game, "AL").suppressed = True
    assert need(game) == 3 + 3 + 2                      # LR 3 (not 1), same square +3, not fired on +2


def test_CF_REC_4_leader_not_in_the_msq_minus_2():
    assert need(squad(leader="a1", element="h8")) == 3 - 2 + 2


def test_CF_REC_5_leader_in_the_square_plus_3():
    assert need(squad()) == 3 + 3 + 2


def test_CF_REC_6_sight_of_the_leader_in_another_square_plus_1_cumulative():
    assert need(squad(leader="d5", element="e5")) == 3 + 1 + 2          # same MSq, in sight
    assert need(squad(leader="a9", element="h9")) == 3 - 2 + 1 + 2      # other MSq, in sight


def test_CF_REC_7_in_smoke_or_a_non_open_square_plus_2():
    game = squad(leader="a1", element="d4")             # Brick, the leader out of sight
    assert need(game) == 3 - 2 + 2 + 2
    game = squad(leader="a1", element="h8")
    game.smoke[sq(game, "h8")], game.smoke_count = 1, 1
    assert need(game) == 3 - 2 + 2 + 2


def test_CF_REC_8_not_fired_on_this_turn_plus_2():
    game = squad(leader="a1", element="h8")
    el(game, "A1").fired_on = True
    assert need(game) == 3 - 2


def test_CF_REC_9_sniper_plus_2():
    game = squad(leader="a1", element="h8", row="S")
    assert need(game) == 3 + 2 + 2


def test_CF_REC_10_night_in_an_unlit_msq_minus_1():
    game = squad(leader="a1", element="h8", night=True)
    game.conditions = dict(game.conditions, illuminated=())
    assert need(game) == 3 - 2 + 2 - 1
    game.conditions["illuminated"] = (game.board.msq[sq(game, "h8")],)
    assert need(game) == 3 - 2 + 2


def test_CF_REC_11_the_sides_recovery_bonus():
    from .builders import scenario
    game = build(spec=scenario(MAP, recovery_bonus=(1, 0)), attackers=[("AL", "L", "a1"), ("A1", "B", "h8")])
    el(game, "A1").suppressed = True
    assert need(game) == 3 - 2 + 2 + 1


def test_CF_REC_12_no_leader_dms_on_a_leaders_own_roll():
    game = squad(leader="a1", element="h8")
    el(game, "AL").suppressed = True
    assert need(game, "AL") == 3 + 2


def test_CF_REC_13_snipers_use_their_own_rating_three_without_leader_dms():
    game = squad(leader="a1", element="h8", row="S", lr=(6, 3))
    assert need(game) == 3 + 2 + 2


def test_CF_REC_14_company_option_a_leader_may_use_the_higher_leaders_lr():
    from envs.cityfight.state import Section
    game = build(MAP, attackers=[("PL", "L", "e5")], defenders=[("D1", "B", "i9")], force_level="company", lr=(5, 3))
    game.sections[0].append(Section(1, 0, "B", 2, 4))
    from .builders import place
    sgt = place(game, 0, "SG", "L", "e5")
    sgt.section = 1
    game.sections[0][1].leader = sgt.slot
    sgt.suppressed = True
    assert need(game, "SG") == max(2, 5 + 3) + 2
    game.options["force_level"] = "section"
    assert need(game, "SG") == 2 + 2
