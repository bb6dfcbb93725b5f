"""The one place that owns every JIT flag, and why each is set.

- ``cache=True``: a warm `sim run` must start in well under 2 s; compiling the Moor kernel cold takes seconds.
  Numba keys its cache by the hash of the *decorated* file only, so an edit in a helper file (rng.py) would be
  missed. We therefore key the cache *folder* by a hash of all kernel sources (NUMBA-NOTES "Caching").
- ``nogil=True``: lets a caller run kernels from several Python threads if it wants to.
- ``parallel=True`` only on the batch entry points (`pjit`), which use ``prange`` over games.
- ``fastmath`` stays off: kernels are integer code and we want bit-identical results everywhere.
- ``error_model='numpy'``: integer division by zero must not raise inside prange (a raise serialises the loop).
- ``_nrt=False`` on every rule, strategy and RNG function (`njit`): they only read and write arrays their caller
  owns, so reference counting is pure overhead. With it on, each call between compiled functions paid an atomic
  incref/decref per array argument; turning it off took the Moor 4-player kernel from 43,000 to 61,000 games/s on
  one thread (measured 2026-11-29, `sim bench`). Numba itself enforces the contract: a function compiled this way
  cannot allocate an array (typing error) nor return an array that is not one of its arguments.
  Functions that allocate scratch use `njit_alloc`; batch entry points (`pjit`) allocate per block.
  Trap: when a function compiled without reference counting tries to allocate, Numba caches that failed typing of
  `np.zeros(...)` for the whole process, and later allocations with the same argument types fail too, even in
  `njit_alloc` functions. Fix the first error (mark the allocating function `njit_alloc`) and the rest go away.
"""
from __future__ import annotations

import hashlib
import os
import pathlib

_ROOT = pathlib.Path(__file__).resolve().parent


def source_hash() -> str:
    """Hash of every ``*.py`` under kernels/ (16 hex chars); part of the cache folder name."""
    h = hashlib.sha256()
    for p in sorted(_ROOT.rglob("*.py")):
        h.update(p.relative_to(_ROOT).as_posix().encode())
        h.update(p.read_bytes())
    return h.hexdigest()[:16]


def _cache_dir() -> str:
    base = os.environ.get("SIM_CACHE_ROOT") or str(_ROOT.parent / ".numba_cache")
    tag = source_hash()
    if os.environ.get("NUMBA_BOUNDSCHECK", "0") not in ("", "0"):
        tag += "-boundscheck"  # a filled unchecked cache would otherwise be loaded (NUMBA-NOTES)
    return os.path.join(base, tag)


CACHE_DIR = _cache_dir()
os.environ["NUMBA_CACHE_DIR"] = CACHE_DIR

import numba  # noqa: E402  (must come after NUMBA_CACHE_DIR is set)

numba.core.config.reload_config()  # in case numba was imported before us

_FLAGS = dict(cache=True, nogil=True, error_model="numpy")


def njit(*args, **kw):
    """`numba.njit` with the project's flags and no reference counting (see module docstring).

    For kernel functions that never allocate an array; use `njit_alloc` for those that do.
    """
    opts = {**_FLAGS, "_nrt": False, **kw}
    if args and callable(args[0]):
        return numba.njit(**opts)(args[0])
    return numba.njit(*args, **opts)


def njit_alloc(*args, **kw):
    """`numba.njit` with the project's flags and reference counting on: for functions that allocate arrays."""
    return njit(*args, **{"_nrt": True, **kw})


def pjit(fn):
    """`numba.njit(parallel=True)` with the project's flags, for batch entry points that use prange (they allocate
    per-block scratch, so reference counting stays on)."""
    return numba.njit(parallel=True, _nrt=True, **_FLAGS)(fn)
