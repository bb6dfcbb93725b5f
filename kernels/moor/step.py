"""Ghosts of the Moor: the step verbs of the kernel contract (docs/dev/kernel-contract.md), which `kernels.loop`
runs as this game's `play_batch`. Each verb adapts a rule or strategy function of rules.py / strategies.py to the
contract's signature; the rules stay there.

``ws`` is the batch's scratch, `play.new_scratch`: a `scratch.BatchScratch`.
"""

from __future__ import annotations

from kernels._jit import njit
from kernels.eventlog import log_rows
from kernels.loop import CHANCE, OVER, TRUNCATED
from kernels.moor import features as F
from kernels.moor import rules as R
from kernels.moor import strategies as S
from kernels.moor.rules import (
    GREEN_SPACES,
    LOC_SPACE,
    N_DEALT,
    P_DIE_FACES,
    P_MAX_TURNS,
    P_TIEBREAK,
    PH_OVER,
    PH_ROLL,
    S_CUR,
    S_DECISIONS,
    S_DISCARD_EVENTS,
    S_FIRST,
    S_PHASE,
    S_PLANKS_LAID,
    S_ROUNDS,
    S_SEALED,
    S_STACK,
    S_TILE_LOC,
    S_TILES_DISCARDED,
    S_TILES_LOST,
    S_TURNS,
    STACK,
)
from kernels.rng import bounded, shuffle

__all__ = ["S_DECISIONS"]  # the loop counts decisions in this state slot


@njit(inline="always")
def parts(batch):
    """(st int32[S_SIZE], rng uint64[N_STREAMS_MAX, 4], ws) of a batch scratch."""
    return batch.st, batch.rng, batch


@njit(inline="always")
def log_mark(ws):
    """Rows of the event log written so far (ws.log; 0 without a log, None in a batch): where a traced search
    decision falls."""
    return log_rows(ws.log)


@njit(inline="always")
def action_mask(ws):
    """The legal-action mask int8[N_ACTIONS] that `legal_actions` fills."""
    return ws.mask


@njit(inline="always")
def prepare(sids, sparams, ws):
    """Per-call set-up before the first game: none in Moor (strategies read their parameter rows as given)."""


@njit(inline="always")
def new_game(st, prm, n, g, rng, ws):
    """R1-R4: a fresh game ``g``: the 33 tiles shuffled on the chance stream and dealt, the first turn begun.
    Returns the seat of turn position 0 (g % n, kernel contract "Seats rotate")."""
    log, deal_out, order = ws.log, ws.deal_out, ws.order
    R.init(st, prm, n)
    R.deal_pool(st, order)
    shuffle(rng, 0, order, N_DEALT)
    if deal_out.shape[0] == N_DEALT:
        for i in range(N_DEALT):  # a loop, not deal_out[:] = order: that would compile numpy's broadcast checks
            deal_out[i] = order[i]
    R.new_game(st, prm, n, order, log)
    first = g % n
    st[S_FIRST] = first
    return first


@njit(inline="always")
def resume_game(st, start, prm, n, g, rng, ws):
    """A game continued from the state ``start`` (int32[S_SIZE], copied into ``st``); returns its first seat."""
    for i in range(st.shape[0]):
        st[i] = start[i]
    return st[S_FIRST]


@njit(inline="always")
def to_move(st, prm, n, first, ws):
    """Whose turn: the seat of the current player at a decision, else CHANCE (the die, R5), OVER, or TRUNCATED
    (a turn would begin past max_turns)."""
    ph = st[S_PHASE]
    if ph == PH_OVER:
        return OVER
    if ph == PH_ROLL:
        return TRUNCATED if st[S_TURNS] >= prm[P_MAX_TURNS] else CHANCE
    seat = first + st[S_CUR]
    if seat >= n:  # (first + position) % n without a division
        seat -= n
    return seat


@njit(inline="always")
def chance_outcomes(st, prm, ws):
    """Equally likely outcomes at the chance node: the die's faces (outcome o is a roll of 1 + o)."""
    return prm[P_DIE_FACES]


@njit(inline="always")
def sample_chance(st, prm, rng, ws):
    """A roll of the die on the chance stream (rng row 0): 1..die_faces."""
    return 1 + bounded(rng, 0, prm[P_DIE_FACES])


@njit(inline="always")
def apply_chance(st, prm, o, ws):
    """R5: the die shows ``o``; 0 (never refused)."""
    R.apply_chance(st, o, ws.log)
    return 0


