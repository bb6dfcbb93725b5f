"""The one game loop every game's `play_batch` runs, written once here and compiled once per game.

A game supplies its step verbs in ``kernels/<game>/step.py`` (docs/dev/kernel-contract.md lists them, with their
signatures: the same in every game); `bind` makes that game's batch entry point from `_play_batch` below. The loop
serves both a batch of fresh games (``resume`` None: each game is dealt from its chance stream) and rollouts from a
copied mid-game state (``resume`` an int32 state vector: each game starts from a copy of it, its streams seeded by
its own game index as a batch game's are); the two are separate compiled specializations (the argument's type
differs), so a batch never carries the rollout code and the other way round.

A search player's rollouts are played by the same loop: it switches its frame to the worlds the search deals and
back (`_play_batch`; kernels/README.md, "How the loop is shared"), so the game's code is compiled once.

Why `bind` rebinds the function's globals instead of closing over the verbs: Numba keys a function's cache entry
by its code and the pickled values of its closure cells, and a dispatcher pickles with an identifier drawn afresh in
every process, so a closure over the verbs (a factory) misses the cache in every new process (measured with
numba 0.68.1: a full cold compile per run). A function whose verbs are globals keys by its code alone; each game's
copy gets its own qualified name, so each game has its own cache files (a test runs a batch in two fresh processes
and checks that the second loads every entry point from the cache).
"""

# ruff: noqa: F821  (the step verbs are `_play_batch`'s globals only once `bind` gives it a game's)
from __future__ import annotations

import functools
import hashlib
import inspect
import types

import numpy as np

from kernels._jit import njit
from kernels.arc import (
    ARC_CHANGES,
    ARC_CLEAR,
    ARC_EVER_LAST,
    ARC_FIGURES,
    ARC_HALF_LAST,
    ARC_HALF_LEAD,
    ARC_LAST_PREV,
    ARC_PREV,
    STANDING_BITS,
)
from kernels.batch import play_games
from kernels.bits import is_set, only_set
from kernels.rng import seed_game
from kernels.search import (
    CTL_CHOSEN,
    CTL_V,
    HIDDEN_ROW,
    NO_ROOT,
    ROOT_PRIOR,
    SEARCH_BEGIN,
    SEARCH_PRIOR,
    SEARCH_SID,
    search_step,
    seed_world,
)

# what the verb `to_move` answers when no seat decides: a chance node, the game over, the game cut at its turn cap
CHANCE = -1
OVER = -2
TRUNCATED = -3

# status of a game (status[i] in the batch outputs)
ST_DONE = 0
ST_TRUNCATED = 1
ST_BAD_ACTION = 2  # a strategy chose an illegal action, or apply_action refused it
ST_NO_ACTION = 3  # a decision node with no legal action
ST_BAD_CHANCE = 4  # apply_chance refused the outcome
ST_INVARIANT = 100  # + the invariant's code (check mode only)
ST_PLAYING = -1  # (inside the loop) the game goes on

# the verbs the loop calls, each game's step.py defines every one (kernel-contract.md, "Step verbs")
VERBS = (
    "parts",
    "prepare",
    "new_game",
    "resume_game",
    "to_move",
    "sample_chance",
    "apply_chance",
    "legal_actions",
    "action_mask",
    "decide",
    "apply_action",
    "invariants",
    "outcome",
    "sample_hidden",
    "log_mark",
    "S_DECISIONS",
)


