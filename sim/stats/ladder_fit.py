"""The skill ladder's statistics: ratings with intervals, head-to-head, luck versus skill, balance at each rung.

Model. Bradley-Terry on each game's winner-over-loser pairs (with 2 players, Bradley-Terry on the games), fitted by
choix (a well-kept library: ``ilsr_pairwise_dense``, maximum likelihood by iterative Luce spectral ranking) on the
tables' pair counts. Why pairs and not Plackett-Luce on a finishing order: these games rank only the winner (Moor,
Galleon, Turnwall and the Head Haunter have no rule that orders the losers; losers' scores are not a finishing
order). Why not Luce's choice model on the winner (the first stage of Plackett-Luce, choix's ``ilsr_top1``): choix
takes it as one Python tuple per game, too slow for the bootstrap below, while the pairs aggregate into an R x R
matrix; under Luce the winner of two rungs, given one of them won, is Bradley-Terry, so both estimate the same
strengths (a test: they agree within 0.06 logits on synthetic Luce outcomes at 3 players; the bootstrap takes care
of the pairs of one game not being independent). Co-winners split the game (half a win each way).
Ratings are on the Elo scale (``ELO = 400 / ln 10`` points per logit unit), anchored at the random rung = 0.

Intervals. A percentile bootstrap over games: each replicate resamples every table's games with replacement (a
multinomial draw over its winner patterns, exact for this statistic) and refits; the 2.5 and 97.5 percentiles of
``BOOT`` replicates. The bootstrap rather than the Fisher information because the luck figures (variance
explained, spread) are functions of the whole fit whose intervals the bootstrap gives the same way.

Head to head (descriptive): between rungs i and j, the share of *decided pairs* i won: games at which both sat and
one of them won while the other did not (co-winners half each way).

Luck versus skill (each defined where it is computed): the best rung's head-to-head win rate against random and
against the next rung; the rating spread (best - worst, Elo) and how often the stronger of two rungs that far apart
wins a head-to-head (``1 / (1 + 10^(-spread/400))``); the share of outcome variance the rungs' strength explains.

Balance at each rung (mono tables): first-player advantage, seat spread, team win rate, game length, each with its
interval, and a trend test across rungs: weighted least squares of the figure on the rung's rating (weights 1 /
variance of the figure), slope z-test, two-sided, ``ALPHA_TREND`` = 0.05.
"""

from __future__ import annotations

import math
import warnings
from dataclasses import dataclass

import numpy as np

from sim.stats.aggregate import WIN_UNITS
from sim.stats.metrics import wilson

ELO = 400.0 / math.log(10.0)
ALPHA = 1e-4  # choix's regularisation: keeps a rung that never wins finite, negligible otherwise
BOOT = 200
ALPHA_TREND = 0.05


@dataclass(frozen=True)
class TableCounts:
    """One mixed table: ``rungs[s]`` the rung at seat s; ``masks`` the distinct winner patterns (bit s: seat s won)
    of its finished games and ``counts`` how many games ended with each (int64)."""

    rungs: tuple[int, ...]
    masks: np.ndarray
    counts: np.ndarray


