"""Honest statistics in every report that compares: identical games said so, Holm over many comparisons, and the
report documents (Markdown read back into headings, tables, lists and pictures)."""
from __future__ import annotations

import math

import pytest

from training.measure.document import Code, Heading, Items, Paragraph, Picture, Table, from_markdown, to_html, to_markdown
from training.measure.paired import format_difference, holm_significant, holm_words, paired_difference
from training.measure.stats import holm_reject, normal_p_value


# Identical games ---------------------------------------------------------------------------------------------------
def test_no_paired_game_differing_is_said_identical_never_a_zero_width_interval():
    d = paired_difference([1, 0, 1, 1, 0] * 8, [1, 0, 1, 1, 0] * 8)
    assert d.identical and not d.significant and d.p_value == 1.0
    text = format_difference(d)
    assert text.startswith("identical in all 40 games")
    assert "CI" not in text and "[+0.0, +0.0]" not in text


def test_games_that_all_differ_the_same_way_give_no_interval_and_say_so():
    d = paired_difference([0] * 12, [1] * 12)
    assert d.constant and not d.identical and d.p_value == 0.0
    text = format_difference(d)
    assert "12 of 12 games that differ all differ the same way" in text and "CI" not in text


def test_a_difference_counts_the_games_that_differ():
    d = paired_difference([1, 0, 1, 1], [1, 1, 1, 0])
    assert d.differing == 2 and not d.identical
    assert "2 of 4 games differ" in format_difference(d)


# Holm ----------------------------------------------------------------------------------------------------------------
def test_holm_steps_down_from_the_smallest_p_value():
    # m = 4, sorted 0.005 <= 0.05/4, 0.01 <= 0.05/3, then 0.03 > 0.05/2 stops: 0.04 is not rejected either
    assert holm_reject([0.01, 0.04, 0.005, 0.03]) == [True, False, True, False]
    assert holm_reject([0.01, 0.03, 0.005, 0.015]) == [True] * 4       # 0.015 <= 0.05/2, 0.03 <= 0.05/1
    assert holm_reject([0.2, 0.01]) == [False, True]
    assert holm_reject([0.04]) == [True]                 # one comparison: its own 5 % test
    assert holm_reject([0.04, 0.04]) == [False, False]   # two: the smaller is held to 2.5 %
    assert holm_reject([]) == []


def test_holm_over_paired_differences_is_stricter_than_each_alone():
    barely = paired_difference([0] * 40 + [1] * 60, [0] * 34 + [1] * 66)     # 6 of 100 games won more
    assert barely.significant and 0.005 < barely.p_value < 0.05
    nothing = paired_difference([1, 0] * 50, [1, 0] * 50)
    assert holm_significant([barely]) == [True]
    assert holm_significant([barely] * 5 + [nothing] * 5) == [False] * 10
    text = format_difference(barely, False, 10)
    assert "not significant after Holm over 10; significant alone" in text


def test_the_normal_p_value_matches_the_95_percent_interval():
    assert normal_p_value(1.959963984540054) == pytest.approx(0.05)
    assert normal_p_value(0) == 1.0 and math.isclose(normal_p_value(-3), normal_p_value(3))


def test_a_report_says_how_it_adjusts_for_many_comparisons():
    assert "Holm" in holm_words(6) and "6 comparisons" in holm_words(6) and "5%/6" in holm_words(6)
    assert "One comparison" in holm_words(1)


# The report document ------------------------------------------------------------------------------------------------
def test_markdown_reports_read_back_into_blocks_and_render_as_a_document():
    text = ("# Audit\n\nIntro **bold** and `code`,\ncontinued.\n\n    rubble audit x --games 5\n\n"
            "| change | verdict |\n| --- | ---: |\n| RB-AI-2 off | no measurable effect (interval ±3.1 points) |\n\n"
            "- **RB-AI-2** ranks by nearest\n- **RB-AI-5** ranks by cover\n\n![paired differences](ablations.png)\n")
    blocks = from_markdown(text, {"ablations.png": b"\x89PNG"})
    assert blocks == [Heading(1, "Audit"), Paragraph("Intro **bold** and `code`, continued."),
                      Code("rubble audit x --games 5"),
                      Table(("change", "verdict"), (("RB-AI-2 off", "no measurable effect (interval ±3.1 points)"),)),
                      Items(("**RB-AI-2** ranks by nearest", "**RB-AI-5** ranks by cover")),
                      Picture(b"\x89PNG", "paired differences")]
    page = to_html(blocks, "Audit")
    assert "<h1>Audit</h1>" in page and "<table>" in page and "<li><strong>RB-AI-2</strong>" in page
    assert "<pre>rubble audit x --games 5</pre>" in page and "data:image/png;base64," in page
    assert page.count("<pre>") == 1      # not the whole report as preformatted text
    assert "rubble audit x" in to_markdown(blocks) and "- **RB-AI-5**" in to_markdown(blocks)
