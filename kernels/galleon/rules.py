"""Ghostly Galleon: state layout and pure rule functions (clauses of kernels/galleon/RULES.md).

State: one flat int32 vector ``st`` (S_SIZE). Parameters: int64 ``prm`` (built by params.pack with the compiled
board and the duel tables). Both are declared below field by field with their sizes (kernels/layout.py), which
gives the offsets S_* and P_*. The verbs follow OpenSpiel: `legal_actions` (decision phases), `apply_action`,
`apply_chance` (chance phases: the dice, a random face-down tile, a duel die), `returns`. Every verb ends by running
`advance`, the turn's state machine, until the next decision or chance node. Nothing raises (kernels/README.md): a
bad action returns -1.

Tiles (18, fixed ids): 0-3 sabres, 4-5 pistols, 6-10 gold worth 1..5, 11 the bottle, 12 the parrot, 13-17 key tiles
(type from prm P_KEY_TILES; 0 = the broken key). Each tile is in exactly one place (S_LOC): a seat 0..3, a chest
(LOC_CHEST + cabin), the captain's-cabin stack (LOC_STACK, order in S_STACK, top = last) or the large cave (LOC_CAVE).
"""

from __future__ import annotations

import numpy as np

from kernels._jit import njit
from kernels.eventlog import log_event
from kernels.layout import Layout

RULES_VERSION = 3

MAX_SPACES = 128
MAX_DEG = 8
MAX_PLAYERS = 4
N_TILES = 18
N_CABINS = 6
N_CANNONS = 4
N_WHIRL = 4
MAX_PIPS = 12

# tiles
T_SABRE = 0
T_PISTOL = 4
T_GOLD = 6
T_BOTTLE = 11
T_PARROT = 12
T_KEY = 13
W_NONE = 0
W_SABRE = 1
W_PISTOL = 2

# space kinds (kernels.galleon.board.KINDS)
K_LAND = 0
K_LAND_ARROW = 1
K_CAVE = 2
K_HIDEOUT = 3
K_DECK = 4
K_DECK_ARROW = 5
K_PLANK = 6
K_CABIN = 7
K_CAPTAIN = 8
K_WHIRLPOOL = 9
K_ROCK = 10

# ---- parameter vector layout (kernels/layout.py: offsets follow from the sizes) --------------------------------------
_P = Layout("parameters")
P_MAX_TURNS = _P.field()
P_GOLD_TARGET = _P.field()
P_GHOST_DIE = _P.field()  # C1: 0 pirate stays (reading A), 1 pirate moves the other die (reading B)
P_BLOCKED = _P.field()  # C2: 0 longest legal move when no exact path, 1 stay
P_TERROR = _P.field()  # C4: 0 graph adjacency, 1 only pirates on ship spaces
P_CANNON = _P.field()  # C7: 0 not twice in a row, 1 once per game
P_WATER_SAFE = _P.field()  # C6: 1 pirates in a whirlpool or on a rock cannot be challenged
P_NSPACES = _P.field()
P_CAPTAIN = _P.field()
P_CAPTAIN_DOOR = _P.field()
P_HIDEOUT = _P.field(MAX_PLAYERS)
P_CABIN = _P.field(N_CABINS)  # cabin spaces
P_DOOR = _P.field(N_CABINS)
P_CANNON_BEHIND = _P.field(N_CANNONS)
P_CANNON_Q = _P.field(N_CANNONS)
P_WHIRL = _P.field(N_WHIRL)
P_ROCK = _P.field(N_WHIRL)
P_SHORE = _P.field(N_WHIRL)
P_CHEST_KEYS = _P.field(N_CABINS)  # key stickers of the six chests (0 blank)
P_KEY_TILES = _P.field(5)  # key type of key tiles 13..17 (0 broken)
P_DUEL_WIN = _P.field(9)  # attacker's chance x 1e6, index wa * 3 + wd
P_KIND = _P.field(MAX_SPACES)
P_QUARTER = _P.field(MAX_SPACES)  # -1 none
P_OWNER = _P.field(MAX_SPACES)  # hideout owner, -1
P_CABIN_OF = _P.field(MAX_SPACES)  # cabin index of a cabin space, -1
P_CANNON_AT = _P.field(MAX_SPACES)  # cannon fired from this space, -1
P_DEG = _P.field(MAX_SPACES)
P_ADJ = _P.field(MAX_SPACES * MAX_DEG)  # neighbours (edges, stairs, cave links; a rock: its shore)
P_ADJC = _P.field(MAX_SPACES * MAX_DEG)  # 1 = cave link (not "next to"); 0 otherwise (the rock's way to its
#                                         shore too: next to it, C4/C6)
P_ATT_STOP = _P.field(3 * 3 * 3 * 7)
P_DEF_STOP = _P.field(3 * 3 * 7 * 3 * 7)
P_DIST = _P.field(MAX_SPACES * MAX_SPACES)  # fewest pips (strategies)
P_ROCK_EXIT = _P.field()  # R13/C6: 0 the step from the rock onto the shore costs a pip, 1 the count starts at
#                           the shore (that step is free)
P_STANDUP = _P.field()  # R14/C19: 0 the knocked-down player rolls (a 6 moves the ghost), 1 no roll
P_GHOST_REACH = _P.field()  # R10: the most steps the ghost moves (rulebook: 6)
P_NBR = _P.field(MAX_SPACES * 4)  # per space, 128-bit sets (lo, hi words): its neighbours along edges,
#                                   stairs and the rock's way (P_ADJC != 1), then along cave links (P_ADJC == 1)
# P_WMASK: 128-bit sets (lo, hi words) at these offsets: the spaces that end a path (cabin, captain's cabin, hideout),
# the rooms (cabin, captain's cabin), the cave entrances, then each seat's own hideout (one set a seat)
W_STOP = 0
W_ROOM = 2
W_CAVE = 4
W_OWN = 6
P_WMASK = _P.field(W_OWN + 2 * MAX_PLAYERS)
P_NEXT = _P.field(MAX_SPACES * 2)  # per space, the 128-bit set (lo, hi) of the spaces next to it (`next_to`:
#                                    P_ADJC == 0)
P_SIZE = _P.end()

