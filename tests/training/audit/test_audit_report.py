"""The audit's verdicts in plain words (no measurable effect, with its interval; Holm over many changes) and its
report.html as a document (headings, tables, lists, the picture), not Markdown inside <pre>."""
from __future__ import annotations

from tests.training.helpers import run_cli
from training.audit.ablation import verdict_words
from training.measure.paired import paired_difference

BASE = [1, 0, 1, 1, 0, 1, 0, 0, 1, 1] * 6


def test_a_change_too_small_to_tell_from_none_shows_its_interval_width():
    change = paired_difference(BASE, BASE[:-2] + [0, 1])
    words = verdict_words(change)
    assert words == f"no measurable effect (interval ±{100 * change.half_width:.1f} points)"
    assert "dead weight" not in words


def test_a_change_that_alters_no_game_is_identical_not_a_zero_width_interval():
    assert verdict_words(paired_difference(BASE, BASE)) == "no measurable effect (identical in all 60 games)"


def test_holm_can_overrule_a_change_significant_alone():
    worse = paired_difference(BASE, [0] * 60)
    assert verdict_words(worse) == "carries the list" == verdict_words(worse, True)
    held = verdict_words(worse, False)
    assert held.startswith("no measurable effect (interval ±") and "significant alone" in held
    assert verdict_words(paired_difference(BASE, [1] * 60)) == "hurts the list"


def test_the_audit_report_is_a_document_with_plain_verdicts(tmp_path, capsys):
    out = tmp_path / "audit"
    code, _, err = run_cli(capsys, "audit", "rifles-urban", "--games", "6", "--out", str(out), "--quiet")
    assert code == 0, err
    report = (out / "report.md").read_text()
    assert "dead weight" not in report and "no measurable effect (" in report
    assert "Holm's step-down procedure" in report
    page = (out / "report.html").read_text()
    assert page.count("<pre>") == 1                     # the command only, not the whole report
    assert "<h1>Audit of rifles-urban" in page and "<table>" in page and "<ul><li><strong>RB-AI-2</strong>" in page
    assert "<figure><img alt='paired differences' src='data:image/png;base64," in page
