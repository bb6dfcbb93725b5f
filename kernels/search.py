"""Search players: flat Monte Carlo search with UCB1 over the root actions, on determinised rollouts, for every game.

At a decision of a seat whose strategy is `SEARCH_SID`, `_search_decide` (bound per game by `kernels.loop.bind`,
with the game's step verbs as its globals, like the loop) estimates each legal action by ``budget`` rollouts:

1. the rollout state is a copy of the true state (`resume_game`), whose hidden part is then re-dealt from what the
   deciding seat saw (`sample_hidden`, on a stream of the rollout's own): the search never reads what its seat
   cannot see;
2. the root action is the UCB1 choice (every action once first, the rollout strategy's own choice at the root
   first of all, then ``mean + explore * sqrt(ln r / visits)``);
3. the rest of the game is played by the game's own loop (`kernels.loop._play_out`, the code a batch game runs),
   every search seat replaced by its rollout strategy (a scripted one), every other seat playing as it does at the
   table (docs/guide/search.md, "How it decides");
4. the reward is 1 when the deciding seat is among the winners (a team's win counts for each of its seats), else 0
   (a truncated or refused rollout scores 0).

The action played is the most visited (ties: the rollout strategy's own choice, then the higher mean, then the
lower action index), unless its win rate beats the rollout strategy's choice by less than ``deviate`` standard errors:
then it plays as its rollout strategy would. Randomness: one draw from the seat's own stream per decision keys
every rollout's streams (`_seed_world`: an action's v-th rollout plays world v, common random numbers across the
root's actions), so a result depends only on (seed, scenario, game index), and the chance stream and every other
seat's stream are untouched (common random numbers against a scripted seat in `sim compare`).

The search scratch (`new_search`) is one tuple passed to `play_batch` as its ``search`` argument; with ``search``
None (every scenario without a search seat) Numba prunes `_search_decide` to a ``return -1`` and no search code is
compiled.
"""

# ruff: noqa: F821  (the step verbs and `play_out` are `_search_decide`'s globals only once `bind` gives them)
from __future__ import annotations

import math

import numpy as np

from kernels._jit import njit
from kernels.bits import is_set
from kernels.rng import N_STREAMS_MAX, next_u64, seed_stream

SEARCH_SID = 63  # the strategy id of `search` in every game (scripted ids are small)

# columns of a search seat's parameter row (sparams[seat])
C_BUDGET = 0  # rollouts per decision
C_EXPLORE = 1  # UCB1 exploration constant
C_ROLLOUT = 2  # the rollout strategy (its index in the role's rollout choices; the sid is in the scratch)
C_DEVIATE = 3  # standard errors by which the most tried action must beat the rollout strategy's choice
N_SEARCH_PARAMS = 4  # game-specific search parameters (Turnwall's memory) follow from this column

BUDGET_MAX = 65_536  # sim.model.search.BUDGET_MAX: the prior's world is past every rollout's
HIDDEN_ROW = N_STREAMS_MAX  # the rollout stream row `sample_hidden` draws on (rows 0..n are the rollout's game)
RNG_ROWS = N_STREAMS_MAX + 1

# what a traced game records of each search decision (`new_search(record_len > 1)`): rows of REC_COLS int32s; row 0
# col 0 = rows used. A decision is a header row (REC_DECISION, seat, chosen action, candidates k, decisions made
# before it, budget, event-log rows written before it) then min(k, REC_TOP) rows (REC_CANDIDATE, action, visits,
# wins, 0, 0, 0), most visited first.
REC_COLS = 7
REC_DECISION = 1
REC_CANDIDATE = 2
REC_TOP = 5
SCRATCH_RECORD = 10  # where the record and the counts sit in `new_search`'s tuple
SCRATCH_COUNTS = 11


