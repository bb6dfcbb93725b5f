"""Ghostly Galleon strategies: integer ids dispatched in `decide` (RULES.md S1..S6).

random: uniform over the legal actions of every decision. The scripted strategies share one scoring of destinations
with a weight row (treasure hunter, raider, cautious, and `weighted` with the seat's own weights):

    w_goal   value per pip closer to the current goal (a chest it can open, the captain's cabin for keys, a chest
             not yet peeked at, a cave with tiles, the own hideout once it holds enough gold)
    w_raid   hunting rivals who opened chests: the goal becomes such a rival, duels and the parrot take from them
    w_ghost  cost of ending a move where the ghost can reach next time (ship spaces within its range)
    w_rival  cost per rival standing next to the destination (who could challenge it)
    w_duel   smallest chance of winning for which it challenges (from the optimal duel table)
    w_cave   value of a move through the caves while tiles lie in the large cave

Duel play (weapon, roll again or stop) is optimal for the duel alone for every scripted strategy: the best weapon
held (more rolls never hurt: it may stop), and the stopping tables of kernels/galleon/duel.py.

What a strategy reads (what its player sees): every piece on the board, its own tiles, how many tiles each player
holds, the chests opened (public), the stickers it peeked at, keys and weapons shown, the stack's and the large cave's
size. Never another seat's tiles, the chests' contents, unpeeked stickers or the stack's order.
"""

from __future__ import annotations

import numpy as np

from kernels._jit import njit
from kernels.galleon.rules import (
    A_DUEL,
    A_GHOST,
    A_MOVE,
    A_NOSWAP,
    A_PASS,
    A_PPEEK,
    A_PSTEAL,
    A_PTOP,
    A_ROLL,
    A_STOP,
    A_SWAP,
    A_WEAPON,
    A_WHIRL,
    K_CABIN,
    K_CAPTAIN,
    K_CAVE,
    K_HIDEOUT,
    K_LAND,
    K_LAND_ARROW,
    LOC_CAVE,
    MAX_PLAYERS,
    MAX_SPACES,
    N_CABINS,
    OPT_CAVE,
    OPT_SHORT,
    P_ATT_STOP,
    P_CABIN,
    P_CANNON,
    P_CANNON_AT,
    P_CANNON_Q,
    P_CAPTAIN,
    P_DEF_STOP,
    P_DIST,
    P_DUEL_WIN,
    P_GOLD_TARGET,
    P_HIDEOUT,
    P_KEY_TILES,
    P_KIND,
    P_NEXT,
    P_NSPACES,
    P_QUARTER,
    P_TERROR,
    PH_DUEL_Q,
    PH_GHOST,
    PH_MOVE,
    PH_PARROT,
    PH_ROLLQ,
    PH_SWAP,
    PH_WEAPON,
    PH_WHIRL,
    S_ACTOR,
    S_ATT_RES,
    S_DIE,
    S_DUEL_ATT,
    S_DUEL_DEF,
    S_DUEL_WINNER,
    S_EMPTY,
    S_FIRED,
    S_GHOST,
    S_LASTCANNON,
    S_LOC,
    S_MUST_DUEL,
    S_N,
    S_NSTACK,
    S_OCC,
    S_OPENED_BY,
    S_OPT,
    S_PEEKED,
    S_PHASE,
    S_POS,
    S_ROLLER,
    S_ROLLS_LEFT,
    S_SHOWN_W,
    S_STATUS,
    S_STICKER,
    S_WA,
    S_WD,
    ST_OK,
    T_KEY,
    best_weapon,
    count_at,
    duel_targets,
    gold_of,
    is_room,
    is_ship,
    next_to,
)
from kernels.rng import pick_legal

S_RANDOM = 0
S_TREASURE = 1
S_RAIDER = 2
S_CAUTIOUS = 3
S_WEIGHTED = 4

