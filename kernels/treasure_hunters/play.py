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

from kernels._jit import njit
from kernels.batch import play_alone, play_games
from kernels.bits import is_set, only_set
from kernels.eventlog import new_records, record
from kernels.rng import N_STREAMS_MAX, bounded, seed_game, shuffle
from kernels.treasure_hunters.columns import CURVE_LEN, CURVES, EXTRA_COLUMNS  # noqa: F401  (CURVES: for callers)
from kernels.treasure_hunters.rules import (
    CURVE_MAX,
    MAX_CARDS,
    MODE_ADVANCED,
    MODE_HH,
    N_ACTIONS,
    N_JEWELS,
    OUT_HH_SIX,
    OUT_HH_STUCK,
    OUT_TRUNC,
    OUT_WIN,
    P_MODE,
    PH_OVER,
    PH_SHUFFLE,
    S_CURVE_G,
    S_CURVE_H,
    S_DECISIONS,
    S_DELIVERED,
    S_FIGHTS,
    S_FIGHTS_WON,
    S_GHOSTS_MOVED,
    S_GHOSTS_ON,
    S_GHOSTS_PLACED,
    S_GHOSTS_REMOVED,
    S_HAUNT_MAX,
    S_HAUNTS,
    S_HAUNTS_MADE,
    S_HCARRY,
    S_HH_PLAYED,
    S_JEWELS_DROPPED,
    S_LOCK_TURNS,
    S_NH,
    S_OUTCOME,
    S_OVERFLOWS,
    S_PHASE,
    S_REROLLS,
    S_ROUNDS,
    S_SHUFFLES,
    S_SIX_DISCARDS,
    S_SIZE,
    S_SPOOKS,
    S_STUCK_EVENTS,
    S_TURNS,
    S_UNHAUNT_TRIES,
    S_UNHAUNTS,
    apply_action_with,
    apply_chance,
    apply_shuffle,
    chance_outcomes,
    check_invariants,
    decision_seat,
    init,
    is_stuck,
    legal_actions,
    set_jewel_numbers,
    shuffle_pool,
)
from kernels.treasure_hunters.strategies import N_SPARAMS, TMP_SIZE, decide, effective_rows

# categorical: 0 the game was not lost (won or truncated), 1 + k lost with k jewels in the wagon
LOST_JEWELS_LABELS = ("not lost",) + tuple(f"lost with {k} out" for k in range(N_JEWELS + 1))
N_EXTRA = len(EXTRA_COLUMNS)
ST_DONE = 0
ST_TRUNCATED = 1
ST_BAD_ACTION = 2
ST_NO_ACTION = 3
ST_INVARIANT = 100  # + invariant code (check mode only)

# recorded steps (golden traces): rows (kind, value); a shuffle is (K_SHUFFLE, n) then n rows (K_CARD, card)
K_CHANCE = 1
K_ACTION = 2
K_SHUFFLE = 3
K_CARD = 4
K_JEWELS = 5  # then 8 rows (K_CARD, number)


def new_scratch(n):
    """The per-game scratch of `play_batch` in plain numpy: (mask, tmp, pool, nums, wrows)."""
    return (
        np.zeros(N_ACTIONS, dtype=np.int8),
        np.zeros(TMP_SIZE, dtype=np.int32),
        np.zeros(MAX_CARDS, dtype=np.int32),
        np.zeros(N_JEWELS, dtype=np.int32),
        np.zeros((n, N_SPARAMS), dtype=np.float64),
    )


@njit("int64(int64[::1], int64, int64)")
def first_seat(prm, g, n):
    """Seat of hunter 0 in game g: g % n (co-op); 1 + g % (n - 1) in the Head Haunter game (seat 0 haunts)."""
    if prm[P_MODE] == MODE_HH:
        return 1 + g % (n - 1)
    return g % n


@njit
def start_game(rng, seed, point, g, n, prm):
    """Seed the streams of game index ``g`` (rng uint64[N_STREAMS_MAX, 4]); returns the seat of hunter 0.

    Every entry point plays a game through `play_batch` (the same game everywhere)."""
    seed_game(rng, seed, point, g, n)
    return first_seat(prm, g, n)