def new_search(rollout_batch, n, n_actions, rollout_sids, rollout_sparams, n_extra, curves_shape, record_len=1):
    """The ``search`` argument of `play_batch` (plain numpy, allocated once per call): (rollout batch scratch (the
    game's `batch_scratch`, of the same type as the batch's own), rollout streams uint64[RNG_ROWS, 4], rollout
    strategy per seat int64[n], their parameter rows float64[n, k], root actions int64[n_actions], visits
    int64[n_actions], wins int64[n_actions], a rollout's scores int32[n], extra int32[n_extra], curves
    int32[*curves_shape], decision record int32[record_len, REC_COLS] (one row records nothing), counts int64[4]:
    search decisions made, rollouts played, rollouts that ended in an error status, rollouts cut at the turn cap,
    with this scratch (for `sim bench` and the tests)).

    rollout_sids: each seat's strategy in rollouts: a search seat's rollout strategy, every other seat its own."""
    return (
        rollout_batch,
        np.zeros((RNG_ROWS, 4), dtype=np.uint64),
        np.ascontiguousarray(rollout_sids, dtype=np.int64),
        np.ascontiguousarray(rollout_sparams, dtype=np.float64),
        np.zeros(n_actions, dtype=np.int64),
        np.zeros(n_actions, dtype=np.int64),
        np.zeros(n_actions, dtype=np.int64),
        np.zeros(n, dtype=np.int32),
        np.zeros(n_extra, dtype=np.int32),
        np.zeros(curves_shape, dtype=np.int32),
        np.zeros((max(1, int(record_len)), REC_COLS), dtype=np.int32),
        np.zeros(4, dtype=np.int64),
    )


@njit
def _seed_world(rrng, key, v, n):
    """Seed the rollout streams of world ``v`` of the decision keyed ``key``: rows 0..n (the game's chance and seat
    streams) and HIDDEN_ROW (the re-deal), each `seed_stream(key, v, 0, row)`."""
    for row in range(1 + n):
        seed_stream(rrng, row, key, v, 0, row)
    seed_stream(rrng, HIDDEN_ROW, key, v, 0, HIDDEN_ROW)


def _search_decide(search, st, prm, n, first, seat, nl, sparams, rng, ws):
    """Seat ``seat``'s search decision among the ``nl`` > 1 legal actions in `action_mask(ws)` (module docstring);
    -1 when ``search`` is None (no search scratch: the loop then records ST_BAD_ACTION)."""
    if search is None:
        return -1
    rbatch, rrng, rsids, rsparams, acts, visits, wins, srow, xrow, crow, rec, counts = search
    rst, _unused, rws = parts(rbatch)
    mask = action_mask(ws)
    rmask = action_mask(rws)
    k = 0
    for a in range(mask.shape[0]):
        if mask[a] != 0:
            acts[k] = a
            visits[k] = 0
            wins[k] = 0
            k += 1
    budget = np.int64(sparams[seat, C_BUDGET])
    explore = sparams[seat, C_EXPLORE]
    key = next_u64(rng, 1 + seat)  # the seat's own stream: one draw a decision keys every rollout
    prepare(rsids, rsparams, rws)
    # the rollout strategy's own choice (in a re-dealt world of its own, BUDGET_MAX, past every rollout's) goes
    # first: it is tried first and wins every tie, so a search with too few rollouts to tell actions apart plays as
    # its rollout strategy would
    _seed_world(rrng, key, BUDGET_MAX, n)
    resume_game(rst, st, prm, n, 0, rrng, rws)
    sample_hidden(rst, seat, prm, rrng, HIDDEN_ROW, rws)
    if legal_actions(rst, prm, rws) == nl:
        prior = decide(rst, prm, seat, nl, rsids, rsparams, rrng, rws)
        for i in range(1, k):
            if acts[i] == prior:
                acts[i] = acts[0]
                acts[0] = prior
                break
    for r in range(budget):
        j = r
        if r >= k:
            lnr = math.log(r)
            best = -1.0
            j = 0
            for i in range(k):
                v = wins[i] / visits[i] + explore * math.sqrt(lnr / visits[i])
                if v > best:
                    best = v
                    j = i
        # common random numbers: the v-th rollout of every action plays world v (the same re-deal, the same dice
        # as far as the games draw alike), so actions are compared on paired games
        _seed_world(rrng, key, visits[j], n)
        rfirst = resume_game(rst, st, prm, n, 0, rrng, rws)
        sample_hidden(rst, seat, prm, rrng, HIDDEN_ROW, rws)
        s = 2  # kernels.loop.ST_BAD_ACTION (loop imports this module): the root action was refused
        if legal_actions(rst, prm, rws) > 0 and is_set(acts[j], rmask):
            if apply_action(rst, prm, acts[j], rrng, rws) == 0:
                s = play_out(rst, prm, n, rfirst, rsids, rsparams, rrng, rws, None, None)
        win = 0
        if s == 0:  # ST_DONE
            w, _t, _r = outcome(rst, prm, n, rfirst, s, srow, xrow, crow, rws)
            win = (w >> seat) & 1
        elif s == 1:  # ST_TRUNCATED
            counts[3] += 1
        else:
            counts[2] += 1
        visits[j] += 1
        wins[j] += win
    j = 0
    for i in range(1, k):  # acts[0] is the rollout strategy's choice: it keeps every tie of visits
        better = j > 0 and visits[i] == visits[j] and wins[i] * visits[j] > wins[j] * visits[i]
        if visits[i] > visits[j] or better:
            j = i
    # leave the rollout strategy's choice only for one that beats it beyond the noise (``deviate`` standard errors of
    # the difference, Laplace-smoothed): the most tried of many actions tried a few times each is mostly noise (a
    # Treasure Hunters team of searchers playing noise never won; measured in docs/guide/search.md)
    if j > 0 and visits[0] > 0:
        p0 = (wins[0] + 1.0) / (visits[0] + 2.0)
        pj = (wins[j] + 1.0) / (visits[j] + 2.0)
        se = math.sqrt(p0 * (1.0 - p0) / visits[0] + pj * (1.0 - pj) / visits[j])
        if wins[j] / visits[j] - wins[0] / visits[0] <= sparams[seat, C_DEVIATE] * se:
            j = 0
    counts[0] += 1
    counts[1] += budget
    if rec.shape[0] > 1:
        _record(rec, seat, acts, visits, wins, k, j, st[S_DECISIONS], budget, log_mark(ws))
    return acts[j]