# name, id, one-line description
STRATEGIES = (
    ("random", S_RANDOM, "uniform over the legal actions of every decision"),
    ("treasure", S_TREASURE, "treasure hunter: keys from the captain's cabin, chests, home; duels only when favoured"),
    ("raider", S_RAIDER, "hunts rivals who opened chests: duels them, steals from them with the parrot"),
    ("cautious", S_CAUTIOUS, "treasure hunter that keeps away from the ghost and from rivals, rarely duels"),
    ("weighted", S_WEIGHTED, "scores destinations with per-seat weights (sweepable)"),
)
# (name, default, help): the weighted strategy's row (defaults = the treasure hunter's)
WEIGHT_SPECS = (
    ("w_goal", 1.0, "value per pip closer to the current goal (chest, captain's cabin, cave, home)"),
    ("w_raid", 0.0, "0..1: hunt rivals who opened chests (goal, duels, parrot steals)"),
    ("w_ghost", 1.0, "cost of ending within the ghost's reach on the ship"),
    ("w_rival", 0.0, "cost per rival next to the destination"),
    ("w_duel", 0.5, "smallest chance of winning for which it challenges a duel"),
    ("w_cave", 0.5, "value of a move through the caves while tiles lie in the large cave"),
)
N_SPARAMS = 8
WG_GOAL = 0
WG_RAID = 1
WG_GHOST = 2
WG_RIVAL = 3
WG_DUEL = 4
WG_CAVE = 5
ROWS = np.array(
    [
        [1.0, 0.0, 1.0, 0.0, 0.5, 0.5, 0.0, 0.0],  # treasure
        [1.0, 1.0, 0.5, 0.0, 0.35, 0.5, 0.0, 0.0],  # raider
        [1.0, 0.0, 3.0, 1.0, 0.75, 0.5, 0.0, 0.0],
    ]
)  # cautious


@njit
def effective_rows(sids, sparams, out):
    """The weight row each seat plays with: the fixed rows of treasure/raider/cautious, the seat's own for weighted."""
    for s in range(sids.shape[0]):
        for j in range(N_SPARAMS):
            if sids[s] == S_WEIGHTED:
                out[s, j] = sparams[s, j]
            elif sids[s] >= S_TREASURE and sids[s] <= S_CAUTIOUS:
                out[s, j] = ROWS[sids[s] - 1, j]
            else:
                out[s, j] = 0.0


@njit("int64(int32[::1], int64, int64)")
def known_sticker(st, s, c):
    """The key sticker of cabin c's chest as seat s knows it: peeked (or shown by the parrot), else -1."""
    if (st[S_PEEKED + s] >> c) & 1:
        return st[S_STICKER + c]
    return -1


@njit("boolean(int32[::1], int64[::1], int64, int64)")
def holds_key(st, prm, s, k):
    for i in range(5):
        if st[S_LOC + T_KEY + i] == s and prm[P_KEY_TILES + i] == k:
            return True
    return False


@njit("int64(int32[::1], int64[::1], int64, float64)")
def goal_of(st, prm, s, raid):
    """The space seat s heads for (S3)."""
    pos = st[S_POS + s]
    if gold_of(st, s) >= prm[P_GOLD_TARGET]:
        return prm[P_HIDEOUT + s]
    if raid > 0.5:
        best = -1
        bv = 0
        for t in range(st[S_N]):
            u = st[S_POS + t]
            if t == s or u < 0 or count_at(st, t) == 0 or st[S_STATUS + t] != ST_OK:
                continue
            k = prm[P_KIND + u]
            if k == K_CABIN or k == K_CAPTAIN or k == K_CAVE or k == K_HIDEOUT:
                continue
            val = st[S_OPENED_BY + t] * 1000 - prm[P_DIST + pos * MAX_SPACES + u]
            if st[S_OPENED_BY + t] > 0 and (best < 0 or val > bv):
                best = u
                bv = val
        if best >= 0:
            return best
    open_c = -1
    unk_c = -1
    od = 1 << 30
    ud = 1 << 30
    need_key = False
    for c in range(N_CABINS):
        if (st[S_EMPTY] >> c) & 1:
            continue
        v = prm[P_CABIN + c]
        d = prm[P_DIST + pos * MAX_SPACES + v]
        k = known_sticker(st, s, c)
        if k == 0 or (k > 0 and holds_key(st, prm, s, k)):
            if d < od:
                od = d
                open_c = v
        elif k < 0:
            if d < ud:
                ud = d
                unk_c = v
        else:
            need_key = True
    if open_c >= 0:
        return open_c
    if need_key and st[S_NSTACK] > 0:
        return prm[P_CAPTAIN]
    if unk_c >= 0:
        return unk_c
    if st[S_NSTACK] > 0:
        return prm[P_CAPTAIN]
    if count_at(st, LOC_CAVE) > 0:
        best = -1
        bd = 1 << 30
        for v in range(prm[P_NSPACES]):
            if prm[P_KIND + v] == K_CAVE:
                d = prm[P_DIST + pos * MAX_SPACES + v]
                if d < bd and v != pos:
                    bd = d
                    best = v
        if best >= 0:
            return best
    return prm[P_HIDEOUT + s]


@njit("int64(int32[::1], int64)")
def assumed_weapon(st, t):
    """What a rival is assumed to fight with: the pistol if it last showed one, else a sabre if it holds any tile."""
    if st[S_SHOWN_W + t] == 2:
        return 2
    return 1 if count_at(st, t) > 0 else 0


