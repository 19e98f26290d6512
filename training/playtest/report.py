"""The playtest report in results/<env>/playtests/<name>/: report.md, a self-contained report.html with its pictures,
games.csv (one row per game) and playtest.yaml (the playtest as run, to run it again)."""
from __future__ import annotations

import csv
from dataclasses import dataclass
from pathlib import Path

import yaml

from training.measure.document import Heading, Paragraph, Picture, Table, to_html, to_markdown
from training.measure.paired import format_difference, holm_words
from training.measure.series import format_share

from . import plots
from .spec import shown_path
from .summary import report_verdicts

RESULT = {1: "win", 0: "draw", -1: "loss"}
PAIRING_WORDS = {
    "decision": "each decision (the k-th decision of a side in a turn) reads its own stream, so a variant's extra or "
                "missing roll shifts the dice of that decision only.",
    "phase": "each phase (a side's decisions in a turn) reads its own stream, so a variant's extra or missing roll "
             "shifts the dice of that phase only.",
    "game": "one stream per game, common until the variants' rules ask for different rolls.",
}


class ReportExistsError(FileExistsError):
    """The report folder already holds a report; --force replaces it."""


@dataclass(frozen=True)
class Context:
    """What the report says about how it was made."""

    playtest: object          # playtest_spec.Playtest
    sides: tuple[str, ...]
    focus: int                # the side whose win rate is compared
    seeds: range
    backend: str
    command: str
    seconds: float
    interrupted: bool
    catalog: list[str]
    board: object = None      # the baseline scenario's board picture (H, W, 3), None without a geometry
    box: object = None        # cell -> pixel box on `board`
    catalog_source: str = "catalog"   # "catalog" (shared/rules beside the project) or "code" (the IDs the code cites)
    added: str = ""           # what --trained auto added, in words ('' if nothing)
    ruleset: str = ""         # the ruleset's name, for 'not measured' notes


def prepare_folder(folder: Path, force: bool, report: str = "report.md") -> None:
    """Create the report folder; refuse to replace an existing report unless `force`."""
    if (folder / report).exists() and not force:
        raise ReportExistsError(f"{folder} already holds {report}; pass --force to replace it, or --name to write another")
    folder.mkdir(parents=True, exist_ok=True)


def _pct(x: float) -> str:
    return f"{100 * x:.1f} %"


def agent_name(agent: str) -> str:
    """An agent as the report names it: a model file by its path in the repo."""
    return shown_path(agent) if agent.endswith(".zip") else agent


def _agents(ctx: Context, agents) -> str:
    return ", ".join(f"{side}: {agent_name(a)}" for side, a in zip(ctx.sides, agents))


def results_table(ctx: Context, table) -> Table:
    rows = []
    for v in table.variants:
        turns, decisions = v.mean_sd("turns"), v.mean_sd("decisions")
        settings = ", ".join(f"{k}={val}" for k, val in v.settings.items()) or "(scenario as committed)"
        rows.append((v.name, settings, format_share(v.tally, "wins"), format_share(v.tally, "draws"),
                     f"{turns[0]:.2f} (sd {turns[1]:.2f})", f"{decisions[0]:.1f} (sd {decisions[1]:.1f})"))
    side = ctx.sides[ctx.focus]
    return Table(("variant", "settings", f"{side} wins (95 % CI)", "draws", "turns", "decisions"), tuple(rows))


def comparison_blocks(table, verdicts=None, m: int = 1) -> list:
    """Each comparison's difference; `verdicts`: Holm's over the report's `m` comparisons (default: each alone)."""
    base = table.variants[0].name
    verdicts = verdicts or [None] * len(table.comparisons)
    rows = tuple((f"{table.variants[c.variant].name} vs {base}", format_difference(c.difference, v, m))
                 for c, v in zip(table.comparisons, verdicts))
    return [Table(("comparison", "difference of win rates"), rows)]


UNTRAINED = ("scripted", "random", "person")


def _named_strength(ruleset: str, side: str, agent: str) -> str:
    """' (named `strongest`: 93.4 % [90.9, 95.3] vs scripted, ...)' when `agent` is a named agent's file."""
    from agents import named

    for name, entry in ((n, a.sides.get(side)) for n, a in named.load().get(ruleset, {}).items()):
        if entry is not None and shown_path(entry.file) == agent_name(agent):
            return f" (named `{name}` in results/agents.yaml: {entry.strength()})"
    return ""


def agents_words(ctx: Context, agents) -> str:
    """What a table measures, given who played it: scripted agents measure those agents, not the rules at their best."""
    trained = [a not in UNTRAINED and not a.startswith("distilled:") for a in agents]
    named = _agents(ctx, agents)
    if not any(trained):
        return (f"Played by {named}. These figures measure how these agents fare under each variant: the balance between "
                "these scripts, not between strong players. For balance under stronger play, add `--agents trained`.")
    if all(trained):
        strength = "; ".join(f"{side}{_named_strength(ctx.ruleset, side, a)}" for side, a in zip(ctx.sides, agents)
                             if _named_strength(ctx.ruleset, side, a))
        return (f"Both sides trained ({named}): balance under stronger play than the scripts', as strong as these "
                "agents are." + (f" Strength: {strength}." if strength else ""))
    return (f"Played by {named}: a trained agent against scripted ones; the figures measure this pairing, not the "
            "rules at their best.")


