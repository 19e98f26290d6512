"""Which rule IDs a ruleset has, so that a playtest can list the rules no event cited in its games: the rules
catalogs (shared/rules/*.md beside the project) where they are there, else every rule ID the project's code cites
(a fresh clone carries the code, not the catalogs; the code cites every catalog rule it implements)."""
from __future__ import annotations

import re
from pathlib import Path

from envs.paths import PROJECT_ROOT

CATALOG_DIR = PROJECT_ROOT.parent / "shared" / "rules"
CODE_DIRS = (PROJECT_ROOT / "envs", PROJECT_ROOT / "agents")
ID_IN_CODE = re.compile(r"\b([A-Z]{2,3}(?:-[A-Z0-9]+)*-\d+)\b")
ID_IN_CATALOG = re.compile(r"\*\*([A-Z]{2,3}(?:-[A-Z0-9]+)+)\*\*")   # as shared/tools/rule_coverage.py reads them


def catalog_rules(prefixes: tuple[str, ...], folder: Path = CATALOG_DIR) -> list[str]:
    """Every rule ID with one of `prefixes` defined in the catalogs of `folder`, in catalog order; [] if none is there."""
    seen: dict[str, None] = {}
    for path in sorted(folder.glob("*.md")) if folder.is_dir() else []:
        for match in ID_IN_CATALOG.finditer(path.read_text(encoding="utf-8")):
            if match.group(1).startswith(prefixes):
                seen.setdefault(match.group(1), None)
    return list(seen)


def cited_rules(prefixes: tuple[str, ...], folders=CODE_DIRS) -> list[str]:
    """Every rule ID with one of `prefixes` that the code in `folders` cites, sorted by prefix then number."""
    found = {m.group(1) for folder in folders for path in Path(folder).rglob("*.py")
             for m in ID_IN_CODE.finditer(path.read_text(encoding="utf-8")) if m.group(1).startswith(prefixes)}
    return sorted(found, key=lambda r: (r.rsplit("-", 1)[0], int(r.rsplit("-", 1)[1])))


def ruleset_rules(prefixes: tuple[str, ...]) -> tuple[list[str], str]:
    """(rule IDs, where they come from): the catalogs if they are beside the project, else the code's citations."""
    catalog = catalog_rules(prefixes)
    return (catalog, "catalog") if catalog else (cited_rules(prefixes), "code")


def never_fired(catalog: list[str], fired) -> list[str]:
    """The catalog rules that no event cited."""
    fired = set(fired)
    return [rule for rule in catalog if rule not in fired]


def naming_rules(key: str, prefixes: tuple[str, ...], folder: Path = CATALOG_DIR) -> list[str]:
    """The catalog rules (IDs with `prefixes`) that name the rule option `key`, in catalog order; [] without the
    catalogs. A rule names it when its text has `key` in backticks, or the word itself: anywhere for a compound name
    (`pinned_out`), in the rule's title (before its first colon: "Night toggle") for a plain word such as `night`."""
    word = re.compile(rf"(?<![\w.]){re.escape(key)}(?![\w])", re.IGNORECASE)
    quoted = f"`{key}`"
    found: dict[str, None] = {}
    for path in sorted(folder.glob("*.md")) if folder.is_dir() else []:
        for line in path.read_text(encoding="utf-8").splitlines():
            match = ID_IN_CATALOG.search(line)
            if not (match and match.group(1).startswith(prefixes)):
                continue
            text = line[match.end():]
            title = re.split(r"[:.]", text.lstrip(" *:—-"), maxsplit=1)[0][:TITLE_CHARS]
            if quoted in text or word.search(text if "_" in key else title):
                found.setdefault(match.group(1), None)
    return list(found)


TITLE_CHARS = 40   # a rule's title: "Night toggle" of "— Night toggle: time = night", at most this long
