"""Ghost Fightin' Treasure Hunters: the step verbs of the kernel contract (docs/dev/kernel-contract.md), which
`kernels.loop` runs as this game's `play_batch`. Each verb adapts a rule or strategy function of rules.py /
strategies.py to the contract's signature; the rules stay there.

``ws`` is the batch's scratch, `play.batch_scratch`: a `scratch.BatchScratch` (the strategies' arrays in ``ws.work``);
``hh`` None / ``adv`` None / ``learned`` None leave the Head Haunter's, the advanced game's and the learned
policies' code out of a kernel (their types make Numba compile a kernel without them); a ``learned`` marker is the
policies' score scratch, float64[N_ACTIONS].
"""

from __future__ import annotations

from kernels._jit import njit
from kernels.eventlog import record
from kernels.loop import CHANCE, OVER, TRUNCATED
from kernels.rng import bounded, shuffle
from kernels.treasure_hunters import features as F
from kernels.treasure_hunters import haunter_features as HF
from kernels.treasure_hunters import rules as R
from kernels.treasure_hunters import strategies as S
from kernels.treasure_hunters.rules import (
    CL_DRAW,
    CL_HAND,
    CURVE_MAX,
    MODE_HH,
    N_JEWELS,
    OUT_HH_SIX,
    OUT_HH_STUCK,
    OUT_NONE,
    OUT_TRUNC,
    OUT_WIN,
    P_MAX_TURNS,
    P_MODE,
    P_N_CARDS,
    PH_OVER,
    PH_SHUFFLE,
    S_CLOC,
    S_CURVE_G,
    S_CURVE_H,
    S_DECISIONS,
    S_DELIVERED,
    S_DRAW,
    S_FIGHTS,
    S_FIGHTS_WON,
    S_FIRST,
    S_GHOSTS_MOVED,
    S_GHOSTS_ON,
    S_GHOSTS_PLACED,
    S_GHOSTS_REMOVED,
    S_HAND,
    S_HAND_N,
    S_HAUNT_MAX,
    S_HAUNTS,
    S_HAUNTS_MADE,
    S_HCARRY,
    S_HH_PLAYED,
    S_JEWELS_DROPPED,
    S_JNUM,
    S_JREV,
    S_LOCK_TURNS,
    S_MODE,
    S_NDRAW,
    S_NH,
    S_OUTCOME,
    S_OVERFLOWS,
    S_PHASE,
    S_REROLLS,
    S_ROUNDS,
    S_SHUFFLES,
    S_SIX_DISCARDS,
    S_SPOOKS,
    S_STUCK_EVENTS,
    S_TURNS,
    S_UNHAUNT_TRIES,
    S_UNHAUNTS,
)

__all__ = ["S_DECISIONS"]  # the loop counts decisions in this state slot

# recorded steps (golden traces): rows (kind, value); a shuffle is (K_SHUFFLE, n) then n rows (K_CARD, card)
K_CHANCE = 1
K_ACTION = 2
K_SHUFFLE = 3
K_CARD = 4
K_JEWELS = 5  # then 8 rows (K_CARD, number)


@njit("int64(int64[::1], int64, int64)")
def first_seat(prm, g, n):
    """Seat of hunter 0 in game g: g % n (co-op); 1 + g % (n - 1) in the Head Haunter game (seat 0 haunts)."""
    if prm[P_MODE] == MODE_HH:
        return 1 + g % (n - 1)
    return g % n


@njit(inline="always")
def parts(batch):
    """(st int32[S_SIZE], rng uint64[N_STREAMS_MAX, 4], ws) of a batch scratch."""
    return batch.st, batch.rng, batch


@njit(inline="always")
def log_mark(ws):
    """Rows of the event log written so far (ws.log; 0 without a log): where a traced search decision falls."""
    return ws.log[0, 0]


@njit(inline="always")
def action_mask(ws):
    """The legal-action mask int8[N_ACTIONS] that `legal_actions` fills."""
    return ws.work.mask


@njit(inline="always")
def prepare(sids, sparams, ws):
    """Per call: each seat's effective weight row (`strategies.effective_rows`) into ws's wrows."""
    S.effective_rows(sids, sparams, ws.work.wrows)