def _play_batch(
    seed,
    point,
    game0,
    n_games,
    n,
    prm,
    sids,
    sparams,
    scores,
    winners,
    turns,
    rounds,
    status,
    extra,
    curves,
    batch,
    check=None,
    resume=None,
    search=None,
    stop=False,
    arc=None,
):
    """Play games game0 .. game0 + n_games - 1, one after the other; row i of every output is game game0 + i
    (docs/dev/kernel-contract.md, "Batch signature"). ``check`` not None checks the game's invariants after every
    step (status ST_INVARIANT + code when one breaks); ``resume`` None deals each game afresh, an int32 state vector
    starts each game from a copy of it (a rollout); ``search`` the search players' scratch
    (`kernels.search.new_search`) when a seat's strategy is `search`, else None. Numba prunes the branch of a None
    argument from the compiled code, so the runner's kernel carries neither the check, the resume path nor search.
    ``stop`` (the tests' single search decision): the first game stops at its first search decision, the action
    chosen in status[0]. ``arc`` (None, or int32[n_games, rows, rounds], rows n + 2 or 2): the game's arc recorded
    there (below, kernels/arc.py); None compiles none of it.

    The game loop is written once, here: a batch game and every rollout of a search player's are played by it. A
    search decision does not call a second copy of the loop: the loop switches the game it plays (its frame: the
    state, first seat, strategies, streams and scratch) from the batch game to the worlds the search deals
    (`kernels.search.search_step`), plays them one after the other, then switches back and plays the action the
    search chose (kernels/README.md, "How the loop is shared")."""
    st, rng, ws = parts(batch)
    prepare(sids, sparams, ws)
    for ii in range(n_games):
        g = game0 + ii
        seed_game(rng, seed, point, g, n)
        if resume is None:
            first = new_game(st, prm, n, g, rng, ws)
        else:
            first = resume_game(st, resume, prm, n, g, rng, ws)
        arcr = arc_begin(st, prm, n, arc, ii, resume, rng, ws)  # rounds of the game's arc recorded so far
        gst, gfirst, gsids, gsparams, grng, gws = st, first, sids, sparams, rng, ws
        rollout = False  # the frame is a world of a search's, not the batch game
        root = NO_ROOT  # in a world: the root action the search tries there (ROOT_PRIOR: the rollout strategy's)
        seat = -1  # the searching seat
        nl0 = 0  # its legal actions in the batch game
        searched = -1  # the action its search chose, to be played in the batch game
        while True:  # a frame: the batch game, or a world of a search's
            mask = action_mask(gws)
            s = ST_PLAYING
            a = -1
            while s == ST_PLAYING:  # its steps (the frame does not change in here: the compiled loop keeps it)
                arcr = arc_tick(gst, prm, n, gfirst, arc, ii, rollout, arcr, gws)
                who = to_move(gst, prm, n, gfirst, gws)
                if who < 0:
                    if who == CHANCE:
                        if apply_chance(gst, prm, sample_chance(gst, prm, grng, gws), gws) != 0:
                            s = ST_BAD_CHANCE
                    elif who == OVER:
                        s = ST_DONE
                    else:
                        s = ST_TRUNCATED
                else:
                    nl = legal_actions(gst, prm, gws)
                    if nl == 0:
                        s = ST_NO_ACTION
                    elif search is not None and root >= 0:
                        a = root  # the action the search tries (not the game's decision: not counted)
                        root = NO_ROOT
                        if not is_set(a, mask):
                            s = ST_BAD_ACTION
                    elif search is not None and root == ROOT_PRIOR and nl != nl0:
                        root = NO_ROOT  # the world offers other actions: no rollout strategy's choice to try first
                        s = SEARCH_PRIOR
                    elif nl == 1:
                        a = only_set(mask)
                    # (a search seat: only in the batch game, every seat of a world plays a scripted strategy)
                    elif search is not None and gsids[who] == SEARCH_SID:
                        if searched < 0:
                            seat = who
                            nl0 = nl
                            s = SEARCH_BEGIN
                        else:
                            a = searched
                            searched = -1
                            if stop:
                                status[ii] = a
                                return
                            gst[S_DECISIONS] += 1
                            if not is_set(a, mask):
                                s = ST_BAD_ACTION
                    else:
                        a = decide(gst, prm, who, nl, gsids, gsparams, grng, gws)
                        if search is not None and root == ROOT_PRIOR:
                            root = NO_ROOT
                            s = SEARCH_PRIOR  # (a: the rollout strategy's choice)
                        else:
                            gst[S_DECISIONS] += 1
                            if not is_set(a, mask):
                                s = ST_BAD_ACTION
                    if s == ST_PLAYING and apply_action(gst, prm, a, grng, gws) != 0:
                        s = ST_BAD_ACTION
                if s == ST_PLAYING and check is not None and not rollout:
                    code = invariants(gst, prm)
                    if code != 0:
                        s = ST_INVARIANT + code
            if search is None or not (rollout or s == SEARCH_BEGIN):
                break
            # a search decision starts, or one of its worlds is done (a rollout ended with status s, or the first
            # world was decided): its next world, dealt into the rollout frame, or, the budget spent, the decision,
            # played in the batch game
            w = 0
            if s == SEARCH_BEGIN:
                prepare(search.sids, search.sparams, parts(search.batch)[2])  # the rollouts' strategies
            elif rollout and s == ST_DONE:  # the world's winners (its scores in search.scores): the search's reward
                w, _t, _r = game_outcome(gst, prm, n, gfirst, s, search.scores, search.extra, search.curves, gws)
            root = search_step(search, s, a, w, mask, st[S_DECISIONS], log_mark(ws), seat, sparams, rng)
            if root == NO_ROOT:
                searched = search.ctl[CTL_CHOSEN]
                gst, gfirst, gsids, gsparams, grng, gws = st, first, sids, sparams, rng, ws
                rollout = False
            else:  # a copy of the batch game, its hidden part re-dealt from what the seat saw, on the world's streams
                gst, _unused, gws = parts(search.batch)
                gsids, gsparams, grng = search.sids, search.sparams, search.rng
                seed_world(grng, search.key[0], search.ctl[CTL_V], n)
                gfirst = resume_game(gst, st, prm, n, 0, grng, gws)
                sample_hidden(gst, seat, prm, grng, HIDDEN_ROW, gws)
                rollout = True
        status[ii] = s
        w, t, r = game_outcome(st, prm, n, first, s, scores[ii], extra[ii], curves[ii], ws)
        winners[ii] = w
        turns[ii] = t
        rounds[ii] = r
        arc_end(st, prm, n, first, r, w, arc, ii, arcr, resume, ws)


