"""`sim bench` / `make bench`: speed figures, never asserted by a timed test.

Reports per benchmark scenario: games/s and decisions/s on 1 and 2 threads (kernel only, cache warm), cold compile
time (a fresh process with an empty Numba cache), time to first game with a warm cache (a fresh process), the wall
time of a warm `sim run` of 1,000 games with its full report,
and where a game has one its kernel's speed ratio against its pure-Python oracle (sim/oracle) and the C yardstick.
What is measured of each game, and its targets, is the game's `BenchSpec` (sim.model.registry): this module names
no game.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from sim.api import bench_arc, bench_learned, bench_web
from sim.api.bench_c import C_PLAY_S, C_REPS, bench_cpu, c_ratio
from sim.api.bench_compile import COMPILE_TARGET_CPU_S, cold_compiles
from sim.model import registry
from sim.model.paths import REPO
from sim.model.registry import BenchSpec
from sim.model.scenario import Scenario, load
from sim.model.words import count
from sim.play import runner

SCALING_TARGET = 1.9  # issue 9: >= 1.9 x from one to two threads


def benched() -> list[tuple[str, BenchSpec]]:
    """(game, its `BenchSpec`) of every registered game `sim bench` measures, in the report's order (its rank)."""
    games = [(name, spec.bench) for name, spec in registry.all_games().items() if spec.bench is not None]
    return sorted(games, key=lambda g: g[1].rank)


def kernel_speed(sc: Scenario, games: int, threads: int, reps: int = 3) -> dict:
    """Games/s and decisions/s of the batch kernel alone (warm cache, best of ``reps`` runs)."""
    return thread_speeds(sc, games, (threads,), reps)[0]


def thread_speeds(sc: Scenario, games: int, thread_counts: Sequence[int] = (1, 2), reps: int = 5) -> list[dict]:
    """`kernel_speed` for each thread count, the runs interleaved (1, 2, 1, 2, ...) so a change of the machine's
    load hits every count alike; best of ``reps`` each."""
    best: dict[int, float] = {}
    used: dict[int, int] = {}
    dec = 0
    from sim.play.context import RunContext

    for t in thread_counts:
        used[t] = runner.resolve_threads(t)
        runner.play_chunk(sc, 0, 64, ctx=RunContext(threads=t))  # load / compile outside the timing
    for rep in range(reps):
        for t in thread_counts:
            t0 = time.perf_counter()
            out = runner.play_chunk(sc, rep * games, games, ctx=RunContext(threads=t))
            dt = time.perf_counter() - t0
            best[t] = min(dt, best.get(t, dt))
            dec = (
                int(out.extra[:, sc.spec.extra_columns.index("decisions")].sum())
                if "decisions" in sc.spec.extra_columns
                else 0
            )
    return [
        {
            "threads": t,
            "threads_used": used[t],
            "games": games,
            "seconds": round(best[t], 4),
            "games_per_s": round(games / best[t]),
            "decisions_per_s": round(dec / best[t]) if dec else None,
        }
        for t in thread_counts
    ]


def _fresh_python(code: str, env_extra: dict[str, str]) -> float:
    env = dict(os.environ, **env_extra)
    t0 = time.perf_counter()
    subprocess.run([sys.executable, "-c", code], check=True, cwd=REPO, env=env, capture_output=True)
    return time.perf_counter() - t0


def cold_compile(*paths: str) -> float:
    """Seconds for a fresh process with an empty cache to import and play the first game of each scenario in
    ``paths``, one after the other (compile included). One game: a search scenario's 16 first games took up to a
    second of play (2026-12-05), which is not compile."""
    with tempfile.TemporaryDirectory() as d:
        code = "from sim.model.scenario import load; from sim.play import runner; " + "; ".join(
            f"runner.play_chunk(load({p!r}), 0, 1)" for p in paths
        )
        return _fresh_python(code, {"SIM_CACHE_ROOT": d})


def compile_scenarios() -> list[str]:
    """Every scenario whose cold compile `make bench` reports: each game's and mode's default, then each game's
    search scenarios."""
    ranked = sorted((b for _, b in benched()), key=lambda b: b.compile_rank)
    return [p for b in ranked for p in b.compiles if (REPO / p).exists()] + search_scenarios()


