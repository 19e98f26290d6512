"""The generated pages of the documentation site: one per environment, and the named agents, written from what the
rulesets declare through envs.registry (sides, actions, observation and its layout, scenarios, rule options), the rule
IDs the code cites, the scripted agents, results/agents.yaml and the committed replays. The site's hook
(docs/hooks.py) builds them on every `mkdocs build`; nothing generated is committed except the GIFs.

    python -m docs.gen --out DIR     write the generated pages to DIR, to read them without building the site
    python -m docs.gen --gifs        write docs/assets/games/ENV.gif from each committed replay (`rubble replay --gif`)
"""
from __future__ import annotations

import argparse
import ast
import importlib
import subprocess
import sys
from pathlib import Path

import envs  # noqa: F401 - registers every ruleset
from agents import named
from envs import registry
from envs.paths import PROJECT_ROOT

DOCS = Path(__file__).resolve().parent
GIF_DIR = DOCS / "assets" / "games"
#: each environment in a sentence (the README's table says the same)
GAMES = {
    "rifles-urban": "The Rifles solo system with its Urban Warfare module: a player squad against the solo enemy "
                    "automaton, on a map of six Stripes (Block Six).",
    "rifles-darkness": "The Rifles solo system with its Rifles in the Darkness module: the same squad at night, the "
                       "enemy's groups unseen beyond one Stripe (Night Crossing).",
    "cityfight": "Cityfight 2024: two sides, hidden units found by search, overwatch, HE and smoke (The Office Block).",
    "k47": "Konflikt '47 (the Bolt Action order-dice engine) with its buildings chapter: floors, openings, HE and "
           "flamethrowers against buildings, bunkers, tanks ramming (Village crossroads).",
    "urbanwar": "Urban War 2nd edition quick-start: d10 tests, face-down Overwatch/Snap-fire orders, interrupts, "
                "follow-ups, panic (Block 7).",
}


def package(name: str) -> str:
    """The ruleset's package under envs/ ('rifles' for both Rifles environments)."""
    return registry.entry(name).entry_point.split(":")[0].split(".")[1]


def first_paragraph(module: str) -> str:
    """The first paragraph of a module's docstring, read from its source (the module is not imported)."""
    path = PROJECT_ROOT / (module.replace(".", "/") + ".py")
    doc = ast.get_docstring(ast.parse(path.read_text(encoding="utf-8"))) or ""
    return " ".join(doc.split("\n\n")[0].split())


def replay_of(name: str) -> Path | None:
    """The committed example replay of the environment, if any."""
    found = sorted((PROJECT_ROOT / "results" / name / "replays").glob("*.rubble.json"))
    return found[0] if found else None


def rule_ids(rs) -> list[str]:
    """Every rule ID with the ruleset's prefixes that the code (envs/, agents/) cites."""
    from training.playtest.catalog import cited_rules

    return cited_rules(rs.rule_prefixes)


def settings(rs):
    """The default scenario's rule options and fields, each with its default and the rule ID its file cites."""
    import inspect

    from envs.engine.taskgame import TaskGame
    from training.playtest import scenario as playtest_scenario
    from training.playtest.options import rule_options, scenario_fields

    path = playtest_scenario.base_path(rs, rs.default_scenario)
    game = rs.new_game(scenario=rs.default_scenario, seed=0)
    source = inspect.getsource(type(game).config) if isinstance(game, TaskGame) else ""
    return rule_options(dict(game.options), path, source), scenario_fields(path)


def shipped() -> list[str]:
    """The rulesets the project ships (their classes live in envs/), not toys a test or a user registered."""
    return [name for name in registry.names() if type(registry.get(name)).__module__.startswith("envs.")]


def link(path: str, depth: int = 1) -> str:
    """A link from a page `depth` folders below the site root to a repo file the site mounts (docs/hooks.py)."""
    return "../" * depth + path