@njit(inline="always")
def new_game(st, prm, n, g, rng, ws):
    """R1-R3 for game ``g``: the board set up, the jewel numbers shuffled on the chance stream (hidden under the
    jewels). Returns the seat of hunter 0 (`first_seat`)."""
    steps, nums = ws.steps, ws.work.nums
    first = first_seat(prm, g, n)
    for j in range(N_JEWELS):
        nums[j] = j + 1
    R.init(st, prm, n, first)
    shuffle(rng, 0, nums, nums.shape[0])  # N_JEWELS; typed like the deck shuffle (one copy)
    if steps.shape[0] > 1:
        record(steps, K_JEWELS, N_JEWELS)
        for j in range(N_JEWELS):
            record(steps, K_CARD, nums[j])
    R.set_jewel_numbers(st, nums)
    return first


@njit(inline="always")
def resume_game(st, start, prm, n, g, rng, ws):
    """A game continued from the state ``start`` (int32[S_SIZE], copied into ``st``); returns its first seat.

    A game cut at its turn cap (R5: the cap ends it in the state, outcome OUT_TRUNC, at the start of a hunter's turn)
    goes on when ``prm``'s cap is higher: that turn starts as it would have (`rules.start_turn`), so a game replayed
    under a cap of t turns and resumed is the same game (the arc's rollouts from round r, kernels/loop.py). Under the
    same cap it stays cut."""
    for i in range(st.shape[0]):
        st[i] = start[i]
    if st[S_PHASE] == PH_OVER and st[S_OUTCOME] == OUT_TRUNC and st[S_TURNS] < prm[P_MAX_TURNS]:
        st[S_OUTCOME] = OUT_NONE
        R.start_turn(st, prm, ws.log)
    return st[S_FIRST]


@njit(inline="always")
def to_move(st, prm, n, first, ws):
    """Whose turn: the deciding seat (`rules.decision_seat`), else CHANCE (a die, a discard pick or a shuffle of
    the Ghost Card pile), OVER, or TRUNCATED (the game ended at its turn cap)."""
    ph = st[S_PHASE]
    if ph == PH_OVER:
        return TRUNCATED if st[S_OUTCOME] == OUT_TRUNC else OVER
    if ph == PH_SHUFFLE or R.chance_outcomes(st, prm) > 0:
        return CHANCE
    return R.decision_seat(st)


@njit(inline="always")
def chance_outcomes(st, prm, ws):
    """Equally likely outcomes at the chance node: die faces or hand slots (`rules.chance_outcomes`); at a
    shuffle, the number of cards shuffled (the outcome is an order of them, drawn by `sample_chance`)."""
    if st[S_PHASE] == PH_SHUFFLE:
        return R.shuffle_pool(st, ws.work.pool)
    return R.chance_outcomes(st, prm)


@njit(inline="always")
def sample_chance(st, prm, rng, ws):
    """An outcome on the chance stream (rng row 0): a face or slot index, or at a shuffle the number k of cards
    whose shuffled order it leaves in ws's pool[:k]. Recorded when the batch records steps."""
    steps = ws.steps
    rec = steps.shape[0] > 1
    if st[S_PHASE] == PH_SHUFFLE:
        pool = ws.work.pool
        k = R.shuffle_pool(st, pool)
        shuffle(rng, 0, pool, k)
        if rec:
            record(steps, K_SHUFFLE, k)
            for i in range(k):
                record(steps, K_CARD, pool[i])
        return k
    o = bounded(rng, 0, R.chance_outcomes(st, prm))
    if rec:
        record(steps, K_CHANCE, o)
    return o


@njit(inline="always")
def apply_chance(st, prm, o, ws):
    """The chance outcome ``o`` (`sample_chance`'s) takes effect; 0 (never refused)."""
    if st[S_PHASE] == PH_SHUFFLE:
        R.apply_shuffle(st, prm, ws.work.pool, o, ws.log)
    else:
        R.apply_chance(st, prm, o, ws.log)
    return 0


@njit(inline="always")
def legal_actions(st, prm, ws):
    """The legal actions into `action_mask(ws)` (the move search in ws's tmp); returns their count."""
    return R.legal_actions(st, prm, ws.work.mask, ws.work.tmp, ws.hh)


