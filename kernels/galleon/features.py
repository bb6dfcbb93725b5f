"""Ghostly Galleon: the action features of the pirates' `learned` player (a linear softmax policy over them).

The learned pirate scores its two board decisions with learned weights: where its pirate ends its move
(``A_MOVE + v``) and where it sends the ghost (``A_GHOST + v``). The duel and parrot decisions (whether to
challenge, the weapon, roll again or stop, the swap, the parrot, the whirlpool) it plays as the `treasure` strategy
does (`strategies.decide` with the treasure row): the weapon and the stopping rules are optimal for the duel alone
(kernels/galleon/duel.py), and those decisions are rare.

Every feature reads what the deciding seat sees (strategies.py's module docstring: the board, its own tiles, how many
tiles each seat holds, opened chests, its peeked stickers, keys and weapons shown); they are built from the scripted
strategies' own observation functions (`goal_of`, `duel_row`, `score_ghost`, ...), so the hidden-information
permutation test of tests/kernels/galleon/test_play.py covers them with the other strategies.

The same function serves play (`learned_choice`, in the kernel: score = sum_i w[i] * f_i, float64 in feature order,
each legal action scored once, then `kernels.policy.select`: ties to the lower action index) and training
(`fill_features`, called from Python by `sim.play.learn`). The weights travel in the seat's parameter row (column 0 the temperature, columns 1.. the weights in FEATURE_NAMES order); the
shipped ones are kernels/galleon/policies/pirate.json.
"""

from __future__ import annotations

import numpy as np

from kernels._jit import njit
from kernels.galleon.rules import (
    A_GHOST,
    A_MOVE,
    K_HIDEOUT,
    LOC_CAVE,
    MAX_PLAYERS,
    MAX_SPACES,
    N_ACTIONS,
    N_WHIRL,
    OPT_CAVE,
    OPT_SHORT,
    P_CAPTAIN,
    P_DIST,
    P_HIDEOUT,
    P_KIND,
    P_SHORE,
    P_WHIRL,
    PH_GHOST,
    PH_MOVE,
    S_ACTOR,
    S_GHOST,
    S_N,
    S_OPENED_BY,
    S_OPT,
    S_PHASE,
    S_POS,
    count_at,
    duel_targets,
    frightened,
    gold_of,
    is_room,
    is_ship,
)
from kernels.galleon.strategies import (
    ROWS,
    S_TREASURE,
    bit,
    decide,
    duel_row,
    goal_of,
    near_mask,
    score_dest,
    score_ghost,
)
from kernels.policy import select

FEATURE_SET = "galleon-pirate"
FEATURE_VERSION = 3  # 2: the rivals' next move (2026-12-07), tried and not shipped
FEATURES = (
    ("goal_dist", "move: pips from the destination to the seat's goal (S3: a chest it can open, keys, home), / 10"),
    ("at_goal", "move: 1 when the destination is the goal"),
    ("ghost_near", "move: on the ship, (8 - the ghost's distance) / 8 when the ghost is within 8 pips"),
    ("ghost_next", "move: 1 when the destination is next to the ghost outside the rooms (it can frighten there)"),
    ("rivals_next", "move: rivals the pirate could challenge from the destination"),
    ("duel_chance", "move: the best chance of winning a duel worth starting from the destination"),
    ("duel_gain", "move: the expected gain of that duel, in tile worth"),
    ("raid", "move: that chance times the chests its rival opened"),
    ("short_cut", "move: 1 for a short cut taken with no duel in reach"),
    ("cave", "move: 1 for a move through the caves while tiles lie in the large cave"),
    ("home_dist", "move: pips from the destination to its hideout, / 10, times the gold it holds"),
    ("room", "move: 1 when the destination is a cabin or the captain's cabin"),
    ("captain_dist", "move: pips from the destination to the captain's cabin, / 10"),
    ("hideout", "move: 1 when the destination is a hideout"),
    ("ghost_value", "ghost: the scripted value of sending the ghost there (rivals frightened, cannons, itself)"),
    ("script", "move: the treasure strategy's own value of the destination (S4, its weight row)"),
    ("ghost_own", "ghost: 1 when the ghost there frightens the seat's own pirate (R11, R13)"),
    (
        "ghost_jump",
        "ghost: that times the pips its pirate saves to its goal by surfacing at the whirlpool whose shore is nearest "
        "that goal (R13), / 10",
    ),
    ("ghost_own_tiles", "ghost: that times the tiles its pirate holds (R13: one goes to the large cave)"),
    ("ghost_rivals", "ghost: rivals' pirates frightened there (R11)"),
    ("ghost_rival_tiles", "ghost: the tiles those rivals hold, summed (one each to the large cave)"),
    ("ghost_rival_chests", "ghost: the chests those rivals opened, summed (they may hold gold)"),
)
FEATURE_NAMES = tuple(n for n, _ in FEATURES)
N_FEATURES = len(FEATURES)
N_LEARNED_PARAMS = 1 + N_FEATURES


