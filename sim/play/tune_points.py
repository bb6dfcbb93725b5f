"""Plays a tune's points (its trials, then its confirmation candidates) on the sweep engine: each batch of points is
a zip sweep of those points (`sim.play.sweep.play`: units on the executor, merged exactly, stored in the tune
folder's points/ as soon as complete), with common random numbers (every point the same seed, RNG point id 0 and
game indices, as a `sim sweep` point and a `sim run` of it).

A point already stored is not played again: in the tune's own store (a setting tried twice, a rerun, an
interrupted tune resumed), or in the store of any sweep or tune folder of the reports folder
(``reports/sweep-*/points``, ``reports/tune-*/points``), copied from there, since a point's key names everything its numbers depend on (`sim.play.sweep_store.point_key`).
"""

from __future__ import annotations

import shutil
from dataclasses import dataclass
from pathlib import Path

from sim.model.scenario import Scenario
from sim.model.sweep_spec import Point, Sweep
from sim.play import sweep as engine
from sim.play.context import RunContext
from sim.play.sweep_store import Store
from sim.play.work import Executor
from sim.stats import sweep_table as table


@dataclass
class Batch:
    """What `play` did: the key of every point given (in order), the keys played now, found stored, copied from
    a sweep's store, and the games played now."""

    keys: list[str]
    played: list[str]
    reused: list[str]
    copied: list[str]
    games: int


def as_sweep(points: list[tuple[dict, Scenario]], seed: int, games: int, measures: list[str]) -> Sweep:
    """The zip sweep of ``points`` [(values, scenario)] at ``seed`` and ``games``: the engine's unit of a batch
    (its points' per-game numerators of ``measures`` kept, to pair candidates game by game)."""
    pts = [Point(i, values, sc.with_changes(games=games, seed=seed)) for i, (values, sc) in enumerate(points)]
    base = pts[0].scenario
    return Sweep(base, [], "zip", pts, games, list(measures), None, False)


def sweep_stores(reports: Path | None) -> list[Store]:
    """The point stores of the sweep and tune folders directly under ``reports`` (none when it is None or
    missing)."""
    if reports is None or not Path(reports).is_dir():
        return []
    found = [*Path(reports).glob("sweep-*/points"), *Path(reports).glob("tune-*/points")]
    return [Store(p) for p in sorted(found) if p.is_dir()]


def play(
    points: list[tuple[dict, Scenario]],
    seed: int,
    games: int,
    measures: list[str],
    folder: Path,
    executor: Executor,
    chunk: int,
    progress: engine.Progress | None = None,
    ctx: RunContext | None = None,
    reuse: list[Store] | None = None,
) -> Batch:
    """Play the points of ``points`` not yet stored under ``folder``/points (a point twice in ``points`` is played
    once). KeyboardInterrupt passes through; the points finished before it stay stored."""
    sw = as_sweep(points, seed, games, measures)
    keys = engine.keys(sw)
    paired = engine.paired_names(sw)
    arc = table.recorded_arc(sw, measures)
    store = Store(Path(folder) / "points")
    copied = []
    for k in dict.fromkeys(keys):
        if store.has(k, paired, arc):
            continue
        for other in reuse or []:
            if other.has(k, paired, arc):
                store.folder.mkdir(parents=True, exist_ok=True)
                shutil.copyfile(other.folder / f"{k}.npz", store.folder / f"{k}.npz")
                shutil.copyfile(other.folder / f"{k}.json", store.folder / f"{k}.json")  # last: marks it complete
                copied.append(k)
                break
    first: dict[str, int] = {}
    for i, k in enumerate(keys):
        first.setdefault(k, i)
    todo = [sw.points[i] for i in first.values()]
    reused = [k for k in first if store.has(k, paired, arc) and k not in copied]
    uniq = Sweep(sw.base, [], "zip", [Point(j, p.values, p.scenario) for j, p in enumerate(todo)], games, sw.measures)
    done = engine.play(uniq, Path(folder), executor, chunk, progress, ctx)
    played = [engine.keys(uniq)[j] for j in done.played]
    return Batch(keys, played, reused, copied, games * len(played))


def load(folder: Path, key: str) -> dict:
    """A stored point's {sums, paired ({names, paired, finished}), games}."""
    store = Store(Path(folder) / "points")
    doc = store.load(key)
    return {"sums": doc["sums"], "paired": store.load_paired(key, doc), "games": doc["games"]}
