"""A person plays one side in the terminal against agents: `rubble play`.

Every decision is one screen that fits the terminal (layout.py: status, victory, the decision in words, the map
and the paged choices, the newest events); the choices come from the contract alone (action labels, decision kinds,
text renders, events); rulesets.py adds each ruleset's legend, victory condition, score, AP and to-hit, explain.py
the words. With `--dice manual` (the table companion) the person rolls every die on their own table and types the
faces (ManualDice), and each enemy decision is a stop that says what to do and which rule chose it."""
from __future__ import annotations

from pathlib import Path
from typing import TextIO

from agents.base import decide
from envs.engine.dice import ManualDice, agent_seed
from envs.engine.events import events_seen_by

from . import explain
from . import screen as ui
from .layout import Screen, layout, paged, terminal_size
from .menu import Choice, grouped_by_key, key_title, legal_actions, matching, needs_confirmation, short_lines, with_notes
from .rulesets import pieces as ruleset_pieces
from .saves import restore, save_data, write_save

PROMPT = "your choice ({first}-{last}; ? help, m map, u last events, q quit): "
DONE = "done on the table? Enter goes on (q quits): "
MORE = "-- Enter: more, b: back to the game -- "


class Quit(Exception):
    """The person typed q, pressed Ctrl-C or closed the input."""


