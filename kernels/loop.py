"""The one game loop every game's `play_batch` runs, written once here and compiled once per game.

A game supplies its step verbs in ``kernels/<game>/step.py`` (docs/dev/kernel-contract.md lists them, with their
signatures: the same in every game); `bind` makes that game's batch entry point from `_play_batch` below. The loop
serves both a batch of fresh games (``resume`` None: each game is dealt from its chance stream) and rollouts from a
copied mid-game state (``resume`` an int32 state vector: each game starts from a copy of it, its streams seeded by
its own game index as a batch game's are); the two are separate compiled specializations (the argument's type
differs), so a batch never carries the rollout code and the other way round.

Why `bind` rebinds the function's globals instead of closing over the verbs: Numba keys a function's cache entry
by its code and the pickled values of its closure cells, and a dispatcher pickles with an identifier drawn afresh in
every process, so a closure over the verbs (a factory) misses the cache in every new process (measured with
numba 0.68.1: a full cold compile per run). A function whose verbs are globals keys by its code alone; each game's
copy gets its own qualified name, so each game has its own cache files (a test runs a batch in two fresh processes
and checks that the second loads every entry point from the cache).
"""

# ruff: noqa: F821  (the step verbs are `_play_batch`'s globals only once `bind` gives it a game's)
from __future__ import annotations

import hashlib
import inspect
import types

from kernels._jit import njit
from kernels.bits import is_set, only_set
from kernels.rng import seed_game
from kernels.search import SEARCH_SID, _search_decide

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
    "S_DECISIONS",
)


def _play_out(st, prm, n, first, sids, sparams, rng, ws, check, search):
    """Play the game in ``st`` (its first seat ``first``) on to its end; returns its status (ST_*). The game loop,
    written once: a batch game and a search player's rollout both run it (``search`` None in a rollout and in every
    batch without a search seat; Numba then compiles `search_decide` as a bare ``return -1``)."""
    mask = action_mask(ws)
    while True:
        who = to_move(st, prm, n, first, ws)
        if who < 0:
            if who == CHANCE:
                if apply_chance(st, prm, sample_chance(st, prm, rng, ws), ws) != 0:
                    return ST_BAD_CHANCE
            elif who == OVER:
                return ST_DONE
            else:
                return ST_TRUNCATED
        else:
            nl = legal_actions(st, prm, ws)
            if nl == 0:
                return ST_NO_ACTION
            if nl == 1:
                a = only_set(mask)
            else:
                if sids[who] == SEARCH_SID:
                    a = search_decide(search, st, prm, n, first, who, nl, sparams, rng, ws)
                else:
                    a = decide(st, prm, who, nl, sids, sparams, rng, ws)
                st[S_DECISIONS] += 1
                if not is_set(a, mask):
                    return ST_BAD_ACTION
            if apply_action(st, prm, a, rng, ws) != 0:
                return ST_BAD_ACTION
        if check is not None:
            code = invariants(st, prm)
            if code != 0:
                return ST_INVARIANT + code


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
):
    """Play games game0 .. game0 + n_games - 1, one after the other; row i of every output is game game0 + i
    (docs/dev/kernel-contract.md, "Batch signature"). ``check`` not None checks the game's invariants after every
    step (status ST_INVARIANT + code when one breaks); ``resume`` None deals each game afresh, an int32 state vector
    starts each game from a copy of it (a rollout); ``search`` the search players' scratch
    (`kernels.search.new_search`) when a seat's strategy is `search`, else None. Numba prunes the branch of a None
    argument from the compiled code, so the runner's kernel carries neither the check, the resume path nor search."""
    st, rng, ws = parts(batch)
    prepare(sids, sparams, ws)
    for ii in range(n_games):
        g = game0 + ii
        seed_game(rng, seed, point, g, n)
        if resume is None:
            first = new_game(st, prm, n, g, rng, ws)
        else:
            first = resume_game(st, resume, prm, n, g, rng, ws)
        s = play_out(st, prm, n, first, sids, sparams, rng, ws, check, search)
        status[ii] = s
        w, t, r = outcome(st, prm, n, first, s, scores[ii], extra[ii], curves[ii], ws)
        winners[ii] = w
        turns[ii] = t
        rounds[ii] = r


def _copy(f, env, qualname, module):
    g = types.FunctionType(f.__code__, env, f.__name__, f.__defaults__)
    g.__qualname__ = qualname
    g.__module__ = module
    g.__doc__ = f.__doc__
    return g


def bind(step, name: str, doc: str | None = None):
    """The batch entry point `play_batch` of the game whose step verbs are the module ``step`` (every name in
    VERBS): `_play_batch` with those verbs as its globals, compiled with ``njit(entry=True)`` and cached under the
    qualified name ``play_batch__<name>_<hash of step's source>`` (``name``: the game's, unique among the games); ``doc`` its docstring
    (default `_play_batch`'s). Its game loop `_play_out` and the search players' `kernels.search._search_decide`
    are bound the same way (``play_out__...``, ``search_decide__...``; the rollouts' loop ``rollout_out__...``):
    one copy of each per game, sharing the verbs. The returned dispatcher carries them as attributes
    ``play_out`` and ``search_decide`` (tests call a search decision from Python through them)."""
    missing = [v for v in VERBS if not hasattr(step, v)]
    if missing:
        raise AttributeError(f"{step.__name__} lacks the step verbs {', '.join(missing)} (kernel-contract.md)")
    verbs = {v: getattr(step, v) for v in VERBS}
    # the step module's source in the name: the cache folder is keyed by kernels/ alone, and a game's verbs may
    # live elsewhere (the Dice Race test game's under tests/), so an edit of them must miss the cache
    digest = hashlib.sha256(open(inspect.getsourcefile(step), "rb").read()).hexdigest()[:8]
    tag = f"{name}_{digest}"
    loop_env = dict(_play_batch.__globals__)
    loop_env.update(verbs)
    search_env = dict(_search_decide.__globals__)
    search_env.update(verbs)
    play_out = njit(_copy(_play_out, loop_env, f"play_out__{tag}", step.__name__))
    search_decide = njit(_copy(_search_decide, search_env, f"search_decide__{tag}", step.__name__))
    loop_env["play_out"] = play_out
    loop_env["search_decide"] = search_decide
    # the rollouts' loop is a second copy (``search`` always None there, so its search_decide is a bare return -1):
    # with the same dispatcher, play_out(search) -> search_decide -> play_out(None) is a recursive call to Numba,
    # which links it through an unresolved symbol that a process loading the cache cannot resolve (segfault)
    rollout_env = dict(loop_env)
    rollout_search_env = dict(search_env)
    rollout_out = njit(_copy(_play_out, rollout_env, f"rollout_out__{tag}", step.__name__))
    rollout_env["search_decide"] = njit(
        _copy(_search_decide, rollout_search_env, f"rollout_search__{tag}", step.__name__)
    )
    rollout_search_env["play_out"] = rollout_out
    search_env["play_out"] = rollout_out
    f = _copy(_play_batch, loop_env, f"play_batch__{tag}", step.__name__)
    f.__name__ = "play_batch"
    f.__doc__ = doc or _play_batch.__doc__
    entry = njit(entry=True)(f)
    entry.play_out = play_out
    entry.search_decide = search_decide
    return entry
