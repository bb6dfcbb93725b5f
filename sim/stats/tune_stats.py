"""A tune's numbers: each trial's target measures with their 95% intervals and its distance to each target (an
estimate with an interval), the Pareto front of several targets, the candidates confirmed, and which of them cannot
be told apart from the chosen one.

Distance: how far a measure's estimate lies from its target, 0 within a target's bounds (`Target.distance`), in
the measure's unit; its interval is the distance's range over the measure's 95% interval (0 at the low end when the
interval reaches the target). Score: the distances divided by the measure's per-game standard deviation, summed
over the targets, so targets in different units (a rate, a number of rounds) add up; with one target it orders the
trials as the distance does.

Telling candidates apart: the confirmation plays every candidate on the same fresh seed and game indices (common
random numbers), so their scores are compared game by game. Near a candidate's estimate its score is linear in the
per-game values (the delta method: each target contributes sign x value / sd, the sign saying on which side of the
target the estimate lies, 0 within its bounds), so the difference of two candidates' scores is the mean of per-game
differences, with a paired normal interval (`metrics.paired_diff`); the p-values of the candidates against the
chosen one are Holm-corrected (`metrics.holm`). A candidate whose corrected p exceeds 0.05 cannot be told apart.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from sim.model.scenario import Scenario
from sim.model.tune_spec import Target, Tune, TuneError
from sim.model.words import did_you_mean
from sim.stats import metrics
from sim.stats import sweep_table as table
from sim.stats.records import Estimate

ALPHA = 0.05


def resolve(tune: Tune) -> None:
    """Check every target's measure against the measures of the base scenario and of every validated extreme.
    Raises TuneError naming the target and the measures allowed."""
    qs = [table.quantities(sc) for sc in [tune.base, *tune.probes]]
    common = [n for n in qs[0] if all(n in q for q in qs)]
    for t in tune.targets:
        if t.measure not in common:
            raise TuneError(
                f"{t.source}: {t.measure!r} is not a measure of every trial; {did_you_mean(t.measure, common)}"
                f"allowed: {', '.join(common)}"
            )
        q = qs[0][t.measure]
        lo, hi = q.offset, 1.0 + q.offset  # a rate (less its fair share, for an advantage)
        if q.kind == "rate" and (t.low < lo - 1e-12 or t.high > hi + 1e-12):
            raise TuneError(
                f"{t.source}: {t.text!r} is outside what {t.measure} can be: allowed {100 * lo:g}%..{100 * hi:g}% "
                f"(a share {lo:g}..{hi:g}, or a percentage with %, e.g. {t.measure}=25%)"
            )


def measure_names(tune: Tune) -> list[str]:
    return [t.measure for t in tune.targets]


def _sd(q: table.Quantity, sums: dict) -> float:
    """The per-game standard deviation of quantity ``q`` at a point (0 when fewer than two games count)."""
    m = q.base
    n = sums["n"][m.name]
    _, var = metrics.moments(sums["s"][m.name] / m.scale, sums["q"][m.name] / (m.scale * m.scale), n)
    return math.sqrt(var)


def point_row(tune: Tune, sc: Scenario, sums: dict) -> dict[str, Any]:
    """A point's target numbers: {"measures": {name: {value, ci95, n}} (every measure of the point), "targets":
    [{measure, value, ci95, distance, distance_ci, sd}], "score", "ok"} (ok False when a target measure counts no
    game: the point has no distance)."""
    qs = table.quantities(sc)
    ms = table.point_measures(sc, sums, qs)
    out: list[dict[str, Any]] = []
    ok = True
    score = 0.0
    for t in tune.targets:
        v = Estimate.of(ms[t.measure])
        if v.value is None:
            ok = False
            out.append({"measure": t.measure, "value": None, "ci95": None, "distance": None, "distance_ci": None})
            continue
        d = t.distance(v.value)
        sd = _sd(qs[t.measure], sums)
        out.append(
            {
                "measure": t.measure,
                "value": v.value,
                "ci95": [v.lo, v.hi],
                "distance": d,
                "distance_ci": list(t.distance_interval(v.lo, v.hi)),
                "sd": sd,
            }
        )
        score += d / sd if sd > 0 else (0.0 if d == 0 else math.inf)
    return {"measures": ms, "targets": out, "score": score if ok else None, "ok": ok}


def pareto(distances: list[list[float]]) -> list[int]:
    """Indices of the rows not dominated by another (no other row as near on every target and nearer on one)."""
    out = []
    for i, a in enumerate(distances):
        dominated = any(
            all(b[k] <= a[k] for k in range(len(a))) and any(b[k] < a[k] for k in range(len(a)))
            for j, b in enumerate(distances)
            if j != i
        )
        if not dominated:
            out.append(i)
    return out


def candidates(rows: list[dict], k: int) -> list[int]:
    """Up to ``k`` of ``rows`` (trial rows with ``key``, ``score``, ``distances``) to confirm, as positions in
    ``rows``: one per setting (its first trial), the Pareto front first (several targets) ordered by score, then
    the others by score; ties by trial order."""
    seen: dict[str, int] = {}
    for i, r in enumerate(rows):
        if r["ok"] and r["key"] not in seen:
            seen[r["key"]] = i
    uniq = list(seen.values())
    front = set(uniq[j] for j in pareto([rows[i]["distances"] for i in uniq])) if uniq else set()
    order = sorted(uniq, key=lambda i: (i not in front, rows[i]["score"], i))
    return order[:k]


def _per_game(
    tune: Tune, sc: Scenario, paired: dict, signs: list[int], sds: list[float]
) -> tuple[np.ndarray, np.ndarray]:
    """(per-game linearised score without its constant, mask of the games that count) of a confirmed point."""
    qs = table.quantities(sc)
    z = np.zeros(len(paired["finished"]))
    every = True
    for t, s, sd in zip(tune.targets, signs, sds):
        q = qs[t.measure]
        every &= q.base.over == "all"
        if s == 0 or sd <= 0:
            continue
        x = paired["paired"][:, paired["names"].index(q.base.name)].astype(np.float64) / q.base.scale
        if q.base.over == "defined":  # a conditional arc measure: a game where it is undefined adds nothing
            x = np.maximum(x, 0.0)
        z += s * x / sd
    mask = np.ones(len(z), bool) if every else paired["finished"].astype(bool)
    return z, mask


def _sign(t: Target, v: float) -> int:
    return 1 if v > t.high else (-1 if v < t.low else 0)


def _edge(t: Target, s: int) -> float:
    return t.high if s > 0 else t.low


def tell_apart(tune: Tune, confirmed: list[dict]) -> dict[str, Any]:
    """The chosen candidate and which others cannot be told apart from it. ``confirmed``: one dict per candidate
    with ``scenario``, ``sums`` and ``paired`` ({names, paired, finished}: its confirmation games). Returns {"sds":
    the per-game standard deviations the scores use (the candidates' mean, one per target), "rows": per candidate
    its `point_row` with its score on those sds, "chosen": the position of the lowest score (ties: the earlier),
    "tests": per other candidate {candidate, diff, ci95, p, p_holm, tied}}."""
    rows = [point_row(tune, c["scenario"], c["sums"]) for c in confirmed]
    sds = []
    for k in range(len(tune.targets)):
        vals = [r["targets"][k]["sd"] for r in rows if r["targets"][k].get("sd") is not None]
        sds.append(float(np.mean(vals)) if vals else 0.0)
    for r in rows:
        if r["ok"]:
            r["score"] = sum(
                (x["distance"] / sd if sd > 0 else (0.0 if x["distance"] == 0 else math.inf))
                for x, sd in zip(r["targets"], sds)
            )
    ok = [i for i, r in enumerate(rows) if r["ok"]]
    if not ok:
        return {"sds": sds, "rows": rows, "chosen": None, "tests": []}
    best = min(ok, key=lambda i: (rows[i]["score"], i))

    def signs(i: int) -> list[int]:
        return [_sign(t, Estimate.of(x).known) for t, x in zip(tune.targets, rows[i]["targets"])]

    def const(i: int) -> float:
        return sum(s * _edge(t, s) / sd if s and sd > 0 else 0.0 for t, s, sd in zip(tune.targets, signs(i), sds))

    zb, mb = _per_game(tune, confirmed[best]["scenario"], confirmed[best]["paired"], signs(best), sds)
    tests = []
    for i in ok:
        if i == best:
            continue
        zc, mc = _per_game(tune, confirmed[i]["scenario"], confirmed[i]["paired"], signs(i), sds)
        both = mb & mc
        d = (
            zc[both]
            - zb[both]
            - (const(i) - const(best))
            + _offsets(tune, confirmed[i]["scenario"], signs(i), sds)
            - _offsets(tune, confirmed[best]["scenario"], signs(best), sds)
        )
        r = metrics.paired_diff(float(d.sum()), float((d * d).sum()), int(both.sum()))
        tests.append({"candidate": i, "diff": r["diff"], "ci95": r["ci"], "p": r["p"], "n": int(both.sum())})
    for t, q in zip(tests, metrics.holm([t["p"] for t in tests])):
        t["p_holm"] = q
        t["tied"] = bool(q > ALPHA)
    return {"sds": sds, "rows": rows, "chosen": best, "tests": tests}


def _offsets(tune: Tune, sc: Scenario, signs: list[int], sds: list[float]) -> float:
    """The constant part of a point's linearised score from its measures' offsets (the fair share a derived
    measure takes away: first-player advantage)."""
    qs = table.quantities(sc)
    return sum(s * qs[t.measure].offset / sd if s and sd > 0 else 0.0 for t, s, sd in zip(tune.targets, signs, sds))
