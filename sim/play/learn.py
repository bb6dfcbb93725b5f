"""Expert iteration's playing half: games where `search` decides, recorded as training decisions, and the learned
policy's strength against the role's best scripted strategy. Game-independent: a game supplies its action features
(``kernels/<game>/features.py``, named by its `Learner`) and its step verbs; the fit is `sim.stats.policy_fit`.

A training game: every seat of the learner's role plays `search` (UCB1, ``budget`` rollouts a decision) whose
rollouts are played by the rollout policy (the current learned weights, or a scripted strategy in the first
iteration); every other seat plays its scenario strategy. The game is driven from Python one search decision at a
time: `play_batch` resumed from the current state stops at the next search decision (`stop`, the tests' single
decision), the features of each legal action are read from that state (`fill_features`, the kernel's own code: play
and training never disagree), the search's visit counts (or the action it chose: `Learner.target`) become the decision's target, and the chosen
action is played
with the game's `apply_action` verb (or, given ``drive`` weights, the action that policy plays: DAgger's states, those
the learned player itself reaches, still labelled by the search). Every draw is keyed by (seed, iteration, game, decision), so the decisions of a
game depend on nothing else: games are split over threads and put back in game order, and the data, and so the
weights, are the same for any thread count.
"""

from __future__ import annotations

import math
import threading
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import numpy as np

from sim.model.registry import Learner
from sim.model.scenario import Scenario
from sim.play.work import Executor
from sim.stats.metrics import wilson
from sim.stats.policy_fit import Decisions

MAX_DECISIONS = 100_000  # a game's search decisions, at most (a runaway game stops there)
ITER_POINT = 1 << 24  # stream ``point`` of decision k of iteration i: i * ITER_POINT + k


def table(
    game: str, learner: Learner, strategy: str, seed: int, params: dict | None = None, seat_params: dict | None = None
) -> Scenario:
    """The training table: ``learner.players`` seats, each seat of the learner's role playing ``strategy`` (with
    those of ``seat_params`` it takes), every other seat ``learner.opponent`` (or its role's first strategy);
    ``params`` the scenario parameters (a variant)."""
    from sim.model.registry import get

    spec = get(game)
    assert spec is not None, game
    n = learner.players
    vals = {**spec.defaults(), **(params or {})}
    roles = spec.roles(vals, n)
    other = learner.opponent
    if strategy == "search":  # the role's own search strategy (Treasure Hunters' Head Haunter: haunter_search)
        strategy = search_name(spec, learner.role)
    st = spec.strategy(strategy)
    own = {k: v for k, v in (seat_params or {}).items() if st is not None and any(p.name == k for p in st.params)}
    seats = [
        {"strategy": strategy, "params": dict(own)}
        if r == learner.role
        else {"strategy": other or _default_strategy(spec, r)}
        for r in roles
    ]
    data = {
        "scenario": {"game": game, "players": n, "games": 1, "seed": int(seed), "name": f"train-{game}-{learner.role}"},
        "params": params or {},
        "seats": seats,
    }
    return Scenario.from_dict(data)


def tables(game: str, learner: Learner, strategy: str, seed: int) -> list[Scenario]:
    """One `table` per variant of the learner (`Learner.variants`), in order; the role's seats take the variant's
    scripted parameters (`Learner.scripted`) that ``strategy`` has."""
    return [
        table(game, learner, strategy, seed, dict(v) or None, learner.scripted_params(k))
        for k, v in enumerate(learner.variants)
    ]


def search_name(spec: Any, role: str) -> str:
    """The name of ``role``'s search strategy (strategy id 63): "search", or e.g. "haunter_search"."""
    return next(s.name for s in spec.strategies if s.role == role and s.sid == 63)


def _default_strategy(spec: Any, role: str) -> str:
    return next(s.name for s in spec.strategies if s.role == role and s.sid != 63)


