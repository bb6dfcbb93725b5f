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
    LOC_STACK,
    MAX_PLAYERS,
    MAX_SPACES,
    N_CABINS,
    N_TILES,
    N_WHIRL,
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
    P_SHORE,
    P_WHIRL,
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
    S_HELD,
    S_KEYS_SHOWN,
    S_LASTCANNON,
    S_LOC,
    S_LOST,
    S_LOST_AT_SHOW,
    S_MUST_DUEL,
    S_N,
    S_NSTACK,
    S_OPENED_BY,
    S_OPT,
    S_PARROT_SEEN,
    S_PEEKED,
    S_PEND,
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
    T_BOTTLE,
    T_GOLD,
    T_KEY,
    T_PARROT,
    T_PISTOL,
    best_weapon,
    count_at,
    duel_targets,
    frightened,
    gold_of,
    is_room,
    is_ship,
    weapon_of,
)
from kernels.galleon.rules import (
    S_EMPTY as _EMPTY,
)
from kernels.rng import bounded, pick_legal

S_RANDOM = 0
S_TREASURE = 1
S_RAIDER = 2
S_CAUTIOUS = 3
S_WEIGHTED = 4
S_LEARNED = 5  # played by step.decide through kernels.galleon.features (which builds on this module's functions)

# name, id, one-line description
STRATEGIES = (
    ("random", S_RANDOM, "uniform over the legal actions of every decision"),
    ("treasure", S_TREASURE, "treasure hunter: keys from the captain's cabin, chests, home; duels only when favoured"),
    ("raider", S_RAIDER, "hunts rivals who opened chests: duels them, steals from them with the parrot"),
    ("cautious", S_CAUTIOUS, "treasure hunter that keeps away from the ghost and from rivals, rarely duels"),
    ("weighted", S_WEIGHTED, "scores destinations with per-seat weights (sweepable)"),
    (
        "learned",
        S_LEARNED,
        "learned policy: moves and ghost moves by a linear score of action features, each feature's worth fitted to "
        "the rollouts of search decisions (`sim train galleon`), duels and the parrot as treasure plays them; weights "
        "are per-seat parameters",
    ),
)
# (name, default, help): the weighted strategy's row (defaults = the treasure hunter's)
WEIGHT_SPECS = (
    ("w_goal", 1.0, "value per pip closer to the current goal (chest, captain's cabin, cave, home)"),
    ("w_raid", 0.0, "0..1: hunt rivals who opened chests (goal, duels, parrot steals)"),
    ("w_ghost", 1.0, "cost of ending within the ghost's reach on the ship"),
    ("w_rival", 0.0, "cost per rival next to the destination"),
    ("w_duel", 0.4, "smallest chance of winning for which it challenges a duel (worth it: S2b)"),
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
        [1.0, 0.0, 1.0, 0.0, 0.4, 0.5, 0.0, 0.0],  # treasure
        [1.0, 1.0, 0.5, 0.0, 0.3, 0.5, 0.0, 0.0],  # raider
        [1.0, 0.0, 3.0, 1.0, 0.55, 0.5, 0.0, 0.0],
    ]
)  # cautious


@njit
def effective_rows(sids, sparams, out):
    """The weight row each seat plays with: the fixed rows of treasure/raider/cautious, the seat's own for weighted,
    the treasure row for learned (its duel and parrot decisions)."""
    for s in range(sids.shape[0]):
        for j in range(N_SPARAMS):
            if sids[s] == S_WEIGHTED:
                out[s, j] = sparams[s, j]
            elif sids[s] >= S_TREASURE and sids[s] <= S_CAUTIOUS:
                out[s, j] = ROWS[sids[s] - 1, j]
            elif sids[s] == S_LEARNED:  # its duels and parrot: as treasure plays them
                out[s, j] = ROWS[S_TREASURE - 1, j]
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


