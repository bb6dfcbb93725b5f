"""The Ghosts of Castle Turnwall: the batch of games (`play_batch`), the kernel's one game loop.

The batch entry point follows the kernel contract (kernels/README.md): per-game outcomes are written at each game's
own index, so results never depend on threads or chunking. Seat i plays ghost i (colour and corner i); in game g
seat g % n starts (R11: the rulebook's random first player, rotated so every seat starts equally often).

Outputs per game: scores[seat] = body parts dressed (0..5); winners = the bit of the seat that completed its
costume (none when truncated); extra = EXTRA_COLUMNS.
"""

from __future__ import annotations

import numpy as np

from kernels._jit import njit
from kernels.batch import play_alone
from kernels.bits import is_set, only_set
from kernels.eventlog import (
    log_event,  # noqa: E402
    new_records,
    record,
)
from kernels.rng import N_STREAMS_MAX, bounded, seed_game
from kernels.turnwall.columns import EXTRA_COLUMNS
from kernels.turnwall.memory import observe_search, observe_swap
from kernels.turnwall.rules import (
    E_DECKS,
    E_TURN,
    N_ACTIONS,
    N_CELLS,
    N_DECKS,
    N_GARMENTS,
    N_PARTS,
    P_DECKS_MOVED,
    P_MAX_TURNS,
    PER_PART,
    PH_OVER,
    PHYS_SIZE,
    S_CUR,
    S_DECISIONS,
    S_DISPLACED,
    S_DRAGS,
    S_EJECTED,
    S_FIRST,
    S_FOUND,
    S_HAVE,
    S_LAST_DECK,
    S_LAST_SEARCHER,
    S_MOVES_LEFT,
    S_NOT_FOUND,
    S_PART_GONE,
    S_PART_TAKEN,
    S_PHASE,
    S_PLUG_STOPS,
    S_PUSHED,
    S_ROTATIONS,
    S_SHIFTS,
    S_SIZE,
    S_SKIPPED,
    S_SLIDES,
    S_TURNS,
    S_WASTED,
    S_WINNER,
    apply_action,
    check_invariants,
    deal,
    init,
    legal_actions,
    stack_decks,
    swap_decks,
)
from kernels.turnwall.strategies import KEYS_SIZE, N_SPARAMS, W_PLAN_TURN, WORK_SIZE, decide, effective_rows

N_EXTRA = len(EXTRA_COLUMNS)
ST_DONE = 0
ST_TRUNCATED = 1
ST_BAD_ACTION = 2
ST_NO_ACTION = 3
ST_INVARIANT = 100

# recorded steps (golden traces): rows (kind, value)
K_DEAL = 1  # then 20 rows (K_DEAL, garment): the dealt order
K_ACTION = 2
K_SWAP = 3  # the other deck of a decks-moved swap


def new_scratch(n):
    """The per-call scratch of `play_batch` in plain numpy (the kernel then compiles no allocation): (st, rng,
    mask, order, work, base, cur, keys, probs, near, wrows)."""
    return (
        np.zeros(S_SIZE, dtype=np.int32),
        np.zeros((N_STREAMS_MAX, 4), dtype=np.uint64),
        np.zeros(N_ACTIONS, dtype=np.int8),
        np.zeros(N_GARMENTS, dtype=np.int32),
        np.zeros(WORK_SIZE, dtype=np.int32),
        np.zeros(PHYS_SIZE, dtype=np.int32),
        np.zeros(PHYS_SIZE, dtype=np.int32),
        np.zeros(KEYS_SIZE, dtype=np.int64),
        np.zeros(N_GARMENTS, dtype=np.float64),
        np.zeros(N_CELLS, dtype=np.float64),
        np.zeros((n, N_SPARAMS), dtype=np.float64),
    )


@njit(inline="always")
def game_outputs(st, n, status, scores_row, extra_row):
    """Scores, winners bitmask and counters of a finished (or truncated) game."""
    w = 0
    for s in range(n):
        h = st[S_HAVE + s]
        c = 0
        for p in range(N_PARTS):
            c += (h >> p) & 1
        scores_row[s] = c
    if status == ST_DONE and st[S_WINNER] >= 0:
        w = 1 << st[S_WINNER]
    extra_row[0] = st[S_FIRST]
    extra_row[1] = st[S_DECISIONS]
    extra_row[2] = st[S_FOUND]
    extra_row[3] = st[S_NOT_FOUND]
    extra_row[4] = st[S_WASTED]
    extra_row[5] = st[S_DRAGS]
    extra_row[6] = st[S_SLIDES]
    extra_row[7] = st[S_SHIFTS]
    extra_row[8] = st[S_ROTATIONS]
    extra_row[9] = st[S_DISPLACED]
    extra_row[10] = st[S_EJECTED]
    extra_row[11] = st[S_PUSHED]
    extra_row[12] = st[S_PLUG_STOPS]
    extra_row[13] = st[S_SKIPPED]
    for p in range(N_PARTS):
        extra_row[14 + p] = st[S_PART_TAKEN + p]
    extra_row[19] = st[S_PART_GONE]
    return w


def batch_scratch(n, prm=None, log_len=1, step_len=1):
    """The scratch arrays of one `play_batch` call, allocated by the caller in plain numpy (the kernel then
    compiles no allocation): (`new_scratch(n)`, log int32[log_len, 6], steps int32[step_len, 2]) for ``n``
    players (``prm`` unused, the contract's). A log or steps array of one row records nothing; `trace_game`
    passes longer ones."""
    return (new_scratch(n), *new_records(log_len, step_len))


