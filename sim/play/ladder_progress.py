"""A ladder's time left and the table now playing, from each table's own games/s (`sim ladder`'s progress).

A ladder's tables differ a thousandfold in cost: a table of scripted seats plays 2,000 games in a fraction of a
second, one with a search seat at 256 rollouts a decision takes minutes. One rate over all the games done said
"time left" from the quick tables while a search table held the count for minutes. Here each table's seconds per
game come from, in order:

1. the tables of its own set of rungs (the same rungs in other seat orders), once timed;
2. a table without search seats: every timed table without search seats (scripted and learned players cost
   about the same);
3. a table with search seats: the cheap seconds per game (0 while unknown) plus its rollouts a decision (the sum of
   its search seats' budgets) times the seconds per rollout timed at the tables with search seats.

A table none of these prices leaves the time left unknown, said as "unknown until table N is timed" (the first
such table in playing order). Pure: the caller times the games (`Watch` in this process) and passes the numbers.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass

MIN_TIMED_S = 1.0  # a set of tables is timed once this many seconds of its games are, or one of its tables is done


@dataclass
class TableClock:
    """One table to play: ``index`` (0-based, in the ladder's order), ``games`` to play, ``rungs`` (rung index per
    seat), ``rollouts`` (the sum of its search seats' budgets: rollouts a decision round, 0 without search),
    ``done`` games and ``secs`` seconds timed so far (start-up, i.e. compiling, not counted)."""

    index: int
    games: int
    rungs: tuple[int, ...]
    rollouts: int = 0
    done: float = 0.0
    secs: float = 0.0


@dataclass(frozen=True)
class Left:
    """The time left: ``seconds`` (None: unknown), ``until``: the first table (0-based index) whose timing would
    make it known (None when known)."""

    seconds: float | None
    until: int | None = None


def _timed(ts: Sequence[TableClock]) -> float | None:
    """Seconds per game over ``ts`` (None while fewer than `MIN_TIMED_S` seconds are timed and none is done)."""
    done = sum(t.done for t in ts)
    secs = sum(t.secs for t in ts)
    if done <= 0 or (secs < MIN_TIMED_S and not any(t.done >= t.games for t in ts)):
        return None
    return secs / done


def seconds_per_game(tables: Sequence[TableClock]) -> dict[int, float | None]:
    """Each table's estimated seconds per game (see the module docstring), by table index; None: unknown."""
    by_set: dict[tuple[int, ...], list[TableClock]] = {}
    for t in tables:
        by_set.setdefault(tuple(sorted(t.rungs)), []).append(t)
    cheap = _timed([t for t in tables if t.rollouts == 0])
    searching = [t for t in tables if t.rollouts > 0 and t.done > 0]
    per_rollout = None
    if _timed(searching) is not None:
        own = sum(t.secs - (cheap or 0.0) * t.done for t in searching)
        per_rollout = max(0.0, own) / sum(t.done * t.rollouts for t in searching)
    out: dict[int, float | None] = {}
    for t in tables:
        est = _timed(by_set[tuple(sorted(t.rungs))])
        if est is None:
            if t.rollouts == 0:
                est = cheap
            elif per_rollout is not None:
                est = (cheap or 0.0) + per_rollout * t.rollouts
        out[t.index] = est
    return out


def time_left(tables: Sequence[TableClock], since_s: float = 0.0) -> Left:
    """The seconds left to play ``tables`` (in playing order), each table's games left at its own estimated rate
    (`seconds_per_game`), less ``since_s``: the seconds since the last games were counted (the table now
    playing has gone on since; its share never below 0). Unknown (``until`` the first table not priced) when a
    table with games left cannot be priced."""
    spg = seconds_per_game(tables)
    total = 0.0
    playing = next((t for t in tables if 0 < t.done < t.games), None)
    for t in tables:
        left = t.games - t.done
        if left <= 0:
            continue
        r = spg[t.index]
        if r is None:
            return Left(None, t.index)
        share = left * r
        if t is playing:
            share = max(0.0, share - since_s)
        total += share
    return Left(total)


def rung_name(text: str) -> str:
    """A rung as the playing line names it: ``search@256`` for a search rung (``search:budget=256,rollout=...``,
    256 its default budget), else its text."""
    name, _, rest = text.partition(":")
    if name != "search":
        return text
    params = dict(p.split("=", 1) for p in rest.split(",") if "=" in p)
    return f"search@{params.get('budget', '256')}"


def playing_line(t: TableClock, names: Sequence[str], of: int, starting: bool = False) -> str:
    """'playing: search@256 vs random vs planner vs learned (table 25 of 225, 120/2,000 games)' for table ``t``
    (``names``: each rung's text by rung index; ``of``: the ladder's tables); ``starting``: its games not begun
    ('starting: ... (table 25 of 225, 0/2,000 games; loading or compiling its kernels)')."""
    seats = " vs ".join(rung_name(names[r]) for r in t.rungs)
    games = f"{t.done:,.0f}/{t.games:,} games"
    if starting:
        return f"starting: {seats} (table {t.index + 1} of {of}, {games}; loading or compiling its kernels)"
    return f"playing: {seats} (table {t.index + 1} of {of}, {games})"


def left_words(left: Left) -> str:
    """'unknown until table 25 is timed' while unknown ("" when known: the caller says the duration)."""
    return "" if left.until is None else f"unknown until table {left.until + 1} is timed"


class Watch:
    """Times a ladder's tables as they are played (`sim.play.ladder.play` tells it) and says the time left and the
    table now playing. ``tables``: those to play, in playing order; ``names``: rung texts by index; ``of``: the
    ladder's tables. Thread-safe (the bar's redraw reads it while the runner tells it)."""

    def __init__(
        self,
        tables: Sequence[TableClock],
        names: Sequence[str],
        of: int,
        clock: Callable[[], float] = time.monotonic,
    ):
        self.tables = {t.index: t for t in tables}
        self.order = [t.index for t in tables]
        self.names, self.of, self.clock = list(names), of, clock
        self.current: int | None = None
        self.mark: float | None = None  # when the last games were counted (or the table now playing started)
        self._lock = threading.Lock()

    def began(self, index: int) -> None:
        """Table ``index``'s games start (its kernels compiled): the time since is its own."""
        with self._lock:
            self.current, self.mark = index, self.clock()

    def games(self, index: int, k: float) -> None:
        """``k`` more games of table ``index``, timed from the last count (or its start)."""
        with self._lock:
            now = self.clock()
            t = self.tables[index]
            if self.mark is not None:
                t.secs += now - self.mark
            t.done += k
            self.mark = now
            if t.done >= t.games and self.current == index:
                self.current = None

    def left(self) -> Left:
        with self._lock:
            since = 0.0 if self.mark is None else self.clock() - self.mark
            return time_left([self.tables[i] for i in self.order], since)

    def playing(self) -> str:
        """The playing line of the table now playing; between tables (a table's kernels compiling) the next one's,
        "starting up"; "" when all are done."""
        with self._lock:
            if self.current is not None:
                return playing_line(self.tables[self.current], self.names, self.of)
            nxt = next((self.tables[i] for i in self.order if self.tables[i].done < self.tables[i].games), None)
            if nxt is None:
                return ""
            return playing_line(nxt, self.names, self.of, starting=True)