@njit("int64(int32[::1])")
def stack_unknown(st):
    """S3/H1: tiles on the captain's-cabin stack the table does not know: its size, less the parrot when it flew back
    onto it (it is then the top: nothing else is ever put back). A trip there for a key is worth it only when this
    is not 0 (drawing the known parrot gives its action, which may take the tile under it: still counted here)."""
    n = st[S_NSTACK]
    if st[S_PARROT_SEEN] != 0 and st[S_LOC + T_PARROT] == LOC_STACK:
        n -= 1
    return n


@njit("boolean(int32[::1], int64[::1], int64, int64)")
def key_may_be_on_stack(st, prm, s, k):
    """H1: a key tile of type k may still lie on the stack as seat s can know it: the key tiles of that type
    (`key_tiles`, public) less those known to be off it, for keys never go back onto the stack: every one s has
    held (`S_HELD`: it holds it, or drew it and lost it since), and at least one more than s holds now when another
    seat showed such a key opening a chest (that key may be one s lost)."""
    m = 0
    ever = 0
    now = 0
    for i in range(5):
        if prm[P_KEY_TILES + i] == k:
            m += 1
            if (st[S_HELD + s] >> (T_KEY + i)) & 1:
                ever += 1
            if st[S_LOC + T_KEY + i] == s:
                now += 1
    for t in range(st[S_N]):
        if t != s and (st[S_KEYS_SHOWN + t] >> k) & 1:
            now += 1
            break
    return m - max(ever, now) > 0


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
        elif key_may_be_on_stack(st, prm, s, k):
            need_key = True
    worth = stack_unknown(st) > 0
    if open_c >= 0:
        return open_c
    if need_key and worth:
        return prm[P_CAPTAIN]
    if unk_c >= 0:
        return unk_c
    if worth:
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


@njit("float64(int64, int64, int64)")
def none_among(pool, bad, k):
    """Chance that k tiles drawn without replacement from ``pool`` tiles hold none of the ``bad`` ones."""
    if k <= 0:
        return 1.0
    if pool <= 0 or k > pool:
        return 0.0 if bad > 0 else 1.0
    q = 1.0
    for i in range(k):
        good = pool - bad - i
        if good <= 0:
            return 0.0
        q *= good / (pool - i)
    return q


@njit("float64(int32[::1], int64[::1], int64, int64)")
def tile_worth(st, prm, s, t):
    """What tile t is worth to seat s (S2b): gold its value, a pistol 1, a sabre 0.5, a key 1 when s knows a closed
    chest it opens (else 0.3), the parrot 0.5, the bottle 0."""
    if t >= T_GOLD and t < T_BOTTLE:
        return float(t - T_GOLD + 1)
    if t < T_GOLD:
        return 1.0 if weapon_of(t) == 2 else 0.5
    if t == T_PARROT:
        return 0.5
    if t >= T_KEY:
        k = prm[P_KEY_TILES + t - T_KEY]
        for c in range(N_CABINS):
            if not (st[_EMPTY] >> c) & 1 and k > 0 and known_sticker(st, s, c) == k:
                return 1.0
        return 0.3
    return 0.0


