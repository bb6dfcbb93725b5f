"""Entry points whose array arguments LLVM may take as distinct: ``njit(entry=True, noalias=True)``.

Without it LLVM must assume that a store through any array may change what any other array holds, so the game
loop reads back the state the previous step just wrote (a store to the event log might have changed it) instead of
keeping it in a register. Marking every array argument ``noalias`` (Numba's `noalias` compile flag, set as the
entry's lowering starts: kernels/_codegen.py) tells LLVM they never overlap: the Moor batch kernel plays about 3.5%
more games a second, the same games (docs/dev/performance.md, "Kernel/C").

That promise must hold, or the compiled code's behaviour is undefined: the dispatcher (`NoAliasDispatcher`) checks
every call from Python and raises ``ValueError`` naming the two arguments when two arrays among the arguments
(tuples and named tuples included) share any byte. The check costs a few microseconds a call; a batch call plays
thousands of games.
"""

from __future__ import annotations

import numpy as np
from numba.core.registry import CPUDispatcher
from numpy.lib.array_utils import byte_bounds


def _arrays(x, path: str, out: list[tuple[int, int, str]]) -> None:
    if isinstance(x, np.ndarray):
        if x.nbytes:
            lo, hi = byte_bounds(x)
            out.append((lo, hi, path))
    elif isinstance(x, tuple):
        for i, y in enumerate(x):
            _arrays(y, f"{path}[{i}]", out)


def check_distinct(args: tuple, kws: dict, names: tuple[str, ...] = ()) -> None:
    """Raise ``ValueError`` when two arrays among ``args``/``kws`` (searched through tuples) share memory; the message
    names both (argument name, or position, then the tuple index path)."""
    spans: list[tuple[int, int, str]] = []
    for i, a in enumerate(args):
        _arrays(a, names[i] if i < len(names) else f"argument {i}", spans)
    for k, v in kws.items():
        _arrays(v, k, spans)
    spans.sort()
    end, owner = -1, ""
    for lo, hi, path in spans:  # in order of start: an overlap is a start before the furthest end so far
        if lo < end:
            raise ValueError(f"kernel arguments {owner} and {path} share memory; each array argument must be its own")
        if hi > end:
            end, owner = hi, path


class NoAliasDispatcher(CPUDispatcher):
    """An entry point compiled with ``noalias`` array arguments; a call from Python is checked (`check_distinct`)."""

    def __call__(self, *args, **kws):
        check_distinct(args, kws, tuple(self.py_func.__code__.co_varnames[: self.py_func.__code__.co_argcount]))
        return super().__call__(*args, **kws)
