"""Statistics used by the reports: small, tested functions (floats only here, at the end of the pipeline)."""
from __future__ import annotations

import math

from scipy import stats


def z_value(level: float = 0.95) -> float:
    """Two-sided standard-normal quantile for a confidence ``level`` (1.959964 for 0.95)."""
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
