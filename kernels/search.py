"""Search players: flat Monte Carlo search over the root actions (UCB1 or sequential halving), on determinised
rollouts, for every game.

At a decision of a seat whose strategy is `SEARCH_SID`, the search estimates each legal action by ``budget``
rollouts, played by the game loop of `kernels.loop` and steered by `search_step` (game-independent: the loop deals
each world, plays it and scores it with the game's step verbs; the step only says which action the next world tries,
and which one the decision plays):

1. the rollout state is a copy of the true state (`resume_game`), whose hidden part is then re-dealt from what the
   deciding seat saw (`sample_hidden`, on a stream of the rollout's own): the search never reads what its seat
   cannot see;
2. the root action is the UCB1 choice (every action once first, the rollout strategy's own choice at the root
   first of all, then ``mean + explore * sqrt(ln r / visits)``), or, with ``root`` = halving, sequential halving's
   (Karnin, Koren and Somekh 2013, "Almost optimal exploration in multi-armed bandits"): ceil(log2 k) rounds of
   equal rollouts per surviving action on the same worlds, the worse half dropped after each, the rollout strategy's
   choice never dropped (with ``tiebreak`` score, a paired world both won or both lost goes to the higher final
   score of the seat);
3. the rest of the game is played by the game's own loop (`kernels.loop._play_batch`'s, the code a batch game runs),
   every search seat replaced by its rollout strategy (a scripted one), every other seat playing as it does at the
   table (docs/guide/search.md, "How it decides");
4. the reward is 1 when the deciding seat is among the winners (a team's win counts for each of its seats), else 0
   (a truncated or refused rollout scores 0).

UCB1 plays the most visited action (ties: the rollout strategy's own choice, then the higher mean, then the lower
action index), unless its win rate beats the rollout strategy's choice by less than ``deviate`` standard errors:
then it plays as its rollout strategy would. Halving plays the last round's challenger only if, on that round's
paired worlds (fresh: not those that chose it), the worlds it won and the rollout strategy's choice lost outnumber
the reverse by more than ``deviate`` standard errors (a sign test), else the rollout strategy's choice. Randomness: one draw from the seat's own stream per decision keys
every rollout's streams (`seed_world`: an action's v-th rollout plays world v, common random numbers across the
root's actions), so a result depends only on (seed, scenario, game index), and the chance stream and every other
seat's stream are untouched (common random numbers against a scripted seat in `sim compare`).

The search scratch (`new_search`) is one tuple passed to `play_batch` as its ``search`` argument; with ``search``
None (every scenario without a search seat) Numba prunes every search branch of the loop and no search code is
compiled.
"""

from __future__ import annotations

import math
from typing import Any, NamedTuple

import numpy as np

from kernels._jit import njit
from kernels.rng import N_STREAMS_MAX, game_key, next_u64, seed_row

SEARCH_SID = 63  # the strategy id of `search` in every game (scripted ids are small)

# columns of a search seat's parameter row (sparams[seat])
C_BUDGET = 0  # rollouts per decision
C_EXPLORE = 1  # UCB1 exploration constant
C_ROLLOUT = 2  # the rollout strategy (its index in the role's rollout choices; the sid is in the scratch)
C_DEVIATE = 3  # standard errors by which the most tried action must beat the rollout strategy's choice
C_ROOT = 4  # how the budget is spread over the root's actions: ROOT_UCB1 or ROOT_HALVING
C_TIEBREAK = 5  # under halving, what settles a world both actions won or both lost: TIE_NONE or TIE_SCORE
N_SEARCH_PARAMS = 6  # game-specific search parameters (Turnwall's memory) follow from this column
ROOT_UCB1 = 0  # UCB1: every action once, then the best upper confidence bound
ROOT_HALVING = 1  # sequential halving: rounds of equal rollouts per survivor, the worse half dropped each round
TIE_AUTO = 0  # the game's choice: sim.model.search resolves it to one of the two below before a kernel sees it
TIE_NONE = 1  # a world both actions won, or both lost, is a tie
TIE_SCORE = 2  # ... is won by the action after which the seat's final score was higher (`outcome`'s scores row)