@njit("UniTuple(float64, 2)(int32[::1], int64[::1], int64, int64)")
def duel_worth(st, prm, s, t):
    """S2b: (chance that seat s wins a duel it starts against t, expected gain of that duel in tile worth) from what
    s can know (H1): its own tiles; that each seat was dealt a sabre and still holds it while it has lost no tile;
    the weapon t showed in its last duel, still held while t has lost no tile since; the chests t opened (a gold
    tile or the bottle each, held while t has lost no tile); how many tiles t holds and where the rest may lie
    (the stack, the large cave, other hands: drawn without replacement from the tiles s cannot place). The gain:
    the chance times the expected worth of a random tile of t, less the chance of losing times the mean worth of
    s's own tiles (the loser gives one at random)."""
    n_own = 0
    own_w = 0.0
    own_p = 0
    own_s = 0
    own_g = 0
    own_k = 0
    for x in range(N_TILES):
        if st[S_LOC + x] == s:
            n_own += 1
            own_w += tile_worth(st, prm, s, x)
            if x >= T_PISTOL and x < T_GOLD:
                own_p += 1
            elif x < T_PISTOL:
                own_s += 1
            elif x >= T_GOLD and x < T_BOTTLE:
                own_g += x - T_GOLD + 1
            elif x >= T_KEY:
                own_k += 1
    closed = 0
    for c in range(N_CABINS):
        if not (st[_EMPTY] >> c) & 1:
            closed += 1
    # the tiles s cannot place: all but its own, the closed chests' (one each), the parrot (its holder is public)
    # and, for each other seat that lost nothing, its dealt sabre and the tiles of the chests it opened
    pool = N_TILES - n_own - closed - (0 if st[S_LOC + T_PARROT] == s else 1)
    sab = 4 - own_s
    gold = 15.0 - own_g - 2.5 * closed
    for r in range(st[S_N]):
        if r != s and st[S_LOST + r] == 0:
            pool -= 1 + st[S_OPENED_BY + r]
            sab -= 1
            gold -= 2.5 * st[S_OPENED_BY + r]
    if sab < 0:
        sab = 0
    pis = 2 - own_p
    if gold < 0.0:
        gold = 0.0
    keys = 5 - own_k
    avg = 0.0
    if pool > 0:
        avg = (pis * 1.0 + sab * 0.5 + gold + 0.3 * keys) / pool
        if avg > 5.0:
            avg = 5.0
    k = count_at(st, t) - (1 if st[S_LOC + T_PARROT] == t else 0)
    kn = 0  # tiles of t whose kind s knows
    kw = 0.0  # their expected worth
    sure = 0  # the weapon t surely holds
    if st[S_LOST + t] == 0:
        kn = 1 + st[S_OPENED_BY + t]
        kw = 0.5 + 2.5 * st[S_OPENED_BY + t]
        sure = 1
    if st[S_SHOWN_W + t] > sure and st[S_LOST_AT_SHOW + t] == st[S_LOST + t]:
        sure = st[S_SHOWN_W + t]
    ku = k - kn
    if ku < 0:
        ku = 0
    p_nopis = 0.0 if sure == 2 else none_among(pool, pis, ku)
    p_none = 0.0 if sure >= 1 else none_among(pool, pis + sab, ku)
    wa = best_weapon(st, s)
    win = (
        prm[P_DUEL_WIN + wa * 3 + 2] * (1.0 - p_nopis)
        + prm[P_DUEL_WIN + wa * 3 + 1] * (p_nopis - p_none)
        + prm[P_DUEL_WIN + wa * 3] * p_none
    ) / 1e6
    if k <= 0:
        return win, 0.0
    gain = (kw + ku * avg) / (kn + ku) if kn + ku > 0 else avg
    if st[S_LOC + T_PARROT] == t:
        gain = (gain * (k) + 0.5) / (k + 1)
    loss = own_w / n_own if n_own > 0 else 0.0
    return win, win * gain - (1.0 - win) * loss


@njit("UniTuple(float64, 8)(int32[::1], int64[::1], int64)")
def duel_row(st, prm, s):
    """`duel_worth` of seat s against each seat t (chance, worth at 2t, 2t + 1; 0, 0 for s itself and for seats
    holding no tile): computed once a move decision, not once a destination."""
    r0 = (0.0, 0.0)
    r1 = (0.0, 0.0)
    r2 = (0.0, 0.0)
    r3 = (0.0, 0.0)
    for t in range(st[S_N]):
        if t == s or count_at(st, t) == 0:
            continue
        r = duel_worth(st, prm, s, t)
        if t == 0:
            r0 = r
        elif t == 1:
            r1 = r
        elif t == 2:
            r2 = r
        else:
            r3 = r
    return r0[0], r0[1], r1[0], r1[1], r2[0], r2[1], r3[0], r3[1]


@njit(
    "float64(int32[::1], int64[::1], int64, float64[::1], int64, int64, int64, boolean, boolean, UniTuple(float64, 8))"
)
def score_dest(st, prm, s, w, goal, v, cave_n, by_ghost, by_pirate, dw):
    """S4: the value of ending the move on space v. ``cave_n`` tiles lie in the large cave; ``by_ghost``: v is next
    to the ghost's space; ``by_pirate``: v is next to another pirate (else no duel can start there); ``dw`` the
    `duel_row` of seat s."""
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
                p = dw[2 * t]
                ev = dw[2 * t + 1]
                if p >= w[WG_DUEL] and ev > 0.0:
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
    hits = frightened(st, prm, v, near)
    for t in range(st[S_N]):
        if (hits >> t) & 1:
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


