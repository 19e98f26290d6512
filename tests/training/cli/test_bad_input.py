"""Every verb of `rubble` given bad input: one line on stderr naming what was wrong and what was expected, a non-zero
exit status, no traceback (`--debug` shows it); and results that are never overwritten without --force."""
from __future__ import annotations

import shutil

import numpy as np
import pytest

from agents.trained import Actor
from envs import registry
from envs.paths import PROJECT_ROOT
from tests.training.helpers import run_cli
from training.cli import main

URBAN = registry.get("rifles-urban")


def actor_file(path, env: str = "rifles-urban", side: str = "enemy", meta: str | None = None, inputs: int | None = None):
    """A small actor.zip (untrained weights) as `rubble train` saves one, or with `meta` as its raw metadata."""
    rs = registry.get(env)
    rng = np.random.default_rng(0)
    layers = [(rng.normal(size=(8, inputs or rs.observation_size)), np.zeros(8)),
              (rng.normal(size=(rs.num_actions, 8)), np.zeros(rs.num_actions))]
    Actor(layers, "Tanh", {"env": env, "side": side}).save(path)
    if meta is not None:
        arrays = dict(np.load(path))
        arrays["meta"] = np.array(meta)
        with open(path, "wb") as f:
            np.savez(f, **arrays)
    return path


@pytest.fixture(scope="module")
def files(tmp_path_factory):
    """Model files every row may name: {enemy}, {player}, {corrupt}, {badmeta}, {narrow}."""
    d = tmp_path_factory.mktemp("models")
    (d / "corrupt.zip").write_bytes(b"PK\x03\x04 not really a zip")
    return {"enemy": actor_file(d / "enemy.zip"), "player": actor_file(d / "player.zip", side="player"),
            "corrupt": d / "corrupt.zip", "badmeta": actor_file(d / "badmeta.zip", meta="{not json"),
            "narrow": actor_file(d / "narrow.zip", side="player", inputs=7), "missing": d / "missing.zip"}


G = "--games"
TABLE = [  # argv, exit status, the one line's start after "rubble...: "
    (["simulate", "no-such-env"], 2, "unknown environment 'no-such-env'; known: "),
    (["simulate", "rifles-urban", "--scenario", "nowhere"], 2, "unknown scenario 'nowhere'; known: "),
    (["simulate", "rifles-urban", "--player", "nobody"], 2, "unknown agent 'nobody'; known: "),
    (["simulate", "rifles-urban", G, "0"], 2, "argument --games: expected a whole number from 1 to 10,000,000, got 0"),
    (["simulate", "rifles-urban", G, "-5"], 2, "argument --games: expected a whole number from 1 to 10,000,000, got -5"),
    (["simulate", "rifles-urban", G, "99999999999999999999"], 2, "argument --games: expected a whole number from 1 "),
    (["simulate", "rifles-urban", G, "ten"], 2, "argument --games: expected a whole number from 1 to 10,000,000, got ten"),
    (["simulate", "rifles-urban", "--jobs", "99999999999999999999"], 2, "argument --jobs: expected a whole number from 1 to "),
    (["train", "rifles-urban", "--envs", "1000"], 2, "argument --envs: expected a whole number from 1 to 256, got 1000"),
    (["simulate", "rifles-urban", "--seed", "-1"], 2, "argument --seed: expected a seed from 0 to 4,294,967,295, got -1"),
    (["simulate", "rifles-urban", "--player", "{enemy}"], 2, "{enemy}: trained as the enemy, not the player"),
    (["simulate", "rifles-urban", "--player", "{badmeta}"], 2, "{badmeta}: meta is not valid JSON"),
    (["simulate", "rifles-urban", "--player", "{narrow}"], 2, "{narrow}: model has observation shape (7,)"),
    (["simulate", "cityfight", "--agents", "{player},random"], 2, "{player}: trained for rifles-urban, not cityfight"),
    (["play", "no-such-env"], 2, "unknown environment 'no-such-env'"),
    (["play", "rifles-urban", "--side", "umpire"], 2, "unknown side 'umpire'; known: player, enemy"),
    (["play", "rifles-urban", "--enemy", "{missing}"], 2, "{missing}: no such file"),
    (["play", "rifles-urban", "--enemy", "{corrupt}"], 2, "{corrupt}: not an actor file (not a zip archive)"),
    (["play", "rifles-urban", "--enemy", "{player}"], 2, "{player}: trained as the player, not the enemy"),
    (["bench", "rifles-urban", "--seconds", "-1"], 2, "argument --seconds: expected seconds > 0 and at most 86,400, got -1"),
    (["bench", "rifles-urban", "--seconds", "nan"], 2, "argument --seconds: expected seconds > 0 and at most 86,400, got nan"),
    (["bench", "rifles-urban", "--seconds", "inf"], 2, "argument --seconds: expected seconds > 0 and at most 86,400, got inf"),
    (["bench", "no-such-env"], 2, "unknown environment 'no-such-env'"),
    (["train", "no-such-env"], 2, "unknown environment 'no-such-env'"),
    (["train", "rifles-urban", "--minutes", "nan"], 2, "argument --minutes: expected minutes > 0"),
    (["train", "rifles-urban", "--timesteps", "-3"], 2, "argument --timesteps: expected a whole number from 1 to "),
    (["train", "rifles-urban", "--seed", "4294967296"], 2, "argument --seed: expected a seed from 0 to 4,294,967,295"),
    (["evaluate", "rifles-urban", "--agents", "nobody"], 2, "unknown agent 'nobody'"),
    (["evaluate", "rifles-urban", "--agents", "random", "{corrupt}"], 2, "{corrupt}: not an actor file"),
    (["evaluate", "rifles-urban", "--agents", "random", G, "1", "--results", "/proc/nope"], 2,
     "cannot write results into /proc/nope/rifles-urban/ladder: No such file or directory"),
    (["evaluate", "rifles-urban", "--agents", "random", G, "1e9"], 2, "argument --games: expected a whole number"),
    (["simulate", "rifles-urban", G, "1", "--record", "/proc/nope"], 2,
     "cannot write replays into /proc/nope: No such file or directory"),
    (["report", "rifles-urban", "--player", "{enemy}"], 2, "{enemy}: trained as the enemy, not the player"),
    (["report", "rifles-urban", "--enemy", "{missing}"], 2, "{missing}: no such file"),
    (["replay", "{missing}"], 2, "{missing}: no such file"),
    (["replay", "{corrupt}"], 2, "{corrupt}: not complete JSON"),
    (["replay", "{missing}", "--gif", "out.gif", "--scale", "0"], 2, "argument --scale: expected a scale > 0"),
    (["frobnicate"], 2, "argument COMMAND: invalid choice: 'frobnicate'"),
]


