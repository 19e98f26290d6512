"""Named agents (results/agents.yaml, agents/named.py): every entry is true to its source and fits its side; a bad
file fails in one line naming the file and the field; a name plays wherever an agent is taken."""
import re

import gymnasium
import pytest

import envs  # noqa: F401 - registers the Gymnasium ids
from agents import mixture, named, trained
from envs import registry
from envs.paths import PROJECT_ROOT
from training import lookup
from training.cli import main

AGENTS = named.load()
ENTRIES = [(rs, name, side, entry) for rs, agents in AGENTS.items() for name, agent in agents.items()
           for side, entry in agent.sides.items()]


SHIPPED = ("rifles-urban", "rifles-darkness", "cityfight", "k47", "urbanwar")   # not the toys other tests register


def test_the_shipped_file_names_a_strongest_agent_for_every_side_of_every_ruleset():
    assert set(AGENTS) == set(SHIPPED)
    for name in SHIPPED:
        assert set(AGENTS[name]["strongest"].sides) == set(registry.get(name).sides), name


@pytest.mark.parametrize("rs_name, name, side, entry", ENTRIES, ids=[f"{r}-{n}-{s}" for r, n, s, _ in ENTRIES])
def test_every_entry_is_a_tracked_actor_of_its_side_whose_figures_are_in_its_source(rs_name, name, side, entry):
    rs = registry.get(rs_name)
    side_number = rs.side_number(side)
    if entry.path.endswith(mixture.SUFFIX):
        factory = mixture.factory(rs, str(entry.file))
        factory(side_number, 0)
        assert mixture.side(entry.file) == side
    else:
        trained.check_fits(trained.read_actor(entry.file), rs, side_number, entry.path)
    low, high = entry.interval
    figure = f"{100 * entry.win_rate:.1f} % [{100 * low:.1f}, {100 * high:.1f}]"
    source = (PROJECT_ROOT / entry.source).read_text(encoding="utf-8")
    assert figure in source, f"{entry.source} does not state {figure}"
    assert f"{entry.games}" in source or f"{entry.games:,}" in source


GOOD = """rifles-urban:
  enemy:
    mine:
      path: results/rifles-urban/enemy-bc-ppo-10min/actor.zip
      trained: by hand
      win_rate: 0.5
      interval: [0.4, 0.6]
      games: 10
      seeds: [0, 9]
      source: results/rifles-urban/enemy-bc-ppo-10min/report.md
"""

BAD = [
    (GOOD.replace("rifles-urban:", "nowhere:"), "field 'nowhere': expected a ruleset"),
    (GOOD.replace("mine:", "scripted:"), "field 'rifles-urban.enemy.scripted': expected a name other than the built-in"),
    (GOOD.replace("mine:", "Mine!:"), "field 'rifles-urban.enemy.Mine!': expected an agent name"),
    (GOOD.replace("win_rate: 0.5", "win_rate: 1.5"), "field 'rifles-urban.enemy.mine.win_rate': expected a fraction"),
    (GOOD.replace("win_rate: 0.5", "win_rate: 0.7"), "field 'rifles-urban.enemy.mine.interval': expected an interval holding"),
    (GOOD.replace("[0.4, 0.6]", "[0.6, 0.4]"), "field 'rifles-urban.enemy.mine.interval': expected low <= high"),
    (GOOD.replace("[0.4, 0.6]", "[0.4]"), "field 'rifles-urban.enemy.mine.interval': expected a list of two"),
    (GOOD.replace("games: 10", "games: 0"), "field 'rifles-urban.enemy.mine.games': expected a whole number"),
    (GOOD.replace("[0, 9]", "[0, 8]"), "field 'rifles-urban.enemy.mine.seeds': expected 10 seeds"),
    (GOOD.replace("actor.zip", "actor.pkl"), "field 'rifles-urban.enemy.mine.path': expected a path inside the repo"),
    (GOOD.replace("path: results", "path: /etc/results"), "field 'rifles-urban.enemy.mine.path': expected a path inside"),
    (GOOD.replace("      games: 10\n", ""), "field 'rifles-urban.enemy.mine.games': missing"),
    (GOOD + "      extra: 1\n", "field 'rifles-urban.enemy.mine.extra': expected a known field"),
    (GOOD.replace("trained: by hand", "trained: " + "x" * 1001), "field 'rifles-urban.enemy.mine.trained': expected a text"),
    ("- a list\n", "field '(top)': expected a mapping of ruleset names"),
    ("a: &x [1]\nb: *x\n", "alias"),
]


def test_a_good_file_loads(tmp_path):
    path = tmp_path / "agents.yaml"
    path.write_text(GOOD)
    entry = named.load(path)["rifles-urban"]["mine"].sides["enemy"]
    assert entry.strength() == "50.0 % [40.0, 60.0] vs scripted, 10 games, seeds 0..9"
    assert named.load(tmp_path / "absent.yaml") == {}


@pytest.mark.parametrize("text, expected", BAD, ids=[e for _, e in BAD])
def test_a_bad_file_fails_in_one_line_naming_the_file_and_the_field(tmp_path, text, expected):
    path = tmp_path / "agents.yaml"
    path.write_text(text)
    with pytest.raises(named.NamedAgentError) as caught:
        named.load(path)
    message = str(caught.value)
    assert "\n" not in message and str(path) in message and expected in message, message


def test_a_file_past_its_bounds_is_refused_before_it_is_parsed(tmp_path):
    path = tmp_path / "agents.yaml"
    path.write_bytes(b"#" * (named.MAX_BYTES + 1))
    with pytest.raises(named.NamedAgentError, match="bytes; a named-agent file holds at most"):
        named.load(path)


def test_names_resolve_where_agents_are_taken_and_refuse_a_side_they_lack():
    rs = registry.get("rifles-urban")
    assert isinstance(lookup.agent_factories(rs)["strongest"], named.NamedAgent)
    enemy = lookup.agent(rs, "strongest", (1,))(1, 0)
    assert isinstance(enemy, trained.PolicyAgent)
    assert isinstance(lookup.agent(rs, "league", (1,))(1, 0), mixture.MixtureAgent)
    with pytest.raises(lookup.CommandError, match="^agent 'league' of cityfight plays defender, not the attacker$"):
        lookup.agent(registry.get("cityfight"), "league", (0,))


def test_the_gymnasium_env_takes_a_name_as_its_opponent():
    env = gymnasium.make("rubble/RiflesUrban-v0", opponent="strongest")
    _, info = env.reset(seed=0)
    for _ in range(5):
        _, _, terminated, truncated, info = env.step(env.action_space.sample(mask=info["action_mask"]))
        if terminated or truncated:
            break


def test_the_cli_lists_named_agents_and_plays_them(capsys):
    assert main(["list"]) == 0
    out = capsys.readouterr().out
    assert re.search(r"strongest:\n\s+player: results/rifles-urban/\S+/actor.zip  \(93.4 % \[90.9, 95.3\] vs scripted, "
                     r"500 games, seeds 1000000..1000499\)", out), out
    assert main(["simulate", "rifles-urban", "--games", "2", "--player", "scripted", "--enemy", "league", "--seed", "0"]) == 0
    assert main(["simulate", "cityfight", "--games", "1", "--player", "league", "--enemy", "scripted"]) == 2
    assert "agent 'league' of cityfight plays defender, not the attacker" in capsys.readouterr().err
