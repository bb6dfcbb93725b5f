"""`sim run-defaults`' first step: fill the compiled-kernel cache for the default scenarios in worker processes,
one per core (up to two), before any game is played. Numba compiles on one core, and a game's kernels take 5-25
CPU seconds a variant (the plain batch, with the game's arc recorded, with the learned players of "At skill"): played
in turn, `make run` left the second core idle through every compile. The games are split between the processes, the
costliest first; each process compiles what a scenario of its games needs by playing it for a few games, as `sim
run-defaults` will (its arc, its table at skill), writing nothing. The processes share the cache folder safely (a
per-function lock, `kernels._jit`). Figures do not depend on it: a warmed kernel is the one the run would compile.

Run as ``python -m sim.api.warm FILE ...`` by `warm_kernels`."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path

from sim.model.paths import REPO


def costliest_first(games: Sequence[str]) -> list[str]:
    """``games`` by their compile cost (`GameSpec.compile_s`), costliest first; a game without one last, in the
    order given."""
    from sim.model import registry

    def cost(g: str) -> float:
        spec = registry.get(g)
        return spec.compile_s if spec is not None else 0.0

    return sorted(games, key=cost, reverse=True)


def split(files: Sequence[Path], processes: int) -> list[list[Path]]:
    """The scenario ``files`` (scenarios/<game>/*.toml) as at most ``processes`` lists: with two, the costliest
    game's files in one and every other game's in the other (a game's variants compile in one process, each once)."""
    by_game: dict[str, list[Path]] = {}
    for f in files:
        by_game.setdefault(f.parent.name, []).append(f)
    order = costliest_first(list(by_game))  # the split puts the first game in one process and the rest in the other
    if processes <= 1 or len(order) <= 1:
        return [[f for g in order for f in by_game[g]]] if order else []
    return [by_game[order[0]], [f for g in order[1:] for f in by_game[g]]]


def warm_kernels(
    files: Sequence[Path], processes: int | None = None, say: Callable[[str], None] | None = None, every_s: float = 10.0
) -> float:
    """Compile what ``files`` need into the kernel cache in ``processes`` worker processes (default: one per core,
    up to two); returns the seconds it took. ``say`` gets a line at the start and every ``every_s`` seconds. A
    worker that fails is not an error here (the run then compiles what is missing itself, and says any real error
    itself); KeyboardInterrupt stops the workers and passes through."""
    n = processes if processes is not None else min(2, os.cpu_count() or 1)
    parts = [p for p in split(files, n) if p]
    if not parts:
        return 0.0
    t0 = time.perf_counter()
    if say:
        games = costliest_first(sorted({f.parent.name for f in files}))
        say(f"compiling the kernels of {', '.join(games)} in {len(parts)} processes (cached for every later run) ...")
    procs = [
        subprocess.Popen(
            [sys.executable, "-m", "sim.api.warm", *map(str, part)],
            cwd=REPO,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            start_new_session=True,  # a Ctrl-C at the terminal is the parent's to handle: it stops them
        )
        for part in parts
    ]
    try:
        last = time.perf_counter()
        while any(p.poll() is None for p in procs):
            time.sleep(0.2)
            if say and time.perf_counter() - last >= every_s:
                last = time.perf_counter()
                say(f"  still compiling ({time.perf_counter() - t0:.0f} s) ...")
    finally:
        for p in procs:
            if p.poll() is None:
                p.kill()
                p.wait()
    return time.perf_counter() - t0


def _warm_one(path: Path) -> None:
    """Play scenario ``path`` for a few games as `sim run-defaults` plays it (its arc recorded, its table at skill),
    writing nothing: every kernel variant it needs is then in the cache."""
    from sim.api import runs
    from sim.model.scenario import load
    from sim.play.context import RunContext

    sc = load(path)
    n = max(sc.players, 2)
    runs.run(sc, games=n, ctx=RunContext(threads=1).with_(arc=True), at_skill=True, skill_games=n)


def main(argv: Sequence[str]) -> int:
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # the parent stops this process (warm_kernels)
    for arg in argv:
        _warm_one(Path(arg))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