class Table:
    """One game at the terminal: the person's side, what the screen needs, the events seen so far."""

    def __init__(self, rs, scenario: str, side: int, stdin: TextIO, out: TextIO, manual: bool = False) -> None:
        self.rs, self.scenario, self.side, self.stdin, self.out = rs, scenario, side, stdin, out
        self.pieces = ruleset_pieces(rs.name)
        self.colour = ui.wants_colour(out)
        self.history: list[str] = []
        self.fresh: list[str] = []
        self.state = None
        self.manual = manual
        self.rolling_for = ""
        self.rolls_asked = 0

    def write(self, text: str) -> None:
        self.out.write(text + "\n")
        self.out.flush()

    def report(self, who: int, label: str, events, reason: str = "") -> list[str]:
        """Who did what (and why, for the enemy), then what followed; kept for the screen's events and `u`."""
        lines = ui.actor_lines(self.rs.sides, who, label, who == self.side)
        if reason:
            lines += ui.wrapped("    why", reason)
        lines += self.event_lines(events)
        self.history.extend(lines)
        self.fresh.extend(lines)
        return lines

    def event_lines(self, events) -> list[str]:
        """The events the person may read (events_seen_by: an enemy's hidden rolls and choices are left out or read
        in their public wording); at the table (manual dice) every event, since the person rolls both sides' dice."""
        lines = []
        for e in events_seen_by(events, None if self.manual else self.side):
            note = explain.event_note(self.rs.name, e)
            lines += ui.event_lines([e]) + (ui.wrapped("      why", note) if note else [])
        return lines

    # Input -------------------------------------------------------------------------------------------------------
    def ask(self, prompt: str) -> str:
        """One line typed by the person; EOF is a quit."""
        self.out.write(prompt)
        self.out.flush()
        line = self.stdin.readline()
        if not line:
            raise Quit
        return line.strip().lower()

    def page_through(self, lines: list[str]) -> None:
        """Long text a screen at a time."""
        width, height = terminal_size()
        chunks = paged(lines, width, height)
        for i, chunk in enumerate(chunks):
            self.write("\n".join(chunk))
            if i + 1 < len(chunks) or True:
                answer = self.ask(MORE)
                if answer == "q":
                    raise Quit
                if answer == "b":
                    return

    def command(self, text: str) -> bool:
        """The one-letter commands; False when `text` is none of them."""
        if text == "q":
            raise Quit
        if text == "?":
            self.page_through([*ui.HELP.splitlines(), "", *ui.wrapped("Victory", self.pieces.victory(self.state)),
                               *ui.wrapped("Score", self.pieces.score(self.state, self.side))])
        elif text == "m":
            board = [*self.state.render_text(self.side).splitlines(), *self.pieces.panel(self.state, self.side)]
            self.page_through([*board, *ui.legend_of(self.key())])
        elif text == "u":
            self.page_through(["Last events:", *(self.history[-200:] or ["  (none yet)"])])
        else:
            return False
        return True

    def key(self):
        return explain.key(self.rs.name, self.state, self.pieces.legend)

    # The screen ------------------------------------------------------------------------------------------------------
    def status(self) -> str:
        state, rs = self.state, self.rs
        parts = [f"Turn {state.turn}/{rs.turn_limit(state)}"]
        phase = getattr(state, "phase", None)
        if phase:
            parts.append(f"{phase} phase")
        deciding = state.current_side
        if deciding is not None:
            parts.append(f"{'you' if deciding == self.side else rs.sides[deciding]} ({rs.sides[deciding]}) to decide")
            ap = self.pieces.ap_left(state) if deciding == self.side else None
            if ap is not None:
                parts.append(f"AP left {ap}")
        return " | ".join(parts) + f" | {rs.name}: {self.scenario}"

    def draw(self, title: str, items: list[str], page: int, message: str, labels: list[str]):
        width, height = terminal_size()
        board = [*self.state.render_text(self.side).splitlines(), *self.pieces.panel(self.state, self.side)]
        screen = Screen(self.status(), self.pieces.victory(self.state),
                        explain.decision_words(self.rs.name, self.state, self.side), board,
                        explain.focus_row(self.rs.name, self.state, labels), title, list(range(1, len(items) + 1)),
                        items, self.fresh[-40:], message, page)
        text, shown = layout(screen, width, height, self.colour)
        self.write(text)
        return shown

    # The person's decision ------------------------------------------------------------------------------------------
    def person_turn(self) -> None:
        state = self.state
        choices = [Choice(a, self.pieces.label(state, a) or explain.choice_label(self.rs.name, state, a)
                          or state.action_label(a)) for a in legal_actions(state)]
        while True:
            choice = self.choose(choices)
            if not needs_confirmation(choice.label, len(choices)) or self.confirmed(choice):
                break
        self.fresh = []
        self.rolling_for, self.rolls_asked = f"your {choice.label}" + (f" ({choice.note})" if choice.note else ""), 0
        self.report(self.side, choice.line(), state.apply(choice.action))

    def choose(self, choices: list[Choice]) -> Choice:
        """Groups (when the list does not fit one screen) then a group's choices, page by page; a number picks, a
        place, unit or word typed picks the one choice it matches or shows the several it matches."""
        width, height = terminal_size()
        groups = grouped_by_key(choices)
        grouping = len(groups) > 1 and len(choices) > max(height - 12, 8)
        shown: list[Choice] | None = None if grouping else choices
        title, page, message = "", 0, ""
        while True:
            if shown is None:
                names = list(groups)
                items, labels = [key_title(n, groups[n]) for n in names], [c.label for c in choices]
                title = "Choose a group (or type a place, a unit):"
                noted = []
            else:
                noted = with_notes(self.state, shown, self.pieces)
                shared, items = short_lines(noted)
                labels = [c.label for c in noted]
                title = title or (f"{shared}:" if shared else "Choose:")
            current = self.draw(title, items, page, message, labels)
            text = self.ask(PROMPT.format(first=1, last=len(items)))
            message = ""
            if text.isdigit() and 1 <= int(text) <= len(items):
                n = int(text) - 1
                if shown is not None:
                    return noted[n]
                group = groups[names[n]]
                if len(group) == 1:
                    return with_notes(self.state, group, self.pieces)[0]
                shown, title, page = group, f"{key_title(names[n], group)} (b: back):", 0
                continue
            if text in ("n", "") and current.count > 1:
                page = current.number % current.count
                continue
            if text == "p" and current.count > 1:
                page = (current.number - 2) % current.count
                continue
            if text == "b" and grouping and shown is not None:
                shown, title, page = None, "", 0
                continue
            if self.command(text):
                continue
            found = matching(text, shown if shown is not None and not grouping else choices) if text else []
            if len(found) == 1:
                return with_notes(self.state, found, self.pieces)[0]
            if found:
                shown, page = found, 0
                title = f"'{text}' matches {len(found)} choices: type one's number{' (b: back)' if grouping else ''}:"
                message = f"'{text}' matched {len(found)} choices; pick one by its number"
                if not grouping:
                    grouping, groups = True, {"all": choices}
                continue
            message = (f"nothing matches '{text}'; " if text else "") + f"type a number from 1 to {len(items)}" + \
                (", b back" if shown is not None and grouping else "") + "; ? for help"

    def confirmed(self, choice: Choice) -> bool:
        """y plays the choice, q quits, anything else goes back to the choices."""
        answer = self.ask(f"really {choice.label}? this cannot be taken back (y/n): ")
        if answer == "q":
            raise Quit
        return answer in ("y", "yes")

    # The agents' decisions -----------------------------------------------------------------------------------------
    def agent_turn(self, agents: dict) -> None:
        """The other side decides. The person reads its choice where the rules make it public; at the table (manual
        dice) always, since the person moves its pieces, with the rule or the odds that chose it."""
        state = self.state
        side, kind = state.current_side, state.decision_kind()
        agent = agents[side]
        action = decide(agent, state, side)
        label = state.action_label(action)
        reason = explain.enemy_reason(agent, state, side, action)
        if kind in self.pieces.secret_kinds and not self.manual:
            label, reason = f"decides ({explain.decision_words(self.rs.name, state, side)})", ""
        if self.manual:
            self.write(f"== {self.rs.sides[side]}: {label}")
            if reason:
                self.write("\n".join(ui.wrapped("   why", reason)))
        self.rolling_for, self.rolls_asked = f"{self.rs.sides[side]}'s {label}", 0
        events = state.apply(action)
        lines = self.report(side, label, events, reason)
        if self.manual:
            _, height = terminal_size()
            shown = lines[1:][: height - 6]
            self.write("\n".join(shown + (["  ... (u: all of it)"] if len(lines) - 1 > len(shown) else [])))
            if self.ask(DONE) == "q":
                raise Quit

    # Manual dice ----------------------------------------------------------------------------------------------
    def ask_dice(self, count: int, sides: int) -> list[int]:
        """ManualDice's callback: ask for `count` faces of a d`sides`, for what is being resolved, until they are
        right (as many numbers as dice, each 1..sides)."""
        self.rolls_asked += 1
        then = " (next roll of it)" if self.rolls_asked > 1 else ""
        what = f"roll {count} d{sides} for {self.rolling_for}{then}"
        self.write("\n".join(ui.wrapped("DICE", what)))
        while True:
            text = self.ask(f"the {count} face{'s' if count > 1 else ''} (1-{sides}, spaces between): ")
            if text == "q":
                raise Quit
            words = text.replace(",", " ").split()
            if all(w.isdigit() for w in words) and len(words) == count and all(1 <= int(w) <= sides for w in words):
                return [int(w) for w in words]
            self.write(f"expected {count} number{'s' if count > 1 else ''} from 1 to {sides}, e.g. "
                       f"{' '.join(str(1 + i % sides) for i in range(count))}; q quits")


