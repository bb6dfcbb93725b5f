"""The games layer: each game's registration (its `GameSpec`, measures and replay), the only layer besides play
that imports `kernels`.

Importing this package turns on `kernels._jit.defer_compiles` for the process: a game's spec (its parameters,
strategies and checks) imports the game's kernel modules, and a scenario and its overrides are validated against
that spec before any kernel function is compiled or loaded from the Numba cache, so bad input is one line at once
(`sim run FILE --set track_len=-3`: about 1 s, not the 2-20 s of loading or compiling the kernels first). A kernel
compiles its declared signatures when first played, as it would have at import: the same machine code.
"""

from __future__ import annotations

from kernels._jit import defer_compiles as _defer_compiles

_defer_compiles()


def rng_contract() -> int:
    """The version of the kernels' random-number contract (`kernels.rng.RNG_CONTRACT`), for the layers above the
    games (only the play and games layers import `kernels`): a baseline, a report and a comparison record it."""
    from kernels.rng import RNG_CONTRACT

    return int(RNG_CONTRACT)


def read_specs_only() -> None:
    """Declare this process one that reads the games' specs and never plays (the web server; its workers play): the
    kernels imported from now on compile nothing until called (`kernels._jit.defer_compiles`, already on once this
    package is imported), which keeps LLVM, 64 MB, out of the process. Call it before the first kernel import."""
    _defer_compiles()
