"""`rubble play` in a pseudo-terminal of 80 x 24 (pexpect): every screen fits the terminal (no screen between two
prompts taller than 24 lines or wider than 80), a whole game of every ruleset is played to its end by a seeded
'person', the keys name what the maps show, typing a place or unit picks or lists its matches, and the table
companion (`--dice manual`) asks for every roll, re-asks a bad answer, tells what the enemy does and why, and saves
and resumes a game."""
from __future__ import annotations

import json
import os
import random
import re
import signal
import sys

import pytest

from envs.paths import PROJECT_ROOT
from training.replay import files as replay

pexpect = pytest.importorskip("pexpect")
pytest.importorskip("rich")

RULESETS = ["rifles-urban", "rifles-darkness", "cityfight", "k47", "urbanwar"]
ROWS, COLS = 24, 80
PROMPT = re.compile(r"your choice \(1-(\d+); \? help, m map, u last events, q quit\): ")
CONFIRM = re.compile(r"really .*\? this cannot be taken back \(y/n\): ")
DICE = re.compile(r"the (\d+) faces? \(1-(\d+), spaces between\): ")
DONE = re.compile(r"done on the table\? Enter goes on \(q quits\): ")
MORE = re.compile(r"-- Enter: more, b: back to the game -- ")
OVER = re.compile(r"game over: (you win|you lose|a draw) \(returns \([^)]*\)\)")
ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]")
MAX_ANSWERS = 6000


def spawn(env: str, seed: int, *extra: str, colour: bool = False, enemy: str = "scripted"):
    environ = {k: v for k, v in os.environ.items() if k not in ("NO_COLOR", "COLUMNS", "LINES")}
    if not colour:
        environ["NO_COLOR"] = "1"
    args = ["-m", "training.cli", "play", *([env] if env else []), "--seed", str(seed), "--enemy", enemy, *extra]
    return pexpect.spawn(sys.executable, args, cwd=str(PROJECT_ROOT), env=environ, dimensions=(ROWS, COLS),
                         encoding="utf-8", timeout=120, preexec_fn=interruptible)


