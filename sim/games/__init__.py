"""The games layer: each game's registration (its `GameSpec`, measures and replay), the only layer besides play
that imports `kernels`."""

from __future__ import annotations


def rng_contract() -> int:
    """The version of the kernels' random-number contract (`kernels.rng.RNG_CONTRACT`), for the layers above the
    games (only the play and games layers import `kernels`): a baseline, a report and a comparison record it."""
    from kernels.rng import RNG_CONTRACT

    return int(RNG_CONTRACT)
