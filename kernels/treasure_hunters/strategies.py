"""Ghost Fightin' Treasure Hunters strategies: integer ids dispatched in `decide`.

Hunters (role "hunter"): passive, random and three scripted team strategies that share one target-and-move planner
with different weight rows (jewel runners, ghost busters, and the weighted heuristic whose row is the seat's
parameters). Head Haunter (role "haunter", seat 0): random and scripted card players that score each card and
target by a weighted board value (builder: completes hauntings; trapper: traps and spooks carriers; weighted).

What a strategy may read (what the players see): the board (ghosts, hauntings, hunters, jewels lying in rooms, the
wagon), the locked colour, which reroll cards are unused, the *number* of cards in the Head Haunter's hand, the
numbers of face-up jewels (and so of carried and delivered ones). Never the draw pile order, never a face-down
jewel number; hunters never read the Head Haunter's cards (only the Head Haunter reads its own hand).
"""

from __future__ import annotations

import numpy as np

from kernels._jit import njit
from kernels.bits import lowest_bit, nonneg
from kernels.rng import pick_legal
from kernels.treasure_hunters.rules import (
    A_FIGHT,
    A_MOVE,
    A_MOVEG,
    A_PAIR,
    A_PASS,
    A_PICK,
    A_REROLL0,
    A_REROLL1,
    A_ROOM,
    A_SLOT,
    A_SPOOK,
    CT_ADD2,
    CT_DRAW2,
    CT_DRAW3,
    CT_GROUP,
    CT_HROOM,
    CT_MOVE,
    CT_SHUFFLE,
    CT_SPOOK,
    GROUP_SIZE,
    MAX_NODES,
    MODE_ADVANCED,
    N_ACTIONS,
    N_JEWELS,
    N_ROOMS,
    OUTSIDE,
    P_CARD_TYPE,
    P_CARRIER_PASS,
    P_DIST,
    P_HAUNTINGS,
    P_MOVE_GHOST,
    P_N_NODES,
    P_NBR,
    PAIRS,
    PH_FIGHT_CHOICE,
    PH_HH_PLAY,
    PH_HH_TARGET,
    PH_MOVE,
    PH_PICKUP,
    PH_REROLL_FIGHT,
    PH_REROLL_MOVE,
    PH_SPOOK_DEST,
    ROOM0,
    S_CUR,
    S_DELIVERED,
    S_FACE,
    S_FKIND,
    S_GHOSTS,
    S_HAND,
    S_HAND_N,
    S_HAUNTED,
    S_HAUNTS,
    S_HCARRY,
    S_HPOS,
    S_JLOC,
    S_JNUM,
    S_JREV,
    S_LOCK,
    S_MODE,
    S_NH,
    S_PEND_CARD,
    S_PHASE,
    S_SPOOK_H,
    UNREACHABLE,
    W_NREACH,
    dist,
    is_room,
    move_ghost_target,
    removable,
    target_set,
)

# ---- ids ----------------------------------------------------------------------------------------------------------
S_PASSIVE = 0
S_RANDOM = 1
S_RUNNERS = 2
S_BUSTERS = 3
S_WEIGHTED = 4
S_HH_RANDOM = 5
S_HH_BUILDER = 6
S_HH_TRAPPER = 7
S_HH_WEIGHTED = 8
# played by step.decide through kernels.treasure_hunters.features / haunter_features (built on this module's planners)
S_LEARNED = 9
S_HH_LEARNED = 10

