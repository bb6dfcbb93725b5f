"""Ghosts of the Moor: state layout and pure rule functions (clauses R1..R17, assumptions A*, choices C* of RULES.md).

State: one flat int32 vector ``st`` (length S_SIZE) with the named offsets below; -1 marks an empty slot.
Parameters: one int64 vector ``prm`` (offsets P_*; built by params.pack).
Chance enters only through `deal` (the shuffled tile order) and `apply_chance` (a die roll), so tests force any
outcome without mocks. Decisions enter through `apply_action` with the action ids A_* below.
Players are indexed by turn position (0 = the start player); the caller maps them to seats.
"""

from __future__ import annotations

import numpy as np

from kernels._jit import njit
from kernels.bits import lowest_bit, nonneg
from kernels.eventlog import LOG_W, log_event  # noqa: F401  (re-exported for tests)

RULES_VERSION = 1

# ---- components (rulebook "Contents & Setup") --------------------------------------------------------------
MAX_PLAYERS = 5
MAX_PAWNS = 5
N_TYPES = 5  # Bone, Axe, Coin, Mask, Urn
TREASURE_NAMES = ("Bone", "Axe", "Coin", "Mask", "Urn")
PER_TYPE = 5  # INFERENCE: 25 treasures / 5 types
N_TREASURES = 25
N_GHOSTS = 7
N_PLANKS = 6
N_TILES = 38  # tile ids: 0..24 treasures (type = id // 5), 25..31 ghosts, 32..37 planks
GHOST0 = 25
PLANK0 = 32
K_GHOST = 5  # tile kinds: 0..4 treasure type, 5 ghost, 6 plank
K_PLANK = 6
N_KINDS = 7
N_GOALS = 5
GREEN_SPACES = 14  # 2 tiles each
BROWN_SPACES = 5  # 1 tile each
DEALT_SPACES = GREEN_SPACES + BROWN_SPACES
N_DEALT = 2 * GREEN_SPACES + BROWN_SPACES  # 33 = 25 treasures + 7 ghosts + 1 plank
MAX_TRACK = 64  # capacity: Start (0), path 1..track_len, End (track_len + 1)
STACK = 2  # a space never holds more than 2 tiles (dealt 2, or a 2-tile discard, or 1 plank)
PAWNS_BY_PLAYERS = np.array([0, 0, 5, 4, 3, 2], dtype=np.int64)

# ---- parameter vector offsets ---------------------------------------------------------------------------------
P_TRACK_LEN = 0
P_DIE_FACES = 1
P_MAX_TURNS = 2
P_DISCARD_FALLBACK = 3  # 0 remove from game, 1 nearest tile-less space even with pawns
P_GHOST_BEFORE_TWO = 4
P_PLANKS_DISCARDABLE = 5
P_VACATED_COUNTS = 6
P_TIEBREAK = 7  # 0 rulebook, 1 shared
P_GHOST_VALUES = 8  # 7 values
P_GOAL_VALUES = P_GHOST_VALUES + N_GHOSTS  # 5 values, top first
P_SET_POINTS = P_GOAL_VALUES + N_GOALS  # 6 values: points for 0..5 matching
P_SYMBOLS = P_SET_POINTS + 6  # MAX_TRACK values: symbol of space s (-1 none)
P_SIZE = P_SYMBOLS + MAX_TRACK

