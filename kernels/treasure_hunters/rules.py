"""Ghost Fightin' Treasure Hunters: state layout and pure rule functions (clauses R1..R47 of RULES.md).

State: one flat int32 vector ``st`` (length S_SIZE) at the offsets S_* of the layout declared below (field by
field with its size, kernels/layout.py); -1 marks an empty slot. Parameters and the compiled board: one int64
vector ``prm`` (offsets P_*, declared alike; built by params.pack).
Chance enters only through `apply_chance` (a movement or fight die face index, or the slot a rolled 6 discards),
`apply_shuffle` (the new order of the draw pile) and `set_jewel_numbers` (the numbers under the jewels), so tests
force any outcome without mocks. Decisions enter through `apply_action` with the action ids A_* below.

Hunters are indexed 0..nh-1 in turn order (hunter 0 takes the first turn); S_HSEAT maps each to the seat that
controls it. The Head Haunter (head_haunter mode) is seat 0 and has no turn of its own.
"""

from __future__ import annotations

import numpy as np

from kernels._jit import njit, njit_alloc
from kernels.bits import lowest_bit, nonneg
from kernels.eventlog import LOG_W, log_event  # noqa: F401  (re-exported for tests)
from kernels.layout import Layout

RULES_VERSION = 2

# ---- components (rulebook "Contents") ------------------------------------------------------------------------
N_ROOMS = 12
ROOM_LETTERS = "ABCDEFGHIJKL"
MAX_NODES = 64  # node 0 = outside, 1 + r = room r (A=0..L=11), 13.. = hallway squares
OUTSIDE = 0
ROOM0 = 1
MAX_DEG = 8
MAX_HUNTERS = 4
N_JEWELS = 8
N_GHOSTS = 24
MAX_HAUNTINGS = 11
MAX_CARDS = 96
MAX_HAND = 5
MAX_FACES = 12
CURVE_MAX = 128
UNREACHABLE = 999

NODE_OUTSIDE = 0
NODE_ROOM = 1
NODE_HALL = 2
COL_NONE = 0
COL_BLUE = 1
COL_GREEN = 2

MODE_BASIC = 0
MODE_ADVANCED = 1
MODE_HH = 2
MODES = ("basic", "advanced", "head_haunter")

# hunters in play by number of players (rulebook: 2-player co-op runs two hunters each; Head Haunter notes)
HUNTERS_COOP = (0, 0, 4, 3, 4, 0)
HUNTERS_HH = (0, 0, 4, 4, 3, 4)

# ---- card types ---------------------------------------------------------------------------------------------------
CT_ROOM = 0  # 0..11: green room card of room A..L
CT_SHUFFLE = 12
CT_DRAW2 = 13
CT_DRAW3 = 14
CT_DOOR_BLUE = 15
CT_DOOR_GREEN = 16
CT_HROOM = 17  # 17..28: black (Head Haunter) room card of room A..L
CT_GROUP = 29  # 29..31: A/B/C/D, E/F/G/H, I/J/K/L
CT_ADD1 = 32
CT_ADD2 = 33
CT_SPOOK = 34
CT_MOVE = 35  # 35..37: move ghost 1, 2, 3
N_CT = 38
GROUP_SIZE = 4
PAIRS = np.array([[0, 1], [0, 2], [0, 3], [1, 2], [1, 3], [2, 3]], dtype=np.int64)

# card locations
CL_NONE = -1  # card slot not used by this game
CL_DRAW = 0
CL_DISCARD = 1
CL_DOOR = 2  # the active door card beside the discard pile (advanced game)
CL_HAND = 3  # the Head Haunter's hand
CL_REMOVED = 4  # single-use (X) card used in the Head Haunter game
CL_PLAY = 5  # being resolved

# fight die faces
F_BLANK = 0
F_GHOST = 1
F_HAUNT = 2

# jewel locations: a node >= 0 (a room), -1 - h carried by hunter h, J_WAGON delivered
J_WAGON = -10

# outcomes (extra column "outcome")
OUT_NONE = -1
OUT_WIN = 0
OUT_SIX = 1
OUT_STUCK = 2
OUT_JEWELS = 3
OUT_HH_SIX = 4
OUT_HH_STUCK = 5
OUT_TRUNC = 6
OUTCOME_LABELS = (
    "win",
    "six_hauntings",
    "hunters_stuck",
    "jewels_cannot_leave",
    "haunter_win_hauntings",
    "haunter_win_stuck",
    "truncated",
)

# ---- parameter vector layout (kernels/layout.py: offsets follow from the sizes) --------------------------------------
_P = Layout("parameters")
P_MODE = _P.field()
P_MAX_TURNS = _P.field()
P_N_HUNTERS = _P.field()
P_N_NODES = _P.field()
P_FIGHT_OPTIONAL = _P.field()
P_NESTED_COUNTS = _P.field()
P_REVEAL_ON_ENTER = _P.field()
P_CARRIER_PASS = _P.field()
P_PICKUP_CLEAR = _P.field()
P_REROLL = _P.field()
P_SPOOK_RANGE = _P.field()
P_MOVE_WRAP = _P.field()
P_HAND_SIZE = _P.field()
P_HAUNTINGS = _P.field()
P_N_MOVE_FACES = _P.field()
P_N_FIGHT_FACES = _P.field()
P_N_CARDS = _P.field()
P_N_START = _P.field()
P_STAY_FIGHTS = _P.field()
P_WAIT_OUTSIDE = _P.field()  # C8 option: a carrier of a jewel that cannot leave yet may go outside and wait
P_PICKUP_HAUNTED = _P.field()  # C14: a jewel may be picked up in a haunted room
P_PICKUP_STAYING = _P.field()  # C15: a hunter that stays put may pick up a jewel where it stands
P_GROUP_DISTINCT = _P.field()  # C16 option: a group card's second ghost skips the room the first one landed in
P_HELPER_REROLL = _P.field()  # C17 option: the helper's player decides on the helper's reroll card
P_MOVE_FACES = _P.field(MAX_FACES)
P_MOVE_GHOST = _P.field(MAX_FACES)
P_FIGHT_FACES = _P.field(MAX_FACES)
P_JEWEL_ROOMS = _P.field(N_JEWELS)
P_START_ROOMS = _P.field(N_ROOMS)
P_CARD_TYPE = _P.field(MAX_CARDS)
P_CARD_X = _P.field(MAX_CARDS)
P_NODE_KIND = _P.field(MAX_NODES)
P_ADJ = _P.field(MAX_NODES * MAX_DEG)
P_ADJC = _P.field(MAX_NODES * MAX_DEG)
P_ROOM_DOORCOL = _P.field(N_ROOMS * 3)
P_DIST = _P.field(3 * MAX_NODES * MAX_NODES)  # [3 lock states][MAX_NODES][MAX_NODES]
P_NBR = _P.field(3 * MAX_NODES)  # [3 lock states][MAX_NODES] neighbours through open links (bit set)
P_HALL = _P.field()  # the hallway squares (bit set)
P_SIZE = _P.end()