# ---- state layout ----------------------------------------------------------------------------------------------------
_S = Layout("state")
S_N = _S.field()
S_CUR = _S.field()
S_FIRST = _S.field()
S_PHASE = _S.field()
S_STAGE = _S.field()  # where `advance` resumes
S_TURNS = _S.field()
S_WINNER = _S.field()
S_ACTOR = _S.field()  # seat that takes the pending decision
S_GHOST = _S.field()  # space of the ghost
S_D1 = _S.field()
S_D2 = _S.field()
S_PIPS = _S.field()  # pips of the pending move
S_MOVED = _S.field()  # pips the mover went this turn (duels need >= 1)
S_LASTCANNON = _S.field()  # cannon fired at the ghost's previous stop, -1
S_FIRED = _S.field()  # bit c: cannon c has fired (once-per-game option)
S_CH_KIND = _S.field()  # pending chance: CH_*
S_CH_N = _S.field()  # number of outcomes
S_TK_FROM = _S.field()  # tile draw: holder (seat or LOC_*)
S_TK_TO = _S.field()
S_TK_RET = _S.field()  # stage after the draw
S_LAST_TILE = _S.field()  # tile moved by the last draw or stack take
S_NPEND = _S.field()  # pirates overboard waiting for a whirlpool
S_PEND = _S.field(MAX_PLAYERS)
S_CHOOSER = _S.field()
S_VRET = _S.field()  # stage after the victims
S_PARROT_RET = _S.field()  # stage after a parrot action
S_DUEL_ATT = _S.field()
S_DUEL_DEF = _S.field()
S_WA = _S.field()
S_WD = _S.field()
S_ROLLER = _S.field()  # 0 attacker rolling, 1 defender
S_ROLLS_LEFT = _S.field()
S_DIE = _S.field()  # the roller's current value
S_ATT_RES = _S.field()
S_DUEL_WINNER = _S.field()
S_MUST_DUEL = _S.field()
S_NSTACK = _S.field()
S_MOVE_CAVE = _S.field()  # the pending move went through the caves
S_CAVE_TOOK = _S.field()  # bit s: seat s stands in the caves and took its tile of this visit (R7)
S_PARROT_SEEN = _S.field()  # 1 once the parrot has left the stack: it acts at once, so the table saw it, and
#                             when it flies back its place on the stack (the top: nothing else is ever put back) is
#                             public (H1)
S_STANDING = _S.field()  # 1 while the turn's roll is one of a pirate standing up (R14/C19): it does not move
S_POS = _S.field(MAX_PLAYERS)  # space of each seat's pirate (-1 not in play)
S_STATUS = _S.field(MAX_PLAYERS)  # ST_*
S_BLOCKED = _S.field(MAX_PLAYERS)  # 1: it could not move on its last move turn
S_PEEKED = _S.field(MAX_PLAYERS)  # bit c: the seat knows cabin c's sticker
S_OPENED_BY = _S.field(MAX_PLAYERS)  # chests opened (public)
S_KEYS_SHOWN = _S.field(MAX_PLAYERS)  # bit k: the seat showed a key of type k (public)
S_SHOWN_W = _S.field(MAX_PLAYERS)  # weapon the seat last showed in a duel (public), -1 none yet
S_STICKER = _S.field(N_CABINS)  # key sticker of the chest in cabin c (hidden until peeked or shown)
S_EMPTY = _S.field()  # bit c: the chest of cabin c was opened (public)
_S.reserve(1)  # spare: the tile places start at 80 as before
S_LOC = _S.field(N_TILES)
S_STACK = _S.field(N_TILES)  # stack bottom .. top
S_OCC = _S.field(MAX_SPACES)  # seat on the space, GHOST_OCC, or -1
S_OPT = _S.field(MAX_SPACES)  # move options of the pending decision (OPT_* bits)
# counters
S_DECISIONS = _S.field()
S_GHOST_MOVES = _S.field()
S_OVERBOARD = _S.field()
S_CANNON_FIRES = _S.field()
S_CANNON_HITS = _S.field()
S_DUELS = _S.field()
S_DUEL_WINS = _S.field(3)  # by the winner's weapon
S_STOLEN = _S.field()
S_OPENED = _S.field()
S_BOTTLES = _S.field()
S_PARROT_USES = _S.field()
S_CAVE_TILES = _S.field()
S_CAPTAIN_TILES = _S.field()
S_BLOCKED_TURNS = _S.field()
S_HOME_EARLY = _S.field()
S_CAPTAIN_VISITS = _S.field()  # entries into the captain's cabin (R15)
S_PARROT_DRAWS = _S.field()  # ... that drew the parrot
S_USELESS_VISITS = _S.field()  # ... when the table could see the stack held nothing or only the parrot
S_DUELS_ATT = _S.field(3)  # duels by the attacker's weapon
S_WATER_TURNS = _S.field()  # turns begun in a whirlpool or on a rock (R13)
S_STANDUPS = _S.field()  # turns spent standing up after a cannon (R14)
S_WHIRL_USE = _S.field(N_WHIRL)  # pirates put into whirlpool w (in the board file's order)
N_COUNTERS = S_WHIRL_USE + N_WHIRL - S_DECISIONS  # 29: S_DECISIONS .. S_WHIRL_USE + 3, extra columns 1..
#                                                   (play.game_outputs)
_S.reserve(3)  # spare: the public loss records start at S_DECISIONS + 32 as before
S_LOST = _S.field(MAX_PLAYERS)  # tiles each seat has lost (overboard, duels, the parrot): public (H1)
S_LOST_AT_SHOW = _S.field(MAX_PLAYERS)  # S_LOST of the seat when it last showed a weapon in a duel
# what the seats saw, for the search's re-deal (hidden.py, RULES.md H1/H2); no rule and no scripted choice reads
# S_KNOWN, S_CAVE_IN, S_CAVE_SABRES or S_STACK_DRAWS
S_KNOWN = _S.field(N_TILES)  # bit s: seat s lost tile t and knows where it lies (the cave, the seat that took
#                               it); cleared when its holder next loses a tile face down (it may be that one)
S_HELD = _S.field(MAX_PLAYERS)  # bit t: the seat has held tile t (private: nothing but the parrot goes back
#                                  onto the stack, nothing into a chest, so a tile it held is on neither)
S_CAVE_IN = _S.field()  # tiles ever put into the large cave (public: overboard losses); while 0 the cave holds
#                         only set-up sabres (R1)
S_CAVE_SABRES = _S.field(MAX_PLAYERS)  # sabres the seat drew from the cave while it held only set-up sabres,
#                                         since the seat last lost a tile (public)
S_STACK_DRAWS = _S.field(MAX_PLAYERS)  # tiles the seat drew from the stack that were not the parrot (a pistol
#                                         or a key), since it last lost a tile (public: the parrot acts at once)
S_SIZE = _S.end()

GHOST_OCC = 4
LOC_CHEST = 10
LOC_STACK = 20
LOC_CAVE = 21
ST_OK = 0
ST_WHIRLPOOL = 1
ST_ROCK = 2
ST_KNOCKED = 3
OPT_LEGAL = 1
OPT_CAVE = 2
OPT_SHORT = 4

# phases: decisions, chance nodes, over
PH_MOVE = 0
PH_GHOST = 1
PH_WHIRL = 2
PH_DUEL_Q = 3
PH_WEAPON = 4
PH_ROLLQ = 5
PH_SWAP = 6
PH_PARROT = 7
PH_CHANCE = 8
PH_OVER = 9
CH_DICE = 0
CH_TILE = 1
CH_DIE = 2

# stages of `advance`
SG_START = 0
SG_MOVEOPTS = 1
SG_MOVED = 2
SG_ROOM = 3
SG_HOME = 4
SG_DUELQ = 5
SG_END = 6
SG_VICTIMS = 7
SG_AFTER_GHOST = 8
SG_ROLL = 9
SG_SPOILS = 10
SG_SWAPQ = 11
SG_WAIT = 12  # a decision or chance is pending
SG_SWAPD = 13  # after the duel's end (and the parrot's action): the swap decision

# actions
A_MOVE = 0  # + destination space
A_GHOST = 128  # + destination space
A_WHIRL = 256  # + whirlpool
A_DUEL = 260  # + target seat
A_PASS = 264  # no duel
A_WEAPON = 265  # + weapon 0..2
A_ROLL = 268  # roll again
A_STOP = 269
A_SWAP = 270
A_NOSWAP = 271
A_PSTEAL = 272  # + seat
A_PTOP = 276
A_PPEEK = 277  # + cabin
N_ACTIONS = 283

# events (replay)
E_TURN = 1  # seat
E_DICE = 2  # d1, d2
E_MOVE = 3  # seat, from, to, pips
E_BLOCKED = 4  # seat
E_GHOST = 5  # from, to
E_OVERBOARD = 6  # victim, whirlpool, chooser
E_LOSE = 7  # seat, tile (to the large cave)
E_CANNON = 8  # cannon, quarter, hits
E_KNOCKED = 9  # seat
E_STANDUP = 10  # seat
E_ROCK = 11  # seat, rock
E_CAVE_TILE = 12  # seat, tile
E_PEEK = 13  # seat, cabin, sticker
E_OPEN = 14  # seat, cabin, tile, key type
E_CAPTAIN = 15  # seat, tile
E_PARROT = 16  # seat, kind (0 steal, 1 top, 2 peek), arg, tile
E_PARROT_BACK = 17  # seat
E_DUEL = 18  # attacker, defender
E_WEAPON = 19  # seat, weapon
E_DIE = 20  # seat, value, rolls left
E_DUEL_END = 21  # winner, loser, tile taken (-1 none)
E_SWAP = 22  # winner, loser
E_WIN = 23  # seat, gold
E_HOME = 24  # seat, gold (entered its hideout with too little)
E_NO_GHOST = 25  # the ghost had no move


@njit("int64(int64, int64)")
def next_seat(s, n):
    s += 1
    if s >= n:
        s = 0
    return s


@njit("boolean(int64)")
def is_ship(k):
    return k >= K_DECK and k <= K_CAPTAIN


@njit("boolean(int64)")
def is_room(k):
    return k == K_CABIN or k == K_CAPTAIN


@njit("int64(int64)")
def gold_value(t):
    if t >= T_GOLD and t < T_BOTTLE:
        return t - T_GOLD + 1
    return 0


@njit("int64(int64)")
def weapon_of(t):
    if t < T_PISTOL:
        return W_SABRE
    if t < T_GOLD:
        return W_PISTOL
    return W_NONE


@njit("int64(int32[::1], int64)")
def gold_of(st, s):
    g = 0
    for t in range(T_GOLD, T_BOTTLE):
        if st[S_LOC + t] == s:
            g += t - T_GOLD + 1
    return g


@njit("int64(int32[::1], int64)")
def count_at(st, loc):
    c = 0
    for t in range(N_TILES):
        c += st[S_LOC + t] == loc
    return c


@njit("int64(int32[::1], int64)")
def best_weapon(st, s):
    w = 0
    for t in range(T_GOLD):
        if st[S_LOC + t] == s:
            x = weapon_of(t)
            if x > w:
                w = x
    return w


@njit("boolean(int32[::1], int64, int64)")
def holds_weapon(st, s, w):
    if w == W_NONE:
        return True
    lo = T_SABRE if w == W_SABRE else T_PISTOL
    hi = T_PISTOL if w == W_SABRE else T_GOLD
    for t in range(lo, hi):
        if st[S_LOC + t] == s:
            return True
    return False


@njit("boolean(int32[::1], int64[::1], int64, int64)")
def can_open(st, prm, s, c):
    """R16: seat s can open the chest of cabin c: the chest is not empty and blank, or s holds a working key of
    the chest's type (the broken key, type 0, opens nothing)."""
    if (st[S_EMPTY] >> c) & 1:
        return False
    k = st[S_STICKER + c]
    if k == 0:
        return True
    for i in range(5):
        if st[S_LOC + T_KEY + i] == s and prm[P_KEY_TILES + i] == k:
            return True
    return False


@njit("void(int32[::1], int64, int64)")
def set_pos(st, s, v):
    """Move seat s's pirate to space v (-1: off the board), keeping the occupancy table."""
    old = st[S_POS + s]
    if old >= 0 and st[S_OCC + old] == s:
        st[S_OCC + old] = -1
    st[S_POS + s] = v
    if v >= 0:
        st[S_OCC + v] = s


@njit("void(int32[::1], int64)")
def stack_push(st, t):
    """Put tile t face down on top of the captain's-cabin stack (R1, R18)."""
    st[S_STACK + st[S_NSTACK]] = t
    st[S_NSTACK] += 1
    st[S_LOC + t] = LOC_STACK
    st[S_KNOWN + t] = 0  # (the parrot: its place is public)