def first_game(path: str) -> float:
    """Seconds from a fresh process start to its first finished game, warm cache: the CLI's imports, the
    scenario load and validation, the kernel load from the cache and one game."""
    code = (
        "import sim.cli.main; from sim.model.scenario import load; from sim.play import runner; "
        f"runner.play_chunk(load({path!r}), 0, 1)"
    )
    _fresh_python(code, {})  # make sure the cache is warm
    return min(_fresh_python(code, {}) for _ in range(3))


def warm_run(path: str) -> float:
    """Seconds for a fresh `sim run` of 1,000 games with a warm cache, writing the full report (HTML plots too)."""
    with tempfile.TemporaryDirectory() as d:
        cmd = [sys.executable, "-m", "sim.cli.main", "run", path, "--games", "1000", "--out", str(Path(d) / "r")]
        subprocess.run(cmd, check=True, cwd=REPO, capture_output=True)  # make sure the cache is warm
        t0 = time.perf_counter()
        subprocess.run(cmd, check=True, cwd=REPO, capture_output=True)
        return time.perf_counter() - t0


def oracle_ratio(sc: Scenario, module: str, games: int = 300) -> dict | None:
    """The kernel's games/s on one thread against those of the game's pure-Python oracle (``module``: dotted, with
    ``games_per_second(scenario, games)``); None when the oracle cannot be imported."""
    import importlib

    try:
        oracle = importlib.import_module(module)
    except ImportError:
        return None
    py = oracle.games_per_second(sc, games)
    k = kernel_speed(sc, 20_000, 1)["games_per_s"]
    return {"oracle_games_per_s": round(py, 1), "kernel_games_per_s_1_thread": k, "speed_ratio": round(k / py)}


# issue 22: a rollout from a copied mid-game state costs no more than a fresh batch game (rollouts/s over the batch
# games/s of the same strategies, one thread, measured in one run)
ROLLOUT_TARGET = 0.67


def search_scenarios() -> list[str]:
    """Each game's default search scenarios (scenarios/<game>/search-*.toml), repository-relative."""
    return sorted(p.relative_to(REPO).as_posix() for p in (REPO / "scenarios").glob("*/search-*.toml"))


def search_speed(path: str, games: int = 24, reps: int = 2) -> dict:
    """A search scenario on one thread, warm cache, best of ``reps``: its games/s; the rollouts/s its search seats
    played (search decisions x budget, counted by the kernel, over the whole batch's time); the batch games/s of the
    same table with every search seat playing its rollout strategy (interleaved with it); their ratio (target >=
    ROLLOUT_TARGET); and its cold compile in CPU s."""
    from kernels.batch import play_games
    from sim.model.search import rollout_seats, search_scratch

    sc = load(REPO / path)
    k = sc.spec.kernel()
    prm, p = sc.prm(), sc.players
    rsids, _ = rollout_seats(sc)
    # the same table with every search seat on its rollout strategy (that strategy's default parameters)
    scripted = sc.with_changes(
        seats=tuple(
            type(s)(next(x.name for x in sc.spec.strategies if x.sid == rsids[i] and x.role == role), {})
            for i, (s, role) in enumerate(zip(sc.seats, sc.spec.roles(sc.params, p), strict=True))
        )
    )
    shape = (len(sc.spec.extra_columns), (len(sc.spec.curves), sc.spec.curve_len))
    rollout_sc_speed = 0.0
    best_dt, counts = float("inf"), None
    for rep in range(reps + 1):  # the first repetition compiles or loads
        search = search_scratch(sc, k, prm=prm)
        t0 = time.perf_counter()
        play_games(
            k.play_batch, k.batch_scratch(p, prm), sc.seed, 0, rep * games, games, p, prm, sc.sids(), sc.sparams(),
            *shape, search=search,
        )  # fmt: skip
        dt = time.perf_counter() - t0
        if rep and dt < best_dt:
            best_dt, counts = dt, search.counts.copy()
        # the batch of the rollout strategies, as many games as the search played rollouts (at most 20,000)
        n = int(min(20_000, max(200, search.counts[1])))
        if rep:
            rollout_sc_speed = max(rollout_sc_speed, kernel_speed(scripted, n, 1, reps=1)["games_per_s"])
    assert counts is not None  # reps >= 1 timed repetitions
    rollouts_per_s = counts[1] / best_dt
    return {
        "scenario": path,
        "games": games,
        "games_per_s": round(games / best_dt, 2),
        "search_decisions": int(counts[0]),
        "rollouts": int(counts[1]),
        "rollouts_per_s": round(float(rollouts_per_s)),
        "rollout_strategies_games_per_s": round(rollout_sc_speed),
        "ratio": round(float(rollouts_per_s) / rollout_sc_speed, 2) if rollout_sc_speed else None,
        "target": ROLLOUT_TARGET,
    }