# ---- state vector layout ---------------------------------------------------------------------------------------------
_S = Layout("state")
S_PHASE = _S.field()
S_MODE = _S.field()
S_NH = _S.field()  # hunters in play
S_CUR = _S.field()  # hunter whose turn it is
S_TURNS = _S.field()  # hunter turns started
S_ROUNDS = _S.field()  # rounds started
S_ROLL = _S.field()  # movement die value
S_FACE = _S.field()  # movement die face index
S_STAGE = _S.field()  # STG_SETUP until the first turn
S_LOCK = _S.field()  # locked door colour (0 none)
S_LOCK_CARD = _S.field()  # the door card beside the discard pile, -1 none
S_NDRAW = _S.field()  # cards in the draw pile (top = S_DRAW[S_NDRAW - 1])
S_DRAW_LEFT = _S.field()  # cards still to draw for a Draw 2/3 + Shuffle
S_SHUF_PEND = _S.field()  # a shuffle is due once the draws are done
S_MID_SHUF = _S.field()  # the shuffle in progress only refills an empty draw pile
S_REFILL = _S.field()  # the Head Haunter refills the hand once the card is resolved
S_PEND_CARD = _S.field()  # card waiting for the Head Haunter's target, -1 none
S_PEND_NESTED = _S.field()
S_SPOOK_H = _S.field()  # hunter being spooked, -1 none
S_HAUNTS = _S.field()  # hauntings on the board
S_GHOSTS_ON = _S.field()  # ghosts on the board
S_DELIVERED = _S.field()  # jewels in the wagon
S_OUTCOME = _S.field()
S_HAUNT_MAX = _S.field()
S_HAND_N = _S.field()
S_FKIND = _S.field()  # 0 fight ghosts, 1 unhaunt
S_HELPER = _S.field()  # helping hunter, -1 none
S_NDICE = _S.field()
S_DIE = _S.field(2)  # 2 fight dice (face codes F_*)
S_DIE_NEXT = _S.field()
S_RR = _S.field(2)  # 2 flags: fight die already rerolled
S_RR_DIE = _S.field()  # die being rerolled
S_PRIMARY = _S.field()  # the rolled ghost face still has to flip a card (co-op)
S_FIRST = _S.field()  # seat of hunter 0
S_SUPPLY_G = _S.field()  # ghosts in the supply
S_SUPPLY_H = _S.field()  # hauntings in the supply
S_NPLAYERS = _S.field()
S_MOVE_FROM = _S.field()  # node the active hunter started its move on
S_DECISIONS = _S.field()
S_FIGHTS = _S.field()
S_FIGHTS_WON = _S.field()
S_GHOSTS_REMOVED = _S.field()
S_UNHAUNT_TRIES = _S.field()
S_UNHAUNTS = _S.field()
S_SHUFFLES = _S.field()
S_LOCK_TURNS = _S.field()
S_GHOSTS_PLACED = _S.field()
S_HAUNTS_MADE = _S.field()
S_OVERFLOWS = _S.field()
S_REROLLS = _S.field()
S_HH_PLAYED = _S.field()
S_SIX_DISCARDS = _S.field()
S_SPOOKS = _S.field()
S_GHOSTS_MOVED = _S.field()
S_JEWELS_DROPPED = _S.field()
S_STUCK_EVENTS = _S.field()
S_SKIPS = _S.field()  # nested shuffle cards skipped in this Draw resolution (option C5)
S_RR_HELPER = _S.field()  # C17 option: the helper's player is deciding on the helper's reroll card
_S.reserve(4)  # spare: the per-room arrays start at 64 as before
S_GHOSTS = _S.field(N_ROOMS)  # ghosts per room
S_HAUNTED = _S.field(N_ROOMS)  # 1 when the room holds a haunting
S_HPOS = _S.field(MAX_HUNTERS)  # node of each hunter, -1 unused
S_HCARRY = _S.field(MAX_HUNTERS)  # jewel carried, -1 none
S_HREROLL = _S.field(MAX_HUNTERS)  # 1 while the hunter's reroll card is unused
S_HSEAT = _S.field(MAX_HUNTERS)  # seat controlling the hunter
S_JLOC = _S.field(N_JEWELS)  # jewel location (node, -1 - h carried, J_WAGON)
S_JNUM = _S.field(N_JEWELS)  # number on the back (advanced game)
S_JREV = _S.field(N_JEWELS)  # 1 when the number is face up
S_HAND = _S.field(MAX_HAND)  # Head Haunter's hand, -1 empty
S_CLOC = _S.field(MAX_CARDS)  # location of each card (CL_*)
S_DRAW = _S.field(MAX_CARDS)  # draw pile, bottom first
S_CURVE_H = _S.field(CURVE_MAX)  # hauntings after round r+1 (-1 = not reached)
S_CURVE_G = _S.field(CURVE_MAX)  # ghosts on the board after round r+1
S_SIZE = _S.end()

STG_SETUP = 0
STG_TURN = 1

# ---- phases ------------------------------------------------------------------------------------------------------
PH_SHUFFLE = 0  # chance: a new draw pile order (apply_shuffle)
PH_ROLL = 1  # chance: movement die face
PH_REROLL_MOVE = 2  # decision (hunter): keep the movement die or use the reroll card
PH_REROLL_ROLL = 3  # chance: the rerolled movement die
PH_SIX_PICK = 4  # chance: which hand card a rolled 6 discards
PH_HH_PLAY = 5  # decision (Head Haunter): which hand card to play
PH_HH_TARGET = 6  # decision (Head Haunter): where the pending card acts
PH_SPOOK_DEST = 7  # decision (Head Haunter): where the spooked hunter goes
PH_MOVE = 8  # decision (hunter): destination
PH_PICKUP = 9  # decision (hunter): pick up a jewel here or not
PH_FIGHT_CHOICE = 10  # decision (hunter): fight the ghosts here (fight_optional only)
PH_FIGHT_ROLL = 11  # chance: one fight die face (S_DIE_NEXT of S_NDICE)
PH_REROLL_FIGHT = 12  # decision (active hunter): keep or reroll one failed fight die
PH_REROLL_FIGHT_ROLL = 13  # chance: the rerolled fight die
PH_OVER = 14
HH_PHASES = (PH_HH_PLAY, PH_HH_TARGET, PH_SPOOK_DEST)

# ---- actions -----------------------------------------------------------------------------------------------------
A_MOVE = 0  # + destination node (0..63): PH_MOVE, PH_SPOOK_DEST
A_PASS = 64  # keep / do not pick up / do not fight
A_PICK = 65  # + jewel (0..7)
A_FIGHT = 73
A_REROLL0 = 74  # reroll the movement die, or fight die 0 (the active hunter's)
A_REROLL1 = 75  # reroll fight die 1 (the helper's)
A_SLOT = 76  # + hand slot (0..4)
A_ROOM = 81  # + room (0..11): Add 1, Add 2, door card (Head Haunter)
A_PAIR = 93  # + pair index (0..5) of a letter-group card
A_MOVEG = 99  # + source room * 2 + direction (0 up the alphabet, 1 down): Move Ghost
A_SPOOK = 123  # + hunter (0..3)
N_ACTIONS = 128
W_NREACH = 192  # work[W_NREACH]: destinations of the last move search (see move_targets)
WORK_SIZE = W_NREACH + 1  # int32 scratch a move search needs (legal_actions, apply_action_with)

# ---- event log (replay) -------------------------------------------------------------------------------------------
E_TURN = 1  # hunter, seat, round
E_ROLL = 2  # hunter, value, ghost icon, rerolled
E_CARD = 3  # card, type, nested, played by the Head Haunter
E_GHOST = 4  # room asked, room placed, ghosts there now, new ghost (1) or moved (0)
E_HAUNT = 5  # room, hauntings on the board
E_SHUFFLE = 6  # cards in the new pile, doors unlocked (1)
E_LOCK = 7  # colour
E_MOVE = 8  # hunter, from, to
E_REVEAL = 9  # jewel, number, node
E_PICK = 10  # hunter, jewel, node
E_DELIVER = 11  # hunter, jewel, number, jewels in the wagon
E_WAIT = 12  # hunter, jewel, number (outside, not removable yet)
E_FIGHT = 13  # hunter, helper, die0 * 3 + die1 (die1 = -1 without helper -> code < 0 n/a), removed
E_UNHAUNT = 14  # hunter, helper, die0 * 3 + die1, success
E_REROLL = 15  # hunter, die (0 movement, 1 fight die 0, 2 fight die 1)
E_SIX = 16  # hunter, card, type
E_SPOOK = 17  # hunter, jewel dropped (-1 none), node
E_SPOOK_MOVE = 18  # hunter, from, to
E_MOVE_GHOST = 19  # from room, to room (asked)
E_STUCK = 20  # hunter, room
E_NO_EFFECT = 21  # card, type
E_NESTED = 22  # card, type, counts (1) or skipped (0)
E_END = 23  # outcome
E_TARGET = 24  # card, type, action
E_HAND = 25  # card, type, hand slot: the Head Haunter draws it into its hand


@njit("boolean(int64)")
def is_room(v):
    return ROOM0 <= v < ROOM0 + N_ROOMS


@njit("int64(int64[::1], int64, int64, int64)")
def dist(prm, lock, a, b):
    """Shortest number of spaces from node a to node b with the doors of colour ``lock`` closed (static board)."""
    return prm[P_DIST + (lock * MAX_NODES + a) * MAX_NODES + b]


@njit("int64(int32[::1], int64, int64)")
def hunters_at(st, v, skip):
    """Number of hunters on node ``v`` other than hunter ``skip``."""
    c = 0
    for h in range(st[S_NH]):
        if h != skip and st[S_HPOS + h] == v:
            c += 1
    return c


@njit("boolean(int32[::1], int64)")
def is_stuck(st, h):
    """R22: a hunter holding a jewel in a haunted room cannot move."""
    v = st[S_HPOS + h]
    return st[S_HCARRY + h] >= 0 and is_room(v) and st[S_HAUNTED + v - ROOM0] == 1


@njit("boolean(int32[::1], int64)")
def removable(st, j):
    """R29: in the advanced game a jewel leaves the house only as the next number; otherwise always."""
    if st[S_MODE] != MODE_ADVANCED:
        return True
    return st[S_JNUM + j] == st[S_DELIVERED] + 1


@njit("void(int32[::1])")
def record_curve(st):
    r = st[S_ROUNDS] - 1
    if 0 <= r < CURVE_MAX:
        st[S_CURVE_H + r] = st[S_HAUNTS]
        st[S_CURVE_G + r] = st[S_GHOSTS_ON]