# ---- state vector offsets ---------------------------------------------------------------------------------------
S_NPLAYERS = 0
S_NPAWNS = 1
S_END = 2  # index of the End space (track_len + 1)
S_CUR = 3  # player (turn position) to act
S_PHASE = 4
S_ROLL = 5
S_PAWN = 6  # pawn moved this turn
S_ORIGIN = 7
S_DEST = 8
S_TURNS = 9
S_ROUNDS = 10
S_GOAL_NEXT = 11  # index of the next goal token to take (N_GOALS = none left)
S_DECISIONS = 12  # decisions with more than one legal action
S_DISCARD_EVENTS = 13
S_TILES_DISCARDED = 14
S_TILES_LOST = 15
S_PLANKS_LAID = 16
S_LAST_CUR = 17
S_FIRST = 18  # seat of turn position 0 (g % n; a resumed game reads it)
S_SEALED = 19  # bit s: green space s still holds both its dealt tiles (the bottom one unseen)
S_PAWN_POS = 20  # [MAX_PLAYERS * MAX_PAWNS], -1 unused
S_STACK = S_PAWN_POS + MAX_PLAYERS * MAX_PAWNS  # [MAX_TRACK * STACK] tile ids bottom..top, -1 empty
S_HEIGHT = S_STACK + MAX_TRACK * STACK  # [MAX_TRACK]
S_TILE_LOC = S_HEIGHT + MAX_TRACK  # [N_TILES]: LOC_* or player p (0..4) or LOC_SPACE + s
S_HOLD = S_TILE_LOC + N_TILES  # [MAX_PLAYERS * N_KINDS] tiles held by kind
S_GHOST_SUM = S_HOLD + MAX_PLAYERS * N_KINDS  # [MAX_PLAYERS]
S_GOAL_SUM = S_GHOST_SUM + MAX_PLAYERS  # [MAX_PLAYERS]
S_GOAL_COUNT = S_GOAL_SUM + MAX_PLAYERS  # [MAX_PLAYERS]
S_OCC = S_GOAL_COUNT + MAX_PLAYERS  # [MAX_TRACK] pawns of any colour on each space
S_HOME = S_OCC + MAX_TRACK  # [MAX_PLAYERS] pawns each player has on End (the pawn list is the truth, see tests)
S_SIZE = S_HOME + MAX_PLAYERS

LOC_BOX = -1  # extra planks returned to the box
LOC_LOST = -2  # discarded with nowhere to go (discard_fallback = remove)
LOC_SPACE = 100

PH_ROLL = 0  # chance node: the die
PH_MOVE = 1
PH_PLANK = 2
PH_DISCARD = 3
PH_OVER = 4

# ---- actions -----------------------------------------------------------------------------------------------------
A_MOVE = 0  # + pawn index (0..4)
A_PLANK_YES = 5
A_PLANK_NO = 6
A_DISCARD_MATCH = 7  # one treasure matching the symbol of the space left
A_DISCARD_GHOST = 8  # + ghost index j (tile GHOST0 + j), 8..14
A_DISCARD_PAIR = 15  # + bottom * 6 + top, kinds 0..4 treasure, 5 = plank (15..50)
A_DISCARD_ONE = 51  # + kind (0..4, 5 = plank): only tile left to give (51..56)
N_ACTIONS = 57

# ---- event log (replay) -------------------------------------------------------------------------------------------
E_ROLL = 1  # player, roll
E_MOVE = 2  # player, pawn, from, to
E_PLANK = 3  # player, tile, space
E_TAKE = 4  # player, tile, space
E_DISCARD = 5  # player, tile, space (or -1 lost)
E_GOAL = 6  # player, value
E_SKIP = 7  # player (all pawns home)
E_NO_DISCARD = 8  # player: had nothing to give


@njit("int64(int64)")
def tile_kind(t):
    """Kind of tile id ``t``: 0..4 treasure type, 5 ghost, 6 plank."""
    if t < N_TREASURES:
        return t // PER_TYPE
    if t < PLANK0:
        return K_GHOST
    return K_PLANK


@njit("int64(int64)")
def pair_kind_to_kind(k):
    """Pair-action kind (0..4 treasure, 5 plank) -> tile kind."""
    return K_PLANK if k == 5 else k


@njit("int64(int32[::1], int64, int64, int64)")
def pawns_at(st, space, n_players, n_pawns):
    """Number of pawns of any colour on ``space`` (kept in S_OCC; the pawn list is the truth, see tests)."""
    return st[S_OCC + space]


