"""What the play screen prints: the head (turn, decision, AP, victory, score), the map with its legend, events in
words with their dice and rule IDs, and the help. Plain text that fits 80 columns; colour only on a terminal that
wants it (NO_COLOR unset)."""
from __future__ import annotations

import os
import textwrap

WIDTH = 80

HELP = """\
How to play
  A number picks the choice with that number. Long lists come in groups first
  (move, fire...): pick a group, then a choice in it; b goes back to the groups.
  A list longer than the screen has pages: n (or Enter) next, p previous.
  Typing a place (k12, 15,13, (13, 14)), a unit (A1) or a word of a choice picks
  the one choice it matches, or lists the choices it matches to pick from.
  Choices show their cost and, for fire, what a die needs and its chance.
  Ending a phase or an activation, declaring Out and passing while other
  choices are open are asked twice: y confirms, anything else goes back.
  ?  this help      m  the map and its key again      u  the last events again
  q  quit (Ctrl-C too); with --record the replay is written all the same,
     with --save the game is kept to go on with --resume."""


def wants_colour(out) -> bool:
    """ANSI colour only on a terminal, and never with NO_COLOR set (no-color.org)."""
    return "NO_COLOR" not in os.environ and hasattr(out, "isatty") and out.isatty()


def style(text: str, code: str, colour: bool) -> str:
    return f"\x1b[{code}m{text}\x1b[0m" if colour else text


def rule(title: str, colour: bool) -> str:
    """A heading line, 80 columns wide."""
    return style(f"== {title} ".ljust(WIDTH, "="), "1", colour)


def wrapped(label: str, text: str) -> list[str]:
    return textwrap.wrap(text, WIDTH, initial_indent=f"{label}: ", subsequent_indent=" " * (len(label) + 2)) if text else []


def head(rs, scenario: str, state, side: int, pieces, colour: bool) -> list[str]:
    """The title, the turn and decision, the AP left, the victory condition and the score so far."""
    deciding = state.current_side
    status = [f"turn {state.turn} of {rs.turn_limit(state)}"]
    if deciding is not None:
        kind = state.decision_kind()
        status.append(f"{rs.sides[deciding]} to decide" + (f" ({kind})" if kind else ""))
        ap = pieces.ap_left(state) if deciding == side else None
        if ap is not None:
            status.append(f"AP left {ap}")
    lines = [rule(f"Rubble {rs.name}, {scenario}: you are {rs.sides[side]}", colour), "  ".join(status)]
    lines += wrapped("Victory", pieces.victory(state)) + wrapped("Score", pieces.score(state, side))
    return lines


def legend(pieces) -> list[str]:
    """The map's symbols in words, as many to a line as fit, never one split across two lines."""
    return legend_of(pieces.legend)


def legend_of(entries) -> list[str]:
    """Key entries (symbol, meaning) as `legend` lays them out."""
    lines: list[str] = []
    for symbol, meaning in entries:
        item = f"{symbol} {meaning}"
        if lines and len(lines[-1]) + 3 + len(item) <= WIDTH:
            lines[-1] += " | " + item
        else:
            lines.append(("Key: " if not lines else "     ") + item)
    return lines


def screen(rs, scenario: str, state, side: int, pieces, colour: bool, with_legend: bool = True) -> str:
    """The whole screen: head, map as `side` sees it, and its legend (or where to find it)."""
    board = [part for line in [*state.render_text(side).splitlines(), *pieces.panel(state, side)] for part in fitted(line)]
    key = legend(pieces) if with_legend else ["(m: the map again with its key; ?: help)"] if pieces.legend else []
    return "\n".join([*head(rs, scenario, state, side, pieces, colour), *board, *key])


def fitted(line: str) -> list[str]:
    """A render line as it fits 80 columns: a long status line wraps under itself."""
    return textwrap.wrap(line, WIDTH, subsequent_indent="    ") if len(line) > WIDTH else [line]


def event_lines(events) -> list[str]:
    """Events in words: what happened, the dice rolled (with what each needed and what followed, where the
    ruleset says so in the event's `rolls`) and the rule that says so."""
    lines = []
    for e in events:
        rolls = e.data.get("rolls")
        rolled = f"; rolled {rolls_words(rolls)}" if rolls else f"; rolled {' '.join(map(str, e.dice))}" if e.dice else ""
        cite = f" [{e.rule}]" if e.rule else ""
        lines += textwrap.wrap(f"  - {e.text}{rolled}{cite}", WIDTH, subsequent_indent="    ", break_on_hyphens=False)
    return lines


def rolls_words(rolls) -> str:
    """An event's dice in words, dice that needed the same read together: `4 6, needing 5+ each: miss, hit`,
    `4 6 on the Exposed Movement table (D66): sniper` (one roll of `envs.engine.events.roll` per die or set)."""
    runs: list[list[dict]] = []
    for r in rolls:
        if runs and (runs[-1][0]["needs"], runs[-1][0]["table"]) == (r["needs"], r["table"]):
            runs[-1].append(r)
        else:
            runs.append([r])
    return "; ".join(run_words(run) for run in runs)


def run_words(run: list[dict]) -> str:
    faces = " ".join(str(d) for r in run for d in r["dice"])
    first = run[0]
    how = f" on {first['table']}" if first["table"] else f", needing {first['needs']}" if first["needs"] else ""
    each = " each" if first["needs"] and not first["table"] and len(run) > 1 else ""
    return f"{faces}{how}{each}: {', '.join(r['result'] for r in run)}"


def actor_lines(sides, side: int, label: str, you: bool) -> list[str]:
    """Who chose what, wrapped to 80 columns."""
    return textwrap.wrap(f"{'you' if you else sides[side]}: {label}", WIDTH, subsequent_indent="    ")
