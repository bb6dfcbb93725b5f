"""Ghostly Galleon: the batch of games (`play_batch`), the kernel's one game loop.

The batch entry point follows the kernel contract (kernels/README.md): per-game outcomes are written at each game's
own index, so results never depend on threads or chunking. Seat i plays pirate i (hideout i); in game g seat g % n
starts (C16: the rulebook's dice-off for the first player, rotated so every seat starts equally often).

Outputs per game: scores[seat] = gold value held at the end (0..15); winners = the bit of the seat that brought
enough gold home (none when truncated); extra = EXTRA_COLUMNS.
"""

from __future__ import annotations

import numpy as np

from kernels._jit import njit
from kernels.batch import play_alone
from kernels.bits import is_set, only_set
from kernels.eventlog import new_records, record
from kernels.galleon.columns import EXTRA_COLUMNS
from kernels.galleon.rules import (
    MAX_SPACES,
    N_ACTIONS,
    P_MAX_TURNS,
    PH_CHANCE,
    PH_OVER,
    S_ACTOR,
    S_BLOCKED_TURNS,
    S_BOTTLES,
    S_CANNON_FIRES,
    S_CANNON_HITS,
    S_CAPTAIN_TILES,
    S_CAVE_TILES,
    S_CH_N,
    S_DECISIONS,
    S_DUEL_WINS,
    S_DUELS,
    S_FIRST,
    S_GHOST_MOVES,
    S_HOME_EARLY,
    S_OPENED,
    S_OVERBOARD,
    S_PARROT_USES,
    S_PHASE,
    S_SIZE,
    S_STOLEN,
    S_TURNS,
    S_WINNER,
    act,
    advance,
    chance,
    check_invariants,
    deal,
    gold_of,
    init,
    legal_actions,
)
from kernels.galleon.strategies import N_SPARAMS, decide, effective_rows
from kernels.rng import N_STREAMS_MAX, bounded, seed_game

N_EXTRA = len(EXTRA_COLUMNS)
ST_DONE = 0
ST_TRUNCATED = 1
ST_BAD_ACTION = 2
ST_NO_ACTION = 3
ST_BAD_CHANCE = 4
ST_INVARIANT = 100

# recorded steps (golden traces): rows (kind, value)
K_DEAL = 1  # then 20 rows: chest contents by cabin, sticker indices by cabin, the stack bottom to top
K_ACTION = 2
K_CHANCE = 3

STACK_TILES = (4, 5, 12, 13, 14, 15, 16, 17)


def new_scratch(n):
    """The per-call scratch of `play_batch` in plain numpy (the kernel then compiles no allocation): (st, rng,
    mask, order, reach, cavek, vis, stk, wrows)."""
    return (
        np.zeros(S_SIZE, dtype=np.int32),
        np.zeros((N_STREAMS_MAX, 4), dtype=np.uint64),
        np.zeros(N_ACTIONS, dtype=np.int8),
        np.zeros(20, dtype=np.int32),
        np.zeros(MAX_SPACES, dtype=np.int32),
        np.zeros(MAX_SPACES, dtype=np.int32),
        np.zeros(MAX_SPACES, dtype=np.int32),
        np.zeros(4 * 13, dtype=np.int32),
        np.zeros((n, N_SPARAMS), dtype=np.float64),
    )


@njit("void(uint64[:, ::1], int32[::1], int64, int64)")
def shuffle_part(rng, order, lo, m):
    """Fisher-Yates (kernels.rng.shuffle's draw order) of order[lo:lo + m] on the chance stream."""
    for i in range(m - 1, 0, -1):
        j = bounded(rng, 0, i + 1)
        x = order[lo + i]
        order[lo + i] = order[lo + j]
        order[lo + j] = x


