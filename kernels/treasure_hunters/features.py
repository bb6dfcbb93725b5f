"""Ghost Fightin' Treasure Hunters: the action features of the hunters' `learned` player (a linear softmax policy).

The learned hunter scores its two board decisions with learned weights: where it ends its move (``A_MOVE + node``)
and whether it picks up a jewel (``A_PICK + j`` or ``A_PASS``). Its other decisions (fight when fighting is optional,
the reroll cards of the Head Haunter game) it plays as the `weighted` team does at its default row (`SCRIPT_ROW`):
they are rare and the planner's rules for them are simple thresholds.

Every feature reads what the hunter's seat sees (strategies.py's module docstring: the board, ghosts, hauntings,
hunters, jewels lying in rooms, face-up jewel numbers, the locked colour): they are built from the scripted planner's
own observation functions (`choose_target`, `hunter_move`, `room_info`, `carrier_field`, `next_wanted`), never from
a face-down jewel number, the draw pile or the Head Haunter's hand. The hidden-information permutation test
(tests/kernels/treasure_hunters/test_learned.py) asks the policy with random weights on states whose hidden parts
were permuted, and a deliberately leaky copy fails it.

The team game: every hunter seat plays for the team's win (all hunters win or lose together against the house); the
features of one hunter's move see its partners (a second fight die, an unhaunting partner, a stuck carrier to free).

The same code serves play (`learned_choice`, in the kernel: score = sum_i w[i] * f_i, float64 in feature order,
then `kernels.policy.select_dense`) and training (`fill_features`, called from Python by `sim.play.learn`). The
weights travel in the seat's parameter row (column 0 the temperature, columns 1.. the weights in FEATURE_NAMES
order); the shipped ones are kernels/treasure_hunters/policies/hunter.json, which records FEATURE_SET and
FEATURE_VERSION: change a feature's meaning and bump FEATURE_VERSION (a test then fails until the policy is
retrained with `sim train treasure_hunters --role hunter`).
"""

from __future__ import annotations

import numpy as np

from kernels._jit import njit
from kernels.bits import nonneg
from kernels.policy import select_dense
from kernels.treasure_hunters.rules import (
    A_MOVE,
    A_PICK,
    MAX_NODES,
    MODE_ADVANCED,
    N_ACTIONS,
    OUTSIDE,
    P_DIST,
    P_HAUNTINGS,
    PH_MOVE,
    PH_PICKUP,
    ROOM0,
    S_CUR,
    S_GHOSTS,
    S_HAUNTED,
    S_HAUNTS,
    S_HCARRY,
    S_HPOS,
    S_JNUM,
    S_JREV,
    S_LOCK,
    S_MODE,
    S_PHASE,
    is_room,
    removable,
)
from kernels.treasure_hunters.strategies import (
    T_FIELD,
    T_JCODE,
    T_OTH,
    T_STK,
    W_JEWEL,
    WEIGHT_SPECS,
    carrier_field,
    choose_target,
    hunter_decide,
    hunter_move,
    next_wanted,
    room_info,
)

FEATURE_SET = "treasure_hunters-hunter"
FEATURE_VERSION = 2  # 2: the script plays the advanced game at its tuned w_jewel (`script_row`)
# (name, what it measures for one action); the order is the weights' order (columns 1.. of the parameter row)
FEATURES = (
    ("script", "move: 1 for the destination the weighted planner chooses (its default row; advanced: w_jewel 11.5)"),
    ("target_dist", "move: spaces from the destination to the planner's target, / 10 (0 without a target)"),
    ("stay", "move: 1 when the hunter stays where it is"),
    ("ghost1", "move: the destination is a room with one ghost (a fight, R15)"),
    ("ghost2", "move: the destination is a room with two ghosts (one more haunts it, R18)"),
    ("ghost2_late", "move: ghost2 times the share of the haunting pieces on the board (R23)"),
    ("fight_help", "move: a ghost room where another hunter stands (it rolls the second die, R16)"),
    ("unhaunt", "move: a haunted room where another hunter stands, not carrying (an unhaunting, R20)"),
    ("haunted_alone", "move: a haunted room with no other hunter, not carrying (waits for a partner)"),
    ("rescue", "move: a haunted room holding a stuck carrier, not carrying (R21)"),
    ("trap", "move: carrying a jewel into a haunted room (stuck there, R21)"),
    ("jewel", "move: not carrying, a room with a jewel it may take now (advanced: the next number face up)"),
    ("reveal", "move: advanced game, not carrying, a room with face-down jewels only (R30)"),
    ("deliver", "move: carrying a jewel that may leave, the destination is outside (R14, R31)"),
    ("carry_progress", "move: carrying, spaces gained towards outside on paths avoiding haunted rooms, / 6"),
    ("leave_empty", "move: not carrying, the destination is outside"),
    ("door_dist", "move: spaces from the destination to outside, / 10"),
    ("pick", "pickup: 1 for picking up a jewel (R13)"),
    ("pick_wanted", "pickup: picking up a jewel that may leave now (basic: any; advanced: the next number)"),
    ("pick_haunted", "pickup: picking up in a haunted room (stuck at once, R21)"),
)
FEATURE_NAMES = tuple(n for n, _ in FEATURES)
N_FEATURES = len(FEATURES)
N_LEARNED_PARAMS = 1 + N_FEATURES  # temperature, then the weights
# the weighted planner's default row: the script feature's planner and the decisions the policy leaves to it
SCRIPT_ROW = np.array([d for _n, d, _h in WEIGHT_SPECS], dtype=np.float64)  # writable: an argument, not a global
# the script's w_jewel: the default row's (tuned on the basic game), and in the advanced game the value tuned there
# (scenarios/treasure_hunters/advanced-4p.toml: the weighted team wins 5.9% with it against 4.9% at the default): one
# policy plays both games, and a script that fetches the wrong jewel first was the advanced policy's ceiling
BASIC_JEWEL = float(SCRIPT_ROW[W_JEWEL])
ADVANCED_JEWEL = 11.5
FIELD_CAP = 20  # spaces: a carrier cut off from outside counts as this far


