"""A ladder's time left and the table now playing, from each table's own games/s (`sim ladder`'s progress).

A ladder's tables differ a thousandfold in cost: a table of scripted seats plays 2,000 games in a fraction of a
second, one with a search seat at 256 rollouts a decision takes minutes. One rate over all the games done said
"time left" from the quick tables while a search table held the count for minutes. Here each table's seconds per
game come from, in order:

1. the tables of its own set of rungs (the same rungs in other seat orders), once timed;
2. a table without search seats: every timed table without search seats (scripted and learned players cost
   about the same);
3. a table with search seats: the cheap seconds per game (0 while unknown) plus, for each of its seats at its
   highest search budget, the seconds a game of one such seat timed at the tables whose highest budget is the same
   search rung. A rollout's cost is not one number across budgets (a search at 256 plays deeper lines than one at
   16, a learned rollout costs more than a random one): search@256 tables counted at the seconds per rollout of the
   search@16 and @64 tables timed first said 22-30 min left where 110 remained. Seats at lower budgets at the same
   table are not counted (at 4x between budgets they add a fifth or less; the tables of that top rung timed hold
   them too).

A table none of these prices yet counts at a floor, and the time left is then a lower bound ("at least 1 h 20 min
left"), said with why ("25 tables with search@16 not timed yet"): the floor is the seconds per game of the tables
without search seats (0 while unknown), as every seat of a table costs at least what a scripted seat does (a search
seat runs rollouts of whole games at each decision). `sim ladder moor` plays its search@16 tables last: "unknown
until a table with search@16 is timed" held for 144 of 225 tables, the 120 search@64 and @256 ones priced. Pure: the
caller times the games (`Watch` in this process) and passes the numbers.
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
    seat), ``budgets`` (each seat's search budget, rollouts a decision, 0 for a seat without search; () for none),
    ``done`` games and ``secs`` seconds timed so far (start-up, i.e. compiling, not counted)."""

    index: int
    games: int
    rungs: tuple[int, ...]
    budgets: tuple[int, ...] = ()
    done: float = 0.0
    secs: float = 0.0

    @property
    def top(self) -> tuple[int, ...]:
        """The rung(s) at its highest search budget (sorted rung indices; () without search): what prices it."""
        b = max(self.budgets, default=0)
        return tuple(sorted({r for r, x in zip(self.rungs, self.budgets, strict=True) if x == b})) if b > 0 else ()

    @property
    def searchers(self) -> int:
        """Its seats at its highest search budget (0 without search)."""
        b = max(self.budgets, default=0)
        return sum(1 for x in self.budgets if b > 0 and x == b)


@dataclass(frozen=True)
class Left:
    """The time left: ``seconds``, the estimate, or a lower bound where ``untimed`` is not empty: (top search
    rung(s) (`TableClock.top`; () for tables without search), tables with games left) of the tables not priced yet,
    by the playing order of their first table. A table of those timed would price its kind."""

    seconds: float
    untimed: tuple[tuple[tuple[int, ...], int], ...] = ()
    floor_s: float = 0.0  # the part of ``seconds`` counted at the floor (the tables not priced)

    @property
    def bound(self) -> bool:
        """Whether ``seconds`` is a lower bound (some tables not priced yet), not an estimate."""
        return bool(self.untimed)

    @property
    def telling(self) -> bool:
        """Whether the time left is worth saying: an estimate, or a bound more of which is timed tables' estimates
        than floors ("at least 3 s left" of quick tables while an hour of search tables is not timed says nothing)."""
        return not self.bound or self.seconds - self.floor_s > self.floor_s


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
    cheap = _timed([t for t in tables if not t.top])
    by_top: dict[tuple[int, ...], list[TableClock]] = {}
    for t in tables:
        if t.top and t.done > 0:
            by_top.setdefault(t.top, []).append(t)
    per_seat: dict[tuple[int, ...], float] = {}  # seconds a game of one seat at that top rung
    for top, ts in by_top.items():
        if _timed(ts) is not None:
            own = sum(t.secs - (cheap or 0.0) * t.done for t in ts)
            per_seat[top] = max(0.0, own) / sum(t.done * t.searchers for t in ts)
    out: dict[int, float | None] = {}
    for t in tables:
        est = _timed(by_set[tuple(sorted(t.rungs))])
        if est is None:
            if not t.top:
                est = cheap
            elif t.top in per_seat:
                est = (cheap or 0.0) + per_seat[t.top] * t.searchers
        out[t.index] = est
    return out


def time_left(tables: Sequence[TableClock], since_s: float = 0.0) -> Left:
    """The seconds left to play ``tables`` (in playing order), each table's games left at its own estimated rate
    (`seconds_per_game`), less ``since_s``: the seconds since the last games were counted (the table now
    playing has gone on since; its share never below 0). A table with games left that cannot be priced counts at
    the floor (the tables without search seats' seconds per game, 0 while unknown; see the module docstring) and
    the result is a lower bound (`Left.bound`), naming the kinds of tables not priced."""
    spg = seconds_per_game(tables)
    floor = _timed([t for t in tables if not t.top]) or 0.0
    total = floor_s = 0.0
    untimed: dict[tuple[int, ...], int] = {}
    playing = next((t for t in tables if 0 < t.done < t.games), None)
    for t in tables:
        left = t.games - t.done
        if left <= 0:
            continue
        r = spg[t.index]
        if r is None:
            untimed[t.top] = untimed.get(t.top, 0) + 1
        share = left * (floor if r is None else r)
        if t is playing:
            share = max(0.0, share - since_s)
        total += share
        if r is None:
            floor_s += share
    return Left(total, tuple(untimed.items()), floor_s)


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


def left_words(left: Left, names: Sequence[str]) -> str:
    """Why the time left is a lower bound: '25 tables with search@16 not timed yet', '97 tables with search@256 and 1
    with search@16 not timed yet', '3 tables without search not timed yet'; "" for an estimate. ``names``: each
    rung's text by rung index; a search rung by its `rung_name`, or its text where another rung has the same name."""
    if not left.bound:
        return ""
    short = [rung_name(n) for n in names]
    kinds = []
    for i, (top, n) in enumerate(left.untimed):
        said = " and ".join(short[r] if short.count(short[r]) == 1 else names[r] for r in top)
        what = f"with {said}" if top else "without search"
        kinds.append(f"{n} {'table' if n == 1 else 'tables'} {what}" if i == 0 else f"{n} {what}")
    listed = kinds[0] if len(kinds) == 1 else f"{', '.join(kinds[:-1])} and {kinds[-1]}"
    return f"{listed} not timed yet"


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

    def left_words(self, left: Left | None = None) -> str:
        """`left_words` of ``left`` (the time left now by default)."""
        return left_words(self.left() if left is None else left, self.names)

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
