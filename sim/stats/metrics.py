"""Statistics used by the reports: small, tested functions (floats only here, at the end of the pipeline)."""

from __future__ import annotations

import functools
import math

# scipy.stats is imported inside the functions that use it: 43 MB that a process only reading specs (the web
# server) never needs.

# Fewer finished games than this and a normal-approximation interval (a difference of rates, a mean) or a test (a
# p-value, the chi-square of equal seats: 30 games give at least 5 expected wins per seat up to 6 seats) means
# nothing: the pages say "too few games" instead of showing it (Wilson intervals of a rate stay: valid at any n).
MIN_GAMES_FOR_TESTS = 30


def too_few_for_tests(n: int) -> bool:
    """Whether ``n`` finished games are too few for a normal interval or a test to mean anything (MIN_GAMES_FOR_TESTS)."""
    return n < MIN_GAMES_FOR_TESTS


@functools.lru_cache(maxsize=16)
def z_value(level: float = 0.95) -> float:
    """Two-sided standard-normal quantile for a confidence ``level`` (1.959964 for 0.95). Cached: a sweep asks for
    it for every interval of every point (scipy's ppf costs ~0.1 ms a call)."""
    from scipy import stats

    return float(stats.norm.ppf(0.5 + level / 2))


def wilson(successes: float, n: float, level: float = 0.95) -> tuple[float, float]:
    """Wilson score interval for a proportion (successes may be fractional when ties are split).

    Returns (lo, hi) in [0, 1]; (0.0, 1.0) when n == 0. Same values as scipy's binomtest(...).proportion_ci(
    method='wilson') for integer successes (checked in tests).
    """
    if n <= 0:
        return 0.0, 1.0
    z = z_value(level)
    p = successes / n
    den = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / den
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / den
    return max(0.0, centre - half), min(1.0, centre + half)


def hist_quantile(counts, lo: int, q: float) -> int:
    """Smallest value v with at least q of the mass at or below it, from histogram ``counts`` (index + lo = value)."""
    total = sum(counts)
    if total == 0:
        return lo
    need = q * total
    c = 0
    for i, k in enumerate(counts):
        c += k
        if c >= need and k:
            return lo + i
    return lo + len(counts) - 1


def mean_std(total: int, squares: int, n: int) -> tuple[float, float]:
    """Mean and sample standard deviation from integer sums (exact until the final division)."""
    if n == 0:
        return 0.0, 0.0
    mean = total / n
    if n < 2:
        return mean, 0.0
    var = (squares - total * total / n) / (n - 1)
    return mean, math.sqrt(max(var, 0.0))


# ---------------------------------------------------------------------------------------------------------------
# Tests and intervals for comparisons (sim compare, sim check). Inputs are integer sums where possible.


def holm(pvalues) -> list[float]:
    """Holm step-down adjusted p-values, in the input order (reject H_i at level a when adjusted[i] <= a).

    Sort p ascending; adjusted_(k) = max over j <= k of min(1, (m - j) * p_(j)) (j counted from 0). Controls the
    family-wise error rate under any dependence between the tests.
    """
    p = [float(x) for x in pvalues]
    m = len(p)
    order = sorted(range(m), key=lambda i: (p[i], i))
    out = [0.0] * m
    running = 0.0
    for rank, i in enumerate(order):
        running = max(running, min(1.0, (m - rank) * p[i]))
        out[i] = running
    return out


def holm_reject(pvalues, alpha: float) -> list[bool]:
    """Which hypotheses Holm's procedure rejects at family-wise level ``alpha`` (input order)."""
    return [a <= alpha for a in holm(pvalues)]


def norm_p(z: float) -> float:
    """Two-sided p-value of a standard-normal statistic."""
    from scipy import stats

    return float(2 * stats.norm.sf(abs(z)))


def moments(total: float, squares: float, n: int) -> tuple[float, float]:
    """Mean and (sample) variance from the sums of values and of squared values."""
    if n <= 0:
        return 0.0, 0.0
    mean = total / n
    if n < 2:
        return mean, 0.0
    return mean, max((squares - total * total / n) / (n - 1), 0.0)


def diff_test(d: float, se: float) -> float:
    """Two-sided p-value of a difference ``d`` with standard error ``se`` (se = 0: 1.0 when d == 0 else 0.0)."""
    if se <= 0 or not math.isfinite(se):
        return 1.0 if d == 0 else 0.0
    return norm_p(d / se)