def winner_patterns(shares: np.ndarray, finished: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(masks, counts) of the finished games' winner patterns from per-game win shares int[games, seats]."""
    s = shares[finished]
    bits = (s > 0).astype(np.int64)
    m = (bits << np.arange(s.shape[1], dtype=np.int64)[None, :]).sum(axis=1)
    masks, counts = np.unique(m, return_counts=True)
    return masks.astype(np.int64), counts.astype(np.int64)


def _contrib(rungs: tuple[int, ...], mask: int, r: int) -> np.ndarray:
    """Pair counts (R x R: [i, j] = wins of rung i over rung j) of one game with winner pattern ``mask``."""
    n = len(rungs)
    out = np.zeros((r, r))
    win = [(mask >> s) & 1 for s in range(n)]
    for a in range(n):
        for b in range(n):
            if a == b or rungs[a] == rungs[b]:
                continue
            if win[a] and not win[b]:
                out[rungs[a], rungs[b]] += 1.0
            elif win[a] and win[b]:
                out[rungs[a], rungs[b]] += 0.5
    return out


class Design:
    """The mixed tables as matrices: per table, per winner pattern, its pair counts, so a fit of any counts (the
    observed or a bootstrap replicate) is a sum of small matrices."""

    def __init__(self, tables: list[TableCounts], r: int):
        self.tables = tables
        self.r = r
        self.contrib = [np.stack([_contrib(t.rungs, int(m), r) for m in t.masks]) for t in tables]

    def pairs(self, counts: list[np.ndarray] | None = None) -> np.ndarray:
        cs = counts if counts is not None else [t.counts for t in self.tables]
        out = np.zeros((self.r, self.r))
        for c, k in zip(self.contrib, cs):
            out += np.tensordot(k.astype(float), c, axes=1)
        return out

    def resample(self, rng: np.random.Generator) -> list[np.ndarray]:
        """A bootstrap replicate: each table's games drawn with replacement (multinomial over its patterns)."""
        return [rng.multinomial(int(t.counts.sum()), t.counts / t.counts.sum()) for t in self.tables]


def win_weights(t: TableCounts) -> np.ndarray:
    """float64[masks, seats]: each game pattern's win weight per seat (1 / co-winners for a winner, else 0)."""
    n = len(t.rungs)
    bits = ((t.masks[:, None] >> np.arange(n)[None, :]) & 1).astype(float)
    return bits / np.maximum(bits.sum(axis=1, keepdims=True), 1)


def fit_strengths(pairs: np.ndarray) -> np.ndarray:
    """Logit strengths (float64[R], mean 0) of Bradley-Terry on the pair counts ``pairs`` (float64[R, R]: [i, j] =
    games rung i won while rung j sat at the table and lost, co-winners half each way; `Design.pairs`), fitted by
    choix (``ilsr_pairwise_dense``: iterative Luce spectral ranking, maximum likelihood; ``ALPHA`` its
    regularisation, which keeps a rung that never wins finite). Raises RuntimeError if choix does not converge."""
    import choix

    try:
        th = choix.ilsr_pairwise_dense(np.asarray(pairs, float), alpha=ALPHA, tol=1e-10, max_iter=10_000)
    except RuntimeError as e:  # choix raises RuntimeError when it does not converge
        raise RuntimeError(f"ladder fit did not converge: {e}") from e
    th = np.asarray(th, float)
    return th - th.mean()


def fit(pairs: np.ndarray, anchor: int) -> np.ndarray:
    """Elo ratings (float64[R]) from the pair counts ``pairs``, rung ``anchor`` = 0 (`fit_strengths` on the Elo
    scale)."""
    th = fit_strengths(pairs)
    return (th - th[anchor]) * ELO


def head_to_head(pairs: np.ndarray) -> np.ndarray:
    """[i, j]: the share of the decided pairs between rungs i and j that i won (nan where they never met)."""
    tot = pairs + pairs.T
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.where(tot > 0, pairs / tot, np.nan)


def explained(elo: np.ndarray, design: Design, counts: list[np.ndarray] | None = None) -> float:
    """Share of outcome variance the rungs' strength explains: 1 - SSE / SST over every seat of every finished game
    of the mixed tables, the outcome y its win share (1 / co-winners), the prediction its Luce winning chance
    ``exp(theta) / sum over the table``, SST around the fair share 1 / players (no skill: every seat alike)."""
    sse = sst = 0.0
    th = elo / ELO
    cs = counts if counts is not None else [t.counts for t in design.tables]
    for t, k in zip(design.tables, cs):
        n = len(t.rungs)
        w = np.exp(th[list(t.rungs)] - th[list(t.rungs)].max())
        p = w / w.sum()
        y = win_weights(t)
        sse += float((k[:, None] * (y - p[None, :]) ** 2).sum())
        sst += float((k[:, None] * (y - 1.0 / n) ** 2).sum())
    return 1.0 - sse / sst if sst > 0 else float("nan")


def win_probability(spread: float) -> float:
    """How often the stronger of two rungs ``spread`` Elo apart wins a head-to-head (Bradley-Terry)."""
    return 1.0 / (1.0 + 10.0 ** (-spread / 400.0))


def _pct(a: np.ndarray) -> list[float]:
    a = a[np.isfinite(a)]
    return [float(np.percentile(a, 2.5)), float(np.percentile(a, 97.5))] if len(a) else [math.nan, math.nan]


def rate(tables: list[TableCounts], names: list[str], anchor: int, seed: int, boot: int = BOOT) -> dict:
    """Ratings and luck-versus-skill figures of the mixed tables, with bootstrap intervals (module docstring).
    Returns a JSON-ready dict: ratings [{rung, elo, ci95, pairs}], head_to_head {matrix, ci_low, ci_high, pairs},
    luck (best_vs_random, best_vs_next, spread_elo, stronger_wins, explained: each {value, ci95}), order (rung
    indices strongest first), best, next, tied_with_best (the rungs whose head-to-head 95% interval against the best
    holds 50%: the strongest is then a tie, not one rung), never_won, boot, method."""
    r = len(names)
    d = Design(tables, r)
    pairs = d.pairs()
    elo = fit(pairs, anchor)
    h2h = head_to_head(pairs)
    order = [int(i) for i in np.argsort(-elo, kind="stable")]
    best, nxt = order[0], order[1] if r > 1 else order[0]

    def luck(e: np.ndarray, h: np.ndarray, counts: list[np.ndarray] | None) -> list[float]:
        spread = float(e.max() - e.min())
        return [h[best, anchor], h[best, nxt], spread, win_probability(spread), explained(e, d, counts)]

    point = luck(elo, h2h, None)
    won = np.zeros(r)
    for t in tables:
        np.add.at(won, np.asarray(t.rungs), t.counts.astype(float) @ win_weights(t))
    rng = np.random.default_rng([seed & 0xFFFFFFFF, 23])
    be = np.empty((boot, r))
    bh = np.empty((boot, r, r))
    bl = np.empty((boot, len(point)))
    for b in range(boot):
        c = d.resample(rng)
        p = d.pairs(c)
        be[b] = fit(p, anchor)
        bh[b] = head_to_head(p)
        bl[b] = luck(be[b], bh[b], c)
    with warnings.catch_warnings():  # the diagonal (a rung against itself) is all nan
        warnings.simplefilter("ignore", RuntimeWarning)
        lo = np.nanpercentile(bh, 2.5, axis=0)
        hi = np.nanpercentile(bh, 97.5, axis=0)
    keys = ("best_vs_random", "best_vs_next", "spread_elo", "stronger_wins", "explained")
    # the rungs the games cannot tell from the best: its head-to-head share against them has a 95% interval that
    # holds 50% (or they decided no pair), so naming one strongest would be noise; `tied_with_best`, strongest first
    tied = [
        names[j]
        for j in order[1:]
        if not (np.isfinite(lo[best, j]) and np.isfinite(hi[best, j])) or lo[best, j] <= 0.5 <= hi[best, j]
    ]
    return {
        "method": "Bradley-Terry on each game's winner-over-loser pairs (choix ilsr_pairwise_dense), maximum likelihood; "
        f"95% percentile bootstrap over games ({boot} replicates); Elo scale, {names[anchor]} = 0",
        "boot": boot,
        "order": order,
        # rungs that won no game at the mixed tables: the likelihood puts them infinitely far below the others, so
        # their distance is held by the ridge (ALPHA), not by the games; ratings measured from them are lower bounds
        "never_won": [names[i] for i in range(r) if won[i] == 0],
        "best": best,
        "next": nxt,
        "tied_with_best": tied,
        "ratings": [
            {
                "rung": names[i],
                "elo": float(elo[i]),
                "ci95": _pct(be[:, i]),
                "pairs": float(pairs[i].sum() + pairs[:, i].sum()),
            }
            for i in range(r)
        ],
        "head_to_head": {
            "matrix": _nan_none(h2h),
            "ci_low": _nan_none(lo),
            "ci_high": _nan_none(hi),
            "pairs": (pairs + pairs.T).tolist(),
        },
        "luck": {k: {"value": _num(v), "ci95": _pct(bl[:, j])} for j, (k, v) in enumerate(zip(keys, point))},
    }


def _num(v: float) -> float | None:
    return None if v is None or not math.isfinite(v) else float(v)


def _nan_none(a: np.ndarray) -> list[list[float | None]]:
    return [[_num(float(x)) for x in row] for row in a]


# --- balance at each rung ---------------------------------------------------------------------------------------


def wilson95(successes: float, n: int) -> tuple[float, float]:
    """The Wilson 95% interval (`sim.stats.metrics.wilson`) with rounding dust at 0 and 1 snapped (0 wins: 0, not
    1e-19)."""
    lo, hi = wilson(successes, n)
    return (0.0 if lo < 1e-12 else lo), (1.0 if hi > 1 - 1e-12 else hi)


def boot_values(x: np.ndarray, stat, seed: int, boot: int = BOOT) -> np.ndarray:
    """``stat(x[rows])`` of ``boot`` bootstrap resamples of the rows (games) of ``x``."""
    rng = np.random.default_rng([seed & 0xFFFFFFFF, 24])
    n = len(x)
    return np.array([stat(x[rng.integers(0, n, n)]) for _ in range(boot)])


def balance_figures(
    values: dict[str, np.ndarray], finished: np.ndarray, players: int, team: bool, seed: int
) -> dict[str, dict]:
    """The headline balance figures of one mono table from its per-game numerators (`sim.play.ladder`): each
    {value, ci95, se, unit}. Competitive: first_player_advantage (start player's win rate - 1/players, Wilson),
    seat_spread (highest - lowest seat win rate, bias-corrected, basic bootstrap interval over games); team: team_win_rate per role (Wilson);
    both: length_turns (mean turns, normal)."""
    fin = finished.astype(bool)
    n = int(fin.sum())
    out: dict[str, dict] = {}

    def rate_fig(successes: float, offset: float = 0.0) -> dict:
        p = successes / n if n else math.nan
        lo, hi = wilson95(successes, n)
        return {"value": p - offset, "ci95": [lo - offset, hi - offset], "se": (hi - lo) / (2 * 1.96), "unit": "share"}

    if team:
        for k, v in values.items():
            if k.startswith("team."):
                out[f"team_win_rate.{k[5:]}"] = rate_fig(float(v[fin].sum()))
    else:
        out["first_player_advantage"] = rate_fig(float(values["first_player.win"][fin].sum()) / WIN_UNITS, 1 / players)
        shares = np.stack([values[f"win.seat{s}"][fin] for s in range(players)], axis=1) / WIN_UNITS

        def spread(x: np.ndarray) -> float:
            m = x.mean(axis=0)
            return float(m.max() - m.min())

        # highest minus lowest of N noisy rates is biased upwards (equal seats still spread by chance): the
        # bootstrap's bias correction, 2 * estimate - mean of the replicates, with the basic bootstrap interval
        raw = spread(shares)
        bv = boot_values(shares, spread, seed)
        lo, hi = _pct(bv)
        out["seat_spread"] = {
            "value": 2 * raw - float(bv.mean()),
            "ci95": [2 * raw - hi, 2 * raw - lo],
            "se": float(bv.std(ddof=1)),
            "unit": "share",
            "raw": raw,
        }
    t = values["length.turns"][fin].astype(float)
    se = float(t.std(ddof=1) / math.sqrt(n)) if n > 1 else math.nan
    m = float(t.mean()) if n else math.nan
    out["length_turns"] = {"value": m, "ci95": [m - 1.96 * se, m + 1.96 * se], "se": se, "unit": "turns"}
    return out


def trend(x: list[float], ys: list[float], ses: list[float], alpha: float = ALPHA_TREND) -> dict:
    """Trend of a figure ``ys`` (standard errors ``ses``) across rungs of skill ``x`` (Elo): weighted least squares
    slope, z-test (scipy.stats.norm), verdict "holds within noise" (p >= alpha), else "grows with skill" when the
    figure moves away from zero as skill rises, "shrinks with skill" when towards zero (for a figure that is never
    negative, length or a share: when it rises or falls)."""
    from scipy import stats

    xa, ya, sa = (np.asarray(v, float) for v in (x, ys, ses))
    ok = np.isfinite(xa) & np.isfinite(ya) & np.isfinite(sa) & (sa > 0)
    if ok.sum() < 3 or np.ptp(xa[ok]) == 0:
        return {
            "slope_per_100_elo": None,
            "slope_se": None,
            "p": None,
            "verdict": "too few rungs to tell (at least 3 needed)",
            "alpha": alpha,
        }
    w = 1 / sa[ok] ** 2
    xm = float((w * xa[ok]).sum() / w.sum())
    sxx = float((w * (xa[ok] - xm) ** 2).sum())
    b = float((w * (xa[ok] - xm) * ya[ok]).sum() / sxx)
    se = 1 / math.sqrt(sxx)
    p = float(2 * stats.norm.sf(abs(b / se)))
    a0 = float((w * ya[ok]).sum() / w.sum()) - b * xm  # the fitted line's value at x = 0
    lo, hi = a0 + b * float(xa[ok].min()), a0 + b * float(xa[ok].max())
    if p >= alpha:
        verdict = "holds within noise"
    else:  # the fitted figure at the strongest rung further from zero than at the weakest: it grows
        verdict = "grows with skill" if abs(hi) > abs(lo) else "shrinks with skill"
    return {"slope_per_100_elo": b * 100, "slope_se": se * 100, "p": p, "verdict": verdict, "alpha": alpha}
