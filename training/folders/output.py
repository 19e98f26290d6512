"""Where a command writes its results: never over an earlier result unless asked (`--force`), and always said.

`rubble evaluate` writes results/ENV/ladder/ and `rubble report` results/ENV/exploitability.md; both are committed.
Run again, they write beside them (ladder-2/, exploitability-2.md, ...), so that a rerun can be compared with the
committed one before it replaces it.

A place is claimed, not just picked: a folder by `mkdir` (no exist_ok), a file by creating it empty with
O_EXCL. Two commands started at once both seeing `ladder-2/` free and writing into it would lose one result
without a word; with a claim, the operating system gives the name to one of them and the other takes the next.
"""
from __future__ import annotations

import os
from pathlib import Path

from training.lookup import CommandError

#: how many numbered names beside the asked one are tried before giving up (a guard, never reached in use)
MAX_TRIES = 10_000


def _taken(path: Path) -> bool:
    """A file, or a folder with something in it: an earlier result (an empty folder is a failed run's, or a claim
    just made by a command still running)."""
    return path.exists() and not (path.is_dir() and not any(path.iterdir()))


def numbered(path: Path, n: int) -> Path:
    """`path` itself for n = 1, else NAME-n beside it (before the suffix)."""
    return path if n == 1 else path.with_name(f"{path.stem}-{n}{path.suffix}")


def _claimed(path: Path, file: bool) -> bool:
    """Make `path` (an empty file, or a folder) if nothing is there; False if something is (atomic: one winner).
    An empty folder left by an earlier run that failed is not reused: it may be another process's new claim."""
    try:
        if file:
            os.close(os.open(path, os.O_CREAT | os.O_EXCL | os.O_WRONLY, 0o644))
        else:
            path.mkdir()
    except FileExistsError:
        return False
    return True


def claim(path: Path, force: bool = False, file: bool = False) -> Path:
    """`path`, or the first of NAME-2, NAME-3, ... beside it, made (a folder, or an empty file if `file`) by this
    process alone; with `force`, `path` itself, existing or not. CommandError in one line if it cannot be made."""
    path = Path(path)
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        if force:
            if not file:
                path.mkdir(exist_ok=True)
            return path
        for n in range(1, MAX_TRIES + 1):
            if _claimed(candidate := numbered(path, n), file):
                return candidate
    except OSError as exc:
        raise CommandError(f"cannot write results into {path}: {exc.strerror or exc}") from None
    raise CommandError(f"{path}: {MAX_TRIES} numbered names beside it are taken; expected a free one")


def writable_folder(folder: Path, what: str = "results") -> Path:
    """`folder`, created if need be; CommandError in one line if it cannot be written (checked before any game)."""
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise CommandError(f"cannot write {what} into {folder}: {exc.strerror or exc}") from None
    if not os.access(folder, os.W_OK):
        raise CommandError(f"cannot write {what} into {folder}: permission denied")
    return folder


def choose(path: Path, force: bool, what: str, shown=str, file: bool = False) -> Path:
    """Where to write `what` meant for `path`, claimed (`claim`: a folder, or an empty file if `file`): there if
    free or forced, else beside it, saying so on stderr."""
    import sys

    existed = _taken(path)
    target = claim(path, force, file)
    if target != path and existed:
        print(f"note: {shown(path)} holds an earlier {what}, kept; writing {shown(target)} "
              "(--force replaces the earlier one)", file=sys.stderr)
    elif target != path:
        print(f"note: {shown(path)} is taken (by a command still running, or left empty by one that failed); "
              f"writing {shown(target)}", file=sys.stderr)
    elif force and existed:
        print(f"note: --force: replacing the earlier {what} in {shown(path)}", file=sys.stderr)
    return target


def release(path: Path) -> None:
    """Give back a claim that stayed empty (the command failed before writing): the next run may take the name."""
    path = Path(path)
    try:
        if path.is_dir():
            path.rmdir()                    # only if empty: whatever was written stays
        elif path.is_file() and path.stat().st_size == 0:
            path.unlink()
    except OSError:
        pass                                # not empty, or gone: nothing to give back
