"""`sim bench` / `make bench`: speed figures, never asserted by a timed test.

Reports per benchmark scenario: games/s and decisions/s on 1 and 2 threads (kernel only, cache warm), cold compile
time (a fresh process with an empty Numba cache), time to first game with a warm cache (a fresh process), the wall
time of a warm `sim run` of 1,000 games with its full report,
and for Ghosts of the Moor the kernel's speed ratio against the pure-Python oracle (sim/oracle).
"""
from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from sim import runner
from sim.scenario import load

REPO = Path(__file__).resolve().parent.parent
# game, scenario, targets from the issues: games/s on 2 threads, cold compile s, warm start s (None: no target set)
BENCH_SCENARIOS = (
    ("moor", "scenarios/moor/4p.toml", {"games_per_s_2_threads": 100_000, "cold_compile_s": 15,
                                        "first_game_warm_s": 2}),
    ("treasure_hunters", "scenarios/treasure_hunters/basic-4p.toml", {"games_per_s_2_threads": 20_000,
                                                                       "cold_compile_s": None,
                                                                       "first_game_warm_s": None}),
)


def kernel_speed(sc, games: int, threads: int) -> dict:
    """Games/s and decisions/s of the batch kernel alone (warm cache, best of 3 runs)."""
    used = runner.set_threads(threads)
    runner.play_chunk(sc, 0, 64)                                  # load / compile outside the timing
    best = None
    for rep in range(3):
        t0 = time.perf_counter()
        out = runner.play_chunk(sc, rep * games, games)
        dt = time.perf_counter() - t0
        best = dt if best is None or dt < best else best
        dec = int(out.extra[:, sc.spec.extra_columns.index("decisions")].sum()) \
            if "decisions" in sc.spec.extra_columns else 0
    return {"threads": threads, "threads_used": used, "games": games, "seconds": round(best, 4), "games_per_s": round(games / best),
            "decisions_per_s": round(dec / best) if dec else None}


def _fresh_python(code: str, env_extra: dict) -> float:
    env = dict(os.environ, **env_extra)
    t0 = time.perf_counter()
    subprocess.run([sys.executable, "-c", code], check=True, cwd=REPO, env=env, capture_output=True)
    return time.perf_counter() - t0


def cold_compile(path: str) -> float:
    """Seconds for a fresh process with an empty cache to import and play its first games (compile included)."""
    with tempfile.TemporaryDirectory() as d:
        code = ("from sim.scenario import load; from sim import runner; "
                f"runner.play_chunk(load({path!r}), 0, 16)")
        return _fresh_python(code, {"SIM_CACHE_ROOT": d})


def first_game(path: str) -> float:
    """Seconds from a fresh process start to its first finished game, warm cache: the CLI's imports, the
    scenario load and validation, the kernel load from the cache and one game."""
    code = ("import sim.cli; from sim.scenario import load; from sim import runner; "
            f"runner.play_chunk(load({path!r}), 0, 1)")
    _fresh_python(code, {})                                                # make sure the cache is warm
    return min(_fresh_python(code, {}) for _ in range(3))


def warm_run(path: str) -> float:
    """Seconds for a fresh `sim run` of 1,000 games with a warm cache, writing the full report (HTML plots too)."""
    with tempfile.TemporaryDirectory() as d:
        cmd = [sys.executable, "-m", "sim.cli", "run", path, "--games", "1000", "--out", str(Path(d) / "r")]
        subprocess.run(cmd, check=True, cwd=REPO, capture_output=True)      # make sure the cache is warm
        t0 = time.perf_counter()
        subprocess.run(cmd, check=True, cwd=REPO, capture_output=True)
        return time.perf_counter() - t0


def oracle_ratio(sc, games: int = 300) -> dict | None:
    try:
        from sim.oracle import moor as oracle
    except ImportError:
        return None
    py = oracle.games_per_second(sc, games)
    k = kernel_speed(sc, 20_000, 1)["games_per_s"]
    return {"oracle_games_per_s": round(py, 1), "kernel_games_per_s_1_thread": k, "speed_ratio": round(k / py)}


