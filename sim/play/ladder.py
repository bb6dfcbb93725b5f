"""Plays a ladder (`sim.model.ladder_spec`): each table not yet stored, as units of work (`sim.play.work.Unit`) on
an executor (this process or Dask, `sim.play.distributed`), each table's chunks merged exactly and stored as a sweep
point is (`sim.play.sweep_store.Store`, under ``<folder>/points``) as soon as they are all in. An interrupted
ladder keeps its finished tables; the same command again plays only the rest, with the same numbers.

What each table keeps per game (the store's paired numerators, int32): every seat's win share (``win.seat<i>``,
60 units a game, split between co-winners) or, in team games, each role's team win (``team.<role>``), plus the
start player's win share (``first_player.win``) and the game's length in turns (``length.turns``), in a competitive
game with an arc the comebacks and the last-at-half-time wins (``arc.comeback``, ``arc.last_at_half_wins``: -1 where
no seat is alone last at half-time), and the finished mask: what the fit, its bootstrap over games and the balance figures need.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from sim.model.ladder_spec import Ladder, Table
from sim.play.context import RunContext
from sim.play.ladder_progress import TableClock, Watch
from sim.play.sweep_store import Store, point_key
from sim.play.work import Executor, Unit, chunks, merge
from sim.stats.measures import needs_arc


def per_game_names(ld: Ladder) -> tuple[str, ...]:
    """The measures whose per-game numerators each table keeps (see the module docstring)."""
    sc = ld.base
    roles = sc.spec.roles(sc.params, sc.players)
    if sc.spec.team_roles:
        return tuple(f"team.{r}" for r in dict.fromkeys(roles)) + ("length.turns",)
    arc = ARC_FIGURES if sc.spec.arc_len else ()  # does the game's arc hold for skill (the kernel records it)
    return tuple(f"win.seat{s}" for s in range(sc.players)) + ("first_player.win", "length.turns") + arc


# the arc measures a competitive ladder's tables keep (`sim.stats.ladder_fit.balance_figures`): comebacks, and the
# child alone last at half-time who still wins
ARC_FIGURES = ("arc.comeback", "arc.last_at_half_wins")


def key(ld: Ladder, t: Table) -> str:
    return point_key(t.scenario, ld.seed, t.scenario.games, 0)


def clock_of(ld: Ladder, t: Table) -> TableClock:
    """Table ``t`` as the time left prices it: its games, its rungs and each seat's search budget
    (`sim.model.ladder_spec.search_budget`)."""
    from sim.model.ladder_spec import search_budget

    return TableClock(
        t.index, t.scenario.games, t.rungs, tuple(search_budget(ld.base.spec, ld.rungs[r]) for r in t.rungs)
    )


def stored_tables(ld: Ladder, folder: Path) -> list[Table]:
    """The tables of ``ld`` stored complete under ``folder``/points by an earlier run (what `play` does not play
    again), in table order."""
    store = Store(Path(folder) / "points")
    names = per_game_names(ld)
    arc = needs_arc(names)
    return [t for t in ld.tables if store.has(key(ld, t), names, arc)]


@dataclass
class Played:
    """What `play` did: tables played now and found stored (indices), wall seconds."""

    played: list[int] = field(default_factory=list)
    reused: list[int] = field(default_factory=list)
    wall_s: float = 0.0


def play(
    ld: Ladder,
    folder: Path,
    executor: Executor,
    chunk: int,
    advance: Callable[[float], None] | None = None,
    ctx: RunContext | None = None,
    watch: Callable[[list[TableClock]], Watch] | None = None,
    stored: Sequence[int] | None = None,
) -> Played:
    """Play every table of ``ld`` not yet stored under ``folder``/points (common random numbers: every table the
    ladder's seed, RNG point 0, games 0 .. games-1). ``advance(games)`` as blocks of games end in this process (a
    search table is one unit of minutes) and for the rest of each unit when it is back. ``watch(tables)``: makes the
    `Watch` told each table's start and games (the tables to play, in playing order), for the time left from each
    table's own games/s. ``stored``: the indices of the tables found stored (`stored_tables`) by a caller that
    already read them (`sim ladder`'s kept line), else read here. KeyboardInterrupt passes through; tables finished
    before it stay stored."""
    store = Store(Path(folder) / "points")
    names = per_game_names(ld)
    arc = needs_arc(names)
    out = Played()
    out.reused = list(stored) if stored is not None else [t.index for t in stored_tables(ld, folder)]
    todo = [t for t in ld.tables if t.index not in out.reused]
    units = [
        Unit(key(ld, t), i, t.scenario, g0, n, ld.seed, 0, names, arc=arc)
        for t in todo
        for i, (g0, n) in enumerate(chunks(t.scenario.games, chunk))
    ]
    parts = {key(ld, t): len(chunks(t.scenario.games, chunk)) for t in todo}
    by_key = {key(ld, t): t for t in todo}
    pending: dict[str, list] = {}
    w = watch([clock_of(ld, t) for t in todo]) if watch is not None else None
    started = iter(units)  # in this process the units play in order, and each chunk tells progress(0) as it starts
    now: list[Unit] = []  # the unit playing in this process
    told: dict[tuple[str, int], float] = {}  # games of a unit already told as its blocks ended

    def blocks(k: float) -> None:
        """The runner's progress in this process: 0 when a unit's games start, then each block's games."""
        if k == 0:
            if (v := next(started, None)) is not None:
                now[:] = [v]
                if w is not None:
                    w.began(by_key[v.key].index)
            return
        if now:
            u = now[0]
            told[u.key, u.index] = told.get((u.key, u.index), 0.0) + k
            if w is not None:
                w.games(by_key[u.key].index, k)
            if advance is not None:
                advance(k)

    t0 = time.perf_counter()
    for u, r in executor.map(units, (ctx or RunContext()).with_(progress=blocks)):
        rest = u.n - told.pop((u.key, u.index), 0.0)  # a unit back from a Dask worker: all its games
        if rest > 0:
            if w is not None:
                w.games(by_key[u.key].index, rest)
            if advance is not None:
                advance(rest)
        pending.setdefault(u.key, []).append(r)
        if len(pending[u.key]) == parts[u.key]:
            t = by_key[u.key]
            store.save(u.key, merge(pending.pop(u.key)), {"table": t.index, "rungs": list(t.rungs), "seed": ld.seed})
            out.played.append(t.index)
    out.wall_s = time.perf_counter() - t0
    return out


@dataclass(frozen=True)
class TableGames:
    """One stored table: ``values[name]`` int64[games] per kept measure (`per_game_names`), ``finished``
    bool[games], and its aggregates document (`Aggregates.to_dict`)."""

    table: Table
    values: dict[str, np.ndarray]
    finished: np.ndarray
    aggregates: dict


def collect(ld: Ladder, folder: Path) -> list[TableGames]:
    """Every table's per-game numbers, read back from the store (all tables must be stored)."""
    store = Store(Path(folder) / "points")
    out = []
    for t in ld.tables:
        k = key(ld, t)
        doc = store.read(k)  # read once: its paired names and aggregates (each table's was decoded twice)
        p = store.load_paired(k, doc)
        vals = {n: p["paired"][:, j].astype(np.int64) for j, n in enumerate(p["names"])}
        out.append(TableGames(t, vals, p["finished"].astype(bool), doc["aggregates"]))
    return out
