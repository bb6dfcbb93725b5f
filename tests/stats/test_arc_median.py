"""The arc's "winner ahead for good from" median gets a 95% interval from its histogram (issue 39: every arc measure
with an interval): the same order statistics as the interval taken from the values themselves."""

from __future__ import annotations

import numpy as np

from sim.stats.arc import _hist_median_ci, _median_ci


def test_the_histogram_median_interval_is_the_values_one():
    rng = np.random.default_rng(5)
    for n in (2, 3, 10, 101, 5000):
        x = rng.integers(0, 31, n)
        h = np.bincount(x, minlength=31)
        assert _hist_median_ci(h) == [int(v) for v in _median_ci(x.astype(float))], n


def test_the_interval_narrows_around_the_median_and_holds_it():
    h = np.zeros(40, np.int64)
    h[20], h[21], h[22] = 100, 5000, 100
    assert _hist_median_ci(h) == [21, 21]
    h = np.full(40, 1000, np.int64)  # flat: the median 19 or 20, its interval a round either side at most
    lo, hi = _hist_median_ci(h)
    assert 18 <= lo <= 19 <= 20 <= hi <= 21
    assert _hist_median_ci(np.zeros(5, np.int64)) == [0, 0]