def welch_test(sum1: float, sq1: float, n1: int, sum2: float, sq2: float, n2: int) -> dict:
    """Large-sample test that two independent samples have equal means (Welch's z), from sums and sums of squares.

    Returns mean1, mean2, diff (mean2 - mean1), se, ci95 of the difference and the two-sided p-value.
    """
    m1, v1 = moments(sum1, sq1, n1)
    m2, v2 = moments(sum2, sq2, n2)
    d = m2 - m1
    se = math.sqrt((v1 / n1 if n1 else 0.0) + (v2 / n2 if n2 else 0.0))
    z = z_value()
    return {"mean1": m1, "mean2": m2, "diff": d, "se": se, "ci95": [d - z * se, d + z * se], "p": diff_test(d, se)}


def two_proportion_test(x1: int, n1: int, x2: int, n2: int) -> float:
    """Two-sided p-value that two binomial proportions are equal: pooled z-test, or Fisher's exact test when a
    count is small (fewer than 20 successes or failures in the pooled sample), where the normal approximation fails.
    """
    from scipy import stats

    if n1 <= 0 or n2 <= 0:
        return 1.0
    s, f = x1 + x2, (n1 - x1) + (n2 - x2)
    if min(s, f) < 20:
        return float(stats.fisher_exact([[x1, n1 - x1], [x2, n2 - x2]]).pvalue)
    p = s / (n1 + n2)
    se = math.sqrt(p * (1 - p) * (1 / n1 + 1 / n2))
    return diff_test(x2 / n2 - x1 / n1, se)


def fisher_test(x1: int, n1: int, x2: int, n2: int) -> float:
    """Two-sided p-value of Fisher's exact test that two binomial proportions x1/n1 and x2/n2 are equal (exact and
    conservative at any count, also deep in the tail where a normal approximation is not)."""
    from scipy import stats

    if n1 <= 0 or n2 <= 0:
        return 1.0
    return float(stats.fisher_exact([[x1, n1 - x1], [x2, n2 - x2]]).pvalue)


def third_moment(total: float, squares: float, cubes: float, n: int) -> float:
    """Third central moment E[(x - mean)^3] from the sums of x, x^2 and x^3."""
    if n <= 0:
        return 0.0
    m = total / n
    return cubes / n - 3 * m * squares / n + 2 * m**3


def diff_skewness(a: tuple, b: tuple) -> float:
    """Standardised skewness of mean(b) - mean(a) for two independent samples, each given as (sum, sum of squares,
    sum of cubes, n). Near 0 the normal approximation holds far into the tails; rare-event counters give large
    values (a Poisson count with 25 expected events: 0.2), where a z-test would over-reject at small alpha."""
    (s1, q1, c1, n1), (s2, q2, c2, n2) = a, b
    if n1 < 2 or n2 < 2:
        return 0.0
    _, v1 = moments(s1, q1, n1)
    _, v2 = moments(s2, q2, n2)
    se2 = v1 / n1 + v2 / n2
    if se2 <= 0:
        return 0.0
    k3 = third_moment(s2, q2, c2, n2) / n2**2 - third_moment(s1, q1, c1, n1) / n1**2
    return k3 / se2**1.5


def null_z_test(a: tuple, b: tuple) -> dict:
    """Test that two independent samples, each given as (sum, sum of squares, sum of cubes, n), come from one
    distribution: the z-test of mean(b) - mean(a) with the variance pooled over both (the null's), and the
    standardised skewness of that difference under the same pooled moments (`diff_skewness`). Unlike Welch's, it
    holds for a small sample whose own variance is 0 (no win in 24 games of a 12% seat: probability 0.05; a counter
    0 in every game of one sample). Returns diff, se, p (two-sided) and skew."""
    (s1, q1, c1, n1), (s2, q2, c2, n2) = a, b
    n = n1 + n2
    pool = (s1 + s2, q1 + q2, c1 + c2)
    _, v = moments(pool[0], pool[1], n)
    se = math.sqrt(v / n1 + v / n2) if n1 and n2 else 0.0
    d = (s2 / n2 if n2 else 0.0) - (s1 / n1 if n1 else 0.0)
    skew = diff_skewness(tuple(x * n1 / n for x in pool) + (n1,), tuple(x * n2 / n for x in pool) + (n2,))
    return {"diff": d, "se": se, "p": diff_test(d, se), "skew": skew}