# name, id, one-line description, role
STRATEGIES = (
    ("passive", S_PASSIVE, "never enters the house (baseline: how fast the house fills on its own)", "hunter"),
    ("random", S_RANDOM, "uniform over the legal choices (its own random stream per seat)", "hunter"),
    (
        "runners",
        S_RUNNERS,
        "jewel runners: fetch and carry jewels, fight only where they stop, rescue stuck carriers",
        "hunter",
    ),
    (
        "busters",
        S_BUSTERS,
        "ghost busters: keep rooms below three ghosts, pair up to unhaunt, then fetch jewels",
        "hunter",
    ),
    ("weighted", S_WEIGHTED, "weighted heuristic: target values and distance cost are per-seat parameters", "hunter"),
    ("haunter_random", S_HH_RANDOM, "Head Haunter: uniform over the legal plays and targets", "haunter"),
    (
        "haunter_builder",
        S_HH_BUILDER,
        "Head Haunter: completes hauntings (stacks ghosts where two already are)",
        "haunter",
    ),
    (
        "haunter_trapper",
        S_HH_TRAPPER,
        "Head Haunter: haunts rooms holding carriers, spooks carriers near the door",
        "haunter",
    ),
    (
        "haunter_weighted",
        S_HH_WEIGHTED,
        "Head Haunter: weighted board value; weights are per-seat parameters",
        "haunter",
    ),
    (
        "learned",
        S_LEARNED,
        "learned policy: moves and pick-ups by a linear score of action features, each feature's worth fitted to the "
        "rollouts of search decisions (`sim train treasure_hunters --role hunter`), rerolls and optional fights as "
        "weighted plays them; weights are per-seat parameters",
        "hunter",
    ),
    (
        "haunter_learned",
        S_HH_LEARNED,
        "Head Haunter: learned policy over card, target and spook features fitted to search decisions "
        "(`sim train treasure_hunters --role haunter`); weights are per-seat parameters",
        "haunter",
    ),
)

# Hunter weights: (name, default, help). Order = column in the sparams row.
WEIGHT_SPECS = (
    ("w_dist", 1.0, "cost per space of distance to a target"),
    ("w_jewel", 7.0, "value of the room holding the jewel assigned to this hunter (advanced: the next number)"),
    ("w_reveal", 8.0, "advanced: value of a room with face-down jewels (to turn them up)"),
    ("w_ghost1", 4.0, "value of a room with one ghost (a fight)"),
    ("w_ghost2", 9.0, "value of a room with two ghosts (one more makes a haunting)"),
    ("w_help", 5.0, "bonus for a ghost room where another hunter stands (it rolls the second die)"),
    ("w_unhaunt", 60.0, "value of a haunted room where another hunter already stands (unhaunt attempt)"),
    ("w_unhaunt_alone", 12.0, "value of an empty haunted room (wait there for a partner)"),
    ("w_rescue", 1.5, "bonus for a haunted room holding a stuck carrier"),
    ("w_exit", 30.0, "value of outside when no jewel is left to fetch (or the jewel held cannot leave yet)"),
    ("reroll_move_haunts", 4.0, "Head Haunter game: reroll a ghost face when at least this many hauntings are out"),
    ("reroll_fight_ghosts", 2.0, "reroll a failed fight die when the room holds at least this many ghosts"),
    ("reroll_unhaunt", 1.0, "reroll a failed unhaunting die when >= 0.5"),
)
# The defaults come from a coordinate search on the basic 4-hunter game (win rate 12% -> 32%): pairing up to
# unhaunt matters far more than fetching jewels fast.
N_HW = len(WEIGHT_SPECS)
(
    W_DIST,
    W_JEWEL,
    W_REVEAL,
    W_GHOST1,
    W_GHOST2,
    W_HELP,
    W_UNHAUNT,
    W_ALONE,
    W_RESCUE,
    W_EXIT,
    W_RR_MOVE,
    W_RR_FIGHT,
    W_RR_UNHAUNT,
) = range(N_HW)
assert W_JEWEL == 1 and W_REVEAL == 2  # assigned_jewel reads a listed room's value as w[code]

SCRIPTED_WEIGHTS = np.array(
    [
        # dist jewel reveal g1   g2    help unh  alone resc exit  rrmv rrfight rrunh
        [1.0, 30.0, 18.0, 0.0, 3.0, 1.0, 8.0, 0.0, 20.0, 30.0, 5.0, 9.0, 1.0],  # runners
        [1.0, 12.0, 8.0, 6.0, 16.0, 4.0, 20.0, 10.0, 10.0, 30.0, 3.0, 2.0, 1.0],  # busters
    ],
    dtype=np.float64,
)