@njit
def _record(rec, seat, acts, visits, wins, k, chosen, made, budget, mark):
    """Append a decision to ``rec`` (REC_* layout): the header, then the REC_TOP most visited candidates."""
    m = min(k, REC_TOP)
    at = rec[0, 0] + 1
    if at + 1 + m > rec.shape[0]:
        return
    rec[at, 0] = REC_DECISION
    rec[at, 1] = seat
    rec[at, 2] = acts[chosen]
    rec[at, 3] = k
    rec[at, 4] = made
    rec[at, 5] = budget
    rec[at, 6] = mark
    done = 0
    last_v = np.int64(1) << 62
    last_i = -1
    while done < m:  # the next most visited after (last_v, last_i), in (visits desc, index asc) order
        b = -1
        for i in range(k):
            after = visits[i] < last_v or (visits[i] == last_v and i > last_i)
            if after and (b < 0 or visits[i] > visits[b]):
                b = i
        done += 1
        row = at + done
        rec[row, 0] = REC_CANDIDATE
        rec[row, 1] = acts[b]
        rec[row, 2] = visits[b]
        rec[row, 3] = wins[b]
        rec[row, 4] = 0
        rec[row, 5] = 0
        rec[row, 6] = 0
        last_v = visits[b]
        last_i = b
    rec[0, 0] = at + m


def decisions(rec) -> list[dict]:
    """The search decisions a traced game recorded (``rec`` int32[L, REC_COLS], `new_search`'s record), in order:
    dicts of seat, action (played), candidates (how many legal actions), before (decisions made before it in the
    game), budget, mark (event-log rows written before it), top: [(action, rollouts, wins), ...] most visited
    first."""
    out: list[dict] = []
    i, end = 1, int(rec[0, 0])
    while i <= end:
        if int(rec[i, 0]) != REC_DECISION:
            break
        d = {
            "seat": int(rec[i, 1]),
            "action": int(rec[i, 2]),
            "candidates": int(rec[i, 3]),
            "before": int(rec[i, 4]),
            "budget": int(rec[i, 5]),
            "mark": int(rec[i, 6]),
            "top": [],
        }
        i += 1
        while i <= end and int(rec[i, 0]) == REC_CANDIDATE:
            d["top"].append((int(rec[i, 1]), int(rec[i, 2]), int(rec[i, 3])))
            i += 1
        out.append(d)
    return out