@njit(inline="always")
def decide(st, prm, seat, nl, sids, sparams, rng, ws):
    """Seat ``seat``'s strategy chooses among the ``nl`` > 1 legal actions (its own stream, rng row 1 + seat); a
    learned policy (`play_learned`) reads its weights from the seat's parameter row."""
    sc = ws.work
    sid = sids[seat]
    if sid == S.S_LEARNED or sid == S.S_HH_LEARNED:
        return play_learned(ws.learned, ws.hh, sparams[seat], sc.wrows[seat], st, prm, sc.mask, rng, 1 + seat, sc.tmp)
    return S.decide(sid, sc.wrows[seat], st, prm, sc.mask, nl, rng, 1 + seat, sc.tmp, ws.hh)


@njit
def play_learned(marker, hh, sp, wrow, st, prm, mask, rng, row, tmp):
    """The learned hunter's (`features.learned_choice`) or, at the Head Haunter's decisions, the learned Head
    Haunter's (`haunter_features.learned_choice`) action (weights ``sp``, script row ``wrow``), scored into the
    marker (`kernels.policy.new_marker`); -1 (refused:
    ST_BAD_ACTION, never a silent choice) where the batch scratch's learned marker is None: a marker of type None
    prunes both policies from the compiled kernel (a scenario without a learned seat compiles none of them)."""
    if marker is None:
        return -1
    ph = st[S_PHASE]
    if ph == R.PH_HH_PLAY or ph == R.PH_HH_TARGET or ph == R.PH_SPOOK_DEST:
        return HF.learned_choice(hh, sp, wrow, st, prm, mask, rng, row, tmp, marker)
    return F.learned_choice(sp, wrow, st, prm, mask, rng, row, tmp, marker)


@njit(inline="always")
def apply_action(st, prm, a, rng, ws):
    """The deciding seat plays ``a`` (recorded when the batch records steps); 0 (never refused)."""
    steps = ws.steps
    if steps.shape[0] > 1:
        record(steps, K_ACTION, a)
    R.apply_action_with(st, prm, a, ws.log, ws.work.mask, ws.work.tmp, ws.hh, ws.adv)
    return 0


@njit(inline="always")
def invariants(st, prm):
    """`rules.check_invariants` (0: all hold)."""
    return R.check_invariants(st, prm)


@njit(inline="always")
def outcome(st, prm, n, first, status, scores_row, extra_row, curves_row, ws):
    """Per-seat scores (int32[n]), counters (int32[N_EXTRA]) and curves (int32[n_curves, curve_len]) of the game
    in ``st`` ended with ``status``; returns (winners bitmask over seats, turns, rounds)."""
    return game_outputs(st, prm, n, first, status, scores_row, extra_row, curves_row), st[S_TURNS], st[S_ROUNDS]


@njit(inline="always")
def game_outputs(st, prm, n, first, status, scores_row, extra_row, curves_row):
    """Per-seat scores (int32[n]), counters (int32[N_EXTRA]) and curves (int32[n_curves, curve_len]) of the game
    `play_batch` left in ``st`` with ``status``; returns the winners bitmask over seats."""
    hh = prm[P_MODE] == MODE_HH
    out = st[S_OUTCOME]
    w = 0
    if status == 0:
        if out == OUT_WIN:
            for s in range(1 if hh else 0, n):
                w |= 1 << s
        elif out == OUT_HH_SIX or out == OUT_HH_STUCK:
            w = 1
    for s in range(n):
        scores_row[s] = st[S_DELIVERED]
    if hh:
        scores_row[0] = st[S_HAUNTS]
    stuck = 0
    carried = 0
    for h in range(st[S_NH]):
        if st[S_HCARRY + h] >= 0:
            carried += 1
            if R.is_stuck(st, h):
                stuck += 1
    extra_row[0] = first
    extra_row[1] = st[S_DECISIONS]
    extra_row[2] = out if out >= 0 else OUT_TRUNC
    extra_row[3] = st[S_HAUNTS]
    extra_row[4] = st[S_HAUNT_MAX]
    extra_row[5] = st[S_DELIVERED]
    extra_row[6] = st[S_FIGHTS]
    extra_row[7] = st[S_FIGHTS_WON]
    extra_row[8] = st[S_GHOSTS_REMOVED]
    extra_row[9] = st[S_UNHAUNT_TRIES]
    extra_row[10] = st[S_UNHAUNTS]
    extra_row[11] = st[S_SHUFFLES]
    extra_row[12] = st[S_LOCK_TURNS]
    extra_row[13] = st[S_GHOSTS_ON]
    extra_row[14] = st[S_GHOSTS_PLACED]
    extra_row[15] = st[S_HAUNTS_MADE]
    extra_row[16] = st[S_OVERFLOWS]
    extra_row[17] = st[S_REROLLS]
    extra_row[18] = st[S_HH_PLAYED]
    extra_row[19] = st[S_SIX_DISCARDS]
    extra_row[20] = st[S_SPOOKS]
    extra_row[21] = st[S_JEWELS_DROPPED]
    extra_row[22] = st[S_GHOSTS_MOVED]
    extra_row[23] = st[S_STUCK_EVENTS]
    extra_row[24] = stuck
    extra_row[25] = carried
    lost = status == 0 and out != OUT_WIN
    extra_row[26] = 1 + st[S_DELIVERED] if lost else 0
    nc = curves_row.shape[0]
    cl = curves_row.shape[1]
    for r in range(cl):
        vh = st[S_CURVE_H + r] if r < CURVE_MAX else -1
        vg = st[S_CURVE_G + r] if r < CURVE_MAX else -1
        if nc > 0:
            curves_row[0, r] = vh
        if nc > 1:
            curves_row[1, r] = vg
    return w


