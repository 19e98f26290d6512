"""MkDocs hooks (mkdocs.yml `hooks:`): add the generated pages (docs/gen.py) and mount the repo files the pages link
to (results/, the rulesets' manuals, configs/, examples/, schemas/), so that a link written as a repo path works in
the site. Only tracked files are mounted (`git ls-files`; every file where git is missing), never model zips or
TensorBoard logs."""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from mkdocs.structure.files import File, Files

ROOT = Path(__file__).resolve().parents[1]
MOUNTED = ("results/", "envs/", "configs/", "examples/", "schemas/")
SKIPPED = (".zip", ".gz", ".npz", ".pyc")


def repo_files() -> list[str]:
    """The repo's files under MOUNTED that the site carries."""
    try:
        listed = subprocess.run(["git", "ls-files", *MOUNTED], cwd=ROOT, capture_output=True, text=True, check=True)
        paths = listed.stdout.splitlines()
    except (OSError, subprocess.CalledProcessError):
        paths = [str(p.relative_to(ROOT)) for folder in MOUNTED for p in (ROOT / folder).rglob("*") if p.is_file()]
    keep = [p for p in paths if not p.endswith(SKIPPED) and "tfevents" not in p and "__pycache__" not in p]
    return [p for p in keep if (ROOT / p).is_file()]


def on_files(files: Files, config) -> Files:
    if str(ROOT) not in sys.path:
        sys.path.insert(0, str(ROOT))
    from docs import gen

    for path, text in gen.pages().items():
        files.append(File.generated(config, path, content=text))
    for path in repo_files():
        files.append(File(path, str(ROOT), config["site_dir"], config["use_directory_urls"]))
    return files
