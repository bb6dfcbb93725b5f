"""Ghostly Galleon: the step verbs of the kernel contract (docs/dev/kernel-contract.md), which `kernels.loop` runs
as this game's `play_batch`. Each verb adapts a rule or strategy function of rules.py / strategies.py to the
contract's signature; the rules stay there.

``ws`` is the batch's scratch, `play.batch_scratch`: a `scratch.BatchScratch` (its per-call arrays in ``ws.work``).
"""

from __future__ import annotations

from kernels._jit import njit
from kernels.eventlog import record
from kernels.galleon import features as F
from kernels.galleon import rules as R
from kernels.galleon import strategies as S
from kernels.galleon.hidden import redeal
from kernels.galleon.rules import (
    P_MAX_TURNS,
    PH_CHANCE,
    PH_OVER,
    S_ACTOR,
    S_CH_N,
    S_DECISIONS,
    S_FIRST,
    S_PHASE,
    S_TURNS,
    S_WINNER,
)
from kernels.loop import CHANCE, OVER, TRUNCATED
from kernels.rng import bounded, shuffle_range

__all__ = ["S_DECISIONS"]  # the loop counts decisions in this state slot

# recorded steps (golden traces): rows (kind, value)
K_DEAL = 1  # then 20 rows: chest contents by cabin, sticker indices by cabin, the stack bottom to top
K_ACTION = 2
K_CHANCE = 3

STACK_TILES = (4, 5, 12, 13, 14, 15, 16, 17)


@njit(inline="always")
def parts(batch):
    """(st int32[S_SIZE], rng uint64[N_STREAMS_MAX, 4], ws) of a batch scratch."""
    return batch.work.st, batch.work.rng, batch


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
    """Per call: each seat's effective weight row (`strategies.effective_rows`)."""
    S.effective_rows(sids, sparams, ws.work.wrows)


@njit(inline="always")
def new_game(st, prm, n, g, rng, ws):
    """R1 and C16 for game ``g``: chests filled and spread, stickers, the stack shuffled on the chance stream
    (recorded when the batch records steps) and dealt, the first turn run on to its first decision or chance node.
    Returns the first seat, g % n."""
    sc, log, steps = ws.work, ws.log, ws.steps
    order = sc.order
    first = g % n
    R.init(st, prm, n, first)
    for c in range(6):
        order[c] = 6 + c
        order[6 + c] = c
    for i in range(8):
        order[12 + i] = STACK_TILES[i]
    shuffle_range(rng, 0, order, 0, 6)
    shuffle_range(rng, 0, order, 6, 6)
    shuffle_range(rng, 0, order, 12, 8)
    if steps.shape[0] > 1:
        for i in range(20):
            record(steps, K_DEAL, order[i])
    R.deal(st, prm, order)
    R.advance(st, prm, log, sc.reach, sc.cavek, sc.vis, sc.stk)
    return first


@njit(inline="always")
def resume_game(st, start, prm, n, g, rng, ws):
    """A game continued from the state ``start`` (int32[S_SIZE], copied into ``st``); returns its first seat."""
    for i in range(st.shape[0]):
        st[i] = start[i]
    return st[S_FIRST]


@njit(inline="always")
def to_move(st, prm, n, first, ws):
    """Whose turn: the seat deciding (S_ACTOR), else CHANCE (dice, a drawn tile, the die), OVER, or TRUNCATED (the
    turn cap max_turns reached)."""
    ph = st[S_PHASE]
    if ph == PH_OVER:
        return OVER
    if st[S_TURNS] >= prm[P_MAX_TURNS]:
        return TRUNCATED
    if ph == PH_CHANCE:
        return CHANCE
    return st[S_ACTOR]


@njit(inline="always")
def chance_outcomes(st, prm, ws):
    """Equally likely outcomes at the pending chance node (`rules.apply_chance` says what each means)."""
    return st[S_CH_N]


@njit(inline="always")
def sample_chance(st, prm, rng, ws):
    """An outcome on the chance stream (rng row 0), recorded when the batch records steps."""
    o = bounded(rng, 0, st[S_CH_N])
    steps = ws.steps
    if steps.shape[0] > 1:
        record(steps, K_CHANCE, o)
    return o


