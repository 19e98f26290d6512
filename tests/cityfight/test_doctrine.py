"""The scripted doctrine (CF-BOT-1..13): its exact choice in built situations, and that it beats random play."""
import numpy as np

from agents.base import decide
from agents.scripted.cityfight import CityfightDoctrine, Picture
from envs.cityfight import hidden, knowledge
from envs.cityfight.state import Smoke
from envs.engine.dice import ScriptedDice, SeededDice
from envs.engine.grid import parse_square_id
from training.measure.simulate import Matchup, run_series
from training.measure.stats import tally_side

from .builders import act, activate, build, el, office, pass_forced, place, scenario, search_msq, sq

MAP = """
.........
.........
...cC....
.........
.........
.........
.........
.........
.........
"""
# d3 is a Concrete doorway square (faces N, W, S), e3 Concrete; MSqs: A1 = a1-c3, B1 = d1-f3, ..., C3 = g7-i9.


def spec(map_text: str = MAP, **squares):
    """The test map with objectives / chokepoints given as square IDs."""
    return scenario(map_text, **{k: tuple(parse_square_id(s) for s in v) for k, v in squares.items()})


def choose(game, side: int | None = None) -> int:
    side = game.current_side if side is None else side
    return CityfightDoctrine(side).act(None, game.legal_action_mask(), game.view(side))


def choice(game, side: int | None = None) -> str:
    """The doctrine's choice for the side to decide, in words."""
    return game.action_label(choose(game, side))


def play(game, faces=()) -> str:
    """Apply the doctrine's choice (with these dice scripted next); return it in words."""
    words = choice(game)
    if faces:
        game.dice = ScriptedDice(list(faces))
    game.apply(choose(game))
    return words


def seen(game, side: int, *squares: str) -> None:
    """`side` was told these squares hold enemy this turn (a search, a fire origin...)."""
    for s in squares:
        knowledge.told_occupied(game.knowledge[side], sq(game, s), game.turn)
    game.refresh()


def searched(game, side: int, *msqs: str) -> None:
    """`side` searched these MSqs this turn (all of them if none is named)."""
    names = game.board.msq_names
    for m in (msqs or names):
        knowledge.searched_by_side(game.knowledge[side], names.index(m), game.turn)


def defender_to_activate(game) -> None:
    act(game, "out")                                     # the attacker declares Out: the defender activates


# CF-BOT-1 ------------------------------------------------------------------------------------------------------
def test_CF_BOT_1_hidden_enemy_state_never_changes_the_choice():
    game = office(seed=5)
    game.dice = SeededDice(5)
    agents = [CityfightDoctrine(0), CityfightDoctrine(1)]
    checked = 0
    for step in range(400):
        if game.current_side is None:
            break
        side = game.current_side
        action = decide(agents[side], game, side)
        if step % 2 == 0:
            for variant in hidden.hidden_variants(game, side):
                assert choose(variant, side) == action, (step, game.action_label(action))
            checked += 1
        game.apply(action)
    assert checked >= 80


def test_CF_BOT_1_no_rolls_and_ties_to_the_lowest_element_then_reading_order():
    game = build(spec=spec(objectives=["d3"]), attackers=[("A1", "B", "e8"), ("A2", "B", "c8")],
                 defenders=[("D1", "B", "i1")])
    game.dice = ScriptedDice([])                         # any roll would raise
    assert choice(game) == "activate element A1"         # same distance to d3: the lower element ID
    el(game, "A1").square, el(game, "A2").square = sq(game, "c8"), sq(game, "e8")
    assert choice(game) == "activate element A1"
    assert game.dice.log == []
    # an IFA between two Open squares at the same range: reading order
    game = build(spec=spec(), attackers=[("A1", "C", "e7")], defenders=[("D1", "B", "f5"), ("D2", "B", "d5")],
                 dice=[3, 3])
    activate(game, "A1")
    search_msq(game, "B2")
    assert choice(game) == "fire at d5"