@njit
def context(st, prm, s):
    """What a decision's features share: (goal space, tiles in the large cave, the spaces next to the ghost and next
    to a rival (128-bit sets lo, hi), every piece's neighbours, `duel_row`)."""
    goal = goal_of(st, prm, s, 0.0)
    cave_n = count_at(st, LOC_CAVE)
    g_lo, g_hi = near_mask(st, prm, -1)
    p_lo, p_hi = near_mask(st, prm, s)
    a_lo, a_hi = near_mask(st, prm, MAX_PLAYERS)
    dw = duel_row(st, prm, s)
    return goal, cave_n, g_lo, g_hi, p_lo, p_hi, a_lo, a_hi, dw


@njit
def action_features(st, prm, s, a, ctx, tw):
    """The features (float64 x N_FEATURES, FEATURES order) of legal action ``a`` of seat ``s`` (``ctx``:
    `context`; ``tw`` the treasure strategy's weight row, float64[N_SPARAMS]); zeros outside the move and ghost
    decisions."""
    goal, cave_n, g_lo, g_hi, p_lo, p_hi, a_lo, a_hi, dw = ctx
    f0 = f1 = f2 = f3 = f4 = f5 = f6 = f7 = f8 = f9 = f10 = f11 = f12 = f13 = f14 = f15 = 0.0
    ph = st[S_PHASE]
    if ph == PH_MOVE:
        v = a - A_MOVE
        o = st[S_OPT + v]
        f0 = prm[P_DIST + v * MAX_SPACES + goal] / 10.0
        if v == goal:
            f1 = 1.0
        kv = prm[P_KIND + v]
        g = st[S_GHOST]
        if is_ship(kv):
            dg = prm[P_DIST + g * MAX_SPACES + v]
            if dg < 8:
                f2 = (8 - dg) / 8.0
        if bit(g_lo, g_hi, v) and not is_room(kv) and kv != K_HIDEOUT and not is_room(prm[P_KIND + g]):
            f3 = 1.0
        m = duel_targets(st, prm, s, v) if bit(p_lo, p_hi, v) else 0
        best = 0.0
        for t in range(st[S_N]):
            if (m >> t) & 1:
                f4 += 1.0
                if count_at(st, t) > 0 and dw[2 * t + 1] > 0.0 and dw[2 * t] > best:
                    best = dw[2 * t]
                    f6 = dw[2 * t + 1]
                    f7 = dw[2 * t] * st[S_OPENED_BY + t]
        f5 = best
        if best == 0.0 and (o & OPT_SHORT) != 0:
            f8 = 1.0
        if (o & OPT_CAVE) != 0 and cave_n > 0:
            f9 = 1.0
        f10 = prm[P_DIST + v * MAX_SPACES + prm[P_HIDEOUT + s]] / 10.0 * gold_of(st, s)
        if is_room(kv):
            f11 = 1.0
        f12 = prm[P_DIST + v * MAX_SPACES + prm[P_CAPTAIN]] / 10.0
        if kv == K_HIDEOUT:
            f13 = 1.0
        f15 = score_dest(st, prm, s, tw, goal, v, cave_n, bit(g_lo, g_hi, v), bit(p_lo, p_hi, v), dw)
        return (f0, f1, f2, f3, f4, f5, f6, f7, f8, f9, f10, f11, f12, f13, f14, f15, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0)
    if ph != PH_GHOST:
        return (f0, f1, f2, f3, f4, f5, f6, f7, f8, f9, f10, f11, f12, f13, f14, f15, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0)
    v = a - A_GHOST
    near = bit(a_lo, a_hi, v)
    f14 = score_ghost(st, prm, s, v, near)
    own, jump, own_tiles, rivals, rival_tiles, rival_chests = ghost_parts(st, prm, s, v, near, goal)
    return (
        f0,
        f1,
        f2,
        f3,
        f4,
        f5,
        f6,
        f7,
        f8,
        f9,
        f10,
        f11,
        f12,
        f13,
        f14,
        f15,
        own,
        jump,
        own_tiles,
        rivals,
        rival_tiles,
        rival_chests,
    )


