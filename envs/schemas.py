"""Write each ruleset's scenario JSON Schema into configs/RULESET/scenario.schema.json: `python -m envs.schemas`.

Every scenario file's first line names its schema for the YAML language server (editors such as VS Code with the
YAML extension): `# yaml-language-server: $schema=../scenario.schema.json`. A test keeps the files current.
"""
from __future__ import annotations

from pathlib import Path

from envs.cityfight import schema as cityfight
from envs.engine.schema import write_schema
from envs.k47 import schema as k47
from envs.paths import PROJECT_ROOT
from envs.rifles import schema as rifles
from envs.urbanwar import schema as urbanwar

#: configs/ folder -> (the scenario Struct, or a BasedOn pair where a scenario may build on another; the title)
SCHEMAS = {
    "rifles": (rifles.Scenario, "Rubble: a Rifles scenario (rifles-urban, rifles-darkness)"),
    "cityfight": (cityfight.Scenario, "Rubble: a Cityfight scenario"),
    "urbanwar": (urbanwar.Scenario, "Rubble: an Urban War scenario"),
    "k47": (k47.SCENARIO, "Rubble: a Konflikt '47 scenario (whole, or based_on another)"),
}
#: table files with a schema: configs/ path of the schema -> (the Struct, the title, the table files it describes)
TABLE_SCHEMAS = {
    "rifles/tables.schema.json": (rifles.Tables, "Rubble: Rifles tables", ("rifles/tables/standard.yaml",)),
    "rifles/darkness_tables.schema.json": (rifles.DarknessTables, "Rubble: Rifles in the Darkness tables",
                                           ("rifles/tables/darkness.yaml",)),
    "cityfight/tables.schema.json": (cityfight.Tables, "Rubble: Cityfight tables", ("cityfight/tables/standard.yaml",)),
    "urbanwar/tables.schema.json": (urbanwar.Tables, "Rubble: Urban War tables", ("urbanwar/tables/standard.yaml",)),
    "k47/tables.schema.json": (k47.Tables, "Rubble: Konflikt '47 tables", ("k47/tables/k47.yaml",)),
}


def schema_path(folder: str, root: Path = PROJECT_ROOT / "configs") -> Path:
    return root / folder / "scenario.schema.json"


def main() -> None:
    written = [write_schema(spec, title, schema_path(folder)) for folder, (spec, title) in SCHEMAS.items()]
    written += [write_schema(spec, title, PROJECT_ROOT / "configs" / path) for path, (spec, title, _) in TABLE_SCHEMAS.items()]
    for path in written:
        print(f"written: {path.relative_to(PROJECT_ROOT)}")


if __name__ == "__main__":
    main()
