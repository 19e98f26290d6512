"""The speed-ups keep the rules exact: every cached table equals the rule computed afresh, and follows the map when
doorways, smoke, damage, rubble or reports change (CF-MOVE-3/4, CF-LOS-1..4, CF-SRCH-1/3, CF-HID-1..13, CF-BOT-8/11)."""
import numpy as np

from agents.scripted.cityfight import CityfightDoctrine, distances, msqs_towards, nearer_edge, step_cost, step_costs
from envs.cityfight import ap, damage, fire, he, knowledge, movement, search, smoke
from envs.cityfight.board import reach_row, sight, sight_row
from envs.cityfight.observation import encode
from tests.checkers import random_positions

from .builders import build, el, office, sq

WALL = """
......
BBBBBB
......
"""
FIELD = """
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


def links_by_rule(game) -> list[list[int]]:
    """CF-MOVE-3/4 step by step, as walk_links was computed before it read the step table."""
    board = game.board
    return [[t for d in range(8) if (t := board.step(s, d)) >= 0 and movement.building_step_ok(game, s, t, d >= 4)]
            for s in range(board.size)]


def test_walk_links_follow_a_breach_in_a_wall():
    game = build(WALL, attackers=[("A1", "C", "a1")])
    view = game.view(0)
    assert view.walk_links() == links_by_rule(game)
    assert sq(game, "b2") not in view.walk_links()[sq(game, "b1")]
    assert damage.breach(game, sq(game, "b2"))                       # CF-HE-13: a new way in and out
    assert view.walk_links() == links_by_rule(game)
    assert view.walk_links()[sq(game, "b1")] == [sq(game, "c1"), sq(game, "b2"), sq(game, "a1")]   # E, S, W


def test_doctrine_walks_are_renewed_when_doorways_change_and_shared_between_doctrines():
    game = build(WALL, attackers=[("A1", "C", "a1")])
    board, goal, start = game.board, sq(game, "a3"), sq(game, "a1")
    attacker, defender = CityfightDoctrine(0), CityfightDoctrine(1)
    attacker.sync(game.view(0))
    assert attacker.walk(board, goal)[start] == -1                   # the wall has no doorway
    damage.breach(game, sq(game, "b2"))
    attacker.sync(game.view(0))
    defender.sync(game.view(1))
    costs = attacker.walk(board, goal)
    assert defender.walk(board, goal) is costs                       # one store (WALKS) by map and doorways
    assert costs[start] == 8                                         # a1 b1 b2 b3 a3: four orthogonal steps
    assert costs == distances(board, links_by_rule(game), goal)


def test_reach_rows_equal_sight_and_range_with_and_without_smoke():
    game = office()
    board = game.board
    for lo, hi in ((1, 80), (1, 3), (2, 10)):
        for a in range(0, board.size, 7):
            rng = board.range[a]
            expected = np.array([sight(game, a, b) for b in range(board.size)]) & (rng >= lo) & (rng <= hi)
            assert np.array_equal(reach_row(game, a, lo, hi), expected)
    smoke.place(game, sq(game, "e5"))                                 # CF-LOS-4: smoke now blocks sight
    assert game.smoke_count
    blocked = 0
    for a in range(0, board.size, 7):
        rng = board.range[a]
        expected = np.array([sight(game, a, b) for b in range(board.size)]) & (rng >= 1) & (rng <= 80)
        assert np.array_equal(reach_row(game, a, 1, 80), expected)
        blocked += int((board.reach(1, 80)[a] & ~expected).sum())
    assert blocked > 0                                               # the static table alone would be wrong now


def test_fire_and_special_targets_read_the_reach_table_and_the_smoke():
    game = build(FIELD, attackers=[("A1", "C", "a1", "RPG")], defenders=[("D1", "B", "i9")])
    e = el(game, "A1")
    assert fire.target_squares(game, e)[sq(game, "e5")] and he.in_reach(game, e, 1, 80)[sq(game, "e5")]
    smoke.place(game, sq(game, "e5"))
    assert not fire.target_squares(game, e)[sq(game, "e5")]          # CF-LOS-4: a smoke square is not seen
    assert not he.in_reach(game, e, 1, 80)[sq(game, "e5")]


def test_search_targets_from_the_table_without_smoke_and_from_sight_with_it():
    game = build(FIELD, attackers=[("A1", "C", "a1")])
    board, e = game.board, el(game, "A1")
    for a in range(board.size):
        assert list(search.clear_search_msqs(board)[a]) == search.msqs_in_sight(board, a, sight_row(game, a))
    assert search.target_msqs(game, e) == [0, 1, 2, 3, 4, 5, 6, 7, 8]
    smoke.place(game, sq(game, "e2"))                                 # smokes all of MSq B1 (d1..f3)
    assert search.target_msqs(game, e) == search.msqs_in_sight(board, e.square, sight_row(game, e.square))
    assert 1 not in search.target_msqs(game, e)                       # CF-SRCH-1: no square of B1 in sight


def test_observation_follows_the_rules_that_write_the_map_and_the_reports():
    """The map and the reports are known unchanged by their stamps: every writer of the rules takes a new one
    (damage.py, smoke.py, knowledge.py), so what they write shows at the next observation."""
    game = office(seed=3)
    before = [encode(game, side) for side in (0, 1)]
    k6, turn = sq(game, "k6"), game.turn
    damage.hit_square(game, k6, "S", sq(game, "k9"))                  # CF-BLD-1
    assert damage.breach(game, sq(game, "e5"))                        # CF-HE-13
    damage.make_rubble(game, sq(game, "c3"))                          # CF-BLD-3
    smoke.place(game, sq(game, "e9"))                                 # CF-SMK-2
    knowledge.told_occupied(game.knowledge[0], sq(game, "d3"), turn)
    knowledge.told_impact(game.knowledge[1], k6, turn)                # CF-HID-9
    knowledge.searched_by_side(game.knowledge[1], game.board.msq[k6], turn)
    for side in (0, 1):
        after = encode(game, side)
        assert not np.array_equal(after, before[side])
        assert np.array_equal(after, encode(game.clone(), side))     # a fresh game has nothing cached
    game.turn += 1                                                    # CF-HID-13: the reports age
    for side in (0, 1):
        assert np.array_equal(encode(game, side), encode(game.clone(), side))


def test_observation_follows_a_position_edited_by_hand_once_refreshed():
    """A hand edit of the map or the reports takes no stamp: `refresh` (as build_position does) renews them all."""
    game = office(seed=3)
    before = [encode(game, side) for side in (0, 1)]
    k6 = sq(game, "k6")
    game.door[k6], game.rubble[k6], game.damage[k6] = 2, True, 5
    game.knowledge[0].occupied[sq(game, "c3")] = game.turn
    game.knowledge[1].impacts[k6] = game.turn
    game.refresh()
    for side in (0, 1):
        after = encode(game, side)
        assert not np.array_equal(after, before[side])
        assert np.array_equal(after, encode(game.clone(), side))


def test_stamps_are_renewed_by_every_writer_and_never_shared_by_a_clone():
    game = office(seed=3)
    k, map_stamp = game.knowledge[0], game.map_stamp
    stamps = [k.stamp]
    K = knowledge
    for write, rows in ((lambda: K.told_occupied(k, 5, 1), {K.OCCUPIED}), (lambda: K.told_empty(k, 6, 1), {K.EMPTY}),
                        (lambda: K.told_empty(k, 5, 1), {K.EMPTY, K.OCCUPIED}),    # clears this turn's report
                        (lambda: K.told_fire(k, 7, 8, 0, 1), {K.ORIGINS, K.OCCUPIED}),
                        (lambda: K.told_searched(k, 0, 4, [9], 1), {K.EXPOSED}),
                        (lambda: K.told_report(k, 10, "B", 0, -1, 1), {K.OCCUPIED}),
                        (lambda: K.told_impact(k, 11, 1), {K.IMPACTS}), (lambda: K.searched_by_side(k, 1, 1), {K.SEARCHED})):
        write()
        assert k.stamp not in stamps
        assert {row for row, stamp in enumerate(k.row_stamps) if stamp == k.stamp} == rows   # what the observation redraws
        stamps.append(k.stamp)
    copy = game.clone()
    assert copy.knowledge[0].stamp not in stamps and copy.map_stamp != map_stamp
    assert game.map_stamp == map_stamp                                # reading the map takes no stamp
    smoke.place(game, sq(game, "e9"))
    assert game.map_stamp != map_stamp


def test_a_clone_shares_no_report_array_with_its_game():
    """Knowledge.turns and its row views are the clone's own: a report told in one never shows in the other."""
    game = office(seed=3)
    knowledge.told_occupied(game.knowledge[0], sq(game, "d3"), 1)
    copy = game.clone()
    for mine, theirs in zip(game.knowledge, copy.knowledge):
        assert mine.to_dict() == theirs.to_dict()
        for key in ("turns", "occupied", "empty", "exposed", "origins", "impacts", "searched"):
            assert not np.shares_memory(getattr(mine, key), getattr(theirs, key)), key
        assert np.shares_memory(theirs.occupied, theirs.turns)        # the rows are views of the clone's own table
    knowledge.told_occupied(copy.knowledge[0], sq(game, "e3"), 1)
    knowledge.searched_by_side(copy.knowledge[0], 2, 1)
    assert game.knowledge[0].occupied[sq(game, "e3")] == -1 and game.knowledge[0].searched[2] == -1
    assert copy.knowledge[0].to_dict() != game.knowledge[0].to_dict()


