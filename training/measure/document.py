"""A report as a list of blocks (headings, paragraphs, lists, tables, pictures, preformatted text), written once and
rendered both as Markdown and as a self-contained HTML page (pictures embedded as data URIs). A report written as
Markdown text is read back into blocks by `from_markdown`, so that it renders as the same kind of page."""
from __future__ import annotations

import base64
import html
import re
from dataclasses import dataclass


@dataclass(frozen=True)
class Heading:
    level: int
    text: str


@dataclass(frozen=True)
class Paragraph:
    text: str


@dataclass(frozen=True)
class Table:
    header: tuple[str, ...]
    rows: tuple[tuple[str, ...], ...]


@dataclass(frozen=True)
class Picture:
    png: bytes
    caption: str


@dataclass(frozen=True)
class Items:
    """A bulleted list."""

    items: tuple[str, ...]


@dataclass(frozen=True)
class Code:
    """Preformatted text: a command to run, a listing."""

    text: str


def _md_cell(text: str) -> str:
    return str(text).replace("|", "\\|")


def to_markdown(blocks) -> str:
    """Markdown; pictures become a pointer to the HTML report, which holds them."""
    out = []
    for b in blocks:
        if isinstance(b, Heading):
            out.append("#" * b.level + " " + b.text)
        elif isinstance(b, Paragraph):
            out.append(b.text)
        elif isinstance(b, Table):
            out.append("| " + " | ".join(map(_md_cell, b.header)) + " |")
            out.append("|" + "---|" * len(b.header))
            out.extend("| " + " | ".join(map(_md_cell, row)) + " |" for row in b.rows)
        elif isinstance(b, Picture):
            out.append(f"*Figure in report.html: {b.caption}*")
        elif isinstance(b, Items):
            out.extend(f"- {item}" for item in b.items)
        elif isinstance(b, Code):
            out.extend(f"    {line}" for line in b.text.splitlines())
        out.append("")
    return "\n".join(out)


STYLE = """body{font-family:system-ui,sans-serif;max-width:1100px;margin:2em auto;padding:0 1em;color:#222}
table{border-collapse:collapse;margin:.5em 0 1.2em;font-size:14px}td,th{border:1px solid #ccc;padding:3px 8px;text-align:left}
th{background:#f0f0f0}figure{margin:1em 0}figcaption{color:#555;font-size:13px}img{max-width:100%}
code{background:#f4f4f4;padding:1px 4px}pre{background:#f4f4f4;padding:6px 10px;white-space:pre-wrap}
td.num{text-align:right}"""

_BOLD = re.compile(r"\*\*(.+?)\*\*")
_ITALIC = re.compile(r"(?<![\w*])\*(?!\s)(.+?)(?<!\s)\*(?![\w*])")


def _emphasis(text: str) -> str:
    return _ITALIC.sub(r"<em>\1</em>", _BOLD.sub(r"<strong>\1</strong>", text))


def _inline(text: str) -> str:
    """Escape, then render `code` spans and, outside them, **strong** and *emphasis*."""
    parts = html.escape(text, quote=False).split("`")
    return "".join(f"<code>{p}</code>" if i % 2 else _emphasis(p) for i, p in enumerate(parts))


_NUMBER = re.compile(r"^[+-]?[\d,.]+( %)?$")


def _cell(text: str) -> str:
    kind = " class='num'" if _NUMBER.match(str(text).strip()) else ""
    return f"<td{kind}>{_inline(str(text))}</td>"


def to_html(blocks, title: str) -> str:
    """One HTML file with nothing to fetch: styles inline, pictures as base64 PNG."""
    out = [f"<!doctype html><html><head><meta charset='utf-8'><title>{html.escape(title)}</title>"
           f"<style>{STYLE}</style></head><body>"]
    for b in blocks:
        if isinstance(b, Heading):
            out.append(f"<h{b.level}>{_inline(b.text)}</h{b.level}>")
        elif isinstance(b, Paragraph):
            out.append(f"<p>{_inline(b.text)}</p>")
        elif isinstance(b, Table):
            head = "".join(f"<th>{_inline(h)}</th>" for h in b.header)
            rows = "".join("<tr>" + "".join(_cell(c) for c in row) + "</tr>" for row in b.rows)
            out.append(f"<table><tr>{head}</tr>{rows}</table>")
        elif isinstance(b, Picture):
            data = base64.b64encode(b.png).decode()
            out.append(f"<figure><img alt='{html.escape(b.caption)}' src='data:image/png;base64,{data}'>"
                       f"<figcaption>{_inline(b.caption)}</figcaption></figure>")
        elif isinstance(b, Items):
            out.append("<ul>" + "".join(f"<li>{_inline(item)}</li>" for item in b.items) + "</ul>")
        elif isinstance(b, Code):
            out.append(f"<pre>{html.escape(b.text)}</pre>")
    out.append("</body></html>")
    return "\n".join(out)


_HEADING = re.compile(r"^(#{1,6}) (.*)$")
_IMAGE = re.compile(r"^!\[(.*)\]\((.+)\)$")


def _row(line: str) -> tuple[str, ...]:
    cells = re.split(r"(?<!\\)\|", line.strip().strip("|"))
    return tuple(c.strip().replace("\\|", "|") for c in cells)


def from_markdown(text: str, pictures: dict[str, bytes] | None = None) -> list:
    """The blocks of a report written as Markdown: headings, paragraphs (lines joined), `- ` lists, pipe tables,
    indented code, and images `![caption](name.png)` taken from `pictures` (an image not given stays a paragraph).
    What this reads is the Markdown this project's reports write, not Markdown at large."""
    pictures = pictures or {}
    blocks, para, lines = [], [], text.splitlines()

    def flush():
        if para:
            blocks.append(Paragraph(" ".join(para)))
            para.clear()

    i = 0
    while i < len(lines):
        line = lines[i]
        heading, image = _HEADING.match(line), _IMAGE.match(line.strip())
        if not line.strip():
            flush()
        elif heading:
            flush()
            blocks.append(Heading(len(heading.group(1)), heading.group(2)))
        elif image and image.group(2) in pictures:
            flush()
            blocks.append(Picture(pictures[image.group(2)], image.group(1)))
        elif line.startswith("    ") and not para:
            code = []
            while i < len(lines) and (lines[i].startswith("    ") or not lines[i].strip()):
                code.append(lines[i][4:])
                i += 1
            blocks.append(Code("\n".join(code).strip("\n")))
            continue
        elif line.lstrip().startswith("|"):
            flush()
            rows = []
            while i < len(lines) and lines[i].lstrip().startswith("|"):
                rows.append(_row(lines[i]))
                i += 1
            body = [r for r in rows[1:] if not all(re.fullmatch(r":?-{3,}:?", c) for c in r)]
            blocks.append(Table(rows[0], tuple(body)))
            continue
        elif line.startswith("- "):
            flush()
            items = []
            while i < len(lines) and lines[i].startswith("- "):
                items.append(lines[i][2:])
                i += 1
            blocks.append(Items(tuple(items)))
            continue
        else:
            para.append(line.strip())
        i += 1
    flush()
    return blocks
