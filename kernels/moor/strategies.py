"""Ghosts of the Moor strategies: integer ids dispatched in `decide`.

A strategy reads only what its player could see: pawn positions, stack heights, the *top* tile of each stack
(`visible_top`), every player's face-up holdings and goal tokens, the space symbols. Never a covered tile.
Strategy parameters are one float64 row per seat (``sp``), so a designer can set and sweep them per seat.
"""

from __future__ import annotations

import numpy as np

from kernels._jit import njit
from kernels.moor.rules import (
    A_DISCARD_GHOST,
    A_DISCARD_MATCH,
    A_DISCARD_ONE,
    A_DISCARD_PAIR,
    A_MOVE,
    A_PLANK_NO,
    A_PLANK_YES,
    GHOST0,
    K_GHOST,
    K_PLANK,
    MAX_PAWNS,
    N_ACTIONS,
    N_GHOSTS,
    N_GOALS,
    N_KINDS,
    N_TYPES,
    P_GHOST_BEFORE_TWO,
    P_GHOST_VALUES,
    P_GOAL_VALUES,
    P_PLANKS_DISCARDABLE,
    P_SET_POINTS,
    P_SYMBOLS,
    PH_DISCARD,
    PH_MOVE,
    PH_PLANK,
    S_CUR,
    S_END,
    S_GOAL_NEXT,
    S_HEIGHT,
    S_HOLD,
    S_NPAWNS,
    S_NPLAYERS,
    S_PAWN_POS,
    S_PHASE,
    S_ROLL,
    S_STACK,
    S_TILE_LOC,
    STACK,
    other_tiles,
    pair_kind_to_kind,
    pawns_at,
    tile_kind,
)
from kernels.rng import bounded

S_RANDOM = 0
S_COLLECTOR = 1
S_RUNNER = 2
S_CAUTIOUS = 3
S_WEIGHTED = 4
S_LEARNED = 5  # played by step.decide through kernels.moor.features (which builds on this module's helpers)

# name, id, one-line description, parameter names (weighted only) with defaults
STRATEGIES = (
    ("random", S_RANDOM, "uniform over the legal choices (its own random stream per seat)"),
    (
        "collector",
        S_COLLECTOR,
        "set collector: takes the tile that adds most set points, keeps rear pawns back to collect",
    ),
    ("runner", S_RUNNER, "runner: races pawns home for the goal tokens, lead pawn first"),
    ("cautious", S_CAUTIOUS, "cautious: avoids leaving empty spaces (discards) and ghosts, always lays its plank"),
    ("weighted", S_WEIGHTED, "weighted heuristic: linear score of each move; weights are per-seat parameters"),
    (
        "learned",
        S_LEARNED,
        "learned policy: a softmax policy over action features fitted to search decisions by expert iteration "
        "(`sim train moor`); weights are per-seat parameters, shipped in kernels/moor/policies/player.json",
    ),
)
# Weighted-heuristic parameters: (name, default, help). Order = column in the sparams row.
WEIGHT_SPECS = (
    ("w_tile", 1.0, "weight on the points the taken tile adds (set points, minus ghost value)"),
    ("w_ghost", 0.5, "extra penalty per ghost point taken"),
    ("w_discard", 1.0, "weight on the points a forced discard costs"),
    ("w_goal", 1.0, "weight on the goal token won by reaching End"),
    ("w_progress", 0.1, "reward per space moved"),
    ("w_rear", 0.0, "reward for moving a pawn far from End (keeps pawns together)"),
    ("w_empty_dest", 0.5, "penalty for stopping on a tile-less space with no plank to lay (a later discard)"),
    ("plank_use", 1.0, "lay the plank when allowed if this is >= 0.5"),
)
N_SPARAMS = len(WEIGHT_SPECS)
# Fixed weight rows of the three scripted strategies (same columns as WEIGHT_SPECS): different intents.
SCRIPTED_WEIGHTS = np.array(
    [
        [2.0, 0.5, 1.0, 0.3, 0.0, 0.2, 0.3, 1.0],  # collector
        [0.3, 0.2, 0.3, 4.0, 1.0, -0.5, 0.0, 1.0],  # runner
        [0.5, 3.0, 3.0, 0.5, 0.05, 0.0, 2.0, 1.0],  # cautious
    ],
    dtype=np.float64,
)


@njit("int64(int32[::1], int64)")
def visible_top(st, s):
    """The face-up top tile of space ``s`` (-1 when empty): the only stack tile a strategy may read."""
    h = st[S_HEIGHT + s]
    if h == 0:
        return -1
    return st[S_STACK + s * STACK + h - 1]


@njit("int64(int32[::1], int64[::1], int64, int64)")
def take_delta(st, prm, p, t):
    """Score change for player ``p`` taking tile ``t`` (R15)."""
    k = tile_kind(t)
    if k == K_GHOST:
        return -prm[P_GHOST_VALUES + t - GHOST0]
    if k == K_PLANK:
        return 0
    c = st[S_HOLD + p * N_KINDS + k]
    if c >= 5:
        return 0
    return prm[P_SET_POINTS + c + 1] - prm[P_SET_POINTS + c]


@njit("int64(int64[::1], int64)")
def lose_delta(prm, count):
    """Score change of giving away one treasure of a type held ``count`` times."""
    return prm[P_SET_POINTS + count - 1] - prm[P_SET_POINTS + count]


