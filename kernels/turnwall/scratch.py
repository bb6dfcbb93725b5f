"""The Ghosts of Castle Turnwall: the layout of a `play_batch` call's scratch (named tuples Numba reads field by
field, as it read the positions before; `play.batch_scratch` allocates them in plain numpy, so the kernel compiles
no allocation)."""

from __future__ import annotations

from typing import Any, NamedTuple

import numpy as np


class Work(NamedTuple):
    """The per-call arrays (`play.new_scratch`)."""

    st: np.ndarray  # int32[S_SIZE]: the game's state (after a batch: the last game's final state)
    rng: np.ndarray  # uint64[N_STREAMS_MAX, 4]: the game's streams (row 0 chance, 1 + seat strategy)
    mask: np.ndarray  # int8[N_ACTIONS]: the legal-action mask `step.legal_actions` fills
    order: np.ndarray  # int32[N_GARMENTS]: the deal (`step.new_game`; the re-deal's order)
    work: np.ndarray  # int32[WORK_SIZE]: the planner's plan and search nodes (`strategies`, W_*)
    base: np.ndarray  # int32[PHYS_SIZE]: the planner's position being expanded
    cur: np.ndarray  # int32[PHYS_SIZE]: ... and its child
    keys: np.ndarray  # int64[KEYS_SIZE]: the planner's table of visited positions, then the parameters it believes
    probs: np.ndarray  # float64[N_GARMENTS]: the planner's chance of finding each garment
    near: np.ndarray  # float64[N_CELLS]: how close each cell is to such a garment
    wrows: np.ndarray  # float64[n, N_SPARAMS]: each seat's effective row (`strategies.effective_rows`)
    hidden: np.ndarray  # int64[HIDDEN_SIZE]: the re-deal's scratch (`hidden.redeal`)


class LearnedMarker(NamedTuple):
    """The learned policy's scratch (`features.new_marker`): `kernels.policy.Marker`'s fields and a state buffer."""

    scores: np.ndarray  # float64[N_ACTIONS]: the legal actions' scores
    acts: np.ndarray  # int64[N_ACTIONS]: the legal actions, ascending, beside their scores
    child: np.ndarray  # int32[S_SIZE]: the state after a candidate move
    nkeys: np.ndarray  # int64[NEXT_CACHE]: end positions of this decision whose next-turn value is known
    nvals: np.ndarray  # float64[NEXT_CACHE]: ... and that value (`features.next_turn`)
    ncount: np.ndarray  # int64[1]: entries used (0 at each decision)
    ends: np.ndarray  # int32[N_ACTIONS, N_PHYS]: where each legal action ends the turn (greedy `next`, `features`)
    bounds: np.ndarray  # float64[N_ACTIONS]: ... and the most its score can be (-inf once decided)


class BatchScratch(NamedTuple):
    """The ``batch`` argument of `play_batch` (``ws`` of the step verbs)."""

    work: Work
    log: np.ndarray  # int32[L, 6]: the event log (row 0 col 0 = rows used); one row records nothing
    steps: np.ndarray  # int32[K, 2]: the recorded steps (golden traces); one row records nothing
    node: np.ndarray  # int64[1]: the turn last logged (`step.legal_actions`)
    learned: Any  # the learned policy's scratch (a `LearnedMarker`), or None: its code left out
