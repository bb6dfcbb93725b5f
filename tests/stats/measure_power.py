"""Power of the statistical tier of `sim check` against a deliberately altered rule (not a pytest file).

Plays the altered scenario at fresh seeds against the *unaltered* scenario's committed baseline. In a full CI run
(every default scenario, m tests in all, Holm at alpha) a shift is flagged as soon as the altered scenario's
smallest p-value passes Holm's first threshold alpha / m, so that is what is counted here.

    .venv/bin/python tests/stats/measure_power.py tests/data/moor-4p-ghost8.toml \\
        --baseline reports/baselines/moor/4p.json --trials 20
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).absolute().parents[2]))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("scenario", type=Path)
    ap.add_argument("--baseline", type=Path, required=True)
    ap.add_argument("--trials", type=int, default=20)
    ap.add_argument("--first-seed", type=int, default=3_000_000_019)
    ap.add_argument("--alpha", type=float, default=None, help="family-wise alpha (default: sim check's)")
    ap.add_argument(
        "--m",
        type=int,
        default=None,
        help="tests in a full check run (default: counted from the committed baselines' first trial)",
    )
    a = ap.parse_args()
    from sim.api import check as KP
    from sim.model.scenario import load
    from sim.stats import check as K

    alpha = a.alpha or K.ALPHA
    sc = load(a.scenario)
    b = K.read_baseline(a.baseline, sc)
    m = a.m
    if m is None:  # count the tests of one full run on unchanged code
        m = 0
        for i, f in enumerate(K.default_scenarios()):
            s0 = load(f)
            t, _ = KP.stat_tests(
                s0,
                K.read_baseline(K.baseline_path(f), s0),
                K._scenario_seed(a.first_seed - 1, i),
                int(b["statistical"]["check_games"]),
            )
            m += len(t)
    thr = alpha / m
    hits = 0
    for k in range(a.trials):
        tests, _ = KP.stat_tests(sc, b, a.first_seed + k, int(b["statistical"]["check_games"]))
        best = min(tests, key=lambda t: t["p"])
        hit = best["p"] <= thr
        hits += hit
        print(
            f"trial {k}: smallest p {best['p']:.3g} ({best['metric']}: baseline {best['baseline']:.4g} -> now "
            f"{best['now']:.4g}) {'FLAGGED' if hit else 'missed'}",
            flush=True,
        )
    print(
        f"{a.scenario} against {a.baseline}: flagged in {hits} of {a.trials} runs "
        f"(Holm's first threshold alpha / m = {alpha} / {m} = {thr:.2g})"
    )


if __name__ == "__main__":
    main()
