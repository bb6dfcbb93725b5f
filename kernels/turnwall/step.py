"""The Ghosts of Castle Turnwall: the step verbs of the kernel contract (docs/dev/kernel-contract.md), which
`kernels.loop` runs as this game's `play_batch`. Each verb adapts a rule, memory or strategy function of rules.py /
memory.py / strategies.py to the contract's signature; the rules stay there.

``ws`` is the batch's scratch, `play.batch_scratch`: a `scratch.BatchScratch` (the per-call arrays in ``ws.work``)
with node int64[1] the turn last logged and the marker None or `features.new_marker()` (the learned policy's
scratch).

Chance: the deal (`new_game`) and, with decks_moved on (C11 variant), the deck a searched deck swaps with, drawn on
the chance stream inside `apply_action` right after the search (no decision comes between them), so `to_move`
never answers CHANCE.
"""

from __future__ import annotations

from kernels._jit import njit
from kernels.eventlog import log_event, record
from kernels.loop import OVER, TRUNCATED
from kernels.rng import bounded, shuffle_range
from kernels.turnwall import features as F
from kernels.turnwall import rules as R
from kernels.turnwall import strategies as S
from kernels.turnwall.hidden import redeal
from kernels.turnwall.memory import observe_search, observe_swap
from kernels.turnwall.rules import (
    E_DECKS,
    E_TURN,
    N_DECKS,
    N_GARMENTS,
    N_PARTS,
    P_DECKS_MOVED,
    P_MAX_TURNS,
    PER_PART,
    PH_OVER,
    S_CUR,
    S_DECISIONS,
    S_DISPLACED,
    S_DRAGS,
    S_EJECTED,
    S_FIRST,
    S_FOUND,
    S_HAVE,
    S_LAST_DECK,
    S_LAST_SEARCHER,
    S_MOVES_LEFT,
    S_NOT_FOUND,
    S_PART_TAKEN,
    S_PHASE,
    S_PLUG_STOPS,
    S_PUSHED,
    S_ROTATIONS,
    S_SHIFTS,
    S_SKIPPED,
    S_SLIDES,
    S_TURNS,
    S_WASTED,
    S_WINNER,
)
from kernels.turnwall.strategies import W_PLAN_TURN

__all__ = ["S_DECISIONS"]  # the loop counts decisions in this state slot

# recorded steps (golden traces): rows (kind, value)
K_DEAL = 1  # then 20 rows (K_DEAL, garment): the dealt order
K_ACTION = 2
K_SWAP = 3  # the other deck of a decks-moved swap


@njit(inline="always")
def parts(batch):
    """(st int32[S_SIZE], rng uint64[N_STREAMS_MAX, 4], ws) of a batch scratch."""
    return batch.work.st, batch.work.rng, batch


@njit(inline="always")
def log_mark(ws):
    """Rows of the recorded steps written so far (ws.steps; 0 without a record): where a traced search decision falls
    (the replay walks the recorded actions)."""
    return ws.steps[0, 0]


@njit(inline="always")
def action_mask(ws):
    """The legal-action mask int8[N_ACTIONS] that `legal_actions` fills."""
    return ws.work.mask


@njit(inline="always")
def prepare(sids, sparams, ws):
    """Per call: each seat's effective row (memory columns, then weights: `strategies.effective_rows`; a learned
    seat's from the end of its row, `features.learned_rows`)."""
    S.effective_rows(sids, sparams, ws.work.wrows)
    F.learned_rows(sids, sparams, ws.work.wrows)


@njit(inline="always")
def new_game(st, prm, n, g, rng, ws):
    """R1-R2, R11 for game ``g``: the castle set up, the 20 garment cards shuffled part by part on the chance
    stream and dealt (recorded when the batch records steps). Returns the first seat, g % n."""
    sc, steps = ws.work, ws.steps
    order, work = sc.order, sc.work
    work[W_PLAN_TURN] = -1
    first = g % n
    R.init(st, prm, n, first)
    for p in range(N_PARTS):  # R2: each deck one card of each back
        for k in range(N_DECKS):
            order[p * PER_PART + k] = p * PER_PART + k
        shuffle_range(rng, 0, order, p * PER_PART, PER_PART)  # on the chance stream, part by part
    if steps.shape[0] > 1:
        for i in range(N_GARMENTS):
            record(steps, K_DEAL, order[i])
    R.deal(st, order)
    R.stack_decks(st, rng)  # M1: the order in each deck (its top card's back)
    ws.node[0] = -1
    return first


@njit(inline="always")
def resume_game(st, start, prm, n, g, rng, ws):
    """A game continued from the state ``start`` (int32[S_SIZE], copied into ``st``: the seats' memories are in
    it); returns its first seat."""
    for i in range(st.shape[0]):
        st[i] = start[i]
    ws.work.work[W_PLAN_TURN] = -1
    ws.node[0] = -1
    return st[S_FIRST]


@njit(inline="always")
def to_move(st, prm, n, first, ws):
    """Whose turn: the seat to act, else OVER, or TRUNCATED (the turn cap max_turns reached)."""
    if st[S_PHASE] == PH_OVER:
        return OVER
    if st[S_TURNS] >= prm[P_MAX_TURNS]:
        return TRUNCATED
    return st[S_CUR]


@njit(inline="always")
def chance_outcomes(st, prm, ws):
    """No chance node reaches the loop (module docstring): 0."""
    return 0


@njit(inline="always")
def sample_chance(st, prm, rng, ws):
    """Never called (`to_move` never answers CHANCE)."""
    return 0


