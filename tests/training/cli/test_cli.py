"""The `rubble` command over every registered environment (the toy race included): list, play, simulate, bench."""
import io
import json
import re
import subprocess
import sys

import pytest

from envs import registry
from envs.paths import PROJECT_ROOT
from tests import toy_game
from training import lookup
from training.cli import main
from training.measure.simulate import Matchup, run_series

toy_game.register()
NAMES = registry.names()
pytestmark = pytest.mark.skipif(not NAMES, reason="no environment is registered")


def run(capsys, *argv, stdin: str = ""):
    """Run the CLI in-process; return (exit code, stdout, stderr)."""
    sys.stdin = io.StringIO(stdin)
    try:
        code = main(list(argv))
    finally:
        sys.stdin = sys.__stdin__
    out, err = capsys.readouterr()
    return code, out, err


def agents_flag(name: str, agent: str = "random") -> str:
    """--agents naming `agent` for every side of `name`."""
    return ",".join([agent] * len(registry.get(name).sides))


def test_list_shows_every_environment_with_scenarios_and_agents(capsys):
    code, out, _ = run(capsys, "list")
    assert code == 0
    for rs in registry.all_rulesets():
        assert f"{rs.name}  (gym id {rs.gym_id})" in out
        assert f"sides: {', '.join(rs.sides)}" in out
        assert f"actions: {rs.num_actions}  observation size: {rs.observation_size}" in out
        for scenario in rs.scenarios():
            assert f"    {scenario}: " in out
        assert f"agents: {', '.join(lookup.agent_factories(rs))}" in out


@pytest.mark.parametrize(
    "argv, message",
    [
        (["simulate", "no-such-env"], "unknown environment 'no-such-env'; known: "),
        (["play", "no-such-env"], "unknown environment 'no-such-env'; known: "),
        (["bench", "no-such-env"], "unknown environment 'no-such-env'; known: "),
        (["simulate", "{env}", "--scenario", "nowhere"], "unknown scenario 'nowhere'; known: "),
        (["play", "{env}", "--enemy", "nobody"], "unknown agent 'nobody'; known: random"),
        (["simulate", "{env}", "--agents", "{nobody}"], "unknown agent 'nobody'; known: random"),
        (["play", "{env}", "--side", "nobody"], "unknown side 'nobody'; known: "),
        (["play", "{env}", "--enemy", "missing.zip"], "missing.zip: no such file"),
    ],
)
@pytest.mark.parametrize("env", NAMES)
def test_unknown_names_fail_in_one_line_with_status_2(capsys, env, argv, message):
    argv = [a.format(env=env, nobody=agents_flag(env, "nobody")) for a in argv]
    code, out, err = run(capsys, *argv)
    assert code == 2
    assert err.startswith(f"rubble: {message}") and err.count("\n") == 1, err
    assert "Traceback" not in err


def test_unknown_environment_from_a_real_process():
    result = subprocess.run([sys.executable, "-m", "training.cli", "simulate", "no-such-env"],
                            cwd=PROJECT_ROOT, capture_output=True, text=True, timeout=120)
    assert result.returncode == 2
    # A fresh process knows only what `import envs` registers (not the toy), so only the head is checked.
    assert result.stderr.startswith("rubble: unknown environment 'no-such-env'; known: ")
    assert result.stderr.count("\n") == 1 and "Traceback" not in result.stderr


@pytest.mark.parametrize("env", NAMES)
def test_simulate_reports_every_side(capsys, env):
    code, out, _ = run(capsys, "simulate", env, "--games", "3", "--agents", agents_flag(env), "--seed", "5", "--quiet")
    assert code == 0
    assert "3 games, seeds 5..7" in out
    rows = [line for line in out.splitlines() if line.split()[:2] in ([s, "random"] for s in registry.get(env).sides)]
    assert len(rows) == len(registry.get(env).sides)
    for row in rows:
        wins, draws, losses = (int(n) for n in re.findall(r"(\d+) +[\d.]+%", row))
        assert wins + draws + losses == 3
    assert "decisions (sd" in out and "games/s" in out


def test_simulate_writes_a_row_per_game_and_never_over_an_earlier_file(capsys, tmp_path):
    csv_path = tmp_path / "games.csv"
    argv = ("simulate", "rifles-urban", "--games", "4", "--seed", "9", "--quiet", "--csv", str(csv_path))
    code, out, err = run(capsys, *argv)
    assert code == 0, err
    rows = csv_path.read_text().splitlines()
    assert rows[0] == "seed,return_player,return_enemy,decisions,turns" and [r.split(",")[0] for r in rows[1:]] == \
        ["9", "10", "11", "12"]
    records = run_series(Matchup("rifles-urban", None, ("scripted", "scripted")), range(9, 13))
    assert [int(r.split(",")[3]) for r in rows[1:]] == [r.decisions for r in records]      # the same games
    wins = sum(float(r.split(",")[1]) > 0 for r in rows[1:])
    assert re.search(rf"^player +scripted +{wins} ", out, re.M)    # as the summary counts them
    before = csv_path.read_text()
    code, _, err = run(capsys, *argv)
    assert code == 2 and "exists" in err and len(err.strip().splitlines()) == 1 and csv_path.read_text() == before


