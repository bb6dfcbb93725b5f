"""Treasure Hunters' step verbs with a deliberate search leak: `sample_hidden` re-deals nothing, so a search player's
rollouts play on the true jewel numbers, pile order and Head Haunter's hand (test_search.py shows the permutation
test catches it)."""

from __future__ import annotations

from kernels._jit import njit
from kernels.treasure_hunters.step import (  # noqa: F401  (the verbs `kernels.loop.bind` takes from this module)
    S_DECISIONS,
    action_mask,
    apply_action,
    apply_chance,
    decide,
    invariants,
    legal_actions,
    log_mark,
    new_game,
    outcome,
    parts,
    prepare,
    resume_game,
    sample_chance,
    to_move,
)


@njit(inline="always")
def sample_hidden(st, seat, prm, rng, row, ws):
    """The leak: nothing re-dealt."""
    return 0
