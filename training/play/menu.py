"""The person's choices, grouped: a long list of legal actions becomes groups by what they do (activate, move, fire...),
then the items of one group with their AP cost and, for fire, what each die needs. Built on action labels only."""
from __future__ import annotations

import textwrap
from dataclasses import dataclass

import numpy as np

#: a list this long or shorter is shown flat; a longer one is grouped first
FLAT_LIMIT = 14
#: words that never name a group on their own (a label's leading unit name is skipped too)
FILLERS = {"a", "an", "the", "to", "at", "with", "of", "unit", "element", "group", "model"}


@dataclass(frozen=True)
class Choice:
    action: int
    label: str
    note: str = ""        # the AP cost, the to-hit chance

    def line(self) -> str:
        return f"{self.label}{'  (' + self.note + ')' if self.note else ''}"


def legal_actions(state) -> list[int]:
    """The legal action indices in index order (the order the rulesets list their options)."""
    return [int(a) for a in np.flatnonzero(state.legal_action_mask())]


def group_of(label: str) -> str:
    """What a choice does, from its label: its first verb-like word ('A fires at S' -> 'fires')."""
    words = label.replace("/", " ").replace(":", " ").split()
    for word in words:
        if word.isalpha() and word.islower() and word not in FILLERS:
            return word
    return words[0] if words else "?"


def grouped(choices: list[Choice]) -> dict[str, list[Choice]]:
    """Choices by group, groups in the order of their first choice."""
    groups: dict[str, list[Choice]] = {}
    for c in choices:
        groups.setdefault(group_of(c.label), []).append(c)
    return groups


def shared_words(labels: list[str]) -> list[str]:
    """The leading words every label has."""
    shared = []
    for words in zip(*(label.split() for label in labels)):
        if len(set(words)) > 1:
            break
        shared.append(words[0])
    return shared


def group_title(choices: list[Choice]) -> str:
    """A group's name for the menu: the words its labels share ('move A to ...'), or the one label."""
    if len(choices) == 1:
        return choices[0].label
    return f"{' '.join(shared_words([c.label for c in choices])) or group_of(choices[0].label)} ... ({len(choices)})"


def short_lines(choices: list[Choice]) -> tuple[str, list[str]]:
    """A long list's shared words once, in its title, and each choice without them ('(18,46)' for 'deploy A1 at
    (18,46)'), so that more columns fit; a short list as it is."""
    labels = [c.label for c in choices]
    # short of the whole of any label, so that every choice keeps a word of its own
    shared = shared_words(labels)[:min(len(label.split()) for label in labels) - 1] if len(choices) > FLAT_LIMIT else []
    if not shared:
        return "", [c.line() for c in choices]
    cut = len(" ".join(shared)) + 1
    return " ".join(shared) + " ...", [c.line()[cut:] for c in choices]


def needs_grouping(choices: list[Choice]) -> bool:
    return len(choices) > FLAT_LIMIT and len(grouped(choices)) > 1


def needs_confirmation(label: str, choices: int) -> bool:
    """Ending a phase or an activation, declaring Out and giving up a turn cannot be taken back: asked twice. A bare
    pass among two or three answers (a reaction window: fire or not) is an ordinary answer, not asked twice."""
    text = label.lower()
    if text.startswith(("end ", "declare out")):
        return True
    return text.startswith("pass") and choices > 3


def columns(lines: list[str], width: int = 80) -> list[str]:
    """Numbered items in as many columns as fit `width` (a movement fan of 200 squares stays on one screen)."""
    if len(lines) <= FLAT_LIMIT:
        return lines
    cell = max(map(len, lines)) + 2
    per_row = max(1, width // cell)
    rows = (len(lines) + per_row - 1) // per_row
    return ["".join(lines[r + c * rows].ljust(cell) for c in range(per_row) if r + c * rows < len(lines)).rstrip()
            for r in range(rows)]


def numbered(items: list[str], width: int = 80) -> list[str]:
    """Items numbered from 1: in columns when many, a long one wrapped under itself."""
    lines = [f"{i:>3}  {text}" for i, text in enumerate(items, 1)]
    if len(lines) > FLAT_LIMIT:
        return columns(lines, width)
    return [part for line in lines for part in textwrap.wrap(line, width, subsequent_indent=" " * 7)]


def with_notes(state, choices: list[Choice], pieces) -> list[Choice]:
    """The choices of one list, each with its cost and to-hit chance where the ruleset has them."""
    noted = []
    for c in choices:
        notes = [note for note in (pieces.cost(state, c.action), pieces.to_hit(state, c.action)) if note]
        noted.append(Choice(c.action, c.label, ", ".join(notes)))
    return noted
