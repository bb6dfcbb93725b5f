"""Fill the kernel cache before the parallel test workers start (tests/conftest.py runs this, one process per
worker, the games split between them).

What it compiles for each game it is given: its kernel modules (their functions with explicit signatures compile
on import) and its `play_batch` as the runner (every scenario file of the game, two games each: the batch and the
search specialisations), the invariant checks (`check`) and `sim replay` call it. The workers then load these from
the cache: without it, each worker compiled every kernel module of the suite while collecting (each imports every
test module), and both compiled the same kernels at the same moment. What is left to the workers: the
Python-callable twins the rule tests call and rare specialisations (`--dist loadgroup` keeps one game's kernel
tests on one worker, so those compile once).

Processes sharing the cache folder are safe: saves and loads hold a per-function lock (`kernels._jit._locked`).

Usage: python tests/warm_kernels.py [GAME ...]   (default: every game; prints what it did and how long it took)
       python tests/warm_kernels.py --processes N   (every game, in up to N processes at once: `fill`)
"""

from __future__ import annotations

import importlib
import pkgutil
import subprocess
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
GAMES = ("moor", "treasure_hunters", "turnwall", "galleon")
CHECKED = ("treasure_hunters", "turnwall", "galleon")  # play_batch takes a check argument
# the games split between the processes that fill the cache, the costliest first (Treasure Hunters: three modes)
SPLIT = {
    1: [["treasure_hunters", "turnwall", "galleon", "moor"]],
    2: [["treasure_hunters"], ["turnwall", "galleon", "moor"]],
}


def compile_declared(module) -> None:
    """Compile now the declared signatures of ``module``'s kernel functions that wait for their first use: once
    sim.games is imported (the previous game's scenarios loaded), importing a kernel module compiles nothing
    (`kernels._jit.defer_compiles`), and the workers would compile what no scenario plays."""
    for v in list(vars(module).values()):
        declared = getattr(v, "_compile_declared", None)
        if callable(declared):
            declared()


def warm(game: str) -> int:
    """Compile ``game``'s kernels into the cache; returns the number of scenario files played."""
    mod = importlib.import_module(f"kernels.{game}")
    for m in pkgutil.walk_packages(mod.__path__, f"kernels.{game}."):
        compile_declared(importlib.import_module(m.name))

    from kernels.batch import play_games
    from sim.api import core
    from sim.model.scenario import load
    from sim.play import runner

    files = sorted((REPO / "scenarios" / game).glob("*.toml"))
    for p in files:
        runner.play_chunk(load(p).with_changes(games=2), 0, 2)
    default = load(REPO / "scenarios" / game / ("basic-4p.toml" if game == "treasure_hunters" else "4p.toml"))
    if game in CHECKED:
        k = importlib.import_module(default.spec.kernel_module)
        prm = default.prm()
        play_games(
            k.play_batch,
            k.batch_scratch(default.players, prm),
            1,
            0,
            0,
            1,
            default.players,
            prm,
            default.sids(),
            default.sparams(),
            len(default.spec.extra_columns),
            (len(default.spec.curves), default.spec.curve_len),
            check=True,
        )
    for p in [q for q in files if q.name == "4p.toml" or q.name.startswith("search-")]:
        core.replay(load(p), 0)
    return len(files)


def main(games: list[str]) -> int:
    sys.path[:0] = [str(REPO)]
    for game in games:
        if game not in GAMES:
            print(f"warm_kernels: no game {game!r} (one of {', '.join(GAMES)})", file=sys.stderr)
            return 2
    said = []
    for game in games:
        t = time.perf_counter()
        n = warm(game)
        said.append(f"{game} {time.perf_counter() - t:.0f} s ({n} scenario files)")
    print(f"warm_kernels: {', '.join(said)}", flush=True)
    return 0


def fill(processes: int) -> list[str]:
    """Fill the cache with every game's kernels in ``processes`` (1 or 2; more count as 2) processes of this script
    at once, the games split as `SPLIT`: what each said. Raises RuntimeError with a failing one's exit code and the
    end of its stderr."""
    procs = [
        subprocess.Popen(
            [sys.executable, str(Path(__file__).resolve()), *games],
            cwd=REPO,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for games in SPLIT[min(2, max(1, processes))]
    ]
    said = []
    for p in procs:
        out, err = p.communicate()
        if p.returncode != 0:
            raise RuntimeError(f"tests/warm_kernels.py failed (exit {p.returncode}):\n{err[-3000:]}")
        said.append(out.strip().removeprefix("warm_kernels: "))
    return said


if __name__ == "__main__":
    if sys.argv[1:2] == ["--processes"]:
        t0 = time.perf_counter()
        said = fill(int(sys.argv[2]))
        print(f"kernel cache filled in {time.perf_counter() - t0:.0f} s: {'; '.join(said)}", flush=True)
        sys.exit(0)
    sys.exit(main(sys.argv[1:] or list(GAMES)))
