"""The person's choices, grouped: a long list of legal actions becomes groups by what they do (activate, move, fire...),
then the items of one group with their AP cost and, for fire, what each die needs. Built on action labels only."""
from __future__ import annotations

import re
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


# Groups by what the choices do, and typing by place, unit or name -------------------------------------------------
_COORD = re.compile(r"\((-?\d+),\s*(-?\d+)\)")


def group_key(label: str) -> str:
    """The words that say what a choice does, before the first place, unit or direction it names: 'fire at k7' and
    'fire special weapon at k7' are two groups ('fire at', 'fire special weapon at'); 'move N then E' is 'move'."""
    words = []
    for word in label.split():
        bare = word.strip("(),.;")
        if not bare or any(ch.isdigit() for ch in bare) or not (bare.islower() or bare in ("/", ":")):
            break
        words.append(word)
    return " ".join(words) or group_of(label)


def grouped_by_key(choices: list[Choice]) -> dict[str, list[Choice]]:
    groups: dict[str, list[Choice]] = {}
    for c in choices:
        groups.setdefault(group_key(c.label), []).append(c)
    return groups


def key_title(key: str, choices: list[Choice]) -> str:
    return choices[0].label if len(choices) == 1 else f"{key} ... ({len(choices)})"


def tokens(label: str) -> set[str]:
    """What a label can be typed as: the whole label, each word, each place as x,y."""
    text = label.lower()
    found = {" ".join(text.split()), re.sub(r"[()\s]", "", text)}
    found |= {f"{m.group(1)},{m.group(2)}" for m in _COORD.finditer(text)}
    found |= {w.strip("(),.;:") for w in text.replace("/", " ").split()} - {""}
    return found


def typed_forms(text: str) -> list[str]:
    """A typed answer's words, places as x,y: '(13, 14)', '13,14' and '13 14' are all '13,14'."""
    text = " ".join(text.lower().split())
    bare = re.sub(r"[()\s]", "", text)
    if re.fullmatch(r"-?\d+,-?\d+", bare):
        return [bare]
    if m := re.fullmatch(r"\(?\s*(-?\d+)\s+(-?\d+)\s*\)?", text):
        return [f"{m.group(1)},{m.group(2)}"]
    return [w.strip("(),.;:") for w in text.replace("/", " ").split() if w.strip("(),.;:")]


def matching(text: str, choices: list[Choice]) -> list[Choice]:
    """The choices whose label holds every word typed (a place, a unit, a word of the label), or the whole label."""
    whole = " ".join(text.lower().split())
    exact = [c for c in choices if " ".join(c.label.lower().split()) == whole]
    if exact:
        return exact
    words = typed_forms(text)
    if not words:
        return []
    return [c for c in choices if all(w in tokens(c.label) for w in words)]