BUDGET_MAX = 65_536  # sim.model.search.BUDGET_MAX: the prior's world is past every rollout's
HIDDEN_ROW = N_STREAMS_MAX  # the rollout stream row `sample_hidden` draws on (rows 0..n are the rollout's game)
RNG_ROWS = N_STREAMS_MAX + 1

# what a traced game records of each search decision (`new_search(record_len > 1)`): rows of REC_COLS int32s; row 0
# col 0 = rows used. A decision is a header row (REC_DECISION, seat, chosen action, candidates k, decisions made
# before it, budget, event-log rows written before it, the rollout strategy's choice, root allocation (ROOT_*) plus 2
# for the score tie-break under halving, the halving's last challenger or -1) then its candidate rows (REC_CANDIDATE,
# action, visits, wins, worlds of its last halving round it won and the rollout strategy's choice lost, the reverse,
# 0, 0, 0, 0): the REC_TOP most visited, and the chosen action, the rollout strategy's choice and the challenger if
# they are not among them; most visited first.
REC_COLS = 10
REC_DECISION = 1
REC_CANDIDATE = 2
REC_TOP = 5
# the control row of the decision under way (int64[N_CTL]), read and written by `search_step`
CTL_R = 0  # rollouts played
CTL_J = 1  # position of the root action the current rollout tries
CTL_V = 2  # the world the next rollout plays (its streams' key)
CTL_K = 3  # root actions
CTL_M = 4  # halving: survivors of the current round
CTL_ROUNDS = 5  # halving: rounds in all (ceil(log2 k))
CTL_RND = 6  # halving: the current round
CTL_I = 7  # halving: the survivor the current rollouts try
CTL_C = 8  # halving: rollouts the survivor has had this round
CTL_PER = 9  # halving: rollouts per survivor this round
CTL_CHOSEN = 10  # the action the decision chose, once made
N_CTL = 11
# `search_step`'s first argument (besides a rollout's status, ST_* >= 0) and what it returns (besides a root action)
SEARCH_BEGIN = -10  # a decision starts
SEARCH_PRIOR = -11  # its first world was decided by the rollout strategy
ROOT_PRIOR = -2  # the next world is the first: the rollout strategy chooses there
NO_ROOT = -1  # the budget is spent: the decision is made


class SearchScratch(NamedTuple):
    """The ``search`` argument of `play_batch` (plain numpy, allocated once per call by `new_search`; a named tuple
    Numba reads field by field as it read the positions before)."""

    batch: Any  # the rollouts' batch scratch: the game's `batch_scratch`, of the same type as the batch's own
    rng: np.ndarray  # uint64[RNG_ROWS, 4]: the rollouts' streams
    sids: np.ndarray  # int64[n]: each seat's strategy in rollouts
    sparams: np.ndarray  # float64[n, k]: their parameter rows
    acts: np.ndarray  # int64[n_actions]: the decision's root actions
    visits: np.ndarray  # int64[n_actions]: rollouts of each root action
    wins: np.ndarray  # int64[n_actions]: their wins
    scores: np.ndarray  # int32[n]: a rollout's final scores
    extra: np.ndarray  # int32[n_extra]: a rollout's extra columns
    curves: np.ndarray  # int32[*curves_shape]: a rollout's curves
    record: Any  # int32[record_len, REC_COLS], the decisions' record; None (no recording code compiled) without one
    counts: np.ndarray  # int64[4]: decisions made, rollouts played, rollouts ended in an error status, cut at the cap
    prior: np.ndarray  # int64[BUDGET_MAX]: the rollout strategy's result on each world (its win << 32, plus its score)
    ahead: np.ndarray  # int64[n_actions]: worlds of the halving round where the action did better than that choice
    behind: np.ndarray  # int64[n_actions]: ... where it did worse
    net: np.ndarray  # int64[n_actions]: that difference summed over all its rounds
    ctl: np.ndarray  # int64[N_CTL]: the control row of the decision under way (CTL_*)
    key: np.ndarray  # uint64[1]: the decision's key (the seat's own stream's draw)


