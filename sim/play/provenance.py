"""Where a result comes from: the scenario file and input files by path and SHA-256, every seat's parameters as
played, seed, games, rules version, RNG contract, package versions, git commit, threads, chunk and wall time
(provenance.json, compare.json)."""

from __future__ import annotations

import datetime as dt
import subprocess
import sys
from importlib import metadata
from pathlib import Path

from sim.model.paths import REPO
from sim.model.scenario import Scenario
from sim.model.search import seats_as_played as effective_seats  # every seat's parameters as played

PACKAGES = ("numba", "llvmlite", "numpy", "polars", "typer", "scipy", "matplotlib")


def git_commit() -> str:
    """HEAD commit of the repo (with '-dirty' when tracked files changed), or 'unknown'."""
    try:
        c = subprocess.run(["git", "-C", str(REPO), "rev-parse", "HEAD"], capture_output=True, text=True, timeout=5)
        if c.returncode != 0:
            return "unknown"
        d = subprocess.run(
            ["git", "-C", str(REPO), "status", "--porcelain", "--untracked-files=no"],
            capture_output=True,
            text=True,
            timeout=5,
        )
        return c.stdout.strip() + ("-dirty" if d.stdout.strip() else "")
    except (OSError, subprocess.SubprocessError):
        return "unknown"


def provenance(sc: Scenario, games: int, seed: int, wall_s: float, threads: int, chunk: int) -> dict:
    """Where a result comes from: seed, games, versions, commit, wall time."""
    from kernels.rng import RNG_CONTRACT

    pk: dict[str, str | None] = {"python": sys.version.split()[0]}
    for p in PACKAGES:
        try:
            pk[p] = metadata.version(p)
        except metadata.PackageNotFoundError:
            pk[p] = None
    from sim.model.scenario import input_files, sha256_file

    return {
        "scenario": sc.name,
        "scenario_file": sc.path,
        "scenario_path": str(Path(sc.path).resolve()) if sc.path else "",
        "scenario_sha256": sha256_file(sc.path) if sc.path else None,
        "overrides": [{"name": n, "value": v} for n, v in sc.overrides],
        "seats": effective_seats(sc),
        "files": input_files(sc),
        "game": sc.game,
        "seed": seed,
        "games": games,
        "rules_version": sc.spec.rules_version,
        "rng_contract": RNG_CONTRACT,
        "packages": pk,
        "git_commit": git_commit(),
        "wall_time_s": round(wall_s, 3),
        "threads": threads,
        "chunk": chunk,
        "created_utc": dt.datetime.now(dt.UTC).isoformat(timespec="seconds"),
    }