@njit("float64(int32[::1], int64[::1], int64, int64)")
def win_chance(st, prm, s, t):
    """Seat s's chance to win a duel it starts against t (optimal play, assumed weapons)."""
    return prm[P_DUEL_WIN + best_weapon(st, s) * 3 + assumed_weapon(st, t)] / 1e6


@njit("float64(int32[::1], int64[::1], int64, float64[::1], int64, int64, int64, boolean, boolean)")
def score_dest(st, prm, s, w, goal, v, cave_n, by_ghost, by_pirate):
    """S4: the value of ending the move on space v. ``cave_n`` tiles lie in the large cave; ``by_ghost``: v is next
    to the ghost's space; ``by_pirate``: v is next to another pirate (else no duel can start there)."""
    o = st[S_OPT + v]
    pos_goal = prm[P_DIST + v * MAX_SPACES + goal]
    sc = -w[WG_GOAL] * pos_goal
    if v == goal:
        sc += 5.0
    kv = prm[P_KIND + v]
    g = st[S_GHOST]
    if is_ship(kv):
        dg = prm[P_DIST + g * MAX_SPACES + v]
        if dg < 8:
            sc -= w[WG_GHOST] * (8 - dg) / 8.0
    if by_ghost and not is_room(kv) and kv != K_HIDEOUT and not is_room(prm[P_KIND + g]):
        sc -= 100.0
    m = duel_targets(st, prm, s, v) if by_pirate else 0
    best = -1.0
    for t in range(st[S_N]):
        if (m >> t) & 1:
            sc -= w[WG_RIVAL]
            if count_at(st, t) > 0:
                p = win_chance(st, prm, s, t)
                if p >= w[WG_DUEL]:
                    val = p * (1.0 + w[WG_RAID] * st[S_OPENED_BY + t])
                    if val > best:
                        best = val
    if best > 0:
        sc += (0.5 + 2.0 * w[WG_RAID]) * best
    elif (o & OPT_SHORT) != 0:
        sc -= 10.0
    if (o & OPT_CAVE) != 0 and cave_n > 0:
        sc += w[WG_CAVE]
    return sc


@njit("UniTuple(int64, 2)(int32[::1], int64[::1], int64)")
def near_mask(st, prm, s):
    """128-bit set (lo, hi) of the spaces next to the ghost (s = -1) or next to any pirate but seat s's (a superset
    of where seat s could challenge; s = MAX_PLAYERS: every pirate): the union of each piece's P_NEXT set (edges
    and stairs)."""
    lo = np.int64(0)
    hi = np.int64(0)
    for t in range(-1, st[S_N]):
        if (s < 0 and t >= 0) or (s >= 0 and (t < 0 or t == s)):
            continue
        u = st[S_GHOST] if t < 0 else st[S_POS + t]
        if u < 0:
            continue
        lo |= prm[P_NEXT + 2 * u]
        hi |= prm[P_NEXT + 2 * u + 1]
    return lo, hi


@njit("boolean(int64, int64, int64)")
def bit(lo, hi, v):
    if v < 64:
        return (lo >> v) & 1 == 1
    return (hi >> (v - 64)) & 1 == 1


@njit("float64(int32[::1], int64[::1], int64, int64, boolean)")
def score_ghost(st, prm, s, v, near):
    """S5: the value for seat s of moving the ghost to v (rivals frightened or knocked down, never itself).
    ``near``: v is next to a pirate (else only a pirate in the room v can be frightened)."""
    sc = 0.0
    rv = is_room(prm[P_KIND + v])
    for t in range(st[S_N] if near or st[S_OCC + v] >= 0 else 0):
        u = st[S_POS + t]
        if u < 0:
            continue
        ku = prm[P_KIND + u]
        hit = u == v
        if not hit and not rv and not is_room(ku) and (prm[P_TERROR] == 0 or is_ship(ku)):
            hit = next_to(prm, v, u) or next_to(prm, u, v)
        if hit:
            if t == s:
                sc -= 100.0
            else:
                sc += 1.0 + 0.3 * count_at(st, t) + st[S_OPENED_BY + t]
    c = prm[P_CANNON_AT + v]
    if c >= 0 and c != st[S_LASTCANNON] and not (prm[P_CANNON] == 1 and (st[S_FIRED] >> c) & 1):
        q = prm[P_CANNON_Q + c]
        for t in range(st[S_N]):
            u = st[S_POS + t]
            if u < 0:
                continue
            ku = prm[P_KIND + u]
            if (ku == K_LAND or ku == K_LAND_ARROW) and prm[P_QUARTER + u] == q and st[S_STATUS + t] == ST_OK:
                sc += -3.0 if t == s else 0.5
    me = st[S_POS + s]
    if me >= 0 and is_ship(prm[P_KIND + me]):
        d = prm[P_DIST + v * MAX_SPACES + me]
        sc += 0.02 * (d if d < 20 else 20)
    return sc