def _filled(text: str, files: dict) -> str:
    return text.format(**{k: str(v) for k, v in files.items()})


@pytest.mark.parametrize("argv, status, message", TABLE, ids=[" ".join(row[0]) for row in TABLE])
def test_bad_input_fails_in_one_line(capsys, files, argv, status, message):
    code, _, err = run_cli(capsys, *(_filled(a, files) for a in argv))
    lines = err.strip().splitlines()
    assert code == status
    assert len(lines) == 1, err                                      # no traceback, no usage block
    assert lines[0].split(": ", 1)[0].startswith("rubble")
    assert lines[0].split(": ", 1)[1].startswith(_filled(message, files)), lines[0]


def test_debug_shows_the_traceback_instead(files):
    from training.lookup import CommandError

    with pytest.raises(CommandError, match="trained as the enemy"):
        main(["simulate", "rifles-urban", "--player", str(files["enemy"]), "--debug"])


def test_an_unexpected_error_is_one_line_that_points_to_debug(capsys, monkeypatch):
    import training.measure.simulate

    def fails(*args, **kwargs):
        raise ZeroDivisionError("float division by zero")

    monkeypatch.setattr(training.measure.simulate, "simulate", fails)
    code, _, err = run_cli(capsys, "simulate", "rifles-urban", "--games", "1")
    assert (code, err) == (1, "rubble: ZeroDivisionError: float division by zero (rerun with --debug for the traceback)\n")


# Scenario files -------------------------------------------------------------------------------------------------------
@pytest.fixture
def configs(tmp_path, monkeypatch):
    """A copy of configs/rifles/ that the Rifles loader reads (as RUBBLE_CONFIGS would point it there)."""
    from envs.rifles import config

    shutil.copytree(PROJECT_ROOT / "configs" / "rifles", tmp_path / "rifles")
    monkeypatch.setattr(config, "CONFIG_DIR", tmp_path / "rifles")
    return tmp_path / "rifles" / "scenarios"