def test_the_observation_written_in_place_equals_a_fresh_one_at_every_step_of_random_games():
    """The Written buffers (updated where the state changed) against a clone's first, whole writing, for both sides
    at every decision of seeded random games, on the 18 x 18 scenario and on a smaller map (planes scattered)."""
    from envs import registry
    from envs.engine.dice import SeededDice
    rs, checked = registry.get("cityfight"), 0
    small = build(FIELD, attackers=[("A1", "C", "a1"), ("A2", "L", "b1")], defenders=[("D1", "C", "h8")])
    small.dice = SeededDice(5)
    games = [(rs.new_game(seed=seed), seed) for seed in range(4)] + [(small, 5)]
    for start, seed in games:
        for game in random_positions(start, np.random.default_rng(seed), 250):
            fresh = game.clone()
            for side in (0, 1):
                assert np.array_equal(encode(game, side), encode(fresh, side)), (seed, game.turn, side)
                checked += 1
    assert checked > 1500


def test_the_observation_follows_every_element_field_written_by_hand():
    """An element's fields carry no stamp: the observation compares what it shows of them with what it wrote, so a
    field written anywhere (a rule or a hand edit, no refresh) shows at both sides' next observation exactly as in a
    fresh game (own rows and places, CF-HID-2; enemy markers and Engaged, CF-HID-1/11; never the enemy's status)."""
    game = office(seed=3)
    attacker, defender = game.elements[0][1], game.elements[1][0]
    edits = [("square", sq(game, "f6")), ("suppressed", True), ("ap_spent", 1), ("activated", True), ("fired", True),
             ("entered", 2), ("diagonal", True), ("stopped", True), ("ooa", True), ("special_ooa", True),
             ("overwatch", sq(game, "e5")), ("smoke", True), ("smoke_spent", True), ("assaulted", True),
             ("shots", 0), ("special", None), ("square", defender.square), ("square", -1)]
    for e in (attacker, defender):
        for field, value in edits:
            for side in (0, 1):
                encode(game, side)                                    # what was written before the edit
            setattr(e, field, value)
            for side in (0, 1):
                assert np.array_equal(encode(game, side), encode(game.clone(), side)), (e.name, field, side)


