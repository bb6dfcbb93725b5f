"""The seat spread of `sim compare`: B - A of the highest seat win rate minus the lowest, on common random numbers.

The seat spread is a function of the seats' win rates, not a mean of one number per game, so the paired z-test of
the other measures (`sim.stats.compare`) does not apply. Its difference is judged by a *paired bootstrap over game
indices*: each resample draws n game indices with replacement and takes both A's and B's outcome of every drawn
game, so the correlation the common random numbers create is kept. A game's part in both spreads is only its pair
of winner sets (A's winners, B's winners; a shared win split evenly, as the seat win rates split it), so the games
are folded into a joint table of those pairs (`JointWins`: integer counts, bounded memory, exact under any
chunking), and a resample of game indices is a multinomial draw of the table's cells: the same distribution as
drawing the indices themselves, at a cost that does not grow with the games played.

From B resamples (``RESAMPLES``, a generator seeded from the comparison's seed: the verdict is reproducible) of
d* = spread(B*) - spread(A*):
  - the 95% interval of the difference is the percentile interval (2.5% and 97.5% quantiles of d*);
  - the two-sided p-value of "no difference" is twice the smaller tail share of d* at 0 (the percentile interval's
    dual: 0 lies outside the (1 - alpha) interval exactly when p < alpha); it enters the Holm family of every
    compared measure;
  - the equivalence p-value at margin m is the larger of the shares of d* at or below -m and at or above +m: it is
    below alpha exactly when the whole (1 - 2 alpha) percentile interval lies inside (-m, +m) (TOST); Holm-adjusted
    with the other measures' equivalence tests;
  - "beyond the margin" (needed for "changed") is the share of d* on the near side of the margin.
Tail shares count (k + 1) / (B + 1), so no p-value is 0. The standard error (for the pages and for "about how many
more games would decide") is the standard deviation of d*; the unpaired one (for the pairing gain) comes from
resampling A's and B's games apart. Caveat: the spread takes a maximum and a minimum, so with seats near equal its
estimate leans upward on both sides; the paired difference largely cancels that lean, and the verdict asks its
interval, not the estimate, to clear the margin. Reference: B. Efron and R. J. Tibshirani, An Introduction to the
Bootstrap (1993), ch. 13 (percentile intervals) and 16 (bootstrap tests)."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

NAME = "seat_spread"  # the catalogue's key of the figure (`sim.model.catalogue`)
RESAMPLES = 10_000
BATCH = 1_000  # resamples drawn at once: bounds the memory of a table with many cells
STREAM = 0x5EA7  # the bootstrap's own stream of the comparison's seed (no other draw shares it)


def win_shares(players: int) -> np.ndarray:
    """float64[2**players, players]: the share of a game each seat won, by winner set (bit s = seat s won; a win
    shared by k seats is 1/k each, as the seat win rates count it; no winner: 0 each)."""
    masks = np.arange(2**players)
    bits = ((masks[:, None] >> np.arange(players)[None, :]) & 1).astype(np.float64)
    return bits / np.maximum(bits.sum(axis=1, keepdims=True), 1.0)


class JointWins:
    """Counts of the paired games by (A's winner set, B's winner set), games finished on both sides only:
    ``table`` int64[2**players_a, 2**players_b]."""

    def __init__(self, players_a: int, players_b: int):
        self.players = (players_a, players_b)
        self.table = np.zeros((2**players_a, 2**players_b), np.int64)

    def add(self, winners_a: np.ndarray, winners_b: np.ndarray, both: np.ndarray) -> None:
        """Fold one chunk in: ``winners_a`` / ``winners_b`` the winner bit masks of each game (int, one per game),
        ``both`` bool: the game finished on both sides."""
        a = winners_a[both].astype(np.int64)
        b = winners_b[both].astype(np.int64)
        k = self.table.shape[1]
        self.table += np.bincount(a * k + b, minlength=self.table.size).reshape(self.table.shape)


def seat_wins(table: np.ndarray, players: int, side: int) -> np.ndarray:
    """float64[players]: each seat's wins (shares of games) on side ``side`` (0: A, the rows; 1: B, the columns)."""
    return table.sum(axis=1 - side).astype(np.float64) @ win_shares(players)


def spread(wins: np.ndarray, n: int) -> float:
    """Highest minus lowest seat win rate of seat wins ``wins`` over ``n`` games (0.0 over no game)."""
    return float((wins.max() - wins.min()) / n) if n else 0.0


