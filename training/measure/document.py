"""A report as a list of blocks (headings, paragraphs, tables, pictures), written once and rendered both as Markdown
and as a self-contained HTML page (pictures embedded as data URIs)."""
from __future__ import annotations

import base64
import html
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
        out.append("")
    return "\n".join(out)


STYLE = """body{font-family:system-ui,sans-serif;max-width:1100px;margin:2em auto;padding:0 1em;color:#222}
table{border-collapse:collapse;margin:.5em 0 1.2em;font-size:14px}td,th{border:1px solid #ccc;padding:3px 8px;text-align:left}
th{background:#f0f0f0}figure{margin:1em 0}figcaption{color:#555;font-size:13px}img{max-width:100%}
code{background:#f4f4f4;padding:1px 4px}"""


def _inline(text: str) -> str:
    """Escape, then render `code` spans."""
    parts = html.escape(text).split("`")
    return "".join(f"<code>{p}</code>" if i % 2 else p for i, p in enumerate(parts))


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
            rows = "".join("<tr>" + "".join(f"<td>{_inline(str(c))}</td>" for c in row) + "</tr>" for row in b.rows)
            out.append(f"<table><tr>{head}</tr>{rows}</table>")
        elif isinstance(b, Picture):
            data = base64.b64encode(b.png).decode()
            out.append(f"<figure><img alt='{html.escape(b.caption)}' src='data:image/png;base64,{data}'>"
                       f"<figcaption>{_inline(b.caption)}</figcaption></figure>")
    out.append("</body></html>")
    return "\n".join(out)
