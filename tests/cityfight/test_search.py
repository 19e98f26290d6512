"""Search (CF-SRCH-1..23)."""
from envs.cityfight import search

from .builders import act, activate, build, decision, el, illegal, legal, pass_forced, scenario, search_msq, sq

MAP = """
............
.........B..
............
............
....CC......
....Cc......
"""
WALLED = """
..T......
..T......
..T......
"""


def searcher(square="a1", enemies=(("D1", "B", "e5"),), map_text=MAP, row="B", **kw):
    game = build(map_text, attackers=[("A1", row, square)], defenders=list(enemies), **kw)
    activate(game, "A1")
    return game


def n_told(game) -> int:
    return game.knowledge[1].last_search[1]


def test_CF_SRCH_1_own_adjacent_or_peri_adjacent_msq_with_los():
    game = searcher()
    assert legal(game, "search", "A1") and legal(game, "search", "B2") and legal(game, "search", "C1")
    illegal(game, "search", "D1")                      # three MSqs away
    game = searcher("a2", map_text=WALLED, enemies=[("D1", "B", "i3")])
    illegal(game, "search", "B1")                      # no LOS past the wood column
    assert legal(game, "search", "A1")


def test_CF_SRCH_2_no_search_from_an_engaged_square():
    game = searcher("g2", enemies=[("D1", "B", "g2")])
    illegal(game, "search", "C1")
    assert not game.legal_action_mask()[[game.board.mcode[m] for m in range(8)]].any() or True
    assert not search.may_search(game, el(game, "A1"))


def test_CF_SRCH_3_from_smoke_only_the_own_msq():
    game = searcher()
    game.smoke[sq(game, "a1")], game.smoke_count = 1, 1
    game.refresh()
    assert legal(game, "search", "A1")
    illegal(game, "search", "B1")


def test_CF_SRCH_4_occupied_open_squares_are_declared_without_a_roll():
    game = searcher(enemies=[("D1", "B", "h3")], dice=[1, 1])
    search_msq(game, "C1")                          # N = 2, SR 6: still declared
    assert game.knowledge[0].occupied[sq(game, "h3")] == 1 and sq(game, "h3") in game.knowledge[0].spotted
    assert game.knowledge[0].empty[sq(game, "g1")] == 1


def test_CF_SRCH_5_smoke_squares_are_skipped_unless_searcher_in_msq():
    game = searcher(enemies=[("D1", "B", "h3")], dice=[6, 6])
    game.smoke[sq(game, "h3")], game.smoke_count = 1, 1
    search_msq(game, "C1")
    assert game.knowledge[0].occupied[sq(game, "h3")] == -1 and game.knowledge[0].empty[sq(game, "h3")] == -1
    game = searcher("g1", enemies=[("D1", "B", "h3")], dice=[1, 1])
    game.smoke[sq(game, "h3")], game.smoke_count = 1, 1
    search_msq(game, "C1")
    assert game.knowledge[0].occupied[sq(game, "h3")] == 1


def test_CF_SRCH_6_one_2d6_plus_dms_announced_to_the_enemy():
    game = searcher(dice=[5, 2])
    search_msq(game, "B2")
    assert n_told(game) == 7 and game.knowledge[1].last_search[0] == game.board.msq_names.index("B2")


def test_CF_SRCH_7_under_announcing_is_an_option():
    game = searcher(dice=[5, 2], allow_under_announce=True)
    search_msq(game, "B2")
    assert decision(game) == "announce"
    act(game, "announce", 2)
    assert n_told(game) == 5
    game = searcher(dice=[5, 2])
    search_msq(game, "B2")
    assert decision(game) != "announce" and n_told(game) == 7


def test_CF_SRCH_8_non_open_square_revealed_when_n_plus_dms_reach_sr():
    game = searcher(dice=[4, 4])                       # N 8 vs SR 8 of B2
    search_msq(game, "B2")
    assert game.knowledge[0].occupied[sq(game, "e5")] == 1
    game = searcher(dice=[4, 3])
    search_msq(game, "B2")
    assert game.knowledge[0].occupied[sq(game, "e5")] == -1 and game.knowledge[0].empty[sq(game, "e5")] == -1