def test_a_broken_scenario_breaks_only_itself(capsys, configs):
    (configs / "broken.yaml").write_text("name: Broken\nmodules: [urban]\nturn: 10\n", encoding="utf-8")
    code, out, err = run_cli(capsys, "list")
    assert code == 2 and err.startswith("rubble: 1 scenario file(s) or folder(s) broken")
    assert f"broken: {configs / 'broken.yaml'}  BROKEN: {configs / 'broken.yaml'}:3: field 'turn': expected a known " \
           "field, got an unknown one (did you mean 'turns'? known: " in out
    assert "block_six" in out and "night_crossing" in out
    code, out, _ = run_cli(capsys, "simulate", "rifles-urban", "--games", "2", "--quiet")
    assert code == 0 and "2 games" in out
    code, _, err = run_cli(capsys, "simulate", "rifles-urban", "--scenario", "broken", "--games", "2")
    assert code == 1 and err == f"rubble: {configs / 'broken.yaml'}:3: field 'turn': expected a known field, " \
                                "got an unknown one (did you mean 'turns'? known: ap, darkness_tables, enemy, " \
                                "modules, name, options, player, posture, recon_points, reveal_tables, stripes, " \
                                "tables, turns, victory)\n"


def test_a_yaml_syntax_error_names_its_line(capsys, configs):
    (configs / "syntax.yaml").write_text("name: [Broken\nmodules: [urban]\n", encoding="utf-8")
    code, _, err = run_cli(capsys, "simulate", "rifles-urban", "--scenario", "syntax", "--games", "1")
    assert code == 1 and err.startswith(f"rubble: {configs / 'syntax.yaml'}:2: field '<file>': expected valid YAML")
    assert err.count("\n") == 1


def test_an_unknown_unit_key_is_refused_with_the_nearest_known_one(configs):
    from envs.engine.scenario import ScenarioError
    from envs.rifles import config

    text = (configs / "block_six.yaml").read_text(encoding="utf-8")
    (configs / "typo.yaml").write_text(text.replace("{id: A2, quality: regular", "{id: A2, qualty: regular"), "utf-8")
    with pytest.raises(ScenarioError) as info:
        config.load_scenario(str(configs / "typo.yaml"))
    assert info.value.field == "player.groups[0].units[1].qualty" and "did you mean 'quality'?" in str(info.value)
    assert info.value.line == text.splitlines().index("        - {id: A2, quality: regular, weapon: smg}") + 1


def test_configs_without_a_ruleset_folder_fail_naming_it(capsys, tmp_path, monkeypatch):
    from envs.cityfight import config

    monkeypatch.setattr(config, "CONFIG_DIR", tmp_path / "cityfight")
    code, _, err = run_cli(capsys, "simulate", "cityfight", "--games", "1")
    assert code == 1 and err == f"rubble: {tmp_path / 'cityfight' / 'scenarios'}: field '<folder>': expected a folder " \
                                "of YAML files (is RUBBLE_CONFIGS the configs/ folder?)\n"


@pytest.mark.parametrize("field, value, at, expected", [
    ("turns", "1000000000000", "turns", "an integer in 1..100"),
    ("ammo_rating", "[-3, 3]", "ammo_rating[0]", "an integer in 0..6"),        # CF-AMMO-1: D6 <= AR
    ("recovery_bonus", "[0, 9]", "recovery_bonus[1]", "an integer in -6..6"),
])
def test_cityfight_values_out_of_range_are_refused(tmp_path, field, value, at, expected):
    import re

    from envs.cityfight import config
    from envs.engine.scenario import ScenarioError

    text = (PROJECT_ROOT / "configs" / "cityfight" / "scenarios" / "office_block.yaml").read_text(encoding="utf-8")
    text, n = re.subn(rf"^{field}:.*$", f"{field}: {value}", text, flags=re.M)
    path = tmp_path / "office_block.yaml"
    path.write_text(text if n else text + f"{field}: {value}\n", encoding="utf-8")
    with pytest.raises(ScenarioError) as info:
        config.load_scenario(str(path))
    assert info.value.field == at and info.value.expected == expected
    assert info.value.line == text.splitlines().index(f"{field}: {value}") + 1


# Konflikt '47 scenario files ------------------------------------------------------------------------------------------
@pytest.fixture
def k47_configs(tmp_path, monkeypatch):
    """A copy of configs/k47/ that the K47 loader reads (as RUBBLE_CONFIGS would point it there)."""
    from envs.k47 import config

    shutil.copytree(PROJECT_ROOT / "configs" / "k47", tmp_path / "k47")
    monkeypatch.setattr(config, "CONFIG_DIR", tmp_path / "k47")
    return tmp_path / "k47" / "scenarios"


