"""Ghostly Galleon: a search player's re-deal of what its seat cannot see (RULES.md H1, H2), `step.sample_hidden`'s work.

A seat sees its own tiles, the parrot (its holder is public), every place's tile count, the stickers it peeked at,
the tiles it lost and where each went (`S_KNOWN`), the tiles it ever held (`S_HELD`) and the public record (H1):
tiles each seat lost (`S_LOST`), weapons shown in duels (`S_SHOWN_W`, `S_LOST_AT_SHOW`), keys shown opening chests
(`S_KEYS_SHOWN`), chests opened and by whom, whether the parrot was ever drawn (`S_PARROT_SEEN`), whether a tile
ever went into the large cave (`S_CAVE_IN`), and each seat's draws from the cave while it held only set-up sabres
(`S_CAVE_SABRES`) and from the stack that were not the parrot (`S_STACK_DRAWS`), both since the seat last lost a
tile. `redeal` puts the tiles it cannot see back into the same places (each keeps its count) as a world that agrees
with all of that, placing in this order:

1. a tile the seat lost stays where it went (the large cave, the seat that took it) until its holder next loses a
   tile face down (`S_KNOWN`: then it may be that one);
2. a rival that lost no tile still holds its dealt sabre (tile id = its seat, R1);
3. a rival holds one set-up sabre (tile id >= the number of players) for each sabre it drew from the cave while no
   tile had gone into it, and lost no tile since;
4. while no tile ever went into the large cave, the cave holds set-up sabres only (R1: nothing else is ever there);
5. a rival still holds the weapon it last showed when it lost no tile since (a sabre, a pistol); one that lost no
   tile holds the keys it showed and one chest tile (gold or the bottle) for each chest it opened;
6. a rival holds a pistol or a key for each draw from the stack that was not the parrot since it last lost a tile
   (the stack holds nothing else), the keys and pistols of step 5 counting among them;
7. a key type any seat showed is not on the stack (keys never go back);
8. a closed chest holds a chest tile (gold or the bottle: nothing else ever goes into a chest), the stack only its
   own kinds (pistols, keys: nothing but the parrot ever goes back onto it); neither holds a tile the seat ever held;
9. the stack's order is drawn afresh; the parrot keeps its place only once it was drawn (it flew back: the top),
   else its place is drawn too;
10. the rest are shuffled into the places' free slots; the stickers of the closed chests the seat never peeked at
   are shuffled among those chests;
11. a defender choosing its weapon has not seen the attacker's (C12: chosen at once): the attacker's choice is
   redone as the best weapon it holds in the re-dealt world (what every scripted player chooses, RULES.md S2);
12. the rivals' private records follow the new world: their `S_KNOWN` bits are cleared and `S_HELD` is what they
   hold in it (the seat cannot know what a rival lost or held before).

Each step draws uniformly among the unplaced tiles that fit and the rest are shuffled uniformly: every world is
consistent, but they are not drawn exactly uniformly (a rival pinned to hold a pistol can get the other one from the
shuffle, so that world is reached two ways). Canonical: every draw is made from lists in tile-id or place
order built from what the seat sees, never from the true arrangement of what it does not, so two states the seat
cannot tell apart give the same world on the same stream. Not used (no state records it): what a rival's tiles are
once it lost one (beyond step 5's weapon), what a rival drew from another rival, what the large cave holds once a
rival lost a tile into it, and what a rival's entering a cabin without opening its chest says about the sticker.
"""

from __future__ import annotations

import numpy as np

