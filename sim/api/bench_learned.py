"""`sim bench`'s learned-player figures (issue 38): for each game's default scenario of every mode, its table at
skill (every seat on its role's learned player, the report's "At skill" table: `sim.model.skill_spec.skill_table`)
against the scenario's own scripted table: games/s on one thread, the ratio (target: at least
`LEARNED_RATIO_TARGET`), the game's own floor where its `BenchSpec` sets one (``learned_games_per_s_1_thread``), and
the table's cold compile in CPU s (target: `COMPILE_TARGET_CPU_S`, as every scenario's). A scenario without a learned seat
compiles none of the learned code (the learned marker None; tests/kernels/*/test_learned.py).
"""

from __future__ import annotations

import time
from typing import Any

from sim.api.bench_compile import COMPILE_TARGET_CPU_S, cold_compiles
from sim.model.paths import REPO
from sim.model.scenario import Scenario, load
from sim.model.skill_spec import skill_table
from sim.play import runner
from sim.play.context import RunContext

LEARNED_RATIO_TARGET = 0.1  # issue 38: a learned table plays at least 1/10 of the scripted table's games/s
FLOOR_KEY = "learned_games_per_s_1_thread"  # a game's own floor in its BenchSpec.targets (issue 38)
TIMING_S = 1.0  # about this long a timing (quick: a fifth)


def learned_table(path: str) -> Scenario | None:
    """The table at skill of the scenario at ``path`` (repository-relative), None where the game has no learned
    player for one of its roles."""
    return skill_table(load(REPO / path), 1).scenario


def _rate(sc: Scenario, start: int, games: int) -> float:
    """Games/s of one `play_chunk` of ``games`` games from game index ``start``, one thread."""
    t0 = time.perf_counter()
    runner.play_chunk(sc, start, games, ctx=RunContext(threads=1))
    return games / (time.perf_counter() - t0)


def learned_speed(path: str, reps: int = 3, timing_s: float = TIMING_S) -> dict[str, Any] | None:
    """The scenario at ``path`` and its table at skill on one thread, warm cache: each timed ``reps`` times, the two
    interleaved (a change of the machine's load hits both alike), each timing about ``timing_s`` seconds (sized by a
    first untimed run that also loads the kernels); best of each. None where the game has no learned table.

    Returns {scenario, scripted_games_per_s, learned_games_per_s, ratio, target, strategies (the learned table's)}."""
    scripted = load(REPO / path)
    learned = skill_table(scripted, 1).scenario
    if learned is None:
        return None
    best = {"scripted": 0.0, "learned": 0.0}
    size = {}
    for name, sc in (("scripted", scripted), ("learned", learned)):
        runner.play_chunk(sc, 0, 8, ctx=RunContext(threads=1))  # load or compile outside the timing
        size[name] = max(50, int(_rate(sc, 8, 50) * timing_s))
    for rep in range(reps):
        for name, sc in (("scripted", scripted), ("learned", learned)):
            best[name] = max(best[name], _rate(sc, 1000 + rep * size[name], size[name]))
    return {
        "scenario": path,
        "strategies": sorted({s.strategy for s in learned.seats}),
        "scripted_games_per_s": round(best["scripted"]),
        "learned_games_per_s": round(best["learned"]),
        "ratio": round(best["learned"] / best["scripted"], 3),
        "target": LEARNED_RATIO_TARGET,
    }


def learned_figures(compiles: list[tuple[str, dict]], reps: int, rounds: int, timing_s: float = TIMING_S) -> dict:
    """`learned_speed` of every scenario of ``compiles`` ((scenario, its game's BenchSpec.targets), each game's
    default of every mode) whose game has a learned table, with its game's own floor (``floor``: games/s, or None),
    and the cold compile CPU s of each such table, ``rounds`` times: {"tables": [...], "cold_compile_cpu_s": {...}}."""
    tables = []
    for path, targets in compiles:
        row = learned_speed(path, reps, timing_s)
        if row is not None:
            tables.append({**row, "floor": targets.get(FLOOR_KEY)})
    return {
        "tables": tables,
        "cold_compile_cpu_s": cold_compiles([r["scenario"] for r in tables], rounds=rounds, at_skill=True),
    }


def render_learned(figures: dict) -> list[str]:
    """The learned players' block of `sim bench` (``figures``: `learned_figures`): one line per scenario, its
    speeds, ratio, its game's floor and its table's cold compile, each against its target."""
    rows, compiles = figures.get("tables", []), figures.get("cold_compile_cpu_s", {})
    if not rows:
        return []
    lines = [
        "learned players (every seat on its role's learned player: the reports' \"At skill\" table) against the "
        f"scenario's scripted table, 1 thread, best of interleaved timings (target >= {LEARNED_RATIO_TARGET} of its "
        f"games/s); cold compile of the learned table in CPU s (target <= {COMPILE_TARGET_CPU_S} s):"
    ]
    width = max(len(r["scenario"]) for r in rows)
    for r in rows:
        ok = r["ratio"] >= r["target"]
        floor = r.get("floor")
        own = (
            f"; >= {floor:,.0f} games/s{': met' if r['learned_games_per_s'] >= floor else ': MISSED'}"
            if floor is not None
            else ""
        )
        cc = compiles.get(r["scenario"], [])
        cold = (
            f"  cold compile {min(cc):.2f}{' (' + ', '.join(f'{x:.2f}' for x in cc) + ')' if len(cc) > 1 else ''}"
            f"{': met' if min(cc) <= COMPILE_TARGET_CPU_S else ': MISSED'}"
            if cc
            else ""
        )
        lines.append(
            f"  {r['scenario']:<{width}}  {'/'.join(r['strategies'])} {r['learned_games_per_s']:,} games/s against "
            f"{r['scripted_games_per_s']:,}: {r['ratio']:.3f}{': met' if ok else ': MISSED'}{own}{cold}"
        )
    return lines
