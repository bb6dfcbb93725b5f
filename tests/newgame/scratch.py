"""Dice Race: the layout of a `play_batch` call's scratch (a named tuple Numba reads field by field;
`play.batch_scratch` allocates it in plain numpy, so the kernel compiles no allocation)."""

from __future__ import annotations

from typing import NamedTuple

import numpy as np


class BatchScratch(NamedTuple):
    """The ``batch`` argument of `play_batch` (``ws`` of the step verbs)."""

    rng: np.ndarray  # uint64[N_STREAMS_MAX, 4]: the game's streams (row 0 chance, 1 + seat strategy)
    st: np.ndarray  # int32[ST_SIZE]: the game's state
    log: (
        np.ndarray
    )  # int32[LOG_CAP, 4]: the last game's log (row 0 col 0: turns logged; then seat, roll, moved, reached)
    mask: np.ndarray  # int8[N_ACTIONS]: the legal-action mask
    choices: np.ndarray  # int64[1]: a dawdler's choices this game (the extra column ``decisions``)
