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


def _row(name: str, label: str, kind: str = "rate", unit: str = "% of finished games", **kw) -> dict:
    row = {"name": name, "label": label, "kind": kind, "unit": unit, "n": 2000, "a": 0.032, "b": 0.0325}
    row |= {"a_ci95": [0.0, 0.08], "b_ci95": [0.0, 0.081], "diff": 0.0005, "diff_ci95": [-0.032, 0.036]}
    row |= {"se_paired": 0.017, "pairing_gain": 1.2, "p": 0.9, "p_holm": 1.0, "significant": False}
    row |= {"margin": 0.01, "p_equiv_holm": 1.0, "verdict": "cannot_tell", "more_games": 29_000, "identical": False}
    return row | kw


def _moor(rows: list[dict]) -> dict:
    seats = [{"strategy": "weighted"}] * 4
    return {"a": {"game": "moor", "players": 4, "scenario": {"params": {}, "seats": seats}}, "metrics": rows}


def test_the_count_of_measures_not_told_says_how_many_the_verdict_said():
    """'7 cannot be told yet' under 4 sentences of such measures: the line says 4 of them are said above and where
    the rest are."""
    from sim.pages import verdicts

    rows = [
        _row("first_player.win", "the start player wins"),
        _row("seat_spread", "seat spread (highest seat win rate minus the lowest)", unit="percentage points"),
        _row("extra.discards", "discards", kind="mean", unit="discards per game", a=15.0, b=15.1, diff=0.1),
        _row("extra.planks_laid", "planks laid", kind="mean", unit="planks per game", a=26.0, b=26.1, diff=0.1),
    ]
    line = verdicts.compare_sentences(_moor(rows))[-1]
    assert "4 cannot be told yet (2 of them said above, the other 2 in the table below; about " in line


def test_the_compared_seat_spread_is_in_points_as_the_run_report_says_it():
    """The run report says the seat spread in points ("1.10 points"); the comparison said "3.20%"."""
    from sim.pages import verdicts
    from sim.pages.compare_page import frame

    spread = _row("seat_spread", "seat spread (highest seat win rate minus the lowest)", unit="percentage points")
    res = _moor([spread, _row("first_player.win", "the start player wins")])
    said = next(x for x in verdicts.compare_sentences(res) if x.startswith("Seat spread"))
    assert said.startswith("Seat spread (highest seat win rate minus the lowest) 3.2 points [0.0, 8.1] instead of 3.2 ")
    table = frame(res).to_dicts()
    assert (table[0]["A"], table[0]["B"], table[1]["A"]) == ("3.20 points", "3.25 points", "3.20%")