def rollout_rows(
    sc: Scenario, learner: Learner, rollout: str, weights: np.ndarray | None, params: dict | None = None
) -> tuple:
    """(sids int64[n], sparams float64[n, n_sparams]) of the rollouts: each seat of the learner's role plays
    ``rollout`` (the learned strategy with ``weights``, float64[1 + F]: temperature then weights; or a scripted one
    with its default parameters, those of ``params`` it takes replacing them: `Learner.scripted`), every other seat
    its table strategy."""
    spec = sc.spec
    sids = sc.sids().copy()
    sparams = sc.sparams().copy()
    rst = next(s for s in spec.strategies if s.name == rollout)
    for i, r in enumerate(sc.spec.roles(sc.params, sc.players)):
        if r == learner.role:
            put_row(sids, sparams, i, rst, weights if rollout == learner.strategy else None, params)
    return sids, sparams


def put_row(
    sids: np.ndarray,
    sparams: np.ndarray,
    i: int,
    st: Any,
    weights: np.ndarray | None = None,
    params: dict | None = None,
) -> None:
    """Seat ``i`` of a table's rows (sids int64[n], sparams float64[n, n_sparams]) plays strategy ``st`` (a
    StrategySpec): its parameters' defaults, those of ``params`` it takes replacing them, then ``weights`` (a
    learned row, float64[1 + F]: temperature then feature weights) over the first columns. Defaults first: a learned
    row may go on past its weights (Turnwall's memory)."""
    sids[i] = st.sid
    sparams[i, :] = 0.0
    for j, ps in enumerate(st.params):
        v = (params or {}).get(ps.name, ps.default)
        sparams[i, j] = ps.domain.index(v) if ps.kind == "choice" else v
    if weights is not None:
        sparams[i, : len(weights)] = weights


def search_rows(sc: Scenario, learner: Learner, budget: int) -> tuple:
    """(sids, sparams) of a training table: every seat of the learner's role a search of ``budget`` rollouts (the
    learner's root, UCB1 or sequential halving; exploration 0.7 under UCB1; the learner's deviate margin)."""
    from kernels.search import (
        C_BUDGET,
        C_DEVIATE,
        C_EXPLORE,
        C_ROOT,
        C_TIEBREAK,
        ROOT_HALVING,
        ROOT_UCB1,
        SEARCH_SID,
        TIE_NONE,
    )

    sids = sc.sids().copy()
    sparams = sc.sparams().copy()
    for i, r in enumerate(sc.spec.roles(sc.params, sc.players)):
        if r == learner.role:
            sids[i] = SEARCH_SID
            sparams[i, :] = 0.0
            sparams[i, C_BUDGET] = budget
            sparams[i, C_EXPLORE] = 0.7
            sparams[i, C_DEVIATE] = learner.deviate
            sparams[i, C_ROOT] = ROOT_HALVING if learner.root == "halving" else ROOT_UCB1
            sparams[i, C_TIEBREAK] = TIE_NONE
    return sids, sparams


