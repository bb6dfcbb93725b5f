"""Metric functions on hand-built numbers and frames with known answers."""

from __future__ import annotations

import math

import polars as pl
import pytest
from scipy import stats

from sim.stats import metrics as M

# --- Wilson -------------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("k,n", [(0, 10), (1, 10), (5, 10), (10, 10), (37, 100), (2500, 10000), (1, 1)])
def test_wilson_matches_scipy(k, n):
    lo, hi = M.wilson(k, n)
    ci = stats.binomtest(k, n).proportion_ci(method="wilson")
    assert lo == pytest.approx(ci.low, abs=1e-12)
    assert hi == pytest.approx(ci.high, abs=1e-12)


def test_wilson_known_value():
    # 5 of 10 at 95%: centre 0.5, half-width z sqrt(0.025 + z^2/400) / (1 + z^2/10)
    lo, hi = M.wilson(5, 10)
    assert lo == pytest.approx(0.236593, abs=1e-6)
    assert hi == pytest.approx(0.763407, abs=1e-6)
    assert M.wilson(0, 0) == (0.0, 1.0)


def test_wilson_fractional_wins_between_neighbours():
    lo, hi = M.wilson(2.5, 10)
    assert M.wilson(2, 10)[0] < lo < M.wilson(3, 10)[0]
    assert M.wilson(2, 10)[1] < hi < M.wilson(3, 10)[1]


# --- Holm ---------------------------------------------------------------------------------------------------------


def test_holm_known_answer_and_order():
    p = [0.01, 0.04, 0.03, 0.005]
    # sorted: 0.005*4 = 0.02, 0.01*3 = 0.03, 0.03*2 = 0.06, 0.04*1 = 0.04 -> monotone 0.06
    assert M.holm(p) == pytest.approx([0.03, 0.06, 0.06, 0.02])
    assert M.holm_reject(p, 0.05) == [True, False, False, True]
    assert M.holm_reject(p, 0.01) == [False, False, False, False]
    assert M.holm_reject(p, 0.02) == [False, False, False, True]


def test_holm_is_step_down_not_bonferroni():
    # Bonferroni (x3) rejects only the first at 0.05; Holm rejects the second too (0.02 * 2 = 0.04).
    p = [0.001, 0.02, 0.5]
    assert M.holm(p) == pytest.approx([0.003, 0.04, 0.5])
    assert M.holm_reject(p, 0.05) == [True, True, False]


def test_holm_caps_at_one_and_handles_empty_and_ties():
    assert M.holm([]) == []
    assert M.holm([0.9, 0.9]) == [1.0, 1.0]
    assert M.holm([0.01, 0.01]) == pytest.approx([0.02, 0.02])


def test_holm_frame_keeps_row_order():
    df = pl.DataFrame({"metric": ["a", "b", "c", "d"], "p": [0.01, 0.04, 0.03, 0.005]})
    out = M.with_holm(df, alpha=0.05)
    assert out["metric"].to_list() == ["a", "b", "c", "d"]
    assert out["p_holm"].to_list() == pytest.approx([0.03, 0.06, 0.06, 0.02])
    assert out["significant"].to_list() == [True, False, False, True]


# --- tests of differences ---------------------------------------------------------------------------------------


def test_moments_and_mean_std_agree():
    xs = [3, 5, 7, 7, 9]
    tot, sq = sum(xs), sum(x * x for x in xs)
    m, v = M.moments(tot, sq, len(xs))
    assert m == pytest.approx(6.2)
    assert v == pytest.approx(stats.tvar(xs))
    assert M.mean_std(tot, sq, len(xs))[1] == pytest.approx(math.sqrt(v))