def run_all(games: int = 100_000, quick: bool = False) -> dict:
    """Every figure of `sim bench` (``quick``: shorter timings, one compile round), written to reports/bench.json."""
    res: dict[str, Any] = {"machine": {"cpus": os.cpu_count(), "python": sys.version.split()[0]}, "games": {}}
    for game, b in benched():
        if (REPO / b.scenario).exists():
            res["games"].update(game_figures(game, b, games, quick))
    res["search"] = [search_speed(p) for p in search_scenarios()]
    res["cold_compile_cpu_s"] = cold_compiles(compile_scenarios(), rounds=1 if quick else 2)
    res["cold_compile_pinned_cpu"] = bench_cpu()
    defaults = [(p, b.targets) for _, b in benched() for p in b.compiles if (REPO / p).exists()]
    res["learned"] = bench_learned.learned_figures(
        defaults, reps=2 if quick else 3, rounds=1 if quick else 2, timing_s=0.2 if quick else bench_learned.TIMING_S
    )
    timed = next((b for _, b in benched() if b.timelines), None)
    if timed is not None:  # one default scenario per game whose run share is shown (`BenchSpec.arc`)
        shares = tuple(b.arc for b in sorted((b for _, b in benched()), key=lambda b: b.arc_rank) if b.arc)
        res["arc"] = bench_arc.arc_figures(timed.scenario, shares, sample=100 if quick else 1000)
    swept = next((b for _, b in benched() if b.sweep is not None), None)
    if games >= 100_000 and swept is not None:  # not in --quick
        res["sweep"] = sweep_overhead(swept)
    res["workbench"] = bench_web.workbench_memory()
    out = REPO / "reports" / "bench.json"
    out.parent.mkdir(exist_ok=True)
    out.write_text(json.dumps(res, indent=2) + "\n")
    return res