@njit(inline="always")
def game_outputs(st, prm, n, first, status, scores_row, extra_row, curves_row):
    """Per-seat scores (int32[n]), counters (int32[N_EXTRA]) and curves (int32[n_curves, curve_len]) of the game
    `play_batch` left in ``st`` with ``status``; returns the winners bitmask over seats."""
    hh = prm[P_MODE] == MODE_HH
    out = st[S_OUTCOME]
    w = 0
    if status == ST_DONE:
        if out == OUT_WIN:
            for s in range(1 if hh else 0, n):
                w |= 1 << s
        elif out == OUT_HH_SIX or out == OUT_HH_STUCK:
            w = 1
    for s in range(n):
        scores_row[s] = st[S_DELIVERED]
    if hh:
        scores_row[0] = st[S_HAUNTS]
    stuck = 0
    carried = 0
    for h in range(st[S_NH]):
        if st[S_HCARRY + h] >= 0:
            carried += 1
            if is_stuck(st, h):
                stuck += 1
    extra_row[0] = first
    extra_row[1] = st[S_DECISIONS]
    extra_row[2] = out if out >= 0 else OUT_TRUNC
    extra_row[3] = st[S_HAUNTS]
    extra_row[4] = st[S_HAUNT_MAX]
    extra_row[5] = st[S_DELIVERED]
    extra_row[6] = st[S_FIGHTS]
    extra_row[7] = st[S_FIGHTS_WON]
    extra_row[8] = st[S_GHOSTS_REMOVED]
    extra_row[9] = st[S_UNHAUNT_TRIES]
    extra_row[10] = st[S_UNHAUNTS]
    extra_row[11] = st[S_SHUFFLES]
    extra_row[12] = st[S_LOCK_TURNS]
    extra_row[13] = st[S_GHOSTS_ON]
    extra_row[14] = st[S_GHOSTS_PLACED]
    extra_row[15] = st[S_HAUNTS_MADE]
    extra_row[16] = st[S_OVERFLOWS]
    extra_row[17] = st[S_REROLLS]
    extra_row[18] = st[S_HH_PLAYED]
    extra_row[19] = st[S_SIX_DISCARDS]
    extra_row[20] = st[S_SPOOKS]
    extra_row[21] = st[S_JEWELS_DROPPED]
    extra_row[22] = st[S_GHOSTS_MOVED]
    extra_row[23] = st[S_STUCK_EVENTS]
    extra_row[24] = stuck
    extra_row[25] = carried
    lost = status == ST_DONE and out != OUT_WIN
    extra_row[26] = 1 + st[S_DELIVERED] if lost else 0
    nc = curves_row.shape[0]
    cl = curves_row.shape[1]
    for r in range(cl):
        vh = st[S_CURVE_H + r] if r < CURVE_MAX else -1
        vg = st[S_CURVE_G + r] if r < CURVE_MAX else -1
        if nc > 0:
            curves_row[0, r] = vh
        if nc > 1:
            curves_row[1, r] = vg
    return w