def test_welch_test_matches_normal_formula():
    a = [1, 2, 3, 4, 5] * 40
    b = [2, 3, 4, 5, 6] * 40
    r = M.welch_test(sum(a), sum(x * x for x in a), len(a), sum(b), sum(x * x for x in b), len(b))
    se = math.sqrt(stats.tvar(a) / len(a) + stats.tvar(b) / len(b))
    assert r["diff"] == pytest.approx(1.0)
    assert r["se"] == pytest.approx(se)
    assert r["p"] == pytest.approx(2 * stats.norm.sf(1.0 / se))
    same = M.welch_test(10, 10, 10, 10, 10, 10)  # constant samples, equal means
    assert same["p"] == 1.0
    diff = M.welch_test(10, 10, 10, 20, 40, 10)  # constant samples, different means
    assert diff["p"] == 0.0


def test_two_proportion_test_pooled_z_and_fisher_fallback():
    p = M.two_proportion_test(2500, 10000, 2600, 10000)
    pp = 5100 / 20000
    z = 0.01 / math.sqrt(pp * (1 - pp) * 2 / 10000)
    assert p == pytest.approx(2 * stats.norm.sf(z))
    # rare events: Fisher's exact test
    assert M.two_proportion_test(0, 1000, 3, 1000) == pytest.approx(stats.fisher_exact([[0, 1000], [3, 997]]).pvalue)
    assert M.two_proportion_test(0, 1000, 0, 1000) == 1.0


def test_paired_difference_on_frames():
    df = pl.DataFrame({"a": [1, 0, 1, 1, 0, 1, 0, 0], "b": [1, 1, 1, 1, 0, 1, 1, 0]})
    r = M.paired_difference(df["a"], df["b"])
    d = [0, 1, 0, 0, 0, 0, 1, 0]
    assert r["diff"] == pytest.approx(0.25)
    assert r["se"] == pytest.approx(math.sqrt(stats.tvar(d) / 8))
    z = M.z_value()
    assert r["ci"] == pytest.approx([0.25 - z * r["se"], 0.25 + z * r["se"]])
    same = M.paired_difference(df["a"], df["a"])
    assert same["diff"] == 0 and same["se"] == 0 and same["p"] == 1.0


def test_seat_win_rates_on_a_hand_built_frame():
    # 6 finished games of 3 seats + one truncated game; game 5 is a win shared by seats 0 and 2
    df = pl.DataFrame(
        {
            "status": [0, 0, 0, 0, 0, 0, 1],
            "win_seat0": [1, 0, 0, 1, 1, 1, 0],
            "win_seat1": [0, 1, 0, 0, 0, 0, 0],
            "win_seat2": [0, 0, 1, 0, 0, 1, 0],
        }
    )
    out = M.seat_win_rates(df, 3)
    assert out["games"].to_list() == [6, 6, 6]
    assert out["wins"].to_list() == pytest.approx([3.5, 1.0, 1.5])
    assert out["rate"].to_list() == pytest.approx([3.5 / 6, 1 / 6, 1.5 / 6])
    lo, hi = M.wilson(1, 6)
    assert out.row(1, named=True)["lo"] == pytest.approx(lo)
    assert out.row(1, named=True)["hi"] == pytest.approx(hi)


def test_chi2_hist_identical_and_shifted():
    a = [0, 10, 50, 100, 50, 10, 0]
    same = M.chi2_hist(a, 3, a, 3)
    assert same["p"] == pytest.approx(1.0)
    shifted = M.chi2_hist([x * 10 for x in a], 3, [x * 10 for x in a], 4)  # every value one higher
    assert shifted["p"] < 1e-6
    # aligned by value, not by index: the same histogram given with another offset is identical
    assert M.chi2_hist(a, 3, a[1:], 4)["p"] == pytest.approx(1.0)


def test_merge_sparse_bins_gives_expected_counts_of_at_least_five():
    a = [1, 1, 1, 30, 40, 30, 1, 1]
    b = [0, 2, 1, 28, 45, 25, 2, 0]
    ma, mb = M.merge_sparse_bins(a, b)
    assert sum(ma) == sum(a) and sum(mb) == sum(b)
    na, nb = sum(a), sum(b)
    for x, y in zip(ma, mb):
        assert (x + y) * min(na, nb) / (na + nb) >= 5