@njit("boolean(int32[::1], int64)")
def all_home(st, p):
    """True when every pawn of player ``p`` stands on End (R14): the count kept in S_HOME, one compare (a scan of
    the pawns cost 25 instructions a turn; kernels/README.md)."""
    return st[S_HOME + p] == st[S_NPAWNS]


@njit("void(int32[::1], int64, int64)")
def give_tile(st, t, p):
    """Move tile ``t`` into player ``p``'s face-up holdings (R8 take, R3 setup plank)."""
    st[S_TILE_LOC + t] = p
    k = tile_kind(t)
    st[S_HOLD + p * N_KINDS + k] += 1


@njit("void(int32[::1], int64[::1], int64, int64, int64)")
def give_ghost_value(st, prm, t, p, sign):
    if tile_kind(t) == K_GHOST:
        st[S_GHOST_SUM + p] += sign * prm[P_GHOST_VALUES + t - GHOST0]


@njit("void(int32[::1], int64, int64)")
def push_tile(st, t, s):
    h = nonneg(st[S_HEIGHT + s])
    st[S_STACK + s * STACK + h] = t
    st[S_HEIGHT + s] = h + 1
    st[S_TILE_LOC + t] = LOC_SPACE + s


@njit("int64(int32[::1], int64)")
def pop_tile(st, s):
    h = nonneg(st[S_HEIGHT + s] - 1)
    t = st[S_STACK + s * STACK + h]
    st[S_STACK + s * STACK + h] = -1
    st[S_HEIGHT + s] = h
    st[S_SEALED] &= ~(1 << s)  # the tile beneath (if any) is seen from now on (R4)
    return nonneg(t)  # a tile id (0..37): LLVM then drops the sign fix-ups of tile_kind and the index wrap-around


@njit("int64(int64, int64)")
def next_player(p, n):
    """(p + 1) % n for 0 <= p < n, without the integer division (about 25 cycles each, three per turn)."""
    q = p + 1
    return 0 if q == n else q


@njit
def init(st, prm, n_players):
    """R1–R3: empty board, pawns on Start, one plank per player, extras to the box, goal stack on End.

    The 33 tiles to deal are then placed by `deal`. Returns nothing; ``st`` is int32[S_SIZE].
    """
    st[:] = 0
    st[S_PAWN_POS : S_PAWN_POS + MAX_PLAYERS * MAX_PAWNS] = -1
    st[S_STACK : S_STACK + MAX_TRACK * STACK] = -1
    st[S_NPLAYERS] = n_players
    n_pawns = PAWNS_BY_PLAYERS[n_players]
    st[S_NPAWNS] = n_pawns
    st[S_END] = prm[P_TRACK_LEN] + 1
    for p in range(n_players):
        for k in range(n_pawns):
            st[S_PAWN_POS + p * MAX_PAWNS + k] = 0
    st[S_OCC] = n_players * n_pawns
    for t in range(N_TILES):
        st[S_TILE_LOC + t] = LOC_BOX
    for p in range(n_players):
        give_tile(st, PLANK0 + p, p)
    st[S_PHASE] = PH_ROLL
    st[S_CUR] = 0
    st[S_LAST_CUR] = MAX_PLAYERS
    st[S_GOAL_NEXT] = 0


@njit
def deal_pool(st, pool):
    """The 33 tiles shuffled into the track (R3/R4): 25 treasures, 7 ghosts and plank PLANK0 + n_players.

    Writes int32[33] ``pool`` in canonical order; the caller shuffles it (chance) and passes it to `deal`.
    """
    for t in range(N_TREASURES + N_GHOSTS):
        pool[t] = t
    pool[N_DEALT - 1] = PLANK0 + st[S_NPLAYERS]


@njit
def deal(st, order):
    """R4: deal ``order`` (33 tile ids, first dealt first): 2 on each green space 1..14, 1 on brown 15..19."""
    i = 0
    for s in range(1, GREEN_SPACES + 1):
        for _ in range(2):
            push_tile(st, order[i], s)
            i += 1
    st[S_SEALED] = (1 << (GREEN_SPACES + 1)) - 2  # spaces 1..14 sealed
    for s in range(GREEN_SPACES + 1, DEALT_SPACES + 1):
        push_tile(st, order[i], s)
        i += 1