# Head Haunter weights
HH_WEIGHT_SPECS = (
    ("w_haunt", 8.0, "value per haunting on the board"),
    ("w_sq", 0.8, "value per squared ghost count of a room (concentration)"),
    ("w_trap", 12.0, "value per carrier stuck in a haunted room"),
    ("w_carrier_room", 1.5, "value per ghost in a room holding a carrier"),
    ("w_jewel_room", 0.5, "value per ghost in a room holding a jewel"),
    ("w_spook", 0.8, "value per space a spooked carrier is set back from the front door"),
    ("w_draw", 0.8, "value of a Draw N card as N times the mean single-ghost placement, times this"),
)
N_HHW = len(HH_WEIGHT_SPECS)
HH_SCRIPTED = np.array(
    [
        [10.0, 1.0, 5.0, 0.5, 0.2, 0.3, 0.8],  # builder
        [6.0, 0.5, 25.0, 3.0, 1.0, 1.5, 0.8],  # trapper
    ],
    dtype=np.float64,
)
N_SPARAMS = max(N_HW, N_HHW)
# the scripted rows in one table for `effective_rows`: runners, busters, builder, trapper, then the weighted planner's
# default row (the learned hunter's script and the decisions it leaves to the planner), zero-padded
_SCRIPTED_ROWS = np.zeros((5, N_SPARAMS), dtype=np.float64)
_SCRIPTED_ROWS[0:2, 0:N_HW] = SCRIPTED_WEIGHTS
_SCRIPTED_ROWS[2:4, 0:N_HHW] = HH_SCRIPTED
_SCRIPTED_ROWS[4, 0:N_HW] = [d for _n, d, _h in WEIGHT_SPECS]
WIN_VALUE = 1.0e6

# scratch layout in ``tmp`` (int32[512]): 0..192 move search (rules.move_targets, W_NREACH = 192), then ours
T_FIELD = 196  # [64] carrier distance to outside avoiding haunted rooms (192 = rules.W_NREACH)
T_G = 330  # [12] simulated ghosts
T_H = 342  # [12] simulated hauntings
T_CAR = 354  # [12] carriers per room
T_JR = 366  # [12] jewels lying per room
T_LIST = 380  # [16] jewel target nodes
T_LISTV = 396  # [16] their kind: 1 wanted jewel, 2 face-down jewels
T_JCODE = 412  # [12] room_info
T_OTH = 424  # [12]
T_STK = 436  # [12]
TMP_SIZE = 512


@njit("int64(int32[::1])")
def next_wanted(st):
    """Advanced game: the lowest number that is neither delivered nor carried (read from face-up numbers only)."""
    want = st[S_DELIVERED] + 1
    changed = True
    while changed:
        changed = False
        for h in range(st[S_NH]):
            j = st[S_HCARRY + h]
            if j >= 0 and st[S_JNUM + j] == want:  # carried jewels are face up
                want += 1
                changed = True
    return want


@njit("void(int32[::1], int64, int32[::1])")
def room_info(st, h, tmp):
    """Per room, into the scratch: T_JCODE (0 nothing to fetch, 1 a wanted jewel, 2 face-down jewels only; haunted
    rooms count as nothing), T_OTH (other hunters there), T_STK (1 when one of them is a carrier)."""
    advanced = st[S_MODE] == MODE_ADVANCED
    want = next_wanted(st) if advanced else 0
    for r in range(N_ROOMS):
        tmp[T_JCODE + r] = 0
        tmp[T_OTH + r] = 0
        tmp[T_STK + r] = 0
    for j in range(N_JEWELS):
        v = st[S_JLOC + j]
        if v >= ROOM0 and v < ROOM0 + N_ROOMS:
            r = v - ROOM0
            if st[S_HAUNTED + r] == 1:
                continue
            if not advanced:
                tmp[T_JCODE + r] = 1
            elif st[S_JREV + j] == 1:
                if st[S_JNUM + j] == want:
                    tmp[T_JCODE + r] = 1
            elif tmp[T_JCODE + r] == 0:
                tmp[T_JCODE + r] = 2
    for k in range(st[S_NH]):
        v = st[S_HPOS + k]
        if k != h and v >= ROOM0 and v < ROOM0 + N_ROOMS:
            tmp[T_OTH + v - ROOM0] += 1
            if st[S_HCARRY + k] >= 0:
                tmp[T_STK + v - ROOM0] = 1


