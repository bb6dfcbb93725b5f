"""Python's full garbage collections held back while Numba compiles.

A cold compile builds a large, growing heap of long-lived objects (bytecode, Numba IR, types, llvmlite IR), and
CPython's full (generation 2) collection walks all of it each time the heap has grown by a quarter: 9 full
collections and about 1.1-1.4 of the 15 CPU s of galleon/search-4p's cold compile (measured 2026-12-07 with
`gc.callbacks`), for little garbage: compiled with them held back, the process peaks about 20 MB higher. The young
generations' collections, which free the short-lived garbage, run as before; the threshold of full collections is
restored when the outermost compile returns, and the next full collection takes what was held back. Nothing a
compile produces depends on when Python collects: the same machine code, the same results.
"""

from __future__ import annotations

import functools
import gc

# A full collection runs when the middle generation has been collected this many times; CPython's default is 10.
_HELD_BACK = 1_000_000

_depth = [0]


def _held_back(compile_):
    """``Dispatcher.compile`` with full collections held back while the outermost compile of this process runs
    (nested compiles of callees, typed inside it, leave the setting to the outermost). Runs under Numba's global
    compiler lock (reentrant), so the depth count is never raced."""
    from numba.core.compiler_lock import global_compiler_lock

    @functools.wraps(compile_)
    def compile(self, sig):
        with global_compiler_lock:
            if _depth[0] == 0:
                saved = gc.get_threshold()
                gc.set_threshold(saved[0], saved[1], _HELD_BACK)
            _depth[0] += 1
            try:
                return compile_(self, sig)
            finally:
                _depth[0] -= 1
                if _depth[0] == 0:
                    gc.set_threshold(*saved)

    compile._sim_gc = True  # type: ignore[attr-defined]
    return compile


def install() -> None:
    """Wrap `numba.core.dispatcher.Dispatcher.compile` (once a process)."""
    from numba.core import dispatcher

    if not getattr(dispatcher.Dispatcher.compile, "_sim_gc", False):
        dispatcher.Dispatcher.compile = _held_back(dispatcher.Dispatcher.compile)
