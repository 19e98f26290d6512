"""The rules catalogs (shared/rules/*.md beside the project): which rule IDs a ruleset's catalog defines, so that a
playtest can list the rules no event cited in its games."""
from __future__ import annotations

import re
from pathlib import Path

from envs.paths import PROJECT_ROOT

CATALOG_DIR = PROJECT_ROOT.parent / "shared" / "rules"
ID_IN_CATALOG = re.compile(r"\*\*([A-Z]{2,3}(?:-[A-Z0-9]+)+)\*\*")   # as shared/tools/rule_coverage.py reads them


def catalog_rules(prefixes: tuple[str, ...], folder: Path = CATALOG_DIR) -> list[str]:
    """Every rule ID with one of `prefixes` defined in the catalogs of `folder`, in catalog order; [] if none is there."""
    seen: dict[str, None] = {}
    for path in sorted(folder.glob("*.md")) if folder.is_dir() else []:
        for match in ID_IN_CATALOG.finditer(path.read_text(encoding="utf-8")):
            if match.group(1).startswith(prefixes):
                seen.setdefault(match.group(1), None)
    return list(seen)


def never_fired(catalog: list[str], fired) -> list[str]:
    """The catalog rules that no event cited."""
    fired = set(fired)
    return [rule for rule in catalog if rule not in fired]