def new_search(rollout_batch, n, n_actions, rollout_sids, rollout_sparams, n_extra, curves_shape, record_len=1):
    """The ``search`` argument of `play_batch`: a `SearchScratch` (its fields say what each holds), the decision
    record only for ``record_len`` > 1. rollout_sids: each seat's strategy in rollouts: a search seat's rollout
    strategy, every other seat its own."""
    return SearchScratch(
        batch=rollout_batch,
        rng=np.zeros((RNG_ROWS, 4), dtype=np.uint64),
        sids=np.ascontiguousarray(rollout_sids, dtype=np.int64),
        sparams=np.ascontiguousarray(rollout_sparams, dtype=np.float64),
        acts=np.zeros(n_actions, dtype=np.int64),
        visits=np.zeros(n_actions, dtype=np.int64),
        wins=np.zeros(n_actions, dtype=np.int64),
        scores=np.zeros(n, dtype=np.int32),
        extra=np.zeros(n_extra, dtype=np.int32),
        curves=np.zeros(curves_shape, dtype=np.int32),
        record=np.zeros((int(record_len), REC_COLS), dtype=np.int32) if record_len > 1 else None,
        counts=np.zeros(4, dtype=np.int64),
        prior=np.zeros(BUDGET_MAX, dtype=np.int64),
        ahead=np.zeros(n_actions, dtype=np.int64),
        behind=np.zeros(n_actions, dtype=np.int64),
        net=np.zeros(n_actions, dtype=np.int64),
        ctl=np.zeros(N_CTL, dtype=np.int64),
        key=np.zeros(1, dtype=np.uint64),
    )


@njit(forceinline=True)  # per rollout: no call
def seed_world(rrng, key, v, n):
    """Seed the rollout streams of world ``v`` of the decision keyed ``key``: rows 0..n (the game's chance and seat
    streams) and HIDDEN_ROW (the re-deal), each `seed_stream(key, v, 0, row)`."""
    k = game_key(key, np.uint64(v), np.int64(0))  # typed as the batch's call is: one compiled copy
    for row in range(1 + n):
        seed_row(rrng, row, k, row)
    seed_row(rrng, HIDDEN_ROW, k, HIDDEN_ROW)


