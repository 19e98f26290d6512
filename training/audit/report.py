"""The audit's report: `report.md`, `ablations.png` (paired differences with intervals) and a self-contained
`report.html` (the picture embedded), written to a new folder; an existing one is replaced only with `force`."""
from __future__ import annotations

import shutil
from pathlib import Path

from agents.priority import Ablation
from training.measure.document import from_markdown, to_html
from training.measure.paired import holm_significant, holm_words

from .ablation import AblationResult, Audit, verdict_words

VERDICT_COLOURS = {"carries the list": "#2b7bba", "no measurable effect": "#9a9a9a", "hurts the list": "#d0412b"}


def verdicts(audit: Audit) -> dict[int, str]:
    """Each change's verdict (by id of its result), significance decided by Holm's procedure over every change the
    report compares with the list as written (ablations and, with a trained agent, its adopted answers)."""
    changed = [r for r in audit.results[1:] if r.change is not None]
    return {id(r): verdict_words(r.change, holm) for r, holm in zip(changed, holm_significant([r.change for r in changed]))}


def _kind(verdict: str) -> str:
    """The verdict without its interval: the colour key."""
    return verdict.split(" (")[0]


def _pct(x: float) -> str:
    return f"{100 * x:.1f}"


def _interval(lo: float, hi: float) -> str:
    return f"[{_pct(lo)}, {_pct(hi)}]"


def _change(p) -> str:
    """A paired difference in points with its interval; 'identical in all N games' when no game differs."""
    if p.identical:
        return f"identical in all {p.n:,} games"
    return f"{'+' if p.diff >= 0 else ''}{_pct(p.diff)} {_interval(*p.paired)}"


def _row(result: AblationResult, verdict: str | None = None) -> str:
    win = f"{_pct(result.win_rate)} % {_interval(*result.win_interval())}"
    if result.change is None:
        return f"| {result.label} | {win} | | | {result.verdict} |"
    p = result.change
    unpaired = "" if p.identical else _interval(*p.unpaired)
    return f"| {result.label} | {win} | {_change(p)} | {unpaired} | {verdict or result.verdict} |"


def _list_section(audit: Audit) -> list[str]:
    lines = ["## The list as audited", ""]
    for rule in audit.rules:
        lines.append(f"- **{rule}** {audit.rule_words[rule]}; decided {audit.decided[rule]:,} times in "
                     f"{min(len(audit.setup.seeds), 200)} sample games")
    return lines + [""]


def ablation_results(audit: Audit) -> list[AblationResult]:
    return sorted((r for r in audit.results[1:] if isinstance(r.ablation, Ablation)), key=lambda r: r.change.diff)


def _departure_section(audit: Audit) -> list[str]:
    count = audit.departures
    adopted = {r.ablation.rule: r for r in audit.results[1:] if not isinstance(r.ablation, Ablation)}
    model = next(iter(adopted.values())).ablation.model if adopted else "the trained agent"
    lines = ["## Where the trained agent departs from the list", "",
             f"The trained agent (`{model}`) played the {audit.side_name} over the same seeds; at each of its decisions "
             "the list was asked the same question. 'Taking its answers' plays the list as written but hands that "
             "rule's decisions (only those) to the trained agent, paired against the list as written.", "",
             "| rule | decisions | departures | the list taking its answers there: win rate % | paired difference |",
             "| --- | ---: | ---: | --- | --- |"]
    for rule in audit.rules:
        decided, departed = count.decided[rule], count.departed[rule]
        if not decided:
            continue
        row = adopted.get(rule)
        value = ("| |" if row is None else f"| {_pct(row.win_rate)} % {_interval(*row.win_interval())} | "
                 f"{_change(row.change)} |")
        lines.append(f"| {rule} | {decided:,} | {departed:,} ({_pct(departed / decided)} %) {value}")
    lines.append("")
    for i, example in enumerate(count.shown()):
        lines += [f"**Example {i + 1}** ({example.rule}, game seed {example.seed:,}): the list says *{example.listed}*; "
                  f"the trained agent chose *{example.trained}*.", "", f"![example {i + 1}](departure-{i + 1}.png)", ""]
    return lines