@njit("float64(float64[::1], int64)")
def jcode_value(w, code):
    if code == 1:
        return w[W_JEWEL]
    if code == 2:
        return w[W_REVEAL]
    return 0.0


@njit
def assigned_jewel(st, prm, h, w, tmp):
    """Greedy team assignment of jewel rooms to hunters with empty hands (best value - w_dist * distance first).

    Needs `room_info` in the scratch. Returns (node, value) for hunter ``h``: its assigned room, else its best room
    at half value, else (-1, 0).
    """
    lock = st[S_LOCK]
    nh = st[S_NH]
    nr = 0
    for r in range(N_ROOMS):
        code = tmp[T_JCODE + r]
        if code > 0 and jcode_value(w, code) > 0.0:
            tmp[T_LIST + nr] = ROOM0 + r
            tmp[T_LISTV + nr] = code
            nr += 1
    if nr == 0:
        return -1, 0.0
    # the scans are branch-light (kernels/README.md): a listed room's value is w[code] (W_JEWEL = 1, W_REVEAL = 2,
    # what jcode_value returns), the best kept by a select
    wd = w[W_DIST]
    lk = P_DIST + nonneg(lock) * MAX_NODES * MAX_NODES
    used_h = 0
    used_r = 0
    for _ in range(nh):
        best = -1e300
        bh = -1
        br = -1
        for k in range(nh):
            if (used_h >> k) & 1 or st[S_HCARRY + k] >= 0:
                continue
            base = lk + nonneg(st[S_HPOS + k]) * MAX_NODES
            for i in range(nr):
                s = w[nonneg(tmp[T_LISTV + i])] - wd * prm[base + nonneg(tmp[T_LIST + i])]
                better = (((used_r >> i) & 1) == 0) & (s > best)
                best = s if better else best
                bh = k if better else bh
                br = i if better else br
        if bh < 0:
            break
        if bh == h:
            return tmp[T_LIST + br], jcode_value(w, tmp[T_LISTV + br])
        used_h |= 1 << bh
        used_r |= 1 << br
    best = -1e300
    bi = 0
    base = lk + nonneg(st[S_HPOS + h]) * MAX_NODES
    for i in range(nr):
        s = w[nonneg(tmp[T_LISTV + i])] - wd * prm[base + nonneg(tmp[T_LIST + i])]
        better = s > best
        best = s if better else best
        bi = i if better else bi
    return tmp[T_LIST + bi], 0.5 * jcode_value(w, tmp[T_LISTV + bi])