def _game_outcome(st, prm, n, first, s, scores_row, extra_row, curves_row, ws):
    """The verb `outcome`, compiled once for the batch's games and the search's rollouts alike (an inlined verb
    is compiled again at each call site)."""
    return outcome(st, prm, n, first, s, scores_row, extra_row, curves_row, ws)


# The game's arc (issue 39), recorded by the loop into ``arc`` (int32[n_games, rows, rounds], kernels/arc.py): its
# last two rows the standings after each round (who is alone ahead and who alone behind, `standing`; column r: after
# round r + 1; from the game's last round on, its final standings, also in the last column of a game longer than the
# rows) and the game's arc figures; a full record (rows n + 2) also each seat's progress by round in rows 0 .. n - 1
# (the fan chart's games), a compact one (rows 2) not (every other game: its memory and writes were most of what the
# arc cost). Only in the batch game (never in a search's worlds); ``arc`` None (the runner's default) or a game whose
# step module has no `arc_progress` verb (ARC False) compiles none of it: a run without the arc is the kernel it was
# (a separate specialization). The recording only reads the state: every other output is the same with or without
# it, and a game's standings and figures are the same in a full and a compact record (tests/kernels/test_arc.py).


def _arc_begin(st, prm, n, arc, ii, resume, rng, ws):
    """A new game of row ``ii``: its figures row zeroed (lead changes, lows, the winner's last round behind are
    kept there as the rounds pass); returns the rounds recorded (0). A rollout batch (``resume`` a state) given
    ``arc`` is an outside observer's: before playing on, every seat's `sample_hidden` in seat order re-deals what
    that seat cannot see, on the rollout's chance stream (row 0), so whatever only some seats know is re-dealt by a
    seat that does not (the table-level win probability of `sim arc`); nothing is recorded then."""
    if not ARC or arc is None:
        return 0
    if resume is not None:
        for s in range(n):
            sample_hidden(st, s, prm, rng, 0, ws)
        return 1 << 30  # (every round counts as recorded: the ticks record nothing)
    fig = arc.shape[1] - 1
    for j in range(ARC_FIGURES):
        arc[ii, fig, j] = 0
    arc[ii, fig, ARC_PREV] = -1
    return 0