# CF-BOT-2 ------------------------------------------------------------------------------------------------------
def test_CF_BOT_2_contacts_are_this_or_last_turns_reports_until_declared_empty():
    game = build(spec=spec(), attackers=[("A1", "B", "a9")], defenders=[("D1", "B", "i1"), ("D2", "B", "h2")])
    game.turn = 3
    k = game.knowledge[0]
    for name, turn in (("e5", 3), ("f5", 2), ("g5", 1), ("h5", 2)):
        k.occupied[sq(game, name)] = turn
    knowledge.told_empty(k, sq(game, "h5"), 3)           # a later search declared h5 empty
    place(game, 0, "A2", "B", "b2")
    place(game, 1, "D3", "B", "b2")                      # Engaged: a contact without a report
    picture = Picture(CityfightDoctrine(0), game.view(0))
    assert [game.name(s) for s in picture.contacts] == ["b2", "e5", "f5"]


# CF-BOT-3 ------------------------------------------------------------------------------------------------------
def test_CF_BOT_3_engaged_first_then_nearest_the_objective_leader_last():
    attackers = [("AL", "L", "d5"), ("A1", "B", "d9"), ("A2", "B", "d7")]
    game = build(spec=spec(objectives=["d3"]), attackers=attackers, defenders=[("D1", "B", "i1")])
    assert choice(game) == "activate element A2"         # nearer d3 than A1; the leader, nearest, goes last
    game = build(spec=spec(objectives=["d3"]), attackers=attackers + [("A3", "B", "h8")],
                 defenders=[("D1", "B", "h8")])
    assert choice(game) == "activate element A3"         # Engaged first


def test_CF_BOT_3_a_defender_with_a_contact_in_range_and_los_goes_first():
    game = build(spec=spec(objectives=["d3"]), attackers=[("A1", "B", "a9")],
                 defenders=[("D1", "B", "d3"), ("D2", "B", "h1")])
    seen(game, 1, "i6")                                  # in D2's sight, not in D1's
    defender_to_activate(game)
    assert choice(game) == "activate element D2"         # before D1 (lower ID, on the objective, searching)


# CF-BOT-4 ------------------------------------------------------------------------------------------------------
def test_CF_BOT_4_an_engaged_element_fires_into_its_own_square_else_passes():
    game = build(spec=spec(objectives=["d3"]), attackers=[("A1", "B", "e6")], defenders=[("D1", "B", "e6")])
    assert choice(game) == "activate element A1"
    activate(game, "A1")
    assert choice(game) == "fire at e6"
    game = build(spec=spec(objectives=["d3"]), attackers=[("A1", "B", "e6", None)], defenders=[("D1", "B", "e6")])
    el(game, "A1").fired = True                          # its one fire of the turn is spent: nothing to do
    game.refresh()
    assert choice(game) == "declare Out"


# CF-BOT-5 ------------------------------------------------------------------------------------------------------
def test_CF_BOT_5_always_return_fire_with_the_lowest_element_and_two_dice():
    game = build(spec=spec(), attackers=[("A1", "B", "e8")], defenders=[("D1", "B", "e4"), ("D2", "B", "e4")],
                 dice=[1, 2])
    activate(game, "A1")
    act(game, "fire", "e4")
    act(game, "dice", 2)
    assert game.decision[0] == "return_fire" and choice(game) == "return fire with element D1"
    play(game)
    assert choice(game) == "roll 2 dice"


def test_CF_BOT_5_overwatch_fire_special_weapon_on_a_building_square_else_kinetic():
    for square, start, weapon in (("d3", "d4", "special weapon"), ("d5", "d6", "kinetic weapons")):
        game = build(spec=spec(), attackers=[("A1", "B", start)], defenders=[("D1", "B", "d8", "RPG")])
        el(game, "D1").overwatch, el(game, "D1").ap_spent = sq(game, square), 2
        activate(game, "A1")
        act(game, "move", 0)                             # north into the watched square
        assert game.decision[0] == "overwatch_fire" and choice(game) == f"overwatch fire with the {weapon}"


