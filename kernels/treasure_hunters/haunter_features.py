"""Ghost Fightin' Treasure Hunters: the action features of the Head Haunter's `haunter_learned` player (a linear
softmax policy over them).

The Head Haunter decides which hand card to play (``A_SLOT + s``, R36), where the card acts (``A_ROOM``, ``A_PAIR``,
``A_MOVEG``, ``A_SPOOK``: R39-R44) and where a spooked hunter goes (``A_MOVE + node``, R44). Each feature is read from
what seat 0 sees: the board, the hunters and jewels, and its own hand (it never reads the draw pile or a face-down
jewel number). They are built from the scripted Head Haunters' own simulation (`card_value`, `target_value`: a
placement with overflow and hauntings on a scratch board) under the builder's and the trapper's rows and under unit
rows that count what a placement makes (hauntings, trapped carriers); the hidden-information permutation test
(tests/kernels/treasure_hunters/test_learned.py) covers them, and a deliberately leaky copy fails it.

The same code serves play (`learned_choice`) and training (`fill_features`); the weights travel in seat 0's
parameter row (column 0 the temperature, then FEATURE_NAMES order); the shipped ones are
kernels/treasure_hunters/policies/haunter.json.
"""

from __future__ import annotations

import numpy as np

from kernels._jit import njit
from kernels.policy import select_dense
from kernels.treasure_hunters.rules import (
    A_MOVE,
    A_SLOT,
    A_SPOOK,
    CT_DRAW2,
    CT_DRAW3,
    CT_MOVE,
    CT_SHUFFLE,
    CT_SPOOK,
    N_ACTIONS,
    OUTSIDE,
    P_CARD_TYPE,
    P_CARD_X,
    PH_HH_PLAY,
    PH_HH_TARGET,
    PH_SPOOK_DEST,
    ROOM0,
    S_GHOSTS,
    S_HAND,
    S_HCARRY,
    S_HPOS,
    S_LOCK,
    S_PEND_CARD,
    S_PHASE,
    S_SPOOK_H,
    dist,
    is_room,
)
from kernels.treasure_hunters.strategies import (
    HH_SCRIPTED,
    N_HHW,
    WIN_VALUE,
    board_value,
    card_value,
    haunter_decide,
    hh_prepare,
    target_value,
)

FEATURE_SET = "treasure_hunters-haunter"
FEATURE_VERSION = 1
FEATURES = (
    ("script", "1 for the builder Head Haunter's choice (the best scripted one on the ladder)"),
    ("builder", "play, target: the builder's value of the card (its best target) or of the target, / 10"),
    ("trapper", "play, target: the trapper's value of the card or target, / 10"),
    ("wins", "play, target: 1 when it places the last haunting piece (R46)"),
    ("hauntings", "play, target: hauntings the placement makes (R18, R19 overflow simulated)"),
    ("traps", "play, target: jewel carriers the placement traps in a haunted room (R21)"),
    ("card_shuffle", "play: a Shuffle card (no ghost, R45)"),
    ("card_draw", "play: a Draw 2 or 3 + Shuffle card, the cards it draws"),
    ("card_spook", "play: a Spook card (R44)"),
    ("card_move", "play: a Move Ghost card (R42)"),
    ("card_x", "play: a single-use card (X: it leaves the game, R36)"),
    ("spook_carrier", "target: spooking a carrier (it drops its jewel): its spaces from outside, / 10"),
    ("spook_empty", "target: spooking a hunter holding no jewel"),
    ("spook_far", "spook destination: spaces from outside, / 10"),
    ("spook_back", "spook destination: spaces from where the hunter stood, / 3"),
    ("spook_ghost2", "spook destination: a room with two ghosts (an easy fight for it)"),
)
FEATURE_NAMES = tuple(n for n, _ in FEATURES)
N_FEATURES = len(FEATURES)
N_LEARNED_PARAMS = 1 + N_FEATURES
# the rows the features value with: builder, trapper, then unit rows counting hauntings and trapped carriers
ROWS = np.zeros((4, N_HHW), dtype=np.float64)
ROWS[0:2] = HH_SCRIPTED
ROWS[2, 0] = 1.0  # w_haunt
ROWS[3, 2] = 1.0  # w_trap
BUILDER_ROW = np.array(HH_SCRIPTED[0])  # a writable copy: training passes it as the script row


@njit
def _values(st, prm, a, c, tmp, base, play):
    """(builder / 10, trapper / 10, wins, hauntings made, carriers trapped) of card ``c`` played (``play``: its best
    target under each row) or of target ``a`` of the pending card ``c``; the values 0 for a winning placement."""
    v0 = v1 = v2 = v3 = 0.0
    win = False
    for k in range(4):
        if play:
            v = card_value(st, prm, c, ROWS[k], tmp, base[k])
        else:
            v = target_value(st, prm, c, a, ROWS[k], tmp, base[k])
        win |= v >= 0.5 * WIN_VALUE
        if k == 0:
            v0 = v / 10.0
        elif k == 1:
            v1 = v / 10.0
        elif k == 2:
            v2 = v
        else:
            v3 = v
    if win:
        return 0.0, 0.0, 1.0, 0.0, 0.0
    return v0, v1, 0.0, v2, v3


