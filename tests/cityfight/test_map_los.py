"""Grid, terrain and line of sight (CF-GRID-1..5, CF-TER-1..5, CF-LOS-1..4)."""
from envs.cityfight.board import sight
from envs.cityfight.config import BRICK, CLUTTERED, CONCRETE, OPEN, WOOD, WOODEN_METAL

from .builders import OFFICE, activate, build, illegal, legal, office, sq

CORNERS = """
.B.
B..
...
"""
HALF = """
.B.
...
...
"""


def test_CF_GRID_1_map_in_msqs_of_three_by_three_from_the_north_west():
    game = office()
    board = game.board
    assert (board.width, board.height) == (18, 18) and len(board.msq_squares) == 36
    assert board.msq[sq(game, "a1")] == 0 and board.msq[sq(game, "d1")] == 1 and board.msq[sq(game, "a4")] == 6


def test_CF_GRID_2_square_and_msq_ids():
    game = office()
    assert game.name(sq(game, "k6")) == "k6" and game.board.msq_names[game.board.msq[sq(game, "k6")]] == "D2"


def test_CF_GRID_3_range_is_chebyshev():
    game = office()
    assert game.board.range[sq(game, "a1")][sq(game, "c2")] == 2 and game.board.range[sq(game, "k6")][sq(game, "k6")] == 0


def test_CF_GRID_4_own_adjacent_peri_adjacent_msqs():
    game = office()
    b = game.board
    a1 = b.msq[sq(game, "a1")]
    assert [int(b.msq_range[a1][b.msq[sq(game, s)]]) for s in ("c3", "d4", "g7")] == [0, 1, 2]


def test_CF_GRID_5_at_most_three_friendly_elements_per_square():
    game = build(attackers=[("A1", "B", "a9"), ("A2", "B", "b9"), ("A3", "B", "b9"), ("A4", "B", "b9")])
    activate(game, "A1")
    illegal(game, "move", 1)
    game.check_invariants()


def test_CF_TER_1_cover_classes_from_the_legend():
    game = office()
    assert [game.cover[sq(game, s)] for s in ("a3", "h4", "a1", "n2", "g2", "j5")] == \
        [OPEN, CLUTTERED, WOOD, WOODEN_METAL, BRICK, CONCRETE]


def test_CF_TER_2_buildings_and_doorways():
    game = office()
    b = game.board
    office_squares = [sq(game, s) for s in ("j5", "k5", "l5", "j6", "k6", "l6")]
    assert len({b.building[s] for s in office_squares}) == 1
    assert b.building[sq(game, "g2")] != b.building[sq(game, "j5")]
    assert [b.doorway[sq(game, s)] for s in ("l5", "k6", "j5")] == [True, True, False]


def test_CF_TER_3_buildings_and_wood_block_los_open_and_cluttered_do_not():
    game = build("""
.B.:T.
......
......
""")
    assert not sight(game, sq(game, "a1"), sq(game, "c1"))
    assert sight(game, sq(game, "c1"), sq(game, "e1"))     # the rubble at d1 does not block
    assert not sight(game, sq(game, "d1"), sq(game, "f1"))  # the wood at e1 does


def test_CF_TER_4_prepared_squares_and_roof_flag():
    assert (9, 4) in OFFICE.prepared and len(OFFICE.prepared) == 6 and OFFICE.roofs == frozenset()


def test_CF_TER_5_search_ratings_from_the_scenario_or_the_default_table():
    assert OFFICE.search_ratings[:6] == (8, 6, 8, 6, 8, 6)
    game = build(HALF)
    assert game.scenario.search_ratings == (7,)                # one non-Open square: 7 (CF-TAB-7)


def test_CF_LOS_1_centre_to_centre_end_squares_never_block_symmetric():
    game = build("""
.B.
...
...
""")
    assert not sight(game, sq(game, "a1"), sq(game, "c1")) and not sight(game, sq(game, "c1"), sq(game, "a1"))
    assert sight(game, sq(game, "a1"), sq(game, "b1"))


def test_CF_LOS_2_exact_corner_blocked_only_if_both_squares_block():
    assert not sight(build(CORNERS), 0, 4)                     # a1 -> b2: both b1 and a2 block
    game = build(HALF)
    assert sight(game, sq(game, "a1"), sq(game, "b2"))         # only b1 blocks


def test_CF_LOS_3_elements_never_block():
    game = build("""
......
......
......
""", attackers=[("A1", "B", "a1"), ("A2", "B", "b1")], defenders=[("D1", "B", "c1")])
    activate(game, "A1")
    assert legal(game, "fire", "d1")


def test_CF_LOS_4_smoke_stops_sight_into_out_of_and_across():
    game = build("""
......
......
......
""", attackers=[("A1", "B", "a1")])
    a1, c1, e1 = sq(game, "a1"), sq(game, "c1"), sq(game, "e1")
    game.smoke[c1], game.smoke_count = 1, 1
    assert not sight(game, a1, e1) and not sight(game, a1, c1) and not sight(game, c1, e1)
    assert sight(game, c1, c1) and sight(game, a1, sq(game, "a3"))
    activate(game, "A1")
    illegal(game, "fire", "e1")