def test_msqs_towards_the_attacker_edge_table():
    for edge in "NESW":
        table = msqs_towards(6, 36, edge)
        for here in range(36):
            assert list(table[here]) == [m for m in range(36) if nearer_edge(6, edge, m, here)]
    assert msqs_towards(6, 36, "S")[0] == tuple(range(6, 36))


def test_the_lazy_action_set_answers_as_the_act_actions_list_in_random_games():
    """legal.ActionsOf (the doctrine's `in` questions, CF-ACT-1..11) against act_actions without runs, and the act
    prompt's act_mask against act_actions with them, for every own element at every decision of seeded random games,
    over every action."""
    from envs import registry
    from envs.cityfight.actions import NUM_ACTIONS, OFF
    from envs.cityfight.legal import FAMILY_OF, ActionsOf, act_actions, act_mask, mask_of
    rs, checked = registry.get("cityfight"), 0
    for seed in range(3):
        game, rng = rs.new_game(seed=seed), np.random.default_rng(seed)
        for _ in range(60):
            if game.is_over:
                break
            for e in game.living(game.current_side):
                expected, lazy = set(act_actions(game, e, runs=False)), ActionsOf(game, e)
                assert [a for a in range(NUM_ACTIONS) if a in lazy] == sorted(expected), (seed, e.name)
                assert np.array_equal(act_mask(game, e), mask_of(act_actions(game, e))), (seed, e.name)   # the prompt's
                for family in ("fire", "special", "overwatch"):   # the squares the doctrine reads for its targets
                    squares = {game.board.code[s] + OFF[family] for s in np.flatnonzero(lazy.squares(family))}
                    assert squares == {a for a in expected if FAMILY_OF[a] == family}, (seed, e.name, family)
                checked += 1
            legal = np.flatnonzero(game.legal_action_mask())
            game.apply(int(legal[rng.integers(len(legal))]))
    assert checked > 300


