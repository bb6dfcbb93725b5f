"""Numba game kernels. Pure numba + numpy; never imports `sim`.

Importing this package first points Numba's on-disk cache at a folder keyed by a hash of every kernel
source file (see `_jit.py`), so an edit anywhere under kernels/ can never run stale machine code.
"""

from kernels import _jit  # noqa: F401  (sets NUMBA_CACHE_DIR before any kernel is compiled)