@njit("int64(int32[::1], int64[::1], int64, int64)")
def public_route(st, prm, t, v):
    """S5b: how far seat t's pirate, starting from space v, is from where the table can see it heads: its
    hideout once it opened a chest (it may hold gold), else the nearest closed chest (or the captain's cabin)."""
    if st[S_OPENED_BY + t] > 0:
        return prm[P_DIST + v * MAX_SPACES + prm[P_HIDEOUT + t]]
    best = prm[P_DIST + v * MAX_SPACES + prm[P_CAPTAIN]]
    for c in range(N_CABINS):
        if not (st[_EMPTY] >> c) & 1:
            d = prm[P_DIST + v * MAX_SPACES + prm[P_CABIN + c]]
            if d < best:
                best = d
    return best


@njit("int64(int32[::1], int64[::1], int64, int64, int8[::1], uint64[:, ::1], int64)")
def choose_whirlpool(st, prm, s, goal, mask, rng, row):
    """S5b: where the frightened pirate st[S_PEND] surfaces (R13, C5). Its own pirate: the whirlpool whose shore is
    nearest its goal (S3); a rival's: the one farthest along the rival's route as the table sees it
    (`public_route`); ``goal``: seat s's goal (S3) when the pirate is its own. Ties are broken at random on the seat's stream, the candidates taken in the order of their
    space numbers, not the board file's list order, so reordering [[whirlpools]] changes no game."""
    victim = st[S_PEND]
    own = victim == s
    best = 1 << 30
    ties = 0
    n = prm[P_NSPACES]
    for v in range(n):  # whirlpool spaces in space order
        for w in range(N_WHIRL):
            if prm[P_WHIRL + w] != v or not mask[A_WHIRL + w]:
                continue
            sh = prm[P_SHORE + w]
            x = prm[P_DIST + sh * MAX_SPACES + goal] if own else -public_route(st, prm, victim, sh)
            if x < best:
                best = x
                ties = 1
            elif x == best:
                ties += 1
    k = bounded(rng, row, ties) if ties > 1 else 0
    for v in range(n):
        for w in range(N_WHIRL):
            if prm[P_WHIRL + w] != v or not mask[A_WHIRL + w]:
                continue
            sh = prm[P_SHORE + w]
            x = prm[P_DIST + sh * MAX_SPACES + goal] if own else -public_route(st, prm, victim, sh)
            if x == best:
                if k == 0:
                    return A_WHIRL + w
                k -= 1
    return -1


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
        dw = (0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0)
        have_dw = False
        best = -1
        bs = -1e300
        for v in range(n):
            if mask[A_MOVE + v]:
                near = bit(p_lo, p_hi, v)
                if near and not have_dw:  # only when a destination is next to a rival
                    dw = duel_row(st, prm, s)
                    have_dw = True
                x = score_dest(st, prm, s, w, goal, v, cave_n, bit(g_lo, g_hi, v), near, dw)
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
        goal = goal_of(st, prm, s, w[WG_RAID]) if st[S_PEND] == s else -1
        return choose_whirlpool(st, prm, s, goal, mask, rng, row)
    if ph == PH_DUEL_Q:
        best = -1
        bs = -1.0
        for t in range(st[S_N]):
            if mask[A_DUEL + t]:
                p, ev = duel_worth(st, prm, s, t)
                x = p * (1.0 + w[WG_RAID] * st[S_OPENED_BY + t]) if count_at(st, t) > 0 else 0.0
                if p >= w[WG_DUEL] and count_at(st, t) > 0 and ev > 0.0:
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
            if (
                not (st[S_EMPTY] >> c) & 1
                and k > 0
                and not holds_key(st, prm, s, k)
                and key_may_be_on_stack(st, prm, s, k)
            ):
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
