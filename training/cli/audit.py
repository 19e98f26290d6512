"""The verbs of the solo enemy's priority list: `rubble audit` and `rubble distill`."""
from __future__ import annotations

from pathlib import Path

from training import lookup
from training.folders import output
from training.lookup import CommandError

from . import arguments as arg
from .arguments import shown_path


def cmd_audit(args) -> int:
    from training.audit.ablation import AuditSetup, run_audit
    from training.audit.report import write
    from training.measure.series import seeds_from

    rs = lookup.ruleset(args.env)
    side = lookup.side(rs, args.side or rs.sides[-1])
    lookup.agent(rs, args.against)
    setup = AuditSetup(rs.name, lookup.scenario(rs, args.scenario), side, args.against,
                       tuple(seeds_from(args.seed, args.games)), args.audited)
    listed = "scripted" if args.audited == "scripted" else "distilled"
    out = output.choose(args.out or args.results / rs.name / "audit" / f"{listed}-{rs.sides[side]}-vs-{args.against}",
                        args.force, "audit", shown_path)
    if args.trained:
        lookup.agent(rs, args.trained)     # a missing or unfit model fails here, in one line
    audit = run_audit(setup, args.jobs, not args.quiet, args.trained)
    command = (f"rubble audit {rs.name} --side {rs.sides[side]} --audited {args.audited} --against {args.against} "
               f"--games {args.games} "
               f"--seed {args.seed}" + (f" --scenario {args.scenario}" if args.scenario else "")
               + (f" --trained {args.trained}" if args.trained else ""))
    write(audit, out, command, force=args.force)
    print((out / "report.md").read_text())
    print(f"written: {shown_path(out / 'report.md')}, report.html, ablations.png")
    return 0


def cmd_distill(args) -> int:
    from agents import distilled
    from training.audit import distill as d
    from training.audit.report import html_page
    from training.measure.series import seeds_from

    rs = lookup.ruleset(args.env)
    side = lookup.side(rs, args.side or rs.sides[-1])
    side_name = rs.sides[side]
    rifles_enemy = rs.name.startswith("rifles") and side == 1
    if rs.name.startswith("rifles") and not rifles_enemy:
        raise CommandError(f"distill fits the Rifles enemy automaton's list; not {rs.name}'s {side_name}")
    lookup.agent(rs, args.trained)
    default = "distilled" if rifles_enemy else f"distilled-{side_name}"
    out = output.choose(args.out or args.results / rs.name / "audit" / default, args.force, "distilled list", shown_path)
    scenario = lookup.scenario(rs, args.scenario)
    fit_seeds, held_seeds = seeds_from(d.FIT_SEED, args.fit_games), seeds_from(d.HELD_OUT_FIT_SEED, args.held_out_games)
    out.mkdir(parents=True, exist_ok=True)
    list_path = out / f"{side_name}.yaml"
    if rifles_enemy:
        ranked, answers = d.collect(rs.name, scenario, args.trained, fit_seeds)
        rules, fitted_rifles = d.fit(ranked, answers, args.size)
        distilled.write_list(list_path, rs.name, rules, f"fitted to {args.trained}")
        h_ranked, h_answers = d.collect(rs.name, scenario, args.trained, held_seeds)
        held = d.held_out_rifles(h_ranked, h_answers, rules)
        automaton = d.held_out_rifles(ranked, answers, {})
        fitted = {rule: (hit, automaton.get(rule, (0, 0, 0))[1], total)
                  for rule, (hit, total, _) in fitted_rifles.items()}
        rankings, answers_read, _ = distilled.read_list(list_path)
        card_rules = {**{r: [c.words for c in p.criteria[:-1]] for r, p in rankings.items()}, **answers_read}
    else:
        choices = d.collect_any(rs.name, scenario, args.trained, fit_seeds, side)
        rules, fitted = d.fit_any(choices, args.size)
        distilled.write_overrides(list_path, rs.name, side_name, rules, f"fitted to {args.trained}")
        held = d.held_out_any(d.collect_any(rs.name, scenario, args.trained, held_seeds, side), rules)
        card_rules = rules
    rows = d.card_rows(rs.name, side, card_rules, fitted)
    seeds = seeds_from(args.seed, args.games)
    wins = d.evaluate_any(rs.name, scenario, {"the original list": "scripted",
                                              "the distilled list": f"distilled:{list_path}",
                                              "the trained agent": args.trained}, seeds, side, args.against)
    command = (f"rubble distill {rs.name} --side {side_name} --trained {args.trained} --fit-games {args.fit_games} "
               f"--held-out-games {args.held_out_games} --games {args.games} --size {args.size} --seed {args.seed}"
               + (f" --scenario {args.scenario}" if args.scenario else ""))
    text = d.report_any(rs.name, side_name, args.trained, shown_path(list_path), rows, fitted, held, wins, seeds,
                        args.fit_games, args.held_out_games, command)
    (out / "report.md").write_text(text)
    (out / "report.html").write_text(html_page(text, {}))
    changed = sum(1 for row in rows if row[2] != "as written")
    (out / "card.html").write_text(d.rule_card_html(
        f"{rs.name}: the {side_name}, as distilled ({changed} of {len(rows)} rules changed)",
        f"Fitted to {args.trained} over {args.fit_games:,} games. Work down the list: the first rule that applies "
        "decides; a changed rule's preferences come first, then the rule as written; ties to the lower ID.", rows,
        f"Reproduce: {command}"))
    how = d.render_card(out / "card.html", out / "card.png")
    print(text)
    print(f"written: {shown_path(list_path)}, report.md, report.html, card.html, card.png ({how})")
    return 0