# CF-BOT-6 ------------------------------------------------------------------------------------------------------
def test_CF_BOT_6_a_contact_is_searched_with_2_ap_then_ifa_else_fired_at_unspotted():
    game = build(spec=spec(), attackers=[("A1", "B", "a9")], defenders=[("D1", "B", "e4")])
    defender_to_activate(game)
    seen(game, 1, "e8")
    activate(game, "D1")
    assert choice(game) == "search MSq B3"
    el(game, "D1").ap_spent = 1                          # 1 AP left: unspotted fire
    game.refresh()
    assert choice(game) == "fire at e8"


def test_CF_BOT_6_ifa_at_the_spotted_square_of_lowest_cover_then_nearest():
    board = MAP.replace("\n.........\n.........\n.........\n.........\n.........\n.........\n",
                        "\n.........\n.....:...\n.........\n.........\n.........\n.........\n", 1)
    game = build(spec=spec(board), attackers=[("A1", "C", "e7")],
                 defenders=[("D1", "B", "f5"), ("D2", "B", "d4"), ("D3", "B", "e5")], dice=[6, 6])
    activate(game, "A1")
    search_msq(game, "B2")                            # declares d4, e5 (Open); reveals f5 (Cluttered)
    assert choice(game) == "fire at e5"                  # Open before Cluttered f5 (nearer); e5 nearer than d4


def test_CF_BOT_6_special_weapon_at_an_objective_contact_if_no_own_element_is_next_to_it():
    game = build(spec=spec(objectives=["d3"]), attackers=[("A1", "B", "d7", "LAW")], defenders=[("D1", "B", "d3")])
    seen(game, 0, "d3")
    activate(game, "A1")
    assert choice(game) == "fire special weapon at d3"
    place(game, 0, "A2", "B", "c4")                      # the blast would hit A2: the LAW team advances
    assert choice(game) == "search MSq B1"


def test_CF_BOT_6_the_goal_contact_next_to_it_is_engaged_then_assaulted_once_covered():
    game = build(spec=spec(objectives=["d3"]), attackers=[("A1", "B", "d4"), ("A2", "B", "b5")],
                 defenders=[("D1", "B", "d3")])
    seen(game, 0, "d3")
    activate(game, "A1")
    assert choice(game) == "search MSq B1"               # CF-BOT-6: search the contact's MSq, IFA follows
    el(game, "A1").ap_spent = 1
    assert choice(game) == "fire at d3"                  # 1 AP: unspotted fire
    el(game, "A2").fired = True                          # an own element 2 squares from d3 has fired this turn
    assert choice(game) == "move N"                      # CF-BOT-8: the step in (close assault)


# CF-BOT-7 ------------------------------------------------------------------------------------------------------
def test_CF_BOT_7_unspotted_fire_one_die_with_an_mg_else_two():
    for row, dice in (("E", "roll 1 die"), ("B", "roll 2 dice")):
        game = build(spec=spec(), attackers=[("A1", "B", "a9")], defenders=[("D1", row, "e4")])
        defender_to_activate(game)
        seen(game, 1, "e8")
        activate(game, "D1")
        el(game, "D1").ap_spent = 1
        game.refresh()
        play(game)
        assert choice(game) == dice
    game = build(spec=spec(), attackers=[("A1", "E", "e7")], defenders=[("D1", "B", "e5")], dice=[3, 3])
    activate(game, "A1")
    search_msq(game, "B2")
    play(game)                                           # IFA: spotted fire
    assert choice(game) == "roll 2 dice"


# CF-BOT-8 ------------------------------------------------------------------------------------------------------
def test_CF_BOT_8_search_the_objectives_msq_then_move_on_a_shortest_path():
    game = build(spec=spec(objectives=["d3"]), attackers=[("A1", "B", "d8")], defenders=[("D1", "B", "i1")])
    activate(game, "A1")
    assert play(game, [1, 1]) == "search MSq B1"         # unsearched this turn or last
    pass_forced(game)                                    # the join slots: nobody there (CF-HID-4)
    assert choice(game) == "move N"