def env_page(name: str) -> str:
    """The page of one environment."""
    rs = registry.get(name)
    pkg = package(name)
    layout = rs.observation_layout()
    reactions = ", ".join(f"`{getattr(k, 'value', k)}`" for k in rs.reaction_kinds) or "none"
    out = [f"# {name}", "", GAMES.get(name, ""), ""]
    out += [f"![{name}: a position after 20 decisions of the scripted agents]({link(f'results/play/{name}.png')})", ""]
    if (GIF_DIR / f"{name}.gif").is_file():
        replay = replay_of(name)
        out += [f"![{name}: a whole game, animated](../assets/games/{name}.gif)", "",
                f"*A game from the committed replay [`{replay.name}`]({link(str(replay.relative_to(PROJECT_ROOT)))})"
                f" ([viewer page]({link(str(replay.relative_to(PROJECT_ROOT)).replace('.rubble.json', '.html'))})), "
                f"animated with `rubble replay FILE --gif OUT.gif`.*", ""]
    out += ["## At a glance", "", "| | |", "| --- | --- |",
            f"| CLI name | `{name}` |", f"| Gymnasium id | `{rs.gym_id}` |",
            f"| PettingZoo | `from envs.pettingzoo import {name.replace('-', '_')}_v0` |",
            f"| sides | {', '.join(f'`{s}`' for s in rs.sides)} (the learner's default: `{rs.sides[rs.default_learner_side]}`) |",
            f"| actions | `Discrete({rs.num_actions})`, one flat space; a legal-action mask every decision |",
            f"| observation | `Box({rs.observation_size},)` float32, each feature's true bounds |",
            f"| reactions (decisions of the side not moving) | {reactions} |",
            f"| rule prefixes | {', '.join(f'`{p}`' for p in rs.rule_prefixes)} |",
            f"| manual | [`envs/{pkg}/README.md`]({link(f'envs/{pkg}/README.md')}) |", ""]
    out += ["## Observation layout", "",
            "Declared by `Ruleset.observation_layout()`, so any library can reshape the same flat vector "
            "(`policy.extractor: grid` reads the planes with convolutions).", ""]
    planes = layout.planes
    if planes is not None:
        names = ", ".join(f"`{n}`" for n in planes.names)
        out += [f"- **board planes**: {planes.channels} channels x {planes.height} x {planes.width}, from offset "
                f"{planes.offset}, strides {planes.steps()}: {names}"]
    out += [f"- **vector part**: {layout.vector or 'none'} ({len(layout.vector_indices())} features)", ""]
    out += ["## Scenarios", "", "| scenario | file | |", "| --- | --- | --- |"]
    for scen, path in sorted(rs.scenarios().items()):
        rel = str(Path(path).resolve().relative_to(PROJECT_ROOT))
        out.append(f"| `{scen}` | [`{rel}`]({link(rel)}) | {'default' if scen == rs.default_scenario else ''} |")
    options, fields = settings(rs)
    out += ["", f"Rule options and scenario fields of `{rs.default_scenario}` (what a playtest may vary: "
            f"`rubble playtest {name} --list-options`):", "", "| setting | kind | default | rule |", "| --- | --- | --- | --- |"]
    out += [f"| `{s.key}` | {s.kind} | `{s.default}` | {s.rule} |" for s in [*options, *fields]]
    ids = rule_ids(rs)
    groups: dict[str, list[str]] = {}
    for rule in ids:
        groups.setdefault(rule.rsplit("-", 1)[0], []).append(rule)
    out += ["", "## Rules", "",
            f"The code cites {len(ids)} rule IDs of this ruleset (every event names the rule that produced it; the "
            "rule catalogs themselves are kept beside the project, not in it). By section:", "",
            "| section | rules cited |", "| --- | --- |"]
    out += [f"| `{group}` | {', '.join(r.rsplit('-', 1)[1] for r in rules)} |" for group, rules in sorted(groups.items())]
    scripted = next(p for p in registry.entry(name).agent_providers if p.startswith("agents.scripted"))
    out += ["", "## Agents", "", "| agent | what it is |", "| --- | --- |",
            "| `random` | uniform over the legal actions |",
            f"| `scripted` | {first_paragraph(scripted)} (`{scripted.replace('.', '/')}.py`) |"]
    agents = named.load().get(name, {})
    for agent_name, agent in agents.items():
        for side, entry in agent.sides.items():
            out.append(f"| `{agent_name}` ({side}) | `{entry.path}`: {entry.strength()}; "
                       f"{entry.trained} ([source]({link(entry.source)})) |")
    out += ["", f"Play against the strongest: `rubble play {name} --enemy strongest`. Every agent above plays "
            f"wherever an agent is taken (`--player`, `--enemy`, `--agents`, `opponent=`): see "
            f"[Named agents](../agents.md)."]
    if (PROJECT_ROOT / "results" / name / "README.md").is_file():
        out += ["", f"Training attempts, measurements and their commands: [`results/{name}/README.md`]"
                f"({link(f'results/{name}/README.md')})."]
    if (PROJECT_ROOT / "results" / name / "league" / "README.md").is_file():
        out += [f"Leagues and exploitability: [`results/{name}/league/README.md`]({link(f'results/{name}/league/README.md')})."]
    return "\n".join(out) + "\n"


