"""The Ghosts of Castle Turnwall: the batch of games (`play_batch`), the kernel's one game loop.

The batch entry point follows the kernel contract (kernels/README.md): per-game outcomes are written at each game's
own index, so results never depend on threads or chunking. Seat i plays ghost i (colour and corner i); in game g
seat g % n starts (R11: the rulebook's random first player, rotated so every seat starts equally often).

Outputs per game: scores[seat] = body parts dressed (0..5); winners = the bit of the seat that completed its
costume (none when truncated); extra = EXTRA_COLUMNS.
"""

from __future__ import annotations

import numpy as np

from kernels.batch import play_alone
from kernels.eventlog import new_records
from kernels.loop import (  # noqa: F401  (ST_*: for callers)
    ST_BAD_ACTION,
    ST_DONE,
    ST_INVARIANT,
    ST_NO_ACTION,
    ST_TRUNCATED,
    bind,
)
from kernels.rng import N_STREAMS_MAX
from kernels.trace import GameTrace
from kernels.turnwall import step
from kernels.turnwall.columns import EXTRA_COLUMNS
from kernels.turnwall.features import new_marker
from kernels.turnwall.hidden import HIDDEN_SIZE
from kernels.turnwall.rules import N_ACTIONS, N_CELLS, N_GARMENTS, PHYS_SIZE, S_SIZE
from kernels.turnwall.scratch import BatchScratch, Work
from kernels.turnwall.step import K_ACTION, K_DEAL, K_SWAP, game_outputs  # noqa: F401  (for callers)
from kernels.turnwall.strategies import KEYS_SIZE, N_SPARAMS, S_LEARNED, WORK_SIZE

N_EXTRA = len(EXTRA_COLUMNS)


def new_scratch(n):
    """The per-call scratch of `play_batch` in plain numpy (the kernel then compiles no allocation): (st, rng,
    mask, order, work, base, cur, keys, probs, near, wrows, hidden: the re-deal's scratch), a `scratch.Work`."""
    return Work(
        st=np.zeros(S_SIZE, dtype=np.int32),
        rng=np.zeros((N_STREAMS_MAX, 4), dtype=np.uint64),
        mask=np.zeros(N_ACTIONS, dtype=np.int8),
        order=np.zeros(N_GARMENTS, dtype=np.int32),
        work=np.zeros(WORK_SIZE, dtype=np.int32),
        base=np.zeros(PHYS_SIZE, dtype=np.int32),
        cur=np.zeros(PHYS_SIZE, dtype=np.int32),
        keys=np.zeros(KEYS_SIZE, dtype=np.int64),
        probs=np.zeros(N_GARMENTS, dtype=np.float64),
        near=np.zeros(N_CELLS, dtype=np.float64),
        wrows=np.zeros((n, N_SPARAMS), dtype=np.float64),
        hidden=np.zeros(HIDDEN_SIZE, dtype=np.int64),
    )


def batch_scratch(n, prm=None, log_len=1, step_len=1, learned=False):
    """The scratch arrays of one `play_batch` call, allocated by the caller in plain numpy (the kernel then compiles no
    allocation): a `scratch.BatchScratch` (`new_scratch(n)`, log int32[log_len, 6], steps int32[step_len, 2], node
    int64[1], learned marker) for ``n`` players (``prm`` unused, the contract's). A log or steps array of one row
    records nothing; `trace_game` passes longer ones. node[0] is the turn last logged (`step.legal_actions`). The marker
    (``learned``: `features.new_marker()`, else None) compiles the learned policy in or leaves it out
    (`features.play_learned`)."""
    marker = new_marker() if learned else None
    log, steps = new_records(log_len, step_len)
    return BatchScratch(new_scratch(n), log, steps, np.zeros(1, dtype=np.int64), marker)


def uses_learned(sids, search=None):
    """Whether a seat of ``sids`` (int64[n]), or of the search's rollouts, plays the learned policy."""
    rollout = () if search is None else search.sids
    return bool(any(int(x) == S_LEARNED for x in sids) or any(int(x) == S_LEARNED for x in rollout))


# the batch entry point: the one game loop (kernels/loop.py) over this game's step verbs (step.py)
play_batch = bind(
    step,
    "turnwall",
    """Play games game0 .. game0 + n_games - 1, one after the other; row i of every
output is game game0 + i. `sim.play.runner` runs several calls at once on Python threads, one block of games each
(the GIL is released). The loop is `kernels.loop`'s, its verbs `kernels.turnwall.step`'s.

scores int32[n_games, n] (body parts dressed) by seat; winners int32[n_games] seat bitmask; turns, rounds,
status int32[n_games]; extra int32[n_games, N_EXTRA]; curves int32[n_games, 0, 0] (none);
batch = `batch_scratch(n, prm)`, one per concurrent call: its st int32[S_SIZE] holds the last game's final state;
rng the game's seeded streams (row 0 chance, 1 + seat strategy); a log int32[L, 6] records events when L > 1,
steps int32[K, 2] the deal and every action when K > 1 (golden traces). ``check`` not None runs
`check_invariants` after every step (status ST_INVARIANT + code when one breaks); the runner leaves it out and
Numba prunes the check from that compiled code. ``resume`` an int32[S_SIZE] state starts every game from a copy
of it (a rollout).""",
)


def trace_game(seed, point, g, n, prm, sids, sparams, log_len=1, steps_len=1, check=False, search=None):
    """Game ``g`` exactly as `play_batch` plays it (it is `play_batch` over that one game), with its event log
    (int32[log_len, 6]) and recorded steps (int32[steps_len, 2]): a `kernels.trace.GameTrace` (its fields say what
    each holds; ``deal`` None: the deal is in the steps, K_DEAL rows). The arguments are every game's
    (`kernels.trace`); with ``search``, its record holds the decisions afterwards."""
    batch = batch_scratch(int(n), prm, int(log_len), int(steps_len), uses_learned(sids, search))
    o = play_alone(play_batch, batch, seed, point, g, n, prm, sids, sparams, N_EXTRA, check=check, search=search)
    return GameTrace.of(o, batch.log, batch.steps, batch.work.st)