@njit("boolean(int32[::1])")
def stack_known_useless(st):
    """H1: the table can see that the captain's-cabin stack holds nothing, or only the parrot that flew back onto
    it (its size is public, and so is the parrot's return: nothing else is ever put back, so it is the top)."""
    n = st[S_NSTACK]
    return n == 0 or (n == 1 and st[S_PARROT_SEEN] != 0 and st[S_LOC + T_PARROT] == LOC_STACK)


@njit("int64(int32[::1], int64)")
def stack_pop(st, to):
    """Top tile of the stack to seat ``to``; -1 when the stack is empty."""
    n = st[S_NSTACK]
    if n == 0:
        return -1
    t = st[S_STACK + n - 1]
    st[S_STACK + n - 1] = -1
    st[S_NSTACK] = n - 1
    st[S_LOC + t] = to
    if to >= 0 and to < MAX_PLAYERS:
        st[S_HELD + to] |= 1 << t
        if t != T_PARROT:
            st[S_STACK_DRAWS + to] += 1
    if t == T_PARROT:
        st[S_PARROT_SEEN] = 1
    return t


@njit("int64(int32[::1], int64[::1], int64, int32[:, ::1])")
def parrot_check(st, prm, s, log):
    """R18: the parrot stays only while its holder is on the ship: back on top of the stack otherwise. 1 if it flew."""
    if st[S_LOC + T_PARROT] != s:
        return 0
    v = st[S_POS + s]
    if v >= 0 and is_ship(prm[P_KIND + v]):
        return 0
    stack_push(st, T_PARROT)
    log_event(log, st[S_TURNS], E_PARROT_BACK, s, 0, 0, 0)
    return 1


@njit("boolean(int64[::1], int64, int64)")
def next_to(prm, a, b):
    """Terror and duel adjacency (C4, C12): a board edge or stairs between a and b, or a rock and its shore (cave
    links do not make spaces neighbours). One bit of the set P_NEXT[a] (the adjacency list scanned was 5-6% of the
    4p kernel's time: duel targets, terror, the strategies)."""
    return (prm[P_NEXT + 2 * a + (b >> 6)] >> (b & 63)) & 1 != 0


@njit("boolean(int32[::1], int64[::1], int64)")
def challengeable(st, prm, s):
    """R20: seat s's pirate may take part in a duel where it stands: not in a cabin, the captain's cabin, a cave or a
    hideout; in the water only with water_duel_safe off."""
    v = st[S_POS + s]
    if v < 0:
        return False
    k = prm[P_KIND + v]
    if k == K_CABIN or k == K_CAPTAIN or k == K_CAVE or k == K_HIDEOUT:
        return False
    if (k == K_WHIRLPOOL or k == K_ROCK) and prm[P_WATER_SAFE] != 0:
        return False
    return True


@njit("int64(int32[::1], int64[::1], int64, int64)")
def duel_targets(st, prm, s, v):
    """Bit set of seats that seat s could challenge standing on space v (R20)."""
    k = prm[P_KIND + v]
    if k == K_CABIN or k == K_CAPTAIN or k == K_CAVE or k == K_HIDEOUT or k == K_WHIRLPOOL or k == K_ROCK:
        return 0
    m = 0
    for t in range(st[S_N]):
        if t == s:
            continue
        u = st[S_POS + t]
        if u < 0 or u == v:
            continue
        if challengeable(st, prm, t) and (next_to(prm, v, u) or next_to(prm, u, v)):
            m |= 1 << t
    return m


@njit("UniTuple(int64, 4)(int64[::1], int64, int64, int64, int64, int64, int64, int64, int64)")
def _leaves(prm, x, c, fam, vis_lo, vis_hi, ent_lo, ent_hi, k):
    """The spaces a path ending on x (cave bits c, see `walk`) enters with one step more: (lo, hi) of all of them and
    (lo, hi) of those whose path then counts as through the caves in family ``fam``. ``vis`` is the path (x
    included), ``ent`` the spaces a step may end on."""
    b = P_NBR + x * 4
    n_lo = prm[b] & ~vis_lo
    n_hi = prm[b + 1] & ~vis_hi
    c_lo = prm[b + 2] & ~vis_lo & ent_lo
    c_hi = prm[b + 3] & ~vis_hi & ent_hi
    r_lo = (n_lo & ent_lo) | c_lo
    r_hi = (n_hi & ent_hi) | c_hi
    if fam == 0:
        if c & 1:
            return r_lo, r_hi, r_lo, r_hi
        return r_lo, r_hi, c_lo, c_hi
    if c & 2:
        return r_lo, r_hi, r_lo, r_hi
    if c & 4:
        return r_lo, r_hi, c_lo, c_hi
    return r_lo, r_hi, np.int64(0), np.int64(0)


@njit("UniTuple(int64, 9)(int32[::1], int64[::1], int64, int64, int64, int64, int64, int32[::1])")
def walk(st, prm, start, pips, seat, passing, fam, stk):
    """Every path of at most ``pips`` steps of seat ``seat``'s pirate from ``start`` without entering a space twice
    (R3..R8): free spaces only; a cabin or the captain's cabin only when empty, and it ends the path; the own
    hideout ends the path, other hideouts never; ``passing`` 1 lets the path cross one occupied space (R6).

    A path counts as through the caves (R7) when it used a cave link (``fam`` 0) or, ``fam`` 1, a cave link after
    standing outside the caves. Returns 128-bit sets (lo, hi words) and the highest length reached:
    (full_lo, full_hi: the ends of paths of exactly ``pips`` steps, fullc_lo, fullc_hi: those of such a path
    through the caves, short_lo, short_hi: the ends of shorter paths, shortc_lo, shortc_hi: of a shorter path
    through the caves, best). stk is scratch (int32[4 * 13]: the saved frames of the path).

    Depth-first over the paths with the current frame in registers and the path as a 128-bit set; the last step
    of every path is taken for all neighbours at once (`_leaves`: masks, no loop), so only paths with a step
    left are walked one by one: 137 loop turns and 54 mask steps a walk instead of 217 turns (recorded 4p
    positions); 4p games 2,351-2,391 -> 2,835-2,852 a second a thread. Kept as one function over 60 lines on purpose:
    the walk's frame stays in registers across the whole loop, the Galleon kernel's hottest code."""
    one = np.int64(1)
    zero = np.int64(0)
    if pips <= 0:
        return zero, zero, zero, zero, zero, zero, zero, zero, zero
    o_lo = zero  # occupied spaces: the pirates and the ghost (S_OCC >= 0)
    o_hi = zero
    for t in range(st[S_N] + 1):
        v = st[S_POS + t] if t < st[S_N] else st[S_GHOST]
        if v >= 0:
            if v < 64:
                o_lo |= one << v
            else:
                o_hi |= one << (v - 64)
    st_lo = prm[P_WMASK + W_STOP]
    st_hi = prm[P_WMASK + W_STOP + 1]
    fw_lo = ~st_lo & ~o_lo  # free spaces a path goes on from
    fw_hi = ~st_hi & ~o_hi
    ent_lo = fw_lo | (prm[P_WMASK + W_ROOM] & ~o_lo) | prm[P_WMASK + W_OWN + 2 * seat]  # where a step may end
    ent_hi = fw_hi | (prm[P_WMASK + W_ROOM + 1] & ~o_hi) | prm[P_WMASK + W_OWN + 2 * seat + 1]
    pz_lo = zero  # occupied spaces a path may pass (R6)
    pz_hi = zero
    if passing != 0:
        pz_lo = o_lo & ~st_lo
        pz_hi = o_hi & ~st_hi
    cv_lo = prm[P_WMASK + W_CAVE]
    cv_hi = prm[P_WMASK + W_CAVE + 1]
    f_lo = zero
    f_hi = zero
    fc_lo = zero
    fc_hi = zero
    s_lo = zero
    s_hi = zero
    sc_lo = zero
    sc_hi = zero
    best = 0
    # the frame (space u, next edge i, cave bits c, passed flag p) lives in registers; stk holds the frames of
    # the path below it (stk[d], stk[13 + d], stk[26 + d], stk[39 + d]), written only on a push.
    # c: bit 0 a cave link used, bit 1 a link used after standing outside the caves, bit 2 stood outside
    d = 0
    u = start
    i = 0
    c = 0 if ((cv_lo >> start) & 1 if start < 64 else (cv_hi >> (start - 64)) & 1) else 4
    p = 0
    v_lo = zero
    v_hi = zero
    if start < 64:
        v_lo = one << start
    else:
        v_hi = one << (start - 64)
    r_lo, r_hi, q_lo, q_hi = _leaves(prm, u, c, fam, v_lo, v_hi, ent_lo, ent_hi, 1)
    if pips == 1:
        f_lo, f_hi, fc_lo, fc_hi = r_lo, r_hi, q_lo, q_hi
        if r_lo | r_hi:
            best = 1
        return f_lo, f_hi, fc_lo, fc_hi, s_lo, s_hi, sc_lo, sc_hi, best
    s_lo |= r_lo
    s_hi |= r_hi
    sc_lo |= q_lo
    sc_hi |= q_hi
    if r_lo | r_hi:
        best = 1
    deg = prm[P_DEG + u]
    while True:
        if i >= deg:  # every edge of u tried: back to the space before it
            if d == 0:
                break
            if u < 64:
                v_lo &= ~(one << u)
            else:
                v_hi &= ~(one << (u - 64))
            d -= 1
            u = stk[d]
            i = stk[13 + d]
            c = stk[26 + d]
            p = stk[39 + d]
            deg = prm[P_DEG + u]
            continue
        e = P_ADJ + u * MAX_DEG + i
        i += 1
        w = prm[e]
        if w < 64:
            b = one << w
            if (v_lo & b) != 0:
                continue
            if (fw_lo & b) != 0:
                pw = p
            elif p == 0 and (pz_lo & b) != 0:
                pw = 1
            else:
                continue
            if (cv_lo & b) != 0:
                cw = 0
            else:
                cw = 4
            x_lo = v_lo | b
            x_hi = v_hi
        else:
            b = one << (w - 64)
            if (v_hi & b) != 0:
                continue
            if (fw_hi & b) != 0:
                pw = p
            elif p == 0 and (pz_hi & b) != 0:
                pw = 1
            else:
                continue
            if (cv_hi & b) != 0:
                cw = 0
            else:
                cw = 4
            x_lo = v_lo
            x_hi = v_hi | b
        cl = c
        if prm[e + MAX_SPACES * MAX_DEG] == 1:  # P_ADJC: a cave link
            cl |= 1
            if cl & 4:
                cl |= 2
        cw |= cl  # the cave bits of the path ending on w (depth d + 1)
        k = d + 2  # the steps from w
        r_lo, r_hi, q_lo, q_hi = _leaves(prm, w, cw, fam, x_lo, x_hi, ent_lo, ent_hi, k)
        if r_lo | r_hi:
            if k > best:
                best = k
            if k == pips:
                f_lo |= r_lo
                f_hi |= r_hi
                fc_lo |= q_lo
                fc_hi |= q_hi
            else:
                s_lo |= r_lo
                s_hi |= r_hi
                sc_lo |= q_lo
                sc_hi |= q_hi
        if k < pips:  # push: save the frame, go on from w
            stk[d] = u
            stk[13 + d] = i
            stk[26 + d] = c
            stk[39 + d] = p
            d += 1
            u = w
            i = 0
            c = cw
            p = pw
            v_lo = x_lo
            v_hi = x_hi
            deg = prm[P_DEG + u]
    return f_lo, f_hi, fc_lo, fc_hi, s_lo, s_hi, sc_lo, sc_hi, best