def add_audit(sub) -> None:
    from training.folders.rundir import RESULTS_ROOT
    from training.measure.series import HELD_OUT_SEED

    p = sub.add_parser("audit", help="which rules of a scripted side's priority list carry it: each switched off or "
                                     "moved down, on paired dice")
    p.add_argument("env")
    p.add_argument("--side", help="the scripted side audited (default: the last side, the solo game's enemy)")
    p.add_argument("--audited", default="scripted", help="the list audited: scripted (default) or distilled:PATH")
    p.add_argument("--against", default="scripted", help="agent on every other side (default: scripted)")
    p.add_argument("--games", type=arg.games, default=1000, help="games per series (one series per change)")
    p.add_argument("--seed", type=arg.seed, default=HELD_OUT_SEED, help="game i of every series uses seed SEED+i")
    p.add_argument("--scenario")
    p.add_argument("--jobs", type=arg.jobs, default=1, help="worker processes")
    p.add_argument("--results", type=Path, default=RESULTS_ROOT, help="writes RESULTS/ENV/audit/LIST-SIDE-vs-AGAINST/")
    p.add_argument("--trained", metavar="MODEL", help="a trained model of the audited side (.zip): where it departs "
                                                     "from the list, and what taking its answers rule by rule is worth")
    p.add_argument("--out", type=Path, help="the report's folder instead")
    p.add_argument("--force", action="store_true", help="replace an existing report (else one is written beside it)")
    p.add_argument("--quiet", action="store_true")
    p.set_defaults(run=cmd_audit)


def add_distill(sub) -> None:
    from training.folders.rundir import RESULTS_ROOT
    from training.measure.series import HELD_OUT_SEED

    p = sub.add_parser("distill", help="fit a priority list a person can follow to a trained agent of a scripted side, "
                                       "and play it")
    p.add_argument("env")
    p.add_argument("--side", help="the scripted side distilled (default: the last side, the solo game's enemy)")
    p.add_argument("--trained", required=True, metavar="MODEL", help="the trained model (.zip) to distil")
    p.add_argument("--fit-games", type=arg.games, default=300, help="games of the trained agent to fit on")
    p.add_argument("--games", type=arg.games, default=500, help="held-out games per enemy in the comparison")
    p.add_argument("--size", type=arg.every, default=12, help="most lines in the distilled list")
    p.add_argument("--held-out-games", type=arg.games, default=100,
                   help="other games of the trained agent, never fitted, on which agreement is measured")
    p.add_argument("--against", default="scripted", help="agent on every other side (default: scripted)")
    p.add_argument("--seed", type=arg.seed, default=HELD_OUT_SEED, help="held-out game i uses seed SEED+i")
    p.add_argument("--scenario")
    p.add_argument("--results", type=Path, default=RESULTS_ROOT, help="writes RESULTS/ENV/audit/distilled/")
    p.add_argument("--out", type=Path, help="the folder instead")
    p.add_argument("--force", action="store_true", help="replace an existing list and report (else written beside them)")
    p.set_defaults(run=cmd_distill)
