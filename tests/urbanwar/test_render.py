"""The text map names its models as the lists, the choices and the events do, within 80 columns, and names never
tell a face-down order (UW-HID-2)."""
from __future__ import annotations

import types

from envs.urbanwar import render
from tests.urbanwar.helpers import position


def map_rows(text: str) -> dict[int, str]:
    return {int(line[:2]): line[3:] for line in text.splitlines() if line[:2].strip().isdigit() and line[2] == " "}


def test_each_row_names_its_models_left_to_right_after_the_map():
    game = position({"models": {"A3": [5, 1], "A1": [9, 1], "B3": [20, 1], "B4": [7, 30]},
                     "orders": {"B3": "overwatch", "B4": "snap"}, "start": ("action", "A3")})
    for side in (0, 1):
        rows = map_rows(game.render_text(side))
        assert rows[1] == "....." "A" "..." "A" + "." * 10 + "B" + "." * 27 + "  A3 A1 B3"
        assert rows[30][7] == "B" and rows[30].endswith("%.....  B4") and rows[2] == "." * 48
        assert "overwatch" not in game.render_text(side) and "snap" not in game.render_text(side)
    assert "B3 (20,1) W1/1 order[?]" in game.render_text(0)           # the owner's order stays face down to A


def test_a_crowded_row_counts_what_does_not_fit_in_80_columns():
    models = [types.SimpleNamespace(id=f"X{i}", placed=True, cell=5 * 48 + i) for i in range(12)]
    names = render.row_names(types.SimpleNamespace(models=models), 5)
    assert names == "  X0 X1 X2 X3 X4 X5 X6 X7 +4" and 3 + 48 + len(names) <= 80
    assert render.row_names(types.SimpleNamespace(models=models), 6) == ""