@njit
def choose_target(st, prm, h, w, tmp):
    """The node hunter ``h`` heads for: the best of its assigned jewel room, ghost rooms, haunted rooms (with a
    partner there, or to wait for one) and outside (carrying, or nothing left to fetch); -1: stay."""
    u = st[S_HPOS + h]
    lock = st[S_LOCK]
    j = st[S_HCARRY + h]
    if j >= 0 and removable(st, j):  # the carried jewel's number is face up: visible
        return OUTSIDE
    room_info(st, h, tmp)
    base = P_DIST + (nonneg(lock) * MAX_NODES + nonneg(u)) * MAX_NODES
    best = -1e300
    tgt = -1
    if j < 0:
        v, val = assigned_jewel(st, prm, h, w, tmp)
        if v >= 0:
            s = val - w[W_DIST] * prm[base + v]
            if s > best:
                best = s
                tgt = v
    left = 0
    for k in range(N_JEWELS):
        if st[S_JLOC + k] >= 0:
            left += 1
    if j >= 0 or left == 0:
        s = w[W_EXIT] - w[W_DIST] * prm[base + OUTSIDE]
        if s > best:
            best = s
            tgt = OUTSIDE
    # rooms: branch-light (kernels/README.md), both values computed, the best kept by a select; a term that does not
    # apply is added as 0.0 (the same comparisons: a value <= 0 is never a target)
    free = j < 0  # a carrier never walks into a haunting
    wd = w[W_DIST]
    for r in range(N_ROOMS):
        g = st[S_GHOSTS + r]
        oth = tmp[T_OTH + r] > 0
        vg = (w[W_GHOST1] if g == 1 else w[W_GHOST2]) + (w[W_HELP] if oth else 0.0)
        vh = (w[W_UNHAUNT] + (w[W_RESCUE] if tmp[T_STK + r] == 1 else 0.0)) if oth else w[W_ALONE]
        val = vg if g > 0 else vh
        s = val - wd * prm[base + ROOM0 + r]
        better = ((g > 0) | ((st[S_HAUNTED + r] == 1) & free)) & (val > 0.0) & (s > best)
        best = s if better else best
        tgt = ROOM0 + r if better else tgt
    return tgt


@njit("void(int32[::1], int64[::1], int32[::1])")
def carrier_field(st, prm, tmp):
    """tmp[T_FIELD + v] = spaces from v to outside for a carrier (no passing through haunted rooms, closed doors
    respected); UNREACHABLE where cut off.

    Breadth-first by sets, as rules.move_targets: each step ORs the neighbour sets (prm P_NBR) of the nodes reached
    last that a carrier may go on from."""
    one = np.uint64(1)
    for v in range(prm[P_N_NODES]):
        tmp[T_FIELD + v] = UNREACHABLE
    tmp[T_FIELD + OUTSIDE] = 0
    nbr = P_NBR + nonneg(st[S_LOCK]) * MAX_NODES
    stop = np.uint64(0)  # a carrier entering here is stuck: nothing lies beyond it
    if prm[P_CARRIER_PASS] != 1:
        for r in range(N_ROOMS):
            stop |= np.uint64(st[S_HAUNTED + r] == 1) << np.uint64(ROOM0 + r)
    seen = one << np.uint64(OUTSIDE)
    front = seen
    d = 0
    while front != 0:
        d += 1
        nxt = np.uint64(0)
        while front != 0:
            nxt |= np.uint64(prm[nbr + lowest_bit(front)])
            front &= front - one
        nxt &= ~seen
        seen |= nxt
        b = nxt
        while b != 0:
            tmp[T_FIELD + lowest_bit(b)] = d
            b &= b - one
        front = nxt & ~stop


@njit
def hunter_move(st, prm, w, mask, tmp):
    h = st[S_CUR]
    u = st[S_HPOS + h]
    lock = st[S_LOCK]
    j = st[S_HCARRY + h]
    tgt = choose_target(st, prm, h, w, tmp)
    if tgt < 0:
        return A_MOVE + u
    use_field = tgt == OUTSIDE and j >= 0 and st[S_HAUNTS] > 0
    if use_field:
        carrier_field(st, prm, tmp)
    best = -1e300
    ba = A_MOVE + u
    carrier = j >= 0
    fight = 0.1 * w[W_GHOST1]  # tie-break: fight on the way if that is wanted
    col = P_DIST + lock * MAX_NODES * MAX_NODES + tgt
    # branch-light (kernels/README.md): the trap and ghost terms are added as 0.0 when they do not apply (the same
    # comparisons: x - 0.0 == x, x + 0.0 == x), the best kept by a select
    for i in range(tmp[W_NREACH]):
        d = nonneg(tmp[64 + i])  # the legal destinations (rules.move_targets)
        if use_field:
            dd = tmp[T_FIELD + d]
        else:
            dd = prm[col + d * MAX_NODES]  # dist(prm, lock, d, tgt)
        s = -10.0 * dd
        room = (d >= ROOM0) & (d < ROOM0 + N_ROOMS)
        trap = room & carrier & (st[S_HAUNTED - ROOM0 + d] == 1) & (d != tgt)
        s -= 1.0e5 if trap else 0.0  # never step into a trap
        s += fight if room & (st[S_GHOSTS - ROOM0 + d] > 0) else 0.0
        a = A_MOVE + d
        better = (mask[a] != 0) & ((s > best) | ((s == best) & (a < ba)))  # ties: the lowest node
        best = s if better else best
        ba = a if better else ba
    return ba