@njit
def decide(sid, w, st, prm, mask, n_legal, rng, row):
    """The action of seat st[S_ACTOR] with strategy ``sid`` and weight row ``w`` (float64[N_SPARAMS]) at the pending
    decision; ``mask`` holds the ``n_legal`` legal actions; rng row ``row`` is the seat's strategy stream."""
    if sid == S_RANDOM:
        return pick_legal(rng, row, mask, n_legal)
    s = st[S_ACTOR]
    ph = st[S_PHASE]
    n = prm[P_NSPACES]
    if ph == PH_MOVE:
        goal = goal_of(st, prm, s, w[WG_RAID])
        cave_n = count_at(st, LOC_CAVE)
        g_lo, g_hi = near_mask(st, prm, -1)
        p_lo, p_hi = near_mask(st, prm, s)
        best = -1
        bs = -1e300
        for v in range(n):
            if mask[A_MOVE + v]:
                x = score_dest(st, prm, s, w, goal, v, cave_n, bit(g_lo, g_hi, v), bit(p_lo, p_hi, v))
                if x > bs:
                    bs = x
                    best = A_MOVE + v
        return best
    if ph == PH_GHOST:
        best = -1
        bs = -1e300
        a_lo, a_hi = near_mask(st, prm, MAX_PLAYERS)
        for v in range(n):
            if mask[A_GHOST + v]:
                x = score_ghost(st, prm, s, v, bit(a_lo, a_hi, v))
                if x > bs:
                    bs = x
                    best = A_GHOST + v
        return best
    if ph == PH_WHIRL:
        for a in range(A_WHIRL, A_WHIRL + 4):
            if mask[a]:
                return a
    if ph == PH_DUEL_Q:
        best = -1
        bs = -1.0
        for t in range(st[S_N]):
            if mask[A_DUEL + t]:
                p = win_chance(st, prm, s, t)
                x = p * (1.0 + w[WG_RAID] * st[S_OPENED_BY + t]) if count_at(st, t) > 0 else 0.0
                if p >= w[WG_DUEL] and count_at(st, t) > 0:
                    x += 10.0
                if x > bs:
                    bs = x
                    best = t
        if st[S_MUST_DUEL] != 0:
            return A_DUEL + best
        if bs >= 10.0:
            return A_DUEL + best
        return A_PASS
    if ph == PH_WEAPON:
        return A_WEAPON + best_weapon(st, s)
    if ph == PH_ROLLQ:
        wa = st[S_WA]
        wd = st[S_WD]
        r = st[S_ROLLS_LEFT]
        v = st[S_DIE]
        if st[S_ROLLER] == 0:
            stop = prm[P_ATT_STOP + ((wa * 3 + wd) * 3 + r) * 7 + v]
        else:
            stop = prm[P_DEF_STOP + (((wa * 3 + wd) * 7 + st[S_ATT_RES]) * 3 + r) * 7 + v]
        return A_STOP if stop != 0 else A_ROLL
    if ph == PH_SWAP:
        goal = goal_of(st, prm, s, w[WG_RAID])
        win = st[S_DUEL_WINNER]
        los = st[S_DUEL_DEF] if win == st[S_DUEL_ATT] else st[S_DUEL_ATT]
        a = st[S_POS + s]
        b = st[S_POS + los]
        if prm[P_DIST + b * MAX_SPACES + goal] < prm[P_DIST + a * MAX_SPACES + goal]:
            return A_SWAP
        return A_NOSWAP
    if ph == PH_PARROT:
        best = -1
        bv = -1
        for t in range(st[S_N]):
            if mask[A_PSTEAL + t]:
                val = st[S_OPENED_BY + t] * 100 + count_at(st, t)
                if val > bv:
                    bv = val
                    best = t
        if w[WG_RAID] > 0.5 and best >= 0:
            return A_PSTEAL + best
        need = False
        for c in range(N_CABINS):
            k = known_sticker(st, s, c)
            if not (st[S_EMPTY] >> c) & 1 and k > 0 and not holds_key(st, prm, s, k):
                need = True
        if mask[A_PTOP] and (need or gold_of(st, s) == 0):
            return A_PTOP
        for c in range(N_CABINS):
            if not (st[S_EMPTY] >> c) & 1 and known_sticker(st, s, c) < 0:
                return A_PPEEK + c
        if best >= 0:
            return A_PSTEAL + best
        if mask[A_PTOP]:
            return A_PTOP
        return A_PPEEK
    return pick_legal(rng, row, mask, n_legal)
