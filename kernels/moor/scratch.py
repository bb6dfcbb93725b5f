"""Ghosts of the Moor: the layout of a `play_batch` call's scratch (a named tuple Numba reads field by field, as it
read the positions before; `play.new_scratch` allocates it in plain numpy, so the kernel compiles no allocation)."""

from __future__ import annotations

from typing import Any, NamedTuple

import numpy as np


class BatchScratch(NamedTuple):
    """The ``batch`` argument of `play_batch` (``ws`` of the step verbs)."""

    st: np.ndarray  # int32[S_SIZE]: the game's state (after a batch: the last game's final state)
    rng: np.ndarray  # uint64[N_STREAMS_MAX, 4]: the game's streams (row 0 chance, 1 + seat strategy)
    scores_pos: np.ndarray  # int32[MAX_PLAYERS]: the final scores by turn position (`rules.returns`)
    log: Any  # int32[L, 6]: the event log (row 0 col 0 = rows used; one row records nothing), or None (a batch's)
    deal_out: np.ndarray  # int32[33] (a trace: the dealt order kept) or int32[0]
    order: np.ndarray  # int32[33]: the deal (and the re-deal's tiles)
    mask: np.ndarray  # int8[N_ACTIONS]: the legal-action mask `step.legal_actions` fills
    legal: np.ndarray  # int8[N_ACTIONS]: the legal actions in increasing order, `step.legal_actions` lists them
    learned: Any  # the learned policy's scratch (`kernels.policy.new_marker`), or None: its code left out
