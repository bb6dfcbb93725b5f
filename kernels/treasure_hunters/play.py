"""Ghost Fightin' Treasure Hunters: the batch of games (`play_batch`), the kernel's one game loop.

The batch entry point follows the kernel contract (kernels/README.md): per-game outcomes are written at each game's
own index, so results never depend on threads or chunking.

Seats: co-op (basic, advanced): every seat is a hunter player; in game g the start seat is g % n and hunter h
(turn position h) belongs to seat (g + h) % n, so with 2 players each seat runs two hunters, alternating.
Head Haunter: seat 0 is the Head Haunter (it never takes a turn); the m = n - 1 hunter seats rotate: hunter h
belongs to seat 1 + (g + h) % m, so extra column first_seat is 1 + g % m.

Outputs per game: scores[seat] = jewels in the wagon for hunter seats, hauntings on the board for the Head Haunter;
winners: a team win sets every hunter seat's bit, a Head Haunter win sets bit 0; a truncated game sets none.
curves[g, 0, r] = hauntings on the board and curves[g, 1, r] = ghosts on the board after round r + 1 (the value
at the end for the round in which the game ended); -1 for rounds after the end (the aggregator skips them).
"""

from __future__ import annotations

import numpy as np

from kernels.batch import play_alone, play_games
from kernels.eventlog import new_records
from kernels.loop import (  # noqa: F401  (ST_*: for callers)
    ST_BAD_ACTION,
    ST_DONE,
    ST_INVARIANT,
    ST_NO_ACTION,
    ST_TRUNCATED,
    bind,
)
from kernels.policy import new_marker
from kernels.rng import N_STREAMS_MAX
from kernels.trace import GameTrace
from kernels.treasure_hunters import step
from kernels.treasure_hunters.columns import CURVE_LEN, CURVES, EXTRA_COLUMNS  # noqa: F401  (CURVES: for callers)
from kernels.treasure_hunters.rules import MAX_CARDS, MODE_ADVANCED, MODE_HH, N_ACTIONS, N_JEWELS, P_MODE, S_SIZE
from kernels.treasure_hunters.scratch import BatchScratch, Work
from kernels.treasure_hunters.step import (  # noqa: F401  (for callers)
    K_ACTION,
    K_CARD,
    K_CHANCE,
    K_JEWELS,
    K_SHUFFLE,
    first_seat,
    game_outputs,
)
from kernels.treasure_hunters.strategies import N_SPARAMS, S_HH_LEARNED, S_LEARNED, TMP_SIZE

# categorical: 0 the game was not lost (won or truncated), 1 + k lost with k jewels in the wagon
LOST_JEWELS_LABELS = ("not lost",) + tuple(f"lost with {k} out" for k in range(N_JEWELS + 1))
N_EXTRA = len(EXTRA_COLUMNS)


def new_scratch(n):
    """The per-game scratch of `play_batch` in plain numpy: a `scratch.Work` (its fields say what each holds)."""
    return Work(
        mask=np.zeros(N_ACTIONS, dtype=np.int8),
        tmp=np.zeros(TMP_SIZE, dtype=np.int32),
        pool=np.zeros(MAX_CARDS, dtype=np.int32),
        nums=np.zeros(N_JEWELS, dtype=np.int32),
        wrows=np.zeros((n, N_SPARAMS), dtype=np.float64),
    )


