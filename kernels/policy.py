"""The learned players' choice among scored actions, shared by every game's `learned` strategy.

A game's features module scores each legal action (``scores[a] = sum_i w[i] * f_i(a)``, summed in feature order in
float64: no BLAS, no fastmath, the same on every machine) and `choose_scored` picks among them: with temperature
<= 0 the highest score (ties to the lower action index), no random draw; with temperature > 0 an action drawn with
probability proportional to exp(score / temperature), one draw from the seat's stream (NUMBA-NOTES.md, "Learned
models inside kernels").
"""

from __future__ import annotations

import math

import numpy as np

from kernels._jit import njit
from kernels.rng import next_u64


@njit
def choose_scored(scores, mask, temp, rng, row):
    """The chosen action among those with ``mask[a]`` != 0 (int8[A]), from ``scores`` (float64[A], read only where
    legal); -1 when none is legal. ``temp``: the policy temperature; ``rng[row]``: the seat's stream (drawn from only
    when ``temp`` > 0)."""
    best = -math.inf
    best_a = -1
    for a in range(mask.shape[0]):
        if mask[a] and (best_a < 0 or scores[a] > best):
            best = scores[a]
            best_a = a
    if temp <= 0.0 or best_a < 0:
        return best_a
    total = 0.0
    for a in range(mask.shape[0]):
        if mask[a]:
            total += math.exp((scores[a] - best) / temp)
    u = (next_u64(rng, row) >> np.uint64(11)) * (1.0 / 9007199254740992.0) * total
    acc = 0.0
    last = best_a
    for a in range(mask.shape[0]):
        if mask[a]:
            acc += math.exp((scores[a] - best) / temp)
            last = a
            if u < acc:
                return a
    return last
