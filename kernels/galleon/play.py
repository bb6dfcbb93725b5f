"""Ghostly Galleon: the batch of games (`play_batch`), the kernel's one game loop.

The batch entry point follows the kernel contract (kernels/README.md): per-game outcomes are written at each game's
own index, so results never depend on threads or chunking. Seat i plays pirate i (hideout i); in game g seat g % n
starts (C16: the rulebook's dice-off for the first player, rotated so every seat starts equally often).

Outputs per game: scores[seat] = gold value held at the end (0..15); winners = the bit of the seat that brought
enough gold home (none when truncated); extra = EXTRA_COLUMNS.
"""

from __future__ import annotations

import numpy as np

from kernels.batch import play_alone
from kernels.eventlog import new_records
from kernels.galleon import step
from kernels.galleon.columns import EXTRA_COLUMNS
from kernels.galleon.rules import MAX_SPACES, N_ACTIONS, S_SIZE
from kernels.galleon.scratch import BatchScratch, Work
from kernels.galleon.step import (  # noqa: F401  (for callers)
    K_ACTION,
    K_CHANCE,
    K_DEAL,
    STACK_TILES,
    game_outputs,
)
from kernels.galleon.strategies import N_SPARAMS, S_LEARNED
from kernels.loop import (  # noqa: F401  (ST_*: for callers)
    ST_BAD_ACTION,
    ST_BAD_CHANCE,
    ST_DONE,
    ST_INVARIANT,
    ST_NO_ACTION,
    ST_TRUNCATED,
    bind,
)
from kernels.policy import new_marker
from kernels.rng import N_STREAMS_MAX
from kernels.trace import GameTrace

N_EXTRA = len(EXTRA_COLUMNS)


def new_scratch(n):
    """The per-call scratch of `play_batch` in plain numpy (the kernel then compiles no allocation): a
    `scratch.Work` (its fields say what each holds)."""
    return Work(
        st=np.zeros(S_SIZE, dtype=np.int32),
        rng=np.zeros((N_STREAMS_MAX, 4), dtype=np.uint64),
        mask=np.zeros(N_ACTIONS, dtype=np.int8),
        order=np.zeros(20, dtype=np.int32),
        reach=np.zeros(MAX_SPACES, dtype=np.int32),
        cavek=np.zeros(MAX_SPACES, dtype=np.int32),
        vis=np.zeros(MAX_SPACES, dtype=np.int32),
        stk=np.zeros(4 * 13, dtype=np.int32),
        wrows=np.zeros((n, N_SPARAMS), dtype=np.float64),
    )


def batch_scratch(n, prm=None, log_len=1, step_len=1, learned=False):
    """The scratch arrays of one `play_batch` call, allocated by the caller in plain numpy (the kernel then compiles no
    allocation): a `scratch.BatchScratch` (`new_scratch(n)`, log int32[log_len, 6], steps int32[step_len, 2], learned
    marker) for ``n`` players (``prm`` unused, the contract's). A log or steps array of one row records nothing;
    `trace_game` passes longer ones. The marker (``learned``: the policy's scratch `kernels.policy.new_marker`, else
    None) compiles the learned policy in or leaves it out (`features.play_learned`)."""
    log, steps = new_records(log_len, step_len)
    return BatchScratch(new_scratch(n), log, steps, new_marker(N_ACTIONS) if learned else None)


def uses_learned(sids, search=None):
    """Whether a seat of ``sids`` (int64[n]), or of the search's rollouts, plays the learned policy."""
    rollout = () if search is None else search.sids
    return bool(any(int(x) == S_LEARNED for x in sids) or any(int(x) == S_LEARNED for x in rollout))


# the batch entry point: the one game loop (kernels/loop.py) over this game's step verbs (step.py)
play_batch = bind(
    step,
    "galleon",
    """Play games game0 .. game0 + n_games - 1, one after the other; row i of every
output is game game0 + i. `sim.play.runner` runs several calls at once on Python threads, one block of games each
(the GIL is released). The loop is `kernels.loop`'s, its verbs `kernels.galleon.step`'s.

scores int32[n_games, n] (gold held) by seat; winners int32[n_games] seat bitmask; turns, rounds, status
int32[n_games]; extra int32[n_games, N_EXTRA]; curves int32[n_games, 0, 0] (none);
batch = `batch_scratch(n, prm)`, one per concurrent call: its st int32[S_SIZE] holds the last game's final state;
rng the game's seeded streams (row 0 chance, 1 + seat strategy); a log int32[L, 6] records events when L > 1,
steps int32[K, 2] the deal, every chance outcome and every action when K > 1 (golden traces). ``check`` not
None runs `check_invariants` after every step (status ST_INVARIANT + code when one breaks); the runner leaves
it out and Numba prunes the check from that compiled code. ``resume`` an int32[S_SIZE] state starts every game
from a copy of it (a rollout).""",
)


def trace_game(seed, point, g, n, prm, sids, sparams, log_len=1, steps_len=1, check=False, search=None):
    """Game ``g`` exactly as `play_batch` plays it (it is `play_batch` over that one game), with its event log
    (int32[log_len, 6]) and recorded steps (int32[steps_len, 2]): a `kernels.trace.GameTrace` (its fields say what
    each holds; ``deal`` None: the deal is in the steps, K_DEAL rows). The arguments are every game's
    (`kernels.trace`); the search's rollouts log nothing (they run on the search scratch's own batch)."""
    batch = batch_scratch(int(n), prm, int(log_len), int(steps_len), uses_learned(sids, search))
    o = play_alone(play_batch, batch, seed, point, g, n, prm, sids, sparams, N_EXTRA, check=check, search=search)
    return GameTrace.of(o, batch.log, batch.steps, batch.work.st)
