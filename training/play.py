"""A person plays one side in the terminal against agents: `rubble play`."""
from __future__ import annotations

from typing import TextIO

import numpy as np

from agents.base import decide
from envs.engine.dice import agent_seed

PROMPT = "your choice (number; ? to reprint, q to quit): "


class Quit(Exception):
    """The person typed q (or closed the input)."""


def legal_actions(state) -> list[int]:
    """The legal action indices, in the order the menu numbers them from 1."""
    return [int(a) for a in np.flatnonzero(state.legal_action_mask())]


def menu(state, side: int, sides) -> str:
    """The map as `side` sees it and the numbered legal actions."""
    turn = getattr(state, "turn", None)
    head = f"--- {sides[side]} to decide" + (f", turn {turn}" if turn is not None else "") + " ---"
    items = [f"{i:>4}  {state.action_label(a)}" for i, a in enumerate(legal_actions(state), 1)]
    return "\n".join([head, state.render_text(side), *items])


def read_choice(count: int, stdin: TextIO, out: TextIO, reprint) -> int:
    """Ask until the person types a number 1..count; return its index into the menu."""
    while True:
        out.write(PROMPT)
        out.flush()
        line = stdin.readline()
        text = line.strip().lower()
        if not line or text == "q":
            raise Quit
        if text == "?":
            reprint()
        elif text.isdigit() and 1 <= int(text) <= count:
            return int(text) - 1
        else:
            out.write(f"type a number from 1 to {count}, ? or q\n")


def print_events(events, out: TextIO) -> None:
    for event in events:
        out.write(f"  {event}\n")


def person_turn(state, side: int, sides, stdin: TextIO, out: TextIO) -> None:
    """Show the menu, read the person's choice, play it and print what happened."""
    actions = legal_actions(state)

    def show() -> None:
        out.write(menu(state, side, sides) + "\n")

    show()
    action = actions[read_choice(len(actions), stdin, out, reprint=show)]
    out.write(f"you: {state.action_label(action)}\n")
    print_events(state.apply(action), out)


def agent_turn(state, agents: dict, sides, out: TextIO) -> None:
    """Let the agent of the side to move decide, and print its action and what happened."""
    side = state.current_side
    action = decide(agents[side], state, side)
    out.write(f"{sides[side]}: {state.action_label(action)}\n")
    print_events(state.apply(action), out)


def outcome(returns, side: int) -> str:
    result = returns[side]
    return "you win" if result > 0 else "you lose" if result < 0 else "a draw"


def play(rs, scenario, side: int, enemy, seed: int, stdin: TextIO, out: TextIO, recorder=None) -> int:
    """Play one game with the person on `side` and `enemy(side, seed)` on every other side; 0 at the end or on q.
    `recorder` (replay_record.Recorder) records the game and writes its replay at the end, even on q."""
    state = rs.new_game(scenario=scenario, seed=seed) if recorder is None else recorder.start(rs, scenario, seed)
    agents = {s: enemy(s, agent_seed(seed, s)) for s in range(len(rs.sides)) if s != side}
    try:
        while not state.is_over:
            if state.current_side == side:
                person_turn(state, side, rs.sides, stdin, out)
            else:
                agent_turn(state, agents, rs.sides, out)
    except Quit:
        out.write("\nquit\n")
        _record(recorder, state, seed, out)
        return 0
    _record(recorder, state, seed, out)
    out.write(state.render_text(side) + "\n")
    out.write(f"game over: {outcome(state.returns(), side)} (returns {tuple(state.returns())})\n")
    return 0


def _record(recorder, state, seed: int, out: TextIO) -> None:
    if recorder is not None:
        out.write(f"replay: {recorder.finish(state, seed)}\n")
