"""The learned players' selection step, shared by every game: pick an action from scores already computed.

A game's learned policy (``kernels/<game>/features.py``) scores each legal action once, score(a) = sum_i w[i] *
f_i(a) in feature order, into the scratch of the batch's learned marker (`new_marker`, allocated by the caller, so
nothing is allocated here): the legal actions in ascending order with their scores, then calls `select`. Scoring
each action once matters where features are dear (Turnwall's look at the moves left after an action); the selection
is the same in every game, so it lives here.
"""

from __future__ import annotations

import math
from typing import NamedTuple

import numpy as np

from kernels._jit import njit
from kernels.rng import next_u64

UNIT = 1.0 / 9007199254740992.0  # 2**-53: a 53-bit draw as a float in [0, 1)


class Marker(NamedTuple):
    """The policy's scratch, a batch scratch's learned marker (a named tuple Numba reads field by field)."""

    scores: np.ndarray  # float64[n_actions]: the legal actions' scores (first k entries, or at each action's index)
    acts: np.ndarray  # int64[n_actions]: the legal actions, ascending, beside their scores


def new_marker(n_actions):
    """The policy's scratch (plain numpy): a `Marker` of n_actions entries."""
    return Marker(np.zeros(n_actions, dtype=np.float64), np.zeros(n_actions, dtype=np.int64))


@njit("int64(float64[::1], int64[::1], int64, float64, uint64[:, ::1], int64)")
def select(scores, acts, k, temp, rng, row):
    """One of the ``k`` legal actions ``acts[:k]`` (ascending) scored ``scores[:k]``: with temperature ``temp`` <= 0
    the highest score (ties: the lower action index), no random draw; with ``temp`` > 0 an action drawn with
    probability proportional to exp((score - best) / temp), by one draw from the seat's stream ``rng[row]`` (summed
    in action order: the same float64 sums on every machine). -1 when ``k`` is 0."""
    best = -math.inf
    best_a = -1
    for j in range(k):
        if scores[j] > best:
            best = scores[j]
            best_a = acts[j]
    if temp <= 0.0:
        return best_a
    total = 0.0
    for j in range(k):
        total += math.exp((scores[j] - best) / temp)
    u = (next_u64(rng, row) >> np.uint64(11)) * UNIT * total
    acc = 0.0
    last = best_a
    for j in range(k):
        acc += math.exp((scores[j] - best) / temp)
        last = acts[j]
        if u < acc:
            return last
    return last


@njit
def select_dense(marker, mask, temp, rng, row):
    """`select` for a policy that scored the legal actions of ``mask`` (int8[n_actions]) at their own index of the
    marker's scores (Treasure Hunters' hunter and Head Haunter): packed in place into the marker's first k entries
    (ascending, as `select` takes them), then selected. -1, drawing nothing, when no action is legal."""
    scores, acts = marker.scores, marker.acts
    k = 0
    for a in range(mask.shape[0]):
        if mask[a]:
            scores[k] = scores[a]
            acts[k] = a
            k += 1
    if k == 0:
        return -1
    return select(scores, acts, k, temp, rng, row)