@njit("void(int32[::1], int64, int32[:, ::1])")
def set_over(st, outcome, log):
    st[S_PHASE] = PH_OVER
    st[S_OUTCOME] = outcome
    record_curve(st)
    log_event(log, st[S_TURNS], E_END, outcome, 0, 0, 0)


# ---- setup -------------------------------------------------------------------------------------------------------
@njit
def init(st, prm, n_players, first):
    """R1–R4: board, hunters outside, ghosts in the start rooms, jewels in the jewel rooms, reroll cards, the deck
    of this mode in canonical order (the first chance node shuffles it). ``first`` is the seat of hunter 0 (in the
    Head Haunter game a hunter seat 1..n-1)."""
    st[:] = 0
    mode = prm[P_MODE]
    nh = prm[P_N_HUNTERS]
    st[S_MODE] = mode
    st[S_NH] = nh
    st[S_NPLAYERS] = n_players
    st[S_FIRST] = first
    st[S_OUTCOME] = OUT_NONE
    st[S_LOCK_CARD] = -1
    st[S_PEND_CARD] = -1
    st[S_SPOOK_H] = -1
    st[S_HELPER] = -1
    for h in range(MAX_HUNTERS):
        st[S_HPOS + h] = -1
        st[S_HCARRY + h] = -1
        st[S_HSEAT + h] = -1
    for h in range(nh):
        st[S_HPOS + h] = OUTSIDE
        st[S_HREROLL + h] = 1 if (mode == MODE_HH and prm[P_REROLL] == 1) else 0
        if mode == MODE_HH:
            m = n_players - 1
            st[S_HSEAT + h] = 1 + (first - 1 + h) % m
        else:
            st[S_HSEAT + h] = (first + h) % n_players
    st[S_SUPPLY_G] = N_GHOSTS
    st[S_SUPPLY_H] = prm[P_HAUNTINGS]
    for i in range(prm[P_N_START]):
        r = prm[P_START_ROOMS + i]
        st[S_GHOSTS + r] += 1
        st[S_GHOSTS_ON] += 1
        st[S_SUPPLY_G] -= 1
    for j in range(N_JEWELS):
        st[S_JLOC + j] = ROOM0 + prm[P_JEWEL_ROOMS + j]
        st[S_JNUM + j] = j + 1
    for i in range(MAX_HAND):
        st[S_HAND + i] = -1
    nc = prm[P_N_CARDS]
    for c in range(MAX_CARDS):
        st[S_CLOC + c] = CL_DRAW if c < nc else CL_NONE
        st[S_DRAW + c] = c if c < nc else -1
    st[S_NDRAW] = nc
    for r in range(CURVE_MAX):
        st[S_CURVE_H + r] = -1
        st[S_CURVE_G + r] = -1
    st[S_STAGE] = STG_SETUP
    st[S_SHUF_PEND] = 1
    st[S_REFILL] = 1 if mode == MODE_HH else 0
    st[S_PHASE] = PH_SHUFFLE


@njit
def set_jewel_numbers(st, nums):
    """R26: the numbers on the backs of jewels 0..7 (a permutation of 1..8, chance; face down)."""
    for j in range(N_JEWELS):
        st[S_JNUM + j] = nums[j]


@njit
def shuffle_pool(st, pool):
    """The cards a shuffle collects (draw pile, discard pile, the door card), in card-id order; returns how many.

    The caller permutes ``pool[0:n]`` (chance) and passes it to `apply_shuffle`.
    """
    n = 0
    for c in range(MAX_CARDS):
        loc = st[S_CLOC + c]
        if loc == CL_DRAW or loc == CL_DISCARD or loc == CL_DOOR:
            pool[n] = c
            n += 1
    return n


@njit
def apply_shuffle(st, prm, order, n, log):
    """R8/R24: the collected cards become the draw pile in ``order`` (order[n-1] on top); every door unlocks."""
    for i in range(n):
        c = order[i]
        st[S_DRAW + i] = c
        st[S_CLOC + c] = CL_DRAW
    for i in range(n, MAX_CARDS):
        st[S_DRAW + i] = -1
    st[S_NDRAW] = n
    unlocked = 0
    if st[S_LOCK] != 0:
        unlocked = 1
    st[S_LOCK] = 0
    st[S_LOCK_CARD] = -1
    if st[S_STAGE] != STG_SETUP:
        st[S_SHUFFLES] += 1
        log_event(log, st[S_TURNS], E_SHUFFLE, n, unlocked, 0, 0)
    if st[S_MID_SHUF] == 1:
        st[S_MID_SHUF] = 0
    else:
        st[S_SHUF_PEND] = 0
    advance(st, prm, log)


@njit("int64(int32[::1], int64)")
def count_loc(st, loc):
    c = 0
    for i in range(MAX_CARDS):
        if st[S_CLOC + i] == loc:
            c += 1
    return c


@njit("int64(int32[::1])")
def draw_top(st):
    n = st[S_NDRAW] - 1
    c = st[S_DRAW + n]
    st[S_DRAW + n] = -1
    st[S_NDRAW] = n
    st[S_CLOC + c] = CL_PLAY
    return c


@njit("void(int32[::1], int64[::1], int64)")
def finish_card(st, prm, c):
    """R35: after use a card goes to the discard pile, or out of the game when it is single-use (X) in the Head
    Haunter game."""
    if st[S_MODE] == MODE_HH and prm[P_CARD_X + c] == 1:
        st[S_CLOC + c] = CL_REMOVED
    else:
        st[S_CLOC + c] = CL_DISCARD


# ---- ghosts and hauntings ----------------------------------------------------------------------------------------
@njit("boolean(int32[::1], int32[:, ::1])")
def check_stuck_loss(st, log):
    """R23/R40: every hunter stuck holding a jewel, each in a different haunted room -> the hunters lose."""
    nh = st[S_NH]
    for h in range(nh):
        if not is_stuck(st, h):
            return False
        for k in range(h):
            if st[S_HPOS + k] == st[S_HPOS + h]:
                return False
    set_over(st, OUT_HH_STUCK if st[S_MODE] == MODE_HH else OUT_STUCK, log)
    return True


@njit("void(int32[::1], int64[::1], int64, int32[:, ::1])")
def make_haunting(st, prm, r, log):
    """R18: three ghosts in a room become a haunting (ghosts back to the supply); the sixth haunting ends the game."""
    st[S_GHOSTS + r] -= 3
    st[S_GHOSTS_ON] -= 3
    st[S_SUPPLY_G] += 3
    st[S_HAUNTED + r] = 1
    st[S_HAUNTS] += 1
    st[S_SUPPLY_H] -= 1
    st[S_HAUNTS_MADE] += 1
    if st[S_HAUNTS] > st[S_HAUNT_MAX]:
        st[S_HAUNT_MAX] = st[S_HAUNTS]
    log_event(log, st[S_TURNS], E_HAUNT, r, st[S_HAUNTS], 0, 0)
    for h in range(st[S_NH]):
        if st[S_HPOS + h] == ROOM0 + r and st[S_HCARRY + h] >= 0:
            st[S_STUCK_EVENTS] += 1
            log_event(log, st[S_TURNS], E_STUCK, h, r, 0, 0)
    if st[S_HAUNTS] >= prm[P_HAUNTINGS]:
        set_over(st, OUT_HH_SIX if st[S_MODE] == MODE_HH else OUT_SIX, log)
        return
    check_stuck_loss(st, log)


@njit("int64(int32[::1], int64[::1], int64, int64, int64, int32[:, ::1])")
def place_ghost_skip(st, prm, room, new, skip, log):
    """`place_ghost` that also moves on past room ``skip`` (-1: none), as a haunted room (C16: the second ghost of a
    letter-group card never joins the first)."""
    r = room
    k = 0
    while st[S_HAUNTED + r] == 1 or r == skip:
        r = (r + 1) % N_ROOMS
        k += 1
        if k >= N_ROOMS:
            return -1
    if r != room:
        st[S_OVERFLOWS] += 1
    st[S_GHOSTS + r] += 1
    st[S_GHOSTS_ON] += 1
    st[S_SUPPLY_G] -= 1
    if new:
        st[S_GHOSTS_PLACED] += 1
    log_event(log, st[S_TURNS], E_GHOST, room, r, st[S_GHOSTS + r], new)
    if st[S_GHOSTS + r] >= 3:
        make_haunting(st, prm, r, log)
    return r


@njit("int64(int32[::1], int64[::1], int64, int64, int32[:, ::1])")
def place_ghost(st, prm, room, new, log):
    """R7/R19: a ghost goes to ``room``; past haunted rooms it moves on A->B->...->L->A to the first room that is not
    haunted. A third ghost makes a haunting. Returns the room it landed in (-1: none, all haunted)."""
    return place_ghost_skip(st, prm, room, new, -1, log)