def mcnemar_exact(up: int, down: int) -> float:
    """Exact McNemar test for paired indicators: ``up`` pairs went 0 -> 1, ``down`` pairs 1 -> 0 (two-sided
    binomial test of up out of up + down at 1/2; 1.0 without discordant pairs)."""
    from scipy import stats

    n = int(up) + int(down)
    if n == 0:
        return 1.0
    return float(stats.binomtest(int(up), n, 0.5).pvalue)


def paired_diff(sum_d: float, sq_d: float, n: int, level: float = 0.95) -> dict:
    """Mean of paired differences d_g = b_g - a_g from their sums: diff, se, ci and two-sided p (normal)."""
    m, v = moments(sum_d, sq_d, n)
    se = math.sqrt(v / n) if n else 0.0
    z = z_value(level)
    return {"diff": m, "se": se, "ci": [m - z * se, m + z * se], "p": diff_test(m, se)}


def merge_sparse_bins(a, b, min_expected: float = 5.0) -> tuple[list[int], list[int]]:
    """Merge adjacent histogram bins (two aligned histograms) until every merged bin's expected count under
    homogeneity is at least ``min_expected`` in both samples (for the chi-square test)."""
    a = [int(x) for x in a]
    b = [int(x) for x in b]
    na, nb = sum(a), sum(b)
    if na == 0 or nb == 0:
        return [na], [nb]
    need = min_expected * (na + nb) / min(na, nb)  # pooled count that gives min_expected in the smaller sample
    out_a, out_b = [], []
    ca = cb = 0
    for x, y in zip(a, b):
        ca += x
        cb += y
        if ca + cb >= need:
            out_a.append(ca)
            out_b.append(cb)
            ca = cb = 0
    if ca + cb:
        if out_a:
            out_a[-1] += ca
            out_b[-1] += cb
        else:
            out_a.append(ca)
            out_b.append(cb)
    return out_a, out_b


def chi2_hist(a, lo_a: int, b, lo_b: int, min_expected: float = 5.0) -> dict:
    """Chi-square test of homogeneity for two integer histograms (index + lo = value), adjacent bins merged until
    every expected count is at least ``min_expected`` (raise it for p-values far in the tail).

    Returns statistic, dof and p (p = 1.0 when fewer than two merged bins remain)."""
    from scipy import stats

    lo = min(lo_a, lo_b)
    hi = max(lo_a + len(a), lo_b + len(b))
    ha = [0] * (hi - lo)
    hb = [0] * (hi - lo)
    for i, c in enumerate(a):
        ha[lo_a - lo + i] += int(c)
    for i, c in enumerate(b):
        hb[lo_b - lo + i] += int(c)
    ma, mb = merge_sparse_bins(ha, hb, min_expected)
    if len(ma) < 2:
        return {"statistic": 0.0, "dof": 0, "p": 1.0}
    res = stats.chi2_contingency([ma, mb], correction=False)
    return {"statistic": float(res.statistic), "dof": int(res.dof), "p": float(res.pvalue)}


def uniform_chi2(counts) -> dict:
    """Chi-square goodness of fit of ``counts`` to equal shares (are the seats balanced?)."""
    from scipy import stats

    c = [float(x) for x in counts]
    if len(c) < 2 or sum(c) <= 0:
        return {"statistic": 0.0, "dof": 0, "p": 1.0}
    res = stats.chisquare(c)
    return {"statistic": float(res.statistic), "dof": len(c) - 1, "p": float(res.pvalue)}


def mean_ci(total: float, squares: float, n: int, level: float = 0.95) -> tuple[float, float, float]:
    """(mean, lo, hi): normal interval for a mean from integer sums."""
    m, v = moments(total, squares, n)
    if n < 2:
        return m, m, m
    h = z_value(level) * math.sqrt(v / n)
    return m, m - h, m + h


# Sequential probability ratio test (fishtest style): H0 diff = d0 against H1 diff = d1, error rates alpha and beta.


def sprt_bounds(alpha: float = 0.05, beta: float = 0.05) -> tuple[float, float]:
    """(lower, upper) log-likelihood-ratio bounds: ln(beta / (1 - alpha)), ln((1 - beta) / alpha) (±ln 19 at 0.05)."""
    return math.log(beta / (1 - alpha)), math.log((1 - beta) / alpha)


def sprt_llr(sum_d: float, sq_d: float, n: int, d0: float, d1: float) -> float:
    """Generalised SPRT log-likelihood ratio of H1 (mean d1) against H0 (mean d0) for n paired differences with
    their variance estimated from the data (normal approximation, as in fishtest's GSPRT):
    LLR = n (d1 - d0) (2 mean - d0 - d1) / (2 var)."""
    m, v = moments(sum_d, sq_d, n)
    if n < 2 or v <= 0:
        return 0.0
    return n * (d1 - d0) * (2 * m - d0 - d1) / (2 * v)


