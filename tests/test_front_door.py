"""The front door: the README's Python snippets run as written, its extras table lists every extra, the dict
observation's keys are each library's, and the documentation's generated pages say what each ruleset declares."""
import re
import subprocess
import sys
import tomllib

import gymnasium
import pytest

import envs  # noqa: F401 - registers the Gymnasium ids
from envs import registry
from envs.paths import PROJECT_ROOT

README = (PROJECT_ROOT / "README.md").read_text(encoding="utf-8")
SNIPPETS = re.findall(r"```python\n(.*?)```", README, re.S)
GUIDE_SNIPPETS = re.findall(r"```python\n(.*?)```", (PROJECT_ROOT / "docs" / "guides" / "python.md").read_text(encoding="utf-8"), re.S)


def test_the_readme_is_a_front_door():
    assert len(README.splitlines()) <= 150
    assert "pip install torch==2.13.0" in README and "rubble play rifles-urban --enemy strongest" in README


@pytest.mark.parametrize("code", SNIPPETS + GUIDE_SNIPPETS, ids=[f"readme-{i}" for i in range(len(SNIPPETS))]
                         + [f"guide-python-{i}" for i in range(len(GUIDE_SNIPPETS))])
def test_every_python_snippet_runs_alone_as_written(code, tmp_path):
    """Each snippet in a fresh interpreter, from another folder: no name it does not import."""
    result = subprocess.run([sys.executable, "-c", code], cwd=tmp_path, capture_output=True, text=True, timeout=300)
    assert result.returncode == 0, result.stderr[-2000:]


def test_the_extras_table_lists_every_extra():
    extras = tomllib.loads((PROJECT_ROOT / "pyproject.toml").read_text())["project"]["optional-dependencies"]
    listed = set(re.findall(r'`pip install -e "\.\[(\w+)\]"`', README))
    assert listed == set(extras), f"missing: {set(extras) - listed}, unknown: {listed - set(extras)}"


@pytest.mark.parametrize("keys", [("observation", "action_mask"), ("obs", "mask"), ("observations", "action_mask")])
def test_the_dict_observation_takes_each_librarys_key_names(keys):
    env = gymnasium.make("rubble/RiflesUrban-v0", dict_observation=True, observation_key=keys[0], mask_key=keys[1])
    obs, info = env.reset(seed=0)
    assert set(obs) == set(keys) == set(env.observation_space.spaces)
    assert (obs[keys[1]] == info["action_mask"]).all()
    obs, *_ = env.step(env.action_space.sample(mask=obs[keys[1]]))
    assert set(obs) == set(keys) and "action_mask" in info


def test_unknown_key_names_and_names_without_a_dict_are_refused():
    with pytest.raises(ValueError, match="mask_key: expected one of"):
        gymnasium.make("rubble/RiflesUrban-v0", dict_observation=True, mask_key="legal")
    with pytest.raises(ValueError, match="pass dict_observation=True"):
        gymnasium.make("rubble/RiflesUrban-v0", mask_key="mask")


def test_the_generated_pages_say_what_each_ruleset_declares():
    from docs import gen

    pages = gen.pages()
    assert gen.shipped() == ["cityfight", "k47", "rifles-darkness", "rifles-urban", "urbanwar"]
    assert set(pages) == {f"environments/{n}.md" for n in gen.shipped()} | {"agents.md"}
    for name in gen.shipped():
        rs, page = registry.get(name), pages[f"environments/{name}.md"]
        for fact in (rs.gym_id, f"Discrete({rs.num_actions})", f"Box({rs.observation_size},)", rs.default_scenario,
                     *rs.sides, f"results/play/{name}.png", "`strongest`"):
            assert fact in page, (name, fact)
        assert (gen.GIF_DIR / f"{name}.gif").is_file() and f"assets/games/{name}.gif" in page
    assert "93.4 % [90.9, 95.3]" in pages["agents.md"]
