"""Ghosts of the Moor: the batch of games (`play_batch`), the kernel's one game loop.

The batch entry point follows the contract shared by every game (kernels/README.md): per-game outcomes are
written at each game's own index, so results never depend on threads or chunking.
"""

from __future__ import annotations

import numpy as np

from kernels.batch import play_alone
from kernels.loop import ST_BAD_ACTION, ST_DONE, ST_TRUNCATED, bind  # noqa: F401  (ST_*: for callers)
from kernels.moor import step
from kernels.moor.columns import EXTRA_COLUMNS
from kernels.moor.rules import MAX_PLAYERS, N_ACTIONS, N_DEALT, S_SIZE
from kernels.moor.scratch import BatchScratch
from kernels.moor.strategies import S_LEARNED
from kernels.policy import new_marker
from kernels.rng import N_STREAMS_MAX
from kernels.trace import GameTrace

N_EXTRA = len(EXTRA_COLUMNS)


def new_scratch(log_len, keep_deal, learned=False):
    """Scratch arrays of one `play_batch` call in plain numpy, allocated once for all its games (the kernel then
    compiles no allocation): a `scratch.BatchScratch` (its fields say what each holds; log int32[log_len, 6], or None
    for ``log_len`` 0: no event log, so its writes are compiled out of the batch kernel; deal_out int32[33 if
    keep_deal else 0]). The marker is a compile-time switch (kernel contract, "Batch signature"):
    None (``learned`` false) leaves the learned policy's code out of the compiled kernel (a learned seat's decision
    is then refused: status ST_BAD_ACTION), the policy's scratch (`kernels.policy.new_marker`) compiles it
    in (`features.play_learned`)."""
    return BatchScratch(
        st=np.zeros(S_SIZE, dtype=np.int32),
        rng=np.zeros((N_STREAMS_MAX, 4), dtype=np.uint64),
        scores_pos=np.zeros(MAX_PLAYERS, dtype=np.int32),
        log=np.zeros((log_len, 6), dtype=np.int32) if log_len > 0 else None,
        deal_out=np.zeros(N_DEALT if keep_deal else 0, dtype=np.int32),
        order=np.zeros(N_DEALT, dtype=np.int32),
        mask=np.zeros(N_ACTIONS, dtype=np.int8),
        legal=np.zeros(N_ACTIONS, dtype=np.int8),
        learned=new_marker(N_ACTIONS) if learned else None,
    )


def batch_scratch(n, prm=None, learned=False):
    """The scratch arrays of one `play_batch` call (``n`` players; ``prm`` unused, the contract's): `new_scratch`
    without an event log (None: the batch kernel compiles none of the log's writes, about 3 a turn, issue 41) or a
    kept deal; ``learned``: a seat (or a search's rollouts) plays the learned policy."""
    return new_scratch(0, False, learned)


def uses_learned(sids, search=None):
    """Whether a seat of ``sids`` (int64[n]), or of the search's rollouts, plays the learned policy."""
    rollout = () if search is None else search.sids
    return bool(any(int(x) == S_LEARNED for x in sids) or any(int(x) == S_LEARNED for x in rollout))


# the batch entry point: the one game loop (kernels/loop.py) over this game's step verbs (step.py)
play_batch = bind(
    step,
    "moor",
    """Play games game0 .. game0 + n_games - 1, one after the other; row i of every output is game
game0 + i. `sim.play.runner` runs several calls at once on Python threads, one block of games each (the GIL is
released). The loop is `kernels.loop`'s, its verbs `kernels.moor.step`'s.

scores int32[n_games, n] by seat; winners int32[n_games] seat bitmask; turns/rounds/status int32[n_games];
extra int32[n_games, N_EXTRA]; curves int32[n_games, 0, 0] (Moor has no per-round curves);
scratch = `batch_scratch(n)`, one per concurrent call: st int32[S_SIZE] holds the last game's final state; a
log int32[L, 6] records events when L > 1; deal_out int32[33] receives the dealt order when non-empty.
``check`` (optional) is accepted for the contract (Moor has no invariant check in the kernel); ``resume`` an
int32[S_SIZE] state starts every game from a copy of it (a rollout).""",
)


def trace_game(seed, point, g, n, prm, sids, sparams, log_len=1, steps_len=1, check=False, search=None):
    """Game ``g`` exactly as `play_batch` plays it (it is `play_batch` over that one game), with its event log
    (int32[log_len, 6]; row 0 col 0 = count) and dealt order (int32[33]): a `kernels.trace.GameTrace` (its fields
    say what each holds; ``steps`` None: Moor records its rolls and actions in the log, so ``steps_len`` is not
    used; the final state's players by turn position, e.g. the planks each one holds for the R17 tie-break). The
    arguments are every game's (`kernels.trace`); with ``search``, its record holds the decisions afterwards."""
    learned = uses_learned(sids, search)
    scratch = new_scratch(max(1, int(log_len)), True, learned)
    if search is not None:  # the rollouts' scratch of the trace's type (with a log, of one row: it records nothing)
        search = search._replace(batch=new_scratch(1, False, learned))
    o = play_alone(play_batch, scratch, seed, point, g, n, prm, sids, sparams, N_EXTRA, check=check, search=search)
    return GameTrace.of(o, scratch.log, None, scratch.st, deal=scratch.deal_out)