def play_training_game(
    sc: Scenario,
    learner: Learner,
    seed: int,
    iteration: int,
    g: int,
    budget: int,
    rollout: tuple,
    drive: np.ndarray | None = None,
) -> Decisions:
    """The search decisions of training game ``g`` of ``iteration`` (module docstring), as `Decisions`."""
    from kernels.batch import play_games
    from kernels.search import CTL_K, decisions, new_search

    spec = sc.spec
    kernel = spec.kernel()
    feat = learner.module()
    prm = sc.prm()
    n = sc.players
    sids, sparams = search_rows(sc, learner, budget)
    n_extra, curves = len(spec.extra_columns), (len(spec.curves), spec.curve_len)
    # the learned marker on both scratches (the rollouts play the learned policy after the first iteration; the
    # batch's and the rollouts' scratch must be of one type)
    scratch = kernel.batch_scratch(n, prm, learned=True)
    rsids, rsparams = rollout
    rb = kernel.batch_scratch(n, prm, learned=True)
    search = new_search(rb, n, int(kernel.N_ACTIONS), rsids, rsparams, n_extra, curves, 64)
    rec, counts, ctl = search.record, search.counts, search.ctl
    n_actions = int(kernel.N_ACTIONS)
    fbuf = np.zeros((n_actions, feat.N_FEATURES), np.float64)
    mask = np.zeros(n_actions, np.int8)
    xs: list[np.ndarray] = []
    ts: list[np.ndarray] = []
    vs: list[np.ndarray] = []  # each action's rollouts ("action_values")
    chosen: list[int] = []
    group = [0]
    resume = None
    for k in range(MAX_DECISIONS):
        rec[0, 0] = 0
        before = int(counts[0])
        out = play_games(
            kernel.play_batch, scratch, np.uint64(seed), np.uint64(iteration * ITER_POINT + k), g, 1, n, prm, sids,
            sparams, n_extra, curves, search=search, resume=resume, stop=True,
        )  # fmt: skip
        if int(counts[0]) == before:  # the game ended before another search decision
            break
        a = int(out.status[0])  # stopped at the decision: the action chosen
        seat = decisions(rec)[0]["seat"]
        kk = int(ctl[CTL_K])
        acts = search.acts[:kk].copy()
        visits = search.visits[:kk].astype(np.float64)
        st, rng, _ws = kernel.step.parts.py_func(scratch)  # plain Python: the state and streams of the scratch
        mask[:] = 0
        mask[acts] = 1
        fbuf[acts] = 0.0
        feat.fill_features(st, prm, np.int64(seat), mask, fbuf, scratch)
        x = fbuf[acts]
        if x.any():  # a decision the policy does not score (all features 0: Galleon's duels) teaches nothing
            xs.append(x.copy())
            j = int(np.flatnonzero(acts == a)[0])
            tot = visits.sum()
            if learner.target == "action_values":
                t = search.wins[:kk].astype(np.float64) / np.maximum(visits, 1.0)
                vs.append(visits)
            elif learner.target == "values" and tot > 0:
                t = value_target(visits, search.wins[:kk].astype(np.float64), learner.value_temperature)
            elif learner.target != "visits" or tot <= 0:
                t = np.zeros(kk)
                t[j] = 1.0
            else:
                t = visits / tot
            ts.append(t)
            chosen.append(group[-1] + j)
            group.append(group[-1] + kk)
            if drive is not None:  # the learned policy plays on (DAgger): the search only labels its states
                a = int(acts[greedy(x, drive)])
        kernel.step.apply_action(st, prm, np.int64(a), rng, scratch)
        resume = st.copy()
    if not xs:
        return Decisions.concat([], feat.N_FEATURES)
    visits_of = np.concatenate(vs) if vs else None
    return Decisions(
        np.concatenate(xs), np.array(group, np.int64), np.concatenate(ts), np.array(chosen, np.int64), visits_of
    )


def greedy(x: np.ndarray, w: np.ndarray) -> int:
    """The row of ``x`` (float64[k, F], one legal action a row, ascending) the learned policy ``w`` (float64[F])
    plays at temperature 0: the highest score sum_i w[i] * x[:, i], summed in feature order as the kernel sums it
    (element by element, so no machine sums it in another order), ties to the first row (the lower action)."""
    s = np.zeros(x.shape[0])
    for i in range(x.shape[1]):
        s = s + w[i] * x[:, i]
    return int(np.argmax(s))


def value_target(visits: np.ndarray, wins: np.ndarray, temperature: float) -> np.ndarray:
    """The ``values`` target of one decision (float64[k], summing to 1): a softmax of each action's rollout win rate
    (Laplace-smoothed, (wins + 1) / (visits + 2), so that an action tried once is not read as sure) at
    ``temperature`` (win-rate points, > 0); actions never tried get 0. Actions of equal value share the target
    (two orders of the same moves), where the chosen action alone would be a coin toss between them."""
    q = (wins + 1.0) / (visits + 2.0)
    tried = visits > 0
    e = np.where(tried, np.exp((q - q[tried].max()) / temperature), 0.0)
    out: np.ndarray = e / e.sum()
    return out