def batch_scratch(n, prm=None, log_len=1, steps_len=1):
    """The scratch arrays of one `play_batch` call, allocated by the caller in plain numpy (the kernel then
    compiles no allocation): (st, rng, log, steps, `new_scratch(n)`, hh, adv) for ``n`` players. A log or steps
    array of one row records nothing; `trace_game` passes longer ones. ``hh`` is None when ``prm`` (int64[:], packed
    parameters) is a co-op game: its type makes Numba compile a kernel without the Head Haunter's planner
    (`strategies.haunter_decide`); 1 otherwise (and when ``prm`` is None). ``adv`` likewise is None unless ``prm``
    is an advanced game: no basic or Head Haunter game reveals jewels on the way (`rules.move_search`)."""
    hh = None if prm is not None and prm[P_MODE] != MODE_HH else np.int64(1)
    adv = None if prm is not None and prm[P_MODE] != MODE_ADVANCED else np.int64(1)
    return (
        np.zeros(S_SIZE, dtype=np.int32),
        np.zeros((N_STREAMS_MAX, 4), dtype=np.uint64),
        *new_records(log_len, steps_len),
        new_scratch(n),
        hh,
        adv,
    )


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

    scores int32[n_games, n] by seat; winners int32[n_games] seat bitmask; turns/rounds/status int32[n_games];
    extra int32[n_games, N_EXTRA]; curves int32[n_games, 2, curve_len] (hauntings, ghosts by round; -1 after the
    end). turns counts hunter turns, rounds the rounds of hunter turns started.
    batch = `batch_scratch(n, prm)`, one per concurrent call: st int32[S_SIZE] holds the last game's final state; a log
    int32[L, 6] records events when L > 1, steps int32[K, 2] every chance outcome and decision when K > 1 (golden
    traces). ``check`` not None runs `check_invariants` after every step (status ST_INVARIANT + code when one
    breaks); the runner leaves it out and Numba prunes the check from that compiled code.

    This is the only game loop (the step verbs are inlined into it): one copy of the loop, not a `play_one`
    inlined into each entry point, because Numba's IR inlining copies a callee's IR once per block and variable
    (2.3 s of Treasure Hunters' cold compile for a `play_one` holding the inlined verbs, kernels/README.md).
    """
    st, rng, log, steps, scratch, hh, adv = batch
    mask, tmp, pool, nums, wrows = scratch
    effective_rows(sids, sparams, wrows)
    rec = steps.shape[0] > 1
    for ii in range(n_games):
        first = start_game(rng, seed, point, game0 + ii, n, prm)
        for j in range(N_JEWELS):
            nums[j] = j + 1
        init(st, prm, n, first)
        shuffle(rng, 0, nums, nums.shape[0])  # N_JEWELS; typed like the deck shuffle below (one copy)
        if rec:
            record(steps, K_JEWELS, N_JEWELS)
            for j in range(N_JEWELS):
                record(steps, K_CARD, nums[j])
        set_jewel_numbers(st, nums)
        s = -1
        while st[S_PHASE] != PH_OVER:
            ph = st[S_PHASE]
            if ph == PH_SHUFFLE:
                k = shuffle_pool(st, pool)
                shuffle(rng, 0, pool, k)
                if rec:
                    record(steps, K_SHUFFLE, k)
                    for i in range(k):
                        record(steps, K_CARD, pool[i])
                apply_shuffle(st, prm, pool, k, log)
            else:
                nc = chance_outcomes(st, prm)
                if nc > 0:
                    o = bounded(rng, 0, nc)
                    if rec:
                        record(steps, K_CHANCE, o)
                    apply_chance(st, prm, o, log)
                else:
                    nl = legal_actions(st, prm, mask, tmp, hh)
                    if nl == 0:
                        s = ST_NO_ACTION
                        break
                    if nl == 1:
                        a = only_set(mask)
                    else:
                        seat = decision_seat(st)
                        a = decide(sids[seat], wrows[seat], st, prm, mask, nl, rng, 1 + seat, tmp, hh)
                        st[S_DECISIONS] += 1
                        if not is_set(a, mask):
                            s = ST_BAD_ACTION
                            break
                    if rec:
                        record(steps, K_ACTION, a)
                    apply_action_with(st, prm, a, log, mask, tmp, hh, adv)
            if check is not None:
                code = check_invariants(st, prm)
                if code != 0:
                    s = ST_INVARIANT + code
                    break
        if s < 0:
            s = ST_TRUNCATED if st[S_OUTCOME] == OUT_TRUNC else ST_DONE
        status[ii] = s
        winners[ii] = game_outputs(st, prm, n, first, s, scores[ii], extra[ii], curves[ii])
        turns[ii] = st[S_TURNS]
        rounds[ii] = st[S_ROUNDS]


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
    status[:] = out[4]


def trace_game(seed, point, g, n, prm, sids, sparams, log_len, steps_len):
    """Game ``g`` exactly as `play_batch` plays it (it is `play_batch` over that one game), with its event log
    (int32[log_len, 6]; row 0 col 0 = count), its recorded steps (int32[steps_len, 2]), per-seat scores (int32[n]),
    winners bitmask over seats, status, turns, rounds (ints), the extra counters (int32[N_EXTRA]) and the final
    state (int32[S_SIZE])."""
    batch = batch_scratch(int(n), prm, int(log_len), int(steps_len))
    scores, w, s, turns, rounds, extra, _ = play_alone(
        play_batch, batch, seed, point, g, n, prm, sids, sparams, N_EXTRA, (2, CURVE_LEN)
    )
    st, _, log, steps, _, _, _ = batch
    return log, steps, scores, w, s, turns, rounds, extra, st
