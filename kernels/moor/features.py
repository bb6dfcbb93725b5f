"""Ghosts of the Moor: the action features of the `learned` player (a linear softmax policy over them).

A feature vector describes one legal action of the player to move from what that player sees (kernel contract,
"Strategies"): pawn positions, stack heights, the top tile of each stack (`strategies.visible_top`), every player's
face-up holdings, the goal stack and the space symbols. Never a covered tile: the hidden-information permutation test
(tests/kernels/moor/test_invariants.py) asks `learned` with random weights for its choice on states whose covered
tiles were permuted.

The same function serves play (`learned_choice`, inside the kernel: the score of action a is
``sum_i w[i] * f_i(a)``, summed in feature order, float64, each legal action scored once, then
`kernels.policy.select`: ties to the lower action index) and training
(`fill_features`, called from Python by `sim.play.learn` on the states where search decided), so the two never
disagree. The weights travel in the seat's parameter row (``sp``: column 0 the temperature, columns 1.. the weights
in FEATURE_NAMES order); the shipped ones are kernels/moor/policies/player.json, which records FEATURE_SET and
FEATURE_VERSION: change a feature's meaning and bump FEATURE_VERSION (a test then fails until the policy is
retrained with `sim train moor`).

Features are zero for actions outside their phase (moves, the plank, discards are never compared with each other:
a decision offers actions of one phase), so each phase has its own block.
"""

from __future__ import annotations

from kernels._jit import njit
from kernels.moor.rules import (
    A_DISCARD_GHOST,
    A_DISCARD_ONE,
    A_DISCARD_PAIR,
    A_MOVE,
    A_PLANK_YES,
    K_PLANK,
    MAX_PAWNS,
    N_ACTIONS,
    N_GOALS,
    N_KINDS,
    P_GOAL_VALUES,
    P_SYMBOLS,
    PH_DISCARD,
    PH_MOVE,
    PH_PLANK,
    S_CUR,
    S_DEST,
    S_END,
    S_GOAL_NEXT,
    S_HEIGHT,
    S_HOLD,
    S_NPAWNS,
    S_NPLAYERS,
    S_PAWN_POS,
    S_PHASE,
    S_ROLL,
    pawns_at,
)
from kernels.moor.strategies import best_discard_value, discard_delta, take_delta, visible_top
from kernels.policy import select

FEATURE_SET = "moor-player"
FEATURE_VERSION = 1
# (name, what it measures for one action); the order is the weights' order (columns 1.. of the parameter row)
FEATURES = (
    ("take", "move: points the tile taken from the space left adds (R15; negative for a ghost), 0 if none taken"),
    ("ghost", "move: the same points when negative (a ghost taken)"),
    ("discard", "move: points the best forced discard on leaving a tile-less space costs (R10/R11)"),
    ("goal", "move: the goal token's value won by reaching End"),
    ("progress", "move: spaces moved"),
    ("rear", "move: distance of the pawn from End, as a share of the track"),
    ("empty_dest", "move: 1 when the pawn stops on a tile-less space (not End)"),
    ("empty_dest_no_plank", "move: 1 when it stops on a tile-less space holding no plank to lay"),
    ("dest_top", "move: points the visible top tile of the destination would add when taken later"),
    ("dest_shared", "move: pawns already on the destination (not End)"),
    ("origin_shared", "move: 1 when other pawns stay on the space left (no tile taken, no discard)"),
    ("rearmost", "move: 1 when the pawn is the player's rearmost"),
    ("leave_start", "move: 1 when the pawn leaves Start"),
    ("end_no_goal", "move: 1 when the pawn reaches End with no goal token left"),
    ("plank", "plank: 1 for laying it"),
    ("plank_saves", "plank: for laying it, the points the discard it spares would cost (0 if none)"),
    ("discard_points", "discard: points this discard costs (R15; a ghost given away gains)"),
    ("discard_planks", "discard: planks given away"),
    ("discard_ghost", "discard: 1 for giving a ghost"),
)
FEATURE_NAMES = tuple(n for n, _ in FEATURES)
N_FEATURES = len(FEATURES)
N_LEARNED_PARAMS = 1 + N_FEATURES  # temperature, then the weights


