"""One decision on one screen (issue #40, point 1), laid out with rich: a pinned status line (turn, phase, side,
AP) and the victory condition, the decision in words, the map (a window of it centred on the unit or place the
decision is about, when the whole map is taller than the room left) beside or above the choices (paged: typing a
number, a place or a unit works on every page), the newest events, a message line; the prompt is the last line.

The screen is exactly `height - 1` lines of at most `width` columns, from the terminal's size (80 x 24 at least
assumed when it cannot be read)."""
from __future__ import annotations

import io
import re
import shutil
import textwrap
from dataclasses import dataclass

from rich.console import Console
from rich.table import Table
from rich.text import Text

#: the narrowest choice pane beside the map; narrower, the map goes above the choices
MIN_PANE = 22
_ROW = re.compile(r"^\s{0,3}(\d{1,2}) ")


def terminal_size() -> tuple[int, int]:
    size = shutil.get_terminal_size((80, 24))
    return max(size.columns, 40), max(size.lines, 16)


@dataclass
class Page:
    """The choices shown on one screen: their lines (numbered, fitted to the pane) and where they sit in the list."""

    lines: list[str]
    first: int
    last: int
    number: int
    count: int


def item_lines(numbers: list[int], items: list[str], width: int) -> list[list[str]]:
    """Each numbered item as lines no wider than `width` (a long one wraps under itself)."""
    pad = len(str(max(numbers, default=1))) + 1
    return [textwrap.wrap(f"{n:>{pad}} {text}", width, subsequent_indent=" " * (pad + 2)) or [f"{n:>{pad}}"]
            for n, text in zip(numbers, items)]


def pages(numbers: list[int], items: list[str], width: int, rows: int) -> list[Page]:
    """The items in pages of `rows` lines: in columns when they are short, one a line (wrapped) otherwise."""
    rows = max(rows, 1)
    wrapped = item_lines(numbers, items, width)
    cell = max((len(w[0]) for w in wrapped), default=1) + 2
    per_row = width // cell if all(len(w) == 1 for w in wrapped) else 1
    found: list[Page] = []
    if per_row > 1:
        size = rows * per_row
        for start in range(0, len(items), size):
            chunk = [w[0] for w in wrapped[start:start + size]]
            height = (len(chunk) + per_row - 1) // per_row
            lines = ["".join(chunk[r + c * height].ljust(cell) for c in range(per_row) if r + c * height < len(chunk)).rstrip()
                     for r in range(height)]
            found.append(Page(lines, start, start + len(chunk), 0, 0))
    else:
        start, lines = 0, []
        for i, w in enumerate(wrapped):
            if lines and len(lines) + len(w) > rows:
                found.append(Page(lines, start, i, 0, 0))
                start, lines = i, []
            lines += w[:rows]
        found.append(Page(lines, start, len(items), 0, 0))
    for i, page in enumerate(found):
        page.number, page.count = i + 1, len(found)
    return found or [Page([], 0, 0, 1, 1)]