@pytest.mark.parametrize("env", NAMES)
def test_simulate_is_the_same_in_parallel(env):
    matchup = Matchup(env, None, tuple(agents_flag(env).split(",")))
    assert run_series(matchup, range(4), jobs=2) == run_series(matchup, range(4), jobs=1)


@pytest.mark.parametrize("env", NAMES)
def test_play_reads_moves_then_quits(capsys, monkeypatch, env):
    # The screen is laid out for an 80 x 24 terminal whatever runs the tests; its events pane holds only the newest
    # lines (the person's own move may scroll out under the enemy's), so `u` shows the events kept, the move among them.
    monkeypatch.setenv("COLUMNS", "80")
    monkeypatch.setenv("LINES", "24")
    # y confirms a final first choice (end phase, declare Out); elsewhere it is a wrong answer, asked again
    code, out, err = run(capsys, "play", env, "--enemy", "random", "--seed", "1",
                         stdin="1\ny\n?\nx\n999\n1\ny\nu\nb\nq\n")
    assert code == 0, err
    assert re.search(r"your choice \(1-\d+; \? help", out)                    # the numbered choices are asked for
    assert "How to play" in out                                              # ? shows the help
    assert re.search(r"nothing matches '999'; type a number from 1 to \d+", out)   # out of range: asked again
    assert "Last events:" in out and re.search(r"^ *you: \S", out, re.M)      # the person's moves were played
    assert out.rstrip().endswith(("quit", ")"))  # quit, or the game ended first ("... (returns (...))")


@pytest.mark.parametrize("env", NAMES)
def test_play_to_the_end_on_closed_input_is_a_quit(capsys, env):
    code, out, _ = run(capsys, "play", env, "--enemy", "random", stdin="")
    assert code == 0 and out.rstrip().endswith("quit")


def test_play_prints_dice_of_the_person_and_the_enemy(capsys):
    # Toy race: "2" is ROLL, which logs its die; the enemy's events are printed too.
    code, out, _ = run(capsys, "play", toy_game.NAME, "--enemy", "scripted", stdin="2\n2\n2\nq\n")
    assert code == 0
    assert "you: roll a d6" in out and "; rolled " in out
    assert re.search(r"^red: ", out, re.M)


def test_agents_are_looked_up_with_random_always_available():
    rs = registry.get(toy_game.NAME)
    assert lookup.agent(rs, "random") is lookup.agent_factories(rs)["random"]
    assert lookup.side(rs, "red") == 1 and lookup.side(rs, "0") == 0


@pytest.mark.parametrize("env", NAMES)
def test_bench_times_the_gym_env_and_the_peer(capsys, env):
    code, out, _ = run(capsys, "bench", env, "--seconds", "0.1", "--reps", "2", "--api", "gym", "--peers", "--quiet")
    assert code == 0
    assert re.search(rf"^{re.escape(env)} +gym .* [\d.]+x$", out, re.M)
    assert re.search(r"^connect_four_v3 +aec .* 1\.00x$", out, re.M)


@pytest.mark.parametrize("env", NAMES)
def test_bench_times_the_aec_env_and_whole_scripted_games(capsys, env):
    code, out, _ = run(capsys, "bench", env, "--seconds", "0.1", "--reps", "1", "--api", "aec", "--api", "games",
                       "--quiet")
    assert code == 0 and re.search(rf"^{re.escape(env)} +aec ", out, re.M)
    assert re.search(rf"^{re.escape(env)} +games +[\d,]+ +[\d.]+$", out, re.M)


def test_bench_json_has_every_repetition_and_the_ratio_to_the_peer(capsys):
    code, out, _ = run(capsys, "bench", NAMES[0], "--seconds", "0.1", "--reps", "2", "--api", "aec", "--peers", "--json",
                       "--quiet")
    data = json.loads(out)
    assert code == 0 and data["peer"] == "connect_four_v3" and data["repetitions"] == 2
    peer, row = data["rows"]
    assert peer["env"] == "connect_four_v3" and peer["ratio_to_peer"] == 1.0
    assert row["env"] == NAMES[0] and len(row["repetitions"]) == 2
    low, high = row["ratio_range"]
    assert low <= row["ratio_to_peer"] <= high and row["steps_per_second"] > 0


def test_bench_profile_prints_the_top_functions(capsys):
    code, out, _ = run(capsys, "bench", NAMES[0], "--profile", "--api", "aec", "--seconds", "0.2")
    assert code == 0 and "top 25 functions by own time" in out
    assert len(re.findall(r"^ +[\d.]+ +[\d.]+ +[\d,]+ +[\d.]+  \S+", out, re.M)) == 25