@njit(inline="always")
def rival_neighbours(st, prm, s):
    """R5: the 128-bit set (lo, hi) of the spaces next to a pirate seat s could challenge (duel_targets != 0 there)."""
    sp_lo = np.int64(0)
    sp_hi = np.int64(0)
    for t in range(st[S_N]):
        if t == s or not challengeable(st, prm, t):
            continue
        u = st[S_POS + t]
        sp_lo |= prm[P_NEXT + 2 * u]
        sp_hi |= prm[P_NEXT + 2 * u + 1]
    return sp_lo, sp_hi


@njit(inline="always")
def longest_moves(st, prm, start, best, s, passing, fam, stk):
    """C2: with no destination at the full roll and no room, the ends of the longest paths (``best`` steps) are
    legal too (a duel there optional); their cave flag is the longest way's. Returns how many S_OPT entries it
    added. A walk of ``best`` pips finds the same paths (passing a piece needs a step after it either way)."""
    one = np.int64(1)
    f_lo, f_hi, fc_lo, fc_hi, s_lo, s_hi, sc_lo, sc_hi, best = walk(st, prm, start, best, s, passing, fam, stk)
    cnt = 0
    for v in range(prm[P_NSPACES]):
        if v < 64:
            b = one << v
            lf = f_lo
            cf = fc_lo
        else:
            b = one << (v - 64)
            lf = f_hi
            cf = fc_hi
        if (lf & b) != 0:
            if st[S_OPT + v] == 0:
                cnt += 1
            st[S_OPT + v] = OPT_LEGAL | (OPT_CAVE if (cf & b) != 0 else 0)  # the longest way decides the cave flag
    return cnt


@njit("int64(int32[::1], int64[::1], int64, int64, int64, int32[::1], int32[::1], int32[::1], int32[::1])")
def move_options(st, prm, s, pips, passing, reach, cavek, vis, stk):
    """R3..R7 + C2: fill S_OPT with the legal destinations of seat s moving ``pips`` (OPT_LEGAL, OPT_CAVE when a
    path of that class went through the caves, OPT_SHORT when the space is legal only to challenge a duel; with no
    destination at the full roll and no room, the longest moves are legal as such, a duel there optional);
    returns how many. R7: a pirate standing in the caves that took its tile of this visit gets OPT_CAVE only for a
    path that leaves the caves before going through them again (one tile a visit). R13/C6 option
    ``rock_exit = count_from_shore``: a pirate on its rock counts from its shore (the paths start there, so it cannot
    end on it); a shore taken by another piece blocks it (R6), or is the one piece it passes."""
    n = prm[P_NSPACES]
    start = st[S_POS + s]
    if prm[P_ROCK_EXIT] == 1 and prm[P_KIND + start] == K_ROCK:
        for w in range(N_WHIRL):
            if prm[P_ROCK + w] == start:
                start = prm[P_SHORE + w]
        if st[S_OCC + start] >= 0:
            if passing == 0:
                for v in range(n):
                    st[S_OPT + v] = 0
                return 0
            passing = 0
    fam = 1 if ((st[S_CAVE_TOOK] >> s) & 1) != 0 and prm[P_KIND + start] == K_CAVE else 0
    f_lo, f_hi, fc_lo, fc_hi, s_lo, s_hi, sc_lo, sc_hi, best = walk(st, prm, start, pips, s, passing, fam, stk)
    one = np.int64(1)
    sp_lo, sp_hi = rival_neighbours(st, prm, s)
    st_lo = prm[P_WMASK + W_STOP]  # rooms and hideouts: legal at any length (R4)
    st_hi = prm[P_WMASK + W_STOP + 1]
    # rooms reached (any length), the full roll elsewhere, and short stops next to a rival (not in the caves, R5)
    rm_lo = (f_lo | s_lo) & st_lo
    rm_hi = (f_hi | s_hi) & st_hi
    rc_lo = (fc_lo | sc_lo) & st_lo
    rc_hi = (fc_hi | sc_hi) & st_hi
    fu_lo = f_lo & ~st_lo
    fu_hi = f_hi & ~st_hi
    sh_lo = s_lo & ~st_lo & ~f_lo & ~prm[P_WMASK + W_CAVE] & sp_lo
    sh_hi = s_hi & ~st_hi & ~f_hi & ~prm[P_WMASK + W_CAVE + 1] & sp_hi
    full = 0  # destinations using the roll in full (or a room)
    cnt = 0
    for v in range(n):
        if v < 64:
            b = one << v
            lr = rm_lo
            lf = fu_lo
            ls = sh_lo
            cr = rc_lo
            cf = fc_lo
            cs = sc_lo
        else:
            b = one << (v - 64)
            lr = rm_hi
            lf = fu_hi
            ls = sh_hi
            cr = rc_hi
            cf = fc_hi
            cs = sc_hi
        o = 0
        if (lr & b) != 0:
            o = OPT_LEGAL | (OPT_CAVE if (cr & b) != 0 else 0)
            full += 1
        elif (lf & b) != 0:
            o = OPT_LEGAL | (OPT_CAVE if (cf & b) != 0 else 0)
            full += 1
        elif (ls & b) != 0:
            o = OPT_LEGAL | OPT_SHORT | (OPT_CAVE if (cs & b) != 0 else 0)
        st[S_OPT + v] = o
        cnt += o != 0
    if full == 0 and best > 0 and prm[P_BLOCKED] == 0:  # C2: the longest legal move (a duel there optional)
        cnt += longest_moves(st, prm, start, best, s, passing, fam, stk)
    return cnt


@njit("int64(int32[::1], int64[::1], int32[::1], int32[::1], int32[::1], int32[::1])")
def ghost_options(st, prm, reach, cavek, vis, stk):
    """R10: fill S_OPT with the ghost's destinations; returns how many. The ghost jumps pirates and may stop short,
    so a space is a destination when a path of at most ``ghost_reach`` (6) ship steps reaches it (entering a room ends a path) and it
    is free or a room: a breadth-first search (a shortest path never enters a space twice). ``reach`` holds the
    distances, ``vis`` the queue."""
    n = prm[P_NSPACES]
    for v in range(n):
        reach[v] = 99
        st[S_OPT + v] = 0
    g = st[S_GHOST]
    reach[g] = 0
    vis[0] = g
    head = 0
    tail = 1
    cnt = 0
    while head < tail:
        u = vis[head]
        head += 1
        du = reach[u]
        if du >= prm[P_GHOST_REACH] or (u != g and (prm[P_KIND + u] == K_CABIN or prm[P_KIND + u] == K_CAPTAIN)):
            continue
        for i in range(prm[P_DEG + u]):
            w = prm[P_ADJ + u * MAX_DEG + i]
            kw = prm[P_KIND + w]
            if kw < K_DECK or kw > K_CAPTAIN or reach[w] != 99:
                continue
            reach[w] = du + 1
            vis[tail] = w
            tail += 1
            if kw == K_CABIN or kw == K_CAPTAIN or st[S_OCC + w] < 0:
                st[S_OPT + w] = OPT_LEGAL
                cnt += 1
    return cnt