@njit
def script_row(st, wrow):
    """Set the script's w_jewel in ``wrow`` (the learned seat's own script row, float64[>= N_HW]) for the game mode
    of ``st``: `ADVANCED_JEWEL` in the advanced game, `BASIC_JEWEL` else. Only that entry changes; the decisions the
    policy leaves to the planner (fights, rerolls) do not read it."""
    wrow[W_JEWEL] = ADVANCED_JEWEL if st[S_MODE] == MODE_ADVANCED else BASIC_JEWEL


@njit
def context(st, prm, mask, tmp, wrow):
    """What a move's features share: (hunter, its node, carried jewel, the planner's target node (-1: none), the
    planner's chosen action) under the planner's row ``wrow`` (float64[>= N_HW], `SCRIPT_ROW`). Leaves `room_info` and, for a carrier, `carrier_field` in ``tmp`` (the move search of
    `rules.legal_actions` must be there: it is read, not changed)."""
    h = st[S_CUR]
    tgt = choose_target(st, prm, h, wrow, tmp)
    script = hunter_move(st, prm, wrow, mask, tmp)
    j = st[S_HCARRY + h]
    if j >= 0:
        carrier_field(st, prm, tmp)
    room_info(st, h, tmp)  # choose_target skips it for a carrier whose jewel may leave
    return h, st[S_HPOS + h], j, tgt, script


@njit
def room_features(st, prm, d, carrier, tmp):
    """The room features of destination ``d`` (ghost1 .. reveal, FEATURES order; all 0 outside a room)."""
    g1 = g2 = late = help_ = unh = alone = rescue = trap = jewel = reveal = 0.0
    if is_room(d):
        r = d - ROOM0
        g = st[S_GHOSTS + r]
        oth = tmp[T_OTH + r] > 0
        g1 = 1.0 if g == 1 else 0.0
        g2 = 1.0 if g >= 2 else 0.0
        late = g2 * st[S_HAUNTS] / max(1.0, float(prm[P_HAUNTINGS]))
        help_ = 1.0 if g > 0 and oth else 0.0
        haunted = st[S_HAUNTED + r] == 1
        trap = 1.0 if haunted and carrier else 0.0
        unh = 1.0 if haunted and not carrier and oth else 0.0
        rescue = unh if tmp[T_STK + r] == 1 else 0.0
        alone = 1.0 if haunted and not carrier and not oth else 0.0
        code = 0 if carrier else tmp[T_JCODE + r]
        jewel = 1.0 if code == 1 else 0.0
        reveal = 1.0 if code == 2 else 0.0
    return g1, g2, late, help_, unh, alone, rescue, trap, jewel, reveal


@njit
def move_features(st, prm, a, ctx, tmp):
    """The features of move ``a`` (float64 x N_FEATURES, FEATURES order; `context` in ``ctx`` and ``tmp``)."""
    h, u, j, tgt, script = ctx
    f0 = f1 = f2 = f13 = f14 = f15 = 0.0
    d = a - A_MOVE
    lk = P_DIST + nonneg(st[S_LOCK]) * MAX_NODES * MAX_NODES
    carrier = j >= 0
    if a == script:
        f0 = 1.0
    if tgt >= 0:
        f1 = prm[lk + d * MAX_NODES + tgt] / 10.0
    if d == u:
        f2 = 1.0
    f3, f4, f5, f6, f7, f8, f9, f10, f11, f12 = room_features(st, prm, d, carrier, tmp)
    if d == OUTSIDE:
        f13 = 1.0 if carrier and removable(st, j) else 0.0
        f15 = 0.0 if carrier else 1.0
    if carrier:
        f14 = (min(tmp[T_FIELD + u], FIELD_CAP) - min(tmp[T_FIELD + d], FIELD_CAP)) / 6.0
    f16 = prm[lk + d * MAX_NODES + OUTSIDE] / 10.0
    return (f0, f1, f2, f3, f4, f5, f6, f7, f8, f9, f10, f11, f12, f13, f14, f15, f16, 0.0, 0.0, 0.0)