from kernels._jit import njit
from kernels.galleon.rules import (
    LOC_CAVE,
    LOC_CHEST,
    LOC_STACK,
    MAX_PLAYERS,
    N_CABINS,
    N_TILES,
    P_KEY_TILES,
    PH_WEAPON,
    S_ACTOR,
    S_CAVE_IN,
    S_CAVE_SABRES,
    S_DUEL_ATT,
    S_DUEL_DEF,
    S_DUELS_ATT,
    S_EMPTY,
    S_HELD,
    S_KEYS_SHOWN,
    S_KNOWN,
    S_LOC,
    S_LOST,
    S_LOST_AT_SHOW,
    S_N,
    S_NSTACK,
    S_OPENED_BY,
    S_PARROT_SEEN,
    S_PEEKED,
    S_PHASE,
    S_SHOWN_W,
    S_STACK,
    S_STACK_DRAWS,
    S_STICKER,
    S_WA,
    T_GOLD,
    T_KEY,
    T_PARROT,
    T_PISTOL,
    W_NONE,
    W_SABRE,
    best_weapon,
)
from kernels.rng import bounded, shuffle_range

# kinds of tile a place may take (`_fits`)
F_ANY = 0
F_SABRE = 1
F_PISTOL = 2
F_CHEST = 3  # gold 1..5, the bottle
F_STACK = 4  # pistols, key tiles (the parrot is placed apart)
F_KEY = 5  # a key tile of one type
F_CAVE_SABRE = 6  # a sabre the large cave held at set-up (tile id >= the number of players: R1)
UNSET = -1  # a hidden tile not placed yet
KEPT = -2  # a key tile kept off the stack, placed with the rest
N_PLACES = LOC_CAVE + 1  # place codes: seats 0..3, chests LOC_CHEST + c, LOC_STACK, LOC_CAVE
MAX_KEY_TYPE = 16  # key types are the stickers' numbers (`chest_keys`, `key_tiles`: small)
REST = 18  # offset in ``order`` of the tiles left for the free places (the stack's order is at 0)


@njit
def _fits(t, kind, key, prm, never):
    """Tile ``t`` may be of ``kind`` here (``key``: the key type of F_KEY, the number of players of F_CAVE_SABRE;
    ``never``: a bit set of tiles that cannot be here)."""
    if (never >> t) & 1:
        return False
    if kind == F_ANY:
        return True
    if kind == F_SABRE:
        return t < T_PISTOL
    if kind == F_CAVE_SABRE:
        return t >= key and t < T_PISTOL
    if kind == F_PISTOL:
        return t >= T_PISTOL and t < T_GOLD
    if kind == F_CHEST:
        return t >= T_GOLD and t < T_PARROT
    if kind == F_STACK:
        return (t >= T_PISTOL and t < T_GOLD) or t >= T_KEY
    return t >= T_KEY and prm[P_KEY_TILES + t - T_KEY] == key


@njit
def _take(pool, m, newloc, free, kind, key, prm, never, rng, row, to):
    """A random unplaced tile of ``pool[0:m]`` of ``kind`` (`_fits`) placed at ``to`` (a place code using one of its
    ``free`` slots, or KEPT); returns it, or -1 when no tile fits or ``to`` is full."""
    if to >= 0 and free[to] <= 0:
        return -1
    c = 0
    for i in range(m):
        if newloc[pool[i]] == UNSET and _fits(pool[i], kind, key, prm, never):
            c += 1
    if c == 0:
        return -1
    j = bounded(rng, row, c)
    for i in range(m):
        t = pool[i]
        if newloc[t] == UNSET and _fits(t, kind, key, prm, never):
            if j == 0:
                newloc[t] = to
                if to >= 0:
                    free[to] -= 1
                return t
            j -= 1
    return -1


@njit
def _take_or_any(pool, m, newloc, free, kind, key, prm, never, rng, row, to):
    t = _take(pool, m, newloc, free, kind, key, prm, never, rng, row, to)
    if t < 0:  # a state no game reaches (a test's hand-made one): any tile keeps the counts
        t = _take(pool, m, newloc, free, F_ANY, 0, prm, np.int64(0), rng, row, to)
    return t


@njit
def _placed(pool, m, newloc, r, kind, key, prm):
    """How many tiles of ``kind`` are placed at ``r`` so far."""
    c = 0
    for i in range(m):
        if newloc[pool[i]] == r and _fits(pool[i], kind, key, prm, np.int64(0)):
            c += 1
    return c