@njit("void(int32[::1], int64, int64)")
def add_victim(st, s, chooser):
    for i in range(st[S_NPEND]):
        if st[S_PEND + i] == s:
            return
    st[S_PEND + st[S_NPEND]] = s
    st[S_NPEND] += 1
    st[S_CHOOSER] = chooser


@njit("void(int32[::1], int64[::1], int64, int64)")
def init(st, prm, n, first):
    """R1 without chance: pirates in their hideouts, the ghost in the captain's cabin, sabres dealt, the seat
    ``first`` to start. `deal` then fills the chests and the stack."""
    for i in range(S_SIZE):
        st[i] = 0
    for v in range(MAX_SPACES):
        st[S_OCC + v] = -1
    for i in range(N_TILES):
        st[S_STACK + i] = -1
    st[S_N] = n
    st[S_CUR] = first
    st[S_FIRST] = first
    st[S_WINNER] = -1
    st[S_LASTCANNON] = -1
    st[S_ACTOR] = first
    for s in range(MAX_PLAYERS):
        st[S_POS + s] = -1
        st[S_SHOWN_W + s] = -1
    for s in range(n):
        set_pos(st, s, prm[P_HIDEOUT + s])
    st[S_GHOST] = prm[P_CAPTAIN]
    st[S_OCC + prm[P_CAPTAIN]] = GHOST_OCC
    for t in range(4):  # R1: one sabre each, the rest into the large cave
        st[S_LOC + t] = t if t < n else LOC_CAVE
        if t < n:
            st[S_HELD + t] = 1 << t
    st[S_STAGE] = SG_START


@njit("void(int32[::1], int64[::1], int32[::1])")
def deal(st, prm, order):
    """R1 chance: order[0:6] the chest content (tile 6..11) placed in cabin c, order[6:12] which of the six
    stickers (P_CHEST_KEYS) the chest in cabin c carries, order[12:20] the stack from bottom to top (tiles 4, 5, 12..17)."""
    for c in range(N_CABINS):
        st[S_LOC + order[c]] = LOC_CHEST + c
        st[S_STICKER + c] = prm[P_CHEST_KEYS + order[6 + c]]
    st[S_NSTACK] = 0
    for i in range(8):
        stack_push(st, order[12 + i])


@njit("void(int32[::1], int64, int64, int64, int64)")
def tile_draw(st, frm, to, ret, seat_count):
    """Ask for a random face-down tile of holder ``frm`` (chance node CH_TILE, ``seat_count`` outcomes)."""
    st[S_PHASE] = PH_CHANCE
    st[S_CH_KIND] = CH_TILE
    st[S_CH_N] = seat_count
    st[S_TK_FROM] = frm
    st[S_TK_TO] = to
    st[S_TK_RET] = ret
    st[S_STAGE] = SG_WAIT


@njit(inline="always")
def ask_decision(st, ph, actor):
    """Seat ``actor``'s decision of phase ``ph`` is next."""
    st[S_PHASE] = ph
    st[S_ACTOR] = actor
    st[S_STAGE] = SG_WAIT


@njit("void(int32[::1], int64[::1], int64, int64, int32[:, ::1])")
def parrot_start(st, prm, s, ret, log):
    """R19: seat s got the parrot (from the stack or a duel): its action is the next decision."""
    st[S_PARROT_RET] = ret
    ask_decision(st, PH_PARROT, s)


@njit(inline="always")
def ask_chance(st, kind, n):
    """A chance node of kind ``kind`` (CH_*) with ``n`` outcomes is next."""
    st[S_PHASE] = PH_CHANCE
    st[S_CH_KIND] = kind
    st[S_CH_N] = n
    st[S_STAGE] = SG_WAIT


# ---- the stages of `advance`, one a stage (SG_*), each named for the clauses it plays. Inlined into `advance`
# (inline="always": Numba copies their code into it before typing), so the compiled turn is one function as before.
@njit(inline="always")
def start_turn(st, prm, cur, log):
    """SG_START, R2 + R13 + R14/C19: a pirate in a whirlpool goes onto its rock without a roll; a knocked-down one
    stands up (and rolls only for the ghost, or not at all: C19); any other rolls both dice."""
    log_event(log, st[S_TURNS], E_TURN, cur, 0, 0, 0)
    st[S_MOVED] = 0
    st[S_STANDING] = 0
    stt = st[S_STATUS + cur]
    if stt == ST_WHIRLPOOL or stt == ST_ROCK:
        st[S_WATER_TURNS] += 1
    if stt == ST_WHIRLPOOL:  # R13: onto the rock, no roll
        for w in range(N_WHIRL):
            if st[S_POS + cur] == prm[P_WHIRL + w]:
                set_pos(st, cur, prm[P_ROCK + w])
                log_event(log, st[S_TURNS], E_ROCK, cur, prm[P_ROCK + w], 0, 0)
        st[S_STATUS + cur] = ST_ROCK
        st[S_STAGE] = SG_END
    elif stt == ST_KNOCKED:  # R14: stand up (C19: rolling for the ghost, or not)
        st[S_STATUS + cur] = ST_OK
        st[S_STANDUPS] += 1
        log_event(log, st[S_TURNS], E_STANDUP, cur, 0, 0, 0)
        if prm[P_STANDUP] == 1:
            st[S_STAGE] = SG_END
        else:
            st[S_STANDING] = 1
            ask_chance(st, CH_DICE, 36)
    else:
        ask_chance(st, CH_DICE, 36)


@njit(inline="always")
def offer_moves(st, prm, cur, log, reach, cavek, vis, stk):
    """SG_MOVEOPTS, R3..R7 + R6: the destinations of the roll, or the turn ends blocked (a pirate still blocked
    from its last move turn may pass one piece)."""
    pips = st[S_PIPS]
    c = move_options(st, prm, cur, pips, 0, reach, cavek, vis, stk)
    if c == 0 and st[S_BLOCKED + cur] != 0:  # R6: still blocked: may pass one piece
        c = move_options(st, prm, cur, pips, 1, reach, cavek, vis, stk)
    if c == 0:
        st[S_BLOCKED + cur] = 1
        st[S_BLOCKED_TURNS] += 1
        log_event(log, st[S_TURNS], E_BLOCKED, cur, 0, 0, 0)
        st[S_STAGE] = SG_END
    else:
        ask_decision(st, PH_MOVE, cur)


@njit(inline="always")
def cave_tile(st, prm, cur):
    """SG_MOVED, R7: a move through the caves takes a random tile from the large cave (one a visit)."""
    st[S_STAGE] = SG_ROOM
    if st[S_MOVE_CAVE] != 0:
        k = count_at(st, LOC_CAVE)
        if k > 0:
            st[S_CAVE_TILES] += 1
            if prm[P_KIND + st[S_POS + cur]] == K_CAVE:  # still in the caves: this visit's tile
                st[S_CAVE_TOOK] |= 1 << cur
            tile_draw(st, LOC_CAVE, cur, SG_ROOM, k)


@njit(inline="always")
def open_chest(st, prm, cur, v, log):
    """R16: entering a cabin, the pirate peeks at the chest's sticker and opens the chest when it can."""
    c = prm[P_CABIN_OF + v]
    st[S_PEEKED + cur] |= 1 << c
    log_event(log, st[S_TURNS], E_PEEK, cur, c, st[S_STICKER + c], 0)
    if can_open(st, prm, cur, c):
        t = -1
        for x in range(N_TILES):
            if st[S_LOC + x] == LOC_CHEST + c:
                t = x
        st[S_EMPTY] |= 1 << c
        if t >= 0:
            st[S_LOC + t] = cur
            st[S_HELD + cur] |= 1 << t
            st[S_OPENED] += 1
            st[S_OPENED_BY + cur] += 1
            if t == T_BOTTLE:
                st[S_BOTTLES] += 1
        k = st[S_STICKER + c]
        if k > 0:
            st[S_KEYS_SHOWN + cur] |= 1 << k
        log_event(log, st[S_TURNS], E_OPEN, cur, c, t, k)


@njit(inline="always")
def captains_tile(st, prm, cur, log):
    """R15: entering the captain's cabin takes the top tile of the stack; the parrot acts at once (R19)."""
    st[S_CAPTAIN_VISITS] += 1
    if stack_known_useless(st):
        st[S_USELESS_VISITS] += 1
    t = stack_pop(st, cur)
    if t == T_PARROT:
        st[S_PARROT_DRAWS] += 1
    log_event(log, st[S_TURNS], E_CAPTAIN, cur, t, 0, 0)
    if t >= 0:
        st[S_CAPTAIN_TILES] += 1
    if t == T_PARROT:
        parrot_start(st, prm, cur, SG_HOME, log)


@njit(inline="always")
def enter_room(st, prm, cur, log):
    """SG_ROOM, R15/R16: what the space the move ended on gives (a chest, the stack's top tile)."""
    v = st[S_POS + cur]
    kv = prm[P_KIND + v]
    st[S_STAGE] = SG_HOME
    if kv == K_CABIN:
        open_chest(st, prm, cur, v, log)
    elif kv == K_CAPTAIN:
        captains_tile(st, prm, cur, log)