def test_uniform_chi2():
    assert M.uniform_chi2([100, 100, 100])["p"] == pytest.approx(1.0)
    assert M.uniform_chi2([100, 100, 160])["p"] < 0.001


# --- SPRT ---------------------------------------------------------------------------------------------------------


def test_sprt_bounds_are_ln19_at_5_percent():
    lo, hi = M.sprt_bounds(0.05, 0.05)
    assert lo == pytest.approx(-math.log(19))
    assert hi == pytest.approx(math.log(19))


def test_sprt_llr_formula_and_decisions():
    # 1000 differences with mean 0.01 and variance ~0.01: LLR = n d1 (2 m - d1) / (2 v)
    n, m, v = 1000, 0.01, 0.01
    tot = m * n
    sq = v * (n - 1) + tot * tot / n
    llr = M.sprt_llr(tot, sq, n, 0.0, 0.01)
    assert llr == pytest.approx(n * 0.01 * (2 * m - 0.01) / (2 * v))
    assert M.sprt_state(3.0) == "H1"
    assert M.sprt_state(-3.0) == "H0"
    assert M.sprt_state(0.0) == "continue"
    # evidence for no effect drives the LLR down
    assert M.sprt_llr(0.0, sq, n, 0.0, 0.01) < 0


def test_fisher_test_matches_scipy():
    assert M.fisher_test(10, 100, 20, 100) == pytest.approx(stats.fisher_exact([[10, 90], [20, 80]]).pvalue)
    assert M.fisher_test(0, 0, 1, 10) == 1.0


def test_third_moment_and_skewness_of_a_rare_event_counter():
    xs = [0, 0, 0, 1, 5]
    tot, sq, cu = sum(xs), sum(x * x for x in xs), sum(x**3 for x in xs)
    m = tot / len(xs)
    assert M.third_moment(tot, sq, cu, len(xs)) == pytest.approx(sum((x - m) ** 3 for x in xs) / len(xs))

    # a 0/1 counter with 25 expected events in 25,000 fresh games against 100 in 100,000 baseline games:
    # the difference of means is skewed by about 1/sqrt(25) * (variance share of the fresh sample)^1.5
    def sums(k, n):
        return (k, k, k, n)

    s = M.diff_skewness(sums(100, 100_000), sums(25, 25_000))
    assert 0.1 < s < 0.2
    # a common event is nearly symmetric
    assert abs(M.diff_skewness(sums(40_000, 100_000), sums(10_000, 25_000))) < 0.01


def test_mcnemar_exact():
    assert M.mcnemar_exact(0, 0) == 1.0
    assert M.mcnemar_exact(10, 10) == pytest.approx(1.0)
    assert M.mcnemar_exact(9, 1) == pytest.approx(stats.binomtest(9, 10, 0.5).pvalue)
    assert M.mcnemar_exact(9, 1) == pytest.approx(22 / 1024)


def test_null_z_test_pools_the_variance_and_agrees_with_welch_on_alike_samples():
    """Two large samples of one spread: the pooled test agrees with Welch's; a small sample with zero variance of
    its own (no success in 24 where the other has 72 of 600) is not significant, where Welch's gives p < 1e-9."""

    def sums(xs):
        return (sum(xs), sum(x * x for x in xs), sum(x**3 for x in xs), len(xs))

    a, b = sums([0, 1, 2, 3] * 500), sums([0, 1, 2, 3] * 390 + [1, 2, 3, 4] * 10)
    z = M.null_z_test(a, b)
    w = M.welch_test(a[0], a[1], a[3], b[0], b[1], b[3])
    assert z["diff"] == w["diff"] and abs(z["se"] - w["se"]) / w["se"] < 0.01 and abs(z["p"] - w["p"]) < 0.01
    small, big = sums([0] * 24), sums([1] * 72 + [0] * 528)
    assert M.null_z_test(big, small)["p"] > 0.01
    assert M.welch_test(big[0], big[1], big[3], small[0], small[1], small[3])["p"] < 1e-9