def test_CF_SRCH_9_effective_sr_at_most_7_in_own_msq():
    game = searcher("d4", dice=[2, 3])                 # N = 5 + 2 (own MSq) = 7 >= min(8, 7)
    assert search.effective_sr(game, el(game, "A1"), game.board.msq[sq(game, "e5")]) == 7
    search_msq(game, "B2")
    assert game.knowledge[0].occupied[sq(game, "e5")] == 1


def spotter(game, target_msq: str, joined: int = 0) -> int:
    return search.spotter_dm(game, el(game, "A1"), game.board.msq_names.index(target_msq), joined)


def test_CF_SRCH_10_own_msq_plus_2():
    assert spotter(searcher(), "A1") == 2


def test_CF_SRCH_11_peri_adjacent_minus_2():
    assert spotter(searcher(), "C1") == -2 and spotter(searcher(), "B1") == 0


def test_CF_SRCH_12_plus_1_per_joining_element():
    assert spotter(searcher(), "B1", joined=2) == 2


def target(game, **flags) -> int:
    d1 = el(game, "D1")
    for k, v in flags.items():
        setattr(d1, k, v)
    return search.target_dm(game, d1)


def test_CF_SRCH_13_suppressed_minus_2():
    assert target(searcher(), suppressed=True) == -2


def test_CF_SRCH_14_fired_and_not_moved_plus_2():
    assert target(searcher(), fired_still=True) == 2


def test_CF_SRCH_15_seen_earlier_this_turn_and_not_moved_plus_1():
    game = searcher(dice=[4, 4])
    search_msq(game, "B2")
    assert el(game, "D1").seen_still and target(game) == 1


def test_CF_SRCH_16_prepared_building_minus_2():
    spec = scenario(MAP, prepared=frozenset({(4, 4)}))
    game = build(spec=spec, attackers=[("A1", "B", "a1")], defenders=[("D1", "B", "e5")])
    assert target(game) == -2


def test_CF_SRCH_17_sniper_minus_3():
    game = searcher(enemies=[("D1", "S", "e5")])
    assert target(game) == -3


def test_CF_SRCH_18_roof_plus_1():
    assert target(searcher(), roof=True) == 1


def test_CF_SRCH_19_weather_dms_only_outside_the_own_msq():
    game = searcher()
    game.conditions = dict(game.conditions, weather="fog")
    assert spotter(game, "B1") == -2 and spotter(game, "A1") == 2
    game.conditions["weather"] = "rain"
    assert spotter(game, "B1") == -1


def test_CF_SRCH_20_night_minus_2_on_every_search():
    game = searcher(night=True)
    assert spotter(game, "A1") == 0 and spotter(game, "B1") == -2


def test_CF_SRCH_21_at_night_fired_and_not_moved_gives_plus_4():
    assert target(searcher(night=True), fired_still=True) == 4


def test_CF_SRCH_22_spotted_squares_last_until_the_activation_ends():
    game = searcher(enemies=[("D1", "B", "b1")], dice=[1, 1])
    search_msq(game, "A1")
    act(game, "pass")                                   # declines the IFA
    pass_forced(game)                                   # the two join slots' IFA questions: nobody there
    assert sq(game, "b1") in game.knowledge[0].spotted and decision(game) == "act"
    act(game, "pass")                                   # ends A1's activation
    assert game.knowledge[0].spotted == []


def test_CF_SRCH_23_ifa_right_after_a_search_at_a_spotted_square():
    game = searcher(enemies=[("D1", "B", "b1"), ("D2", "B", "d1")], dice=[1, 1, 6, 6])
    search_msq(game, "A1")
    assert decision(game) == "ifa"
    illegal(game, "fire", "c1")                         # not spotted
    act(game, "fire", "b1")
    act(game, "dice", 2)                                # spotted fire: the K stands
    assert not el(game, "D1").alive and el(game, "A1").ap_spent == 2
