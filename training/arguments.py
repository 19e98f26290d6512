"""What the `rubble` command accepts on its command line, and how it reports what it refuses: always in one line.

Every number has bounds that a run can honour: a count past them would overflow (`--games 99999999999999999999`)
or never end, a seed past 2**32 - 1 is refused by the seeding of numpy's legacy generator that SB3 uses.
"""
from __future__ import annotations

import argparse
import math
import sys

MAX_GAMES = 10_000_000          # a series this long already takes days
MAX_JOBS = 10**6                # worker processes: more than the cores is played with as many workers as cores
MAX_ENVS = 256                  # parallel training environments, each a process
MAX_TIMESTEPS = 10**12
MAX_SEED = 2**32 - 1            # SB3's set_random_seed seeds numpy's legacy generator, which takes 32 bits
MAX_SECONDS = 24 * 3600.0


class OneLineParser(argparse.ArgumentParser):
    """argparse, but a usage error is one line (the usage itself is one `--help` away) and exit status 2."""

    def error(self, message: str):
        self.exit(2, f"{self.prog}: {message} (see {self.prog} --help)\n")


def _whole(text: str, low: int, high: int, what: str = "a whole number") -> int:
    try:
        value = int(text)
    except ValueError:
        value = None
    if value is None or not low <= value <= high:
        raise argparse.ArgumentTypeError(f"expected {what} from {low:,} to {high:,}, got {text}")
    return value


def _positive(text: str, high: float, unit: str) -> float:
    try:
        value = float(text)
    except ValueError:
        value = math.nan
    if not (math.isfinite(value) and 0 < value <= high):   # NaN and inf fail here too
        raise argparse.ArgumentTypeError(f"expected {unit} > 0 and at most {high:,g}, got {text}")
    return value


def games(text: str) -> int:
    return _whole(text, 1, MAX_GAMES)


def jobs(text: str) -> int:
    return _whole(text, 1, MAX_JOBS)


def envs(text: str) -> int:
    return _whole(text, 1, MAX_ENVS)


def every(text: str) -> int:
    return _whole(text, 1, MAX_GAMES)


def timesteps(text: str) -> int:
    return _whole(text, 1, MAX_TIMESTEPS)


def seed(text: str) -> int:
    return _whole(text, 0, MAX_SEED, "a seed")


def seconds(text: str) -> float:
    return _positive(text, MAX_SECONDS, "seconds")


def minutes(text: str) -> float:
    return _positive(text, MAX_SECONDS / 60 * 365, "minutes")


def scale(text: str) -> float:
    return _positive(text, 16.0, "a scale")


def port(text: str) -> int:
    return _whole(text, 0, 65535, "a port number")


def one_line(exc: BaseException) -> str:
    """What went wrong, in one line: the messages of the project's own errors name the file and field already."""
    from agents.trained import ModelFileError
    from envs.engine.scenario import ScenarioError

    from .lookup import CommandError

    if isinstance(exc, (CommandError, ScenarioError, ModelFileError)):
        text = str(exc)
    elif isinstance(exc, OSError) and exc.filename is not None:
        text = f"{exc.filename}: {exc.strerror or exc}"
    elif isinstance(exc, KeyError) and exc.args:
        text = str(exc.args[0])
    else:
        text = f"{type(exc).__name__}: {exc} (rerun with --debug for the traceback)"
    return " ".join(text.split())


def report(exc: BaseException, prog: str = "rubble") -> int:
    """Print `exc` in one line on stderr; the exit status: 2 for a bad request, 1 for anything else."""
    from .lookup import CommandError

    print(f"{prog}: {one_line(exc)}", file=sys.stderr)
    return 2 if isinstance(exc, CommandError) else 1