def outcome(returns, side: int) -> str:
    result = returns[side]
    return "you win" if result > 0 else "you lose" if result < 0 else "a draw"


def play(rs, scenario, side: int, enemy, seed: int, stdin: TextIO, out: TextIO, recorder=None, *,
         manual: bool = False, save: Path | None = None, resume: dict | None = None, enemy_name: str = "") -> int:
    """Play one game with the person on `side` and `enemy(side, seed)` on every other side; 0 at the end or on q.
    `recorder` (replay.recorder.Recorder) records the game and writes its replay at the end, even on q. `manual`:
    the person rolls every die (ManualDice). `save`: the game is written there after every decision;
    `resume`: a saved game (read_save) goes on from where it was."""
    table = Table(rs, scenario or rs.default_scenario, side, stdin, out, manual)
    dice = ManualDice(table.ask_dice, seed) if manual else None
    if resume is not None:
        state = restore(rs, resume, dice)
        table.history = list(resume.get("history", []))
        table.fresh = table.history[-10:]
    else:
        state = rs.new_game(scenario=scenario, seed=seed, dice=dice) if dice is not None else rs.new_game(scenario=scenario, seed=seed)
    if recorder is not None:
        state = recording(rs, table.scenario, seed, recorder, state, resume)
    table.state = state
    agents = {s: enemy(s, agent_seed(seed, s)) for s in range(len(rs.sides)) if s != side}
    if state.setup_events and resume is None:
        table.fresh = table.history = ["set-up:", *table.event_lines(state.setup_events)]
    try:
        while not state.is_over:
            if state.current_side == side:
                table.person_turn()
            else:
                table.agent_turn(agents)
            if save is not None:
                write_save(save, save_data(rs, state, table.scenario, side, seed, enemy_name, manual, table.history))
    except (Quit, KeyboardInterrupt):
        out.write("\nquit\n")
        if save is not None:
            out.write(f"saved after the last whole decision: {save} (rubble play --resume {save})\n")
        _record(recorder, state, seed, out)
        return 0
    _record(recorder, state, seed, out)
    table.fresh = table.history[-6:]
    table.draw("Game over", [], 0, f"game over: {outcome(state.returns(), side)}", [])
    out.write(f"game over: {outcome(state.returns(), side)} (returns {tuple(state.returns())})\n")
    return 0


def recording(rs, scenario: str, seed: int, recorder, state, resume: dict | None):
    """The state wrapped to record its steps (those of a resumed game first)."""
    from training.replay.files import RecordingState, Replay

    replay = Replay(rs.name, scenario, int(seed), list(rs.sides), [str(a) for a in recorder.agents])
    if resume is not None and resume.get("replay_steps"):
        replay.steps, replay.dice = list(resume["replay_steps"]), resume["replay_dice"]
    return RecordingState(state, replay)


def _record(recorder, state, seed: int, out: TextIO) -> None:
    if recorder is not None:
        out.write(f"replay: {recorder.finish(state, seed)}\n")
