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
interval, and whether each holds for skill (`skill_verdicts`: every rung rated above the reference table against it,
by the three verdicts of `sim.stats.verdict` at ``ALPHA_TREND`` = 0.05, Holm over figures and rungs).
"""

from __future__ import annotations

import math
import warnings
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from sim.stats.aggregate import WIN_UNITS
from sim.stats.metrics import wilson

ELO = 400.0 / math.log(10.0)
ALPHA = 1e-4  # choix's regularisation: keeps a rung that never wins finite, negligible otherwise
BOOT = 200
ALPHA_TREND = 0.05
SEAT_MARGIN = 0.01  # seats equal within 1 percentage point of the fair share each


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
        # what every replicate of the bootstrap shares, built once (each fit re-derived them: most of a ladder's
        # report time): the pair counts as patterns x R*R matrices, each table's rungs, its patterns' win weights
        # and their squares off the fair share (`explained`)
        self.flat = [c.reshape(len(c), r * r) for c in self.contrib]
        self.rungs = [np.asarray(t.rungs) for t in tables]
        self.weights = [win_weights(t) for t in tables]
        self.off_fair = [(y - 1.0 / len(t.rungs)) ** 2 for y, t in zip(self.weights, tables)]

    def pairs(self, counts: list[np.ndarray] | None = None) -> np.ndarray:
        cs = counts if counts is not None else [t.counts for t in self.tables]
        out = np.zeros((self.r, self.r))
        for c, k in zip(self.flat, cs):  # (pair counts are halves: exact sums in any order)
            out += (k.astype(float) @ c).reshape(self.r, self.r)
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
    for rungs, k, y, off in zip(design.rungs, cs, design.weights, design.off_fair):
        w = np.exp(th[rungs] - th[rungs].max())
        p = w / w.sum()
        sse += float((k[:, None] * (y - p[None, :]) ** 2).sum())
        sst += float((k[:, None] * off).sum())
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


def rate_figure(successes: float, n: int, offset: float = 0.0) -> dict:
    """A win-rate balance figure of ``n`` finished games with ``successes`` wins (shares of a game), minus ``offset``
    (the fair share, for the first-player advantage): {value, ci95 (Wilson), se (its half-width / 1.96), unit, n}."""
    p = successes / n if n else math.nan
    lo, hi = wilson95(successes, n)
    return {
        "value": p - offset,
        "ci95": [lo - offset, hi - offset],
        "se": (hi - lo) / (2 * 1.96),
        "unit": "share",
        "n": n,
    }


def length_figure(mean: float, se: float, n: int) -> dict:
    """The game-length balance figure: mean turns of ``n`` finished games with its standard error (normal 95%)."""
    return {"value": mean, "ci95": [mean - 1.96 * se, mean + 1.96 * se], "se": se, "unit": "turns", "n": n}


def balance_figures(values: dict[str, np.ndarray], finished: np.ndarray, players: int, team: bool) -> dict[str, dict]:
    """The headline balance figures of one mono table from its per-game numerators (`sim.play.ladder`): each
    {value, ci95, se, unit}. Competitive: first_player_advantage (start player's win rate - 1/players, Wilson),
    seat_spread (`seat_spread`), and where the table recorded the game's arc comeback (games won by a seat once alone
    last) and last_at_half_wins (among games with a seat alone last at half-time, the share it won), Wilson, unit
    "rate" (a share of games, not a difference from a fair share); team:
    team_win_rate per role (Wilson); both: length_turns (mean turns, normal)."""
    fin = finished.astype(bool)
    n = int(fin.sum())
    out: dict[str, dict] = {}

    def rate_fig(successes: float, offset: float = 0.0) -> dict:
        return rate_figure(successes, n, offset)

    if team:
        for k, v in values.items():
            if k.startswith("team."):
                out[f"team_win_rate.{k[5:]}"] = rate_fig(float(v[fin].sum()))
    else:
        out["first_player_advantage"] = rate_fig(float(values["first_player.win"][fin].sum()) / WIN_UNITS, 1 / players)
        wins = [float(values[f"win.seat{s}"][fin].sum()) / WIN_UNITS for s in range(players)]
        out["seat_spread"] = seat_spread(wins, n, players)
        if "arc.comeback" in values:  # the game's arc (issue 39): does it hold for skill?
            out["comeback"] = dict(rate_fig(float(values["arc.comeback"][fin].sum())), unit="rate")
            last = values["arc.last_at_half_wins"][fin]
            out["last_at_half_wins"] = _rate_over(last[last >= 0])
    t = values["length.turns"][fin].astype(float)
    se = float(t.std(ddof=1) / math.sqrt(n)) if n > 1 else math.nan
    out["length_turns"] = length_figure(float(t.mean()) if n else math.nan, se, n)
    return out


def _rate_over(x: np.ndarray) -> dict:
    """A share of 0/1 values ``x`` with its Wilson 95% interval, as a balance figure (NaN over no game)."""
    n = len(x)
    k = float(x.sum())
    lo, hi = wilson95(k, n)
    return {"value": k / n if n else math.nan, "ci95": [lo, hi], "se": (hi - lo) / (2 * 1.96), "unit": "rate", "n": n}


def _spread_games_in_all(r: dict) -> int | None:
    """The games in all a table would need to decide its seat spread (`seat_spread` gives those beyond its ``n``;
    the other figures' verdicts count them in all)."""
    more = r.get("more_games")
    return None if more is None else more + (r.get("n") or 0)


def seat_spread(wins: list[float], n: int, players: int, margin: float = SEAT_MARGIN) -> dict:
    """Seat spread of one table: ``wins`` per seat (shares of a game, adding up to the finished games ``n``).

    value: highest minus lowest seat win rate (as observed). ci95: from simultaneous Wilson intervals of the seats'
    win rates (Bonferroni, each at 1 - 0.05 / players): [max(0, highest lower end - lowest upper end), highest
    upper end - lowest lower end]. Whenever every seat's interval holds its true rate (at least 95% of the time,
    under any dependence), the true spread lies in it, so it covers at least at its stated rate, also for equal
    seats (true spread 0), where a bootstrap of the highest-minus-lowest does not. p_equal: chi-square test of
    equal seats (scipy.stats.chisquare on the win counts). within: the largest distance of a seat's interval end
    from the fair share (every seat within +/-``margin`` of it: the seats are equal within the margin, an
    intersection-union equivalence test at 5%). more_games: about how many games the table would need for that to
    be decided, when the largest seat deviation is inside the margin (None otherwise)."""
    from scipy import stats

    fair = 1 / players
    if n <= 0:
        return {"value": math.nan, "ci95": [math.nan, math.nan], "se": math.nan, "unit": "share", "p_equal": None}
    rates = [w / n for w in wins]
    level = 1 - 0.05 / players
    z = float(stats.norm.isf((1 - level) / 2))
    bounds = [wilson(w, n, level) for w in wins]
    lo, hi = [b[0] for b in bounds], [b[1] for b in bounds]
    p_equal = float(stats.chisquare(wins).pvalue) if sum(wins) > 0 else 1.0
    within = max(max(abs(h - fair) for h in hi), max(abs(fair - x) for x in lo))
    dev = max(abs(r - fair) for r in rates)
    half = max((h - x) / 2 for x, h in zip(lo, hi))
    more = None
    if within >= margin and dev < margin and half > 0:
        more = max(int(math.ceil(n * (half / (margin - dev)) ** 2)) - n, 1)
    return {
        "value": max(rates) - min(rates),
        "ci95": [max(0.0, max(lo) - min(hi)), max(hi) - min(lo)],
        "se": half / z,
        "unit": "share",
        "p_equal": p_equal,
        "within": within,
        "max_deviation": dev,
        "more_games": more,
        "n": n,
    }


def _figure_margin(key: str, ref_value: float, margins: dict[str, float] | None) -> float:
    """A balance figure's equivalence margin (sim.stats.verdict): rates 1 percentage point, length 2% of the
    reference; ``margins`` overrides by figure (percentage points for the rates)."""
    from sim.stats import verdict as V

    kind = "turns" if key == "length_turns" else "rate"
    return V.margin_for(key, kind, margins).value(ref_value)


def skill_verdicts(
    figures: dict[str, list[dict]],
    x: list[float],
    reference: int,
    alpha: float = ALPHA_TREND,
    margins: dict[str, float] | None = None,
    paired: Callable[[str, int, int], tuple[float, float, int] | None] | None = None,
) -> dict[str, dict]:
    """Does each balance figure hold for skill? ``figures``: per figure, one row per rung's mono table ({rung,
    value, se, ...}; seat_spread rows from `seat_spread`), rungs in the order of ``x`` (their skill, weakest first);
    ``reference``: the index of the scripted table the figures are judged against (the scenario's own players).

    Every rung rated above the reference is compared with it (`sim.stats.verdict`: the difference with the
    standard error of the per-game differences when ``paired(figure, rung, reference)`` gives them as (difference,
    standard error, games): the tables play the same games, common random numbers; else of two independent
    tables; the two-sided test and the TOST at the figure's margin), all
    Holm-corrected together, difference tests and equivalence tests each as one family over every figure and rung;
    seat spread is judged at each rung on its own (its chi-square test of equal seats in the family of difference
    tests; seats equal when every seat's simultaneous interval lies within the margin of the fair share). The
    figure's verdict is the one at the strongest rung. Returns per figure {"verdict": words, "kind", "at": the
    strongest rung, "reference": its rung, "margin", "per_rung": [{rung, kind, estimate, ci95, p_holm,
    p_equiv_holm, more_games}]}."""
    from sim.stats import verdict as V
    from sim.stats.metrics import MIN_GAMES_FOR_TESTS, diff_test, holm

    above = [i for i in range(len(x)) if i != reference and x[i] > x[reference]]
    tests: list[dict] = []
    for key, rows in figures.items():
        ref = rows[reference]
        for i in range(len(rows)) if key == "seat_spread" else above:
            r = rows[i]
            if key == "seat_spread":
                tests.append({"key": key, "i": i, "p": r.get("p_equal") if r.get("p_equal") is not None else 1.0})
                continue
            m = _figure_margin(key, ref["value"], margins)
            pd = paired(key, i, reference) if paired is not None else None
            if pd is not None:
                d, se, n_pairs = pd
                r = dict(r, n=n_pairs)
            else:
                d = r["value"] - ref["value"]
                se = math.sqrt(r["se"] ** 2 + ref["se"] ** 2)
            p = diff_test(d, se)
            tests.append(
                {"key": key, "i": i, "d": d, "se": se, "m": m, "p": p, "pe": V.tost_p(d, se, m), "n": r.get("n")}
            )
    for t, q in zip(tests, holm([t["p"] for t in tests])):
        t["p_holm"] = q
    eq = [t for t in tests if "pe" in t]
    for t, q in zip(eq, holm([t["pe"] for t in eq])):
        t["pe_holm"] = q
    out: dict[str, dict] = {}
    for key, rows in figures.items():
        per = []
        for t in (t for t in tests if t["key"] == key):
            r = rows[t["i"]]
            if key == "seat_spread":
                m = margins.get(key, 100 * SEAT_MARGIN) / 100 if margins else SEAT_MARGIN
                if r.get("within", math.inf) < m:
                    kind = V.UNCHANGED
                elif t["p_holm"] <= alpha and r["ci95"][0] >= m:  # the spread's interval past the margin
                    kind = V.CHANGED
                else:
                    kind = V.CANNOT_TELL
                more = _spread_games_in_all(r) if kind == V.CANNOT_TELL else None
                per.append(
                    {
                        "games": r.get("n"),
                        "rung": r["rung"],
                        "kind": kind,
                        "estimate": r["value"],
                        "ci95": r["ci95"],
                        "margin": m,
                        "p_holm": t["p_holm"],
                        "p_equiv_holm": None,
                        "more_games": more,
                    }
                )
                continue
            v = V.judge(t["d"], t["se"], t["m"], t.get("n") or 0, t["p_holm"], t["pe_holm"], alpha, t["p"], t["pe"])
            more = v.more_games
            if more is not None:
                more = v.games + more  # the games a table would need in all (both tables play them)
            per.append(
                {
                    "games": t.get("n"),
                    "rung": r["rung"],
                    "kind": v.kind,
                    "estimate": v.estimate,
                    "ci95": list(v.ci95),
                    "margin": v.margin,
                    "p_holm": t["p_holm"],
                    "p_equiv_holm": t["pe_holm"],
                    "more_games": more,
                }
            )
        strongest = max(range(len(x)), key=lambda i: x[i])
        head = next((p for p in per if p["rung"] == rows[strongest]["rung"]), None)
        for row_v in per:  # a verdict from a handful of games is noise called certainty
            if (row_v.get("games") or MIN_GAMES_FOR_TESTS) < MIN_GAMES_FOR_TESTS:
                row_v["kind"], row_v["more_games"] = V.CANNOT_TELL, None
        out[key] = {
            "at": rows[strongest]["rung"],
            "reference": rows[reference]["rung"],
            "kind": head["kind"] if head else None,
            "margin": head["margin"] if head else None,
            "per_rung": per,
            "verdict": skill_words(key, head, rows[reference]["rung"], rows[strongest]["rung"]),
        }
    return out


CLOSE_SKILL = {"Elo": 35.0, "points": 5.0}  # a strongest rung this close to the reference is barely more skilled


def close_words(gap: float, unit: str, reference: str, strongest: str) -> str:
    """A note where the strongest rung is rated barely above the reference (less than `CLOSE_SKILL` in ``unit``,
    Elo: 35 Elo is a 55% head-to-head): a verdict between two players of about equal skill says little about
    skill; stronger rungs (search, a learned player) would. Empty otherwise."""
    if gap <= 0 or gap >= CLOSE_SKILL.get(unit, 0.0):
        return ""
    return (
        f"Note: {strongest}, the strongest rung, is rated only {gap:.0f} {unit} above {reference}, the table the "
        "figures are judged against, so these verdicts say little about skill (stronger rungs, such as search, "
        "would tell more)."
    )


def spread_tell(margin: str, games: int | None, more: int | None) -> str:
    """The seat spread's "cannot tell yet" with the games it was measured on and, where the seats lie within the
    margin by their estimates, about how many games a table would decide it; where one lies past it by its
    estimate only, what more games would tell (Galleon's and Turnwall's lines said no count at all)."""
    from sim.stats import verdict as V

    on = f", measured on {games:,} games a table" if games else ""
    if more:
        return f"cannot tell yet at ±{margin}{on}: {V.about_games(more)} games a table in all would decide"
    return (
        f"cannot tell yet at ±{margin}{on}: a seat's win rate is past the margin from the fair share by its "
        "estimate, not yet by its interval; more games would tell whether the seats differ"
    )


def size_text(key: str, v: float, sign: str = "") -> str:
    """A skill figure's size in its unit: "1.0 points" (a rate, ``v`` a fraction) or "2.2 turns" (length_turns);
    ``sign`` "+" writes the sign of a change ("+3.1 points")."""
    return f"{v:{sign}.1f} turns" if key == "length_turns" else f"{100 * v:{sign}.1f} points"


def skill_words(key: str, head: dict | None, reference: str, strongest: str) -> str:
    """A figure's skill verdict in words (see `skill_verdicts`)."""
    from sim.stats import verdict as V
    from sim.stats.metrics import MIN_GAMES_FOR_TESTS

    if head is None:
        # the strongest rung is the reference itself, or ties with it (every co-operative rung won alike)
        return f"nothing to compare: no rung is rated above {reference}, the table it is judged against"
    if (head.get("games") or MIN_GAMES_FOR_TESTS) < MIN_GAMES_FOR_TESTS:
        return (
            f"too few games to judge ({head['games']} a table; the tests need at least {MIN_GAMES_FOR_TESTS}): "
            "play more with --balance-games"
        )
    m = size_text(key, head["margin"])
    more = head.get("more_games")
    tell = f"cannot tell yet at ±{m}" + (f": {V.about_games(more)} games a table in all would decide" if more else "")
    if key == "seat_spread":
        if head["kind"] == V.UNCHANGED:
            return f"seats equal within ±{m} of the fair share at {strongest}"
        if head["kind"] == V.CHANGED:
            return f"seats differ at {strongest}: spread {100 * head['estimate']:.1f} points (p {head['p_holm']:.2g} after Holm)"
        return spread_tell(m, head.get("games"), more) + f" (at {strongest})"
    if head["kind"] == V.UNCHANGED:
        return f"holds for skill: unchanged within ±{m} from {reference} to {strongest}"
    if head["kind"] == V.CHANGED:
        return f"changes with skill: {size_text(key, head['estimate'], '+')} at {strongest} against {reference}"
    return tell + f" (from {reference} to {strongest})"
