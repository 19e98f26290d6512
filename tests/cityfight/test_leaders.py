"""Leaders (CF-LDR-1..3)."""
from envs.cityfight import ap, fire

from .builders import act, activate, build, dice, el, legal, sq

MAP = """
.........
.........
.........
.........
.........
.........
.........
.........
.........
"""


def section(**kw):
    return build(MAP, attackers=[("A1", "B", "a1"), ("AL", "L", "e5"), ("A2", "B", "f6"), ("A3", "B", "d4")],
                 defenders=[("D1", "B", "i9")], **kw)


def test_CF_LDR_1_a_leader_acts_like_any_element_but_is_non_combat():
    game = section()
    activate(game, "AL")
    assert legal(game, "move", 0) and legal(game, "fire", "i9")
    assert not game.tables.elements["L"].combat and game.tables.elements["L"].fs == (2, 1, 1)


def test_CF_LDR_2_new_lr_from_the_table_within_one_to_six():
    game = section(lr=(3, 3))
    dice(game, 1)
    fire.kill_square(game, [el(game, "AL")])
    assert game.sections[0][0].lr == 1
    game = section(lr=(6, 3))
    dice(game, 6)
    fire.kill_square(game, [el(game, "AL")])
    assert game.sections[0][0].lr == 6
    game = section(lr=(1, 3))
    dice(game, 2)
    fire.kill_square(game, [el(game, "AL")])
    assert game.sections[0][0].lr == 1


def test_CF_LDR_3_the_nearest_survivor_acts_as_leader():
    game = section()
    dice(game, 4)
    fire.kill_square(game, [el(game, "AL")])
    acting = game.sections[0][0].leader
    assert acting == el(game, "A2").slot                # f6 and d4 both at range 1: lowest ID (A2 before A3)
    assert el(game, "A2").row == "B"
    el(game, "A2").suppressed = True
    assert ap.effective_lr(game, game.sections[0][0]) == game.sections[0][0].lr - 2   # CF-AP-5 for the acting leader
