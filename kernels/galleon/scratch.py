"""Ghostly Galleon: the layout of a `play_batch` call's scratch (named tuples Numba reads field by field, as it read
the positions before; `play.batch_scratch` allocates them in plain numpy, so the kernel compiles no allocation)."""

from __future__ import annotations

from typing import Any, NamedTuple

import numpy as np


class Work(NamedTuple):
    """The per-call arrays (`play.new_scratch`)."""

    st: np.ndarray  # int32[S_SIZE]: the game's state (after a batch: the last game's final state)
    rng: np.ndarray  # uint64[N_STREAMS_MAX, 4]: the game's streams (row 0 chance, 1 + seat strategy)
    mask: np.ndarray  # int8[N_ACTIONS]: the legal-action mask `step.legal_actions` fills
    order: np.ndarray  # int32[20]: the deal (chest contents, stickers, the stack), `step.new_game`
    reach: np.ndarray  # int32[MAX_SPACES]: the rules' reach scratch (the re-deal's pool)
    cavek: np.ndarray  # int32[MAX_SPACES]: cave keys (the re-deal's new places)
    vis: np.ndarray  # int32[MAX_SPACES]: visits (the re-deal's free places)
    stk: np.ndarray  # int32[4 * 13]: the stack (the re-deal's order)
    wrows: np.ndarray  # float64[n, N_SPARAMS]: each seat's effective weight row (`strategies.effective_rows`)


class BatchScratch(NamedTuple):
    """The ``batch`` argument of `play_batch` (``ws`` of the step verbs)."""

    work: Work
    log: np.ndarray  # int32[L, 6]: the event log (row 0 col 0 = rows used); one row records nothing
    steps: np.ndarray  # int32[K, 2]: the recorded steps (golden traces); one row records nothing
    learned: Any  # the learned policy's scratch (`kernels.policy.new_marker`), or None: its code left out