# ---- cards ---------------------------------------------------------------------------------------------------------
@njit("int64(int64[::1], int64, int64, int64)")
def move_ghost_target(prm, r, k, d):
    """R37: the room ``k`` letters up (d=0) or down (d=1) the alphabet from room r; -1 off the end (no wrap)."""
    t = r + k if d == 0 else r - k
    if prm[P_MOVE_WRAP] == 1:
        return t % N_ROOMS
    if t < 0 or t >= N_ROOMS:
        return -1
    return t


@njit("UniTuple(int64, 2)(int32[::1], int64[::1], int64)")
def target_set(st, prm, c):
    """Legal targets of Head Haunter card ``c`` as (first action, bit set): target ``first + i`` is legal when bit i
    is set (A_PAIR + pair, A_ROOM + room, A_MOVEG + room * 2 + direction, A_SPOOK + hunter); (0, 0) for none."""
    ct = prm[P_CARD_TYPE + c]
    bits = 0
    if CT_GROUP <= ct < CT_GROUP + 3:
        return A_PAIR, (1 << 6) - 1
    if ct == CT_ADD1 or ct == CT_ADD2:
        return A_ROOM, (1 << N_ROOMS) - 1
    if ct == CT_DOOR_BLUE or ct == CT_DOOR_GREEN:
        col = COL_BLUE if ct == CT_DOOR_BLUE else COL_GREEN
        for r in range(N_ROOMS):
            if prm[P_ROOM_DOORCOL + r * 3 + col] == 1:
                bits |= 1 << r
        return A_ROOM, bits
    if CT_MOVE <= ct < CT_MOVE + 3:
        k = ct - CT_MOVE + 1
        for r in range(N_ROOMS):
            if st[S_GHOSTS + r] > 0:
                for d in range(2):
                    if move_ghost_target(prm, r, k, d) >= 0:
                        bits |= 1 << (r * 2 + d)
        return A_MOVEG, bits
    if ct == CT_SPOOK:
        for h in range(st[S_NH]):
            if is_room(st[S_HPOS + h]):
                bits |= 1 << h
        return A_SPOOK, bits
    return 0, 0


@njit
def target_options(hh, st, prm, c, mask):
    """Legal targets (A_ROOM/A_PAIR/A_MOVEG/A_SPOOK) of Head Haunter card ``c``: sets mask entries, returns count.

    ``hh`` None (a co-op batch, see play.batch_scratch) returns 0 at once: Numba prunes the rest, so a co-op kernel
    never compiles the Head Haunter's target rules (never reached there: no Head Haunter phase occurs)."""
    if hh is None:
        return 0
    first, bits = target_set(st, prm, c)
    n = 0
    i = 0
    while bits != 0:
        if bits & 1:
            mask[first + i] = 1
            n += 1
        bits >>= 1
        i += 1
    return n


@njit("int64(int32[::1], int64[::1], int64)")
def needs_target(st, prm, c):
    """Number of targets a card needs a Head Haunter decision for (0: no choice to make / no effect)."""
    ct = prm[P_CARD_TYPE + c]
    if (
        (CT_GROUP <= ct < CT_GROUP + 3)
        or ct == CT_ADD1
        or ct == CT_ADD2
        or (CT_MOVE <= ct < CT_MOVE + 3)
        or ct == CT_SPOOK
        or (st[S_MODE] == MODE_HH and (ct == CT_DOOR_BLUE or ct == CT_DOOR_GREEN))
    ):
        bits = target_set(st, prm, c)[1]
        n = 0
        while bits != 0:
            n += bits & 1
            bits >>= 1
        return n
    return -1


@njit("int64(int32[::1], int64[::1], int64, int64, int64, int32[:, ::1])")
def resolve_card(st, prm, c, nested, by_hh, log):
    """R6–R8, R24–R25, R33–R39: resolve card ``c`` (drawn or played). Returns 1 when a Head Haunter target
    decision is now pending (phase PH_HH_TARGET), else 0."""
    ct = prm[P_CARD_TYPE + c]
    log_event(log, st[S_TURNS], E_CARD, c, ct, nested, by_hh)
    if ct < CT_SHUFFLE or (CT_HROOM <= ct < CT_HROOM + N_ROOMS):
        room = ct if ct < CT_SHUFFLE else ct - CT_HROOM
        finish_card(st, prm, c)
        place_ghost(st, prm, room, 1, log)
        return 0
    if ct == CT_SHUFFLE or ct == CT_DRAW2 or ct == CT_DRAW3:
        finish_card(st, prm, c)
        if nested == 1:
            if prm[P_NESTED_COUNTS] == 0 and st[S_SKIPS] < prm[P_N_CARDS]:
                st[S_DRAW_LEFT] += 1  # option: a nested shuffle card is skipped and replaced
                st[S_SKIPS] += 1  # (bounded: a deck of shuffle cards only cannot loop forever)
                log_event(log, st[S_TURNS], E_NESTED, c, ct, 0, 0)
            else:
                log_event(log, st[S_TURNS], E_NESTED, c, ct, 1, 0)
            return 0
        st[S_SHUF_PEND] = 1
        st[S_SKIPS] = 0
        if ct == CT_DRAW2:
            st[S_DRAW_LEFT] += 2
        elif ct == CT_DRAW3:
            st[S_DRAW_LEFT] += 3
        return 0
    if (ct == CT_DOOR_BLUE or ct == CT_DOOR_GREEN) and st[S_MODE] != MODE_HH:
        col = COL_BLUE if ct == CT_DOOR_BLUE else COL_GREEN
        old = st[S_LOCK_CARD]
        if old >= 0:
            st[S_CLOC + old] = CL_DISCARD
        st[S_CLOC + c] = CL_DOOR
        st[S_LOCK_CARD] = c
        st[S_LOCK] = col
        log_event(log, st[S_TURNS], E_LOCK, col, 0, 0, 0)
        return 0
    n = needs_target(st, prm, c)
    if n <= 0:
        log_event(log, st[S_TURNS], E_NO_EFFECT, c, ct, 0, 0)
        finish_card(st, prm, c)
        return 0
    st[S_PEND_CARD] = c
    st[S_PEND_NESTED] = nested
    st[S_PHASE] = PH_HH_TARGET
    return 1


@njit
def advance(st, prm, log):
    """Carry on after a resolved step: pending card draws, the due shuffle, the Head Haunter's refill, then the
    first turn (setup) or the active hunter's move."""
    while True:
        if st[S_PHASE] == PH_OVER:
            return
        if st[S_PRIMARY] == 1 or st[S_DRAW_LEFT] > 0:
            if st[S_NDRAW] == 0:
                if count_loc(st, CL_DISCARD) + count_loc(st, CL_DOOR) > 0:
                    st[S_MID_SHUF] = 1  # A9: an empty draw pile is refilled from the discard pile
                    st[S_PHASE] = PH_SHUFFLE
                    return
                st[S_PRIMARY] = 0
                st[S_DRAW_LEFT] = 0
                continue
            c = draw_top(st)
            nested = 1
            if st[S_PRIMARY] == 1:
                st[S_PRIMARY] = 0
                nested = 0
            else:
                st[S_DRAW_LEFT] -= 1
            if resolve_card(st, prm, c, nested, 0, log) == 1:
                return
            continue
        if st[S_SHUF_PEND] == 1:
            st[S_PHASE] = PH_SHUFFLE
            return
        if st[S_REFILL] == 1:
            hs = prm[P_HAND_SIZE]
            while st[S_HAND_N] < hs:
                if st[S_NDRAW] == 0:
                    if count_loc(st, CL_DISCARD) > 0:
                        st[S_MID_SHUF] = 1
                        st[S_PHASE] = PH_SHUFFLE
                        return
                    break
                c = draw_top(st)
                st[S_CLOC + c] = CL_HAND
                st[S_HAND + st[S_HAND_N]] = c
                log_event(log, st[S_TURNS], E_HAND, c, prm[P_CARD_TYPE + c], st[S_HAND_N], 0)
                st[S_HAND_N] += 1
            st[S_REFILL] = 0
            continue
        if st[S_STAGE] == STG_SETUP:
            st[S_STAGE] = STG_TURN
            start_turn(st, prm, log)
            return
        if st[S_LOCK] != 0:
            st[S_LOCK_TURNS] += 1
        st[S_PHASE] = PH_MOVE
        return


# ---- turn ----------------------------------------------------------------------------------------------------------
@njit
def start_turn(st, prm, log):
    """R5: the next hunter rolls (the turn cap truncates the game instead)."""
    if st[S_TURNS] >= prm[P_MAX_TURNS]:
        set_over(st, OUT_TRUNC, log)
        return
    h = st[S_CUR]
    if h == 0:
        st[S_ROUNDS] += 1
    st[S_TURNS] += 1
    st[S_PHASE] = PH_ROLL
    log_event(log, st[S_TURNS], E_TURN, h, st[S_HSEAT + h], st[S_ROUNDS], 0)