def game_figures(game: str, b: BenchSpec, games: int = 100_000, quick: bool = False) -> dict:
    """The figures of one game (``b``: its `BenchSpec`), as ``{game: {...}}`` and, with ``b.random_share``,
    ``{game}_random`` (its table with every seat random, kernel speed only)."""
    sc = load(REPO / b.scenario)
    n = max(1000, games // b.share)
    r: dict[str, Any] = {"scenario": b.scenario, "targets": b.targets, "threads": thread_speeds(sc, n, reps=b.reps)}
    if b.startup:
        r["cold_compile_s"] = round(cold_compile(b.scenario), 2)
        r["first_game_warm_s"] = round(first_game(b.scenario), 2)
        r["warm_run_1000_games_s"] = round(warm_run(b.scenario), 2)
    if b.all_modes and all((REPO / p).exists() for p in (*b.all_modes, *(m.scenario for m in b.modes))):
        for m in b.modes:
            r[f"cold_compile_{m.key}_s"] = round(cold_compile(m.scenario), 2)
        r["cold_compile_all_modes_s"] = round(cold_compile(*b.all_modes), 2)
    if b.oracle:
        r["oracle"] = oracle_ratio(sc, b.oracle)
    if b.c_yardstick:
        r["c"] = c_ratio(b.scenario, play_s=1.0 if quick else C_PLAY_S, reps=3 if quick else C_REPS)
    out = {game: r}
    if b.random_share:
        rnd = sc.with_changes(seats=tuple(type(s)("random", {}) for s in sc.seats))
        out[f"{game}_random"] = {
            "scenario": b.scenario + " (every seat random)",
            "targets": {},
            "threads": thread_speeds(rnd, max(500, n // b.random_share), reps=b.reps),
        }
    return out


def sweep_overhead(b: BenchSpec, points: int = 20, games: int = 100_000, workers: int = 2) -> dict:
    """A ``points``-point sweep of ``b.scenario`` over ``b.sweep``'s parameter from its first value, ``games`` games
    a point, in-process (all threads) and on a Dask LocalCluster of ``workers`` one-thread workers: wall times, their
    ratio (Dask overhead), time to the first point, and whether both gave identical numbers. Cluster start-up is
    timed apart."""
    from sim.api.sweep import build, run_sweep
    from sim.play.distributed import executor

    assert b.sweep is not None  # the game that gives a sweep (run_all)
    name, first = b.sweep
    sw = build(REPO / b.scenario, [f"{name}={first}..{first + points - 1}"], games=games)
    out: dict[str, Any] = {"points": points, "games_per_point": games, "workers": workers}
    docs = []
    with tempfile.TemporaryDirectory() as d:
        for label, n_workers in (("in_process", None), ("dask", workers)):
            t0 = time.perf_counter()
            with executor(n_workers) as ex:
                start = time.perf_counter() - t0
                doc, _, played = run_sweep(sw, ex, Path(d) / label)
            out[label] = {
                "wall_s": round(played.wall_s, 2),
                "first_point_s": None if played.first_point_s is None else round(played.first_point_s, 2),
                "start_s": round(start, 2),
            }
            docs.append({k: v for k, v in doc.items() if k != "provenance"})
    out["overhead_ratio"] = round(out["dask"]["wall_s"] / out["in_process"]["wall_s"], 2)
    out["identical"] = docs[0] == docs[1]
    return out


def render_c(c: dict) -> list[str]:
    """The kernel/C lines of `render` (c_ratio's figures, or the one line saying why they were not measured)."""
    if "ratio" not in c:
        return [f"  kernel/C: {c['note']}"]
    k, cc = c["kernel_games_per_s"], c["c_games_per_s"]
    return [
        f"  kernel/C (4 random players, both pinned to CPU {c['cpu']}, CPU time, {c['repetitions']} timings each "
        f"interleaved, about {c.get('play_s', C_PLAY_S):g} s of play a timing): {c['ratio']:.3f} (target >= {c['target']}"
        f"{_verdict(c['ratio'] >= c['target'])}); spread {c['ratio_low']:.3f}-{c['ratio_high']:.3f}",
        f"    kernel {min(k):,}-{max(k):,} games/s ({c['kernel_games']:,} games a timing), C {min(cc):,}-{max(cc):,}"
        f" games/s ({c['c_games']:,} games); load average {c['load_average'][0]}",
    ]


def render_compiles(cc: dict[str, list[float]], cpu: int | None) -> list[str]:
    """The cold compile block of `render`: one line per scenario, its best CPU s, every round, met / MISSED."""
    best = {p: min(v) for p, v in cc.items()}
    rounds = max(len(v) for v in cc.values())
    pinned = f", pinned to CPU {cpu}" if cpu is not None else ""
    lines = [
        f"cold compile, CPU s of a fresh process with an empty cache playing its first game{pinned}, best of "
        f"{count(rounds, 'round')} (target <= {COMPILE_TARGET_CPU_S} s each"
        f"{_verdict(max(best.values()) <= COMPILE_TARGET_CPU_S)}):"
    ]
    width = max(len(p) for p in cc)
    for p, v in cc.items():
        spread = f" ({', '.join(f'{x:.2f}' for x in v)})" if len(v) > 1 else ""
        ok = "met" if best[p] <= COMPILE_TARGET_CPU_S else "MISSED"
        lines.append(f"  {p:<{width}}  {best[p]:6.2f}{spread}  {ok}")
    return lines


def render_modes(game: str, r: dict) -> list[str]:
    """The line of a game's other modes' cold compiles (its `BenchSpec.modes`, named in its words) and of all its
    modes in one process; none when ``r`` has no figure of them."""
    spec = registry.get(game)
    b = spec.bench if spec is not None else None
    if b is None or "cold_compile_all_modes_s" not in r:
        return []
    target = r["targets"].get("cold_compile_s")
    parts = [
        f"{m.words}: {r[key]} s{_target('<=', target, r[key])}"
        for m in b.modes
        if (key := f"cold_compile_{m.key}_s") in r
    ]
    every = NUMBER_WORDS[len(b.all_modes)] if len(b.all_modes) < len(NUMBER_WORDS) else str(len(b.all_modes))
    return [
        f"  cold compile of {'; '.join(parts)}; all {every} modes in one process: {r['cold_compile_all_modes_s']} s"
    ]


NUMBER_WORDS = ("no", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine")


def _verdict(ok: bool) -> str:
    return ": met" if ok else ": MISSED"


def _target(op: str, target: float | None, value: float) -> str:
    """' (target <= 15 s: met)', or '' when the issue set no target."""
    if target is None:
        return ""
    return f" (target {op} {target} s{_verdict(value <= target)})"


def _sweep_game() -> str:
    """The short name of the game whose sweep `sim bench` times (its `BenchSpec.short`)."""
    return next((b.short for _, b in benched() if b.sweep is not None), "")


def render(res: dict) -> str:
    lines = [
        f"benchmark on {res['machine']['cpus']} CPUs, Python {res['machine']['python']} (written to reports/bench.json)"
    ]
    for game, r in res["games"].items():
        lines.append(f"{game}: {r['scenario']}")
        for t in r["threads"]:
            dps = f", {t['decisions_per_s']:,} decisions/s" if t["decisions_per_s"] else ""
            few = (
                f" (only {t['threads_used']} available: not a {t['threads']}-thread figure)"
                if t.get("threads_used", t["threads"]) != t["threads"]
                else ""
            )
            lines.append(f"  {count(t['threads'], 'thread')}: {t['games_per_s']:,} games/s{dps}{few}")
        tg = r["targets"]
        two = next(t["games_per_s"] for t in r["threads"] if t["threads"] == 2)
        if "games_per_s_2_threads" in tg:
            lines.append(
                f"  target on 2 threads: >= {tg['games_per_s_2_threads']:,} games/s"
                f"{_verdict(two >= tg['games_per_s_2_threads'])}"
            )
        if "cold_compile_s" not in r:
            continue
        lines.append(
            f"  cold compile: {r['cold_compile_s']} s{_target('<=', tg['cold_compile_s'], r['cold_compile_s'])}"
            f"; warm start to first game: {r['first_game_warm_s']} s"
            f"{_target('<=', tg['first_game_warm_s'], r['first_game_warm_s'])}"
            f"; warm `sim run` of 1,000 games with the full report: {r['warm_run_1000_games_s']} s"
        )
        lines.extend(render_modes(game, r))
        one = next(t["games_per_s"] for t in r["threads"] if t["threads"] == 1)
        scale = two / one
        lines.append(f"  1 -> 2 threads: {scale:.2f}x (target >= {SCALING_TARGET}x{_verdict(scale >= SCALING_TARGET)})")
        c = r.get("c")
        if c:
            lines.extend(render_c(c))
        if r.get("oracle"):
            o = r["oracle"]
            lines.append(
                f"  pure-Python oracle: {o['oracle_games_per_s']} games/s; kernel 1 thread "
                f"{o['kernel_games_per_s_1_thread']:,} games/s: {o['speed_ratio']}x faster"
            )
    for r in res.get("search", []):
        ratio = "n/a" if r["ratio"] is None else f"{r['ratio']:.2f}"
        ok = r["ratio"] is not None and r["ratio"] >= r["target"]
        lines.append(
            f"search {r['scenario']} (1 thread, {r['games']} games): {r['games_per_s']:,} games/s; "
            f"{r['search_decisions']:,} search decisions, {r['rollouts_per_s']:,} rollouts/s against "
            f"{r['rollout_strategies_games_per_s']:,} batch games/s of its rollout strategies: ratio {ratio} "
            f"(target >= {r['target']}{_verdict(ok)})"
        )
    if res.get("cold_compile_cpu_s"):
        lines.extend(render_compiles(res["cold_compile_cpu_s"], res.get("cold_compile_pinned_cpu")))
    if res.get("learned"):
        lines.extend(bench_learned.render_learned(res["learned"]))
    if "workbench" in res:
        lines.extend(bench_web.render_memory(res["workbench"]))
    if res.get("arc"):
        lines.extend(bench_arc.render_arc(res["arc"]))
    if res.get("sweep"):
        w = res["sweep"]
        lines.append(
            f"sweep: {w['points']} {_sweep_game()} points x {w['games_per_point']:,} games: in-process "
            f"{w['in_process']['wall_s']} s (first point {w['in_process']['first_point_s']} s); Dask "
            f"LocalCluster of {w['workers']} workers {w['dask']['wall_s']} s (first point "
            f"{w['dask']['first_point_s']} s, cluster start {w['dask']['start_s']} s): overhead ratio "
            f"{w['overhead_ratio']}, numbers {'identical' if w['identical'] else 'DIFFERENT'}"
        )
    return "\n".join(lines)