def batch_scratch(n, prm=None, log_len=1, steps_len=1, learned=False):
    """The scratch arrays of one `play_batch` call, allocated by the caller in plain numpy (the kernel then compiles no
    allocation): a `scratch.BatchScratch` (st, rng, log, steps, `new_scratch(n)`, hh, adv, learned) for ``n`` players. A
    log or steps array of one row records nothing; `trace_game` passes longer ones. ``hh`` is None when ``prm``
    (int64[:], packed parameters) is a co-op game: its type makes Numba compile a kernel without the Head Haunter's
    planner (`strategies.haunter_decide`); 1 otherwise (and when ``prm`` is None). ``adv`` likewise is None unless
    ``prm`` is an advanced game: no basic or Head Haunter game reveals jewels on the way (`rules.move_search`).
    ``learned`` (true: the learned policies' scratch `kernels.policy.new_marker`, else None) compiles the learned hunter
    and Head Haunter in or leaves them out (`step.play_learned`)."""
    hh = None if prm is not None and prm[P_MODE] != MODE_HH else np.int64(1)
    adv = None if prm is not None and prm[P_MODE] != MODE_ADVANCED else np.int64(1)
    log, steps = new_records(log_len, steps_len)
    return BatchScratch(
        st=np.zeros(S_SIZE, dtype=np.int32),
        rng=np.zeros((N_STREAMS_MAX, 4), dtype=np.uint64),
        log=log,
        steps=steps,
        work=new_scratch(n),
        hh=hh,
        adv=adv,
        learned=new_marker(N_ACTIONS) if learned else None,
    )


def uses_learned(sids, search=None):
    """Whether a seat of ``sids`` (int64[n]), or of the search's rollouts, plays a learned policy."""
    rollout = () if search is None else search.sids
    return any(int(x) in (S_LEARNED, S_HH_LEARNED) for x in (*sids, *rollout))


# the batch entry point: the one game loop (kernels/loop.py) over this game's step verbs (step.py)
play_batch = bind(
    step,
    "treasure_hunters",
    """Play games game0 .. game0 + n_games - 1, one after the other; row i of
every output is game game0 + i. `sim.play.runner` runs several calls at once on Python threads, one block of games
each (the GIL is released). The loop is `kernels.loop`'s, its verbs `kernels.treasure_hunters.step`'s.

scores int32[n_games, n] by seat; winners int32[n_games] seat bitmask; turns/rounds/status int32[n_games];
extra int32[n_games, N_EXTRA]; curves int32[n_games, 2, curve_len] (hauntings, ghosts by round; -1 after the
end). turns counts hunter turns, rounds the rounds of hunter turns started.
batch = `batch_scratch(n, prm)`, one per concurrent call: st int32[S_SIZE] holds the last game's final state; a log
int32[L, 6] records events when L > 1, steps int32[K, 2] every chance outcome and decision when K > 1 (golden
traces). ``check`` not None runs `check_invariants` after every step (status ST_INVARIANT + code when one
breaks); the runner leaves it out and Numba prunes the check from that compiled code. ``resume`` an int32[S_SIZE]
state starts every game from a copy of it (a rollout).""",
)


def check_batch(seed, point, game0, n_games, n, prm, sids, sparams, status):
    """`play_batch` checking every invariant after every step; status[i] = ST_* (>= 100: broken).

    seed/point uint64, game0/n_games/n int64, status int32[n_games] (written)."""
    out = play_games(
        play_batch,
        batch_scratch(int(n), prm),
        seed,
        point,
        game0,
        n_games,
        n,
        prm,
        sids,
        sparams,
        N_EXTRA,
        (2, CURVE_LEN),
        check=True,
    )
    status[:] = out.status


def trace_game(seed, point, g, n, prm, sids, sparams, log_len=1, steps_len=1, check=False, search=None):
    """Game ``g`` exactly as `play_batch` plays it (it is `play_batch` over that one game), with its event log
    (int32[log_len, 6]; row 0 col 0 = count) and its recorded steps (int32[steps_len, 2]): a `kernels.trace.GameTrace`
    (its fields say what each holds; ``deal`` None: the jewel numbers are in the steps). The arguments are every
    game's (`kernels.trace`); with ``search``, its record holds the decisions afterwards."""
    batch = batch_scratch(int(n), prm, int(log_len), int(steps_len), uses_learned(sids, search))
    o = play_alone(
        play_batch, batch, seed, point, g, n, prm, sids, sparams, N_EXTRA, (2, CURVE_LEN), check=check, search=search
    )
    return GameTrace.of(o, batch.log, batch.steps, batch.st)