@njit(forceinline=True)  # per rollout: no call
def search_step(search, s, a, w, mask, made, mark, seat, sparams, rng):
    """One step of seat ``seat``'s search decision: which root action the next world tries, or, the budget spent,
    the action chosen. Game-independent: `kernels.loop`'s game loop deals each world (a copy of the batch game's
    state, `resume_game`, whose hidden part is re-dealt from what the seat saw, `sample_hidden`, on the streams
    `seed_world` seeds for world ctl[CTL_V]), plays it with the game's own code and scores it (`outcome`).

    ``s``: SEARCH_BEGIN (the decision starts, among the legal actions set in ``mask`` int8[n_actions]),
    SEARCH_PRIOR (the first world was decided: ``a`` the rollout strategy's choice, -1 when that world offered other
    actions), else the status (kernels.loop's ST_*) a rollout ended with (a refused root action: ST_BAD_ACTION or
    ST_NO_ACTION); ``w``: the winners' bit set of a rollout that ended (ST_DONE), its scores in search.scores;
    ``made``, ``mark``: the batch game's decisions and event-log rows so far (for the record); ``rng``: the batch
    game's streams (the seat's row keys the decision).

    Returns the root action the next world tries (its world in ctl[CTL_V]); ROOT_PRIOR for the decision's first
    world, where the loop lets the rollout strategy choose (its choice the ``a`` of the next step); NO_ROOT once the
    budget is spent, the action chosen in ctl[CTL_CHOSEN] (counted and, in a traced game, recorded).

    One function, not a step calling a `next_root` and a `choose`: each compiled function costs Numba its own
    pipeline and module, and the split cost 0.35-1.0 s of cold compile per search scenario (kernels/README.md)."""
    acts, visits, wins, srow, counts = search.acts, search.visits, search.wins, search.scores, search.counts
    prior_val, ahead, behind, net, ctl = search.prior, search.ahead, search.behind, search.net, search.ctl
    budget = np.int64(sparams[seat, C_BUDGET])
    halving = sparams[seat, C_ROOT] == ROOT_HALVING
    by_score = sparams[seat, C_TIEBREAK] == TIE_SCORE
    if s == SEARCH_BEGIN:
        k = 0
        for b in range(mask.shape[0]):
            if mask[b] != 0:
                acts[k] = b
                visits[k] = 0
                wins[k] = 0
                net[k] = 0
                k += 1
        search.key[0] = next_u64(rng, 1 + seat)  # the seat's own stream: one draw a decision keys it all
        rounds = _ceil_log2(k)
        ctl[CTL_R] = 0
        ctl[CTL_K] = k
        ctl[CTL_M] = k
        ctl[CTL_ROUNDS] = rounds
        ctl[CTL_RND] = 0
        ctl[CTL_I] = 0
        ctl[CTL_C] = 0
        ctl[CTL_PER] = _per_round(budget, 0, k, rounds)
        # the rollout strategy's own choice, in a world of its own (BUDGET_MAX, past every rollout's), goes first:
        # it is tried first and wins every tie, so a search with too few rollouts to tell actions apart plays as its
        # rollout strategy would
        ctl[CTL_V] = BUDGET_MAX
        return ROOT_PRIOR
    if s == SEARCH_PRIOR:
        for i in range(1, ctl[CTL_K]):  # the rollout strategy's choice (a >= 0) goes to position 0
            if acts[i] == a:
                acts[i] = acts[0]
                acts[0] = a
                break
    else:
        # the reward: 1 when the seat is among the winners (a team's win counts for each of its seats), else 0; a
        # truncated or refused rollout scores 0
        win = 0
        val = np.int64(0)
        if s == 0:  # ST_DONE (kernels.loop imports this module)
            win = (w >> seat) & 1
            val = np.int64(win) << 32
            if by_score:  # a win first, then the higher score (|score| < 2**31: the order is lexicographic)
                val += srow[seat]
        elif s == 1:  # ST_TRUNCATED
            counts[3] += 1
        else:
            counts[2] += 1
        # counted for the root action it tried (position j); under halving its value is paired with the rollout
        # strategy's choice's on the same world (that choice plays a round's worlds first)
        j = ctl[CTL_J]
        if halving:
            if j == 0:
                prior_val[visits[0]] = val
            elif val > prior_val[visits[j]]:
                ahead[j] += 1
                net[j] += 1
            elif val < prior_val[visits[j]]:
                behind[j] += 1
                net[j] -= 1
        visits[j] += 1
        wins[j] += win
        ctl[CTL_R] += 1
    # the position j of the root action the next rollout tries. UCB1: every action once, then the best upper
    # confidence bound; halving (Karnin, Koren and Somekh 2013): ceil(log2 k) rounds, in each every survivor
    # (acts[:m]) gets `per` rollouts, then the survivors are sorted and the better half kept, the rollout strategy's
    # choice (acts[0]) always among them; the last round compares it with one challenger on paired worlds
    r, k = ctl[CTL_R], ctl[CTL_K]
    if r < budget:
        j = r
        if halving:
            m, rounds, rnd, i, c, per = ctl[CTL_M], ctl[CTL_ROUNDS], ctl[CTL_RND], ctl[CTL_I], ctl[CTL_C], ctl[CTL_PER]
            if c == per:
                c = 0
                i += 1
            if i == m:
                _sort_survivors(acts, visits, wins, net, m, by_score)
                rnd += 1
                if rnd < rounds:
                    m = (m + 1) // 2
                per = _per_round(budget, r, m, max(1, rounds - rnd))
                i = 0
            if i == 0 and c == 0:  # a round starts: its paired counts start afresh
                for q in range(m):
                    ahead[q] = 0
                    behind[q] = 0
            j = i
            ctl[CTL_M], ctl[CTL_RND], ctl[CTL_I], ctl[CTL_C], ctl[CTL_PER] = m, rnd, i, c + 1, per
        elif r >= k:
            lnr = math.log(r)
            explore = sparams[seat, C_EXPLORE]
            best = -1.0
            j = 0
            for q in range(k):
                u = wins[q] / visits[q] + explore * math.sqrt(lnr / visits[q])
                if u > best:
                    best = u
                    j = q
        ctl[CTL_J] = j
        # common random numbers: the v-th rollout of every action plays world v (the same re-deal, the same dice as
        # far as the games draw alike), so actions are compared on paired games
        ctl[CTL_V] = visits[j]
        return acts[j]
    # the budget spent: the action the decision plays (module docstring)
    m = ctl[CTL_M]
    j = 0
    challenger = -1
    deviate = sparams[seat, C_DEVIATE]
    if halving:
        # the last round's challenger, tested on that round's paired worlds only (fresh: the rounds that chose it do
        # not count): it replaces the rollout strategy's choice when the worlds it won and that choice lost outnumber
        # the reverse by more than ``deviate`` standard errors of the difference (a sign test)
        for i in range(1, m):
            if j == 0 or ahead[i] - behind[i] > ahead[j] - behind[j]:
                j = i
        challenger = j if j > 0 and visits[j] > 0 else -1
        if j > 0 and ahead[j] - behind[j] <= deviate * math.sqrt(ahead[j] + behind[j]):
            j = 0  # (deviate >= 0: a challenger no better than the choice never passes)
    else:
        for i in range(1, k):  # acts[0] is the rollout strategy's choice: it keeps every tie of visits
            better = j > 0 and visits[i] == visits[j] and wins[i] * visits[j] > wins[j] * visits[i]
            if visits[i] > visits[j] or better:
                j = i
        # leave the rollout strategy's choice only for one that beats it beyond the noise (``deviate`` standard
        # errors of the difference, Laplace-smoothed): the most tried of many actions tried a few times each is
        # mostly noise (a Treasure Hunters team of searchers playing noise never won; docs/guide/search.md)
        if j > 0 and visits[0] > 0:
            p0 = (wins[0] + 1.0) / (visits[0] + 2.0)
            pj = (wins[j] + 1.0) / (visits[j] + 2.0)
            se = math.sqrt(p0 * (1.0 - p0) / visits[0] + pj * (1.0 - pj) / visits[j])
            if wins[j] / visits[j] - wins[0] / visits[0] <= deviate * se:
                j = 0
    counts[0] += 1
    counts[1] += budget
    ctl[CTL_CHOSEN] = acts[j]
    tiebreak = halving + 2 * (halving and by_score)
    _record(search.record, seat, made, budget, mark, tiebreak, acts, visits, wins, ahead, behind, k, j, challenger)
    return NO_ROOT