@njit(inline="always")
def end_move(st, prm, cur, log):
    """SG_HOME, R17 + R18 + R12: in its own hideout the pirate wins with enough gold (the game ends); the parrot
    leaves a pirate off the ship; a pirate that stopped next to the ghost goes overboard (the next seat chooses)."""
    v = st[S_POS + cur]
    st[S_STAGE] = SG_DUELQ
    if prm[P_KIND + v] == K_HIDEOUT:  # R17
        g = gold_of(st, cur)
        if g >= prm[P_GOLD_TARGET]:
            st[S_WINNER] = cur
            st[S_PHASE] = PH_OVER  # `advance` stops here
            log_event(log, st[S_TURNS], E_WIN, cur, g, 0, 0)
            st[S_TURNS] += 1
            return
        st[S_HOME_EARLY] += 1
        log_event(log, st[S_TURNS], E_HOME, cur, g, 0, 0)
    parrot_check(st, prm, cur, log)
    g = st[S_GHOST]
    if (
        not is_room(prm[P_KIND + v])
        and prm[P_KIND + v] != K_HIDEOUT
        and not is_room(prm[P_KIND + g])
        and (next_to(prm, v, g) or next_to(prm, g, v))
    ):
        add_victim(st, cur, next_seat(cur, st[S_N]))  # R12: stopped next to the ghost
        st[S_VRET] = SG_END
        st[S_STAGE] = SG_VICTIMS


@njit(inline="always")
def offer_duel(st, prm, cur):
    """SG_DUELQ, R20: after moving at least one pip, the pirate may challenge a pirate next to it."""
    m = 0
    if st[S_MOVED] > 0:
        m = duel_targets(st, prm, cur, st[S_POS + cur])
    if m == 0:
        st[S_STAGE] = SG_END
    else:
        ask_decision(st, PH_DUEL_Q, cur)


@njit(inline="always")
def next_victim(st):
    """SG_VICTIMS, R13: the chooser puts the next frightened pirate into a whirlpool; with none left, on to the
    stage that follows the fright."""
    if st[S_NPEND] == 0:
        st[S_STAGE] = st[S_VRET]
    else:
        ask_decision(st, PH_WHIRL, st[S_CHOOSER])


@njit(inline="always")
def after_ghost(st, prm, cur):
    """SG_AFTER_GHOST, C1: reading B moves the pirate by the other die (a pirate standing up does not move);
    reading A ends the turn."""
    stt = st[S_STATUS + cur]
    if prm[P_GHOST_DIE] == 1 and (stt == ST_OK or stt == ST_ROCK) and st[S_STANDING] == 0:  # C1 B
        d1 = st[S_D1]
        d2 = st[S_D2]
        st[S_PIPS] = d2 if d1 == 6 else d1
        st[S_STAGE] = SG_MOVEOPTS
    else:
        st[S_STAGE] = SG_END


@njit(inline="always")
def duel_spoils(st):
    """SG_SPOILS, R23: the winner takes a random face-down tile of the loser."""
    w = st[S_DUEL_WINNER]
    los = st[S_DUEL_DEF] if w == st[S_DUEL_ATT] else st[S_DUEL_ATT]
    k = count_at(st, los)
    st[S_STAGE] = SG_SWAPQ
    st[S_LAST_TILE] = -1
    if k > 0:
        st[S_STOLEN] += 1
        tile_draw(st, los, w, SG_SWAPQ, k)


@njit(inline="always")
def duel_end(st, prm, log):
    """SG_SWAPQ, R19 + R23: the duel is over; a parrot won in it acts at once."""
    w = st[S_DUEL_WINNER]
    los = st[S_DUEL_DEF] if w == st[S_DUEL_ATT] else st[S_DUEL_ATT]
    log_event(log, st[S_TURNS], E_DUEL_END, w, los, st[S_LAST_TILE], 0)
    st[S_STAGE] = SG_SWAPD
    if st[S_LAST_TILE] == T_PARROT:  # R19: the parrot won in a duel acts at once
        st[S_LAST_TILE] = -1
        parrot_start(st, prm, w, SG_SWAPD, log)


@njit(inline="always")
def offer_swap(st, prm, log):
    """SG_SWAPD, R18 then R23: the parrot leaves a winner off the ship; the winner may swap places."""
    w = st[S_DUEL_WINNER]
    parrot_check(st, prm, w, log)
    ask_decision(st, PH_SWAP, w)


@njit
def advance(st, prm, log, reach, cavek, vis, stk):
    """The turn's state machine: run stages until a decision (S_PHASE a decision phase, S_ACTOR set), a chance
    node (PH_CHANCE) or the end (PH_OVER). Each stage (S_STAGE, SG_*) is a function above, inlined here."""
    while True:
        sg = st[S_STAGE]
        cur = st[S_CUR]
        if sg == SG_WAIT or st[S_PHASE] == PH_OVER:
            return
        if sg == SG_START:
            start_turn(st, prm, cur, log)
        elif sg == SG_MOVEOPTS:
            offer_moves(st, prm, cur, log, reach, cavek, vis, stk)
        elif sg == SG_MOVED:
            cave_tile(st, prm, cur)
        elif sg == SG_ROOM:
            enter_room(st, prm, cur, log)
        elif sg == SG_HOME:
            end_move(st, prm, cur, log)
        elif sg == SG_DUELQ:
            offer_duel(st, prm, cur)
        elif sg == SG_END:
            st[S_TURNS] += 1
            st[S_CUR] = next_seat(cur, st[S_N])
            st[S_STAGE] = SG_START
        elif sg == SG_VICTIMS:
            next_victim(st)
        elif sg == SG_AFTER_GHOST:
            after_ghost(st, prm, cur)
        elif sg == SG_ROLL:  # R22: the roller's die
            ask_chance(st, CH_DIE, 6)
        elif sg == SG_SPOILS:
            duel_spoils(st)
        elif sg == SG_SWAPQ:
            duel_end(st, prm, log)
        elif sg == SG_SWAPD:
            offer_swap(st, prm, log)
        else:
            return


@njit("int64(int32[::1], int64[::1], int64, boolean)")
def frightened(st, prm, v, near):
    """R11 and C4: the seats whose pirates the ghost frightens when it stops on space v (bit t for seat t): a pirate
    on v or, outside the rooms, next to it (C4: on ship spaces only where terror_adjacency says so). ``near``: v is
    next to a pirate (else only a pirate in the room v can be frightened). The rule itself (`victims_of_ghost`)
    and what the strategies read of it."""
    hits = 0
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
            hits |= 1 << t
    return hits


@njit("void(int32[::1], int64[::1], int64, int32[:, ::1])")
def victims_of_ghost(st, prm, entered_room, log):
    """R11: pirates frightened by the ghost's stop (C4 adjacency), in seat order."""
    hits = frightened(st, prm, st[S_GHOST], True)
    cur = st[S_CUR]
    for s in range(st[S_N]):
        if (hits >> s) & 1:
            add_victim(st, s, cur)


@njit("void(int32[::1], int64[::1], int32[:, ::1])")
def fire_cannon(st, prm, log):
    """R14 + C7: the ghost stopping behind a cannon fires it into its quarter (not twice in a row; option: once
    a game); every pirate standing on a land or land-arrow space there is knocked down."""
    c = prm[P_CANNON_AT + st[S_GHOST]]
    last = st[S_LASTCANNON]
    st[S_LASTCANNON] = c
    if c < 0 or c == last:
        return
    if prm[P_CANNON] == 1 and (st[S_FIRED] >> c) & 1:
        return
    st[S_FIRED] |= 1 << c
    q = prm[P_CANNON_Q + c]
    hits = 0
    for s in range(st[S_N]):
        v = st[S_POS + s]
        if v < 0:
            continue
        k = prm[P_KIND + v]
        if (k == K_LAND or k == K_LAND_ARROW) and prm[P_QUARTER + v] == q and st[S_STATUS + s] == ST_OK:
            st[S_STATUS + s] = ST_KNOCKED
            hits += 1
            log_event(log, st[S_TURNS], E_KNOCKED, s, 0, 0, 0)
    st[S_CANNON_FIRES] += 1
    st[S_CANNON_HITS] += hits
    log_event(log, st[S_TURNS], E_CANNON, c, q, hits, 0)


@njit
def legal_actions(st, prm, mask):
    """Fill ``mask`` (int8[N_ACTIONS]) for the pending decision; returns the number of legal actions (0 at chance
    nodes and at the end)."""
    for a in range(N_ACTIONS):
        mask[a] = 0
    ph = st[S_PHASE]
    n = st[S_N]
    cnt = 0
    actor = st[S_ACTOR]
    if ph == PH_MOVE or ph == PH_GHOST:
        base = A_MOVE if ph == PH_MOVE else A_GHOST
        for v in range(prm[P_NSPACES]):
            if st[S_OPT + v] != 0:
                mask[base + v] = 1
                cnt += 1
    elif ph == PH_WHIRL:
        for w in range(N_WHIRL):
            a = prm[P_WHIRL + w]
            r = prm[P_ROCK + w]
            if st[S_OCC + a] < 0 and st[S_OCC + r] < 0:
                mask[A_WHIRL + w] = 1
                cnt += 1
    elif ph == PH_DUEL_Q:
        m = duel_targets(st, prm, actor, st[S_POS + actor])
        for t in range(n):
            if (m >> t) & 1:
                mask[A_DUEL + t] = 1
                cnt += 1
        if st[S_MUST_DUEL] == 0:
            mask[A_PASS] = 1
            cnt += 1
    elif ph == PH_WEAPON:
        for w in range(3):
            if holds_weapon(st, actor, w):
                mask[A_WEAPON + w] = 1
                cnt += 1
    elif ph == PH_ROLLQ:
        mask[A_ROLL] = 1
        mask[A_STOP] = 1
        cnt = 2
    elif ph == PH_SWAP:
        mask[A_SWAP] = 1
        mask[A_NOSWAP] = 1
        cnt = 2
    elif ph == PH_PARROT:
        for t in range(n):
            if t != actor and count_at(st, t) > 0:
                mask[A_PSTEAL + t] = 1
                cnt += 1
        if st[S_NSTACK] > 0:
            mask[A_PTOP] = 1
            cnt += 1
        for c in range(N_CABINS):
            mask[A_PPEEK + c] = 1
            cnt += 1
    return cnt