@njit
def hunter_pickup(st, prm, mask):
    h = st[S_CUR]
    v = st[S_HPOS + h]
    if st[S_HAUNTED + v - ROOM0] == 1:
        return A_PASS  # picking up here would trap the hunter
    want = next_wanted(st)
    for j in range(N_JEWELS):
        if mask[A_PICK + j] == 1:
            if st[S_MODE] != MODE_ADVANCED or st[S_JNUM + j] == want:  # face up: the hunter ended its move here
                return A_PICK + j
    return A_PASS


@njit
def hunter_decide(st, prm, w, mask, tmp):
    ph = st[S_PHASE]
    if ph == PH_MOVE:
        return hunter_move(st, prm, w, mask, tmp)
    if ph == PH_PICKUP:
        return hunter_pickup(st, prm, mask)
    if ph == PH_FIGHT_CHOICE:
        return A_FIGHT
    if ph == PH_REROLL_MOVE:
        if prm[P_MOVE_GHOST + st[S_FACE]] == 1 and st[S_HAUNTS] >= w[W_RR_MOVE] and st[S_HAND_N] > 0:
            return A_REROLL0
        return A_PASS
    if ph == PH_REROLL_FIGHT:
        if st[S_FKIND] == 0:
            r = st[S_HPOS + st[S_CUR]] - ROOM0
            if st[S_GHOSTS + r] < w[W_RR_FIGHT]:
                return A_PASS
        elif w[W_RR_UNHAUNT] < 0.5:
            return A_PASS
        if mask[A_REROLL1] == 1:
            return A_REROLL1
        if mask[A_REROLL0] == 1:
            return A_REROLL0
        return A_PASS
    return A_PASS


# ---- Head Haunter ----------------------------------------------------------------------------------------------------
@njit
def hh_prepare(st, tmp):
    """Copy the board into the simulation scratch; count carriers and lying jewels per room."""
    for r in range(N_ROOMS):
        tmp[T_G + r] = st[S_GHOSTS + r]
        tmp[T_H + r] = st[S_HAUNTED + r]
        tmp[T_CAR + r] = 0
        tmp[T_JR + r] = 0
    for h in range(st[S_NH]):
        v = st[S_HPOS + h]
        if is_room(v) and st[S_HCARRY + h] >= 0:
            tmp[T_CAR + v - ROOM0] += 1
    for j in range(N_JEWELS):
        v = st[S_JLOC + j]
        if v >= 0 and is_room(v):
            tmp[T_JR + v - ROOM0] += 1


@njit
def sim_reset(st, tmp):
    for r in range(N_ROOMS):
        tmp[T_G + r] = st[S_GHOSTS + r]
        tmp[T_H + r] = st[S_HAUNTED + r]


@njit
def sim_place(tmp, room):
    r = room
    for _ in range(N_ROOMS):
        if tmp[T_H + r] == 0:
            break
        r = (r + 1) % N_ROOMS
    if tmp[T_H + r] == 1:
        return
    tmp[T_G + r] += 1
    if tmp[T_G + r] >= 3:
        tmp[T_G + r] = 0
        tmp[T_H + r] = 1