@njit
def discard_delta(st, prm, p, a):
    """Score change for player ``p`` of discard action ``a`` (positive: the discard helps, e.g. a ghost)."""
    hold = S_HOLD + p * N_KINDS
    if a == A_DISCARD_MATCH:
        return 0  # forced; never compared
    if a < A_DISCARD_PAIR:
        return prm[P_GHOST_VALUES + a - A_DISCARD_GHOST]
    if a < A_DISCARD_ONE:
        code = a - A_DISCARD_PAIR
        ka = pair_kind_to_kind(code // 6)
        kb = pair_kind_to_kind(code % 6)
        d = 0
        if ka < N_TYPES:
            d += lose_delta(prm, st[hold + ka])
        if kb < N_TYPES:
            d += lose_delta(prm, st[hold + kb] - (1 if ka == kb else 0))
        return d
    k = pair_kind_to_kind(a - A_DISCARD_ONE)
    if k < N_TYPES:
        return lose_delta(prm, st[hold + k])
    return 0


@njit
def best_discard_value(st, prm, p, symbol):
    """Score change of the best discard for ``p`` after leaving a tile-less ``symbol`` space (0 if nothing to give).

    Same option set as rules.discard_options (R10/R11), valued directly instead of enumerating actions.
    """
    hold = S_HOLD + p * N_KINDS
    if symbol >= 0 and st[hold + symbol] > 0:
        return lose_delta(prm, st[hold + symbol])
    ghosts = st[hold + K_GHOST]
    planks_ok = prm[P_PLANKS_DISCARDABLE] == 1
    others = other_tiles(st, prm, p)
    best = -(1 << 30)
    found = False
    if ghosts > 0:
        for j in range(N_GHOSTS):
            if st[S_TILE_LOC + GHOST0 + j] == p:
                v = prm[P_GHOST_VALUES + j]
                if v > best:
                    best = v
                found = True
    if others >= 2 and not (ghosts > 0 and prm[P_GHOST_BEFORE_TWO] == 1):
        for a in range(6):
            if a == 5 and not planks_ok:
                continue
            ca = st[hold + pair_kind_to_kind(a)]
            if ca == 0:
                continue
            da = lose_delta(prm, ca) if a < 5 else 0
            for b in range(a, 6):
                if b == 5 and not planks_ok:
                    continue
                cb = st[hold + pair_kind_to_kind(b)] - (1 if a == b else 0)
                if cb > 0:
                    v = da + (lose_delta(prm, cb) if b < 5 else 0)
                    if v > best:
                        best = v
                    found = True
    if ghosts == 0 and others == 1:
        for a in range(6):
            if a == 5 and not planks_ok:
                continue
            c = st[hold + pair_kind_to_kind(a)]
            if c > 0:
                v = lose_delta(prm, c) if a < 5 else 0
                if v > best:
                    best = v
                found = True
    return best if found else 0


@njit
def move_value(st, prm, p, k, w):
    """Weighted value of moving pawn ``k`` of player ``p`` by the current roll (weights ``w``, WEIGHT_SPECS order)."""
    o = st[S_PAWN_POS + p * MAX_PAWNS + k]
    end = st[S_END]
    d = o + st[S_ROLL]
    if d > end:
        d = end
    v = w[4] * (d - o) + w[5] * (end - o) / end
    if d == end and st[S_GOAL_NEXT] < N_GOALS:
        v += w[3] * prm[P_GOAL_VALUES + st[S_GOAL_NEXT]]
    if o > 0:
        h = st[S_HEIGHT + o]
        if h > 0:
            if pawns_at(st, o, st[S_NPLAYERS], st[S_NPAWNS]) == 1:  # only this pawn: it takes the top tile
                t = visible_top(st, o)
                dt = take_delta(st, prm, p, t)
                v += w[0] * dt
                if dt < 0:
                    v += w[1] * dt
        else:
            v += w[2] * best_discard_value(st, prm, p, prm[P_SYMBOLS + o])
    if d != end and st[S_HEIGHT + d] == 0:
        if st[S_HOLD + p * N_KINDS + K_PLANK] == 0 or w[7] < 0.5:
            v -= w[6]
    return v


@njit(inline="always")
def decide(sid, sp, st, prm, mask, n_legal, rng, row, legal):
    """Action chosen by strategy ``sid`` for the current player; ``mask`` holds the legal actions (n_legal > 1),
    ``legal[:n_legal]`` (int8) the same in increasing order (`rules.legal_actions` fills both).

    ``sp`` float64[N_SPARAMS] is this seat's parameter row; ``rng[row]`` its own random stream.
    """
    if sid == S_RANDOM:  # `rng.pick_legal`'s pick (the same draw, the same action) read from the list
        return np.int64(legal[bounded(rng, row, n_legal)])
    if sid == S_WEIGHTED:
        w = sp
    else:
        w = SCRIPTED_WEIGHTS[sid - 1]
    p = st[S_CUR]
    ph = st[S_PHASE]
    if ph == PH_MOVE:
        best = -1e300
        best_a = -1
        for k in range(MAX_PAWNS):
            if mask[A_MOVE + k]:
                v = move_value(st, prm, p, k, w)
                if v > best:
                    best = v
                    best_a = A_MOVE + k
        return best_a
    if ph == PH_PLANK:
        return A_PLANK_YES if w[7] >= 0.5 else A_PLANK_NO
    if ph == PH_DISCARD:
        best = -(1 << 30)
        best_a = -1
        for a in range(A_DISCARD_MATCH, N_ACTIONS):
            if mask[a]:
                d = discard_delta(st, prm, p, a)
                if d > best:
                    best = d
                    best_a = a
        return best_a
    return -1
