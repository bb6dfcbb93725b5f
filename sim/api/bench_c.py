"""The Moor kernel against the plain C program on the same rules (issue 41's kernel/C figure of `make bench`): the
C yardstick built from its own folder beside the clone, both timed pinned to one CPU in CPU time, interleaved."""

from __future__ import annotations

import os
import subprocess
import time
from pathlib import Path

from sim.model.paths import REPO
from sim.model.scenario import load
from sim.play import runner

# the plain C yardstick (a measuring instrument, not project code: it is built from its own folder, never copied into
# the repository): ../shared/bench/moor/ next to the repository (or next to a folder above it, for a git worktree)
C_DIR = next(
    (d / "shared" / "bench" / "moor" for d in REPO.parents if (d / "shared" / "bench" / "moor").is_dir()),
    REPO.parent / "shared" / "bench" / "moor",
)
# `make build/moor_ref` (the Makefile's rule) or `build_c` writes it; build/ is ignored by git
C_BUILD = REPO / "build" / "moor_ref"
C_TARGET = 0.9  # issue 41: Moor kernel >= 0.9 x C's games/s on one pinned core, CPU time
C_PLAY_S = 5.0  # issue 41: about 5 s of play per timing, so start-up and timer noise are negligible
C_REPS = 5


def c_build_command(src: Path, out: Path, cc: str = "gcc") -> list[str]:
    """The C yardstick's build line (its README's: -O2 -march=native, one file, libm); the Makefile's rule is the same."""
    return [cc, "-O2", "-march=native", "-o", str(out), str(src), "-lm"]


def build_c() -> tuple[Path | None, str]:
    """The C yardstick's binary: build/moor_ref, (re)built from ../shared/bench/moor/moor_ref.c when missing or older
    than its source; (binary, '') or (None, one line saying why not)."""
    import shutil

    src = C_DIR / "moor_ref.c"
    if not src.exists():
        return None, f"not measured: no C yardstick at {src}"
    if C_BUILD.exists() and C_BUILD.stat().st_mtime >= src.stat().st_mtime:
        return C_BUILD, ""
    cc = shutil.which("gcc") or shutil.which("cc")
    if cc is None:
        return None, "not measured: no C compiler (gcc) on PATH to build the C yardstick"
    C_BUILD.parent.mkdir(exist_ok=True)
    r = subprocess.run(c_build_command(src, C_BUILD, cc), capture_output=True, text=True)
    if r.returncode != 0:
        return None, f"not measured: building the C yardstick failed: {' '.join(r.stderr.strip().splitlines()[-1:])}"
    return C_BUILD, ""


def bench_cpu() -> int:
    """The CPU the kernel/C timings are pinned to: ``SIM_BENCH_CPU``, else the last CPU this process may run on
    (on a shared machine, pick the quieter core with the variable)."""
    allowed = sorted(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else [0]
    return int(os.environ.get("SIM_BENCH_CPU", allowed[-1]))


def _c_cpu_seconds(binary: Path, games: int, cpu: int) -> float:
    """CPU seconds (user + system) of the C program playing ``games`` random 4-player games, pinned to ``cpu``."""
    import resource

    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    subprocess.run(
        ["taskset", "-c", str(cpu), str(binary), "-s", "random", "-n", str(games)], check=True, capture_output=True
    )
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime


def c_ratio(path: str = "scenarios/moor/4p.toml", play_s: float = C_PLAY_S, reps: int = C_REPS) -> dict:
    """Moor kernel against the C program on the same rules (4 players, uniformly random strategies), issue 41's way:
    both pinned to one CPU (`bench_cpu`), each timing about ``play_s`` seconds of play (the game count calibrated
    once; the kernel in the runner's blocks of about `runner.BLOCK_S`), kernel and C interleaved ``reps`` times, CPU
    time (the kernel's `play_batch` in this thread,
    ``time.thread_time``; the C child's rusage), best of each. Returns the games/s (CPU time) of every timing, the
    ratio of the bests (the reported figure) and the spread: the lowest and highest ratio of the timings taken side
    by side (kernel i against C i). CPU time does not count the time another process holds the core, but a loaded
    machine still slows both a little (shared caches): compare the ratio, not games/s of separate runs."""
    import shutil

    from kernels.batch import play_games
    from sim.model.scenario import Seat

    binary, why = build_c()
    if binary is None:
        return {"note": why}
    if not shutil.which("taskset") or not hasattr(os, "sched_setaffinity"):
        return {"note": "not measured: no taskset / sched_setaffinity to pin both programs to one CPU"}
    sc = load(REPO / path)
    sc = sc.with_changes(players=4, seats=tuple(Seat("random") for _ in range(4)))
    spec, p, prm = sc.spec, sc.players, sc.prm()
    k = spec.kernel()
    scratch = k.batch_scratch(p, prm)
    shape = (len(spec.curves), spec.curve_len)

    def kernel_cpu(game0: int, n: int, block: int) -> float:
        # in blocks the size the runner plays (about BLOCK_S each): one call over all n games would also time the
        # first touch of n rows of fresh output memory (2-4% at 900,000 games), which neither the C program nor the
        # runner's reused block buffers pay
        t0 = time.thread_time()
        for g in range(game0, game0 + n, block):
            m = min(block, game0 + n - g)
            play_games(
                k.play_batch, scratch, sc.seed, 0, g, m, p, prm, sc.sids(), sc.sparams(), len(spec.extra_columns), shape
            )
        return time.thread_time() - t0

    cpu = bench_cpu()
    old = os.sched_getaffinity(0)
    os.sched_setaffinity(0, {cpu})  # this thread: play_games runs the kernel here
    try:
        kernel_cpu(0, 64, 64)  # load / compile outside the timings
        probe = 20_000
        probe_s = max(kernel_cpu(0, probe, probe), 1e-3)
        k_games = max(probe, int(probe * play_s / probe_s))
        block = max(1_000, int(probe * runner.BLOCK_S / probe_s))
        c_games = max(probe, int(probe * play_s / max(_c_cpu_seconds(binary, probe, cpu), 1e-3)))
        kr, cr = [], []
        for rep in range(reps):
            kr.append(k_games / kernel_cpu(rep * k_games, k_games, block))
            cr.append(c_games / _c_cpu_seconds(binary, c_games, cpu))
    finally:
        os.sched_setaffinity(0, old)
    pairs = [a / b for a, b in zip(kr, cr, strict=True)]
    return {
        "cpu": cpu,
        "play_s": play_s,
        "kernel_games": k_games,
        "kernel_block": block,
        "c_games": c_games,
        "repetitions": reps,
        "kernel_games_per_s": [round(x) for x in kr],
        "c_games_per_s": [round(x) for x in cr],
        "ratio": round(max(kr) / max(cr), 3),
        "ratio_low": round(min(pairs), 3),
        "ratio_high": round(max(pairs), 3),
        "target": C_TARGET,
        "load_average": [round(x, 2) for x in os.getloadavg()],
    }