@njit(entry=True)
def play_batch(
    seed,
    point,
    game0,
    n_games,
    n,
    prm,
    sids,
    sparams,
    scores,
    winners,
    turns,
    rounds,
    status,
    extra,
    curves,
    batch,
    check=None,
):
    """Play games game0 .. game0 + n_games - 1, one after the other; row i of every output is game game0 + i.
    `sim.play.runner` runs several calls at once on Python threads, one block of games each (the GIL is released).

    scores int32[n_games, n] (body parts dressed) by seat; winners int32[n_games] seat bitmask; turns, rounds,
    status int32[n_games]; extra int32[n_games, N_EXTRA]; curves int32[n_games, 0, 0] (none);
    batch = `batch_scratch(n, prm)`, one per concurrent call: its st int32[S_SIZE] holds the last game's final state;
    rng the game's seeded streams (row 0 chance, 1 + seat strategy); a log int32[L, 6] records events when L > 1,
    steps int32[K, 2] the deal and every action when K > 1 (golden traces). ``check`` not None runs
    `check_invariants` after every step (status ST_INVARIANT + code when one breaks); the runner leaves it out and
    Numba prunes the check from that compiled code.

    This is the only game loop: one copy of the loop, not a `play_one` inlined into each entry point, because
    Numba's IR inlining copies a callee's IR once per block and variable (kernels/README.md, "One game loop")."""
    scratch, log, steps = batch
    st, rng, mask, order, work, base, cur, keys, probs, near, wrows = scratch
    effective_rows(sids, sparams, wrows)
    rec = steps.shape[0] > 1
    cap = prm[P_MAX_TURNS]
    for ii in range(n_games):
        g = game0 + ii
        seed_game(rng, seed, point, g, n)
        work[W_PLAN_TURN] = -1
        init(st, prm, n, g % n)
        for p in range(N_PARTS):  # R2: each deck one card of each back
            for k in range(N_DECKS):
                order[p * PER_PART + k] = p * PER_PART + k
            for i in range(PER_PART - 1, 0, -1):  # Fisher-Yates as in kernels.rng.shuffle, part by part
                j = bounded(rng, 0, i + 1)
                x = order[p * PER_PART + i]
                order[p * PER_PART + i] = order[p * PER_PART + j]
                order[p * PER_PART + j] = x
        if rec:
            for i in range(N_GARMENTS):
                record(steps, K_DEAL, order[i])
        deal(st, order)
        stack_decks(st, rng)  # M1: the order in each deck (its top card's back)
        logged = -1
        s = ST_DONE
        while st[S_PHASE] != PH_OVER:
            if st[S_TURNS] >= cap:
                s = ST_TRUNCATED
                break
            if st[S_TURNS] != logged:
                logged = st[S_TURNS]
                log_event(log, logged, E_TURN, st[S_CUR], st[S_MOVES_LEFT], 0, 0)
            nl = legal_actions(st, prm, mask)
            if nl == 0:
                s = ST_NO_ACTION
                break
            if nl == 1:
                a = only_set(mask)
            else:
                seat = st[S_CUR]
                a = decide(
                    sids[seat], wrows[seat], st, prm, mask, nl, rng, 1 + seat, work, base, cur, keys, probs, near
                )
                st[S_DECISIONS] += 1
                if not is_set(a, mask):
                    s = ST_BAD_ACTION
                    break
            if rec:
                record(steps, K_ACTION, a)
            if apply_action(st, prm, a, log) == 1:
                observe_search(st, wrows, rng)
                if prm[P_DECKS_MOVED] != 0 and st[S_PHASE] != PH_OVER:  # C11 variant
                    k = st[S_LAST_DECK]
                    b = bounded(rng, 0, N_DECKS - 1)
                    if b >= k:
                        b += 1
                    if rec:
                        record(steps, K_SWAP, b)
                    swap_decks(st, k, b)
                    observe_swap(st, st[S_LAST_SEARCHER], k, b)
                    log_event(log, st[S_TURNS], E_DECKS, k, b, 0, 0)
            if check is not None:
                code = check_invariants(st, prm)
                if code != 0:
                    s = ST_INVARIANT + code
                    break
        status[ii] = s
        winners[ii] = game_outputs(st, n, s, scores[ii], extra[ii])
        turns[ii] = st[S_TURNS]
        rounds[ii] = (st[S_TURNS] + n - 1) // n


def trace_game(seed, point, g, n, prm, sids, sparams, log_len, step_len, check):
    """Game ``g`` exactly as `play_batch` plays it (it is `play_batch` over that one game), with its event log
    (int32[log_len, 6]) and recorded steps (int32[step_len, 2]); returns (log, steps, scores int32[n], winners
    bitmask over seats, status, turns, rounds (ints), extra int32[N_EXTRA], final state int32[S_SIZE], an array of
    this call's own). ``check`` true runs the invariants after every step (status 100 + code when one breaks)."""
    batch = batch_scratch(int(n), prm, int(log_len), int(step_len))
    scores, w, s, turns, rounds, extra, _ = play_alone(
        play_batch, batch, seed, point, g, n, prm, sids, sparams, N_EXTRA, check=check
    )
    scratch, log, steps = batch
    return log, steps, scores, w, s, turns, rounds, extra, scratch[0]
