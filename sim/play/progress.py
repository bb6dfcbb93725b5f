"""Progress of a long run on stderr: a live bar on a terminal, plain lines otherwise (logs, `make run | tee`, CI).

On a terminal: a Rich bar with games done, games/s and the time left, redrawn several times a second (the runner
reports progress about every `sim.play.runner.BLOCK_S` seconds). Not on a terminal: one line per scenario when it is done
("NAME: 100,000 games in 12.3 s, 8,130 games/s"; with a slow start "NAME: 1,000 games: 6.6 s starting up (loading or
compiling the kernels), then 0.1 s playing at 10,425 games/s"), a line at least every `EVERY_S` seconds while it
runs, also while the kernels compile and no game has finished yet, and once the rate is known, an estimate of the
time when the run will take over `LONG_S`. Progress is only told; it never changes what is played.

Writing the report (pages, plots) after the games can take seconds: a command that writes one calls ``played()``
when the last game is over: the games line ("NAME: 200 games in 0.1 s, 2,200 games/s", the games and games/s
counting the games only) and "NAME: writing the report ... 4.7 s" follow, said while it is written (its time added
when done) once that takes over `STEP_SAID_S`; on a terminal too, once the bar is gone. A report that fails sooner
(a full disk) leaves only the command's one error line.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable
from contextlib import contextmanager
from typing import TYPE_CHECKING, TextIO

if TYPE_CHECKING:
    from sim.play.ladder_progress import Watch

EVERY_S = 10.0  # at most this many seconds between progress lines when stderr is not a terminal
LONG_S = 600.0  # a run expected to take longer says how long, once the rate is known
MIN_TIMED_S = 1.0  # no rate (nor time left) before this many seconds of games are timed: the first block is one game
STARTUP_SAID_S = 1.0  # a start-up at least this long (and a tenth of the run) is said apart in the last line
SIDES = ("A", "B")  # a compared run's sides, as said
STEP_SAID_S = 0.5  # writing the report said while it runs once it takes this long (said when done otherwise)
STEP_TICK_S = EVERY_S  # and while it still runs, its time so far added to that line this often


def _duration(s: float) -> str:
    s = max(0, int(round(s)))
    return (
        f"{s // 3600} h {s % 3600 // 60:02d} min"
        if s >= 3600
        else f"{s // 60} min {s % 60:02d} s"
        if s >= 60
        else f"{s} s"
    )


def rate_text(r: float) -> str:
    """Games/s as said: '8,130', and two significant digits below 10 ('0.47': slow search games were '0')."""
    return f"{r:,.0f}" if r >= 9.95 else f"{r:.2g}" if r > 0 else "0"


MIN_TIMED_GAMES = 500  # ... or this many games of a side timed: a quick side's chunk of thousands in 0.3 s


def _timed(secs: float, games: float) -> bool:
    """A side's own blocks time its games/s: `MIN_TIMED_S` of them (a first block of one game timed its overhead),
    or `MIN_TIMED_GAMES` games in any time above 0 (learned players' 10,000 games in under a second left the
    side untimed for the whole run, "A playing its first games", while B played on)."""
    return games > 0 and (secs >= MIN_TIMED_S or (secs > 0 and games >= MIN_TIMED_GAMES))


class Lines:
    """Context manager and progress callback writing plain lines to ``stream`` (see the module docstring)."""

    def __init__(
        self,
        total: float,
        label: str,
        stream: TextIO | None = None,
        every_s: float = EVERY_S,
        clock: Callable[[], float] = time.monotonic,
    ):
        self.total, self.label, self.every_s, self.clock = total, label, every_s, clock
        self.stream = stream if stream is not None else sys.stderr
        self.done = 0.0
        self.first: tuple[float, float] | None = None  # (time, games done) at the first step
        self.t_block: float | None = None  # when the last block of games ended (the rate is timed to it)
        self.sides: dict[int, list[float]] = {}  # a compared run's sides (see `side`)
        self._last_side: tuple[int, float] | None = None  # the side and time of the last `side` call
        self.t_played: float | None = None  # when played() was called (the games are over)
        self.instead: str | None = None  # what the games line says when no game was to be played (a sweep
        # whose points were all stored: "NAME: all 9 points reused ...")
        self.watch: Watch | None = None  # a ladder's tables (`sim.play.ladder_progress`): the time left from each
        # table's own games/s, not from all the games' (quick tables said minutes while a search table took an hour)

    @property
    def lines(self) -> Lines:
        """Itself (as a Rich bar's ``lines``: a ladder sets its `Watch` on the one counting the games)."""
        return self

    def __enter__(self):
        import threading

        self.t0 = self.last = self.clock()
        self.estimated = False
        self._said = threading.Lock()  # the heartbeat and the runner's thread both write lines
        self._stop = threading.Event()
        self._beat = None
        if self.every_s != float("inf") and self.clock is time.monotonic:
            self._beat = threading.Thread(target=self._heartbeat, daemon=True)
            self._beat.start()
        return self

    def _heartbeat(self) -> None:
        """A line when none came for `every_s` seconds: a first compile holds the first block for tens of seconds,
        and a slow game's block may too (the runner reports only at block ends)."""
        while not self._stop.wait(min(1.0, self.every_s)):
            if self.t_played is None and self.clock() - self.last >= self.every_s:
                self._status(self.clock())

    def advance(self, k: float) -> None:
        self.done += k
        now = self.clock()
        if self.first is None:  # games/s and time left count from the first step: the runner's advance(0) once
            self.first = (now, self.done)  # the kernels are compiled, else a first block that held the start-up
        elif k > 0:
            self.t_block = now
        if self.t_block is not None and not self.estimated:
            rates, left = self._rate_left(now) or ("", None)
            if left is not None and not self._bound():  # a lower bound is no "about"
                self.estimated = True  # the rate is known: say how long a long run will take
                if left > LONG_S:
                    each = " each" if self.sides else ""
                    at = "each table at its own games/s" if self.watch is not None else rates
                    self._say(
                        f"{self.label}: about {_duration(left)} to go at {at} ({self.total:,.0f} games{each}; "
                        "Ctrl-C stops it cleanly, --games N plays fewer)"
                    )
        if now - self.last >= self.every_s and self.done < self.total:
            self._status(now)

    def side(self, i: int, k: float) -> None:
        """A compared run's progress (`sim.play.context.RunContext.progress_sides`): k more games of side ``i`` (0:
        A, 1: B), counted k / 2 in the games done (a pair is a game of each). Each side's games/s is timed over its
        own blocks (from its advance(0), or its previous block, to a block's end), so the time left adds each
        side's games left at its own rate: A's scripted seats may play a thousand times faster than B's search
        seats, and one rate over both said "about 2 min left" with 17 min to go."""
        now = self.clock()
        st = self.sides.setdefault(i, [0.0, 0.0, 0.0])  # games done, seconds timed, games timed
        if self._last_side is not None and self._last_side[0] == i and k > 0:
            st[1] += now - self._last_side[1]
            st[2] += k
        st[0] += k
        self._last_side = (i, now)
        self.advance(k / 2)

    def _side_known(self, i: int) -> bool:
        """Side ``i``'s part of the time left is known: it is timed (`MIN_TIMED_S` of its own blocks) or done."""
        done, secs, timed = self.sides.get(i, (0.0, 0.0, 0.0))
        return _timed(secs, timed) or done >= self.total

    def _rate_left(self, now: float) -> tuple[str, float | None] | None:
        """(the games/s as said, the seconds left or None when a side is not timed yet), or None before any rate
        is known (nothing played since the first step)."""
        if self.sides:
            if not any(_timed(secs, timed) for _, secs, timed in self.sides.values()):
                if not any(d >= self.total for d, _, _ in self.sides.values()):
                    return None
            rates: list[str] = []
            left: float | None = 0.0
            for i, name in enumerate(SIDES):
                done, secs, timed = self.sides.get(i, (0.0, 0.0, 0.0))
                if _timed(secs, timed):
                    r = timed / secs
                    rates.append(f"{name} {rate_text(r)} games/s")
                    left = None if left is None else left + max(0.0, self.total - done) / r
                elif done >= self.total:  # all its games in one quick block: nothing left to time
                    rates.append(f"{name} done")
                else:
                    rates.append(f"{name} {'playing its first games' if i in self.sides else 'not started'}")
                    left = None
            return ", ".join(rates), left
        if self.first is None or self.t_block is None or self.t_block <= self.first[0] or self.done <= self.first[1]:
            return None
        t1, d1 = self.first
        if self.t_block - t1 < MIN_TIMED_S:  # a first block of one game timed its overhead: "2 h" for a 17 s run
            return None
        # every game since the first step over the time to the last block's end: not the last block's rate (slow
        # search games end unevenly: 20 to 30 min runs said times left that swung by minutes), nor one timed to
        # now, which falls while a block plays and jumps back when it ends
        rate = (self.done - d1) / (self.t_block - t1)
        left = (self.total - self.done) / rate - (now - self.t_block)  # counting down while the next block plays
        if self.watch is not None:
            return f"{rate_text(rate)} games/s", self.watch.left().seconds
        if left <= 0 and self.done < self.total:  # the block now playing is slower than the games so far:
            return f"{rate_text(rate)} games/s", None  # no "about 0 s left" for minutes (a fresh run of 256 search)
        return f"{rate_text(rate)} games/s", max(0.0, left)

    def _bound(self) -> str:
        """Why a ladder's time left is a lower bound ("25 tables with search@16 not timed yet", `Watch.left_words`),
        "" when it is an estimate or no ladder's."""
        return self.watch.left_words() if self.watch is not None else ""

    def left_text(self, now: float | None = None, short: bool = False) -> str:
        """The time left as a bar column says it ("about 1 min 09 s left"), "" while it is not known; a ladder with
        tables not yet timed: a lower bound, "at least 1 h 20 min left" (why: `_bound`), ``short``: "≥ 1 h 20 min
        left" (the bar says why on the playing line beneath it, `playing_text`: at 80 columns it was cut); a bound
        mostly of floors (`sim.play.ladder_progress.Left.telling`): "time left unknown" (``short``: "time left:
        unknown")."""
        known = self._rate_left(self.clock() if now is None else now)
        if known is None or known[1] is None:
            return ""
        left = self.watch.left() if self.watch is not None else None
        if left is not None and left.bound:
            if not left.telling:
                return "time left: unknown" if short else "time left unknown"
            return f"{'≥' if short else 'at least'} {_duration(left.seconds)} left"
        return f"{_duration(known[1])} left"

    def playing_text(self) -> str:
        """A ladder's line beneath its bar: the table now playing, and while the time left is a lower bound why
        ("playing: ... (table 25 of 225, 0/300 games); time left is a lower bound: 97 tables with search@256 not timed
        yet"; "time left unknown: ..." while the bound says little); "" for a run that is no ladder."""
        playing = self.watch.playing() if self.watch is not None else ""
        said = self.left_text() if playing else ""
        why = self._bound() if said else ""
        if not why:
            return playing
        how = "time left unknown" if said == "time left unknown" else "time left is a lower bound"
        return f"{playing}; {how}: {why}"

    def _status(self, now: float) -> None:
        """The status line (`_status_line`), then a ladder's table now playing on a line of its own."""
        self._status_line(now)
        playing = self.watch.playing() if self.watch is not None else ""
        if playing:
            self._say(f"{self.label}: {playing}")

    def _status_line(self, now: float) -> None:
        """'NAME: 31% (12,256 of 40,000 games, 400 games/s, about 1 min 09 s left)'; 'starting up' before the
        kernels are compiled, 'playing the first games' once they are (the runner's advance(0)) and no game is done
        yet, and after a first step that held the start-up (no advance(0) came before it), its games/s counting the
        start-up and no time left (a time left from it would be made up: 30 s of compiling in a 256-game step). A
        compared run says each side's games/s, and the time left once both sides are timed."""
        self.last = now
        games = "game" if self.total == 1 else "games"  # a one-game search run: "(0 of 1 game"
        head = f"{self.label}: {100 * self.done / self.total:.0f}% ({self.done:,.0f} of {self.total:,.0f} {games}"
        if self.done <= 0:
            doing = (
                "starting up (compiling the kernels on a first run)"
                if self.first is None
                else "playing the first games"
            )
            self._say(f"{head}; {doing}, no games/s yet)")
            return
        known = self._rate_left(now)
        if known is None:
            so_far = self.done / (now - self.t0) if now > self.t0 else 0.0
            self._say(f"{head}, {rate_text(so_far)} games/s counting the start-up; time left once more are done)")
            return
        rates, left = known
        if self.sides:
            done = ", ".join(f"{n} {self.sides.get(i, [0.0])[0]:,.0f}" for i, n in enumerate(SIDES))
            head = f"{self.label}: {100 * self.done / self.total:.0f}% ({done} of {self.total:,.0f} {games} each; "
            untimed = [n for i, n in enumerate(SIDES) if not self._side_known(i)]
            if untimed:
                self._say(
                    f"{head}{rates}; time left once {' and '.join(untimed)} {'is' if len(untimed) == 1 else 'are'} timed)"
                )
                return
            self._say(f"{head}{rates}, about {_duration(left or 0.0)} left)")
            return
        said = f"about {_duration(left or 0.0)} left"
        if left is None:
            said = "past the time estimated: the games now playing take longer than those so far"
        if why := self._bound():
            said = f"{self.left_text(now)}: {why}"  # "at least 1 h 20 min left: 25 tables with search@16 ..."
        self._say(f"{head}, {rates}, {said})")

    def games_line(self, now: float) -> str:
        """'NAME: 200 games in 0.1 s, 2,200 games/s' for the games done by ``now`` (the start-up said apart when it
        took a while: the first scenario of a game compiles)."""
        if self.instead is not None and not self.done:
            return f"{self.label}: {self.instead}"
        wall = now - self.t0
        rate = f", {rate_text(self.done / wall)} games/s" if wall > 0 else ""
        if self.first is not None and now > self.first[0] and self.done > self.first[1]:
            t1, d1 = self.first  # games/s once started, and the start-up apart, when it
            r = (self.done - d1) / (now - t1)  # took a while (the first scenario of a game compiles)
            start = (t1 - self.t0) - d1 / r
            if start >= STARTUP_SAID_S and start >= 0.1 * wall:  # start-up and playing said apart
                return (
                    f"{self.label}: {self.done:,.0f} game{'' if self.done == 1 else 's'}: {start:.1f} s "
                    f"starting up (loading or compiling the kernels), then {wall - start:.1f} s playing at "
                    f"{rate_text(r)} games/s"
                )
        return f"{self.label}: {self.done:,.0f} game{'' if self.done == 1 else 's'} in {wall:.1f} s{rate}"

    def played(self, what: str = "the report", doing: str = "writing") -> None:
        """The games are over and ``what`` is being written (``doing``: what is done with it, e.g. `sim check`'s
        "testing against" "the baseline"). When writing takes over `STEP_SAID_S` the games line comes then, and
        "NAME: writing the report ...", its time added when done; a quicker one says both when done; one that fails
        sooner says nothing (the error is the command's one line)."""
        if self.t_played is not None:
            return
        import threading

        self.t_played, self.what, self.doing, self.said = self.clock(), what, doing, False
        self.broken = False  # the step line begun was ended early by a line of `say` (its time said again at the end)
        self.lock = threading.Lock()
        self.ticked = threading.Event()  # set when the step is over: `_tick` stops
        self.timer = threading.Timer(STEP_SAID_S, self._say_step)
        self.timer.daemon = True
        self.timer.start()

    def _say_step(self) -> None:
        with self.lock:
            if not self.said and self.t_played is not None:  # t_played is set before the timer starts
                self.said = True
                self._say(self.games_line(self.t_played))
                print(f"{self.label}: {self.doing} {self.what} ...", end="", file=self.stream, flush=True)
                import threading

                threading.Thread(target=self._tick, daemon=True).start()

    def _tick(self) -> None:
        """While the report is still being written: its time so far added to the step line every `STEP_TICK_S`
        ("writing the report ... 10 s ... 20 s ..."; a slow at-skill table or arc once left a minute of silence)."""
        t_played = self.t_played or 0.0  # (set before the timer that starts this)
        while not self.ticked.wait(STEP_TICK_S):
            with self.lock:
                if self.ticked.is_set() or self.broken:  # (over, or the line was ended by another)
                    return
                print(f" {self.clock() - t_played:.0f} s ...", end="", file=self.stream, flush=True)

    def say(self, line: str) -> None:
        """``line`` on a line of its own while the report is being written (`sim arc`'s timelines): a step line begun
        ("NAME: writing the report ...") is ended first, and its time then comes on a line of its own."""
        if self.t_played is None:
            self._say(line)
            return
        with self.lock:
            if self.said and not self.broken:
                print(file=self.stream, flush=True)
                self.broken = True
            self._say(line)

    def __exit__(self, kind, value, tb):
        if getattr(self, "_stop", None) is not None:
            self._stop.set()
        if self.t_played is not None:
            self.timer.cancel()
            self.ticked.set()
            if kind is None:
                self._say_step()  # said now if writing was quick
            with self.lock:
                if self.said:  # end the line begun, also when stopped or failed
                    end = f" {self.clock() - self.t_played:.1f} s" if kind is None else " stopped"
                    if self.broken:  # (lines came between: the step said again with its time)
                        end = f"{self.label}: {self.doing} {self.what} ...{end}"
                    self._say(end)
                self.said = True
        elif kind is None:
            self._say(self.games_line(self.clock()))
        return False

    def _say(self, line: str) -> None:
        lock = getattr(self, "_said", None)
        if lock is None:
            print(line, file=self.stream, flush=True)
            return
        with lock:
            print(line, file=self.stream, flush=True)


@contextmanager
def said_if_slow(line: str, after_s: float = 1.0, stream: TextIO | None = None, every_s: float | None = None):
    """Say ``line`` on ``stream`` (default stderr) if the block is still running after ``after_s`` seconds (a
    kernel compiling on the first run after a change: `sim replay` was silent for ~17 s), and again every
    ``every_s`` seconds while it still runs ("... still going, 20 s"); a quick block says nothing."""
    import threading

    stream = stream if stream is not None else sys.stderr
    done = threading.Event()
    t0 = time.monotonic()

    def speak() -> None:
        if done.wait(after_s):
            return
        print(line, file=stream, flush=True)
        while every_s is not None and not done.wait(every_s):
            print(f"{line.rstrip('. ')} ... still going, {time.monotonic() - t0:.0f} s", file=stream, flush=True)

    t = threading.Thread(target=speak, daemon=True)
    t.start()
    try:
        yield
    finally:
        done.set()


BAR_WIDTH = 20  # the Rich bar's own width in characters
MIN_LABEL = 12  # the run's name is cut to no fewer characters than this


def bar(total: float, label: str, stream: TextIO | None = None, clock: Callable[[], float] = time.monotonic):
    """(context manager, advance callback) for a run of ``total`` games: a Rich bar when ``stream`` (default
    stderr) is a terminal, else `Lines`."""
    ctx, advance, _ = _bar(total, label, stream, sides=False, clock=clock)
    return ctx, advance


def label_column(width: Callable[[], int], others: list):
    """A Rich column of the run's name, cut ("…") to the room the ``others`` columns (after the bar and the count)
    leave on a line of ``width()`` characters: at 80 columns the numbers and the time left keep their width and the
    name gives way (Rich cut them all, the time left too)."""
    from rich.progress import ProgressColumn
    from rich.table import Column
    from rich.text import Text

    class Label(ProgressColumn):
        def render(self, task):
            said = [f"{task.completed:.0f}/{task.total:.0f}", *(c.render(task).plain for c in others)]
            room = max(MIN_LABEL, width() - BAR_WIDTH - sum(len(x) + 1 for x in said) - 1)
            name = task.description
            return Text(name if len(name) <= room else name[: room - 1] + "…", no_wrap=True)

    return Label(table_column=Column(no_wrap=True))


def time_left_column(lines: Lines, task_id: int | None = None):
    """A Rich column (a `TimeRemainingColumn`) saying the time left as ``lines`` estimates it (`Lines._rate_left`:
    every game since the first step, timed to the last block's end), not Rich's own, which divides by the games/s
    of the last 30 s: slow search blocks made it swing by minutes, or blank while no block ended. ``task_id``: the
    one task of the bars it is said for (a sweep's games overall; the column's ``only``, also set later); every
    task otherwise."""
    from rich.progress import TimeRemainingColumn
    from rich.text import Text

    class TimeLeft(TimeRemainingColumn):
        only = task_id

        def render(self, task):
            if self.only is not None and task.id != self.only:
                return Text("")
            return Text(lines.left_text(short=True), style="progress.remaining", no_wrap=True, overflow="ellipsis")

    from rich.table import Column

    return TimeLeft(table_column=Column(no_wrap=True))


def compare_bar(total: float, label: str, stream: TextIO | None = None):
    """(context manager, advance callback, side callback) for a comparison of ``total`` games each: as `bar`, its
    games/s and time left from each side's own games/s (`Lines.side`; the side callback is the run's
    `sim.play.context.RunContext.progress_sides`, the advance callback its progress: whole units on a cluster)."""
    return _bar(total, label, stream, sides=True)


def _bar(total: float, label: str, stream: TextIO | None, sides: bool, clock: Callable[[], float] = time.monotonic):
    stream = stream if stream is not None else sys.stderr
    if not stream.isatty():
        lines = Lines(total, label, stream, clock=clock)
        return lines, lines.advance, lines.side
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, ProgressColumn
    from rich.table import Column
    from rich.text import Text

    class Rate(ProgressColumn):
        """The games/s the time left is estimated from (`Lines._rate_left`), not Rich's of the last 30 s."""

        def render(self, task):
            known = lines._rate_left(lines.clock())
            return Text(known[0] if known is not None else "")

    class SideRates(ProgressColumn):
        """Each side's games/s and the time left from them (`Lines._rate_left`), where Rich's own would mix them."""

        def render(self, task):
            known = lines._rate_left(lines.clock())
            if known is None:
                return Text("")
            rates, left = known
            return Text(rates + ("" if left is None else f", {_duration(left)} left"))

    class Bar(Progress):
        """The Rich bar (transient: gone when done), counting the games like `Lines` without writing lines, so that
        ``played()`` says the same games line once the bar is gone."""

        def __enter__(self):
            lines.__enter__()
            return super().__enter__()

        @property
        def lines(self) -> Lines:
            """The `Lines` counting its games (a ladder sets its `Watch` on it)."""
            return lines

        def get_renderables(self):
            """The bar, then a ladder's table now playing on a line of its own (`Lines.playing_text`), wrapped at
            the terminal's width rather than cut."""
            yield from super().get_renderables()
            playing = lines.playing_text()
            if playing:
                yield Text(playing, overflow="fold")

        def played(self, what: str = "the report", doing: str = "writing") -> None:
            self.stop()  # removes the bar: the line takes its place
            lines.played(what, doing)

        def say(self, line: str) -> None:
            lines.say(line)

        def __exit__(self, kind, value, tb):
            super().__exit__(kind, value, tb)
            if lines.t_played is not None:
                lines.__exit__(kind, value, tb)

    lines = Lines(total, label, stream, every_s=float("inf"), clock=clock)
    keep = Column(no_wrap=True)
    rate_columns = [SideRates(table_column=keep)] if sides else [Rate(table_column=keep), time_left_column(lines)]
    prog = Bar(
        label_column(lambda: prog.console.width, rate_columns),
        BarColumn(bar_width=BAR_WIDTH),
        MofNCompleteColumn(table_column=keep),
        *rate_columns,
        console=Console(file=stream),
        transient=True,
        refresh_per_second=4,
        get_time=clock,
    )
    task = prog.add_task(label, total=total)

    def advance(k: float) -> None:
        prog.advance(task, k)
        lines.advance(k)

    def side(i: int, k: float) -> None:
        prog.advance(task, k / 2)
        lines.side(i, k)

    return prog, advance, side