@njit
def board_value(st, prm, w, tmp):
    """Weighted value of the simulated board for the Head Haunter (WIN_VALUE when it wins)."""
    hs = 0
    sq = 0.0
    trap = 0
    cg = 0.0
    jg = 0.0
    for r in range(N_ROOMS):
        g = tmp[T_G + r]
        if tmp[T_H + r] == 1:
            hs += 1
            trap += tmp[T_CAR + r]
        sq += g * g
        cg += g * tmp[T_CAR + r]
        jg += g * tmp[T_JR + r]
    if hs >= prm[P_HAUNTINGS]:
        return WIN_VALUE
    return w[0] * hs + w[1] * sq + w[2] * trap + w[3] * cg + w[4] * jg


@njit
def target_value(st, prm, c, a, w, tmp, base):
    """Gain of playing card ``c`` on target action ``a`` (simulated on the scratch board)."""
    ct = prm[P_CARD_TYPE + c]
    if ct == CT_SPOOK:
        h = a - A_SPOOK
        if st[S_HCARRY + h] < 0:
            return 0.1
        d0 = dist(prm, st[S_LOCK], st[S_HPOS + h], OUTSIDE)
        return w[5] * (3.0 + max(0.0, 20.0 - d0))
    sim_reset(st, tmp)
    if CT_GROUP <= ct < CT_GROUP + 3:
        g = ct - CT_GROUP
        k = a - A_PAIR
        sim_place(tmp, g * GROUP_SIZE + PAIRS[k, 0])
        sim_place(tmp, g * GROUP_SIZE + PAIRS[k, 1])
    elif ct == CT_ADD2:
        sim_place(tmp, a - A_ROOM)
        sim_place(tmp, a - A_ROOM)
    elif CT_MOVE <= ct < CT_MOVE + 3:
        code = a - A_MOVEG
        r = code // 2
        t = move_ghost_target(prm, r, ct - CT_MOVE + 1, code % 2)
        tmp[T_G + r] -= 1
        sim_place(tmp, t)
    else:
        sim_place(tmp, a - A_ROOM)
    return board_value(st, prm, w, tmp) - base


@njit
def card_value(st, prm, c, w, tmp, base):
    """Best gain of card ``c`` over its targets (0 for Shuffle; Draw N valued as N mean placements)."""
    ct = prm[P_CARD_TYPE + c]
    if ct < CT_SHUFFLE or (CT_HROOM <= ct < CT_HROOM + N_ROOMS):
        room = ct if ct < CT_SHUFFLE else ct - CT_HROOM
        sim_reset(st, tmp)
        sim_place(tmp, room)
        return board_value(st, prm, w, tmp) - base
    if ct == CT_SHUFFLE:
        return 0.0
    if ct == CT_DRAW2 or ct == CT_DRAW3:
        m = 0.0
        for r in range(N_ROOMS):
            sim_reset(st, tmp)
            sim_place(tmp, r)
            m += board_value(st, prm, w, tmp) - base
        n = 2.0 if ct == CT_DRAW2 else 3.0
        return w[6] * n * m / N_ROOMS
    first, bits = target_set(st, prm, c)
    if bits == 0:
        return -1.0
    best = -1e300
    a = first
    while bits != 0:
        if bits & 1:
            v = target_value(st, prm, c, a, w, tmp, base)
            if v > best:
                best = v
        bits >>= 1
        a += 1
    return best