@njit
def action_features(st, prm, a, script, tmp, base):
    """The features (float64 x N_FEATURES, FEATURES order) of legal action ``a`` of the Head Haunter (``script``:
    the builder's choice; ``base``: the board's value under each of `ROWS`, `hh_prepare` done in ``tmp``)."""
    f0 = f1 = f2 = f3 = f4 = f5 = f6 = f7 = f8 = f9 = f10 = f11 = f12 = f13 = f14 = f15 = 0.0
    if a == script:
        f0 = 1.0
    ph = st[S_PHASE]
    if ph == PH_HH_PLAY:
        c = st[S_HAND + a - A_SLOT]
        ct = prm[P_CARD_TYPE + c]
        f1, f2, f3, f4, f5 = _values(st, prm, a, c, tmp, base, True)
        if ct == CT_SHUFFLE:
            f6 = 1.0
        elif ct == CT_DRAW2:
            f7 = 2.0
        elif ct == CT_DRAW3:
            f7 = 3.0
        elif ct == CT_SPOOK:
            f8 = 1.0
        elif CT_MOVE <= ct < CT_MOVE + 3:
            f9 = 1.0
        if prm[P_CARD_X + c] == 1:
            f10 = 1.0
    elif ph == PH_HH_TARGET:
        c = st[S_PEND_CARD]
        if prm[P_CARD_TYPE + c] == CT_SPOOK:
            h = a - A_SPOOK
            if st[S_HCARRY + h] >= 0:
                f11 = dist(prm, st[S_LOCK], st[S_HPOS + h], OUTSIDE) / 10.0
            else:
                f12 = 1.0
        else:
            f1, f2, f3, f4, f5 = _values(st, prm, a, c, tmp, base, False)
    elif ph == PH_SPOOK_DEST:
        d = a - A_MOVE
        u = st[S_HPOS + st[S_SPOOK_H]]
        f13 = dist(prm, 0, d, OUTSIDE) / 10.0
        f14 = dist(prm, 0, d, u) / 3.0
        if is_room(d) and st[S_GHOSTS + d - ROOM0] == 2:
            f15 = 1.0
    return (f0, f1, f2, f3, f4, f5, f6, f7, f8, f9, f10, f11, f12, f13, f14, f15)


@njit
def _prepare(hh, st, prm, mask, tmp, wrow):
    """(the builder's choice (its row ``wrow``), the board's value under each of `ROWS`) of the decision in ``st``."""
    script = haunter_decide(hh, st, prm, wrow, mask, tmp)
    hh_prepare(st, tmp)
    base = (
        board_value(st, prm, ROWS[0], tmp),
        board_value(st, prm, ROWS[1], tmp),
        board_value(st, prm, ROWS[2], tmp),
        board_value(st, prm, ROWS[3], tmp),
    )
    return script, base


@njit
def learned_choice(hh, sp, wrow, st, prm, mask, rng, row, tmp, marker):
    """The learned Head Haunter's action (``mask`` int8[N_ACTIONS] of the legal ones) by the policy ``sp``
    (`kernels.policy.select_dense`; ``wrow``: the builder's row, its script feature, from
    `strategies.effective_rows`); ``hh`` None (a co-op kernel) returns -1 and compiles none of it."""
    if hh is None:
        return -1
    script, base = _prepare(hh, st, prm, mask, tmp, wrow)
    scores = marker.scores
    for a in range(N_ACTIONS):
        if mask[a]:
            f = action_features(st, prm, a, script, tmp, base)
            s = 0.0
            for i in range(N_FEATURES):
                s += sp[1 + i] * f[i]
            scores[a] = s
    return select_dense(marker, mask, sp[0], rng, row)


@njit
def _fill(st, prm, mask, out, tmp, wrow):
    script, base = _prepare(1, st, prm, mask, tmp, wrow)
    c = 0
    for a in range(N_ACTIONS):
        if mask[a]:
            f = action_features(st, prm, a, script, tmp, base)
            for i in range(N_FEATURES):
                out[a, i] = f[i]
            c += 1
    return c


def fill_features(st, prm, seat, mask, out, ws):
    """Training's view (plain Python): row a of ``out`` (float64[N_ACTIONS, N_FEATURES]) the features of each legal
    action a (``mask``) of the Head Haunter's decision in ``st`` (``seat`` and ``ws``'s other parts are the
    contract's; ``ws``'s strategy scratch is used); returns how many rows were filled."""
    st_phase = int(st[S_PHASE])
    if st_phase not in (PH_HH_PLAY, PH_HH_TARGET, PH_SPOOK_DEST):
        return 0
    return _fill(st, prm, mask, out, ws.work.tmp, BUILDER_ROW)