def interruptible() -> None:
    """Ctrl-C interrupts the game as at a person's terminal, even when the tests run in the background of a shell
    without job control (whose children inherit SIGINT ignored)."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def segment_lines(text: str) -> list[str]:
    """What the terminal shows of one segment (all printed since the last answer), echo of the answer left out."""
    lines = ANSI.sub("", text).replace("\r", "").split("\n")
    return lines[1:]       # the first line is the echo of the answer (of the command line, for the first screen)


def check_fits(segment: str) -> None:
    lines = segment_lines(segment)
    assert len(lines) <= ROWS, f"a screen of {len(lines)} lines:\n" + "\n".join(lines)
    wide = [line for line in lines if len(line) > COLS]
    assert not wide, f"lines wider than {COLS}: {wide[:3]}"


def play_to_the_end(child, seed: int, manual: bool = False) -> tuple[str, int, str]:
    """Answer every prompt (a seeded number, y, the faces asked for, Enter) until the game is over; every screen is
    checked to fit. The transcript, the number of answers and the result line."""
    rng, answers, seen = random.Random(seed), 0, []
    while answers < MAX_ANSWERS:
        which = child.expect([PROMPT, CONFIRM, DICE, DONE, OVER])
        segment = child.before + child.after
        seen.append(segment)
        if which == 4:
            child.expect(pexpect.EOF)
            return "".join(seen), answers, child.after if isinstance(child.after, str) else seen[-1]
        check_fits(segment)
        if which == 0:
            child.sendline(str(rng.randint(1, int(child.match.group(1)))))
        elif which == 1:
            child.sendline("y")
        elif which == 2:
            count, sides = int(child.match.group(1)), int(child.match.group(2))
            child.sendline(" ".join(str(rng.randint(1, sides)) for _ in range(count)))
        else:
            child.sendline("")
        answers += 1
    raise AssertionError(f"no end after {MAX_ANSWERS} answers")


@pytest.mark.parametrize("env", RULESETS)
def test_a_whole_game_is_played_to_the_end_and_every_screen_fits(env):
    child = spawn(env, seed=2)
    transcript, answers, _ = play_to_the_end(child, seed=2)
    child.close()
    text = ANSI.sub("", transcript)
    assert child.exitstatus == 0 and answers > 0 and OVER.search(text)
    assert "Win: " in text and "you: " in text and " to decide" in text
    assert re.search(r"\[[A-Z]{2}-[A-Z0-9]+-\d+\]", text), "events cite their rule IDs"


def key_pages(child) -> str:
    """The map and its key (m), every page of it."""
    child.sendline("m")
    text = ""
    while True:
        which = child.expect([MORE, PROMPT])
        text += child.before
        check_fits(child.before + child.after)
        if which == 1:
            return ANSI.sub("", text)
        child.sendline("")


@pytest.mark.parametrize("env, symbols", [
    ("rifles-darkness", ["K1..K5", "AP BAP Recon", "S6..S1"]),
    ("cityfight", ["(L)", "(C)", "(B)", "+UGL", "+LAW", "AP n", "A1..C3"]),
    ("k47", ["A1 B2", "pins", "bag A 4 B 4"]),
    ("urbanwar", ["(x,y)", "order[?]"]),
])
def test_the_key_covers_what_the_screen_shows(env, symbols):
    """Darkness's markers are K1..K5 (not E1); Cityfight's (L), (C+UGL), (B+LAW) and its AP column are explained."""
    child = spawn(env, seed=1)
    child.expect(PROMPT)
    shown = key_pages(child)
    for symbol in symbols:
        assert f"{symbol} " in shown, f"{symbol!r} not in the key of {env}"
    assert "E1 ..." not in shown
    child.sendline("q")
    child.expect(pexpect.EOF)


def test_decisions_are_named_and_typing_a_square_lists_what_it_matches():
    """Cityfight: the activated element is named with its profile; 'k13' matches every choice at k13 (move, fire,
    overwatch...) and says how many; '(13, 14)' and '15,13' pick a Konflikt '47 place as shown."""
    child = spawn("cityfight", seed=1)
    child.expect(PROMPT)
    assert "activate one of your elements" in child.before
    child.sendline("AL")                            # a unit typed by name: activate element AL
    child.expect(PROMPT)
    assert "AL (Leader team, 2) at k14 is active" in ANSI.sub("", child.before).replace("\r\n", " ")
    child.sendline("k13")
    child.expect(PROMPT)
    screen = ANSI.sub("", child.before)
    check_fits(child.before + child.after)
    found = re.search(r"'k13' matched (\d+) choices", screen)
    assert found and int(found.group(1)) > 1
    child.sendline("zz")
    child.expect(PROMPT)
    assert "nothing matches 'zz'" in child.before
    child.sendline("q")
    child.expect(pexpect.EOF)


def test_k47_places_are_typed_as_shown_and_down_is_explained():
    child = spawn("k47", seed=1)
    child.expect(PROMPT)
    assert "choose the unit that takes an order" in ANSI.sub("", child.before).replace("\r\n", " ")
    child.sendline("1")                             # order unit A1
    child.expect(PROMPT)
    child.sendline("advance")                       # a word of a choice
    child.expect(PROMPT)
    child.sendline("1")                             # the group: move to ...
    child.expect(PROMPT)
    screen = ANSI.sub("", child.before)
    place = re.search(r"\d+ \((\d+), ?(\d+)\)", screen)
    assert place, screen
    child.sendline(f"({place.group(1)}, {place.group(2)})")
    child.expect(PROMPT)
    assert f"you: move to ({place.group(1)}, {place.group(2)})" in ANSI.sub("", child.before)
    child.sendline("q")
    child.expect(pexpect.EOF)