def _arc_tick(st, prm, n, first, arc, ii, rollout, done, ws):
    """Before each step of the batch game: a round just completed (`arc_round` above ``done``, the rounds recorded)
    is recorded once: each seat's `arc_progress` then, who is alone ahead and behind, the lead changes so far.
    Returns the rounds recorded (one state read and a comparison per step)."""
    if not ARC or arc is None or rollout:
        return done
    c = arc_round(st, n)
    if c <= done:
        return done
    for r in range(done, min(c, arc.shape[2])):
        arc_record(st, prm, n, first, arc, ii, r, ws)
    return c


def _arc_record(st, prm, n, first, arc, ii, r, ws):
    """Column ``r`` of the arc rows: the standings now (each seat's progress too in a full record) and the
    figures kept as the rounds pass (kernels/arc.py)."""
    fig = arc.shape[1] - 1
    full = fig > 1  # (a compact record: the standings and figures rows only)
    hi = lo = -(1 << 30)
    top = bot = -1
    nt = nb = 0
    for s in range(n):
        v = arc_progress(st, prm, n, first, s, ws)
        if full:
            arc[ii, s, r] = v
        if nt == 0 or v > hi:
            hi, top, nt = v, s, 1
        elif v == hi:
            nt += 1
        if nb == 0 or v < lo:
            lo, bot, nb = v, s, 1
        elif v == lo:
            nb += 1
    lead = top if nt == 1 else -1
    last = bot if nb == 1 else -1
    arc[ii, fig - 1, r] = (lead + 1) | ((last + 1) << STANDING_BITS)  # kernels.arc.standing
    if lead >= 0:
        prev = arc[ii, fig, ARC_PREV]
        if prev >= 0 and prev != lead:
            arc[ii, fig, ARC_CHANGES] += 1
        arc[ii, fig, ARC_PREV] = lead
    if r > 0:  # the previous round's seat alone behind: a round before this one
        arc[ii, fig, ARC_EVER_LAST] |= arc[ii, fig, ARC_LAST_PREV]
    arc[ii, fig, ARC_LAST_PREV] = (1 << last) if last >= 0 else 0