@njit
def apply_action(st, prm, a, log, reach, cavek, vis, stk):
    """Apply decision ``a`` of the pending phase (legal per `legal_actions`) and run the turn on to the next
    decision or chance node; returns 0, or -1 for an action the phase does not take (nothing changes then)."""
    r = act(st, prm, a, log, reach, cavek, vis, stk)
    if r == 0:
        advance(st, prm, log, reach, cavek, vis, stk)
    return r


# ---- the decisions `act` applies, one a decision phase (PH_*); inlined into `act` as the stages into `advance`.
# Each returns 0, or -1 for an action its phase does not take.
@njit(inline="always")
def do_move(st, prm, a, cur, log):
    """PH_MOVE, R3..R7: the pirate goes to the chosen destination (S_OPT); a short stop must challenge (R5)."""
    v = a - A_MOVE
    if v < 0 or v >= prm[P_NSPACES] or st[S_OPT + v] == 0:
        return -1
    o = st[S_OPT + v]
    frm = st[S_POS + cur]
    set_pos(st, cur, v)
    st[S_MOVED] = 1
    st[S_BLOCKED + cur] = 0
    st[S_MUST_DUEL] = 1 if (o & OPT_SHORT) != 0 else 0
    st[S_MOVE_CAVE] = 1 if (o & OPT_CAVE) != 0 else 0
    if prm[P_KIND + v] != K_CAVE:  # R7: out of the caves, the visit is over
        st[S_CAVE_TOOK] &= ~(1 << cur)
    if st[S_STATUS + cur] == ST_ROCK:
        st[S_STATUS + cur] = ST_OK
    log_event(log, st[S_TURNS], E_MOVE, cur, frm, v, st[S_PIPS])
    st[S_STAGE] = SG_MOVED
    return 0


@njit(inline="always")
def move_ghost(st, prm, a, log):
    """PH_GHOST, R10 + R11 + R14: the ghost stops on the chosen space, frightens the pirates next to it and may
    fire a cannon."""
    v = a - A_GHOST
    if v < 0 or v >= prm[P_NSPACES] or st[S_OPT + v] == 0:
        return -1
    g = st[S_GHOST]
    if st[S_OCC + g] == GHOST_OCC:
        st[S_OCC + g] = -1
    st[S_GHOST] = v
    if st[S_OCC + v] < 0:
        st[S_OCC + v] = GHOST_OCC
    st[S_GHOST_MOVES] += 1
    log_event(log, st[S_TURNS], E_GHOST, g, v, 0, 0)
    st[S_NPEND] = 0
    victims_of_ghost(st, prm, 0, log)
    fire_cannon(st, prm, log)
    st[S_VRET] = SG_AFTER_GHOST
    st[S_STAGE] = SG_VICTIMS
    return 0


@njit(inline="always")
def overboard(st, prm, a, actor, log):
    """PH_WHIRL, R13: the next frightened pirate goes into the chosen whirlpool, loses a random tile to the large
    cave, and its parrot flies back."""
    w = a - A_WHIRL
    if w < 0 or w >= N_WHIRL:
        return -1
    s = st[S_PEND]
    for i in range(st[S_NPEND] - 1):
        st[S_PEND + i] = st[S_PEND + i + 1]
    st[S_NPEND] -= 1
    set_pos(st, s, prm[P_WHIRL + w])
    if st[S_OCC + st[S_GHOST]] < 0:
        st[S_OCC + st[S_GHOST]] = GHOST_OCC  # the ghost now alone in the room it entered
    st[S_STATUS + s] = ST_WHIRLPOOL
    st[S_BLOCKED + s] = 0
    st[S_CAVE_TOOK] &= ~(1 << s)
    st[S_OVERBOARD] += 1
    st[S_WHIRL_USE + w] += 1
    log_event(log, st[S_TURNS], E_OVERBOARD, s, w, actor, 0)
    parrot_check(st, prm, s, log)  # R13: the parrot flies back, in addition to the tile
    k = count_at(st, s)
    st[S_STAGE] = SG_VICTIMS
    if k > 0:
        tile_draw(st, s, LOC_CAVE, SG_VICTIMS, k)
    return 0


@njit(inline="always")
def challenge(st, a, cur, n, log):
    """PH_DUEL_Q, R20: challenge a seat (both then choose weapons), or pass when no duel is owed (R5)."""
    if a == A_PASS:
        if st[S_MUST_DUEL] != 0:
            return -1
        st[S_STAGE] = SG_END
        return 0
    t = a - A_DUEL
    if t < 0 or t >= n:
        return -1
    st[S_DUELS] += 1
    st[S_DUEL_ATT] = cur
    st[S_DUEL_DEF] = t
    st[S_ROLLER] = 0
    log_event(log, st[S_TURNS], E_DUEL, cur, t, 0, 0)
    ask_decision(st, PH_WEAPON, cur)
    return 0


@njit(inline="always")
def show_weapon(st, a, actor, log):
    """PH_WEAPON, R21: the attacker, then the defender, shows a weapon; then the attacker rolls."""
    w = a - A_WEAPON
    if w < 0 or w > 2:
        return -1
    log_event(log, st[S_TURNS], E_WEAPON, actor, w, 0, 0)
    st[S_SHOWN_W + actor] = w
    st[S_LOST_AT_SHOW + actor] = st[S_LOST + actor]
    if actor == st[S_DUEL_ATT]:
        st[S_DUELS_ATT + w] += 1
        st[S_WA] = w
        st[S_ACTOR] = st[S_DUEL_DEF]
        return 0
    st[S_WD] = w
    st[S_ROLLER] = 0
    st[S_ACTOR] = st[S_DUEL_ATT]
    st[S_ROLLS_LEFT] = st[S_WA] + 1
    st[S_STAGE] = SG_ROLL
    return 0


@njit(inline="always")
def swap_places(st, prm, a, log):
    """PH_SWAP, R23 + R18: the duel's winner swaps places with the loser, or not; the parrot leaves either one
    that ends off the ship."""
    if a == A_SWAP:
        w = st[S_DUEL_WINNER]
        los = st[S_DUEL_DEF] if w == st[S_DUEL_ATT] else st[S_DUEL_ATT]
        pw = st[S_POS + w]
        pl = st[S_POS + los]
        st[S_POS + w] = pl
        st[S_POS + los] = pw
        st[S_OCC + pl] = w
        st[S_OCC + pw] = los
        log_event(log, st[S_TURNS], E_SWAP, w, los, 0, 0)
        parrot_check(st, prm, w, log)
        parrot_check(st, prm, los, log)
    elif a != A_NOSWAP:
        return -1
    st[S_STAGE] = SG_END
    return 0


@njit(inline="always")
def parrot_action(st, a, actor, n, log):
    """PH_PARROT, R19: steal a random tile of a seat, take the stack's top tile, or peek at a chest's sticker."""
    st[S_PARROT_USES] += 1
    ret = st[S_PARROT_RET]
    if a >= A_PSTEAL and a < A_PSTEAL + MAX_PLAYERS:
        t = a - A_PSTEAL
        k = count_at(st, t)
        if t >= n or t == actor or k == 0:
            return -1
        log_event(log, st[S_TURNS], E_PARROT, actor, 0, t, 0)
        st[S_STOLEN] += 1
        st[S_LAST_TILE] = -1
        tile_draw(st, t, actor, ret, k)
        return 0
    elif a == A_PTOP:
        x = stack_pop(st, actor)
        if x < 0:
            return -1
        log_event(log, st[S_TURNS], E_PARROT, actor, 1, 0, x)
    elif a >= A_PPEEK and a < A_PPEEK + N_CABINS:
        c = a - A_PPEEK
        st[S_PEEKED + actor] |= 1 << c
        log_event(log, st[S_TURNS], E_PARROT, actor, 2, c, st[S_STICKER + c])
    else:
        return -1
    st[S_LAST_TILE] = -1
    st[S_STAGE] = ret
    return 0


@njit
def act(st, prm, a, log, reach, cavek, vis, stk):
    """`apply_action` without running on (play_one calls `advance` itself: one call site keeps the compile small).
    Each decision phase's rule is a function above, inlined here."""
    ph = st[S_PHASE]
    actor = st[S_ACTOR]
    cur = st[S_CUR]
    n = st[S_N]
    if ph == PH_MOVE:
        r = do_move(st, prm, a, cur, log)
    elif ph == PH_GHOST:
        r = move_ghost(st, prm, a, log)
    elif ph == PH_WHIRL:
        r = overboard(st, prm, a, actor, log)
    elif ph == PH_DUEL_Q:
        r = challenge(st, a, cur, n, log)
    elif ph == PH_WEAPON:
        r = show_weapon(st, a, actor, log)
    elif ph == PH_ROLLQ:  # R22: roll again, or stop
        r = 0
        if a == A_ROLL:
            st[S_STAGE] = SG_ROLL
        elif a == A_STOP:
            duel_result(st, prm, log)
        else:
            r = -1
    elif ph == PH_SWAP:
        r = swap_places(st, prm, a, log)
    elif ph == PH_PARROT:
        r = parrot_action(st, a, actor, n, log)
    else:
        r = -1
    if r == 0 and st[S_STAGE] != SG_WAIT:
        st[S_PHASE] = PH_CHANCE  # neutral until advance sets the next node
    return r