@njit
def new_game(st, prm, n_players, order, log):
    """R1–R4 then the first turn: ``order`` is the dealt tile order (int32[33], a chance outcome)."""
    init(st, prm, n_players)
    deal(st, order)
    start_turn(st, log)


@njit(inline="always")
def start_turn(st, log):
    """R13/R14: the next player with a pawn not yet home takes the turn; round count advances on wrap-around."""
    n = st[S_NPLAYERS]
    p0 = nonneg(st[S_CUR])
    p = p0
    for i in range(n):  # p = (p0 + i) % n, without a division (kernels/README.md)
        if not all_home(st, p):
            q = p0
            for _ in range(i):  # log the players passed over (not at the game's end)
                log_event(log, st[S_TURNS], E_SKIP, q, 0, 0, 0)
                q = next_player(q, n)
            if p <= st[S_LAST_CUR]:
                st[S_ROUNDS] += 1
            st[S_LAST_CUR] = p
            st[S_CUR] = p
            st[S_PHASE] = PH_ROLL
            return
        p = next_player(p, n)
    st[S_PHASE] = PH_OVER


@njit(inline="always")
def apply_chance(st, roll, log):
    """R5: the die shows ``roll`` (1..die_faces); the current player must now move a pawn."""
    st[S_ROLL] = roll
    st[S_PHASE] = PH_MOVE
    log_event(log, st[S_TURNS], E_ROLL, st[S_CUR], roll, 0, 0)


@njit("int64(int32[::1], int64[::1], int64)")
def other_tiles(st, prm, p):
    """R10 (+C3): how many of ``p``'s tiles count as "other tiles" for a discard: treasures, and planks when
    planks_discardable is on (ghosts are counted apart)."""
    hold = S_HOLD + p * N_KINDS
    c = 0
    for k in range(N_TYPES):
        c += st[hold + k]
    if prm[P_PLANKS_DISCARDABLE] == 1:
        c += st[hold + K_PLANK]
    return c


@njit(forceinline=True)  # LLVM inlines it (one call site): the call passed ~25 scalars on the stack
def discard_options(st, prm, p, symbol, mask, legal):
    """R10 (+C3): which discards player ``p`` may make after leaving a tile-less space showing ``symbol``.

    Sets ``mask[a] = 1`` for each legal discard action (the pair entries are all written, 0 or 1; other entries
    untouched) and lists them in increasing order in ``legal`` (int8[N_ACTIONS]); returns the count.
    A held matching treasure is forced; else 1 ghost or any 2 other tiles; else all that is left.
    """
    hold = S_HOLD + p * N_KINDS
    c = 0
    if symbol >= 0 and st[hold + symbol] > 0:
        mask[A_DISCARD_MATCH] = 1
        legal[0] = A_DISCARD_MATCH
        return 1
    ghosts = st[hold + K_GHOST]
    planks_ok = prm[P_PLANKS_DISCARDABLE] == 1
    others = other_tiles(st, prm, p)
    if ghosts > 0:
        for j in range(N_GHOSTS):
            m = st[S_TILE_LOC + GHOST0 + j] == p
            mask[A_DISCARD_GHOST + j] = m
            legal[c] = A_DISCARD_GHOST + j  # (written always, kept when legal: no branch)
            c += m
    if others >= 2 and not (ghosts > 0 and prm[P_GHOST_BEFORE_TWO] == 1):
        # every pair entry written (0 or 1) with constant trip counts and no branch: the 36 unpredictable
        # branches of the scan cost more than the stores (kernels/README.md); a plank counts 0 when not allowed
        for a in range(6):
            na = st[hold + pair_kind_to_kind(a)] * ((a < 5) | planks_ok)
            for b in range(6):
                nb = st[hold + pair_kind_to_kind(b)] * ((b < 5) | planks_ok) - (a == b)
                m = (na > 0) & (nb > 0)
                mask[A_DISCARD_PAIR + a * 6 + b] = m
                legal[c] = A_DISCARD_PAIR + a * 6 + b
                c += m
    if ghosts == 0 and others == 1:
        for a in range(6):
            if a == 5 and not planks_ok:
                continue
            if st[hold + pair_kind_to_kind(a)] > 0:
                mask[A_DISCARD_ONE + a] = 1
                legal[c] = A_DISCARD_ONE + a
                c += 1
    return c