@njit(inline="always")
def apply_chance(st, prm, o, ws):
    """Never called (`to_move` never answers CHANCE); 1 (refused) if it were."""
    return 1


@njit(inline="always")
def legal_actions(st, prm, ws):
    """The legal actions into `action_mask(ws)`; returns their count. Logs the start of each turn (E_TURN)."""
    node, log = ws.node, ws.log
    t = st[S_TURNS]
    if t != node[0]:
        node[0] = t
        log_event(log, t, E_TURN, st[S_CUR], st[S_MOVES_LEFT], 0, 0)
    return R.legal_actions(st, prm, ws.work.mask)


@njit(inline="always")
def decide(st, prm, seat, nl, sids, sparams, rng, ws):
    """Seat ``seat``'s strategy chooses among the ``nl`` > 1 legal actions (its own stream, rng row 1 + seat); the
    learned policy (`features.learned_choice`) reads its weights from the seat's parameter row."""
    sc = ws.work
    planner = (sc.work, sc.base, sc.cur, sc.keys, sc.probs, sc.near)  # the planner's scratch, which both take
    if sids[seat] == S.S_LEARNED:
        return F.play_learned(ws.learned, sparams[seat], sc.wrows[seat], st, prm, sc.mask, rng, 1 + seat, *planner)
    return S.decide(sids[seat], sc.wrows[seat], st, prm, sc.mask, nl, rng, 1 + seat, *planner)


@njit(inline="always")
def apply_action(st, prm, a, rng, ws):
    """The seat to act plays ``a`` (R5-R14; recorded when the batch records steps); after a search every seat
    observes it (M2, M3) and, with decks_moved (C11 variant), the searched deck swaps with another drawn on the
    chance stream (M4). Returns 0 (never refused)."""
    sc, log, steps = ws.work, ws.log, ws.steps
    rec = steps.shape[0] > 1
    if rec:
        record(steps, K_ACTION, a)
    if R.apply_action(st, prm, a, log) == 1:
        observe_search(st, sc.wrows, rng)
        if prm[P_DECKS_MOVED] != 0 and st[S_PHASE] != PH_OVER:  # C11 variant
            k = st[S_LAST_DECK]
            b = bounded(rng, 0, N_DECKS - 1)
            if b >= k:
                b += 1
            if rec:
                record(steps, K_SWAP, b)
            R.swap_decks(st, k, b)
            observe_swap(st, st[S_LAST_SEARCHER], k, b)
            log_event(log, st[S_TURNS], E_DECKS, k, b, 0, 0)
    return 0


@njit(inline="always")
def invariants(st, prm):
    """`rules.check_invariants` (0: all hold)."""
    return R.check_invariants(st, prm)


@njit(inline="always")
def outcome(st, prm, n, first, status, scores_row, extra_row, curves_row, ws):
    """Scores (body parts dressed), counters; returns (winners bitmask, turns, rounds)."""
    return game_outputs(st, n, status, scores_row, extra_row), st[S_TURNS], (st[S_TURNS] + n - 1) // n


@njit(inline="always")
def game_outputs(st, n, status, scores_row, extra_row):
    """Scores, winners bitmask and counters of a finished (or truncated) game."""
    w = 0
    for s in range(n):
        h = st[S_HAVE + s]
        c = 0
        for p in range(N_PARTS):
            c += (h >> p) & 1
        scores_row[s] = c
    if status == 0 and st[S_WINNER] >= 0:
        w = 1 << st[S_WINNER]
    extra_row[0] = st[S_FIRST]
    extra_row[1] = st[S_DECISIONS]
    extra_row[2] = st[S_FOUND]
    extra_row[3] = st[S_NOT_FOUND]
    extra_row[4] = st[S_WASTED]
    extra_row[5] = st[S_DRAGS]
    extra_row[6] = st[S_SLIDES]
    extra_row[7] = st[S_SHIFTS]
    extra_row[8] = st[S_ROTATIONS]
    extra_row[9] = st[S_DISPLACED]
    extra_row[10] = st[S_EJECTED]
    extra_row[11] = st[S_PUSHED]
    extra_row[12] = st[S_PLUG_STOPS]
    extra_row[13] = st[S_SKIPPED]
    for p in range(N_PARTS):
        extra_row[14 + p] = st[S_PART_TAKEN + p]
    extra_row[19] = st[R.S_PART_GONE]
    return w


@njit(inline="always")
def sample_hidden(st, seat, prm, rng, row, ws):
    """Re-deal what ``seat`` does not know of the decks (M1-M6), on stream ``row`` of ``rng`` only: uniformly among
    the arrangements of the cards in play that agree with the view and the seat's memory (which decks hold each
    body part, which garment lies in each slot, each deck's order under its top); the other seats' memories follow
    the new deal, keeping only the exclusions the seat's memory implies (`hidden.redeal`). Its output depends only
    on what the seat knows and on the stream. Returns the number of arrangements drawn among (0: none agreed and
    the state is unchanged, which a consistent memory never gives)."""
    return redeal(st, seat, rng, row, ws.work.hidden, ws.work.order, ws.work.wrows)


@njit(inline="always")
def arc_round(st, n):
    """The game's arc (kernels/loop.py): rounds completed (every seat's turn taken once more)."""
    return st[S_TURNS] // n


@njit(inline="always")
def arc_progress(st, prm, n, first, seat, ws):
    """The game's arc: the body parts seat ``seat`` has dressed now (its score, `game_outputs`)."""
    h = st[S_HAVE + seat]
    c = 0
    for p in range(N_PARTS):
        c += (h >> p) & 1
    return c