@njit(inline="always")
def apply_chance(st, prm, o, ws):
    """The chance outcome ``o`` takes effect and the turn runs on; 0, or 1 when `rules.chance` refuses it."""
    sc, log = ws.work, ws.log
    if R.chance(st, prm, o, log, sc.reach, sc.cavek, sc.vis, sc.stk) != 0:
        return 1
    R.advance(st, prm, log, sc.reach, sc.cavek, sc.vis, sc.stk)
    return 0


@njit(inline="always")
def legal_actions(st, prm, ws):
    """The legal actions into `action_mask(ws)`; returns their count."""
    return R.legal_actions(st, prm, ws.work.mask)


@njit(inline="always")
def decide(st, prm, seat, nl, sids, sparams, rng, ws):
    """Seat ``seat``'s strategy chooses among the ``nl`` > 1 legal actions (its own stream, rng row 1 + seat); the
    learned policy (`features.learned_choice`) reads its weights from the seat's parameter row."""
    sc = ws.work
    if sids[seat] == S.S_LEARNED:
        return F.play_learned(ws.learned, sparams[seat], sc.wrows[seat], st, prm, sc.mask, nl, rng, 1 + seat)
    return S.decide(sids[seat], sc.wrows[seat], st, prm, sc.mask, nl, rng, 1 + seat)


@njit(inline="always")
def apply_action(st, prm, a, rng, ws):
    """The deciding seat plays ``a`` (recorded when the batch records steps) and the turn runs on; 0, or 1 when
    `rules.act` refuses it."""
    sc, log, steps = ws.work, ws.log, ws.steps
    if steps.shape[0] > 1:
        record(steps, K_ACTION, a)
    if R.act(st, prm, a, log, sc.reach, sc.cavek, sc.vis, sc.stk) != 0:
        return 1
    R.advance(st, prm, log, sc.reach, sc.cavek, sc.vis, sc.stk)
    return 0


@njit(inline="always")
def invariants(st, prm):
    """`rules.check_invariants` (0: all hold)."""
    return R.check_invariants(st, prm)


@njit(inline="always")
def outcome(st, prm, n, first, status, scores_row, extra_row, curves_row, ws):
    """Scores (gold held), counters; returns (winners bitmask, turns, rounds)."""
    return game_outputs(st, n, status, scores_row, extra_row), st[S_TURNS], (st[S_TURNS] + n - 1) // n


@njit(inline="always")
def game_outputs(st, n, status, scores_row, extra_row):
    """Scores (gold held), winners bitmask and counters of a finished (or truncated) game."""
    for s in range(n):
        scores_row[s] = R.gold_of(st, s)
    w = 0
    if status == 0 and st[S_WINNER] >= 0:
        w = 1 << st[S_WINNER]
    extra_row[0] = st[S_FIRST]
    for i in range(R.N_COUNTERS):  # the counters S_DECISIONS.. in EXTRA_COLUMNS order
        extra_row[1 + i] = st[S_DECISIONS + i]
    return w


@njit(inline="always")
def sample_hidden(st, seat, prm, rng, row, ws):
    """Re-deal what ``seat`` cannot see, on stream ``row`` of ``rng`` only, consistently with what it saw (RULES.md
    H1; `kernels.galleon.hidden.redeal`: the tiles it cannot see back into the same places, kept where the public
    record pins them, the stack's order, unpeeked stickers, an attacker's weapon not yet shown to the defender).
    Canonical: the result depends only on what the seat saw and the stream. Returns the number of tiles re-dealt.
    Uses ws's reach/cave/visit/stack scratch."""
    sc = ws.work
    return redeal(st, seat, prm, rng, row, sc.reach, sc.cavek, sc.vis, sc.stk)


@njit(inline="always")
def arc_round(st, n):
    """The game's arc (kernels/loop.py): rounds completed (every seat's turn taken once more)."""
    return st[S_TURNS] // n


@njit(inline="always")
def arc_progress(st, prm, n, first, seat, ws):
    """The game's arc: the gold seat ``seat`` holds now (its score, `game_outputs`)."""
    return R.gold_of(st, seat)