def test_CF_BOT_8_prefers_non_open_squares_then_reading_order():
    rubble = MAP.replace("\n.........\n.........\n.........\n.........\n", "\n.........\n....:....\n"
                         ".........\n.........\n", 1)
    for board, step in ((MAP, "move NW"), (rubble, "move N")):
        game = build(spec=spec(board, objectives=["d3"]), attackers=[("A1", "B", "e6")], defenders=[("D1", "B", "i1")])
        searched(game, 0, "B1")
        activate(game, "A1")
        assert choice(game) == step                      # d5 and e5 are both on a shortest way to d4, d3


def test_CF_BOT_8_avoids_overwatch_markers_except_on_the_objective():
    for marker, step in (("d5", "move NW"), ("d3", "move N")):
        game = build(spec=spec(objectives=["d3"]), attackers=[("A1", "B", "d6")], defenders=[("D1", "B", "i9")])
        el(game, "D1").overwatch = sq(game, marker)
        searched(game, 0, "B1")
        activate(game, "A1")
        assert choice(game) == step


def test_CF_BOT_8_an_element_alone_on_an_objective_keeps_it():
    game = build(spec=spec(objectives=["d3", "h8"]), attackers=[("A1", "B", "d3"), ("A2", "B", "d4")],
                 defenders=[("D1", "B", "i1")])
    searched(game, 0)
    assert choice(game) == "activate element A2"
    activate(game, "A2")
    assert choice(game) == "move SE"                     # to h8; A1 stays on d3


# CF-BOT-9 ------------------------------------------------------------------------------------------------------
def test_CF_BOT_9_the_leader_goes_to_a_suppressed_element_within_one_msq():
    game = build(spec=spec(objectives=["d3"]), attackers=[("AL", "L", "e8"), ("A1", "B", "c9")],
                 defenders=[("D1", "B", "i1")])
    el(game, "A1").suppressed = True
    searched(game, 0)
    activate(game, "AL")
    assert choice(game) == "move W"                      # d8 or d9 lead to c9: reading order


def test_CF_BOT_9_the_leader_never_steps_into_an_open_square_of_an_msq_with_a_contact():
    for row, step in (("L", "move NW"), ("B", "move N")):
        game = build(spec=spec(objectives=["d3"]), attackers=[("A1", row, "d7")], defenders=[("D1", "B", "i1")])
        seen(game, 0, "f4")                              # a contact in MSq B2 (d4-f6), 3 squares away
        searched(game, 0)
        activate(game, "A1")
        assert choice(game) == step                      # the leader goes by c6 (MSq A2); others by d6


# CF-BOT-10 -----------------------------------------------------------------------------------------------------
def test_CF_BOT_10_first_activation_an_mg_element_watches_the_first_unwatched_chokepoint():
    game = build(spec=spec(objectives=["d3"], chokepoints=["e6", "c6"]), attackers=[("A1", "B", "a9")],
                 defenders=[("D1", "B", "b1"), ("D2", "F", "h2"), ("D3", "D", "i2")])
    defender_to_activate(game)
    assert choice(game) == "activate element D2"
    activate(game, "D2")
    assert play(game) == "overwatch e6"
    pass_forced(game)                                    # 2 AP spent: Pass alone ends the activation (CF-HID-4)
    activate(game, "D3")                                 # a later activation: no more chokepoint watching
    assert not choice(game).startswith("overwatch")
    game = build(spec=spec(objectives=["d3"], chokepoints=["e6", "c6"]), attackers=[("A1", "B", "a9")],
                 defenders=[("D1", "B", "b1", None), ("D2", "F", "h2")])
    el(game, "D1").overwatch, el(game, "D1").ap_spent = sq(game, "e6"), 2
    defender_to_activate(game)
    activate(game, "D2")
    assert choice(game) == "overwatch c6"                # e6 is watched already


# CF-BOT-11 -----------------------------------------------------------------------------------------------------
def test_CF_BOT_11_defender_searches_towards_the_attackers_edge():
    game = build(spec=spec(objectives=["d3"]), attackers=[("A1", "B", "a9")], defenders=[("D1", "B", "d3")])
    defender_to_activate(game)
    activate(game, "D1")
    assert choice(game) == "search MSq A2"               # MSq range 1 south of B1, reading order first
    searched(game, 1, "A2", "B2", "C2")
    assert choice(game) == "search MSq A3"


