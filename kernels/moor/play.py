"""Ghosts of the Moor: the batch of games (`play_batch`), the kernel's one game loop.

The batch entry point follows the contract shared by every game (kernels/README.md): per-game outcomes are
written at each game's own index, so results never depend on threads or chunking.
"""

from __future__ import annotations

import numpy as np

from kernels._jit import njit
from kernels.batch import play_alone
from kernels.bits import is_set, only_set
from kernels.moor.columns import EXTRA_COLUMNS
from kernels.moor.rules import (
    MAX_PLAYERS,
    N_ACTIONS,
    N_DEALT,
    P_DIE_FACES,
    P_MAX_TURNS,
    P_TIEBREAK,
    PH_OVER,
    PH_ROLL,
    S_CUR,
    S_DECISIONS,
    S_DISCARD_EVENTS,
    S_PHASE,
    S_PLANKS_LAID,
    S_ROUNDS,
    S_SIZE,
    S_TILES_DISCARDED,
    S_TILES_LOST,
    S_TURNS,
    apply_action,
    apply_chance,
    deal_pool,
    init,
    legal_actions,
    new_game,
    returns,
    top_score_tied,
)
from kernels.moor.strategies import decide
from kernels.rng import N_STREAMS_MAX, bounded, seed_game, shuffle

N_EXTRA = len(EXTRA_COLUMNS)
ST_DONE = 0
ST_TRUNCATED = 1
ST_BAD_ACTION = 2


def new_scratch(log_len, keep_deal):
    """Scratch arrays of one `play_batch` call in plain numpy, allocated once for all its games (the kernel then
    compiles no allocation): (st int32[S_SIZE], rng uint64[N_STREAMS_MAX, 4], scores_pos int32[MAX_PLAYERS],
    log int32[log_len, 6], deal_out int32[33 if keep_deal else 0], order int32[33], mask int8[N_ACTIONS],
    tmp int8[N_ACTIONS])."""
    return (
        np.zeros(S_SIZE, dtype=np.int32),
        np.zeros((N_STREAMS_MAX, 4), dtype=np.uint64),
        np.zeros(MAX_PLAYERS, dtype=np.int32),
        np.zeros((log_len, 6), dtype=np.int32),
        np.zeros(N_DEALT if keep_deal else 0, dtype=np.int32),
        np.zeros(N_DEALT, dtype=np.int32),
        np.zeros(N_ACTIONS, dtype=np.int8),
        np.zeros(N_ACTIONS, dtype=np.int8),
    )


def batch_scratch(n, prm=None):
    """The scratch arrays of one `play_batch` call (``n`` players; ``prm`` unused, the contract's): `new_scratch`
    without an event log or a kept deal."""
    return new_scratch(1, False)


@njit(entry=True)
def play_batch(
    seed, point, game0, n_games, n, prm, sids, sparams, scores, winners, turns, rounds, status, extra, curves, scratch
):
    """Play games game0 .. game0 + n_games - 1, one after the other; row i of every output is game game0 + i.
    `sim.play.runner` runs several calls at once on Python threads, one block of games each (the GIL is released).

    scores int32[n_games, n] by seat; winners int32[n_games] seat bitmask; turns/rounds/status int32[n_games];
    extra int32[n_games, N_EXTRA]; curves int32[n_games, 0, 0] (Moor has no per-round curves);
    scratch = `batch_scratch(n)`, one per concurrent call: st int32[S_SIZE] holds the last game's final state; a
    log int32[L, 6] records events when L > 1; deal_out int32[33] receives the dealt order when non-empty.

    This is the only game loop (the step verbs are inlined into it): one copy of the loop, not a `play_one`
    inlined into each entry point, because Numba's IR inlining copies a callee's IR once per block and variable
    (kernels/README.md, "Cold compile").
    """
    st, rng, sc, log, deal_out, order, mask, tmp = scratch
    faces = prm[P_DIE_FACES]
    cap = prm[P_MAX_TURNS]
    for ii in range(n_games):
        g = game0 + ii
        seed_game(rng, seed, point, g, n)
        first = g % n
        init(st, prm, n)
        deal_pool(st, order)
        shuffle(rng, 0, order, N_DEALT)
        if deal_out.shape[0] == N_DEALT:
            for i in range(N_DEALT):  # a loop, not deal_out[:] = order: that would compile numpy's broadcast checks
                deal_out[i] = order[i]
        new_game(st, prm, n, order, log)
        s = ST_DONE
        while st[S_PHASE] != PH_OVER:
            if st[S_PHASE] == PH_ROLL:
                if st[S_TURNS] >= cap:
                    s = ST_TRUNCATED
                    break
                apply_chance(st, 1 + bounded(rng, 0, faces), log)
                continue
            nl = legal_actions(st, prm, mask)
            if nl == 1:
                a = only_set(mask)
            else:
                seat = first + st[S_CUR]
                if seat >= n:  # (first + position) % n without a division
                    seat -= n
                a = decide(sids[seat], sparams[seat], st, prm, mask, nl, rng, 1 + seat, tmp)
                st[S_DECISIONS] += 1
                if not is_set(a, mask):
                    s = ST_BAD_ACTION
                    break
            apply_action(st, prm, a, log)
        wpos = returns(st, prm, sc) if s == ST_DONE else 0
        wseat = 0
        for q in range(n):
            seat = (first + q) % n
            scores[ii, seat] = sc[q] if s == ST_DONE else 0
            if (wpos >> q) & 1:
                wseat |= 1 << seat
        e = extra[ii]
        e[0] = first
        e[1] = st[S_DECISIONS]
        e[2] = st[S_DISCARD_EVENTS]
        e[3] = st[S_TILES_DISCARDED]
        e[4] = st[S_TILES_LOST]
        e[5] = st[S_PLANKS_LAID]
        # C9: only the rulebook tie-break settles a tied top score; with tiebreak = shared the tied players all win
        e[6] = top_score_tied(st, prm) if s == ST_DONE and prm[P_TIEBREAK] == 0 else 0
        status[ii] = s
        winners[ii] = wseat
        turns[ii] = st[S_TURNS]
        rounds[ii] = st[S_ROUNDS]


def trace_game(seed, point, g, n, prm, sids, sparams, log_len, with_state=False):
    """Game ``g`` exactly as `play_batch` plays it (it is `play_batch` over that one game), with its event log
    (int32[log_len, 6]; row 0 col 0 = count), dealt order (int32[33]), per-seat scores (int32[n]), winners bitmask
    over seats, status, turns and rounds (ints); with ``with_state`` also the final state (int32[S_SIZE], a copy;
    players by turn position: e.g. the planks each one holds for the R17 tie-break)."""
    scratch = new_scratch(int(log_len), True)
    scores, w, s, turns, rounds, _, _ = play_alone(play_batch, scratch, seed, point, g, n, prm, sids, sparams, N_EXTRA)
    out = (scratch[3], scratch[4], scores, w, s, turns, rounds)
    return out + (scratch[0].copy(),) if with_state else out