@njit
def redeal(st, seat, prm, rng, row, pool, newloc, free, order):
    """Re-deal in ``st`` what ``seat`` cannot see (module docstring) on stream ``row`` of ``rng`` only; returns the
    number of tiles re-dealt. Scratch (int32, overwritten): ``pool`` >= N_TILES, ``newloc`` >= N_TILES,
    ``free`` >= N_PLACES, ``order`` >= 2 * N_TILES."""
    n = np.int64(st[S_N])  # (int64: the seat loops below then pass _take one argument type, one compiled copy)
    held = np.int64(st[S_HELD + seat])  # tiles it held: never in a chest or on the stack (nothing goes back)
    none = np.int64(0)
    for p in range(N_PLACES):
        free[p] = 0
    m = 0
    for t in range(N_TILES):
        newloc[t] = UNSET
        if t != T_PARROT and st[S_LOC + t] != seat:
            pool[m] = t  # in tile order: the set is what the seat sees (all but its own and the parrot)
            m += 1
            free[st[S_LOC + t]] += 1  # the places' counts are public
    for i in range(m):  # H1: a tile it lost lies where it went until its holder loses a tile face down
        t = pool[i]
        if (st[S_KNOWN + t] >> seat) & 1:
            newloc[t] = st[S_LOC + t]
            free[st[S_LOC + t]] -= 1
    att = -1  # C12: a defender choosing its weapon has not seen the attacker's
    if st[S_PHASE] == PH_WEAPON and st[S_ACTOR] == seat and st[S_DUEL_DEF] == seat:
        att = st[S_DUEL_ATT]
    for r in range(n):  # R1: a rival that lost nothing still holds its dealt sabre, tile r
        if r != seat and st[S_LOST + r] == 0 and st[S_LOC + r] != seat and newloc[r] == UNSET and free[r] > 0:
            newloc[r] = r
            free[r] -= 1
    for r in range(n):  # R7: the sabres it drew from a cave that held only set-up sabres (none lost since)
        if r != seat:
            for _ in range(st[S_CAVE_SABRES + r]):
                _take(pool, m, newloc, free, F_CAVE_SABRE, n, prm, held, rng, row, r)
    if st[S_CAVE_IN] == 0:  # R1, R7: no tile ever went into the large cave: it holds set-up sabres only
        while free[LOC_CAVE] > 0:
            if _take(pool, m, newloc, free, F_CAVE_SABRE, n, prm, held, rng, row, LOC_CAVE) < 0:
                break
    for r in range(n):
        if r == seat:
            continue
        w = st[S_SHOWN_W + r]
        if r != att and w > W_NONE and st[S_LOST_AT_SHOW + r] == st[S_LOST + r]:
            kind = F_SABRE if w == W_SABRE else F_PISTOL  # it still holds one (a dealt sabre, a tile it lost...)
            if _placed(pool, m, newloc, r, kind, 0, prm) == 0:
                _take(pool, m, newloc, free, kind, 0, prm, none, rng, row, r)
        if st[S_LOST + r] == 0:
            for k in range(1, MAX_KEY_TYPE):
                if (st[S_KEYS_SHOWN + r] >> k) & 1 and _placed(pool, m, newloc, r, F_KEY, k, prm) == 0:
                    _take(pool, m, newloc, free, F_KEY, k, prm, none, rng, row, r)
            for _ in range(st[S_OPENED_BY + r]):  # (never one it took from the seat: it lost nothing)
                _take(pool, m, newloc, free, F_CHEST, 0, prm, held, rng, row, r)
    for r in range(n):  # R15: a pistol or a key for each draw from the stack that was not the parrot
        if r == seat:
            continue
        c = 0
        for i in range(m):
            t = pool[i]
            if newloc[t] == r and not (st[S_KNOWN + t] >> seat) & 1 and _fits(t, F_STACK, 0, prm, none):
                c += 1  # a key or pistol pinned above may be one it drew (a tile the seat lost to it is not)
        for _ in range(st[S_STACK_DRAWS + r] - c):
            _take(pool, m, newloc, free, F_STACK, 0, prm, held, rng, row, r)
    for k in range(1, MAX_KEY_TYPE):  # a key type shown is off the stack for good
        shown = False
        for s in range(n):
            shown = shown or ((st[S_KEYS_SHOWN + s] >> k) & 1) != 0
        if not shown:
            continue
        off = False
        for i in range(5):
            t = T_KEY + i
            if prm[P_KEY_TILES + i] == k and (
                st[S_LOC + t] == seat or (held >> t) & 1 or (newloc[t] >= 0 and newloc[t] < MAX_PLAYERS)
            ):
                off = True
        if not off:
            _take(pool, m, newloc, free, F_KEY, k, prm, held, rng, row, KEPT)
    for c in range(N_CABINS):  # a closed chest holds gold or the bottle
        if not (st[S_EMPTY] >> c) & 1 and free[LOC_CHEST + c] > 0:
            _take_or_any(pool, m, newloc, free, F_CHEST, 0, prm, held, rng, row, LOC_CHEST + c)
    ns = st[S_NSTACK]
    parrot_in = st[S_LOC + T_PARROT] == LOC_STACK
    j = 0
    while free[LOC_STACK] > 0:  # the stack's tiles in a fresh order, bottom to top
        t = _take_or_any(pool, m, newloc, free, F_STACK, 0, prm, held, rng, row, LOC_STACK)
        if t < 0:
            break
        order[j] = t
        j += 1
    if parrot_in:  # its place is known once it was drawn (the top), else drawn too
        p = ns - 1 if st[S_PARROT_SEEN] != 0 else bounded(rng, row, ns)
        for i in range(j, p, -1):
            order[i] = order[i - 1]
        order[p] = T_PARROT
        j += 1
    for i in range(j):
        st[S_STACK + i] = order[i]
    k = 0
    for i in range(m):  # the rest into the free places of the rivals and the large cave
        t = pool[i]
        if newloc[t] == KEPT:
            newloc[t] = UNSET
        if newloc[t] == UNSET:
            order[REST + k] = t
            k += 1
    shuffle_range(rng, row, order, REST, k)
    i = 0
    for p in range(N_PLACES):
        for _ in range(free[p]):
            if i < k:
                newloc[order[REST + i]] = p
                i += 1
    for i in range(m):
        st[S_LOC + pool[i]] = newloc[pool[i]]
    _redeal_stickers(st, seat, rng, row, pool)
    for t in range(N_TILES):  # the rivals' private records follow the new deal (H2): what they know of
        st[S_KNOWN + t] &= 1 << seat  # tiles they lost is not known to the seat, nor which tiles they held
    for r in range(n):
        if r != seat:
            h = 0
            for t in range(N_TILES):
                if st[S_LOC + t] == r:
                    h |= 1 << t
            st[S_HELD + r] = h
    if att >= 0:
        w = best_weapon(st, att)
        st[S_DUELS_ATT + st[S_WA]] -= 1
        st[S_DUELS_ATT + w] += 1
        st[S_WA] = w
        st[S_SHOWN_W + att] = w
        st[S_LOST_AT_SHOW + att] = st[S_LOST + att]
    return m


@njit
def _redeal_stickers(st, seat, rng, row, vals):
    """The stickers of the closed chests ``seat`` never peeked at, sorted (their multiset is what it can know) and
    shuffled among those chests. ``vals`` int32 scratch of >= N_CABINS."""
    c_n = 0
    for c in range(N_CABINS):
        if not (st[S_PEEKED + seat] >> c) & 1 and not (st[S_EMPTY] >> c) & 1:
            v = st[S_STICKER + c]
            i = c_n
            while i > 0 and vals[i - 1] > v:  # insertion sort: the true order must not show through
                vals[i] = vals[i - 1]
                i -= 1
            vals[i] = v
            c_n += 1
    shuffle_range(rng, row, vals, 0, c_n)
    i = 0
    for c in range(N_CABINS):
        if not (st[S_PEEKED + seat] >> c) & 1 and not (st[S_EMPTY] >> c) & 1:
            st[S_STICKER + c] = vals[i]
            i += 1
