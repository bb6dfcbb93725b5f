"""The three verdicts (sim.stats.verdict): their rules, their error rates under the null and at the margin, and the
--margin entries."""

from __future__ import annotations

import numpy as np
import pytest
from scipy import stats

from sim.stats import verdict as V


def _verdict(d, se, m, n=10_000):
    return V.judge(d, se, m, n, p_diff=stats.norm.sf(abs(d) / se) * 2, p_equiv=V.tost_p(d, se, m))


def test_unchanged_only_when_the_equivalence_test_says_so():
    assert _verdict(0.001, 0.002, 0.01).kind == V.UNCHANGED  # 90% interval [-0.0023, 0.0043] inside +/-0.01
    wide = _verdict(0.0, 0.045, 0.01)  # +/-9 points around 0: not "no difference", cannot tell
    assert wide.kind == V.CANNOT_TELL and wide.more_games and wide.more_games > 100_000


def test_changed_needs_significance_and_an_estimate_beyond_the_margin():
    assert _verdict(0.03, 0.005, 0.01).kind == V.CHANGED
    small = _verdict(0.008, 0.003, 0.01)  # significant, smaller than the margin, interval reaching past it
    assert small.kind == V.CANNOT_TELL
    assert _verdict(0.03, 0.02, 0.01).kind == V.CANNOT_TELL  # beyond the margin but not significant


def test_games_to_decide_shrinks_the_interval_enough():
    v = _verdict(0.002, 0.006, 0.01, n=2_000)
    assert v.kind == V.CANNOT_TELL
    n = v.games + v.more_games
    se = 0.006 * np.sqrt(2_000 / n)
    assert _verdict(0.002, se, 0.01, n).kind == V.UNCHANGED
    se_short = 0.006 * np.sqrt(2_000 / (0.8 * n))
    assert _verdict(0.002, se_short, 0.01, int(0.8 * n)).kind == V.CANNOT_TELL


@pytest.mark.parametrize("true", [0.0, 0.01, -0.01])
def test_error_rates_at_the_null_and_at_the_margin(true):
    """At a true difference of 0 "changed" is said at most alpha of the time; at a true difference on the margin
    "unchanged" is said at most alpha of the time (TOST's size)."""
    rng = np.random.default_rng(7)
    se, m, runs = 0.004, 0.01, 20_000
    kinds = [_verdict(float(d), se, m).kind for d in rng.normal(true, se, runs)]
    wrong = V.CHANGED if true == 0 else V.UNCHANGED
    rate = kinds.count(wrong) / runs
    assert rate <= V.ALPHA + 3 * np.sqrt(V.ALPHA * (1 - V.ALPHA) / runs)
    if true == 0:
        assert kinds.count(V.UNCHANGED) / runs > 0.5  # and it does say unchanged when it can


def test_margin_defaults_by_kind_and_overrides_in_the_measure_s_unit():
    assert V.margin_for("first_player_advantage", "rate").value(0.25) == 0.01
    assert V.margin_for("length.turns", "turns").value(112.0) == pytest.approx(2.24)
    assert V.margin_for("extra.ghosts_ejected", "count").value(0.0) == 0.05
    assert V.margin_for("first_player_advantage", "rate", {"first_player_advantage": 0.5}).value(0.25) == 0.005
    with pytest.raises(V.MarginError, match="kind 'odd'"):
        V.margin_for("x", "odd")


@pytest.mark.parametrize(
    "item,message",
    [
        ("first_player_advantage", "expected KEY=VALUE"),
        ("first_player_advantage=abc", "is not a number"),
        ("first_player_advantage=-1", "positive"),
        ("first_player_advantage=inf", "positive, finite"),
    ],
)
def test_parse_margins_names_the_entry_and_what_is_allowed(item, message):
    with pytest.raises(V.MarginError, match=message):
        V.parse_margins([item])
    assert V.parse_margins(["first_player_advantage=0.5"]) == {"first_player_advantage": 0.5}


def test_a_margin_given_twice_is_refused_not_silently_the_last():
    with pytest.raises(V.MarginError, match=r"^--margin first_player_advantage: given twice \(0.5 and 2\)"):
        V.parse_margins(["first_player_advantage=0.5", "first_player_advantage=2"])


def test_words():
    fmt = lambda x, signed: f"{100 * x:+.1f} points" if signed else f"{100 * x:.1f} points"  # noqa: E731
    assert V.words(_verdict(0.001, 0.002, 0.01), fmt) == "unchanged within +/-1.0 points"
    assert V.words(_verdict(0.03, 0.005, 0.01), fmt) == "changed by +3.0 points"
    assert V.words(_verdict(0.0, 0.045, 0.01), fmt).startswith("cannot tell yet: about ")
    assert V.round_games(33_412) == 34_000


def test_more_games_advice_says_when_no_practical_number_would_decide():
    assert V.more_games_words(34_012, 20_000) == "about 35,000 more games would decide"
    far = V.more_games_words(9_200_000, 20_000, "them all")
    assert far.startswith("about 9,200,000 more games would decide them all; the figure sits about at its margin")


def test_changed_needs_the_interval_past_the_margin_not_only_the_estimate():
    """+1.1 [+0.9, +1.3] at a 1-point margin is past the margin only by its estimate: cannot tell yet (with the
    games that would put it beyond); +3.0 [+2.0, +4.0] is changed."""
    near = _verdict(0.011, 0.001, 0.01)
    assert near.kind == V.CANNOT_TELL and near.more_games
    assert _verdict(0.03, 0.005, 0.01).kind == V.CHANGED
    assert _verdict(-0.03, 0.005, 0.01).kind == V.CHANGED


def test_a_true_difference_on_the_margin_is_called_changed_at_most_alpha_of_the_time():
    rng = np.random.default_rng(11)
    se, m, runs = 0.004, 0.01, 20_000
    kinds = [_verdict(float(d), se, m).kind for d in rng.normal(m, se, runs)]
    assert kinds.count(V.CHANGED) / runs <= V.ALPHA + 3 * np.sqrt(V.ALPHA * (1 - V.ALPHA) / runs)


def test_a_number_of_games_past_a_trillion_is_said_in_words():
    assert V.about_games(34_123) == "about 35,000"
    assert V.about_games(6_600_000_000_000_000_000_000_000_000_000) == "more than a trillion"
    assert V.more_games_words(10**33, 300).startswith("more than a trillion more games would decide")


@pytest.mark.parametrize(
    "more, sentence, cell",
    [
        (33_412, "about 34,000", "+34,000 games"),
        (68_812_345_678, "about 69 billion", "+69 billion games"),
        (3 * 10**15, "more than a trillion", "more than a trillion more games"),
    ],
)
def test_games_that_would_decide_are_said_one_way_in_the_ladder_the_report_and_a_table(more, sentence, cell):
    """The ladder printed "about 69,000,000,000 games" where the report says "more than a trillion": one formatter
    (`verdict.games_words`) for sentences, the ladder's verdicts and table cells."""
    from sim.stats import ladder_fit

    head = {"kind": V.CANNOT_TELL, "margin": 0.01, "more_games": more, "estimate": 0.0}
    ladder = ladder_fit.skill_words("first_player_advantage", head, "weighted", "search 64")
    assert f": {sentence} games a table in all would decide" in ladder
    assert V.more_games_words(more, 1000).startswith(f"{sentence} more games would decide")
    assert V.more_games_cell(more) == cell