@pytest.mark.parametrize("env", RULESETS)
def test_table_companion_game_runs_to_its_end_with_typed_dice(env, tmp_path):
    """--dice manual: every roll is asked for ('roll N d6 for ...'), the enemy's decisions say what to do and why,
    the game ends, and --record writes its replay."""
    child = spawn(env, 3, "--dice", "manual", "--record", str(tmp_path))
    transcript, answers, _ = play_to_the_end(child, seed=3, manual=True)
    child.close()
    text = ANSI.sub("", transcript).replace("\r\n    ", " ")
    assert child.exitstatus == 0 and OVER.search(text)
    assert re.search(r"DICE: roll \d+ d\d+ for ", text)
    assert re.search(r"why: rule [A-Z]{2}-[A-Z]+-\d+", text), "the enemy's rule is named"
    [written] = tmp_path.glob("*.rubble.json*")
    data, final = replay.verify(written)           # the typed faces replay the same game, event by event
    assert data["dice"]["kind"] == "table" and final.is_over
    assert sum(len(step["rolled"]) for step in data["steps"]) + len(data["dice"]["setup"]) == len(final.dice.log) > 0


def test_manual_dice_re_ask_a_bad_answer_and_a_game_is_saved_and_resumed(tmp_path):
    save = tmp_path / "game.json"
    records = tmp_path / "replays"
    child = spawn("rifles-urban", 1, "--dice", "manual", "--save", str(save), "--record", str(records))
    rng, dice_answered = random.Random(1), 0
    while dice_answered < 3:
        which = child.expect([PROMPT, CONFIRM, DICE, DONE])
        check_fits(child.before + child.after)
        if which == 2:
            count, sides = int(child.match.group(1)), int(child.match.group(2))
            if dice_answered == 0:
                child.sendline("7 " * (count + 1))                  # too many, and 7 on a d6
                child.expect(f"expected {count} numbers? from 1 to {sides}")
                child.expect(DICE)
            child.sendline(" ".join(str(rng.randint(1, sides)) for _ in range(count)))
            dice_answered += 1
        else:
            child.sendline("y" if which == 1 else "" if which == 3 else str(rng.randint(1, int(child.match.group(1)))))
    while child.expect([PROMPT, CONFIRM, DONE, DICE]) == 3:      # the rest of a roll under way
        child.sendline(" ".join("1" for _ in range(int(child.match.group(1)))))
    child.sendline("q")
    child.expect("saved after the last whole decision")
    child.expect(pexpect.EOF)
    data = json.loads(save.read_text())
    assert data["env"] == "rifles-urban" and data["dice"] == "manual" and data["state"]["dice"]["kind"] == "manual"
    child = spawn("", 1, "--resume", str(save), "--record", str(records))
    transcript, _, _ = play_to_the_end(child, seed=4, manual=True)
    child.close()
    assert child.exitstatus == 0 and OVER.search(ANSI.sub("", transcript))
    quit_early, whole = sorted(records.glob("*.rubble.json*"), key=lambda p: len(replay.load(p)["steps"]))
    _, final = replay.verify(whole)        # both sittings' typed dice replay the whole game
    replay.verify(quit_early)
    assert final.is_over and len(replay.load(quit_early)["steps"]) < len(replay.load(whole)["steps"])


def test_ending_a_phase_is_asked_twice_and_ctrl_c_quits():
    child = spawn("rifles-urban", seed=1)
    child.expect(PROMPT)
    child.sendline("1")                             # end phase
    child.expect(CONFIRM)
    child.sendline("n")
    child.expect(PROMPT)
    child.sendline("1")
    child.expect(CONFIRM)
    child.sendline("y")
    child.expect(PROMPT)                            # the enemy's phase played, the next decision asked
    # the screen's events pane holds only the newest lines (the enemy's phase pushes the person's move out of it):
    # `u` pages through the events kept, where the phase ended is
    child.sendline("u")
    for _ in range(50):                             # a bounded number of pages
        if child.expect(["you: end phase", MORE]) == 0:
            break
        child.sendline("")
    else:
        pytest.fail("'you: end phase' is not among the last events")
    child.expect(MORE)                              # waiting for a key: Ctrl-C there quits
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
    assert "\x1b[" in coloured.before and "\x1b[" not in plain.before
    for child in (coloured, plain):
        child.sendline("q")
        child.expect(pexpect.EOF)
