"""kernels._jit: kernel functions compile without a CPython wrapper; Python calls reach a twin that has one."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path

import numpy as np
import pytest

from kernels import bits
from kernels._jit import KernelDispatcher
from kernels.treasure_hunters import play as th_play

REPO = Path(__file__).resolve().parents[2]


def test_kernel_functions_have_no_cpython_wrapper_and_entry_points_keep_it():
    assert isinstance(bits.only_set, KernelDispatcher)
    assert bits.only_set.targetoptions["no_cpython_wrapper"] is True
    assert not isinstance(th_play.play_batch, KernelDispatcher)
    assert "no_cpython_wrapper" not in th_play.play_batch.targetoptions


def test_a_python_call_goes_to_the_twin_and_gives_the_compiled_answer():
    mask = np.zeros(10, np.int8)
    mask[7] = 1
    assert bits.only_set(mask) == 7  # would jump to a null pointer without the twin
    twin = bits.only_set.python_twin()
    assert twin is bits.only_set.python_twin()  # made once
    assert twin.py_func.__qualname__ == "only_set__python"
    assert [str(s) for s in twin.signatures] == [str(s) for s in bits.only_set.signatures]
    assert bits.is_set(7, mask) and not bits.is_set(6, mask) and not bits.is_set(10, mask)


def test_the_twin_loads_from_the_cache_in_a_new_process(tmp_path):
    code = textwrap.dedent("""
        import numpy as np
        from kernels import bits
        m = np.zeros(4, np.int8); m[2] = 1
        assert bits.only_set(m) == 2
        st = bits.only_set.python_twin().stats
        print(sum(st.cache_hits.values()), sum(st.cache_misses.values()))
    """)
    env = dict(os.environ, SIM_CACHE_ROOT=str(tmp_path), PYTHONPATH=str(REPO))
    first = subprocess.run([sys.executable, "-c", code], cwd=REPO, env=env, capture_output=True, text=True, check=True)
    second = subprocess.run([sys.executable, "-c", code], cwd=REPO, env=env, capture_output=True, text=True, check=True)
    assert first.stdout.split() == ["0", "1"]  # compiled and saved
    assert second.stdout.split() == ["1", "0"]  # loaded, not compiled again


def test_a_co_op_kernel_compiles_no_head_haunter_code(tmp_path):
    """With an empty cache, a basic batch compiles the Head Haunter's entry points and the advanced game's move
    search only for None (each returns at once, the rest pruned) and never the planner's helpers; a Head Haunter
    batch then compiles the planner in full but still no move search; an advanced batch then compiles the search
    (kernels/README.md, "Cold compile")."""
    code = textwrap.dedent("""
        from sim.play import runner
        from sim.model.scenario import load
        from kernels.treasure_hunters import rules, strategies
        gated = (strategies.haunter_decide, rules.apply_target, rules.target_options, rules.move_search)
        helpers = (strategies.card_value, strategies.target_value, strategies.board_value, strategies.hh_prepare)
        def show():
            print([[str(sig[0]) for sig in f.signatures] for f in gated], [len(f.signatures) for f in helpers])
        for name in ("basic-4p", "head_haunter-4p", "advanced-4p"):
            runner.play_chunk(load(f"scenarios/treasure_hunters/{name}.toml"), 0, 4)
            show()
    """)
    # which signatures are compiled is settled by typing and Numba's branch pruning, before LLVM: its optimization
    # off (NUMBA_OPT=0) leaves them as they are and takes a third off this cold compile of three modes
    env = dict(os.environ, SIM_CACHE_ROOT=str(tmp_path), PYTHONPATH=str(REPO), NUMBA_NUM_THREADS="1", NUMBA_OPT="0")
    out = subprocess.run(
        [sys.executable, "-c", code], cwd=REPO, env=env, capture_output=True, text=True, check=True
    ).stdout.splitlines()
    assert out == [
        "[['none'], ['none'], ['none'], ['none']] [0, 0, 0, 0]",
        "[['none', 'int64'], ['none', 'int64'], ['none', 'int64'], ['none']] [1, 1, 1, 1]",
        "[['none', 'int64'], ['none', 'int64'], ['none', 'int64'], ['none', 'int64']] [1, 1, 1, 1]",
    ]


@pytest.mark.skipif(os.name != "posix", reason="the cache lock is fcntl's")
def test_a_cache_save_waits_for_another_process_holding_the_functions_cache_lock(tmp_path):
    """Processes sharing a kernel cache (parallel test workers, Dask workers) save one function's index and machine
    code as one step (`kernels._jit._locked`): a save waits while another holder has the function's lock, then
    completes, and a load finds what it saved."""
    import fcntl
    import threading

    from numba.core.caching import IndexDataCacheFile

    cache = IndexDataCacheFile(str(tmp_path), "mod.fn-1.py311", "stamp")
    holder = os.open(str(tmp_path / "mod.fn-1.py311.nbi.lock"), os.O_RDWR | os.O_CREAT)
    fcntl.flock(holder, fcntl.LOCK_EX)  # as another process in the middle of its own save
    saver = threading.Thread(target=cache.save, args=(("sig", "target"), b"machine code"))
    saver.start()
    saver.join(0.5)
    waited = saver.is_alive()
    os.close(holder)
    saver.join(10)
    assert waited and not saver.is_alive()
    assert cache.load(("sig", "target")) == b"machine code"
