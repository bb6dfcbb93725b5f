"""`sim bench`'s figures of the game's arc (issue 39): the win-probability timelines against their minute, and what
recording the arc adds to a default scenario's `sim run` (one scenario per game; ``python -m sim.api.bench_arc``
measures any list of scenarios, every default one by default, and prints the table of docs/dev/performance.md)."""

from __future__ import annotations

import math
import sys
import tempfile
import time
from pathlib import Path

from sim.model.paths import REPO
from sim.model.scenario import load

ARC_TARGET_S = 60.0  # issue 39: the timelines of 1,000 Moor games at 32 rollouts a state within a minute (2 cores)
ARC_RUN_SHARE = 0.30  # issue 39: the arc section adds at most 30% to a default scenario's time


def run_share(path: str, reps: int = 2, games: int | None = None, at_skill: bool = False) -> dict:
    """What recording the game's arc adds to scenario ``path``'s `sim run` (its ``games``, default the scenario's:
    the games played, the report folder written, the arc's section drawn), warm (both kernels compiled first by a
    20-game run each), the run without and with the arc in turn ``reps`` times, best of each: wall seconds and CPU
    seconds of the process (every thread's, `time.process_time`: on a shared machine a busy neighbour moves it
    less than the wall clock). ``share`` and ``cpu_share``: with / without - 1. ``at_skill``: each run as
    `make run` plays a scenario (`sim run-defaults`: its table at skill too, `sim.api.runs.run`), not the run
    alone."""
    from sim.api.core import run_scenario
    from sim.api.runs import run
    from sim.play.context import RunContext

    sc = load(REPO / path)
    n = sc.games if games is None else games

    def play(arc: bool, m: int, out: Path) -> None:
        if at_skill:
            run(sc, games=m, write=True, out=out, ctx=RunContext(arc=arc), at_skill=True)
        else:
            run_scenario(sc, games=m, out_dir=out, ctx=RunContext(arc=arc))

    for arc in (False, True):
        with tempfile.TemporaryDirectory() as d:
            play(arc, min(n, 20), Path(d) / "r")
    wall: dict[bool, float] = {}
    cpu: dict[bool, float] = {}
    for _ in range(reps):
        for arc in (False, True):
            with tempfile.TemporaryDirectory() as d:
                t0, c0 = time.perf_counter(), time.process_time()
                play(arc, n, Path(d) / "r")
                wall[arc] = min(wall.get(arc, math.inf), time.perf_counter() - t0)
                cpu[arc] = min(cpu.get(arc, math.inf), time.process_time() - c0)
    return {
        "scenario": path,
        "games": n,
        "run_s": round(wall[False], 2),
        "run_arc_s": round(wall[True], 2),
        "share": round(wall[True] / wall[False] - 1, 3),
        "cpu_s": round(cpu[False], 2),
        "cpu_arc_s": round(cpu[True], 2),
        "cpu_share": round(cpu[True] / cpu[False] - 1, 3),
        "target": ARC_RUN_SHARE,
        "at_skill": at_skill,
    }


def arc_figures(path: str, shares: tuple[str, ...], sample: int = 1000, rollouts: int = 32) -> dict:
    """The game's arc (issue 39), warm (compiled first): the wall seconds of the win-probability timelines of
    ``sample`` games at ``rollouts`` rollouts a state on every core (`sim.play.arc.timelines`) of scenario ``path``,
    and the `run_share` of each scenario of ``shares`` (those that exist)."""
    from sim.play.arc import timelines

    sc = load(REPO / path)
    timelines(sc, 1, 2)  # compiled
    t0 = time.perf_counter()
    timelines(sc, sample, rollouts)
    tl = time.perf_counter() - t0
    return {
        "scenario": path,
        "sample": sample,
        "rollouts": rollouts,
        "timelines_s": round(tl, 2),
        "target_s": ARC_TARGET_S,
        "runs": [run_share(p) for p in shares if (REPO / p).exists()],
    }


def render_arc(a: dict) -> list[str]:
    tl_ok = a["timelines_s"] <= a["target_s"]
    lines = [
        f"arc: {a['scenario']}: timelines of {a['sample']:,} games x {a['rollouts']} rollouts a state "
        f"{a['timelines_s']} s (target <= {a['target_s']:.0f} s{': met' if tl_ok else ': MISSED'})",
        f"arc: what recording the arc adds to a scenario's sim run (warm, best of 2, target <= "
        f"+{100 * ARC_RUN_SHARE:.0f}% of its CPU time):",
    ]
    return lines + [f"  {share_line(r)}" for r in a.get("runs", [])]


def share_line(r: dict) -> str:
    """One scenario's `run_share` in one line."""
    ok = r["cpu_share"] <= r["target"]  # (judged on CPU time: the wall clock of a shared machine moves by more)
    return (
        f"{r['scenario']:42s} {r['games']:>7,} games{' +at skill' if r.get('at_skill') else ''}  wall {r['run_s']:6.2f} -> {r['run_arc_s']:6.2f} s "
        f"{100 * r['share']:+4.0f}%  cpu {r['cpu_s']:6.2f} -> {r['cpu_arc_s']:6.2f} s {100 * r['cpu_share']:+4.0f}%"
        f"  {'met' if ok else 'MISSED'}"
    )


def default_scenarios() -> list[str]:
    """Every default scenario of every game (scenarios/<game>/*.toml, what `make run` plays), repository-relative."""
    return sorted(p.relative_to(REPO).as_posix() for p in (REPO / "scenarios").glob("*/*.toml"))


def main(argv: list[str]) -> None:
    """``python -m sim.api.bench_arc [--at-skill] [SCENARIO ...]``: `run_share` of each scenario given (default:
    every default scenario), one line each as it is measured, then the worst; ``--at-skill`` as `make run` plays
    them (the table at skill too)."""
    at_skill = "--at-skill" in argv
    paths = [a for a in argv if a != "--at-skill"] or default_scenarios()
    worst = None
    for p in paths:
        r = run_share(p, at_skill=at_skill)
        print(share_line(r), flush=True)
        worst = r if worst is None or r["cpu_share"] > worst["cpu_share"] else worst
    if worst is not None:
        print(
            f"largest share: {worst['scenario']} {100 * worst['cpu_share']:+.0f}% CPU, {100 * worst['share']:+.0f}% wall"
        )


if __name__ == "__main__":
    main(sys.argv[1:])