@njit
def haunter_decide(hh, st, prm, w, mask, tmp):
    """The Head Haunter's decision (its planner). With ``hh`` None (a co-op batch, see play.batch_scratch) it returns
    -1 at once and Numba prunes the rest, so a co-op kernel never compiles the planner and its helpers (about 3 s of
    Treasure Hunters' cold compile, kernels/README.md); never reached there: no Head Haunter phase occurs."""
    if hh is None:
        return -1
    ph = st[S_PHASE]
    hh_prepare(st, tmp)
    base = board_value(st, prm, w, tmp)
    if ph == PH_HH_PLAY:
        best = -1e300
        ba = A_SLOT
        for s in range(st[S_HAND_N]):
            v = card_value(st, prm, st[S_HAND + s], w, tmp, base)
            if v > best:
                best = v
                ba = A_SLOT + s
        return ba
    if ph == PH_HH_TARGET:
        c = st[S_PEND_CARD]
        best = -1e300
        ba = -1
        for a in range(N_ACTIONS):
            if mask[a] == 1:
                v = target_value(st, prm, c, a, w, tmp, base)
                if v > best:
                    best = v
                    ba = a
        return ba
    if ph == PH_SPOOK_DEST:
        h = st[S_SPOOK_H]
        u = st[S_HPOS + h]
        best = -1e300
        ba = A_MOVE + u
        for d in range(prm[P_N_NODES]):
            if mask[A_MOVE + d] == 1:
                v = float(dist(prm, 0, d, OUTSIDE)) + 0.5 * dist(prm, 0, d, u)
                if is_room(d) and st[S_GHOSTS + d - ROOM0] == 2:
                    v -= 3.0  # do not hand it an easy fight next to two ghosts
                if v > best:
                    best = v
                    ba = A_MOVE + d
        return ba
    for a in range(N_ACTIONS):
        if mask[a] == 1:
            return a
    return -1


@njit
def effective_rows(sids, sparams, out):
    """out[seat] = the weight row `decide` gets: the seat's own parameters for the weighted strategies, the fixed
    row of a scripted one (so every strategy shares one compiled specialization of the planners); a learned seat's
    script row (the weighted planner's defaults, the builder's; its policy weights stay in its parameter row)."""
    for s in range(sids.shape[0]):
        sid = sids[s]
        src = -1  # row of _SCRIPTED_ROWS, used for the first ``m`` entries
        m = 0
        if sid == S_RUNNERS or sid == S_BUSTERS:
            src = sid - S_RUNNERS
            m = N_HW
        elif sid == S_HH_BUILDER or sid == S_HH_TRAPPER:
            src = 2 + sid - S_HH_BUILDER
            m = N_HHW
        elif sid == S_LEARNED:  # its script: the weighted planner at its default row
            src = 4
            m = N_HW
        elif sid == S_HH_LEARNED:  # its script: the builder
            src = 2
            m = N_HHW
        for k in range(out.shape[1]):
            if k < m:
                out[s, k] = _SCRIPTED_ROWS[src, k]
            elif k < sparams.shape[1]:
                out[s, k] = sparams[s, k]
            else:
                out[s, k] = 0.0


@njit(inline="always")
def decide(sid, sp, st, prm, mask, n_legal, rng, row, tmp, hh=1):
    """Action chosen by strategy ``sid`` for the deciding seat; ``mask`` holds the legal actions (n_legal > 1).

    ``sp`` float64[N_SPARAMS] is the seat's effective weight row (`effective_rows`: the seat's parameters for the
    weighted strategies, the fixed row of a scripted one); ``rng[row]`` its own random stream; ``tmp`` int32[512]
    scratch whose first rules.WORK_SIZE (193) entries hold the move search of `rules.legal_actions`. ``hh`` None
    leaves the Head Haunter's planner out of the compiled code (a co-op batch; see `haunter_decide`).
    """
    if sid == S_RANDOM or sid == S_HH_RANDOM:
        return pick_legal(rng, row, mask, n_legal)
    ph = st[S_PHASE]
    if ph == PH_HH_PLAY or ph == PH_HH_TARGET or ph == PH_SPOOK_DEST:
        return haunter_decide(hh, st, prm, sp, mask, tmp)
    if sid == S_PASSIVE:  # stays outside; fights when asked
        if ph == PH_MOVE:
            return A_MOVE + st[S_HPOS + st[S_CUR]]
        if ph == PH_FIGHT_CHOICE:
            return A_FIGHT
        return A_PASS
    return hunter_decide(st, prm, sp, mask, tmp)