def sprt_state(llr: float, alpha: float = 0.05, beta: float = 0.05) -> str:
    """'H1' (accept the effect), 'H0' (accept no effect) or 'continue'."""
    lo, hi = sprt_bounds(alpha, beta)
    if llr >= hi:
        return "H1"
    if llr <= lo:
        return "H0"
    return "continue"


# ---------------------------------------------------------------------------------------------------------------
# The same statistics on Polars frames of per-game rows (games.parquet of `sim run --per-game`, or hand-built).


def seat_win_rates(games, players: int, level: float = 0.95):
    """Win rate per seat with its Wilson interval from per-game rows with columns ``status`` (0 = finished) and
    ``win_seat<i>`` (1 when seat i is among the winners). A win shared by k seats counts 1/k to each.

    Returns a frame: seat, wins, games, rate, lo, hi (one row per seat)."""
    import polars as pl

    cols = [f"win_seat{i}" for i in range(players)]
    fin = games.filter(pl.col("status") == 0)
    nwin = pl.sum_horizontal([pl.col(c).cast(pl.Int64) for c in cols])
    share = fin.select(
        [(pl.col(c).cast(pl.Float64) / pl.when(nwin > 0).then(nwin).otherwise(1)).alias(c) for c in cols]
    )
    n = fin.height
    rows = []
    for i, c in enumerate(cols):
        w = float(share[c].sum()) if n else 0.0
        lo, hi = wilson(w, n, level)
        rows.append({"seat": i, "wins": w, "games": n, "rate": w / n if n else 0.0, "lo": lo, "hi": hi})
    return pl.DataFrame(rows)


def paired_difference(a, b, level: float = 0.95) -> dict:
    """Mean of b - a over paired rows (two equal-length Polars Series or arrays): diff, se, ci, p."""
    import numpy as np

    x = np.asarray(b, dtype=np.float64) - np.asarray(a, dtype=np.float64)
    return paired_diff(float(x.sum()), float((x * x).sum()), len(x), level)


def with_holm(df, p: str = "p", alpha: float = 0.05):
    """``df`` with Holm-adjusted p-values (``p_holm``) and ``significant`` (p_holm <= alpha) added, row order kept."""
    import polars as pl

    adj = holm(df[p].to_list())
    return df.with_columns(
        pl.Series("p_holm", adj, dtype=pl.Float64),
        pl.Series("significant", [q <= alpha for q in adj], dtype=pl.Boolean),
    )


QUANTILES = (0.05, 0.25, 0.5, 0.75, 0.95)


def _trim(counts: list[int], lo: int) -> tuple[int, list[int]]:
    """Drop empty bins at both ends of a histogram; returns (new lo, counts)."""
    i = 0
    while i < len(counts) and counts[i] == 0:
        i += 1
    j = len(counts)
    while j > i and counts[j - 1] == 0:
        j -= 1
    return lo + i, counts[i:j]


def distribution(counts, lo: int, total: int | None = None, squares: int | None = None) -> dict:
    """mean, std, min, max, quantiles and trimmed histogram of a histogram (index + lo = value)."""
    counts = [int(c) for c in counts]
    n = sum(counts)
    if total is None:
        total = sum((lo + i) * c for i, c in enumerate(counts))
        squares = sum((lo + i) ** 2 * c for i, c in enumerate(counts))
    assert squares is not None, "a histogram's sum comes with its sum of squares"
    mean: float | None
    std: float | None
    mean, std = mean_std(int(total), int(squares), n)
    tlo, tc = _trim(counts, lo)
    if n == 0:  # nothing observed: no mean, spread or quantiles (not 0, not lo)
        mean = std = None
    return {
        "n": n,
        "mean": mean,
        "std": std,
        "min": tlo if tc else None,
        "max": tlo + len(tc) - 1 if tc else None,
        "quantiles": {f"p{int(q * 100):02d}": hist_quantile(counts, lo, q) if n else None for q in QUANTILES},
        "hist": {"lo": tlo, "counts": tc},
    }


def rate(wins: float, n: int) -> dict:
    """{wins, games, rate, ci95}: a win rate (0 when n = 0) with its 95% Wilson interval (shared wins count 1/k)."""
    lo, hi = wilson(wins, n)
    return {"wins": wins, "games": n, "rate": wins / n if n else 0.0, "ci95": [lo, hi]}