def victory_table(table) -> Table:
    conditions = sorted({c for v in table.variants for c in v.victory})
    rows = tuple((c, *(f"{v.victory[c]} ({_pct(v.victory[c] / v.games)})" for v in table.variants)) for c in conditions)
    return Table(("how the game ended", *(v.name for v in table.variants)), rows)


def _not_measured(ctx: Context) -> Paragraph:
    return Paragraph(f"Casualties: not measured. {ctx.ruleset or 'This ruleset'} does not declare where its units are "
                     "(the ruleset contract's `live_units`), so units lost, by type, turn and place, are unknown (not zero).")


def casualty_table(ctx: Context, table) -> Table:
    kinds = sorted({k for v in table.variants for k in v.casualties_by_type})
    rows = tuple((ctx.sides[s], unit, *(f"{v.casualties_by_type[(s, unit)] / v.games:.2f}" for v in table.variants))
                 for s, unit in kinds)
    return Table(("side", "unit type", *(f"{v.name}: lost per game" for v in table.variants)), rows)


def turn_table(ctx: Context, table) -> Table:
    turns = sorted({t for v in table.variants for _, t in v.casualties_by_turn})
    rows = tuple((ctx.sides[s], v.name, *(f"{v.casualties_by_turn[(s, t)] / v.games:.2f}" for t in turns))
                 for s in range(len(ctx.sides)) for v in table.variants)
    return Table(("side", "variant", *(f"turn {t}" for t in turns)), rows)


def rules_table(ctx: Context, table) -> Table:
    fired = sorted({r for v in table.variants for r in v.rule_firings}, key=_catalog_order(ctx.catalog))
    rows = tuple((r, *(f"{_pct(v.rule_games[r] / v.games)} / {v.rule_firings[r] / v.games:.1f}" for v in table.variants))
                 for r in fired)
    return Table(("rule", *(f"{v.name}: games / firings per game" for v in table.variants)), rows)


def _catalog_order(catalog: list[str]):
    rank = {r: i for i, r in enumerate(catalog)}
    return lambda r: (rank.get(r, len(rank)), r)


def never_fired_blocks(ctx: Context, table) -> list:
    if not ctx.catalog:
        return [Paragraph("No rule IDs were found (no catalog beside the project, none cited in the code): "
                          "never-fired rules are not listed.")]
    in_none = [r for r in ctx.catalog if all(r in v.never_fired for v in table.variants)]
    kind = "catalog rules" if ctx.catalog_source == "catalog" else "rules the code cites (no catalog beside the project)"
    blocks = [Paragraph(f"{len(in_none)} of the {len(ctx.catalog)} {kind} with prefix "
                        f"{'/'.join(sorted({r.split('-')[0] + '-' for r in ctx.catalog}))} were cited by no event in any "
                        f"variant's {table.variants[0].games} games (rules that act without an event of their own, such as "
                        f"dice conventions and table values, are among them): " + (", ".join(in_none) or "none") + ".")]
    for v in table.variants:
        only = [r for r in v.never_fired if r not in in_none]
        if only:
            blocks.append(Paragraph(f"Never fired in {v.name} only: {', '.join(only)}."))
    return blocks


def cells_table(ctx: Context, table, label) -> Table:
    rows = []
    for v in table.variants:
        for (side, cell), n in v.cells.most_common(5):
            rows.append((v.name, ctx.sides[side], label(cell), f"{n / v.games:.2f}"))
    return Table(("variant", "side", "where", "units lost per game"), tuple(rows))


def table_blocks(ctx: Context, number: int, table, label, verdicts=None, m: int = 1) -> list:
    focus = ctx.sides[ctx.focus]
    blocks = [Heading(2, f"Table {number}: {_agents(ctx, table.agents)}"),
              Paragraph(agents_words(ctx, table.agents)),
              results_table(ctx, table),
              Heading(3, f"Paired difference of {focus} win rates (each variant minus {table.variants[0].name})"),
              *comparison_blocks(table, verdicts, m),
              Picture(plots.win_rates(table, focus), f"{focus} win rate per variant (95 % Wilson interval) and the difference "
                      "to the first variant with its paired and unpaired 95 % intervals"),
              Heading(3, "How games ended"), victory_table(table),
              Picture(plots.lengths(table), "game length in turns and in decisions"),
              Heading(3, "Casualties")]
    if not all(v.casualties_measured for v in table.variants):
        blocks.append(_not_measured(ctx))
    else:
        blocks += [casualty_table(ctx, table), turn_table(ctx, table),
                   Picture(plots.casualty_curves(table, ctx.sides), "units lost per game in each turn"),
                   cells_table(ctx, table, label)]
        if ctx.board is not None:
            blocks.append(Picture(plots.heat_map(table, ctx.board, ctx.box, ctx.sides),
                                  "where units were lost, per game, on the board"))
        else:
            blocks.append(Paragraph("Where units were lost is not drawn: the ruleset does not locate its cells on its "
                                    "board picture (the contract's `cell_box`)."))
    blocks += [Heading(3, "Rule firings"), rules_table(ctx, table)]
    if ctx.catalog:
        blocks.append(Picture(plots.rule_firings(table, ctx.catalog), "share of games in which each rule fired"))
    blocks += [Heading(3, "Rules never fired"), *never_fired_blocks(ctx, table)]
    return blocks


