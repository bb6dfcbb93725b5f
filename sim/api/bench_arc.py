"""`sim bench`'s figures of the game's arc (issue 39): the win-probability timelines against their minute, and what
recording the arc adds to a default scenario's `sim run`."""

from __future__ import annotations

import tempfile
import time
from pathlib import Path

from sim.model.paths import REPO
from sim.model.scenario import load

ARC_TARGET_S = 60.0  # issue 39: the timelines of 1,000 Moor games at 32 rollouts a state within a minute (2 cores)
ARC_RUN_SHARE = 0.30  # issue 39: the arc section adds at most 30% to a default scenario's time


def arc_figures(path: str = "scenarios/moor/4p.toml", sample: int = 1000, rollouts: int = 32) -> dict:
    """The game's arc (issue 39), warm (compiled first): the wall seconds of the win-probability timelines of
    ``sample`` games at ``rollouts`` rollouts a state on every core (`sim.play.arc.timelines`), and of the
    scenario's own `sim run` (its games, the report folder written: the arc's plots drawn) without and with the
    arc recorded, best of two each."""
    import math

    from sim.api.core import run_scenario
    from sim.play.arc import timelines
    from sim.play.context import RunContext

    sc = load(REPO / path)
    timelines(sc, 1, 2)  # compiled
    t0 = time.perf_counter()
    timelines(sc, sample, rollouts)
    tl = time.perf_counter() - t0
    runs: dict[bool, float] = {}
    for arc in (False, True, False, True):
        with tempfile.TemporaryDirectory() as d:
            t0 = time.perf_counter()
            run_scenario(sc, out_dir=Path(d) / "r", ctx=RunContext(arc=arc))
            runs[arc] = min(runs.get(arc, math.inf), time.perf_counter() - t0)
    return {
        "scenario": path,
        "sample": sample,
        "rollouts": rollouts,
        "timelines_s": round(tl, 2),
        "target_s": ARC_TARGET_S,
        "run_games": sc.games,
        "run_s": round(runs[False], 2),
        "run_arc_s": round(runs[True], 2),
        "run_share": round(runs[True] / runs[False] - 1, 3),
        "run_share_target": ARC_RUN_SHARE,
    }


def render_arc(a: dict) -> list[str]:
    tl_ok = a["timelines_s"] <= a["target_s"]
    share_ok = a["run_share"] <= a["run_share_target"]
    return [
        f"arc: {a['scenario']}: timelines of {a['sample']:,} games x {a['rollouts']} rollouts a state "
        f"{a['timelines_s']} s (target <= {a['target_s']:.0f} s{': met' if tl_ok else ': MISSED'}); sim run of its "
        f"{a['run_games']:,} games {a['run_s']} s, with the arc {a['run_arc_s']} s: "
        f"{100 * a['run_share']:+.0f}% (target <= +{100 * a['run_share_target']:.0f}%{': met' if share_ok else ': MISSED'})"
    ]
