"""What the `rubble` command accepts on its command line, and how it reports what it refuses: always in one line.

Every number has bounds that a run can honour: a count past them would overflow (`--games 99999999999999999999`)
or never end, a seed past 2**32 - 1 is refused by the seeding of numpy's legacy generator that SB3 uses.
"""
from __future__ import annotations

import argparse
import math
import sys

from envs.paths import PROJECT_ROOT
from training import lookup
from training.lookup import CommandError

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

    print(f"{prog}: {one_line(exc)}", file=sys.stderr)
    return 2 if isinstance(exc, CommandError) else 1


def side_agents(rs, args) -> tuple[str, ...]:
    """The agent name of each side: --agents a,b,... or --player / --enemy for sides 0 and 1."""
    if args.agents:
        names = tuple(a.strip() for a in args.agents.split(","))
    elif len(rs.sides) <= 2:
        names = (args.player, args.enemy)[: len(rs.sides)]  # a solo ruleset has only side 0 to play
    else:
        raise CommandError(f"{rs.name} has {len(rs.sides)} sides ({', '.join(rs.sides)}): name their agents with --agents")
    if len(names) != len(rs.sides):
        raise CommandError(f"--agents names {len(names)} agents; {rs.name} has sides {', '.join(rs.sides)}")
    for side, name in enumerate(names):
        lookup.agent(rs, name, (side,))  # an unknown name or a model of another side fails here, before any game
    return names


def require_extra(extra: str, verb: str, *modules: str) -> None:
    """CommandError in one line, naming the extra to install, unless every module imports."""
    import importlib.util
    missing = [m for m in modules if importlib.util.find_spec(m) is None]
    if missing:
        raise CommandError(f"{verb} needs the {extra!r} extra ({', '.join(missing)} missing): "
                           f"pip install -e \".[{extra}]\"")


def shown_path(path) -> str:
    """A scenario path relative to the repo root when it lies inside it."""
    text = str(path)
    root = str(PROJECT_ROOT) + "/"
    return text[len(root):] if text.startswith(root) else text


def optional_str(path) -> str | None:
    return None if path is None else str(path)


def refuse_settings_on_resume(args, flags, what: str, changeable: str) -> None:
    """A resume keeps what it resumes as it was made: a setting given beside --resume would be silently ignored."""
    fixed = [flag for flag in flags if getattr(args, flag) is not None]
    if args.resume and fixed:
        names = ", ".join("--" + ("run" if f == "run_name" else f) for f in fixed)
        raise CommandError(f"--resume keeps the {what}'s settings ({names} given); only {changeable} may change")