def _arc_end(st, prm, n, first, r, w, arc, ii, done, resume, ws):
    """The game over after ``r`` rounds (``done`` of them recorded), won by the seats of bitmask ``w``: its last
    round recorded with each seat's final progress (a game longer than the rows: in their last column), every later
    column the same; then the figures that need the game's end (the half-time standings, when the winner was last
    not alone ahead)."""
    if not ARC or arc is None or resume is not None:
        return
    length = arc.shape[2]
    last = min(r, length) - 1
    if last < 0:
        return
    for c in range(done, last + 1):
        arc_record(st, prm, n, first, arc, ii, c, ws)
    if r > length:
        arc_record(st, prm, n, first, arc, ii, last, ws)
    fig = arc.shape[1] - 1
    for i in range(last + 1, length):
        for s in range(fig):
            arc[ii, s, i] = arc[ii, s, last]
    mask = (1 << STANDING_BITS) - 1
    clear = 0
    for i in range(last + 1):
        lead = (arc[ii, fig - 1, i] & mask) - 1
        if lead < 0 or not (w >> lead) & 1:
            clear = i + 1
    arc[ii, fig, ARC_CLEAR] = clear
    arc[ii, fig, ARC_HALF_LEAD] = 0
    arc[ii, fig, ARC_HALF_LAST] = 0
    if last >= 1:
        cell = arc[ii, fig - 1, (last + 1) // 2 - 1]
        lead = (cell & mask) - 1
        behind = (cell >> STANDING_BITS) - 1
        arc[ii, fig, ARC_HALF_LEAD] = (1 << lead) if lead >= 0 else 0
        arc[ii, fig, ARC_HALF_LAST] = (1 << behind) if behind >= 0 else 0
    for j in range(ARC_FIGURES, length):  # the working slots cleared: the row holds the figures only
        arc[ii, fig, j] = 0


def _no_arc_round(st, n):
    return 0


def _no_arc_progress(st, prm, n, first, seat, ws):
    return 0


def _copy(f, env, qualname, module):
    g = types.FunctionType(f.__code__, env, f.__name__, f.__defaults__)
    g.__qualname__ = qualname
    g.__module__ = module
    g.__doc__ = f.__doc__
    return g


def bind(step, name: str, doc: str | None = None):
    """The batch entry point `play_batch` of the game whose step verbs are the module ``step`` (every name in
    VERBS): `_play_batch` with those verbs as its globals, compiled with ``njit(entry=True)`` and cached under the
    qualified name ``play_batch__<name>_<hash of step's source>`` (``name``: the game's, unique among the games);
    ``doc`` its docstring (default `_play_batch`'s). `_game_outcome` is bound the same way
    (``game_outcome__<tag>``: one compiled copy per game for its two call sites, a batch game's end and a rollout's);
    the search's step `kernels.search.search_step` is game-independent. The returned dispatcher carries
    ``search_decide(search, st, prm, n, seat, sparams, seed, game)``: one search decision from Python (the tests)."""
    missing = [v for v in VERBS if not hasattr(step, v)]
    if missing:
        raise AttributeError(f"{step.__name__} lacks the step verbs {', '.join(missing)} (kernel-contract.md)")
    verbs = {v: getattr(step, v) for v in VERBS}
    # the step module's source in the name: the cache folder is keyed by kernels/ alone, and a game's verbs may
    # live elsewhere (the Dice Race test game's under tests/), so an edit of them must miss the cache
    digest = hashlib.sha256(open(inspect.getsourcefile(step), "rb").read()).hexdigest()[:8]
    tag = f"{name}_{digest}"
    env = dict(_play_batch.__globals__)
    env.update(verbs)
    env["game_outcome"] = njit(forceinline=True)(_copy(_game_outcome, env, f"game_outcome__{tag}", step.__name__))
    # the arc (issue 39): optional verbs `arc_round(st, n)` (rounds completed) and `arc_progress(st, prm, n, first,
    # seat, ws)` (a seat's score or progress now)
    env["ARC"] = hasattr(step, "arc_progress")
    env["arc_round"] = getattr(step, "arc_round", njit(inline="always")(_no_arc_round))
    env["arc_progress"] = getattr(step, "arc_progress", njit(inline="always")(_no_arc_progress))
    for name, f0 in (
        ("arc_record", _arc_record),
        ("arc_begin", _arc_begin),
        ("arc_tick", _arc_tick),
        ("arc_end", _arc_end),
    ):
        env[name] = njit(forceinline=True)(_copy(f0, env, f"{name}__{tag}", step.__name__))
    f = _copy(_play_batch, env, f"play_batch__{tag}", step.__name__)
    f.__name__ = "play_batch"
    f.__doc__ = doc or _play_batch.__doc__
    entry = njit(entry=True, noalias=True)(f)
    entry.search_decide = functools.partial(_search_decide, entry)
    return entry


def _search_decide(play_batch, search, st, prm, n, seat, sparams, seed, game):
    """One search decision of seat ``seat`` in the state ``st`` (a decision of its among several legal actions),
    from Python (the tests): ``play_batch`` resumed from ``st`` as game ``game`` of ``seed`` (the seat's stream
    seeded as that batch game's is), stopped at the decision. Returns the action chosen; the root's visits and wins
    are left in ``search``."""
    sids = np.zeros(n, np.int64)
    sids[seat] = SEARCH_SID
    out = play_games(
        play_batch, _scratch_like(search.batch), seed, 0, game, 1, n, prm, sids, sparams, search.extra.shape[0],
        search.curves.shape, search=search, resume=np.ascontiguousarray(st, dtype=np.int32), stop=True,
    )  # fmt: skip
    return int(out.status[0])


def _scratch_like(x):
    """A copy of a batch scratch ``x`` (nested named tuples of arrays; its tables, made by the game's
    `batch_scratch`, kept): the search's rollout scratch has the batch's own type (a named tuple stays one)."""
    if isinstance(x, tuple):
        parts = [_scratch_like(y) for y in x]
        return type(x)(*parts) if hasattr(x, "_fields") else tuple(parts)
    return x.copy() if isinstance(x, np.ndarray) else x