@njit("int64(int32[::1], int64)")
def hand_remove(st, slot):
    """Take the card in hand ``slot`` out of the hand (the last card fills the gap); returns it."""
    c = st[S_HAND + slot]
    last = st[S_HAND_N] - 1
    st[S_HAND + slot] = st[S_HAND + last]
    st[S_HAND + last] = -1
    st[S_HAND_N] = last
    return c


@njit
def after_roll(st, prm, log):
    """R6 (co-op: flip a ghost card on a ghost face), R31/R32 (Head Haunter: play a card, or lose one on a 6)."""
    ghost = prm[P_MOVE_GHOST + st[S_FACE]] == 1
    if st[S_MODE] != MODE_HH:
        if ghost:
            st[S_PRIMARY] = 1
        advance(st, prm, log)
        return
    if ghost:
        if st[S_HAND_N] > 0:
            st[S_PHASE] = PH_HH_PLAY
            return
        st[S_REFILL] = 1  # R31: an empty hand plays nothing but still refills
        advance(st, prm, log)
        return
    if st[S_HAND_N] > 0:
        st[S_PHASE] = PH_SIX_PICK  # R32: a random hand card is discarded, no refill
        return
    advance(st, prm, log)


@njit("int64(int32[::1], int64)")
def fight_die_count(st, kind):
    """Number of dice in the current fight showing the success face (ghost icon, or haunting icon to unhaunt)."""
    want = F_GHOST if kind == 0 else F_HAUNT
    c = 0
    for i in range(st[S_NDICE]):
        if st[S_DIE + i] == want:
            c += 1
    return c


@njit("int64(int32[::1])")
def fight_rerolls(st):
    """R30: bit set of the fight dice that may still be rerolled (bit i: die i; its owner holds an unused reroll
    card, the die was not rerolled yet and is not already a success, and the fight is not already won outright)."""
    if st[S_MODE] != MODE_HH:
        return 0
    kind = st[S_FKIND]
    want = F_GHOST if kind == 0 else F_HAUNT
    succ = fight_die_count(st, kind)
    room = st[S_HPOS + st[S_CUR]] - ROOM0
    if kind == 0:
        if succ >= st[S_GHOSTS + room]:
            return 0
    elif succ > 0:
        return 0
    bits = 0
    for i in range(st[S_NDICE]):
        owner = st[S_CUR] if i == 0 else st[S_HELPER]
        if st[S_RR + i] == 0 and st[S_DIE + i] != want and st[S_HREROLL + owner] == 1:
            bits |= 1 << i
    return bits


@njit("int64(int32[::1], int8[::1])")
def fight_reroll_options(st, mask):
    """R30: sets A_REROLL0/1 in mask for the fight dice that may still be rerolled (`fight_rerolls`); returns count."""
    bits = fight_rerolls(st)
    n = 0
    for i in range(2):
        if (bits >> i) & 1:
            mask[A_REROLL0 + i] = 1
            n += 1
    return n


@njit
def after_fight_dice(st, prm, log):
    """After a fight die (or a reroll): offer the rerolls still possible, else resolve. C17 option: the active
    hunter decides on its own die first, then the helper's player on the helper's die (S_RR_HELPER)."""
    bits = fight_rerolls(st)
    if bits != 0:
        st[S_RR_HELPER] = 1 if prm[P_HELPER_REROLL] == 1 and (bits & 1) == 0 else 0
        st[S_PHASE] = PH_REROLL_FIGHT
        return
    resolve_fight(st, prm, log)


@njit
def resolve_fight(st, prm, log):
    """R16/R20: each ghost icon removes one ghost; a haunting icon on either die removes the haunting."""
    h = st[S_CUR]
    r = st[S_HPOS + h] - ROOM0
    d1 = st[S_DIE + 1] if st[S_NDICE] == 2 else -1
    code = st[S_DIE] * 3 + d1 if d1 >= 0 else -1 - st[S_DIE]
    if st[S_FKIND] == 0:
        icons = fight_die_count(st, 0)
        rem = icons if icons < st[S_GHOSTS + r] else st[S_GHOSTS + r]
        st[S_GHOSTS + r] -= rem
        st[S_GHOSTS_ON] -= rem
        st[S_SUPPLY_G] += rem
        st[S_GHOSTS_REMOVED] += rem
        if rem > 0:
            st[S_FIGHTS_WON] += 1
        log_event(log, st[S_TURNS], E_FIGHT, h, st[S_HELPER], code, rem)
    else:
        ok = 1 if fight_die_count(st, 1) > 0 else 0
        if ok == 1:
            st[S_HAUNTED + r] = 0
            st[S_HAUNTS] -= 1
            st[S_SUPPLY_H] += 1
            st[S_UNHAUNTS] += 1
        log_event(log, st[S_TURNS], E_UNHAUNT, h, st[S_HELPER], code, ok)
    st[S_HELPER] = -1
    end_turn(st, prm, log)


@njit("int64(int32[::1], int64, int64)")
def choose_helper(st, h, v):
    """R16: one other hunter in the room rolls the second die; the one with an unused reroll card, else the first."""
    best = -1
    for k in range(st[S_NH]):
        if k != h and st[S_HPOS + k] == v:
            if best < 0 or (st[S_HREROLL + k] == 1 and st[S_HREROLL + best] == 0):
                best = k
    return best


@njit("void(int32[::1], int64)")
def start_fight(st, kind):
    h = st[S_CUR]
    helper = choose_helper(st, h, st[S_HPOS + h])
    st[S_FKIND] = kind
    st[S_HELPER] = helper
    st[S_NDICE] = 2 if helper >= 0 else 1
    st[S_DIE_NEXT] = 0
    st[S_DIE] = -1
    st[S_DIE + 1] = -1
    st[S_RR] = 0
    st[S_RR + 1] = 0
    st[S_RR_HELPER] = 0
    if kind == 0:
        st[S_FIGHTS] += 1
    else:
        st[S_UNHAUNT_TRIES] += 1
    st[S_PHASE] = PH_FIGHT_ROLL


@njit
def fight_step(st, prm, log):
    """R15/R20: a hunter ending its move in a room with ghosts must fight them; with a haunting and another hunter
    in the room, the two try to unhaunt it."""
    h = st[S_CUR]
    v = st[S_HPOS + h]
    if is_room(v):
        r = v - ROOM0
        if st[S_GHOSTS + r] > 0:
            if prm[P_FIGHT_OPTIONAL] == 1:
                st[S_PHASE] = PH_FIGHT_CHOICE
                return
            start_fight(st, 0)
            return
        if st[S_HAUNTED + r] == 1 and hunters_at(st, v, h) > 0:
            start_fight(st, 1)
            return
    end_turn(st, prm, log)


@njit
def end_turn(st, prm, log):
    """R21/R23/R28: win when all jewels are out and every hunter is outside; the stuck and (advanced) unremovable-
    jewel losses; then the next hunter's turn."""
    nh = st[S_NH]
    record_curve(st)
    if st[S_DELIVERED] == N_JEWELS:
        allout = True
        for h in range(nh):
            if st[S_HPOS + h] != OUTSIDE:
                allout = False
        if allout:
            set_over(st, OUT_WIN, log)
            return
    if check_stuck_loss(st, log):
        return
    if st[S_MODE] == MODE_ADVANCED:
        lost = True
        for h in range(nh):
            j = st[S_HCARRY + h]
            if j < 0 or removable(st, j):
                lost = False
        if lost:
            set_over(st, OUT_JEWELS, log)
            return
    st[S_CUR] = (st[S_CUR] + 1) % nh
    start_turn(st, prm, log)


@njit("void(int32[::1], int64, int32[:, ::1])")
def reveal_room(st, v, log):
    """R27: jewels in room ``v`` are turned face up (advanced game)."""
    for j in range(N_JEWELS):
        if st[S_JLOC + j] == v and st[S_JREV + j] == 0:
            st[S_JREV + j] = 1
            log_event(log, st[S_TURNS], E_REVEAL, j, st[S_JNUM + j], v, 0)