def test_CF_BOT_11_the_nearest_free_element_moves_to_an_objective_with_no_friend_else_passes():
    game = build(spec=spec(objectives=["d3", "e5"]), attackers=[("A1", "B", "a9")],
                 defenders=[("D1", "B", "d3"), ("D2", "B", "h1"), ("D3", "B", "g2")])
    searched(game, 1)
    defender_to_activate(game)
    assert choice(game) == "activate element D3"         # D1 is nearer e5, but on the other objective
    activate(game, "D3")
    assert choice(game) == "move SW"                     # f3 and g3 are on shortest ways: reading order
    place(game, 1, "D4", "B", "e5")                      # every objective has a friend: nothing to do
    assert choice(game) == "pass / decline"


# CF-BOT-12 -----------------------------------------------------------------------------------------------------
def test_CF_BOT_12_an_attacker_ugl_smokes_the_first_open_path_square_seen_by_a_contact_once_a_turn():
    game = build(spec=spec(objectives=["d3"]), attackers=[("A1", "C", "d9", "UGL"), ("A2", "C", "d8", "UGL")],
                 defenders=[("D1", "B", "i1")], smoke=True)
    for name in ("A1", "A2"):
        el(game, name).smoke = True
    searched(game, 0)
    seen(game, 0, "i5")                                  # sees e5 and the squares north of it
    activate(game, "A2")
    assert choice(game) == "fire smoke at d7"            # its next square, in the contact's sight
    game.smoke_blocks.append(Smoke(sq(game, "a9"), game.turn, [5]))   # a smoke of this turn already
    assert choice(game) == "move N"


# CF-BOT-13 -----------------------------------------------------------------------------------------------------
def test_CF_BOT_13_out_when_no_element_has_an_action():
    game = build(spec=spec(objectives=["d3"]), attackers=[("A1", "B", "d3")], defenders=[("D1", "B", "i1")])
    searched(game, 0)
    assert choice(game) == "declare Out"                 # it holds the only objective and has no contact
    game = build(spec=spec(objectives=["d3"]), attackers=[("A1", "B", "a9")], defenders=[("D1", "B", "d3")])
    defender_to_activate(game)
    assert choice(game) == "activate element D1"         # a search towards the attacker's edge to make
    searched(game, 1)
    assert choice(game) == "declare Out"


# The view's queries -------------------------------------------------------------------------------------------
def test_view_act_mask_without_runs_is_the_act_mask_less_the_runs():
    from envs.cityfight.actions import OFF
    runs = set(range(OFF["run"], OFF["run"] + 64))
    game = office(seed=3)
    game.dice = SeededDice(3)
    rng = np.random.default_rng(3)
    for _ in range(150):
        if game.current_side is None:
            break
        view = game.view(game.current_side)
        for e in view.own_elements():
            assert sorted(view.act_mask(e, runs=False)) == sorted(set(view.act_mask(e)) - runs)
        game.apply(int(rng.choice(np.flatnonzero(game.legal_action_mask()))))


# Beats random play ------------------------------------------------------------------------------------------------
SEEDS = range(50)


def tallies(agents: tuple[str, str]) -> list:
    records = run_series(Matchup("cityfight", None, agents), SEEDS)
    return [tally_side(records, side) for side in (0, 1)]


def apart(better, worse) -> bool:
    """More wins, and the 95 % Wilson intervals of the wins apart."""
    return better.wins > worse.wins and better.interval("wins")[0] > worse.interval("wins")[1]


def test_scripted_doctrine_beats_random_from_both_sides():
    scripted_attacker, scripted_defender = tallies(("scripted", "random")), tallies(("random", "scripted"))
    assert apart(scripted_attacker[0], scripted_attacker[1]), scripted_attacker
    assert apart(scripted_defender[1], scripted_defender[0]), scripted_defender
    # and in the attacker's seat against the scripted defender it does better than random play there
    both_scripted = tallies(("scripted", "scripted"))
    assert apart(both_scripted[0], scripted_defender[0]), (both_scripted, scripted_defender)