@njit
def ghost_parts(st, prm, s, v, near, goal):
    """Who the ghost frightens on space ``v`` (`rules.frightened`, the rule's own test), as seat ``s`` sees it: (its own pirate 1/0,
    that times the pips to ``goal`` it saves by surfacing at the whirlpool whose shore is nearest its goal (R13,
    as `choose_whirlpool` picks for its own pirate) / 10, that times the tiles it holds, rivals frightened, their
    tiles, their opened chests); floats. Tile counts and opened chests are public (strategies.py's docstring)."""
    hits = frightened(st, prm, v, near)
    own = jump = own_tiles = rivals = rival_tiles = rival_chests = 0.0
    for t in range(st[S_N]):
        if not (hits >> t) & 1:
            continue
        if t == s:
            own = 1.0
            best = 1 << 30
            for w in range(N_WHIRL):
                if prm[P_WHIRL + w] >= 0 and prm[P_DIST + prm[P_SHORE + w] * MAX_SPACES + goal] < best:
                    best = prm[P_DIST + prm[P_SHORE + w] * MAX_SPACES + goal]
            jump = (prm[P_DIST + st[S_POS + s] * MAX_SPACES + goal] - best) / 10.0
            own_tiles = float(count_at(st, s))
        else:
            rivals += 1.0
            rival_tiles += count_at(st, t)
            rival_chests += st[S_OPENED_BY + t]
    return own, jump, own_tiles, rivals, rival_tiles, rival_chests


@njit
def action_score(sp, st, prm, s, a, ctx, tw):
    """The policy's score of legal action ``a``: sum over i of sp[1 + i] * feature i, in feature order."""
    f = action_features(st, prm, s, a, ctx, tw)
    x = 0.0
    for i in range(N_FEATURES):
        x += sp[1 + i] * f[i]
    return x


@njit
def learned_choice(sp, tw, st, prm, mask, nl, rng, row, marker):
    """The learned pirate's action (``mask`` int8[N_ACTIONS], ``nl`` legal): the move and the ghost by the policy
    ``sp``, each legal action scored once into ``marker`` (`kernels.policy.new_marker`), then
    `kernels.policy.select` (temperature sp[0] <= 0: the highest score, ties to the lower action index; > 0: drawn
    in proportion to exp(score / temperature), one draw on ``rng[row]``); every other decision as `treasure` plays
    it (its weight row ``tw``)."""
    ph = st[S_PHASE]
    if ph != PH_MOVE and ph != PH_GHOST:
        return decide(S_TREASURE, tw, st, prm, mask, nl, rng, row)
    s = st[S_ACTOR]
    ctx = context(st, prm, s)
    scores, acts = marker.scores, marker.acts
    k = 0
    for a in range(N_ACTIONS):
        if mask[a]:
            scores[k] = action_score(sp, st, prm, s, a, ctx, tw)
            acts[k] = a
            k += 1
    return select(scores, acts, k, sp[0], rng, row)


@njit
def play_learned(marker, sp, tw, st, prm, mask, nl, rng, row):
    """`learned_choice` where the batch scratch's learned marker is not None (it is then the policy's scratch,
    `kernels.policy.new_marker`); -1 (refused: ST_BAD_ACTION) where it is. A marker of type None prunes the learned policy
    from the compiled kernel (kernel contract)."""
    if marker is None:
        return -1
    return learned_choice(sp, tw, st, prm, mask, nl, rng, row, marker)


@njit
def _fill(st, prm, mask, out, tw):
    s = st[S_ACTOR]
    ctx = context(st, prm, s)
    c = 0
    for a in range(N_ACTIONS):
        if mask[a]:
            f = action_features(st, prm, s, a, ctx, tw)
            for i in range(N_FEATURES):
                out[a, i] = f[i]
            c += 1
    return c


def fill_features(st, prm, seat, mask, out, ws):
    """Training's view (plain Python): row a of ``out`` (float64[N_ACTIONS, N_FEATURES]) the features of each legal
    action a (``mask``) of the deciding seat (read from the state; ``seat`` and ``ws`` are the contract's); returns
    how many are legal."""
    return _fill(st, prm, mask, out, TREASURE_ROW)


TREASURE_ROW = np.ascontiguousarray(ROWS[S_TREASURE - 1], dtype=np.float64)  # a copy: writable, as the kernel's rows