K47_CASES = [  # in village_crossroads.yaml: (text, its replacement, the field, what was expected, what it got)
    ("extra_turn_on: 4 ", "extra_turns_on: 4 ", "extra_turns_on", "a known field",
     "an unknown one (did you mean 'extra_turn_on'? known: board, buildings, extra_turn_on, map, name, objectives, "
     "options, sides, tables, turns, variants, victory)"),
    ("turns: 6 ", "turns: 600 ", "turns", "an integer in 1..100", "600"),                       # KC-TURN-7
    ("        floors: 2\n", "        floors: two\n", "buildings[1].sections[0].floors", "an integer", "'two'"),
    ("at: [6, 16],", "at: [6, 16, 2],", "sides[0].units[0].at", "a list of 2 items ([x, y])", "[6, 16, 2]"),
    ("{floor: 0, kind: door, edge: [9, 5, N]}", "{floor: 0, kind: door, edge: [9, 5, Q]}",
     "buildings[0].sections[0].openings[0].edge[2]", "one of N, E, S, W", "'Q'"),
    ("{section: T1, floor: 1}", "{section: T1, floor: 3}", "sides[1].units[0].in.floor",      # T1 has 3 floors
     "an integer in 0..2 (a floor of section T1)", "3"),
]


@pytest.mark.parametrize("old, new, field, expected, got", K47_CASES, ids=[case[2] for case in K47_CASES])
def test_a_bad_k47_scenario_fails_in_one_line_naming_file_line_field_and_expectation(capsys, k47_configs, old, new,
                                                                                    field, expected, got):
    text = (k47_configs / "village_crossroads.yaml").read_text(encoding="utf-8")
    assert text.count(old) == 1
    path = k47_configs / "bad.yaml"
    path.write_text(text.replace(old, new), encoding="utf-8")
    line = next(i for i, row in enumerate(text.replace(old, new).splitlines(), 1) if new.strip() in row)
    code, _, err = run_cli(capsys, "simulate", "k47", "--scenario", "bad", "--games", "1")
    assert (code, err) == (1, f"rubble: {path}:{line}: field '{field}': expected {expected}, got {got}\n")


def test_a_k47_yaml_syntax_error_names_its_line(capsys, k47_configs):
    (k47_configs / "syntax.yaml").write_text("name: [Broken\ntables: k47\n", encoding="utf-8")
    code, _, err = run_cli(capsys, "simulate", "k47", "--scenario", "syntax", "--games", "1")
    assert code == 1 and err.startswith(f"rubble: {k47_configs / 'syntax.yaml'}:2: field '<file>': expected valid YAML")
    assert err.count("\n") == 1


def test_a_bad_k47_variant_names_its_own_file_and_line(capsys, k47_configs):
    """KC-SCN-12: a scenario based_on another is checked as a variant (every field optional), in its own file."""
    path = k47_configs / "village_crossroads_hidden.yaml"
    text = path.read_text(encoding="utf-8")
    path.write_text(text.replace("  hidden_occupants: true", "  hidden_ocupants: true"), encoding="utf-8")
    line = text.splitlines().index("  hidden_occupants: true") + 1
    code, _, err = run_cli(capsys, "simulate", "k47", "--scenario", "village_crossroads_hidden", "--games", "1")
    assert (code, err) == (1, f"rubble: {path}:{line}: field 'options.hidden_ocupants': expected a known field, got an "
                              "unknown one (did you mean 'hidden_occupants'? known: hidden_occupants, no_building_entry, "
                              "pinned_out)\n")


def test_a_bad_k47_base_is_named_by_its_variant_as_its_own_file(k47_configs):
    from envs.engine.scenario import ScenarioError
    from envs.k47 import config

    base = k47_configs / "village_crossroads.yaml"
    text = base.read_text(encoding="utf-8")
    base.write_text(text.replace("turns: 6 ", "turns: 0 "), encoding="utf-8")
    with pytest.raises(ScenarioError) as info:
        config.load_scenario(config.scenario_path("village_crossroads_hidden"))
    assert (info.value.file, info.value.field, info.value.expected) == (str(base), "turns", "an integer in 1..100")


def test_a_broken_k47_scenario_breaks_only_itself(capsys, k47_configs):
    from envs.k47.ruleset import K47

    (k47_configs / "broken.yaml").write_text("name: Broken\ntables: k47\nturn: 6\n", encoding="utf-8")
    code, out, err = run_cli(capsys, "list")
    assert code == 2 and err.startswith("rubble: 1 scenario file(s) or folder(s) broken")
    assert f"broken: {k47_configs / 'broken.yaml'}  BROKEN: {k47_configs / 'broken.yaml'}:3: field 'turn': expected a " \
           "known field, got an unknown one (did you mean 'turns'? known: " in out
    assert "village_crossroads: " in out and "village_crossroads_hidden: " in out
    code, out, _ = run_cli(capsys, "simulate", "k47", "--games", "2", "--quiet")
    assert code == 0 and "2 games" in out
    low, high = K47().observation_bounds()           # an env's spaces: over the scenarios that load
    assert low.shape == high.shape == (K47.observation_size,)


