"""CF-HID-4 (clarified): who decides next (PettingZoo's agent_selection) depends only on what the other side knows.

Each test plays the same actions in games that differ only in what one side may not know, and checks that the
sequence of deciders (and decision kinds) is the same: a question the rules could skip is asked, with the forced
answer (Pass, Out) as its only legal choice.
"""
from envs.cityfight.search import JOIN_SLOTS

from .builders import act, activate, build, decision, el, forced, legal, search_msq

MAP = """
............
............
............
............
............
............
"""


def answered(game, *answers) -> list[tuple]:
    """(who decides, what kind) before each answer, then after the last: what the other side's agent_selection shows
    (the kind only for the record: a side never sees the enemy's)."""
    seen = []
    for family, *args in answers:
        seen.append((game.current_side, decision(game)))
        act(game, family, *args)
    return seen + [(game.current_side, decision(game))]


def test_CF_HID_4_an_element_that_cannot_act_is_asked_with_pass_alone():
    """CF-TURN-4: with a pool of 1 the element cannot act after its first step; it is asked all the same."""
    games = [build(MAP, attackers=[("A1", "B", "b2")], defenders=[("D1", "B", "k5")], pools=(pool, 12))
             for pool in (1, 3)]
    sequences = []
    for game in games:
        activate(game, "A1")
        act(game, "move", 2)
        assert forced(game) == (game.sections[0][0].pool == 0)
        sequences.append(answered(game, ("pass",)))
    assert sequences[0] == sequences[1] == [(0, "act"), (1, "activate")]


def test_CF_HID_4_an_element_that_spent_2_ap_is_asked_with_pass_alone():
    game = build(MAP, attackers=[("A1", "B", "b2")], defenders=[("D1", "B", "k5")])
    activate(game, "A1")
    act(game, "run", 2, 2)
    assert decision(game) == "act" and forced(game) and game.current_side == 0


def test_CF_HID_4_a_side_that_cannot_activate_is_asked_and_may_only_declare_out():
    """CF-TURN-6: a defender whose elements are all suppressed is asked like one that could activate."""
    sequences = []
    for suppressed in (True, False):
        game = build(MAP, attackers=[("A1", "B", "b2")], defenders=[("D1", "B", "k5")])
        el(game, "D1").suppressed = suppressed
        game.refresh()
        activate(game, "A1")
        sequences.append(answered(game, ("pass",), ("out",)))
        assert game.outs[1] and game.knowledge[0].enemy_out_told
    assert sequences[0] == sequences[1] == [(0, "act"), (1, "activate"), (0, "activate")]
    game = build(MAP, attackers=[("A1", "B", "b2")], defenders=[("D1", "B", "k5")])
    el(game, "D1").suppressed = True
    game.refresh()
    activate(game, "A1")
    act(game, "pass")
    assert forced_only(game, "out")


def forced_only(game, family: str) -> bool:
    return legal(game, family) and int(game.legal_action_mask().sum()) == 1


def test_CF_HID_4_the_same_join_questions_whoever_shares_the_searchers_square():
    """CF-ACT-12 / CF-HID-5: JOIN_SLOTS questions, whether the square holds no one else, an element without AP or
    one able to join; the enemy cannot tell which from who decides."""
    cases = {"alone": [], "spent": [("A2", "B", "b2", None, {"ap_spent": 2})], "able": [("A2", "B", "b2")]}
    sequences = {}
    for name, others in cases.items():
        game = build(MAP, attackers=[("A1", "B", "b2"), *others], defenders=[("D1", "B", "k5")], dice=[3, 3])
        activate(game, "A1")
        joins = [("pass",)] * JOIN_SLOTS
        sequences[name] = answered(game, ("search", "A1"), *joins)
        assert game.knowledge[1].last_search[1] == 3 + 3 + 2     # nobody joined: own MSq +2 only
    assert sequences["alone"] == sequences["spent"] == sequences["able"]
    assert [kind for _, kind in sequences["alone"]] == ["act"] + ["join"] * JOIN_SLOTS + ["act"]


def test_CF_HID_4_a_join_slot_without_an_element_allows_only_pass():
    game = build(MAP, attackers=[("A1", "B", "b2"), ("A2", "B", "b2")], defenders=[("D1", "B", "k5")], dice=[3, 3])
    activate(game, "A1")
    act(game, "search", "A1")
    assert decision(game) == "join" and legal(game, "join") and game.decision[1]["element"] == el(game, "A2").slot
    act(game, "join")
    assert decision(game) == "join" and forced(game)


def test_CF_HID_4_the_same_ifa_questions_whether_the_searchers_may_fire_or_not():
    """CF-SRCH-23: after a search that spotted squares, the searcher and every join slot are asked, whether they
    may fire (not fired yet, AP left) or not; after a search that spotted nothing, no IFA question."""
    sequences = []
    for fired in (False, True):
        game = build(MAP, attackers=[("A1", "B", "b2")], defenders=[("D1", "B", "c2")], dice=[3, 3])
        el(game, "A1").fired = fired
        game.refresh()
        activate(game, "A1")
        search_msq(game, "A1")                          # c2 is Open and occupied: declared (CF-SRCH-4)
        assert decision(game) == "ifa" and legal(game, "fire", "c2") != fired
        sequences.append(answered(game, *[("pass",)] * (1 + JOIN_SLOTS)))
    assert sequences[0] == sequences[1]
    assert [kind for _, kind in sequences[0]] == ["ifa"] * (1 + JOIN_SLOTS) + ["act"]
    game = build(MAP, attackers=[("A1", "B", "b2")], defenders=[("D1", "B", "k5")], dice=[3, 3])
    activate(game, "A1")
    search_msq(game, "A1")                              # nothing found
    assert decision(game) == "act"