@dataclass(frozen=True)
class SpreadDiff:
    """The paired bootstrap of B - A of the seat spread (see the module docstring). ``a``, ``b``, ``diff``: the
    estimates (shares); ``replicates``: float64[resamples] d*, sorted; ``se``: their standard deviation;
    ``se_unpaired``: that of A and B resampled apart; ``n``: the paired games; ``identical``: every paired game had
    the same winners on both sides (d* is 0 throughout)."""

    a: float
    b: float
    diff: float
    replicates: np.ndarray
    se: float
    se_unpaired: float
    n: int
    identical: bool

    def _share(self, count: int) -> float:
        return (count + 1) / (len(self.replicates) + 1)

    def at_or_below(self, x: float) -> float:
        """Share of d* <= x (with the +1 of a bootstrap test)."""
        return self._share(int(np.searchsorted(self.replicates, x, side="right")))

    def at_or_above(self, x: float) -> float:
        """Share of d* >= x (with the +1 of a bootstrap test)."""
        return self._share(len(self.replicates) - int(np.searchsorted(self.replicates, x, side="left")))

    def interval(self, level: float = 0.95) -> list[float]:
        """The percentile interval of the difference at ``level``, clipped to [-1, 1]."""
        lo, hi = np.quantile(self.replicates, [(1 - level) / 2, (1 + level) / 2])
        return [max(-1.0, float(lo)), min(1.0, float(hi))]

    def p_diff(self) -> float:
        """Two-sided p-value of "B's spread = A's" (twice the smaller tail share at 0, at most 1)."""
        return min(1.0, 2 * min(self.at_or_below(0.0), self.at_or_above(0.0)))

    def p_equiv(self, m: float) -> float:
        """TOST p-value of |difference| < ``m``: the larger tail share beyond -m and +m."""
        return max(self.at_or_below(-m), self.at_or_above(m))

    def p_beyond(self, m: float) -> float:
        """One-sided p-value of |difference| <= ``m`` against its lying past the margin on the estimate's side."""
        return self.at_or_below(m) if self.diff >= 0 else self.at_or_above(-m)


def paired_bootstrap(
    table: np.ndarray, players: int, seed: int, resamples: int = RESAMPLES, batch: int = BATCH
) -> SpreadDiff:
    """The paired bootstrap of B - A of the seat spread from a joint table of winner sets (`JointWins.table`, both
    sides ``players`` seats), ``resamples`` multinomial draws of the table's cells from a generator seeded by
    ``seed`` (the comparison's). Raises ValueError for a table of another player count."""
    if table.shape != (2**players, 2**players):
        raise ValueError(f"joint table of shape {table.shape} is not one of {players} players a side")
    n = int(table.sum())
    shares = win_shares(players)
    a_est = spread(seat_wins(table, players, 0), n)
    b_est = spread(seat_wins(table, players, 1), n)
    rows, cols = np.nonzero(table)  # the cells that occur, in row-major order: a canonical order for the draws
    identical = bool(np.all(rows == cols))
    if n == 0 or identical:
        zero = np.zeros(resamples)
        return SpreadDiff(a_est, b_est, b_est - a_est, zero, 0.0, 0.0, n, identical or n == 0)
    p = table[rows, cols] / n
    sa, sb = shares[rows], shares[cols]
    pa, pb = table.sum(axis=1) / n, table.sum(axis=0) / n
    rng = np.random.default_rng([int(seed), STREAM])
    paired, apart = [], []
    for start in range(0, resamples, batch):
        k = min(batch, resamples - start)
        draw = rng.multinomial(n, p, size=k).astype(np.float64)
        paired.append(_spreads(draw @ sb, n) - _spreads(draw @ sa, n))
        da = rng.multinomial(n, pa, size=k).astype(np.float64) @ shares
        db = rng.multinomial(n, pb, size=k).astype(np.float64) @ shares
        apart.append(_spreads(db, n) - _spreads(da, n))
    reps = np.sort(np.concatenate(paired))
    return SpreadDiff(
        a_est, b_est, b_est - a_est, reps, float(reps.std(ddof=1)), float(np.concatenate(apart).std(ddof=1)), n, False
    )


def _spreads(wins: np.ndarray, n: int) -> np.ndarray:
    """Per resample (rows of seat wins), highest minus lowest seat win rate."""
    return (wins.max(axis=1) - wins.min(axis=1)) / n
