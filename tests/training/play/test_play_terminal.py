"""`rubble play` in a pseudo-terminal (pexpect), 80 columns: a whole game of every ruleset played to its end by a
seeded 'person' who types numbers, confirms final choices and uses the one-letter commands; q and Ctrl-C quit cleanly."""
from __future__ import annotations

import os
import random
import re
import signal
import sys

import pytest

from envs.paths import PROJECT_ROOT

pexpect = pytest.importorskip("pexpect")

RULESETS = ["rifles-urban", "rifles-darkness", "cityfight", "k47", "urbanwar"]
PROMPT = re.compile(r"your choice \(1-(\d+); \? help, m map, u last events, q quit\): ")
CONFIRM = re.compile(r"really .*\? this cannot be taken back \(y/n\): ")
OVER = re.compile(r"game over: (you win|you lose|a draw) \(returns \([^)]*\)\)")
ANSI = re.compile(r"\x1b\[[0-9;]*m")
#: no game of the default scenarios takes more of the person's answers than this
MAX_ANSWERS = 3000


def spawn(env: str, seed: int, colour: bool = False, enemy: str = "scripted"):
    environ = {k: v for k, v in os.environ.items() if k != "NO_COLOR"}
    if not colour:
        environ["NO_COLOR"] = "1"
    return pexpect.spawn(sys.executable, ["-m", "training.cli", "play", env, "--seed", str(seed), "--enemy", enemy],
                         cwd=str(PROJECT_ROOT), env=environ, dimensions=(24, 80), encoding="utf-8", timeout=120,
                         preexec_fn=interruptible)


def interruptible() -> None:
    """Ctrl-C interrupts the game as at a person's terminal, even when the tests themselves were started in the
    background of a shell without job control, whose children inherit SIGINT ignored (POSIX)."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def play_to_the_end(child, seed: int) -> tuple[str, int, str]:
    """Answer every prompt with a seeded number (y to every confirmation) until the game is over; the transcript,
    the number of answers and the result line."""
    rng, answers, seen = random.Random(seed), 0, []
    while answers < MAX_ANSWERS:
        which = child.expect([PROMPT, CONFIRM, OVER])
        seen.append(child.before + child.after)
        if which == 2:
            result = child.after
            child.expect(pexpect.EOF)
            return "".join(seen), answers, result
        child.sendline("y" if which == 1 else str(rng.randint(1, int(child.match.group(1)))))
        answers += 1
    raise AssertionError(f"no end after {MAX_ANSWERS} answers")


@pytest.mark.parametrize("env", RULESETS)
def test_a_whole_game_is_played_to_the_end_in_a_terminal(env):
    child = spawn(env, seed=2)
    transcript, answers, result = play_to_the_end(child, seed=2)
    child.close()
    assert child.exitstatus == 0 and answers > 0 and OVER.fullmatch(result)
    assert "Key: " in transcript and "you: " in transcript
    assert re.search(r"\[[A-Z]{2}-[A-Z0-9]+-\d+\]", transcript), "events cite their rule IDs"
    if env.startswith("rifles"):     # each die with what it needed (or the table it is read on) and what followed
        events = re.sub(r"\r?\n    ", " ", ANSI.sub("", transcript))    # an event wraps under itself
        assert re.search(r"rolled [\d ]+, needing [^:;\]]+: [\w ]+", events)
        assert re.search(r"rolled [\d ]+ on the [\w ,()+'-]+: \w+", events)
    wide = [line for line in ANSI.sub("", transcript).splitlines() if len(line.rstrip("\r")) > 80]
    assert not wide, f"lines wider than 80 columns: {wide[:3]}"


def test_the_commands_help_map_events_back_and_a_bad_answer():
    child = spawn("cityfight", seed=1)
    child.expect(PROMPT)
    child.sendline("?")
    child.expect("How to play")
    child.sendline("u")
    child.expect("Last events:")
    child.sendline("m")
    child.expect("Key: ")
    child.sendline("99")
    child.expect("type a number from 1 to 8; \\? for help")
    child.sendline("2")                             # activate element AL: its actions come in groups
    child.expect("Choose what to do:")
    child.expect(r"(\d+)  move \.\.\. \(\d+\)")
    move = child.match.group(1)
    child.expect(PROMPT)
    child.sendline(move)
    child.expect("Choose \\(b: back to the groups\\):")
    child.expect(r"move \w+ to \w+  \(1 AP\)")       # CF-ACT-1: the cost shown before choosing
    child.sendline("b")
    child.expect("Choose what to do:")
    child.sendline("q")
    child.expect("quit")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0


def test_fire_shows_its_chance_and_a_square_can_be_typed():
    child = spawn("cityfight", seed=1)
    child.expect(PROMPT)
    child.sendline("2")                             # activate element AL
    child.expect(r"(\d+)  fire at \.\.\. \(\d+\)")
    fire = child.match.group(1)
    child.expect(PROMPT)
    child.sendline(fire)
    child.expect(r"Choose fire at \.\.\. \(b: back to the groups\):")    # the shared words once, in the title
    child.expect(r"\d+  k12  \(1 AP, if occupied, S or better: 1d \d+%, 2d \d+%\)")
    child.expect(PROMPT)
    child.sendline("k12")
    child.expect("you: fire at k12")
    child.sendline("q")
    child.expect(pexpect.EOF)


def test_ending_a_phase_is_asked_twice_and_no_keeps_the_choice_open():
    child = spawn("rifles-urban", seed=1)
    child.expect(PROMPT)
    child.sendline("1")                             # end phase
    child.expect(CONFIRM)
    child.sendline("n")
    child.expect("Choose:")
    child.expect(PROMPT)
    child.sendline("1")
    child.expect(CONFIRM)
    child.sendline("y")
    child.expect("you: end phase")
    child.sendcontrol("c")
    child.expect("quit")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0


def test_colour_only_without_no_color():
    coloured = spawn("k47", seed=1, colour=True)
    coloured.expect(PROMPT)
    plain = spawn("k47", seed=1)
    plain.expect(PROMPT)
    assert "\x1b[1m" in coloured.before and "\x1b[" not in plain.before
    for child in (coloured, plain):
        child.sendline("q")
        child.expect(pexpect.EOF)
