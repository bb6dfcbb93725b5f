"""Search players on the Python side: the `search` strategy every game offers for each of its roles, and the
search scratch its kernel takes (`kernels.search`: flat Monte Carlo with UCB1 on determinised rollouts).

A game declares ``search_strategy(role, rollouts)`` among its strategies; ``rollouts`` are the role's scripted
strategies a search seat may play its rollouts with (the first is the default). A scenario with a search seat is
played with `search_scratch` as `play_batch`'s ``search`` argument (sim.play.runner, every game's replay).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import numpy as np

from sim.model.words import count, value_text

if TYPE_CHECKING:
    from sim.model.scenario import Scenario

from sim.model.search_spec import (  # noqa: F401  (re-exported: the games and tests import them from here)
    BUDGET_MAX,
    GENERIC,
    ROOTS,
    SEARCH,
    SEARCH_HELP,
    SEARCH_SID,
    TIEBREAKS,
    UNUSED_WITH_ROOT,
    read_by_root,
    resolve_tiebreak,
    search_params,
    search_strategy,
    tiebreak_text,
    unused_with_root,
)


def tiebreak_played(sc: Scenario, seat: int) -> str:
    """The tie-break search seat ``seat`` of ``sc`` plays, "none" or "score" (`resolve_tiebreak`: "auto" as the
    game resolves it for the table)."""
    st = sc.spec.strategy(sc.seats[seat].strategy)
    assert st is not None and st.sid == SEARCH_SID, sc.seats[seat].strategy
    return resolve_tiebreak(sc.spec, sc.params, st, sc.seats[seat].params)


def seats_as_played(sc: Scenario) -> list[dict]:
    """Each seat's strategy and every parameter it declares with the value played, defaults included (a report
    must tell what was played even after a default changes: Treasure Hunters hunters' search `root`, 2026-12-05); a
    search seat's `tiebreak` "auto" as the game resolved it, and none its root never reads (explore under halving,
    tiebreak under ucb1), so that the record reads back as a scenario. provenance.json's seats, compare.json's
    ``seats_played``, ladder.json's rungs' ``played``; `tiebreak_text` says the resolved tie-break beside the
    parameters given."""
    out = []
    for i, seat in enumerate(sc.seats):
        st = sc.spec.strategy(seat.strategy)
        params = {} if st is None else {p.name: seat.params.get(p.name, p.default) for p in st.params}
        if st is not None and is_search(sc, i):
            params["tiebreak"] = tiebreak_played(sc, i)  # "auto" as the game resolved it for this table
            params = read_by_root(st, params)  # not explore under halving: the record reads back as a scenario
        out.append({"strategy": seat.strategy, "params": params})
    return out


def search_seat_lines(sc: Scenario) -> list[str]:
    """A replay's header lines for its search seats, one each: the parameters as played (`seats_as_played`),
    a tie-break left to "auto" with what it plays ('  seat 1 searches with search: budget = 16, ..., tiebreak =
    auto (plays score)'). [] without a search seat."""
    out = []
    for i, played in enumerate(seats_as_played(sc)):
        if not is_search(sc, i):
            continue
        given, pp = sc.seats[i].params, played["params"]
        tb = tiebreak_text(given, pp)
        shown = [tb if k == "tiebreak" and tb else f"{k} = {value_text(v)}" for k, v in pp.items()]
        out.append(f"  seat {i} searches with {played['strategy']}: " + ", ".join(shown))
    return out


def is_search(sc: Scenario, seat: int) -> bool:
    """Whether seat ``seat`` of ``sc`` plays a search strategy (its strategy id is SEARCH_SID, whatever its name)."""
    st = sc.spec.strategy(sc.seats[seat].strategy)
    return st is not None and st.sid == SEARCH_SID


def has_search(sc: Scenario) -> bool:
    """Whether a seat of ``sc`` plays a search strategy."""
    return any(is_search(sc, i) for i in range(len(sc.seats)))


def rollout_seats(sc: Scenario) -> tuple[np.ndarray, np.ndarray]:
    """(sids int64[players], sparams float64[players, n_sparams]) of the rollouts: a search seat plays its rollout
    strategy with that strategy's default parameters, except those the search strategy also declares (a game's
    ``extra``, e.g. Turnwall's memory), which take the search seat's values; every other seat plays as it plays at
    the table."""
    spec = sc.spec
    sids = sc.sids().copy()
    sparams = sc.sparams().copy()
    for i, seat in enumerate(sc.seats):
        if not is_search(sc, i):
            continue
        st = spec.strategy(seat.strategy)
        assert st is not None
        rollout = seat.params.get("rollout", next(p.default for p in st.params if p.name == "rollout"))
        rst = next(s for s in spec.strategies if s.name == rollout and s.role == st.role)
        sids[i] = rst.sid
        sparams[i, :] = 0.0
        own = {p.name: seat.params.get(p.name, p.default) for p in st.params if p.name not in GENERIC}  # the extras
        for j, ps in enumerate(rst.params):
            sparams[i, j] = own.get(ps.name, ps.default)
    return sids, sparams


def search_scratch(sc: Scenario, kernel: Any, record_len: int = 1, prm: Any = None, learned: bool | None = None) -> Any:
    """The ``search`` argument of ``kernel.play_batch`` (the game's kernel module) for ``sc``; None without a
    search seat. Rollouts run on a fresh batch scratch (``prm`` default ``sc.prm()``) of the batch's own type: with
    the learned marker when ``learned`` (default: when a seat or a rollout of ``sc`` plays a learned policy,
    `table_uses_learned`); ``record_len`` > 1 records each search decision (`decision_lines` reads them back)."""
    if not has_search(sc):
        return None
    from kernels.search import new_search
    from sim.model.policy import batch_scratch

    spec = sc.spec
    sids, sparams = rollout_seats(sc)
    n_actions = int(kernel.N_ACTIONS)  # every play.py exports its action count
    flag = table_uses_learned(sc) if learned is None else learned
    batch = batch_scratch(spec, kernel, sc.players, sc.prm() if prm is None else prm, flag)
    return new_search(
        batch,
        sc.players,
        n_actions,
        sids,
        sparams,
        len(spec.extra_columns),
        (len(spec.curves), spec.curve_len),
        record_len,
    )


def table_uses_learned(sc: Scenario, sids: Any = None) -> bool:
    """Whether a seat of ``sc`` (its strategy ids ``sids``, default ``sc.sids()``) or a search seat's rollouts play a
    learned policy: the batch scratch then carries the learned marker (`sim.model.policy.batch_scratch`)."""
    from sim.model.policy import uses_learned

    rows = [sc.sids() if sids is None else sids]
    if has_search(sc):
        rows.append(rollout_seats(sc)[0])
    return uses_learned(sc.spec, *rows)


RECORD_LEN = 200_000  # rows of a replay's search record (a decision takes 1 + up to 5 rows)


def decision_lines(rec: Any, seat_name: Callable[[int], str], action_name: Callable[[int], str]) -> list[str]:
    """A traced game's search decisions in words (``rec``: the scratch of `search_scratch(record_len > 1)` after the
    game, or its record), one block of lines each (joined by newlines): who chose and what, why (when it kept or
    overruled its rollout strategy's choice), then its most tried candidates a line each with their estimated win
    chances (wins / rollouts) and rollouts. ``seat_name(seat)`` and ``action_name(action)`` name them."""
    return [_block(d, seat_name, action_name) for d in _decisions(rec)]


def _decisions(rec: Any) -> list[dict]:
    from kernels.search import SearchScratch, decisions

    if isinstance(rec, SearchScratch):  # the whole scratch: its record
        rec = rec.record
    return decisions(rec)


# rollouts under which a win-rate estimate is a weak sign (its 95% interval spans more than 50 points)
FEW_ROLLOUTS = 10


def _block(d: dict, seat_name: Callable[[int], str], action_name: Callable[[int], str]) -> str:
    """One decision's block of lines (`decision_lines`), joined by newlines."""
    top = d["top"]
    cands = [
        f"      {action_name(a)}: won {100.0 * w / v:.0f}% of {count(v, 'rollout')}"
        if v
        else f"      {action_name(a)}: not tried"
        for a, v, w, _, _ in top
    ]
    more = f" ({len(top)} of {d['candidates']}, the most tried first)" if d["candidates"] > len(top) else ""
    played, prior, chal = d["action"], d["prior"], d["challenger"]
    paired = ""
    if d["halving"] and chal >= 0:
        ahead, behind = next((x[3], x[4]) for x in top if x[0] == chal)
        if d.get("tiebreak") == "score":  # a world goes to a win, else to the higher final score
            paired = (
                f"in its last round's worlds {action_name(chal)} did better in {ahead} than "
                f"{action_name(prior)} (a win, or a higher score) and worse in {behind}"
            )
        else:
            paired = (
                f"in its last round's worlds {action_name(chal)} won {ahead} that {action_name(prior)} lost and "
                f"lost {behind} that it won"
            )
    # UCB1 plays its most tried action (ties: the higher share of wins), or its rollout strategy's choice
    most_v = top[0][1] if top else 0
    tied = sum(1 for x in top if x[1] == most_v) > 1
    played_v = next((x[1] for x in top if x[0] == played), -1)
    most = bool(top) and not d["halving"] and played_v == most_v
    margin = "by more than the deviate margin"
    caution = ""  # an overrule on few rollouts says so
    if played != prior:
        if paired:
            reason = paired
        elif tied:
            reason = f"the most tried (tied: it won more), and better {margin}"
        else:
            reason = f"the most tried, and better {margin}"
        why = f"overrules its rollout strategy's choice, {action_name(prior)}: {reason}"
        prior_v = next((x[1] for x in top if x[0] == prior), 0)
        if not paired and min(played_v, prior_v) < FEW_ROLLOUTS:
            caution = f"a weak sign: {count(played_v, 'rollout')} against {prior_v}"
    elif paired:  # (ahead, behind: the challenger's, read with ``paired``)
        verdict = "a lead too small to pass the deviate margin" if ahead > behind else "no better"
        why = f"keeps its rollout strategy's choice: {paired}: {verdict}"
    elif top and played_v < most_v:
        most_tried = action_name(top[0][0])
        why = f"keeps its rollout strategy's choice: the most tried, {most_tried}, is not better {margin}"
    elif most and len(top) > 1:
        # UCB1 tries the better-looking moves more often: the most tried is its estimate of the best, and a
        # higher share of wins over fewer rollouts is less sure (the user asked why it played 18% over 23%)
        if tied:
            why = "tied for the most tried: its rollout strategy's choice keeps a tie"
        else:
            why = "the most tried, and its rollout strategy's choice"
    else:
        why = ""
    # one block a decision: what it chose, why, then a candidate a line (one long line was up to 572 characters)
    block = [
        f"  search: {seat_name(d['seat'])}, game decision {d['before'] + 1}, {count(d['budget'], 'rollout')}: "
        f"chose {action_name(played)}"
    ]
    block += [f"    {x}" for x in (why, caution) if x]
    block.append(f"    candidates{more}:")
    return "\n".join(block + cands)


class SearchNotes:
    """A traced game's search decisions in words (`decision_lines`), handed out where each falls in the game's
    event log: a replay writing event ``r`` (1-based) first adds ``until(r - 1)``, the decisions made after the
    first r - 1 events were logged (the search chose before its move was logged), and ``rest()`` at the end.
    ``search`` None (no search seat) hands out nothing. A decision's block is written when it is handed out, so
    ``action_name`` may name an action by what the replay knows at that point (the Head Haunter's hand)."""

    def __init__(self, search: Any, seat_name: Callable[[int], str], action_name: Callable[[int], str]) -> None:
        self._decisions = [] if search is None else _decisions(search)
        self._names = (seat_name, action_name)
        self._i = 0

    def until(self, mark: int) -> list[str]:
        """The lines of the decisions made with at most ``mark`` events logged, not handed out yet."""
        j = self._i
        while j < len(self._decisions) and self._decisions[j]["mark"] <= mark:
            j += 1
        out = [_block(d, *self._names) for d in self._decisions[self._i : j]]
        self._i = j
        return out

    def rest(self) -> list[str]:
        """Every line not handed out yet."""
        return self.until(1 << 62)