@njit(inline="always")
def sample_hidden(st, seat, prm, rng, row, ws):
    """Re-deal what ``seat`` cannot see, on stream ``row`` of ``rng`` only: the numbers of the face-down jewels
    (R30; wherever they are: in the basic and Head Haunter games a carried or delivered jewel stays face down) dealt
    among them; the Ghost Card draw pile's order (R8) and, for a hunter seat in the Head Haunter game, the Head
    Haunter's hand (R34) dealt afresh from the pile's and the hand's cards together (the Head Haunter, seat 0, knows
    its hand: only the pile is re-shuffled). Face-up numbers, the discard pile, the hand's size and every other slot
    stay as they are. Canonical: the items are gathered in an order that reads only what the seat sees (the numbers
    no face-up jewel shows, ascending; the cards by id among those the seat cannot place), so the result depends on
    the seat's view and the stream alone, never on the true arrangement of what it cannot see. Returns the number
    of components re-dealt. Uses ws's pool and jewel-number scratch."""
    pool, nums = ws.work.pool, ws.work.nums
    m = 0
    for v in range(1, N_JEWELS + 1):  # the numbers on the jewels are 1..8 (R30): the unseen ones, ascending
        shown = False
        for j in range(N_JEWELS):
            shown |= st[S_JREV + j] == 1 and st[S_JNUM + j] == v
        if not shown:
            nums[m] = v
            m += 1
    shuffle(rng, row, nums, m)
    i = 0
    for j in range(N_JEWELS):
        if st[S_JREV + j] == 0:
            st[S_JNUM + j] = nums[i]
            i += 1
    nd = st[S_NDRAW]
    hunter = st[S_MODE] == MODE_HH and seat != 0
    nh = st[S_HAND_N] if hunter else 0
    k = 0
    for c in range(prm[P_N_CARDS]):  # by card id: the pile's (and for a hunter the hand's) cards, in no dealt order
        loc = st[S_CLOC + c]
        if loc == CL_DRAW or (hunter and loc == CL_HAND):
            pool[k] = c
            k += 1
    shuffle(rng, row, pool, k)  # k == nd + nh (rules.check_invariants: the card locations match the pile and hand)
    for i in range(nd):
        c = pool[i]
        st[S_DRAW + i] = c
        st[S_CLOC + c] = CL_DRAW
    for i in range(nh):
        c = pool[nd + i]
        st[S_HAND + i] = c
        st[S_CLOC + c] = CL_HAND
    return m + nd + nh


@njit(inline="always")
def arc_round(st, n):
    """The game's arc (kernels/loop.py): rounds completed (S_ROUNDS counts the rounds begun)."""
    return st[S_ROUNDS] - 1


@njit(inline="always")
def arc_progress(st, prm, n, first, seat, ws):
    """The game's arc: seat ``seat``'s score now (`game_outputs`): the jewels in the wagon, the Head Haunter's
    hauntings."""
    if seat == 0 and prm[P_MODE] == MODE_HH:
        return st[S_HAUNTS]
    return st[S_DELIVERED]