def agents_page() -> str:
    """The page of the named agents, from results/agents.yaml."""
    out = ["# Named agents", "",
           "The trained agents that ship, by name: `results/agents.yaml` lists, for each ruleset and side, the agent "
           "file, how it was trained and its measured win rate against the scripted opponent (95 % Wilson interval, "
           "held-out seeds never used while training), copied from the report named as its source. `rubble list` "
           "prints them; a name plays wherever an agent is taken:", "",
           "```sh", "rubble play rifles-urban --enemy strongest", "rubble simulate k47 --games 100 --player strongest --enemy league",
           "```", "", "```python", "import gymnasium", "import envs",
           "env = gymnasium.make(\"rubble/RiflesUrban-v0\", opponent=\"strongest\")", "```", "",
           "- **strongest**: the side's agent with the highest measured win rate against the scripted opponent;",
           "- **league**: the side's agent from a league (`rubble league`); for the sides that best responses measured, "
           "the one that concedes least to them (see [Leagues and exploitability](guides/leagues.md)).", "",
           "A name refuses a side it does not list, in one line (`agent 'league' of cityfight plays defender, not the "
           "attacker`). The file is checked on load (its size, every field's type and range, an interval that holds "
           "its win rate, one seed per game); a bad one fails in one line naming the file and the field.", ""]
    for rs_name, agents in named.load().items():
        out += [f"## {rs_name}", "", "| name | side | agent | vs scripted opponent | how it was trained |",
                "| --- | --- | --- | --- | --- |"]
        for agent_name, agent in agents.items():
            for side, entry in agent.sides.items():
                note = f" {entry.note}." if entry.note else ""
                out.append(f"| `{agent_name}` | {side} | `{entry.path}` | {entry.strength()} "
                           f"([source]({link(entry.source, 0)})) | {entry.trained}.{note} |")
        out.append("")
    return "\n".join(out)


def pages() -> dict[str, str]:
    """Every generated page: its path under docs/ -> its Markdown."""
    found = {f"environments/{name}.md": env_page(name) for name in shipped()}
    found["agents.md"] = agents_page()
    return found


def write_gifs(names: list[str]) -> None:
    """docs/assets/games/ENV.gif from each environment's committed replay, through `rubble replay --gif`."""
    GIF_DIR.mkdir(parents=True, exist_ok=True)
    for name in names:
        replay = replay_of(name)
        if replay is None:
            print(f"{name}: no committed replay", file=sys.stderr)
            continue
        subprocess.run([sys.executable, "-m", "training.cli", "replay", str(replay), "--gif", str(GIF_DIR / f"{name}.gif"),
                        "--scale", "0.5" if name in ("cityfight", "urbanwar") else "1"], check=True, cwd=PROJECT_ROOT)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m docs.gen", description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", type=Path, help="write the generated pages under this folder")
    parser.add_argument("--gifs", nargs="*", metavar="ENV", help="write the GIFs (of these environments; default all)")
    args = parser.parse_args(argv)
    if args.gifs is not None:
        write_gifs(args.gifs or shipped())
    if args.out:
        for path, text in pages().items():
            (args.out / path).parent.mkdir(parents=True, exist_ok=True)
            (args.out / path).write_text(text, encoding="utf-8")
        print(f"wrote {len(pages())} pages under {args.out}")
    return 0


if __name__ == "__main__":
    importlib.invalidate_caches()
    sys.exit(main())