def test_rubble_configs_reaches_the_rifles_loader(tmp_path):
    import subprocess
    import sys

    shutil.copytree(PROJECT_ROOT / "configs" / "rifles", tmp_path / "rifles")
    code = "from envs.rifles import config; print(config.CONFIG_DIR)"
    out = subprocess.run([sys.executable, "-c", code], cwd=PROJECT_ROOT, capture_output=True, text=True, check=True,
                         env={"RUBBLE_CONFIGS": str(tmp_path), "PATH": ""}).stdout
    assert out.strip() == str(tmp_path / "rifles")


# Results are never overwritten --------------------------------------------------------------------------------------
def _tree(folder):
    return {p.relative_to(folder): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


def test_evaluate_twice_leaves_the_first_ladder_byte_identical(capsys, tmp_path):
    argv = ["evaluate", "rifles-urban", "--agents", "random", "scripted", "--games", "2", "--quiet", "--results", tmp_path]
    assert run_cli(capsys, *argv)[0] == 0
    first = _tree(tmp_path / "rifles-urban" / "ladder")
    code, out, err = run_cli(capsys, *argv)
    assert code == 0 and _tree(tmp_path / "rifles-urban" / "ladder") == first
    assert err == f"note: {tmp_path}/rifles-urban/ladder holds an earlier evaluation, kept; writing " \
                  f"{tmp_path}/rifles-urban/ladder-2 (--force replaces the earlier one)\n"
    assert f"written: {tmp_path}/rifles-urban/ladder-2/ladder.md" in out
    assert set(_tree(tmp_path / "rifles-urban" / "ladder-2")) == set(first)
    assert run_cli(capsys, *argv, "--force")[0] == 0
    assert sorted(p.name for p in (tmp_path / "rifles-urban").iterdir()) == ["ladder", "ladder-2"]


def test_report_twice_keeps_the_first_report(capsys, tmp_path):
    argv = ["report", "rifles-urban", "--games", "2", "--results", tmp_path]
    assert run_cli(capsys, *argv)[0] == 0
    first = (tmp_path / "rifles-urban" / "exploitability.md").read_bytes()
    code, out, _ = run_cli(capsys, *argv)
    assert code == 0 and (tmp_path / "rifles-urban" / "exploitability.md").read_bytes() == first
    assert f"written: {tmp_path}/rifles-urban/exploitability-2.md" in out


def test_rubble_configs_reaches_the_k47_loader(tmp_path):
    import subprocess
    import sys

    shutil.copytree(PROJECT_ROOT / "configs" / "k47", tmp_path / "k47")
    code = "from envs.k47 import config, ruleset; print(config.CONFIG_DIR); print(sorted(ruleset.K47().scenarios()))"
    out = subprocess.run([sys.executable, "-c", code], cwd=PROJECT_ROOT, capture_output=True, text=True, check=True,
                         env={"RUBBLE_CONFIGS": str(tmp_path), "PATH": ""}).stdout.splitlines()
    assert out[0] == str(tmp_path / "k47") and "village_crossroads" in out[1]


def test_a_broken_urbanwar_scenario_leaves_the_env_spaces_built_from_the_others(tmp_path, monkeypatch):
    # As for Rifles, Cityfight's tables and K47: the observation bounds are built over every scenario that loads.
    from envs.urbanwar import config
    from envs.urbanwar.ruleset import UrbanWar

    shutil.copytree(PROJECT_ROOT / "configs" / "urbanwar", tmp_path / "urbanwar")
    monkeypatch.setattr(config, "CONFIG_DIR", tmp_path / "urbanwar")
    (tmp_path / "urbanwar" / "scenarios" / "broken.yaml").write_text("name: Broken\nturn: 6\n", encoding="utf-8")
    ruleset = UrbanWar()
    assert "broken" in ruleset.scenarios() and "broken" not in ruleset.loadable()
    assert ruleset.loadable() and set(ruleset.loadable()) == set(ruleset.scenarios()) - {"broken"}
    low, high = ruleset.observation_bounds()
    assert low.shape == high.shape == (UrbanWar.observation_size,)
