"""A person plays one side in the terminal against agents: `rubble play`.

The screen (play_screen) and the grouped choices (play_menu) are built on the contract alone: action labels, decision
kinds, text renders, events; play_rulesets adds each ruleset's legend, victory condition, score, AP and to-hit."""
from __future__ import annotations

from collections import deque
from typing import TextIO

from agents.base import decide
from envs.engine.dice import agent_seed

from . import screen as ui
from .menu import Choice, group_title, grouped, legal_actions, needs_confirmation, needs_grouping, numbered, short_lines, with_notes
from .rulesets import pieces as ruleset_pieces

PROMPT = "your choice ({first}-{last}; ? help, m map, u last events, q quit): "
#: how many event lines `u` shows again
REMEMBERED = 40


class Quit(Exception):
    """The person typed q, pressed Ctrl-C or closed the input."""


class Back(Exception):
    """The person typed b: back to the groups."""


def place_of(text: str) -> str:
    """The last word, as a place is typed: 'k12', '(3,47)' or '3,47'."""
    words = text.lower().split()
    return words[-1].strip("()") if words else ""


class Table:
    """One game at the terminal: the person's side, what the screen needs, the events seen so far."""

    def __init__(self, rs, scenario: str, side: int, stdin: TextIO, out: TextIO) -> None:
        self.rs, self.scenario, self.side, self.stdin, self.out = rs, scenario, side, stdin, out
        self.pieces = ruleset_pieces(rs.name)
        self.colour = ui.wants_colour(out)
        self.events: deque[str] = deque(maxlen=REMEMBERED)
        self.state = None
        self.legend_shown = False

    def write(self, text: str) -> None:
        self.out.write(text + "\n")

    def report(self, who: int, label: str, events) -> None:
        """Who did what, then what followed, kept for `u`."""
        lines = [*ui.actor_lines(self.rs.sides, who, label, who == self.side), *ui.event_lines(events)]
        self.events.extend(lines)
        self.write("\n".join(lines))

    def show(self, with_legend: bool = False) -> None:
        """The screen; the map's legend in full the first time and on m, a pointer to it otherwise."""
        with_legend = with_legend or not self.legend_shown
        self.legend_shown = self.legend_shown or with_legend
        self.write(ui.screen(self.rs, self.scenario, self.state, self.side, self.pieces, self.colour, with_legend))

    # Input -------------------------------------------------------------------------------------------------------
    def ask(self, prompt: str) -> str:
        """One line typed by the person; EOF is a quit."""
        self.out.write(prompt)
        self.out.flush()
        line = self.stdin.readline()
        if not line:
            raise Quit
        return line.strip().lower()

    def pick(self, count: int, lines: list[str], can_go_back: bool, labels: list[str] = ()) -> int:
        """Ask until the person types a number 1..count (its index is returned), the place that ends one of `labels`
        (a square such as k12), or b; ?, m, u and q work anywhere."""
        self.write("\n".join(lines))
        while True:
            text = self.ask(PROMPT.format(first=1, last=count))
            if text.isdigit() and 1 <= int(text) <= count:
                return int(text) - 1
            if text == "b" and can_go_back:
                raise Back
            if self.command(text):
                self.write("\n".join(lines))
                continue
            named = [i for i, label in enumerate(labels) if place_of(label) == place_of(text)]
            if text and len(named) == 1:
                return named[0]
            back = ", b back" if can_go_back else ""
            self.write(f"type a number from 1 to {count}{back}; ? for help")

    def command(self, text: str) -> bool:
        """The one-letter commands; False when `text` is none of them."""
        if text == "q":
            raise Quit
        if text == "?":
            self.write(ui.HELP)
        elif text == "m":
            self.show(with_legend=True)
        elif text == "u":
            self.write("Last events:\n" + ("\n".join(self.events) or "  (none yet)"))
        else:
            return False
        return True

    def confirmed(self, choice: Choice) -> bool:
        """y plays the choice, q quits, anything else goes back to the choices."""
        answer = self.ask(f"really {choice.label}? this cannot be taken back (y/n): ")
        if answer == "q":
            raise Quit
        return answer in ("y", "yes")

    # The person's decision ------------------------------------------------------------------------------------------
    def person_turn(self) -> None:
        """Show the screen, take one choice (through its group when the list is long), confirm it if it is final, play it."""
        self.show()
        state = self.state
        choices = [Choice(a, self.pieces.label(state, a) or state.action_label(a)) for a in legal_actions(state)]
        while True:
            choice = self.choose(choices)
            if not needs_confirmation(choice.label, len(choices)) or self.confirmed(choice):
                break
        self.report(self.side, choice.line(), state.apply(choice.action))

    def choose(self, choices: list[Choice]) -> Choice:
        if not needs_grouping(choices):
            return self.choose_in(choices, can_go_back=False)
        groups = grouped(choices)
        names = list(groups)
        while True:
            heads = [group_title(groups[name]) for name in names]
            group = groups[names[self.pick(len(names), ["Choose what to do:", *numbered(heads)], can_go_back=False)]]
            if len(group) == 1:
                return group[0]
            try:
                return self.choose_in(group, can_go_back=True)
            except Back:
                continue

    def choose_in(self, choices: list[Choice], can_go_back: bool) -> Choice:
        noted = with_notes(self.state, choices, self.pieces)
        shared, items = short_lines(noted)
        title = f"Choose{' ' + shared if shared else ''}{' (b: back to the groups)' if can_go_back else ''}:"
        lines = [title, *numbered(items)]
        return noted[self.pick(len(noted), lines, can_go_back, [c.label for c in noted])]

    # The agents' decisions -----------------------------------------------------------------------------------------
    def agent_turn(self, agents: dict) -> None:
        """The other side decides; the person reads its choice only where the rules make it public."""
        state = self.state
        side, kind = state.current_side, state.decision_kind()
        action = decide(agents[side], state, side)
        label = f"decides ({kind})" if kind in self.pieces.secret_kinds else state.action_label(action)
        self.report(side, label, state.apply(action))


def outcome(returns, side: int) -> str:
    result = returns[side]
    return "you win" if result > 0 else "you lose" if result < 0 else "a draw"


def play(rs, scenario, side: int, enemy, seed: int, stdin: TextIO, out: TextIO, recorder=None) -> int:
    """Play one game with the person on `side` and `enemy(side, seed)` on every other side; 0 at the end or on q.
    `recorder` (replay_record.Recorder) records the game and writes its replay at the end, even on q."""
    table = Table(rs, scenario or rs.default_scenario, side, stdin, out)
    state = rs.new_game(scenario=scenario, seed=seed) if recorder is None else recorder.start(rs, scenario, seed)
    table.state = state
    agents = {s: enemy(s, agent_seed(seed, s)) for s in range(len(rs.sides)) if s != side}
    if state.setup_events:
        table.write("\n".join(["set-up:", *ui.event_lines(state.setup_events)]))
    try:
        while not state.is_over:
            if state.current_side == side:
                table.person_turn()
            else:
                table.agent_turn(agents)
    except (Quit, KeyboardInterrupt):
        out.write("\nquit\n")
        _record(recorder, state, seed, out)
        return 0
    _record(recorder, state, seed, out)
    table.show()
    out.write(f"game over: {outcome(state.returns(), side)} (returns {tuple(state.returns())})\n")
    return 0


def _record(recorder, state, seed: int, out: TextIO) -> None:
    if recorder is not None:
        out.write(f"replay: {recorder.finish(state, seed)}\n")
