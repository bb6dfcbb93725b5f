"""kernels/loop.py, the one game loop: every game's batch is the same loop over its step verbs, it loads from
Numba's cache in a new process, and it plays rollouts from a copied mid-game state (``resume``)."""

from __future__ import annotations

import importlib
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import numpy as np
import pytest

from kernels import loop
from kernels.batch import BatchOutputs, play_games

REPO = Path(__file__).resolve().parents[2]
SCENARIOS = {
    "moor": "scenarios/moor/4p.toml",
    "th_basic": "scenarios/treasure_hunters/basic-4p.toml",
    "th_advanced": "scenarios/treasure_hunters/advanced-4p.toml",
    "th_head_haunter": "scenarios/treasure_hunters/head_haunter-4p.toml",
    "turnwall": "scenarios/turnwall/4p.toml",
    "galleon": "scenarios/galleon/4p.toml",
}
# where each game's batch scratch keeps the state vector
STATE = {
    "moor": lambda b: b.st,
    "treasure_hunters": lambda b: b.st,
    "turnwall": lambda b: b.work.st,
    "galleon": lambda b: b.work.st,
}


def _load(key):
    from sim.model.scenario import load

    sc = load(REPO / SCENARIOS[key])
    return sc, importlib.import_module(sc.spec.kernel_module)


def _play(k, sc, game0, n_games, prm, batch, check=False, resume=None, seed=5) -> BatchOutputs:
    """The outputs of ``n_games`` games through ``k.play_batch`` (`kernels.batch.play_games`)."""
    spec = sc.spec
    args = (k.play_batch, batch, seed, 0, game0, n_games, sc.players, prm, sc.sids(), sc.sparams())
    return play_games(*args, len(spec.extra_columns), (len(spec.curves), spec.curve_len), check=check, resume=resume)


def test_every_game_binds_the_one_loop_with_its_own_cache_name():
    for key in SCENARIOS:
        sc, k = _load(key)
        assert k.play_batch.py_func.__code__ is loop._play_batch.__code__, key
        assert k.play_batch.py_func.__qualname__.startswith(f"play_batch__{sc.game}_")


def test_bind_names_the_missing_verbs():
    import types

    with pytest.raises(AttributeError, match="to_move"):
        loop.bind(types.SimpleNamespace(__name__="half", parts=None), "half")


@pytest.mark.parametrize("key", sorted(SCENARIOS))
def test_resuming_a_finished_game_gives_that_games_outputs(key):
    sc, k = _load(key)
    prm = sc.prm()
    g = 7
    batch = k.batch_scratch(sc.players, prm)
    alone = _play(k, sc, g, 1, prm, batch)
    end = STATE[sc.game](batch).copy()
    again = _play(k, sc, g, 1, prm, k.batch_scratch(sc.players, prm), resume=end)
    for a, b in zip(alone, again, strict=True):
        assert np.array_equal(a, b)


@pytest.mark.parametrize("key, cap", [("moor", 12), ("turnwall", 6), ("galleon", 8)])
def test_rollouts_from_a_copied_mid_game_state_play_on_to_the_end(key, cap):
    from kernels.galleon.rules import P_MAX_TURNS as GALLEON_CAP
    from kernels.moor.rules import P_MAX_TURNS as MOOR_CAP
    from kernels.turnwall.rules import P_MAX_TURNS as TURNWALL_CAP

    sc, k = _load(key)
    sc = sc.with_changes(seats=tuple(type(s)("random", {}) for s in sc.seats))
    prm = sc.prm()
    short = prm.copy()
    short[{"moor": MOOR_CAP, "turnwall": TURNWALL_CAP, "galleon": GALLEON_CAP}[sc.game]] = cap
    batch = k.batch_scratch(sc.players, prm)
    cut = _play(k, sc, 3, 1, short, batch)
    assert cut.status[0] == loop.ST_TRUNCATED and cut.turns[0] == cap
    mid = STATE[sc.game](batch).copy()
    kept = mid.copy()
    check = sc.game != "moor"
    a = _play(k, sc, 100, 16, prm, k.batch_scratch(sc.players, prm), check=check, resume=mid)
    b = _play(k, sc, 100, 16, prm, k.batch_scratch(sc.players, prm), check=check, resume=mid)
    assert np.array_equal(mid, kept)  # the start state is copied, never played on
    for x, y in zip(a, b, strict=True):
        assert np.array_equal(x, y)  # a rollout depends only on (seed, point, game index, start state)
    assert (a.status <= loop.ST_TRUNCATED).all(), a.status  # every rollout ends (or reaches the cap), invariants held
    assert (a.status == loop.ST_DONE).any() and (a.turns > cap).all()  # ... after the turns already played
    assert len({tuple(r) for r in a.scores}) > 1  # each rollout its own dice


def test_every_games_batch_loads_from_the_cache_in_a_new_process():
    """A new process plays every game's batch from the kernel cache the suite shares (filled before the workers
    start, tests/warm_kernels.py: compiled and saved in another process), compiling nothing. Where that cache is
    not filled yet (a run without the warm-up), the first process compiles and saves, and a second must load."""
    code = textwrap.dedent(f"""
        import importlib
        from sim.model.scenario import load
        from sim.play import runner
        for p in {list(SCENARIOS.values())!r}:
            sc = load(p)
            runner.play_chunk(sc, 0, 4)
            st = importlib.import_module(sc.spec.kernel_module).play_batch.stats
            print(p, sum(st.cache_hits.values()), sum(st.cache_misses.values()))
    """)
    env = dict(os.environ, PYTHONPATH=str(REPO))
    run = [sys.executable, "-c", code]
    for _ in range(2):
        out = subprocess.run(run, cwd=REPO, env=env, capture_output=True, text=True, check=True).stdout.splitlines()
        assert len(out) == len(SCENARIOS), out
        if all(line.split()[2] == "0" for line in out):
            break  # loaded, nothing compiled; else this process compiled and saved, and the next must load
    for line in out:
        path, hits, misses = line.split()
        assert (int(hits), int(misses)) >= (1, 0) and int(misses) == 0, line  # loaded, no compile
