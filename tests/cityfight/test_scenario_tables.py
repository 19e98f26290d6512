"""The Office Block (CF-SCN-1..8, CF-VAR-1/2), victory (CF-VIC-1..3), tables (CF-TAB-1..7), config validation."""
from pathlib import Path

import pytest

from envs.cityfight import config, victory
from envs.cityfight.game import CityfightGame
from envs.engine.dice import ScriptedDice
from envs.engine.scenario import ScenarioError

from .builders import OFFICE, build, el, office, sq

SCENARIO_FILE = Path(config.scenario_path("office_block"))


def test_CF_SCN_1_map_18_by_18_with_the_legend():
    assert (OFFICE.width, OFFICE.height) == (18, 18)
    rows = ["".join(OFFICE.terrain[y * 18:(y + 1) * 18]) for y in range(18)]
    assert rows[0] == "TT................" and rows[4] == "...BBb...CCc......" and rows[13] == ".WW.......cC.TT..."


def test_CF_SCN_2_search_ratings():
    assert OFFICE.search_ratings == (8, 6, 8, 6, 8, 6, 6, 8, 7, 8, 6, 7, 6, 6, 6, 6, 7, 6,
                                     6, 6, 8, 8, 7, 8, 8, 6, 6, 8, 8, 7, 7, 6, 6, 6, 6, 7)


def test_CF_SCN_3_prepared_office_and_objectives():
    assert OFFICE.prepared == {(x, y) for x in (9, 10, 11) for y in (4, 5)}
    assert OFFICE.objectives == ((4, 4), (10, 4), (10, 5))


def test_CF_SCN_4_day_clear_lr3_ar3_attacker_initiative_eight_turns():
    assert OFFICE.conditions["time"] == "day" and OFFICE.conditions["weather"] == "clear"
    assert OFFICE.ammo_rating == (3, 3) and OFFICE.recovery_bonus == (0, 0) and OFFICE.initiative == 0
    assert OFFICE.turns == 8 and OFFICE.options["force_level"] == "section"


def test_CF_SCN_5_attacker_order_of_battle():
    game = office()
    placed = [(e.name, e.row, e.special, game.name(e.square)) for e in game.elements[0]]
    assert placed == [("AL", "L", None, "k14"), ("A1", "C", "UGL", "b13"), ("A2", "C", "UGL", "k14"),
                      ("A3", "B", "LAW", "b13"), ("A4", "B", "LAW", "k14"), ("A5", "E", None, "n14"), ("A6", "A", None, "o13")]


def test_CF_SCN_6_hidden_setup_one_d6_per_element():
    game = CityfightGame(OFFICE, ScriptedDice([1, 4, 3, 6, 2, 3, 3]))
    assert [game.name(e.square) for e in game.elements[1]] == ["k5", "j6", "e5", "h3", "n3"]
    assert [e.row for e in game.elements[1]] == ["L", "B", "D", "F", "S"] and el(game, "D1").special == "RPG"


def test_CF_SCN_7_attacker_wins_with_all_three_objectives_at_a_check():
    game = office()
    for e, square in zip(game.elements[1], ("a18", "b18", "c18", "d18", "e18")):
        e.square = sq(game, square)
    for e, square in zip(game.elements[0], ("e5", "k5", "k6")):
        e.square = sq(game, square)
    assert victory.objectives_held(game) == 3 and victory.end_of_turn(game) and game.winner == 0


def test_CF_SCN_7_at_the_end_two_objectives_win_else_the_defender():
    game = office()
    game.turn = 8
    for e, square in zip(game.elements[0], ("e5", "k5")):
        e.square = sq(game, square)
    for e in game.elements[1]:
        e.square = sq(game, "a18") if e.slot < 3 else sq(game, "b18")
    assert victory.end_of_turn(game) and game.winner == 0
    game = office()
    game.turn = 8
    assert victory.end_of_turn(game) and game.winner == 1


def test_CF_SCN_8_chokepoints_in_priority_order():
    assert OFFICE.chokepoints == ((10, 6), (5, 5), (12, 4), (6, 4))


def test_CF_VAR_1_night_toggle():
    game = office(night=True)
    assert game.conditions["time"] == "night" and game.conditions["illuminated"] == (15,)
    assert office().conditions["time"] == "day"


def test_CF_VAR_2_smoke_toggle_arms_the_ugls_of_a1_and_a2():
    game = office(smoke=True)
    assert [e.name for e in game.elements[0] if e.smoke] == ["A1", "A2"]
    assert not any(e.smoke for e in office().elements[0])


def test_CF_COND_1_conditions_are_options():
    assert set(OFFICE.conditions) == {"time", "weather", "illuminated"}


def test_CF_VIC_1_control_needs_an_element_and_no_enemy():
    game = build(attackers=[("A1", "B", "e5"), ("A2", "B", "k5")], defenders=[("D1", "B", "k5")])
    assert victory.controls(game, 0, sq(game, "e5")) and not victory.controls(game, 0, sq(game, "k5"))
    assert not victory.controls(game, 1, sq(game, "k5"))