@njit(inline="always")
def legal_actions(st, prm, mask, legal):
    """Boolean mask (int8[N_ACTIONS]) of the current player's legal actions, and the same actions listed in
    increasing order in ``legal[:count]`` (int8[N_ACTIONS]: the `random` strategy's pick is one read, not a scan of
    the mask); returns how many.

    Empty (0) at chance nodes and at the end of the game.
    """
    for i in range(N_ACTIONS):  # a constant trip count: a few vector stores, not a memset call
        mask[i] = 0
    ph = st[S_PHASE]
    p = nonneg(st[S_CUR])
    if ph == PH_MOVE:
        c = 0
        end = st[S_END]
        npw = st[S_NPAWNS]
        base = S_PAWN_POS + p * MAX_PAWNS
        for k in range(MAX_PAWNS):  # constant trip count, no branch per pawn
            m = (st[base + k] != end) & (k < npw)
            mask[A_MOVE + k] = m
            legal[c] = A_MOVE + k
            c += m
        return c
    if ph == PH_PLANK:
        mask[A_PLANK_YES] = 1
        mask[A_PLANK_NO] = 1
        legal[0] = A_PLANK_YES
        legal[1] = A_PLANK_NO
        return 2
    if ph == PH_DISCARD:
        return discard_options(st, prm, p, prm[P_SYMBOLS + st[S_ORIGIN]], mask, legal)
    return 0


# spaces 0.._FREE_LOW - 1 always go into discard_target's free set, the rest only for a longer track: 40, not 32 (the
# default track's End is 31), because LLVM unrolls a 32-trip loop fully and then leaves it scalar (265 instructions
# against 160 for the vectorized 40-trip loop, 197 for all 64 spaces)
_FREE_LOW = 40


@njit
def discard_target(st, prm):
    """R11: the space nearest Start holding no tile and no pawn (after the move, C2); -1 when none (C1)."""
    origin = st[S_ORIGIN]
    # the free spaces as a 64-bit set built with constant trip counts (vectorized, no branch), then its lowest
    # bit: a scan from Start ran ~20 spaces and mispredicted its exit (kernels/README.md). Spaces past _FREE_LOW
    # only for a track that reaches them (docs/dev/performance.md)
    free = np.uint64(0)
    for s in range(_FREE_LOW):
        free |= np.uint64((st[S_HEIGHT + s] | st[S_OCC + s]) == 0) << np.uint64(s)
    if st[S_END] > _FREE_LOW:
        for s in range(_FREE_LOW, MAX_TRACK):
            free |= np.uint64((st[S_HEIGHT + s] | st[S_OCC + s]) == 0) << np.uint64(s)
    free &= (np.uint64(1) << np.uint64(st[S_END])) - np.uint64(2)  # spaces 1 .. End - 1
    if prm[P_VACATED_COUNTS] == 0:
        free &= ~(np.uint64(1) << np.uint64(origin))
    if free != 0:
        return lowest_bit(free)
    if prm[P_DISCARD_FALLBACK] == 1:
        for s in range(1, st[S_END]):
            if st[S_HEIGHT + s] == 0:
                if s == origin and prm[P_VACATED_COUNTS] == 0:
                    continue
                return s
    return -1


@njit("int64(int32[::1], int64, int64)")
def owned_tile_of_kind(st, p, kind):
    """Lowest tile id of ``kind`` held by ``p`` (-1 if none); tiles of one kind are interchangeable except ghosts."""
    if kind < N_TYPES:
        lo = kind * PER_TYPE
        hi = lo + PER_TYPE
    elif kind == K_GHOST:
        lo = GHOST0
        hi = PLANK0
    else:
        lo = PLANK0
        hi = N_TILES
    for t in range(lo, hi):
        if st[S_TILE_LOC + t] == p:
            return t
    return -1