@njit("int64(int32[::1], int64[::1], int64, int64, boolean, int8[::1], int32[::1])")
def move_targets(st, prm, h, steps, as_carrier, mask, work):
    """R9–R13: where hunter ``h`` may end a move of up to ``steps`` spaces; sets mask[A_MOVE + node], returns count.

    Entering a room, square or outside costs 1, doors 0; closed doors (the locked colour) are impassable; outside
    ends a move; a carrier (``as_carrier``) may not pass through a haunted room (it may stop in it) unless
    carrier_may_pass_haunted; a hallway square holding another hunter may be passed, not stopped on; a carrier of a
    jewel that cannot be removed yet (R31) may not go outside unless carrier_may_wait_outside (C8).
    work[64:64 + n] receives the legal destinations in node order, work[W_NREACH] their count n.

    Breadth-first by sets (nodes < 64: one uint64): each step ORs the neighbour sets (prm P_NBR, per locked colour)
    of the nodes the move may go on from. `move_search` is the same search node by node, with the paths.
    """
    one = np.uint64(1)
    u = nonneg(st[S_HPOS + h])
    if as_carrier and is_stuck(st, h):
        work[64] = u
        work[W_NREACH] = 1
        mask[A_MOVE + u] = 1
        return 1
    nbr = P_NBR + nonneg(st[S_LOCK]) * MAX_NODES
    stop = one  # outside ends a move
    if as_carrier and prm[P_CARRIER_PASS] != 1:
        for r in range(N_ROOMS):
            stop |= np.uint64(st[S_HAUNTED + r] == 1) << np.uint64(ROOM0 + r)
    seen = one << np.uint64(u)
    front = seen  # where the move goes on from (the start even when outside)
    for _ in range(steps):
        nxt = np.uint64(0)
        while front != 0:
            nxt |= np.uint64(prm[nbr + lowest_bit(front)])
            front &= front - one
        nxt &= ~seen
        if nxt == 0:
            break
        seen |= nxt
        front = nxt & ~stop
    occ = np.uint64(0)
    for k in range(st[S_NH]):
        p = st[S_HPOS + k]
        if k != h and p >= 0 and p != u:
            occ |= one << np.uint64(p)
    seen &= ~(occ & np.uint64(prm[P_HALL]))
    j = st[S_HCARRY + h]
    if (
        as_carrier
        and j >= 0
        and u != OUTSIDE
        and (seen & one) != 0
        and prm[P_WAIT_OUTSIDE] == 0
        and not removable(st, j)
    ):
        seen &= ~one  # R31/C8: a jewel that is not the next number may not leave the house
    n = 0
    while seen != 0:
        v = lowest_bit(seen)
        seen &= seen - one
        mask[A_MOVE + v] = 1
        work[64 + n] = v
        n += 1
    work[W_NREACH] = n
    return n


@njit
def move_search(adv, st, prm, h, steps, as_carrier, mask, work):
    """`move_targets` as a breadth-first search over nodes that also records the paths (what `do_move` needs to
    turn up the jewels on the way, reveal_jewel_on_enter); sets the same mask entries and returns the same count.
    ``adv`` None (a basic or Head Haunter batch, where no move reveals jewels): nothing, returns 0, and Numba
    compiles none of the search (as `haunter_decide` with ``hh``).

    Search: entering a room, square or outside costs 1, doors 0; closed doors (the locked colour) are
    impassable; outside ends a move; a carrier (``as_carrier``) may not pass through a haunted room (it may stop in
    it) unless carrier_may_pass_haunted; a hallway square holding another hunter may be passed, not stopped on;
    a carrier of a jewel that cannot be removed yet (R31) may not go outside unless carrier_may_wait_outside (C8).
    work[0:64] receives the distance of each node (-1 unreached), work[64:128] the search order, work[128:192] the
    node each was reached from. Over 60 lines on purpose: one search loop and the mask it fills, read as one clause.
    """
    if adv is None:
        return 0
    u = st[S_HPOS + h]
    nn = prm[P_N_NODES]
    for v in range(nn):
        work[v] = -1
    work[128 + u] = -1
    if as_carrier and is_stuck(st, h):
        work[u] = 0
        work[64] = u
        work[W_NREACH] = 1
        mask[A_MOVE + u] = 1
        return 1
    lock = st[S_LOCK]
    pass_ok = prm[P_CARRIER_PASS] == 1
    work[u] = 0
    work[64] = u
    head = 0
    tail = 1
    while head < tail:
        v = work[64 + head]
        head += 1
        dv = work[v]
        if dv >= steps:
            continue
        if v != u:
            if v == OUTSIDE:
                continue
            if as_carrier and is_room(v) and st[S_HAUNTED + v - ROOM0] == 1 and not pass_ok:
                continue
        base = P_ADJ + v * MAX_DEG
        for k in range(MAX_DEG):
            w = prm[base + k]
            if w < 0:
                break
            if lock != 0 and prm[P_ADJC + v * MAX_DEG + k] == lock:
                continue
            if work[w] < 0:
                work[w] = dv + 1
                work[128 + w] = v
                work[64 + tail] = w
                tail += 1
    n = 0
    work[W_NREACH] = tail
    for i in range(tail):
        w = work[64 + i]
        mask[A_MOVE + w] = 1
        n += 1
    for k in range(st[S_NH]):
        if k != h:
            p = st[S_HPOS + k]
            if p >= 0 and prm[P_NODE_KIND + p] == NODE_HALL and p != u and mask[A_MOVE + p] == 1:
                mask[A_MOVE + p] = 0
                n -= 1
    j = st[S_HCARRY + h]
    if (
        as_carrier
        and j >= 0
        and u != OUTSIDE
        and mask[A_MOVE + OUTSIDE] == 1
        and prm[P_WAIT_OUTSIDE] == 0
        and not removable(st, j)
    ):
        mask[A_MOVE + OUTSIDE] = 0  # R31/C8: a jewel that is not the next number may not leave the house
        n -= 1
    return n


@njit
def do_move(adv, st, prm, d, log, mask, work):
    """R9–R14, R17, R22, R27: the active hunter ends its move on node ``d``; drop-off outside, reveal, then the
    pick-up decision or the fight. ``mask`` (int8[N_ACTIONS]) and ``work`` (int32[>= WORK_SIZE]) are scratch for the
    move search that finds the path (reveal_jewel_on_enter: `move_search`, the nodes on the way). ``adv`` None: a
    batch of basic or Head Haunter games, compiled without that search (`move_search`)."""
    h = st[S_CUR]
    u = st[S_HPOS + h]
    st[S_MOVE_FROM] = u
    if prm[P_REVEAL_ON_ENTER] == 1 and st[S_MODE] == MODE_ADVANCED and d != u:
        move_search(adv, st, prm, h, st[S_ROLL], st[S_HCARRY + h] >= 0, mask, work)
        v = work[128 + d]
        while v >= 0 and v != u:
            if is_room(v):
                reveal_room(st, v, log)
            v = work[128 + v]
    st[S_HPOS + h] = d
    if d != u:
        log_event(log, st[S_TURNS], E_MOVE, h, u, d, 0)
    j = st[S_HCARRY + h]
    if d == OUTSIDE:
        if j >= 0:
            if removable(st, j):
                st[S_JLOC + j] = J_WAGON
                st[S_HCARRY + h] = -1
                st[S_DELIVERED] += 1
                log_event(log, st[S_TURNS], E_DELIVER, h, j, st[S_JNUM + j], st[S_DELIVERED])
            else:
                log_event(log, st[S_TURNS], E_WAIT, h, j, st[S_JNUM + j], 0)
        end_turn(st, prm, log)
        return
    if is_room(d):
        r = d - ROOM0
        if j >= 0 and d != u and st[S_HAUNTED + r] == 1:
            st[S_STUCK_EVENTS] += 1
            log_event(log, st[S_TURNS], E_STUCK, h, r, 0, 0)
        if st[S_MODE] == MODE_ADVANCED:
            reveal_room(st, d, log)
        lying = 0
        for k in range(N_JEWELS):
            if st[S_JLOC + k] == d:
                lying += 1
        if (
            j < 0
            and lying > 0
            and not (prm[P_PICKUP_CLEAR] == 1 and st[S_GHOSTS + r] > 0)
            and not (prm[P_PICKUP_HAUNTED] == 0 and st[S_HAUNTED + r] == 1)
            and not (prm[P_PICKUP_STAYING] == 0 and d == u)
        ):  # C4, C14, C15
            st[S_PHASE] = PH_PICKUP
            return
    if d == u and prm[P_STAY_FIGHTS] == 0:
        end_turn(st, prm, log)  # option: staying put is not ending a move in the room
        return
    fight_step(st, prm, log)