@njit
def action_features(st, prm, a):
    """The features (float64 x N_FEATURES, FEATURES order) of legal action ``a`` of the player to move, from what
    that player sees. A tuple, not an array: nothing is allocated, so play can score inside the kernel."""
    p = st[S_CUR]
    ph = st[S_PHASE]
    f0 = f1 = f2 = f3 = f4 = f5 = f6 = f7 = f8 = f9 = f10 = f11 = f12 = f13 = 0.0
    f14 = f15 = f16 = f17 = f18 = 0.0
    if ph == PH_MOVE:
        k = a - A_MOVE
        base = S_PAWN_POS + p * MAX_PAWNS
        o = st[base + k]
        end = st[S_END]
        d = o + st[S_ROLL]
        if d > end:
            d = end
        f4 = float(d - o)
        f5 = (end - o) / end
        if d == end:
            if st[S_GOAL_NEXT] < N_GOALS:
                f3 = float(prm[P_GOAL_VALUES + st[S_GOAL_NEXT]])
            else:
                f13 = 1.0
        if o == 0:
            f12 = 1.0
        else:
            here = pawns_at(st, o, st[S_NPLAYERS], st[S_NPAWNS])
            if st[S_HEIGHT + o] > 0:
                if here == 1:
                    dt = take_delta(st, prm, p, visible_top(st, o))
                    f0 = float(dt)
                    if dt < 0:
                        f1 = float(dt)
                else:
                    f10 = 1.0
            else:
                f2 = float(best_discard_value(st, prm, p, prm[P_SYMBOLS + o]))
        if d != end:
            if st[S_HEIGHT + d] == 0:
                f6 = 1.0
                if st[S_HOLD + p * N_KINDS + K_PLANK] == 0:
                    f7 = 1.0
            else:
                f8 = float(take_delta(st, prm, p, visible_top(st, d)))
            f9 = float(pawns_at(st, d, st[S_NPLAYERS], st[S_NPAWNS]))
        rear = True
        for j in range(st[S_NPAWNS]):
            if j != k and st[base + j] < o:
                rear = False
        if rear:
            f11 = 1.0
    elif ph == PH_PLANK:
        if a == A_PLANK_YES:
            f14 = 1.0
            dest = st[S_DEST]
            f15 = -float(best_discard_value(st, prm, p, prm[P_SYMBOLS + dest]))
    elif ph == PH_DISCARD:
        f16 = float(discard_delta(st, prm, p, a))
        if a >= A_DISCARD_GHOST and a < A_DISCARD_PAIR:
            f18 = 1.0
        elif a >= A_DISCARD_PAIR and a < A_DISCARD_ONE:
            code = a - A_DISCARD_PAIR
            f17 = (1.0 if code // 6 == 5 else 0.0) + (1.0 if code % 6 == 5 else 0.0)
        elif a >= A_DISCARD_ONE and a - A_DISCARD_ONE == 5:
            f17 = 1.0
    return (f0, f1, f2, f3, f4, f5, f6, f7, f8, f9, f10, f11, f12, f13, f14, f15, f16, f17, f18)


@njit
def action_score(sp, st, prm, a):
    """The policy's score of legal action ``a``: sum over i of sp[1 + i] * feature i, in feature order (no BLAS,
    no fastmath: the same float64 sum on every machine)."""
    f = action_features(st, prm, a)
    s = 0.0
    for i in range(N_FEATURES):
        s += sp[1 + i] * f[i]
    return s


@njit
def learned_choice(sp, st, prm, mask, rng, row, marker):
    """The `learned` strategy's action among the legal ones (``mask`` int8[N_ACTIONS]): each legal action scored
    once into ``marker`` (`kernels.policy.new_marker`), then `kernels.policy.select`: with temperature sp[0] <= 0
    the highest score (ties: the lower action index), no random draw; with sp[0] > 0 an action drawn with
    probability proportional to exp(score / temperature), one draw from the seat's stream ``rng[row]``."""
    scores, acts = marker.scores, marker.acts
    k = 0
    for a in range(N_ACTIONS):
        if mask[a]:
            scores[k] = action_score(sp, st, prm, a)
            acts[k] = a
            k += 1
    return select(scores, acts, k, sp[0], rng, row)


@njit
def play_learned(marker, sp, st, prm, mask, rng, row):
    """`learned_choice` where the batch scratch's learned marker is not None (it is then the policy's scratch,
    `kernels.policy.new_marker`); -1 (refused: ST_BAD_ACTION, never a silent choice) where it is. A marker of type None
    prunes the learned policy from the compiled kernel: a scenario without a learned seat compiles none of it
    (kernel contract, "Batch signature")."""
    if marker is None:
        return -1
    return learned_choice(sp, st, prm, mask, rng, row, marker)


@njit
def fill_features(st, prm, seat, mask, out, ws):
    """Training's view (called from Python): row a of ``out`` (float64[N_ACTIONS, N_FEATURES]) the features of each
    legal action a (``mask`` int8[N_ACTIONS]) of ``seat``, the seat to move (Moor reads the mover from the state;
    ``ws``, the batch scratch, is the contract's: Turnwall reads a seat's memory there); returns how many are legal."""
    c = 0
    for a in range(N_ACTIONS):
        if mask[a]:
            f = action_features(st, prm, a)
            for i in range(N_FEATURES):
                out[a, i] = f[i]
            c += 1
    return c