def steps_by_rule(game, e) -> tuple[list[int], list[tuple[int, int]]]:
    """CF-ACT-1..3 walked afresh (movement.steps_from and runs_after), as move_and_run_targets did before it kept them."""
    if not movement.can_move(game, e) or not ap.can_spend(game, e, 1):
        return [], []
    counts, table = movement.friend_counts(game, e.side), movement.step_table(game)
    first = movement.steps_from(game, e.square, e.diagonal, e.rubble_steps, counts, table)
    runs = movement.runs_after(game, e, first, counts, table) if ap.can_spend(game, e, 2) else []
    return [d for d, _ in first], runs


def test_kept_moves_and_runs_equal_the_steps_walked_afresh_in_random_games():
    """The moves and runs kept per square, flags and full stacks (movement.kept_steps) against a fresh walk, for every
    living element of both sides at every decision of seeded random games: stacks, rubble and breaches included."""
    from envs import registry
    rs, checked = registry.get("cityfight"), 0
    for seed in range(3):
        for game in random_positions(rs.new_game(seed=seed), np.random.default_rng(seed), 300):
            for side in (0, 1):
                for e in game.living(side):
                    assert movement.move_and_run_targets(game, e) == steps_by_rule(game, e), (seed, e.name)
                    checked += 1
    assert checked > 3000


def test_kept_moves_follow_a_breach_and_a_full_stack():
    game = build(WALL, attackers=[("A1", "C", "a1"), ("A2", "C", "c1"), ("A3", "C", "c1"), ("A4", "C", "c1")])
    a1, board = game.element(0, 0), game.board

    def run_ends():
        return {board.step(board.step(a1.square, a), b) for a, b in movement.move_and_run_targets(game, a1)[1]}
    assert sq(game, "c1") not in run_ends()                          # a full stack (CF-GRID-5)
    assert movement.move_and_run_targets(game, a1) == steps_by_rule(game, a1)
    assert damage.breach(game, sq(game, "b2"))                        # a new way through the wall (new map stamp)
    assert movement.move_and_run_targets(game, a1) == steps_by_rule(game, a1)
    game.element(0, 3).square = sq(game, "a3")                       # c1 no longer full
    assert movement.move_and_run_targets(game, a1) == steps_by_rule(game, a1)
    assert sq(game, "c1") in run_ends()


def test_step_cost_table_equals_step_cost():
    game = office()
    board, costs = game.board, step_costs(game.board)
    for here in range(board.size):
        for d in range(8):
            there = board.step(here, d)
            if there >= 0:
                assert costs[here][there] == step_cost(board, here, there)