@njit(inline="always")
def game_outputs(st, n, status, scores_row, extra_row):
    """Scores (gold held), winners bitmask and counters of a finished (or truncated) game."""
    for s in range(n):
        scores_row[s] = gold_of(st, s)
    w = 0
    if status == ST_DONE and st[S_WINNER] >= 0:
        w = 1 << st[S_WINNER]
    extra_row[0] = st[S_FIRST]
    extra_row[1] = st[S_DECISIONS]
    extra_row[2] = st[S_GHOST_MOVES]
    extra_row[3] = st[S_OVERBOARD]
    extra_row[4] = st[S_CANNON_FIRES]
    extra_row[5] = st[S_CANNON_HITS]
    extra_row[6] = st[S_DUELS]
    extra_row[7] = st[S_DUEL_WINS]
    extra_row[8] = st[S_DUEL_WINS + 1]
    extra_row[9] = st[S_DUEL_WINS + 2]
    extra_row[10] = st[S_STOLEN]
    extra_row[11] = st[S_OPENED]
    extra_row[12] = st[S_BOTTLES]
    extra_row[13] = st[S_PARROT_USES]
    extra_row[14] = st[S_CAVE_TILES]
    extra_row[15] = st[S_CAPTAIN_TILES]
    extra_row[16] = st[S_BLOCKED_TURNS]
    extra_row[17] = st[S_HOME_EARLY]
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

    scores int32[n_games, n] (gold held) by seat; winners int32[n_games] seat bitmask; turns, rounds, status
    int32[n_games]; extra int32[n_games, N_EXTRA]; curves int32[n_games, 0, 0] (none);
    batch = `batch_scratch(n, prm)`, one per concurrent call: its st int32[S_SIZE] holds the last game's final state;
    rng the game's seeded streams (row 0 chance, 1 + seat strategy); a log int32[L, 6] records events when L > 1,
    steps int32[K, 2] the deal, every chance outcome and every action when K > 1 (golden traces). ``check`` not
    None runs `check_invariants` after every step (status ST_INVARIANT + code when one breaks); the runner leaves
    it out and Numba prunes the check from that compiled code.

    This is the only game loop: one copy of the loop, not a `play_one` inlined into each entry point, because
    Numba's IR inlining copies a callee's IR once per block and variable (kernels/README.md, "One game loop")."""
    scratch, log, steps = batch
    st, rng, mask, order, reach, cavek, vis, stk, wrows = scratch
    effective_rows(sids, sparams, wrows)
    rec = steps.shape[0] > 1
    cap = prm[P_MAX_TURNS]
    for ii in range(n_games):
        g = game0 + ii
        seed_game(rng, seed, point, g, n)
        init(st, prm, n, g % n)
        for c in range(6):  # R1: chests filled and spread, stickers, the stack
            order[c] = 6 + c
            order[6 + c] = c
        for i in range(8):
            order[12 + i] = STACK_TILES[i]
        shuffle_part(rng, order, 0, 6)
        shuffle_part(rng, order, 6, 6)
        shuffle_part(rng, order, 12, 8)
        if rec:
            for i in range(20):
                record(steps, K_DEAL, order[i])
        deal(st, prm, order)
        advance(st, prm, log, reach, cavek, vis, stk)
        s = ST_DONE
        while st[S_PHASE] != PH_OVER:
            if st[S_TURNS] >= cap:
                s = ST_TRUNCATED
                break
            if st[S_PHASE] == PH_CHANCE:
                o = bounded(rng, 0, st[S_CH_N])
                if rec:
                    record(steps, K_CHANCE, o)
                if chance(st, prm, o, log, reach, cavek, vis, stk) != 0:
                    s = ST_BAD_CHANCE
                    break
            else:
                nl = legal_actions(st, prm, mask)
                if nl == 0:
                    s = ST_NO_ACTION
                    break
                if nl == 1:
                    a = only_set(mask)
                else:
                    seat = st[S_ACTOR]
                    a = decide(sids[seat], wrows[seat], st, prm, mask, nl, rng, 1 + seat)
                    st[S_DECISIONS] += 1
                    if not is_set(a, mask):
                        s = ST_BAD_ACTION
                        break
                if rec:
                    record(steps, K_ACTION, a)
                if act(st, prm, a, log, reach, cavek, vis, stk) != 0:
                    s = ST_BAD_ACTION
                    break
            advance(st, prm, log, reach, cavek, vis, stk)  # on to the next decision or chance node
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