def run_all(games: int = 100_000) -> dict:
    res = {"machine": {"cpus": os.cpu_count(), "python": sys.version.split()[0]}, "games": {}}
    for game, path, targets in BENCH_SCENARIOS:
        if not (REPO / path).exists():
            continue
        sc = load(REPO / path)
        r = {"scenario": path, "targets": targets,
             "threads": [kernel_speed(sc, games, t) for t in (1, 2)],
             "cold_compile_s": round(cold_compile(path), 2), "first_game_warm_s": round(first_game(path), 2),
             "warm_run_1000_games_s": round(warm_run(path), 2)}
        if game == "moor":
            r["oracle"] = oracle_ratio(sc)
        res["games"][game] = r
    if games >= 100_000:                          # not in --quick
        from sim.sweep import SweepError
        try:
            res["sweep"] = sweep_overhead()
        except SweepError:                        # a tree without sim.overrides: no sweeps yet
            res["sweep"] = None
    out = REPO / "reports" / "bench.json"
    out.parent.mkdir(exist_ok=True)
    out.write_text(json.dumps(res, indent=2) + "\n")
    return res


def sweep_overhead(points: int = 20, games: int = 100_000, workers: int = 2) -> dict:
    """A ``points``-point Moor sweep (4p track length) of ``games`` games a point, in-process (all threads) and on a
    Dask LocalCluster of ``workers`` one-thread workers: wall times, their ratio (Dask overhead), time to the first
    point, and whether both gave identical numbers. Cluster start-up is timed apart."""
    from sim.distributed import executor
    from sim.sweep import build, run_sweep
    sw = build(REPO / "scenarios" / "moor" / "4p.toml", [f"track_len=21..{20 + points}"], games=games)
    out = {"points": points, "games_per_point": games, "workers": workers}
    docs = []
    with tempfile.TemporaryDirectory() as d:
        for label, kw in (("in_process", {}), ("dask", {"workers": workers})):
            t0 = time.perf_counter()
            with executor(**kw) as ex:
                start = time.perf_counter() - t0
                doc, _, played = run_sweep(sw, ex, Path(d) / label)
            out[label] = {"wall_s": round(played.wall_s, 2), "first_point_s": round(played.first_point_s, 2),
                          "start_s": round(start, 2)}
            docs.append({k: v for k, v in doc.items() if k != "provenance"})
    out["overhead_ratio"] = round(out["dask"]["wall_s"] / out["in_process"]["wall_s"], 2)
    out["identical"] = docs[0] == docs[1]
    return out


def _verdict(ok: bool) -> str:
    return ": met" if ok else ": MISSED"


def _target(op: str, target, value) -> str:
    """' (target <= 15 s: met)', or '' when the issue set no target."""
    if target is None:
        return ""
    return f" (target {op} {target} s{_verdict(value <= target)})"


def render(res: dict) -> str:
    lines = [f"benchmark on {res['machine']['cpus']} CPUs, Python {res['machine']['python']} "
             f"(written to reports/bench.json)"]
    for game, r in res["games"].items():
        lines.append(f"{game}: {r['scenario']}")
        for t in r["threads"]:
            dps = f", {t['decisions_per_s']:,} decisions/s" if t["decisions_per_s"] else ""
            few = (f" (only {t['threads_used']} available: not a {t['threads']}-thread figure)"
                   if t.get("threads_used", t["threads"]) != t["threads"] else "")
            lines.append(f"  {t['threads']} thread(s): {t['games_per_s']:,} games/s{dps}{few}")
        tg = r["targets"]
        two = next(t["games_per_s"] for t in r["threads"] if t["threads"] == 2)
        lines.append(f"  target on 2 threads: >= {tg['games_per_s_2_threads']:,} games/s"
                     f"{_verdict(two >= tg['games_per_s_2_threads'])}")
        lines.append(f"  cold compile: {r['cold_compile_s']} s{_target('<=', tg['cold_compile_s'], r['cold_compile_s'])}"
                     f"; warm start to first game: {r['first_game_warm_s']} s"
                     f"{_target('<=', tg['first_game_warm_s'], r['first_game_warm_s'])}"
                     f"; warm `sim run` of 1,000 games with the full report: {r['warm_run_1000_games_s']} s")
        if r.get("oracle"):
            o = r["oracle"]
            lines.append(f"  pure-Python oracle: {o['oracle_games_per_s']} games/s; kernel 1 thread "
                         f"{o['kernel_games_per_s_1_thread']:,} games/s: {o['speed_ratio']}x faster")
    if res.get("sweep"):
        w = res["sweep"]
        lines.append(f"sweep: {w['points']} Moor points x {w['games_per_point']:,} games: in-process "
                     f"{w['in_process']['wall_s']} s (first point {w['in_process']['first_point_s']} s); Dask "
                     f"LocalCluster of {w['workers']} workers {w['dask']['wall_s']} s (first point "
                     f"{w['dask']['first_point_s']} s, cluster start {w['dask']['start_s']} s): overhead ratio "
                     f"{w['overhead_ratio']}, numbers {'identical' if w['identical'] else 'DIFFERENT'}")
    return "\n".join(lines)