@njit
def apply_target(hh, st, prm, a, log):
    """R33–R39: the pending Head Haunter card acts on target ``a``. ``hh`` None: nothing (pruned, as
    `target_options`)."""
    if hh is None:
        return
    c = st[S_PEND_CARD]
    ct = prm[P_CARD_TYPE + c]
    log_event(log, st[S_TURNS], E_TARGET, c, ct, a, 0)
    if ct == CT_SPOOK:
        h = a - A_SPOOK
        j = st[S_HCARRY + h]
        v = st[S_HPOS + h]
        if j >= 0:
            st[S_HCARRY + h] = -1
            st[S_JLOC + j] = v
            st[S_JEWELS_DROPPED] += 1
        st[S_SPOOKS] += 1
        st[S_SPOOK_H] = h
        log_event(log, st[S_TURNS], E_SPOOK, h, j, v, 0)
        st[S_PHASE] = PH_SPOOK_DEST
        return
    st[S_PEND_CARD] = -1
    finish_card(st, prm, c)
    if CT_GROUP <= ct < CT_GROUP + 3:
        g = ct - CT_GROUP
        k = a - A_PAIR
        first = place_ghost(st, prm, g * GROUP_SIZE + PAIRS[k, 0], 1, log)
        if st[S_PHASE] != PH_OVER:
            skip = first if prm[P_GROUP_DISTINCT] == 1 else -1  # C16
            place_ghost_skip(st, prm, g * GROUP_SIZE + PAIRS[k, 1], 1, skip, log)
    elif ct == CT_ADD1 or ct == CT_DOOR_BLUE or ct == CT_DOOR_GREEN:
        place_ghost(st, prm, a - A_ROOM, 1, log)
    elif ct == CT_ADD2:
        place_ghost(st, prm, a - A_ROOM, 1, log)
        if st[S_PHASE] != PH_OVER:
            place_ghost(st, prm, a - A_ROOM, 1, log)
    elif CT_MOVE <= ct < CT_MOVE + 3:
        code = a - A_MOVEG
        r = code // 2
        t = move_ghost_target(prm, r, ct - CT_MOVE + 1, code % 2)
        st[S_GHOSTS + r] -= 1
        st[S_GHOSTS_ON] -= 1
        st[S_SUPPLY_G] += 1
        st[S_GHOSTS_MOVED] += 1
        log_event(log, st[S_TURNS], E_MOVE_GHOST, r, t, 0, 0)
        place_ghost(st, prm, t, 0, log)
    if st[S_PHASE] == PH_OVER:
        return
    advance(st, prm, log)


@njit(inline="always")
def legal_actions(st, prm, mask, work, hh=1):
    """Mask (int8[N_ACTIONS]) of the legal decisions at the current node; returns how many (0 at chance nodes and
    at the end). ``work`` is int32 scratch (>= WORK_SIZE) that receives the move search of PH_MOVE /
    PH_SPOOK_DEST. ``hh`` None leaves the Head Haunter's targets out of the compiled code (a co-op batch)."""
    for i in range(N_ACTIONS):  # constant trip count: vector stores, not a memset call (kernels/README.md)
        mask[i] = 0
    ph = st[S_PHASE]
    h = st[S_CUR]
    if ph == PH_MOVE:
        return move_targets(st, prm, h, st[S_ROLL], st[S_HCARRY + h] >= 0, mask, work)
    if ph == PH_SPOOK_DEST:
        return move_targets(st, prm, st[S_SPOOK_H], prm[P_SPOOK_RANGE], False, mask, work)
    if ph == PH_PICKUP:
        mask[A_PASS] = 1
        n = 1
        v = st[S_HPOS + h]
        for j in range(N_JEWELS):
            if st[S_JLOC + j] == v:
                mask[A_PICK + j] = 1
                n += 1
        return n
    if ph == PH_FIGHT_CHOICE:
        mask[A_PASS] = 1
        mask[A_FIGHT] = 1
        return 2
    if ph == PH_REROLL_MOVE:
        mask[A_PASS] = 1
        mask[A_REROLL0] = 1
        return 2
    if ph == PH_REROLL_FIGHT:
        mask[A_PASS] = 1
        n = 1 + fight_reroll_options(st, mask)
        if prm[P_HELPER_REROLL] == 1:  # C17: each player decides on its own hunter's die
            drop = A_REROLL0 if st[S_RR_HELPER] == 1 else A_REROLL1
            if mask[drop] == 1:
                mask[drop] = 0
                n -= 1
        return n
    if ph == PH_HH_PLAY:
        for s in range(st[S_HAND_N]):
            mask[A_SLOT + s] = 1
        return st[S_HAND_N]
    if ph == PH_HH_TARGET:
        return target_options(hh, st, prm, st[S_PEND_CARD], mask)
    return 0


@njit
def chance_outcomes(st, prm):
    """Number of equally likely outcomes at a die/pick chance node (0 elsewhere; PH_SHUFFLE is a permutation)."""
    ph = st[S_PHASE]
    if ph == PH_ROLL or ph == PH_REROLL_ROLL:
        return prm[P_N_MOVE_FACES]
    if ph == PH_FIGHT_ROLL or ph == PH_REROLL_FIGHT_ROLL:
        return prm[P_N_FIGHT_FACES]
    if ph == PH_SIX_PICK:
        return st[S_HAND_N]
    return 0


@njit(inline="always")
def apply_chance(st, prm, outcome, log):
    """Chance: a movement die face index (PH_ROLL, PH_REROLL_ROLL), a fight die face index (PH_FIGHT_ROLL,
    PH_REROLL_FIGHT_ROLL) or the hand slot a rolled 6 discards (PH_SIX_PICK)."""
    ph = st[S_PHASE]
    h = st[S_CUR]
    if ph == PH_ROLL or ph == PH_REROLL_ROLL:
        st[S_FACE] = outcome
        st[S_ROLL] = prm[P_MOVE_FACES + outcome]
        log_event(
            log, st[S_TURNS], E_ROLL, h, st[S_ROLL], prm[P_MOVE_GHOST + outcome], 1 if ph == PH_REROLL_ROLL else 0
        )
        if ph == PH_ROLL and st[S_MODE] == MODE_HH and st[S_HREROLL + h] == 1:
            st[S_PHASE] = PH_REROLL_MOVE
            return
        after_roll(st, prm, log)
    elif ph == PH_FIGHT_ROLL:
        i = st[S_DIE_NEXT]
        st[S_DIE + i] = prm[P_FIGHT_FACES + outcome]
        st[S_DIE_NEXT] = i + 1
        if i + 1 >= st[S_NDICE]:
            after_fight_dice(st, prm, log)
    elif ph == PH_REROLL_FIGHT_ROLL:
        st[S_DIE + st[S_RR_DIE]] = prm[P_FIGHT_FACES + outcome]
        after_fight_dice(st, prm, log)
    elif ph == PH_SIX_PICK:
        c = hand_remove(st, outcome)
        st[S_CLOC + c] = CL_DISCARD
        st[S_SIX_DISCARDS] += 1
        log_event(log, st[S_TURNS], E_SIX, h, c, prm[P_CARD_TYPE + c], 0)
        advance(st, prm, log)


@njit_alloc
def apply_action(st, prm, a, log):
    """Apply decision ``a`` (an A_* id, assumed legal) and advance to the next decision or chance node.

    Allocates its own move-search scratch; compiled code calls `apply_action_with` and passes the scratch of
    `legal_actions` instead."""
    apply_action_with(st, prm, a, log, np.zeros(N_ACTIONS, dtype=np.int8), np.zeros(WORK_SIZE, dtype=np.int32))


# ---- the decisions `apply_action_with` applies, one a decision phase (PH_*), each named for its clauses. Inlined
# (inline="always": Numba copies their code into the caller before typing): the compiled verb is one function.
@njit(inline="always")
def pick_up(st, prm, a, h, log):
    """PH_PICKUP, R13 + R12/R15: pick up the chosen jewel (or not); then a hunter that stayed put ends its turn
    (unless staying fights, C15), any other fights the ghosts where it stands."""
    if a != A_PASS:
        j = a - A_PICK
        st[S_HCARRY + h] = j
        st[S_JLOC + j] = -1 - h
        log_event(log, st[S_TURNS], E_PICK, h, j, st[S_HPOS + h], 0)
    if st[S_HPOS + h] == st[S_MOVE_FROM] and prm[P_STAY_FIGHTS] == 0:
        end_turn(st, prm, log)
    else:
        fight_step(st, prm, log)


@njit(inline="always")
def reroll_move(st, prm, a, h, log):
    """PH_REROLL_MOVE, R35: use the hunter's reroll card on the movement die, or keep the roll."""
    if a == A_REROLL0:
        st[S_HREROLL + h] = 0
        st[S_REROLLS] += 1
        log_event(log, st[S_TURNS], E_REROLL, h, 0, 0, 0)
        st[S_PHASE] = PH_REROLL_ROLL
    else:
        after_roll(st, prm, log)


@njit(inline="always")
def reroll_fight(st, prm, a, h, log):
    """PH_REROLL_FIGHT, R35 + C17: reroll a failed fight die with its owner's card, or keep the dice (with the
    C17 option the helper's player then decides on the helper's die)."""
    if a == A_PASS:
        if prm[P_HELPER_REROLL] == 1 and st[S_RR_HELPER] == 0 and (fight_rerolls(st) & 2) != 0:
            st[S_RR_HELPER] = 1  # C17: the helper's player now decides on the helper's die
            return
        resolve_fight(st, prm, log)
    else:
        i = a - A_REROLL0
        owner = h if i == 0 else st[S_HELPER]
        st[S_HREROLL + owner] = 0
        st[S_RR + i] = 1
        st[S_RR_DIE] = i
        st[S_REROLLS] += 1
        log_event(log, st[S_TURNS], E_REROLL, owner, 1 + i, 0, 0)
        st[S_PHASE] = PH_REROLL_FIGHT_ROLL


