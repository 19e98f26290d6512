"""The repo's promises about itself: README and CI run the same tests; the paths point at the repo."""
import os
import re
import subprocess
import sys

from envs.paths import CONFIG_ROOT, PROJECT_ROOT


def test_ci_runs_the_readme_test_command():
    readme = (PROJECT_ROOT / "README.md").read_text(encoding="utf-8")
    match = re.search(r"Test command: `([^`]+)`", readme)
    assert match, "README.md must state its 'Test command: `...`'"
    ci_lines = (PROJECT_ROOT / ".ci" / "run").read_text(encoding="utf-8").splitlines()
    assert match.group(1) in ci_lines


def test_project_root_is_the_repo():
    assert (PROJECT_ROOT / "pyproject.toml").is_file()
    if "RUBBLE_CONFIGS" not in os.environ:
        assert CONFIG_ROOT == PROJECT_ROOT / "configs"


def test_rubble_configs_moves_the_config_root(tmp_path):
    code = "from envs.paths import CONFIG_ROOT; print(CONFIG_ROOT)"
    env = {**os.environ, "RUBBLE_CONFIGS": str(tmp_path)}
    result = subprocess.run([sys.executable, "-c", code], cwd=PROJECT_ROOT, env=env, capture_output=True, text=True)
    assert result.stdout.strip() == str(tmp_path)


def test_ci_installs_the_tests_as_the_readme_says():
    """The README's test set-up is one venv: torch pinned first, then the extras the tests use; CI makes it the same way."""
    readme = (PROJECT_ROOT / "README.md").read_text(encoding="utf-8")
    ci = (PROJECT_ROOT / ".ci" / "run").read_text(encoding="utf-8").replace(" -q ", " ")
    extras = re.search(r'^\.venv/bin/pip install -e "(\.\[[a-z,]*test[a-z,]*\])"', readme, re.M)
    assert extras, "README.md must give the pip line that installs the tests' extras"
    assert f'.venv/bin/pip install -e "{extras.group(1)}"' in ci.splitlines()
    torch = readme.find("\n.venv/bin/pip install torch==2.13.0")
    assert 0 <= torch < extras.start(), "torch is installed first, pinned, before any extra that pulls it"
    assert ci.find(".venv/bin/pip install torch==2.13.0") < ci.find(f'.venv/bin/pip install -e "{extras.group(1)}"')