@njit(inline="always")
def legal_actions(st, prm, ws):
    """The legal actions into `action_mask(ws)`; returns their count."""
    return R.legal_actions(st, prm, ws.mask, ws.legal)


@njit(inline="always")
def decide(st, prm, seat, nl, sids, sparams, rng, ws):
    """Seat ``seat``'s strategy chooses among the ``nl`` > 1 legal actions (its own stream, rng row 1 + seat); the
    learned policy (`features.learned_choice`) reads its weights from the seat's parameter row."""
    if sids[seat] == S.S_LEARNED:
        return F.play_learned(ws.learned, sparams[seat], st, prm, ws.mask, rng, 1 + seat)
    return S.decide(sids[seat], sparams[seat], st, prm, ws.mask, nl, rng, 1 + seat, ws.legal)


@njit(inline="always")
def apply_action(st, prm, a, rng, ws):
    """The current player plays ``a``; 0 (never refused: the loop checked it is legal)."""
    R.apply_action(st, prm, a, ws.log)
    return 0


@njit(inline="always")
def invariants(st, prm):
    """The state's invariants (0: all hold); Moor checks its in tests/kernels/moor/test_invariants.py instead."""
    return 0


@njit(inline="always")
def outcome(st, prm, n, first, status, scores_row, extra_row, curves_row, ws):
    """R15-R17 (+C9) for a finished game: scores by seat (0 unless done), extra counters; returns (winners
    bitmask over seats, turns, rounds)."""
    sc = ws.scores_pos
    done = status == 0
    wpos = R.returns(st, prm, sc) if done else 0
    wseat = 0
    for q in range(n):
        seat = first + q  # (first + q) % n without a division (four a game)
        if seat >= n:
            seat -= n
        scores_row[seat] = sc[q] if done else 0
        if (wpos >> q) & 1:
            wseat |= 1 << seat
    extra_row[0] = first
    extra_row[1] = st[S_DECISIONS]
    extra_row[2] = st[S_DISCARD_EVENTS]
    extra_row[3] = st[S_TILES_DISCARDED]
    extra_row[4] = st[S_TILES_LOST]
    extra_row[5] = st[S_PLANKS_LAID]
    # C9: only the rulebook tie-break settles a tied top score; with tiebreak = shared the tied players all win
    extra_row[6] = R.top_score_tied(st, prm) if done and prm[P_TIEBREAK] == 0 else 0
    return wseat, st[S_TURNS], st[S_ROUNDS]


@njit(inline="always")
def sample_hidden(st, seat, prm, rng, row, ws):
    """Re-deal what ``seat`` cannot see (R4, C11): the bottom tiles of the green spaces that still hold both their
    dealt tiles (S_SEALED; a tile beneath a discarded pair was seen when it was held), shuffled among those places
    on stream ``row`` of ``rng`` only, from their sorted order: the re-deal depends only on what the seat saw and
    the stream, never on where the hidden tiles truly lie. Every seat sees the same, so ``seat`` changes nothing.
    Tops, heights, holdings and every other state slot stay as they are; the multiset of hidden tiles is kept. Returns the number
    of hidden tiles. Uses ws's deal-order scratch (int32[33])."""
    tiles = ws.order
    sealed = st[S_SEALED]
    m = 0
    for s in range(1, GREEN_SPACES + 1):
        if (sealed >> s) & 1:
            tiles[m] = st[S_STACK + s * STACK]
            m += 1
    for i in range(1, m):  # canonical order first (insertion sort): the re-deal never depends on the true one
        t = tiles[i]
        j = i - 1
        while j >= 0 and tiles[j] > t:
            tiles[j + 1] = tiles[j]
            j -= 1
        tiles[j + 1] = t
    shuffle(rng, row, tiles, m)
    i = 0
    for s in range(1, GREEN_SPACES + 1):
        if (sealed >> s) & 1:
            t = tiles[i]
            st[S_STACK + s * STACK] = t
            st[S_TILE_LOC + t] = LOC_SPACE + s
            i += 1
    return m


@njit(inline="always")
def arc_round(st, n):
    """The game's arc (kernels/loop.py): rounds completed (S_ROUNDS counts the rounds begun)."""
    return st[S_ROUNDS] - 1


@njit(inline="always")
def arc_progress(st, prm, n, first, seat, ws):
    """The game's arc: seat ``seat``'s score if the game ended now (R15: the same count as its final score)."""
    q = seat - first
    if q < 0:
        q += n
    return R.score(st, prm, q)