@njit
def drop_tile(st, prm, p, t, target, log):
    """Move held tile ``t`` of player ``p`` onto ``target`` (or out of the game when target is -1)."""
    k = tile_kind(t)
    st[S_HOLD + p * N_KINDS + k] -= 1
    give_ghost_value(st, prm, t, p, -1)
    if target >= 0:
        push_tile(st, t, target)
    else:
        st[S_TILE_LOC + t] = LOC_LOST
        st[S_TILES_LOST] += 1
    st[S_TILES_DISCARDED] += 1
    log_event(log, st[S_TURNS], E_DISCARD, p, t, target, 0)


@njit(forceinline=True)  # as discard_options
def do_discard(st, prm, a, log):
    """Apply discard action ``a`` for the current player (R10/R11)."""
    p = st[S_CUR]
    target = discard_target(st, prm)
    st[S_DISCARD_EVENTS] += 1
    if a == A_DISCARD_MATCH:
        sym = prm[P_SYMBOLS + st[S_ORIGIN]]
        drop_tile(st, prm, p, owned_tile_of_kind(st, p, sym), target, log)
    elif a < A_DISCARD_PAIR:
        drop_tile(st, prm, p, GHOST0 + (a - A_DISCARD_GHOST), target, log)
    elif a < A_DISCARD_ONE:
        code = a - A_DISCARD_PAIR
        bottom = owned_tile_of_kind(st, p, pair_kind_to_kind(code // 6))
        drop_tile(st, prm, p, bottom, target, log)
        top = owned_tile_of_kind(st, p, pair_kind_to_kind(code % 6))
        drop_tile(st, prm, p, top, target, log)
    else:
        t = owned_tile_of_kind(st, p, pair_kind_to_kind(a - A_DISCARD_ONE))
        drop_tile(st, prm, p, t, target, log)


@njit(inline="always")
def finish_turn(st, prm, log):
    """R12 goal token on reaching End, then R13: pass the die (skipping players whose pawns are all home)."""
    p = nonneg(st[S_CUR])
    if st[S_DEST] == st[S_END]:
        g = st[S_GOAL_NEXT]
        if g < N_GOALS:
            v = prm[P_GOAL_VALUES + g]
            st[S_GOAL_SUM + p] += v
            st[S_GOAL_COUNT + p] += 1
            st[S_GOAL_NEXT] = g + 1
            log_event(log, st[S_TURNS], E_GOAL, p, v, g, 0)
    st[S_TURNS] += 1
    st[S_CUR] = next_player(p, st[S_NPLAYERS])
    start_turn(st, log)


@njit(inline="always")
def resolve_origin(st, prm, p, o, log):
    """R8/R9: player ``p`` left space ``o`` (S_ORIGIN, passed by the caller that holds it in a register): take its top
    tile if it had tiles and now has no pawn; else a discard if it had none.

    Returns True when the turn is over (`finish_turn` is due), False when a discard decision comes first."""
    if o == 0:
        return True  # R9: leaving Start never costs a discard (Start holds no tiles)
    if st[S_HEIGHT + o] > 0:
        if pawns_at(st, o, st[S_NPLAYERS], st[S_NPAWNS]) == 0:
            t = pop_tile(st, o)
            give_tile(st, t, p)
            give_ghost_value(st, prm, t, p, 1)
            log_event(log, st[S_TURNS], E_TAKE, p, t, o, 0)
        return True
    if has_discardable(st, prm, p, prm[P_SYMBOLS + o]):
        st[S_PHASE] = PH_DISCARD
        return False
    log_event(log, st[S_TURNS], E_NO_DISCARD, p, 0, 0, 0)  # R9/R10: nothing to give, the turn ends
    return True


@njit
def has_discardable(st, prm, p, symbol):
    """True when player ``p`` holds at least one tile the discard rule (R10, C3) could take."""
    hold = S_HOLD + p * N_KINDS
    if symbol >= 0 and st[hold + symbol] > 0:
        return True
    return st[hold + K_GHOST] + other_tiles(st, prm, p) > 0


@njit(inline="always")
def apply_action(st, prm, a, log):
    """Apply decision ``a`` (an A_* id, assumed legal) for the current player and advance to the next node."""
    p = nonneg(st[S_CUR])
    ph = st[S_PHASE]
    if ph == PH_MOVE:
        k = nonneg(a - A_MOVE)
        o = nonneg(st[S_PAWN_POS + p * MAX_PAWNS + k])
        d = o + nonneg(st[S_ROLL])
        end = nonneg(st[S_END])
        if d > end:
            d = end  # R12: reaching or passing End
        st[S_PAWN_POS + p * MAX_PAWNS + k] = d
        st[S_OCC + o] -= 1
        st[S_OCC + d] += 1
        st[S_HOME + p] += d == end
        st[S_PAWN] = k
        st[S_ORIGIN] = o
        st[S_DEST] = d
        log_event(log, st[S_TURNS], E_MOVE, p, k, o, d)
        # R7: optional plank under the pawn on a tile-less destination (never on End: A11)
        if d != end and st[S_HEIGHT + d] == 0 and st[S_HOLD + p * N_KINDS + K_PLANK] > 0:
            st[S_PHASE] = PH_PLANK
            return
    elif ph == PH_PLANK:
        o = nonneg(st[S_ORIGIN])
        if a == A_PLANK_YES:
            t = owned_tile_of_kind(st, p, K_PLANK)
            st[S_HOLD + p * N_KINDS + K_PLANK] -= 1
            push_tile(st, t, st[S_DEST])
            st[S_PLANKS_LAID] += 1
            log_event(log, st[S_TURNS], E_PLANK, p, t, st[S_DEST], 0)
    elif ph == PH_DISCARD:
        o = 0  # (not read: the turn finishes after the discard)
        do_discard(st, prm, a, log)
    else:
        return
    # one call site each for resolve_origin and finish_turn: they are inlined here (kernels/README.md)
    if ph == PH_DISCARD or resolve_origin(st, prm, p, o, log):
        finish_turn(st, prm, log)


@njit
def score(st, prm, p):
    """R15: goal tokens + set points per treasure type − ghost values; planks score 0."""
    s = st[S_GOAL_SUM + p] - st[S_GHOST_SUM + p]
    for k in range(N_TYPES):
        s += prm[P_SET_POINTS + st[S_HOLD + p * N_KINDS + k]]
    return s


@njit
def returns(st, prm, scores):
    """R16/R17 (+C9): fill int32 ``scores[p]`` (by turn position) and return the winners' bitmask over positions.

    Rulebook tie-break: most planks, then the latest in turn order. With tiebreak=shared all tied players win.
    """
    n = st[S_NPLAYERS]
    best = -(1 << 30)
    for p in range(n):
        scores[p] = score(st, prm, p)
        if scores[p] > best:
            best = scores[p]
    if prm[P_TIEBREAK] == 1:
        m = 0
        for p in range(n):
            if scores[p] == best:
                m |= 1 << p
        return m
    win = -1
    for p in range(n):  # later positions win remaining ties: iterate forward, use >=
        if scores[p] == best:
            if win < 0 or st[S_HOLD + p * N_KINDS + K_PLANK] >= st[S_HOLD + win * N_KINDS + K_PLANK]:
                win = p
    return 1 << win


@njit
def top_score_tied(st, prm):
    """1 when two or more players share the best score (settled by the tie-break)."""
    n = st[S_NPLAYERS]
    best = -(1 << 30)
    cnt = 0
    for p in range(n):
        s = score(st, prm, p)
        if s > best:
            best = s
            cnt = 1
        elif s == best:
            cnt += 1
    return 1 if cnt > 1 else 0