@njit(inline="always")
def play_hand_card(st, prm, a, log):
    """PH_HH_PLAY, R36: the Head Haunter plays the card in the chosen hand slot (its target, if any, is next)."""
    c = hand_remove(st, a - A_SLOT)
    st[S_CLOC + c] = CL_PLAY
    st[S_HH_PLAYED] += 1
    st[S_REFILL] = 1
    if resolve_card(st, prm, c, 0, 1, log) == 1:
        return
    advance(st, prm, log)


@njit(inline="always")
def spook_to(st, prm, a, log):
    """PH_SPOOK_DEST, R44: the spooked hunter goes where the Head Haunter chose; the Spook card is used up."""
    k = st[S_SPOOK_H]
    u = st[S_HPOS + k]
    d = a - A_MOVE
    st[S_HPOS + k] = d
    log_event(log, st[S_TURNS], E_SPOOK_MOVE, k, u, d, 0)
    st[S_SPOOK_H] = -1
    c = st[S_PEND_CARD]
    st[S_PEND_CARD] = -1
    finish_card(st, prm, c)
    advance(st, prm, log)


@njit(inline="always")
def apply_action_with(st, prm, a, log, mask, work, hh=1, adv=1):
    """`apply_action` with caller-owned scratch: ``mask`` int8[N_ACTIONS] and ``work`` int32[>= WORK_SIZE], as
    passed to `legal_actions` (overwritten with the same move search; only a move with reveal_jewel_on_enter
    uses them). ``hh`` None leaves the Head Haunter's targets out of the compiled code (a co-op batch), ``adv``
    None the advanced game's move search (a basic or Head Haunter batch). Each phase's rule is a function above."""
    ph = st[S_PHASE]
    h = st[S_CUR]
    if ph == PH_MOVE:
        do_move(adv, st, prm, a - A_MOVE, log, mask, work)
    elif ph == PH_PICKUP:
        pick_up(st, prm, a, h, log)
    elif ph == PH_FIGHT_CHOICE:
        if a == A_FIGHT:
            start_fight(st, 0)
        else:
            end_turn(st, prm, log)
    elif ph == PH_REROLL_MOVE:
        reroll_move(st, prm, a, h, log)
    elif ph == PH_REROLL_FIGHT:
        reroll_fight(st, prm, a, h, log)
    elif ph == PH_HH_PLAY:
        play_hand_card(st, prm, a, log)
    elif ph == PH_HH_TARGET:
        apply_target(hh, st, prm, a, log)
    elif ph == PH_SPOOK_DEST:
        spook_to(st, prm, a, log)


@njit
def decision_seat(st):
    """Seat that takes the decision at the current node: 0 (Head Haunter) in its phases, the helper's seat while it
    decides on its own reroll card (C17 option), else the active hunter's."""
    ph = st[S_PHASE]
    if ph == PH_HH_PLAY or ph == PH_HH_TARGET or ph == PH_SPOOK_DEST:
        return 0
    if ph == PH_REROLL_FIGHT and st[S_RR_HELPER] == 1:
        return st[S_HSEAT + st[S_HELPER]]
    return st[S_HSEAT + st[S_CUR]]


# ---- invariants (tests) --------------------------------------------------------------------------------------------
@njit(inline="always")
def ghost_invariants(st, prm):
    """Codes 3, 1, 2, 7 of `check_invariants` (ghosts and hauntings), 0 when they hold."""
    g = 0
    hs = 0
    for r in range(N_ROOMS):
        g += st[S_GHOSTS + r]
        hs += st[S_HAUNTED + r]
        if st[S_GHOSTS + r] < 0 or st[S_GHOSTS + r] > 2:
            return 3
        if st[S_HAUNTED + r] == 1 and st[S_GHOSTS + r] != 0:
            return 3
    if g + st[S_SUPPLY_G] != N_GHOSTS or st[S_SUPPLY_G] < 0:
        return 1
    if hs + st[S_SUPPLY_H] != prm[P_HAUNTINGS] or st[S_SUPPLY_H] < 0:
        return 2
    if g != st[S_GHOSTS_ON] or hs != st[S_HAUNTS]:
        return 7
    return 0


@njit(inline="always")
def jewel_invariants(st, prm):
    """Codes 4 and 6 of `check_invariants` (jewels, carriers, hunters' places), 0 when they hold."""
    nh = st[S_NH]
    wagon = 0
    for j in range(N_JEWELS):
        loc = st[S_JLOC + j]
        if loc == J_WAGON:
            wagon += 1
        elif loc < 0:
            h = -1 - loc
            if h >= nh or st[S_HCARRY + h] != j:
                return 4
        elif not is_room(loc):
            return 4
    if wagon != st[S_DELIVERED]:
        return 4
    for h in range(nh):
        j = st[S_HCARRY + h]
        if j >= 0 and st[S_JLOC + j] != -1 - h:
            return 4
        p = st[S_HPOS + h]
        if p < 0 or p >= prm[P_N_NODES]:
            return 6
        if prm[P_NODE_KIND + p] == NODE_HALL:
            for k in range(h):
                if st[S_HPOS + k] == p:
                    return 6
    return 0


@njit(inline="always")
def pile_invariants(st, nc):
    """Code 5 of `check_invariants` for the draw pile and the hand (``nc`` cards in the game), 0 when it holds:
    each entry a card of the game in that place, no card twice in the draw pile."""
    for i in range(st[S_NDRAW]):
        c = st[S_DRAW + i]
        if c < 0 or c >= nc or st[S_CLOC + c] != CL_DRAW:
            return 5
        for k in range(i):
            if st[S_DRAW + k] == c:
                return 5
    for i in range(st[S_HAND_N]):
        c = st[S_HAND + i]
        if c < 0 or c >= nc or st[S_CLOC + c] != CL_HAND:
            return 5
    return 0


@njit(inline="always")
def card_invariants(st, prm):
    """Codes 5 and 8 of `check_invariants` (each card in one place, draw pile, hand, door card), 0 when they hold."""
    nc = prm[P_N_CARDS]
    nd = 0
    nhand = 0
    ndoor = 0
    for c in range(MAX_CARDS):
        loc = st[S_CLOC + c]
        if c >= nc:
            if loc != CL_NONE:
                return 5
            continue
        if loc == CL_DRAW:
            nd += 1
        elif loc == CL_HAND:
            nhand += 1
        elif loc == CL_DOOR:
            ndoor += 1
            if st[S_LOCK_CARD] != c:
                return 8
        elif loc == CL_PLAY:
            if st[S_PEND_CARD] != c:
                return 5
        elif loc != CL_DISCARD and loc != CL_REMOVED:
            return 5
    if nd != st[S_NDRAW] or nhand != st[S_HAND_N] or pile_invariants(st, nc) != 0:
        return 5
    if (st[S_LOCK] != 0) != (ndoor == 1) or ndoor > 1:
        return 8
    return 0


@njit
def check_invariants(st, prm):
    """0 when the state is consistent, else a code naming the first broken invariant (tests call it every step).

    1 ghosts board + supply != 24; 2 hauntings board + supply != pieces; 3 a room with both ghosts and a haunting or
    >= 3 ghosts; 4 jewel bookkeeping (8 jewels, each in one place, carriers agree, wagon = delivered); 5 card
    bookkeeping (each card in one place, draw pile and hand agree); 6 two hunters on one hallway square;
    7 counters (S_GHOSTS_ON / S_HAUNTS) disagree with the board; 8 door lock and door card disagree.
    """
    r = ghost_invariants(st, prm)
    if r == 0:
        r = jewel_invariants(st, prm)
    if r == 0:
        r = card_invariants(st, prm)
    return r


def decode(st, prm=None) -> dict:
    """Readable snapshot of a state vector (for trace and test messages); pure Python."""
    st = [int(x) for x in st]
    nh = st[S_NH]
    return {
        "phase": st[S_PHASE],
        "mode": MODES[st[S_MODE]],
        "cur": st[S_CUR],
        "turns": st[S_TURNS],
        "rounds": st[S_ROUNDS],
        "roll": st[S_ROLL],
        "lock": ("none", "blue", "green")[st[S_LOCK]],
        "ghosts": {ROOM_LETTERS[r]: st[S_GHOSTS + r] for r in range(N_ROOMS) if st[S_GHOSTS + r]},
        "haunted": [ROOM_LETTERS[r] for r in range(N_ROOMS) if st[S_HAUNTED + r]],
        "hunters": [(st[S_HPOS + h], st[S_HCARRY + h]) for h in range(nh)],
        "jewels": [(st[S_JLOC + j], st[S_JNUM + j], st[S_JREV + j]) for j in range(N_JEWELS)],
        "delivered": st[S_DELIVERED],
        "draw": st[S_NDRAW],
        "hand": st[S_HAND : S_HAND + st[S_HAND_N]],
        "outcome": st[S_OUTCOME],
    }
