"""Leaders (CF-LDR-1..3)."""
from envs.cityfight import ap, fire, leaders
from envs.cityfight.tasks import KineticFire

from .builders import activate, build, dice, el, legal, sq

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
    leaders.appoint_acting_leaders(game)                # what the game does once the whole result is applied
    acting = game.sections[0][0].leader
    assert acting == el(game, "A2").slot                # f6 and d4 both at range 1: lowest ID (A2 before A3)
    assert el(game, "A2").row == "B"
    el(game, "A2").suppressed = True
    assert ap.effective_lr(game, game.sections[0][0]) == game.sections[0][0].lr - 2   # CF-AP-5 for the acting leader


def k_on_the_leaders_square(leader_roll: int, table_roll: int):
    """AL (LR 3) and A2 share e5; A3 is on d4 (range 1), A1 on a1. A K lands on e5 (two 6s): AL rolls CF-RES-6,
    then the section rolls CF-TAB-5 for its lost leader. The K arrives as a real fire task, so the game runs its
    after-result step as in play; the rest of the turn then plays on sixes. Returns (game, events)."""
    game = build(MAP, attackers=[("A1", "B", "a1"), ("AL", "L", "e5"), ("A2", "B", "e5"), ("A3", "B", "d4")],
                 defenders=[("D1", "C", "e9")], dice=[6, 6, leader_roll, table_roll] + [6] * 12)
    game.decision = None                                # let the pushed fire run as the next task
    game.push(KineticFire(1, el(game, "D1").slot, sq(game, "e5"), 2, True, "return"))
    game.run()
    return game, game.log.take()


def test_CF_LDR_2_one_K_killing_the_leader_and_its_companion_rolls_CF_TAB_5_once():
    game, events = k_on_the_leaders_square(leader_roll=1, table_roll=6)   # CF-RES-6: 1 kills the leader
    assert el(game, "AL").square == el(game, "A2").square == -1
    rolls = [e for e in events if e.rule == "CF-LDR-2"]
    assert [(e.dice, e.text) for e in rolls] == [((6,), "section A loses its leader: LR 3 -> 4")]
    assert game.dice.log[:4] == [(6, 6), (6, 6), (6, 1), (6, 6)]              # the K, the leader roll, ONE table roll


def test_CF_LDR_3_the_acting_leader_is_a_survivor_of_the_whole_result():
    game, events = k_on_the_leaders_square(leader_roll=2, table_roll=1)
    assert game.sections[0][0].leader == el(game, "A3").slot         # not A2, killed by the same K
    assert [e.text for e in events if e.rule == "CF-LDR-3"] == ["A3 leads section A"]


def test_CF_RES_3_an_acting_leaders_death_passes_the_role_on_without_a_roll():
    game, _ = k_on_the_leaders_square(leader_roll=1, table_roll=3)
    lr = game.sections[0][0].lr
    dice(game)                                                        # no die left: a roll would fail
    fire.kill_square(game, [el(game, "A3")])
    leaders.appoint_acting_leaders(game)
    assert game.sections[0][0].leader == el(game, "A1").slot and game.sections[0][0].lr == lr