def test_CF_VIC_2_a_side_with_no_elements_loses_at_once_both_a_draw():
    game = build(attackers=[("A1", "B", "e5")], defenders=[("D1", "B", "k5")])
    el(game, "D1").square = -1
    assert victory.check_at_once(game) and game.winner == 0
    game = build(attackers=[("A1", "B", "e5")], defenders=[("D1", "B", "k5")])
    el(game, "D1").square = el(game, "A1").square = -1
    assert victory.check_at_once(game) and game.winner == 2 and game.returns() == (0.0, 0.0)


def test_CF_VIC_3_rewards():
    game = build(attackers=[("A1", "B", "e5")], defenders=[("D1", "B", "k5")])
    game.finish(1, "test")
    assert game.returns() == (-1.0, 1.0)


# Tables ---------------------------------------------------------------------------------------------------
T = OFFICE.tables


def test_CF_TAB_1_element_rows():
    rows = {r: (e.ca, e.fs, e.max_range, e.mg) for r, e in T.elements.items()}
    assert rows["A"] == (1, (2, 1, 1), 30, False) and rows["D"] == (2, (8, 4, 4), 80, True)
    assert rows["S"] == (1, (3, 3, 3), 80, False) and T.elements["S"].dice == 1 and not T.elements["L"].combat


def test_CF_TAB_2_cover_rows():
    assert T.cover == ((6, 8), (7, 9), (7, 9), (8, 10), (9, 11), (10, 12))


def test_CF_TAB_3_he_weapons():
    w = T.he_weapons
    assert (w["UGL"].fs, w["UGL"].min_range, w["UGL"].max_range, w["UGL"].grid) == (5, 1, 20, "G1")
    assert (w["LAW"].fs, w["LAW"].min_range, w["LAW"].max_range, w["LAW"].shots) == (9, 3, 80, 1)
    assert not w["UGL"].announces_origin and w["RPG"].ooa == "any_double"


def test_CF_TAB_4_accuracy_grids():
    g1, g2 = T.grids["G1"], T.grids["G2"]
    assert g1[3] == (0, 0) and g1[8] == g1[9] == (0, 1) and g1[6] == g1[7] == (1, 1) and g1[12] == (2, 2)
    assert g2[8] == (1, 1) and g2[9] == (0, 1)


def test_CF_TAB_5_leader_replacement():
    assert T.leader_replacement == (-2, -1, -1, 0, 0, 1)


def test_CF_TAB_6_smoke_decay():
    assert T.smoke_decay == ((1, 9), (3, 7), (2, 8), (4, 6), (5,))


def test_CF_TAB_7_default_search_ratings():
    assert T.default_sr == ((0, 6), (3, 7), (6, 8), (9, 9))
    assert config.default_search_ratings(T, tuple(".........") + tuple("B" * 9 * 0), 3, 3) == [6]


def test_CF_TER_5_a_scenario_without_search_ratings_takes_the_CF_TAB_7_default(tmp_path):
    text = SCENARIO_FILE.read_text()
    start, end = text.index("search_ratings:"), text.index("prepared:")
    path = tmp_path / "no_ratings.yaml"
    path.write_text(text[:start] + text[end:])
    spec = config.load_scenario(str(path))
    assert spec.search_ratings == tuple(config.default_search_ratings(T, OFFICE.terrain, 18, 18))
    # MSq A1 (a1-c3) holds four Wood squares: 4-6 non-Open squares give SR 8; MSq F3 (p7-r9) none: SR 6.
    assert spec.search_ratings[0] == 8 and spec.search_ratings[2 * 6 + 5] == 6
    game = CityfightGame.new(str(path), seed=0)
    assert game.scenario.search_ratings == spec.search_ratings


# Validation -------------------------------------------------------------------------------------------------
def broken(tmp_path, old: str, new: str) -> str:
    text = SCENARIO_FILE.read_text()
    assert old in text
    path = tmp_path / "bad.yaml"
    path.write_text(text.replace(old, new, 1))
    return str(path)


@pytest.mark.parametrize("old,new,field", [
    ("turns: 8", "turns: zero", "turns"),
    ("  TT................\n", "  TT...............\n", "map"),
    ("objectives: [e5, k5, k6]", "objectives: [e5, z99]", "objectives"),
    ("{id: A5, row: E, square: n14}", "{id: A5, row: Q, square: n14}", "row"),
    ("weapons: [UGL], square: b13}", "weapons: [BAZOOKA], square: b13}", "weapons"),
    ("force_level: section", "force_level: army", "force_level"),
    ("illuminated: [D3]", "illuminated: [Z9]", "illuminated"),
    ("initiative: attacker", "initiatve: attacker", "initiatve"),
])
def test_bad_scenario_names_file_and_field(tmp_path, old, new, field):
    with pytest.raises(ScenarioError) as err:
        config.load_scenario(broken(tmp_path, old, new))
    assert "bad.yaml" in str(err.value) and field in err.value.field


def test_bad_table_names_file_and_field(tmp_path):
    text = Path(OFFICE.tables.path).read_text().replace("fs: [4, 2, 2], max_range: 30", "fs: [4, 2], max_range: 30", 1)
    path = tmp_path / "tables.yaml"
    path.write_text(text)
    with pytest.raises(ScenarioError) as err:
        config.load_tables(str(path))
    assert "tables.yaml" in str(err.value) and err.value.field == "elements.B.fs"
