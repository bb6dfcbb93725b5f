"""Pure-Python reference implementations ("oracles") of the game rules.

Plain, readable Python: no Numba, no numpy in the hot loop. They exist to be compared against the Numba kernels
(tests/kernels/<game>/test_oracle.py) and to measure the kernels' speed-up (`games_per_second`). An oracle never
imports `kernels`: it re-implements the rules from the game's RULES.md and the RNG contract from the docstring of
kernels/rng.py, so a shared bug would have to be written twice, independently.
"""