def head_blocks(ctx: Context, tables) -> list:
    p = ctx.playtest
    played = tables[0].variants[0].games if tables else 0
    status = (f"Stopped by the user after {played} of {len(ctx.seeds)} seeds: the figures are those of the seeds finished."
              if ctx.interrupted else f"{played} games per variant and table.")
    return [Heading(1, f"Playtest {p.name}: {p.ruleset}"),
            *([Paragraph(p.description)] if p.description else []),
            Paragraph(f"Defined in `{p.source}`; run with `{ctx.command}`. Seeds {ctx.seeds.start}..{ctx.seeds.stop - 1}; "
                      f"{status} Backend {ctx.backend}; {ctx.seconds:.0f} s."),
            Paragraph(f"Paired dice ({p.pairing}): game i of every variant starts from seed i, so the variants roll the "
                      f"same dice (common random numbers) and the agents get the same seeds; {PAIRING_WORDS[p.pairing]} "
                      + ("Checked: every game's rolls were its seed's streams, in order."
                         if all(v.dice_from_seed for t in tables for v in t.variants)
                         else "WARNING: some games did not roll their seed's stream; the pairing is broken.")),
            Paragraph(f"Intervals are 95 %: Wilson for a win rate; for a difference, the paired interval from the per-game "
                      f"differences beside the interval the same games would give if the variants' games were independent."
                      f" Win rates are those of the {ctx.sides[ctx.focus]}. A difference no paired game shows is written "
                      f"'identical in all N games', not as an interval of no width."),
            Paragraph(holm_words(sum(len(t.comparisons) for t in tables))),
            *([Paragraph(ctx.added)] if ctx.added else [])]


def document(ctx: Context, tables, label) -> list:
    blocks = head_blocks(ctx, tables)
    verdicts, m = report_verdicts(tables), sum(len(t.comparisons) for t in tables)
    for number, (table, holm) in enumerate(zip(tables, verdicts), 1):
        blocks += table_blocks(ctx, number, table, label, holm, m)
    return blocks


def write_games_csv(path: Path, ctx: Context, tables) -> None:
    with path.open("w", newline="", encoding="utf-8") as handle:
        out = csv.writer(handle)
        out.writerow(["table", "agents", "variant", "seed", f"{ctx.sides[ctx.focus]}_result", "victory", "turns",
                      "decisions", *(f"{s}_lost" for s in ctx.sides), "rules_fired", "dice_rolls", "dice_from_seed"])
        for number, table in enumerate(tables, 1):
            agents = ";".join(map(agent_name, table.agents))
            for v in table.variants:
                for r in v.records:
                    lost = (["not measured"] * len(ctx.sides) if r.casualties is None else
                            [sum(1 for c in r.casualties if c.side == s) for s in range(len(ctx.sides))])
                    out.writerow([number, agents, v.name, r.seed, RESULT[int(r.returns[ctx.focus] > 0) - int(r.returns[ctx.focus] < 0)],
                                  r.victory, r.turns, r.decisions, *lost, len(r.rules), len(r.dice), r.dice_from_seed])


def playtest_yaml(ctx: Context, tables) -> str:
    """The playtest as run, in the playtest file format (table 1's agents)."""
    p = ctx.playtest
    data = {"name": p.name, "ruleset": p.ruleset, "games": len(ctx.seeds), "seed": ctx.seeds.start, "pairing": p.pairing,
            "agents": [agent_name(a) for a in tables[0].agents],
            "variants": {v.name: {**({"scenario": v.scenario} if v.scenario else {}), **v.settings()} for v in p.variants}}
    return yaml.safe_dump(data, sort_keys=False)


def write_report(folder: Path, ctx: Context, tables, label) -> str:
    """Write the four files; returns the Markdown report."""
    blocks = document(ctx, tables, label)
    markdown = to_markdown(blocks)
    (folder / "report.md").write_text(markdown, encoding="utf-8")
    (folder / "report.html").write_text(to_html(blocks, f"Playtest {ctx.playtest.name}"), encoding="utf-8")
    write_games_csv(folder / "games.csv", ctx, tables)
    (folder / "playtest.yaml").write_text(playtest_yaml(ctx, tables), encoding="utf-8")
    return markdown