@njit
def _ceil_log2(k):
    """Rounds of sequential halving over k >= 1 actions: ceil(log2 k) (0 for one action)."""
    r = 0
    while (1 << r) < k:
        r += 1
    return r


@njit
def _per_round(budget, used, m, rounds_left):
    """Rollouts per survivor in a round of sequential halving: the budget left shared evenly over the rounds left
    and the ``m`` survivors, at least 1 (a budget smaller than the actions tries the first ones once each); the last
    round rounds up, so that it spends the whole budget (its last survivors may get one rollout fewer)."""
    if rounds_left <= 1:
        return max(1, (budget - used + m - 1) // m)
    return max(1, (budget - used) // (m * rounds_left))


@njit
def _sort_survivors(acts, visits, wins, net, m, by_score):
    """Sort positions 1 .. m-1 of (acts, visits, wins, net), best first (stable; untried last), position 0 (the
    rollout strategy's choice) staying: by win rate (exact), or with ``by_score`` by ``net``, the worlds each won
    minus those it lost against position 0, over the same worlds for every survivor of a halving round. One
    function for both orders: each compiled function costs its own pipeline (search_step's docstring)."""
    for i in range(2, m):
        a, v, w, d = acts[i], visits[i], wins[i], net[i]
        p = i
        while p > 1 and v > 0:
            v1, w1 = visits[p - 1], wins[p - 1]
            if v1 > 0 and (d <= net[p - 1] if by_score else w * v1 <= w1 * v):
                break
            acts[p], visits[p], wins[p], net[p] = acts[p - 1], v1, w1, net[p - 1]
            p -= 1
        acts[p], visits[p], wins[p], net[p] = a, v, w, d


@njit
def _record(rec, seat, made, budget, mark, halving, acts, visits, wins, ahead, behind, k, chosen, challenger):
    """Append a decision to ``rec`` (REC_* layout): the header (seat, the ``chosen`` position's action, k, decisions
    ``made`` before, budget, event-log ``mark``, the rollout strategy's choice acts[0], ``halving``, the
    ``challenger`` position's action or -1), then the candidates: the REC_TOP most visited and the chosen, the
    rollout strategy's choice (position 0) and the challenger, most visited first (ties: lower position). ``rec``
    None (an untraced game): nothing, and no recording code compiled."""
    if rec is None:
        return
    n = 0
    for i in range(k):
        n += _kept(i, visits, k, chosen, challenger)
    at = rec[0, 0] + 1
    if at + n > rec.shape[0]:
        return
    rec[at, 0] = REC_DECISION
    rec[at, 1] = seat
    rec[at, 2] = acts[chosen]
    rec[at, 3] = k
    rec[at, 4] = made
    rec[at, 5] = budget
    rec[at, 6] = mark
    rec[at, 7] = acts[0]
    rec[at, 8] = halving  # bit 0: halving, bit 1: the score tie-break
    rec[at, 9] = acts[challenger] if challenger >= 0 else -1
    row = at
    last_v = np.int64(1) << 62
    last_i = -1
    for _ in range(n):  # the kept ones in (visits desc, position asc) order
        b = -1
        for i in range(k):
            after = visits[i] < last_v or (visits[i] == last_v and i > last_i)
            if after and (b < 0 or visits[i] > visits[b]) and _kept(i, visits, k, chosen, challenger):
                b = i
        row += 1
        rec[row, :] = 0
        rec[row, 0] = REC_CANDIDATE
        rec[row, 1] = acts[b]
        rec[row, 2] = visits[b]
        rec[row, 3] = wins[b]
        if halving:
            rec[row, 4] = ahead[b]
            rec[row, 5] = behind[b]
        last_v = visits[b]
        last_i = b
    rec[0, 0] = row


@njit
def _kept(i, visits, k, chosen, challenger):
    """Whether position ``i`` is a recorded candidate: among the REC_TOP most visited (ties: lower position), the
    chosen one, the rollout strategy's choice (position 0) or the challenger."""
    if i == chosen or i == 0 or i == challenger:
        return True
    ahead = 0
    for q in range(k):
        if visits[q] > visits[i] or (visits[q] == visits[i] and q < i):
            ahead += 1
    return ahead < REC_TOP


def decisions(rec) -> list[dict]:
    """The search decisions a traced game recorded (``rec`` int32[L, REC_COLS], `new_search`'s record), in order:
    dicts of seat, action (played), candidates (how many legal actions), before (decisions made before it in the
    game), budget, mark (event-log rows written before it), prior (the rollout strategy's choice), halving (bool),
    tiebreak ("none", or "score": a paired world both won or both lost went to the higher final score), challenger (halving's last challenger, or -1), top: [(action, rollouts, wins, ahead, behind), ...] most visited
    first (ahead / behind: the worlds of its last halving round it won and the prior lost, and the reverse; 0 under
    ucb1)."""
    out: list[dict] = []
    if rec is None:  # an untraced game's scratch records nothing
        return out
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
            "prior": int(rec[i, 7]),
            "halving": bool(rec[i, 8] & 1),
            "tiebreak": "score" if rec[i, 8] & 2 else "none",
            "challenger": int(rec[i, 9]),
            "top": [],
        }
        i += 1
        while i <= end and int(rec[i, 0]) == REC_CANDIDATE:
            d["top"].append(tuple(int(x) for x in rec[i, 1:6]))
            i += 1
        out.append(d)
    return out