@njit
def pickup_features(st, a):
    """The features of pick-up decision ``a`` (``A_PASS``: all 0; ``A_PICK + j``: the last three)."""
    f17 = f18 = f19 = 0.0
    if a >= A_PICK and a < A_PICK + 8:
        jj = a - A_PICK
        h = st[S_CUR]
        f17 = 1.0
        if st[S_MODE] != MODE_ADVANCED or (st[S_JREV + jj] == 1 and st[S_JNUM + jj] == next_wanted(st)):
            f18 = 1.0
        v = st[S_HPOS + h]
        if is_room(v) and st[S_HAUNTED + v - ROOM0] == 1:
            f19 = 1.0
    z = 0.0
    return (z, z, z, z, z, z, z, z, z, z, z, z, z, z, z, z, z, f17, f18, f19)


@njit
def score_actions(sp, wrow, st, prm, mask, tmp, scores):
    """scores[a] = sum_i sp[1 + i] * f_i(a) for every legal ``a`` (``mask`` int8[N_ACTIONS]) of the move or pick-up
    decision in ``st``, summed in feature order (no BLAS, no fastmath: the same on every machine)."""
    ph = st[S_PHASE]
    if ph == PH_MOVE:
        script_row(st, wrow)
        ctx = context(st, prm, mask, tmp, wrow)
        for a in range(N_ACTIONS):
            if mask[a]:
                f = move_features(st, prm, a, ctx, tmp)
                s = 0.0
                for i in range(N_FEATURES):
                    s += sp[1 + i] * f[i]
                scores[a] = s
    else:
        for a in range(N_ACTIONS):
            if mask[a]:
                f = pickup_features(st, a)
                s = 0.0
                for i in range(N_FEATURES):
                    s += sp[1 + i] * f[i]
                scores[a] = s


@njit
def learned_choice(sp, wrow, st, prm, mask, rng, row, tmp, marker):
    """The learned hunter's action (``mask`` int8[N_ACTIONS] of the legal ones): the move and the pick-up by the
    policy ``sp`` (`kernels.policy.select_dense`: temperature sp[0] <= 0 the highest score, ties to the lower action
    index; > 0 drawn on ``rng[row]``), every other decision as the weighted planner plays it at the row ``wrow``
    (`SCRIPT_ROW`, from `strategies.effective_rows`: the script of the features too). ``tmp``:
    the strategies' scratch holding the move search; ``marker``: the policy's scratch (`kernels.policy.new_marker`)."""
    ph = st[S_PHASE]
    if ph != PH_MOVE and ph != PH_PICKUP:
        return hunter_decide(st, prm, wrow, mask, tmp)
    score_actions(sp, wrow, st, prm, mask, tmp, marker.scores)
    return select_dense(marker, mask, sp[0], rng, row)


@njit
def _fill(st, prm, mask, out, tmp, wrow):
    ph = st[S_PHASE]
    c = 0
    if ph == PH_MOVE:
        ctx = context(st, prm, mask, tmp, wrow)
        for a in range(N_ACTIONS):
            if mask[a]:
                f = move_features(st, prm, a, ctx, tmp)
                for i in range(N_FEATURES):
                    out[a, i] = f[i]
                c += 1
    elif ph == PH_PICKUP:
        for a in range(N_ACTIONS):
            if mask[a]:
                f = pickup_features(st, a)
                for i in range(N_FEATURES):
                    out[a, i] = f[i]
                c += 1
    return c


def fill_features(st, prm, seat, mask, out, ws):
    """Training's view (plain Python): row a of ``out`` (float64[N_ACTIONS, N_FEATURES]) the features of each legal
    action a (``mask`` int8[N_ACTIONS]) of the hunter to move (read from the state; ``seat`` is the contract's), left
    0 outside the move and pick-up decisions; returns how many rows were filled. ``ws``: the batch scratch, whose
    strategy scratch receives the move search again (`rules.legal_actions`)."""
    from kernels.treasure_hunters.rules import legal_actions

    tmp = ws.work.tmp
    legal = np.zeros(N_ACTIONS, np.int8)
    legal_actions(st, prm, legal, tmp, ws.hh)
    row = SCRIPT_ROW.copy()
    script_row(st, row)
    return _fill(st, prm, mask, out, tmp, row)
