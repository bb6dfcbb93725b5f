"""Measure the statistical tier of `sim check` (not a pytest file: it plays tens of millions of games).

False-alarm rate: run the statistical tier exactly as CI does (every default scenario, the committed baselines,
check_games fresh games each, Holm over all tests at alpha) on unchanged code over many fresh seeds, and count the
runs that fail. Power: the same with one scenario replaced by a deliberately altered one (`--alter`), tested
against the unaltered scenario's baseline.

    .venv/bin/python tests/stats/measure_false_alarms.py --trials 300 --out fa.jsonl
    .venv/bin/python tests/stats/measure_false_alarms.py --trials 20 --alter moor/4p=tests/data/moor-4p-ghost8.toml
    .venv/bin/python tests/stats/measure_false_alarms.py --summarise fa.jsonl
    .venv/bin/python tests/stats/measure_false_alarms.py --game moor --trials 40 --out fa-moor.jsonl   # Moor only

A run counts as not passing when `sim check` would exit 1 (regression) or 4 (inconclusive: a headline figure
moved without being shown within its margin); the summary gives that share with a Wilson interval, and the share of
headline verdicts (unchanged / changed / cannot tell yet) per scenario.

One JSON line per trial (seed, alarm, smallest Holm-adjusted p, findings, every raw p) so a long run can be
stopped at any time and summarised.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

ROOT = Path(__file__).absolute().parents[2]
sys.path.insert(0, str(ROOT))


def trial(pairs, seed: int, games: int | None, alpha: float) -> dict:
    from sim.api import check as KP
    from sim.stats import check as K

    tests = []
    per = []
    for i, (sc, b) in enumerate(pairs):
        n = games or int(b["statistical"]["check_games"])
        t, _ = KP.stat_tests(sc, b, K._scenario_seed(seed, i), n)
        tests += t
        per.append((sc, t))
    found = K.holm_findings(tests, alpha)
    rows = K.judge_headline([r for sc, t in per for r in K.headline_rows(sc, t)], alpha)
    stuck = K.inconclusive(rows)
    return {
        "seed": seed,
        "alarm": bool(found),
        # what `sim check` would exit with: 1 regression, 4 inconclusive (no regression, a headline figure moved
        # and not shown within its margin), 0 pass
        "status": K.REGRESSION if found else K.INCONCLUSIVE if stuck else K.PASS,
        "inconclusive": [[r["scenario"], r["metric"], r["p_diff"], r["verdict"]] for r in stuck],
        "verdicts": [[r["scenario"], r["metric"], r["verdict"], r["p_diff"], r["p_equiv"]] for r in rows],
        "n_tests": len(tests),
        "min_p_holm": min(t["p_holm"] for t in tests),
        "findings": [f.message for f in found],
        "found": [[t["scenario"], t["metric"], t["p"], t["p_holm"]] for t in tests if t["significant"]],
        "p": [[t["scenario"], t["metric"], t["p"], _z(t)] for t in tests],
    }


def _z(t: dict) -> float | None:
    """Signed z of a mean test (None for chi-square): (now - baseline) / se."""
    return t["diff"] / t["se"] if t.get("se") else None


def clopper_pearson(k: int, n: int, level: float = 0.95) -> tuple[float, float]:
    from scipy import stats

    r = stats.binomtest(k, n).proportion_ci(confidence_level=level, method="exact")
    return r.low, r.high


def wilson(k: int, n: int, z: float = 1.959963984540054) -> tuple[float, float]:
    """Wilson score interval of a share k / n (95% by default)."""
    import math

    p = k / n
    c = (p + z * z / (2 * n)) / (1 + z * z / n)
    h = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return max(0.0, c - h), min(1.0, c + h)


def summarise(path: Path, alpha: float = 0.005) -> str:
    rows = [json.loads(x) for x in path.read_text().splitlines() if x.strip()]
    n = len(rows)
    if not n:
        return "no trials"
    k = sum(r["alarm"] for r in rows)
    lo, hi = clopper_pearson(k, n)
    out = [
        f"{path}: {n} runs of the statistical tier ({rows[0]['n_tests']} tests each, Holm at alpha {alpha})",
        f"  runs failing: {k} of {n} = {100 * k / n:.2f}% (95% Clopper-Pearson interval {100 * lo:.2f}%-{100 * hi:.2f}%)",
    ]
    if all("status" in r for r in rows):
        red = sum(r["status"] != "pass" for r in rows)
        inc = sum(r["status"] == "inconclusive" for r in rows)
        wl, wh = wilson(red, n)
        il, ih = wilson(inc, n)
        out.append(
            f"  runs not passing (exit 1 regression or 4 inconclusive): {red} of {n} = {100 * red / n:.2f}% "
            f"(95% Wilson interval {100 * wl:.2f}%-{100 * wh:.2f}%); inconclusive alone {inc} "
            f"({100 * il:.2f}%-{100 * ih:.2f}%)"
        )
        from collections import Counter

        v = Counter(x[2] for r in rows for x in r["verdicts"])
        tot = sum(v.values())
        out.append(
            "  headline verdicts over all runs: "
            + ", ".join(f"{kind} {c} ({100 * c / tot:.1f}%)" for kind, c in v.most_common())
        )
        by = Counter((x[0], x[2]) for r in rows for x in r["verdicts"])
        scs = sorted({x[0] for r in rows for x in r["verdicts"]})
        out.append(
            "  unchanged share by scenario: "
            + ", ".join(
                f"{s} {100 * by[(s, 'unchanged')] / max(1, sum(c for (t, _), c in by.items() if t == s)):.0f}%"
                for s in scs
            )
        )
    for a in sorted({0.005, 0.01, 0.02, 0.05, 0.10, 0.20} - {alpha}):
        j = sum(r["min_p_holm"] <= a for r in rows)
        l2, h2 = clopper_pearson(j, n)
        out.append(
            f"  would fail at family-wise alpha {a:g}: {j} of {n} = {100 * j / n:.2f}% "
            f"({100 * l2:.2f}%-{100 * h2:.2f}%)"
        )
    ps = [x[2] for r in rows for x in r["p"]]
    for a in (0.05, 0.01, 0.001):
        j = sum(p <= a for p in ps)
        out.append(f"  single tests with raw p <= {a}: {100 * j / len(ps):.3f}% of {len(ps)} (nominal {100 * a:g}%)")
    out += model_estimate(rows, alpha)
    from collections import Counter

    c = Counter((s, m) for r in rows for s, m, *_ in r["found"])
    if c:
        out.append("  flagged metrics: " + ", ".join(f"{s}/{m} x{v}" for (s, m), v in c.most_common(10)))
    return "\n".join(out)


def model_estimate(rows: list[dict], alpha: float) -> list[str]:
    """Model-based false-alarm rate of these fixed baselines. Given a baseline, a mean test's z-score is about
    normal with an offset (the baseline's own sampling noise) and a spread below 1; the offset of each test is
    estimated from its mean z over the trials (shrunk for the trial noise), the spread pooled over all tests. An
    alarm happens iff some test passes Holm's first threshold alpha / m. Tests with identical z in every trial
    (e.g. the seats of one team) count once; the rest are treated as independent (an upper estimate when they are
    positively correlated); chi-square tests count at their nominal alpha / m."""
    import math
    from collections import defaultdict

    from scipy import stats

    zs = defaultdict(list)
    nchi = set()
    for r in rows:
        for x in r["p"]:
            if len(x) > 3 and x[3] is not None:
                zs[(x[0], x[1])].append(x[3])
            else:
                nchi.add((x[0], x[1]))
    n = len(rows)
    zs = {k: v for k, v in zs.items() if len(v) == n}
    if not zs or n < 10:
        return []
    uniq = {}
    for k, v in zs.items():
        uniq.setdefault(tuple(round(x, 9) for x in v), k)
    series = {k: list(v) for v, k in uniq.items()}
    means = {k: sum(v) / n for k, v in series.items()}
    var = sum(sum((x - means[k]) ** 2 for x in v) / (n - 1) for k, v in series.items()) / len(series)
    sd = math.sqrt(var)
    spread = sum(m * m for m in means.values()) / len(means)  # offsets^2 plus trial noise var / n
    shrink = max(0.0, 1 - (var / n) / spread) if spread > 0 else 0.0
    m = rows[0]["n_tests"]
    t = stats.norm.isf(alpha / m / 2)
    log_pass = len(nchi) * math.log1p(-alpha / m)
    worst = []
    for k, mu in means.items():
        d = mu * shrink
        p = stats.norm.sf((t - d) / sd) + stats.norm.cdf((-t - d) / sd)
        log_pass += math.log1p(-min(p, 1 - 1e-15))
        worst.append((p, k, d))
    worst.sort(reverse=True)
    return [
        f"  model estimate for these baselines ({len(series)} distinct mean tests; offsets from {n} runs, "
        f"shrunk by {shrink:.2f}; pooled spread sd {sd:.2f}; normal tails; independent): "
        f"{100 * -math.expm1(log_pass):.2f}% of runs fail at alpha {alpha} (|z| > {t:.2f})",
        "  largest per-test shares: " + ", ".join(f"{k[0]}/{k[1]} {p:.1e} (offset {d:+.2f})" for p, k, d in worst[:4]),
    ]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--trials", type=int, default=100)
    ap.add_argument("--first-seed", type=int, default=1_000_000_007)
    ap.add_argument("--games", type=int, default=None, help="fresh games per scenario (default: the baseline's)")
    ap.add_argument("--alpha", type=float, default=0.005)
    ap.add_argument("--game", default=None, help="only this game's scenarios")
    ap.add_argument(
        "--alter",
        action="append",
        default=[],
        help="<game>/<stem>=<scenario.toml>: play this scenario against that baseline (power)",
    )
    ap.add_argument("--out", type=Path, default=None)
    ap.add_argument("--summarise", type=Path, default=None)
    a = ap.parse_args()
    if a.summarise:
        print(summarise(a.summarise, a.alpha))
        return
    from sim.model.scenario import load
    from sim.stats import check as K

    alter = dict(x.split("=", 1) for x in a.alter)
    pairs = []
    for f in K.default_scenarios(a.game):
        key = f"{f.parent.name}/{f.stem}"
        sc = load(alter.pop(key, f))
        pairs.append((sc, K.read_baseline(K.baseline_path(f))))
    if alter:
        sys.exit(f"--alter: no default scenario {', '.join(alter)}")
    out = a.out or Path(f"false-alarms-{int(time.time())}.jsonl")
    with out.open("a") as fh:
        for t in range(a.trials):
            t0 = time.perf_counter()
            r = trial(pairs, a.first_seed + t, a.games, a.alpha)
            r["trial"] = t
            fh.write(json.dumps(r) + "\n")
            fh.flush()
            print(
                f"trial {t}: seed {r['seed']} {'ALARM ' + '; '.join(r['findings']) if r['alarm'] else 'pass'} "
                f"(min Holm p {r['min_p_holm']:.3g}, {time.perf_counter() - t0:.1f} s)",
                flush=True,
            )
    print(summarise(out, a.alpha))


if __name__ == "__main__":
    main()
