"""Playtest reads YAML as every config is read (envs.engine.scenario.load_yaml): an alias bomb is refused in one line."""
import pytest

from envs.engine.scenario import ScenarioError
from training.playtest import scenario

BOMB = "a: &a [x, x, x, x, x, x, x, x, x]\nb: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a]\nc: [*b, *b, *b, *b, *b, *b, *b]\n"


def test_a_scenario_with_aliases_is_refused_naming_the_file(tmp_path):
    path = tmp_path / "bomb.yaml"
    path.write_text(BOMB, encoding="utf-8")
    with pytest.raises(ScenarioError, match=f"^{path}:2: field '<file>'"):
        scenario._tables_path(str(path))