def markdown(audit: Audit, command: str, picture: str | None = "ablations.png") -> str:
    setup, base = audit.setup, audit.baseline
    n = len(setup.seeds)
    results = ablation_results(audit)
    verdict = verdicts(audit)
    never = [rule for rule in audit.rules if not audit.decided[rule]]
    paired_sq = sum((r.change.paired[1] - r.change.paired[0]) ** 2 for r in results)
    unpaired_sq = sum((r.change.unpaired[1] - r.change.unpaired[0]) ** 2 for r in results)
    ratio = unpaired_sq / paired_sq if paired_sq else float("inf")
    lines = [
        f"# Audit of {setup.ruleset}'s {audit.side_name}: {setup.audited} ({audit.agent})",
        "",
        f"Against: `{setup.against}` on every other side. Scenario: {setup.scenario or 'the default'}. "
        f"{n:,} games per series, seeds {setup.seeds[0]:,}..{setup.seeds[-1]:,}; every series plays the same seeds "
        "(paired: the same dice at the start of every game). Intervals are 95 %: Wilson for win rates, normal on "
        "the per-game differences for the paired column. Reproduce with:",
        "",
        f"    {command}",
        "",
        f"The list as written wins **{_pct(base.win_rate)} %** {_interval(*base.win_interval())}.",
        "",
    ]
    if picture:
        lines += [f"![paired differences]({picture})", ""]
    lines += [
        "| change to the list | win rate % | paired difference (points) | unpaired interval | verdict |",
        "| --- | --- | --- | --- | --- |",
        _row(base), *(_row(r, verdict[id(r)]) for r in results), "",
        "A change has 'no measurable effect' when these games cannot tell it from none; the ± is half its paired "
        "interval: an effect that large could still hide in it. " + holm_words(len(verdict)),
        "",
        (f"What pairing buys: over all rows, the unpaired intervals' squared widths sum to {ratio:.1f}× the paired "
         "ones, so unpaired series would need about that many times more games for the same certainty."
         if paired_sq else "What pairing buys: no change altered any paired game, so there is no interval to compare."),
        "",
    ]
    if never:
        lines += [f"Never decided in the sample games (so not played): {', '.join(never)}.", ""]
    if audit.departures is not None:
        lines += _departure_section(audit)
    return "\n".join(lines + _list_section(audit))


def bar_chart(audit: Audit, path: Path) -> None:
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    results = ablation_results(audit)
    verdict = verdicts(audit)
    fig, ax = plt.subplots(figsize=(10, 0.36 * len(results) + 1.8))
    for y, r in enumerate(results):
        lo, hi = r.change.paired
        ax.barh(y, 100 * r.change.diff, color=VERDICT_COLOURS[_kind(verdict[id(r)])])
        ax.errorbar(100 * r.change.diff, y, xerr=[[100 * (r.change.diff - lo)], [100 * (hi - r.change.diff)]],
                    color="black", capsize=3, lw=1)
    ax.set_yticks(range(len(results)), [r.label for r in results], fontsize=8)
    ax.axvline(0, color="black", lw=0.8)
    ax.set_xlabel(f"change in the {audit.side_name}'s win rate, points (paired 95 % interval)\n"
                  f"colour: the verdict, Holm's procedure over the {len(verdicts(audit))} changes", fontsize=9)
    ax.set_title(f"{audit.setup.ruleset}: the scripted {audit.side_name}'s priority list, one change at a time\n"
                 f"as written it wins {_pct(audit.baseline.win_rate)} % against {audit.setup.against}; "
                 f"{len(audit.setup.seeds):,} paired games per change", fontsize=10)
    handles = [plt.Rectangle((0, 0), 1, 1, color=c) for c in VERDICT_COLOURS.values()]
    ax.legend(handles, VERDICT_COLOURS.keys(), loc="lower right", fontsize=8)
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)


def example_pictures(audit: Audit, folder: Path) -> None:
    """Each departure example: the board as the audited side saw it, titled with the two answers."""
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    for i, example in enumerate(audit.departures.shown() if audit.departures else ()):
        image = example.state.render_rgb(side=audit.setup.side)
        fig, ax = plt.subplots(figsize=(image.shape[1] / 100, image.shape[0] / 100 + 0.6), dpi=100)
        ax.imshow(image)
        ax.axis("off")
        ax.set_title(f"{example.rule}, seed {example.seed:,} — the list: {example.listed}\n"
                     f"the trained agent: {example.trained}", fontsize=9)
        fig.tight_layout()
        fig.savefig(folder / f"departure-{i + 1}.png")
        plt.close(fig)


def html_page(markdown_text: str, pictures: dict[str, bytes]) -> str:
    """Self-contained: the report's Markdown rendered as the playtest report is (training/measure/document.py:
    headings, tables, lists, pictures inlined where named), titled by its first heading."""
    blocks = from_markdown(markdown_text, pictures)
    title = next((line.lstrip("# ") for line in markdown_text.splitlines() if line.startswith("# ")), "Rubble report")
    return to_html(blocks, title)


def write(audit: Audit, out_dir: Path, command: str, force: bool = False) -> Path:
    """Write the report into `out_dir` (a new folder; an existing one only with `force`), built beside it first."""
    out_dir = Path(out_dir)
    if out_dir.exists() and any(out_dir.iterdir()) and not force:
        raise FileExistsError(f"{out_dir} exists: pass --force to replace it, or --out for another folder")
    tmp = out_dir.with_name(f".{out_dir.name}.tmp")
    shutil.rmtree(tmp, ignore_errors=True)
    tmp.mkdir(parents=True)
    text = markdown(audit, command)
    (tmp / "report.md").write_text(text)
    bar_chart(audit, tmp / "ablations.png")
    example_pictures(audit, tmp)
    pictures = {p.name: p.read_bytes() for p in tmp.glob("*.png")}
    (tmp / "report.html").write_text(html_page(text, pictures))
    if out_dir.exists():
        shutil.rmtree(out_dir)
    tmp.rename(out_dir)
    return out_dir