def map_window(lines: list[str], rows: int, focus: int | None) -> tuple[list[str], str]:
    """At most `rows` lines of the map: all of it when it fits; else its header lines (column numbers) and a window
    of the rest centred on map row `focus` (its number as printed); and a note of what is left out."""
    if len(lines) <= rows:
        return lines, ""
    first_row = next((i for i, line in enumerate(lines) if _ROW.match(line)), 0)
    header = lines[:first_row][: max(rows - 2, 0)]
    body, room = lines[first_row:], max(rows - len(header) - 1, 1)
    at = 0
    if focus is not None:
        at = next((i for i, line in enumerate(body) if (m := _ROW.match(line)) and int(m.group(1)) == focus), 0)
    start = min(max(at - room // 2, 0), max(len(body) - room, 0))
    shown = body[start:start + room]
    note = f"(lines {start + 1}-{start + len(shown)}/{len(body)}; m: all)"
    return [*header, *shown], note


@dataclass
class Screen:
    """What one screen shows, before layout."""

    status: str
    victory: str
    decision: str
    map_lines: list[str]
    focus: int | None
    title: str
    numbers: list[int]
    items: list[str]
    events: list[str]
    message: str = ""
    page: int = 0


def layout(screen: Screen, width: int, height: int, colour: bool) -> tuple[str, Page]:
    """The screen as text of exactly `height - 1` lines (the prompt is the last line), and the page of choices it
    shows (`screen.page` is clamped to the pages there are)."""
    decision = textwrap.wrap(screen.decision, width, break_on_hyphens=False)[:2]
    victory = textwrap.wrap("Win: " + screen.victory, width, subsequent_indent="  ")
    if len(victory) > 2:
        victory = [victory[0], textwrap.shorten(" ".join(victory[1:]), width - 10, placeholder=" ... (? in full)")]
    events_room = 3 + max(0, (height - 24) // 3)
    events = screen.events[-events_room:]
    while len(events) > 1 and events[0].startswith("    "):      # never the tail of an event without its start
        events = events[1:]
    if len(screen.events) > len(events):
        events = [f"  ... {len(screen.events) - len(events)} earlier line(s): u", *events[1 - (len(events) < events_room):]]
    body = max(height - 1 - 1 - len(victory) - len(decision) - len(events) - 1, 4)
    # the render's first line (its own status) wraps in the map's column rather than widening it
    map_width = max((len(line) for line in screen.map_lines[1:]), default=0)
    beside = width - map_width - 2 >= MIN_PANE
    if beside and screen.map_lines and len(screen.map_lines[0]) > map_width:
        screen.map_lines = [*textwrap.wrap(screen.map_lines[0], map_width), *screen.map_lines[1:]]
    if beside:
        pane, map_rows = width - map_width - 2, body
    else:
        pane = width
        wanted = len(screen.map_lines)
        needed = len(pages(screen.numbers, screen.items, width, body)[0].lines) + 1     # the choices' first page
        map_rows = min(wanted, max(body - needed, 6, body // 2))
    shown_map, note = map_window(screen.map_lines, map_rows - (1 if len(screen.map_lines) > map_rows else 0), screen.focus)
    if note:
        shown_map.append(note)
    choice_rows = body - 1 if beside else body - len(shown_map) - 1
    all_pages = pages(screen.numbers, screen.items, pane, choice_rows)
    page = all_pages[min(max(screen.page, 0), len(all_pages) - 1)]
    more = f"[{page.number}/{page.count} n,p] " if page.count > 1 else ""
    choices = [Text(more + screen.title, style="bold", overflow="ellipsis", no_wrap=True),
               *(Text(line, no_wrap=True, overflow="crop") for line in page.lines)]

    console = Console(file=io.StringIO(), width=width, height=height, force_terminal=colour, no_color=not colour,
                      color_system="standard" if colour else None, highlight=False, emoji=False, markup=False,
                      legacy_windows=False, _environ={})
    grid = Table.grid(expand=True)
    grid.add_column(no_wrap=True, overflow="crop")
    grid.add_row(Text(screen.status, style="reverse bold", overflow="ellipsis", no_wrap=True))
    for line in victory:
        grid.add_row(Text(line, style="bold", overflow="ellipsis", no_wrap=True))
    for line in decision:
        grid.add_row(Text(line, style="cyan", no_wrap=True, overflow="crop"))
    if beside:
        body_grid = Table.grid(padding=(0, 2))
        body_grid.add_column(width=map_width, no_wrap=True, overflow="crop")
        body_grid.add_column(width=pane, no_wrap=True, overflow="crop")
        left = Text("\n".join(shown_map), no_wrap=True, overflow="crop")
        right = Text("\n").join(choices)
        body_grid.add_row(left, right)
        grid.add_row(body_grid)
        used = max(len(shown_map), len(choices))
    else:
        for line in shown_map:
            grid.add_row(Text(line, no_wrap=True, overflow="crop"))
        for text in choices:
            grid.add_row(text)
        used = len(shown_map) + len(choices)
    for _ in range(body - used):
        grid.add_row(Text(""))
    for line in events:
        grid.add_row(Text(line, style="dim", no_wrap=True, overflow="ellipsis"))
    grid.add_row(Text(screen.message, style="yellow", no_wrap=True, overflow="ellipsis"))
    console.print(grid, crop=True)
    text = console.file.getvalue().rstrip("\n")
    lines = text.split("\n")
    return "\n".join(line.rstrip() for line in lines[: height - 1]), page


def paged(text_lines: list[str], width: int, height: int) -> list[list[str]]:
    """Long text (help, the whole map, the events) in pages of `height - 1` lines fitted to `width`."""
    fitted = [part for line in text_lines for part in (textwrap.wrap(line, width, subsequent_indent="    ",
                                                                           break_on_hyphens=False) or [""])]
    size = max(height - 1, 1)
    return [fitted[i:i + size] for i in range(0, len(fitted), size)] or [[]]