def collect(
    sc: Scenario | list[Scenario],
    learner: Learner,
    seed: int,
    iteration: int,
    games: int,
    budget: int,
    rollout: tuple | list[tuple],
    threads: int = 1,
    on_game: Callable[[int], None] | None = None,
    stop: Callable[[], None] | None = None,
    executor: Executor | None = None,
    drive: np.ndarray | None = None,
) -> Decisions:
    """The search decisions of games 0 .. ``games`` - 1 of ``iteration``, in game order (the same for any
    ``threads`` or ``executor``); game g is played on table ``sc[g % len(sc)]`` with its rollout rows
    ``rollout[g % len(sc)]`` (one table and its rows: every game on it); ``on_game(done)`` after each game,
    ``stop()`` (raising KeyboardInterrupt) checked between games. ``executor`` with workers (a Dask cluster,
    `sim.play.distributed`): one task a game on its workers, put back in game order (``threads`` unused)."""
    scs = sc if isinstance(sc, list) else [sc]
    rolls = rollout if isinstance(rollout, list) else [rollout]

    def game_args(g: int) -> tuple:  # `play_training_game`'s arguments for game g: its table and rollout rows
        k = g % len(scs)
        return scs[k], learner, seed, iteration, g, budget, rolls[k], drive

    if executor is not None and executor.workers:
        got: dict[int, Decisions] = {}
        for g, d in executor.calls(play_training_game, (game_args(g) for g in range(games))):
            got[g] = d
            if stop is not None:
                stop()
            if on_game is not None:
                on_game(len(got))
        return Decisions.concat([got[g] for g in range(games)], learner.module().N_FEATURES)
    done = [0]
    halt = threading.Event()  # set by the main thread on Ctrl-C: every thread stops before its next game

    def run(gs: range) -> list[Decisions]:
        out = []
        for g in gs:
            if halt.is_set():
                raise KeyboardInterrupt
            if stop is not None:
                stop()
            out.append(play_training_game(*game_args(g)))
            done[0] += 1
            if on_game is not None:
                on_game(done[0])
        return out

    t = max(1, min(int(threads), games))
    if t == 1:
        parts = run(range(games))
    else:
        bounds = [games * i // t for i in range(t + 1)]
        with ThreadPoolExecutor(t) as pool:
            futs = [pool.submit(run, range(bounds[i], bounds[i + 1])) for i in range(t)]
            try:
                parts = [d for f in futs for d in f.result()]
            except KeyboardInterrupt:
                halt.set()
                raise
    return Decisions.concat(parts, learner.module().N_FEATURES)


def strength(
    sc_versus: Scenario,
    learner: Learner,
    weights: np.ndarray,
    seed: int,
    games: int,
    point: int = 0,
    others: np.ndarray | None = None,
) -> dict:
    """One learned seat (seat 0, ``weights``: temperature then feature weights) against the other seats of
    ``sc_versus`` (the role's best scripted strategy), or with ``others`` against the learned policy of those
    weights at every other seat (self-play against an earlier policy), ``games`` games (the start seat rotates with
    the game index): {"games", "wins", "win_rate", "ci": [lo, hi] (Wilson 95%), "fair": 1 / players}. Decisive
    games only count as games; a win shared by k seats counts 1/k."""
    from kernels.batch import play_games

    spec = sc_versus.spec
    kernel = spec.kernel()
    n = sc_versus.players
    prm = sc_versus.prm()
    sids = sc_versus.sids().copy()
    sparams = sc_versus.sparams().copy()
    lst = spec.strategy(learner.strategy)
    assert lst is not None
    put_row(sids, sparams, 0, lst, weights)
    for i in range(1, n) if others is not None else ():
        put_row(sids, sparams, i, lst, others)
    wins = 0.0
    played = 0
    chunk = 20_000
    for g0 in range(0, games, chunk):
        m = min(chunk, games - g0)
        out = play_games(
            kernel.play_batch, kernel.batch_scratch(n, prm, learned=True), np.uint64(seed), np.uint64(point), g0, m,
            n, prm, sids,
            sparams, len(spec.extra_columns), (len(spec.curves), spec.curve_len),
        )  # fmt: skip
        winners, status = out.winners, out.status
        ok = status == 0
        w = winners[ok]
        share = np.array([1.0 / bin(int(x)).count("1") if x & 1 else 0.0 for x in w])
        wins += float(share.sum())
        played += int(ok.sum())
    lo, hi = wilson(wins, played) if played else (math.nan, math.nan)
    return {
        "games": played,
        "wins": wins,
        "win_rate": wins / played if played else math.nan,
        "ci": [lo, hi],
        "fair": 1.0 / n,
    }


def measure(versus: list[Scenario], learner: Learner, weights: np.ndarray, seed: int, games: int, point: int) -> dict:
    """The learned policy's strength (``weights``: temperature then feature weights) as `sim train` reports it:
    `strength` (one learned seat against the others, fair share 1 / players) where every seat is of the role and it
    is no team, else `team_strength` (the learned seats' win rate against the same tables' with the role's seats on
    ``learner.versus``, over ``versus``, one table per variant)."""
    if one_seat(versus, learner):
        return strength(versus[0], learner, weights, seed, games, point)
    return team_strength(versus, learner, weights, seed, games, point)


def one_seat(versus: list[Scenario], learner: Learner) -> bool:
    """Whether ``learner``'s strength is one learned seat's win rate against the fair share (every seat of the
    table is of its role, it is no team, one variant: `strength`), where self-play against an earlier policy means
    the same; else a team's or a role's rate against a reference table (`team_strength`)."""
    spec = versus[0].spec
    symmetric = all(r == learner.role for r in spec.roles(versus[0].params, versus[0].players))
    return symmetric and not learner.team and len(versus) == 1


def _role_wins(sc: Scenario, sids: np.ndarray, sparams: np.ndarray, mask: int, seed: int, point: int, games: int):
    """(wins, decisive games) of the seats in bit set ``mask`` at ``sc``'s table played with ``sids``/``sparams``,
    games 0 .. ``games`` - 1: a game counts as won when any seat of ``mask`` is among its winners (a team's win, or
    the one seat's)."""
    from kernels.batch import play_games

    spec = sc.spec
    kernel = spec.kernel()
    n, prm = sc.players, sc.prm()
    wins = played = 0
    chunk = 20_000
    for g0 in range(0, games, chunk):
        m = min(chunk, games - g0)
        out = play_games(
            kernel.play_batch, kernel.batch_scratch(n, prm, learned=True), np.uint64(seed), np.uint64(point), g0, m,
            n, prm, sids, sparams, len(spec.extra_columns), (len(spec.curves), spec.curve_len),
        )  # fmt: skip
        ok = out.status == 0
        wins += int(((out.winners[ok] & mask) != 0).sum())
        played += int(ok.sum())
    return wins, played


def _rate(wins: float, played: int) -> dict:
    lo, hi = wilson(wins, played) if played else (math.nan, math.nan)
    return {"games": played, "wins": wins, "win_rate": wins / played if played else math.nan, "ci": [lo, hi]}


def team_strength(
    versus: list[Scenario], learner: Learner, weights: np.ndarray, seed: int, games: int, point: int = 0
) -> dict:
    """The role's win rate with the learned policy (``weights``) at its seats (every seat of the role for a team,
    else the role's first seat) on ``versus``'s tables (one per variant, ``games`` split evenly over them, the same
    game indices per variant), and the reference: the same games with those seats on ``learner.versus`` (common
    random numbers: the dice are the same). {"games", "wins", "win_rate", "ci" (Wilson 95%), "fair": the
    reference's win rate, "reference": {...}, "variants": [{"params", "scripted" (the reference's own parameters
    there, `Learner.scripted`), "learned": {...}, "reference": {...}}]}."""
    spec = versus[0].spec
    lst = spec.strategy(learner.strategy)
    assert lst is not None
    tot = np.zeros(4)
    parts = []
    for k, sc in enumerate(versus):
        m = games * (k + 1) // len(versus) - games * k // len(versus)
        role_seats = [i for i, r in enumerate(spec.roles(sc.params, sc.players)) if r == learner.role]
        seats = role_seats if learner.team else role_seats[:1]
        mask = sum(1 << i for i in seats)
        sids = sc.sids().copy()
        sparams = sc.sparams().copy()
        for i in seats:
            put_row(sids, sparams, i, lst, weights)
        lw, lg = _role_wins(sc, sids, sparams, mask, seed, point, m)
        rw, rg = _role_wins(sc, sc.sids(), sc.sparams(), mask, seed, point, m)
        tot += (lw, lg, rw, rg)
        params = {p: sc.params[p] for p, _v in learner.variants[k]}
        parts.append(
            {
                "params": params,
                "scripted": learner.scripted_params(k),
                "learned": _rate(lw, lg),
                "reference": _rate(rw, rg),
            }
        )
    out = _rate(float(tot[0]), int(tot[1]))
    ref = _rate(float(tot[2]), int(tot[3]))
    return {**out, "fair": ref["win_rate"], "reference": {"strategy": learner.versus, **ref}, "variants": parts}
