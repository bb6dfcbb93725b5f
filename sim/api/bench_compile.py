"""Cold compile CPU seconds, as `sim bench` takes them (docs/dev/performance.md, "make bench"): a fresh process with
an empty Numba cache, pinned to one CPU, plays one game; its user + system CPU time."""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
from collections.abc import Sequence

from sim.api.bench_c import bench_cpu
from sim.model.paths import REPO

# issue 20: the cold compile of the default scenario of every game and mode (`BenchSpec.compiles`) <= 15 CPU s
COMPILE_TARGET_CPU_S = 15


def cold_compile_cpu(path: str, cpu: int | None = None, at_skill: bool = False) -> float:
    """CPU seconds (user + system) of a fresh process with an empty cache that imports and plays the first game
    of ``path`` (``at_skill``: of its table at skill, every seat on its role's learned player), pinned to ``cpu``
    (`bench_cpu` by default) and with one OpenBLAS thread: the compile's cost, less sensitive to a shared machine's
    load than wall time (a loaded machine still inflates it: compare figures taken side by side)."""
    import resource
    import shutil

    cpu = bench_cpu() if cpu is None else cpu
    pin = ["taskset", "-c", str(cpu)] if shutil.which("taskset") else []
    # the skill table's module only where it is asked for: every other figure imports what it always did
    table = f"skill_table(load({path!r}), 1).scenario" if at_skill else f"load({path!r})"
    skill = "from sim.model.skill_spec import skill_table; " if at_skill else ""
    code = f"from sim.model.scenario import load; {skill}from sim.play import runner; runner.play_chunk({table}, 0, 1)"
    with tempfile.TemporaryDirectory() as d:
        env = dict(os.environ, SIM_CACHE_ROOT=d, OPENBLAS_NUM_THREADS="1")
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        subprocess.run([*pin, sys.executable, "-c", code], check=True, cwd=REPO, env=env, capture_output=True)
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime


def cold_compiles(paths: Sequence[str], rounds: int = 2, at_skill: bool = False) -> dict[str, list[float]]:
    """`cold_compile_cpu` of every scenario in ``paths`` (``at_skill``: of its table at skill), ``rounds`` times,
    the rounds one after the other (every scenario once, then again), so a change of the machine's load hits every
    scenario alike."""
    out: dict[str, list[float]] = {p: [] for p in paths}
    cpu = bench_cpu()
    for _ in range(rounds):
        for p in paths:
            out[p].append(round(cold_compile_cpu(p, cpu, at_skill), 2))
    return out