@njit("void(int32[::1], int64[::1], int32[:, ::1])")
def duel_result(st, prm, log):
    """R22: the roller stops (or has no roll left): the attacker's result is kept for the defender; after the
    defender, the higher number wins and a tie starts again with the same weapons."""
    v = st[S_DIE]
    if st[S_ROLLER] == 0:
        st[S_ATT_RES] = v
        st[S_ROLLER] = 1
        st[S_ACTOR] = st[S_DUEL_DEF]
        st[S_ROLLS_LEFT] = st[S_WD] + 1
        st[S_STAGE] = SG_ROLL
        return
    a = st[S_ATT_RES]
    if v == a:  # tie: again, same weapons
        st[S_ROLLER] = 0
        st[S_ACTOR] = st[S_DUEL_ATT]
        st[S_ROLLS_LEFT] = st[S_WA] + 1
        st[S_STAGE] = SG_ROLL
        return
    w = st[S_DUEL_ATT] if a > v else st[S_DUEL_DEF]
    st[S_DUEL_WINNER] = w
    st[S_DUEL_WINS + (st[S_WA] if a > v else st[S_WD])] += 1
    st[S_STAGE] = SG_SPOILS


@njit
def apply_chance(st, prm, outcome, log, reach, cavek, vis, stk):
    """Resolve the pending chance node with ``outcome`` in 0..S_CH_N - 1 and run the turn on: CH_DICE
    d1 = outcome // 6 + 1, d2 = outcome % 6 + 1; CH_TILE the outcome-th tile (in tile order) of the holder; CH_DIE
    the die shows outcome + 1. Returns 0, or -1 when no chance node is pending or the outcome is out of range."""
    r = chance(st, prm, outcome, log, reach, cavek, vis, stk)
    if r == 0:
        advance(st, prm, log, reach, cavek, vis, stk)
    return r


# ---- the chance outcomes `chance` applies, one a kind (CH_*); inlined into `chance` as the stages into `advance`
@njit(inline="always")
def roll_dice(st, prm, outcome, cur, log, reach, cavek, vis, stk):
    """CH_DICE, R2 + R9 + C19: both dice; a 6 moves the ghost instead (when it can move), a pirate standing up
    does not move, any other moves the sum. Returns 0; the ghost's move is then the pending decision."""
    d1 = outcome // 6 + 1
    d2 = outcome - (d1 - 1) * 6 + 1
    st[S_D1] = d1
    st[S_D2] = d2
    log_event(log, st[S_TURNS], E_DICE, d1, d2, 0, 0)
    if d1 == 6 or d2 == 6:  # R9: the ghost moves instead
        if ghost_options(st, prm, reach, cavek, vis, stk) > 0:
            st[S_PHASE] = PH_GHOST
            st[S_ACTOR] = cur
            return 1
        log_event(log, st[S_TURNS], E_NO_GHOST, 0, 0, 0, 0)
        st[S_STAGE] = SG_AFTER_GHOST
    elif st[S_STANDING] != 0:  # C19: standing up is the pirate's move this turn
        st[S_STAGE] = SG_END
    else:
        st[S_PIPS] = d1 + d2
        st[S_STAGE] = SG_MOVEOPTS
    return 0


@njit(inline="always")
def move_tile(st, outcome, log):
    """CH_TILE, R7/R13/R19/R23: the outcome-th tile (in tile order) of the holder S_TK_FROM goes to S_TK_TO, and
    what each seat knows of it follows (H1)."""
    frm = st[S_TK_FROM]
    to = st[S_TK_TO]
    j = outcome
    t = -1
    for x in range(N_TILES):
        if st[S_LOC + x] == frm:
            if j == 0:
                t = x
                break
            j -= 1
    for x in range(N_TILES):  # H1: who knew where a tile of frm lay no longer does (this may be it) ...
        if st[S_LOC + x] == frm:
            st[S_KNOWN + x] = 0
    if frm == LOC_CAVE and st[S_CAVE_IN] == 0 and to < MAX_PLAYERS:
        st[S_CAVE_SABRES + to] += 1  # the cave held only set-up sabres: the table knows this is one
    st[S_LOC + t] = to
    st[S_LAST_TILE] = t
    if to < MAX_PLAYERS:
        st[S_HELD + to] |= 1 << t
    elif to == LOC_CAVE:
        st[S_CAVE_IN] += 1
    if frm < MAX_PLAYERS:
        st[S_LOST + frm] += 1
        st[S_KNOWN + t] = 1 << frm  # ... but the loser saw which tile left its hand, and where it went
        st[S_CAVE_SABRES + frm] = 0  # the tile lost may be one the table knew of
        st[S_STACK_DRAWS + frm] = 0
    if to == LOC_CAVE:
        log_event(log, st[S_TURNS], E_LOSE, frm, t, 0, 0)
    elif frm == LOC_CAVE:
        log_event(log, st[S_TURNS], E_CAVE_TILE, to, t, 0, 0)
    st[S_STAGE] = st[S_TK_RET]


@njit(inline="always")
def duel_die(st, prm, outcome, log):
    """CH_DIE, R22: the roller's die; with rolls left the roller may roll again (returns 1: that decision is
    pending), else the roll counts (returns 0)."""
    v = outcome + 1
    st[S_DIE] = v
    st[S_ROLLS_LEFT] -= 1
    roller = st[S_DUEL_ATT] if st[S_ROLLER] == 0 else st[S_DUEL_DEF]
    log_event(log, st[S_TURNS], E_DIE, roller, v, st[S_ROLLS_LEFT], 0)
    if st[S_ROLLS_LEFT] > 0:
        st[S_PHASE] = PH_ROLLQ
        st[S_ACTOR] = roller
        return 1
    duel_result(st, prm, log)
    return 0


@njit
def chance(st, prm, outcome, log, reach, cavek, vis, stk):
    """`apply_chance` without running on (see `act`). Each kind's rule is a function above, inlined here."""
    if st[S_PHASE] != PH_CHANCE or st[S_STAGE] != SG_WAIT or outcome < 0 or outcome >= st[S_CH_N]:
        return -1
    kind = st[S_CH_KIND]
    if kind == CH_DICE:
        if roll_dice(st, prm, outcome, st[S_CUR], log, reach, cavek, vis, stk) == 1:
            return 0
    elif kind == CH_TILE:
        move_tile(st, outcome, log)
    elif duel_die(st, prm, outcome, log) == 1:
        return 0
    st[S_PHASE] = PH_CHANCE
    return 0


@njit("int64(int32[::1], int64)")
def returns(st, s):
    """OpenSpiel returns: 1 for the winner, 0 for everyone else (and for all when no one has won)."""
    return 1 if st[S_WINNER] == s else 0


@njit("int64(int32[::1], int64[::1])")
def check_invariants(st, prm):
    """0 when the state is consistent, else a code: 1 a tile in no valid place, 2 the stack list disagrees with the
    tile places, 3 two pieces on a space or the occupancy table wrong, 4 the ghost off the ship, 5 the parrot with
    a pirate off the ship at a decision, 6 a pirate on a space of the wrong kind."""
    n = st[S_N]
    for t in range(N_TILES):
        loc = st[S_LOC + t]
        ok = (
            (loc >= 0 and loc < n)
            or (loc >= LOC_CHEST and loc < LOC_CHEST + N_CABINS)
            or loc == LOC_STACK
            or loc == LOC_CAVE
        )
        if not ok:
            return 1
        if loc >= LOC_CHEST and loc < LOC_CHEST + N_CABINS:
            for x in range(N_TILES):
                if x != t and st[S_LOC + x] == loc:
                    return 1
    ns = st[S_NSTACK]
    if count_at(st, LOC_STACK) != ns:
        return 2
    for i in range(ns):
        if st[S_LOC + st[S_STACK + i]] != LOC_STACK:
            return 2
    nsp = prm[P_NSPACES]
    for v in range(nsp):
        o = st[S_OCC + v]
        c = 0
        for s in range(n):
            c += st[S_POS + s] == v
        g = 1 if st[S_GHOST] == v else 0
        if c + g > 1 and not (g == 1 and c == 1 and is_room(prm[P_KIND + v]) and st[S_NPEND] > 0):
            return 3
        if c == 1 and (o < 0 or o >= n or st[S_POS + o] != v):
            return 3
        if c == 0 and g == 1 and o != GHOST_OCC:
            return 3
        if c == 0 and g == 0 and o != -1:
            return 3
    if not is_ship(prm[P_KIND + st[S_GHOST]]):
        return 4
    for s in range(n):
        v = st[S_POS + s]
        k = prm[P_KIND + v]
        if (
            st[S_LOC + T_PARROT] == s
            and not is_ship(k)
            and st[S_PHASE] != PH_PARROT
            and st[S_STAGE] == SG_WAIT
            and st[S_PHASE] != PH_CHANCE
        ):
            return 5
        if k == K_HIDEOUT and prm[P_OWNER + v] != s:
            return 6
        if (k == K_WHIRLPOOL) != (st[S_STATUS + s] == ST_WHIRLPOOL):
            return 6
    return 0
