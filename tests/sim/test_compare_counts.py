"""`sim compare`'s two counts of measures agree: the verdict's "Of the 20 measures compared" counts those that gave
the same value in every paired game (unchanged without a test), and the significance line says them apart from
the ones Holm corrects over, so "20" and "17" are never two unexplained numbers (a fresh user's find). A comparison
dict by hand: no game is played."""

from __future__ import annotations

from sim.pages.compare_page import significance_line


def _res(tested: int, identical: int) -> dict:
    rows = [{"name": f"m{i}", "p": 0.5, "verdict": "unchanged"} for i in range(tested)]
    rows += [{"name": f"s{i}", "p": None, "identical": True, "verdict": "unchanged"} for i in range(identical)]
    return {"metrics": rows, "alpha": 0.05}


def test_the_measures_not_tested_are_counted_apart_from_those_holm_corrects_over():
    line = significance_line(_res(17, 3))
    assert (
        "Holm-corrected over the 17 measures tested at alpha = 0.05; the other 3 of the 20 measures compared gave the "
        "same value in every paired game, so no test. Changed: none." in line
    )


def test_every_measure_identical_says_no_test_was_needed():
    line = significance_line(_res(0, 20))
    assert "no test needed: each of the 20 measures compared gave the same value in every paired game" in line
    assert "over 0 measures" not in line


def test_every_measure_tested_keeps_the_plain_count():
    assert "Holm-corrected over 18 measures at alpha = 0.05." in significance_line(_res(18, 0))
