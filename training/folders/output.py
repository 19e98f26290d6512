"""Where a command writes its results: never over an earlier result unless asked (`--force`), and always said.

`rubble evaluate` writes results/ENV/ladder/ and `rubble report` results/ENV/exploitability.md; both are committed.
Run again, they write beside them (ladder-2/, exploitability-2.md, ...), so that a rerun can be compared with the
committed one before it replaces it.
"""
from __future__ import annotations

import os
from pathlib import Path

from training.lookup import CommandError


def _taken(path: Path) -> bool:
    """A file, or a folder with something in it (an empty folder is what a failed run leaves: reuse it)."""
    return path.exists() and not (path.is_dir() and not any(path.iterdir()))


def unused(path: Path, force: bool = False) -> Path:
    """`path` if nothing is there (or `force`), else the first free `NAME-2`, `NAME-3`, ... beside it."""
    if force or not _taken(path):
        return path
    n = 2
    while _taken(candidate := path.with_name(f"{path.stem}-{n}{path.suffix}")):
        n += 1
    return candidate


def writable_folder(folder: Path, what: str = "results") -> Path:
    """`folder`, created if need be; CommandError in one line if it cannot be written (checked before any game)."""
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise CommandError(f"cannot write {what} into {folder}: {exc.strerror or exc}") from None
    if not os.access(folder, os.W_OK):
        raise CommandError(f"cannot write {what} into {folder}: permission denied")
    return folder


def choose(path: Path, force: bool, what: str, shown=str) -> Path:
    """Where to write `what` meant for `path`: there if free or forced, else beside it, saying so on stderr."""
    import sys

    target = unused(path, force)
    if target != path:
        print(f"note: {shown(path)} holds an earlier {what}, kept; writing {shown(target)} "
              "(--force replaces the earlier one)", file=sys.stderr)
    elif force and _taken(path):
        print(f"note: --force: replacing the earlier {what} in {shown(path)}", file=sys.stderr)
    return target
