"""The games layer: each game's registration (its `GameSpec`, measures and replay), the only layer besides play
that imports `kernels`."""

from __future__ import annotations


def rng_contract() -> int:
    """The version of the kernels' random-number contract (`kernels.rng.RNG_CONTRACT`), for the layers above the
    games (only the play and games layers import `kernels`): a baseline, a report and a comparison record it."""
    from kernels.rng import RNG_CONTRACT

    return int(RNG_CONTRACT)


def read_specs_only() -> None:
    """Declare this process one that reads the games' specs and never plays (the web server; its workers play): the
    kernels imported from now on compile nothing until called (`kernels._jit.defer_compiles`), which keeps LLVM,
    64 MB, out of the process. Call it before the first game is imported."""
    from kernels._jit import defer_compiles

    defer_compiles()
