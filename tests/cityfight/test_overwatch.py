"""Overwatch (CF-OW-1..6, CF-HID-10)."""
from envs.cityfight.state import DEAD
from envs.cityfight.tasks import EndActionPhase

from .builders import act, activate, build, decision, el, illegal, legal, sq

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


def watched(dice=(), watchers=(("D1", "B", "e1"),), mover=("A1", "B", "e7"), square="e5", **kw):
    game = build(MAP, attackers=[mover, ("A9", "B", "a9")], defenders=list(watchers), dice=list(dice), **kw)
    for name, *_ in watchers:
        el(game, name).overwatch = sq(game, square)
        el(game, name).ap_spent = 2
    activate(game, mover[0])
    return game


def test_CF_OW_1_the_watched_square_must_be_in_sight():
    game = build(MAP, attackers=[("A1", "B", "b3")], defenders=[("D1", "B", "i9")])
    activate(game, "A1")
    illegal(game, "overwatch", "e3")                     # behind the building
    act(game, "overwatch", "b9")
    assert el(game, "A1").overwatch == sq(game, "b9")


def test_CF_OW_2_an_enemy_stepping_in_is_reported_with_type_and_direction():
    game = watched()
    act(game, "run", 0, 0)                               # e7 -> e6 -> e5
    assert decision(game) == "overwatch_fire" and game.current_side == 1
    turn, square, row, entry, exit_ = game.knowledge[1].reports[-1]
    assert (square, row, entry, exit_) == (sq(game, "e5"), "B", 0, -1)      # entered heading north


def test_CF_OW_3_exit_direction():
    game = build(MAP, attackers=[("A1", "B", "e5"), ("A9", "B", "a9")], defenders=[("D1", "B", "e1")])
    el(game, "D1").overwatch, el(game, "D1").ap_spent = sq(game, "e5"), 2
    el(game, "A1").reported = sq(game, "e5")
    activate(game, "A1")
    act(game, "move", 1)                                 # east out of e5
    assert game.knowledge[1].reports[-1][3:] == [-1, 1]


def test_CF_OW_4_the_watcher_fires_once_no_ap_spotted():
    game = watched(dice=[6, 6])
    act(game, "move", 0)
    act(game, "move", 0)
    assert legal(game, "weapon", 0) and legal(game, "pass")
    pool = game.sections[1][0].pool
    act(game, "weapon", 0)
    act(game, "dice", 2)                                 # spotted: the K stands
    assert not el(game, "A1").alive and game.sections[1][0].pool == pool and el(game, "D1").fired


def test_CF_OW_5_fire_resolves_before_the_next_step_a_suppressed_mover_stops():
    game = watched(dice=[1, 5], square="e6")
    act(game, "run", 0, 0)                               # e6 watched: fire before the step to e5
    act(game, "weapon", 0)
    act(game, "dice", 2)                                 # range 5: FS 2, 5 + 2 = 7: S
    a1 = el(game, "A1")
    assert a1.suppressed and a1.square == sq(game, "e6")


def test_CF_OW_6_reports_go_on_after_the_fire_watchers_in_element_order():
    game = watched(dice=[1, 1], watchers=(("D1", "B", "e1"), ("D2", "B", "i5")))
    act(game, "move", 0)
    act(game, "move", 0)
    assert game.decision[1]["element"] == el(game, "D1").slot
    act(game, "pass")
    assert game.decision[1]["element"] == el(game, "D2").slot
    act(game, "weapon", 0)
    act(game, "dice", 2)
    assert el(game, "D2").overwatch == sq(game, "e5")    # still watching after its fire


def test_CF_OW_6_a_suppressed_watcher_stops_and_the_watch_ends_with_the_phase():
    game = watched()
    from envs.cityfight import fire
    fire.suppress(game, el(game, "D1"))
    assert el(game, "D1").overwatch == DEAD
    game = watched()
    from envs.cityfight.flow import FLOW
    FLOW.tasks[EndActionPhase](game)
    assert el(game, "D1").overwatch == DEAD


def test_CF_HID_10_the_movers_side_gets_no_report():
    game = watched()
    act(game, "move", 0)
    act(game, "move", 0)
    assert game.knowledge[0].reports == [] and game.knowledge[1].reports


def test_CF_AUTO_4_a_mover_may_return_overwatch_fire_with_its_last_ap():
    game = watched(dice=[1, 2, 1, 2], square="e6")
    act(game, "move", 0)                                 # e6 watched by D1 at e1
    act(game, "weapon", 0)
    act(game, "dice", 2)                                 # range 5, FS 2: 2 + 2 = 4, no effect
    assert decision(game) == "return_fire" and game.current_side == 0
    act(game, "react", "A1")
    act(game, "dice", 2)
    a1 = el(game, "A1")
    assert a1.fired and a1.ap_spent == 2 and game.knowledge[1].last_fire[0] == sq(game, "e6")
