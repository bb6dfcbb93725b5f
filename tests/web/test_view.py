"""The workbench's number formats (sim/web/view.py): intervals whose ends never read alike, verdicts in the
report's words."""

from __future__ import annotations

from sim.web import view


def test_an_interval_gets_the_digits_that_tell_its_ends_apart():
    assert view.interval(39.583, 39.651) == "39.58 … 39.65"
    assert view.interval(39.5831, 39.5839) == "39.583 … 39.584"
    assert view.interval(0.2488, 0.2609, "rate") == "24.88% … 26.09%"
    assert view.interval(-0.0012, 0.0109, "rate", True) == "-0.12 points … +1.09 points"
    assert view.interval(24.2, 24.2) == "none (every game equal)"
    assert view.interval(None, 1.0) == "n/a"


def test_a_verdict_reads_as_in_the_reports():
    assert view.verdict("unchanged") == "unchanged"
    assert view.verdict("changed") == "CHANGED"
    assert view.verdict("cannot_tell", 34_012) == "cannot tell yet (+35,000 games)"
    assert view.verdict(None) == "n/a"
