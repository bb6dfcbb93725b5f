"""Ghost Fightin' Treasure Hunters: the layout of a `play_batch` call's scratch (named tuples Numba reads field by
field, as it read the positions before; `play.batch_scratch` allocates them in plain numpy, so the kernel compiles
no allocation)."""

from __future__ import annotations

from typing import Any, NamedTuple

import numpy as np


class Work(NamedTuple):
    """The strategies' and rules' arrays (`play.new_scratch`)."""

    mask: np.ndarray  # int8[N_ACTIONS]: the legal-action mask `step.legal_actions` fills
    tmp: np.ndarray  # int32[TMP_SIZE]: the move search (`rules.legal_actions`), read by the strategies
    pool: np.ndarray  # int32[MAX_CARDS]: the Ghost Card pile at a shuffle (and the re-deal's pool)
    nums: np.ndarray  # int32[N_JEWELS]: the jewel numbers dealt (and the re-deal's)
    wrows: np.ndarray  # float64[n, N_SPARAMS]: each seat's effective weight row (`strategies.effective_rows`)


class BatchScratch(NamedTuple):
    """The ``batch`` argument of `play_batch` (``ws`` of the step verbs). A field of type None leaves its code out
    of the compiled kernel (its type makes Numba compile a kernel without it)."""

    st: np.ndarray  # int32[S_SIZE]: the game's state (after a batch: the last game's final state)
    rng: np.ndarray  # uint64[N_STREAMS_MAX, 4]: the game's streams (row 0 chance, 1 + seat strategy)
    log: np.ndarray  # int32[L, 6]: the event log (row 0 col 0 = rows used); one row records nothing
    steps: np.ndarray  # int32[K, 2]: the recorded steps (golden traces); one row records nothing
    work: Work
    hh: Any  # int64 1, or None in a co-op game: the Head Haunter's planner left out
    adv: Any  # int64 1, or None unless an advanced game: jewels revealed on the way left out
    learned: Any  # the learned policies' scratch (`kernels.policy.new_marker`), or None: their code left out
