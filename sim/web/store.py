"""The SQLite database of jobs and their results (stdlib sqlite3; reports/web/jobs.sqlite).

One row per job: its spec (what to play: kind, scenario, overrides, seed, games, ...; JSON), its permanent key
(`sim.web.jobs.result_key`), its state (queued -> running -> done | failed | cancelled | interrupted), its progress
(games done of total, when the games started) and, once done, its result (the verdict sentences, the headline
figures and the report folder; JSON). The server and the worker processes each open their own connection (WAL
journal: readers never wait for the one writer). A job left queued or running by a server that stopped is marked
``interrupted`` when the next one starts (`Store.interrupt_unfinished`), never shown as complete.
"""

from __future__ import annotations

import json
import sqlite3
import time
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

SCHEMA = """
CREATE TABLE IF NOT EXISTS jobs (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    key TEXT NOT NULL,
    kind TEXT NOT NULL,
    game TEXT NOT NULL,
    players INTEGER,
    title TEXT NOT NULL,
    spec TEXT NOT NULL,
    status TEXT NOT NULL DEFAULT 'queued',
    created REAL NOT NULL,
    started REAL,
    finished REAL,
    done REAL NOT NULL DEFAULT 0,
    total REAL NOT NULL DEFAULT 0,
    cancel INTEGER NOT NULL DEFAULT 0,
    error TEXT,
    result TEXT,
    folder TEXT
);
CREATE INDEX IF NOT EXISTS jobs_key ON jobs(key);
CREATE INDEX IF NOT EXISTS jobs_game ON jobs(game, created);
"""

UNFINISHED = ("queued", "running")
STATES = ("queued", "running", "done", "failed", "cancelled", "interrupted")


@dataclass(frozen=True)
class Job:
    """A row of the jobs table. spec, result: decoded JSON. created, started, finished: seconds since the epoch.
    done, total: games played and to play (total 0: not known yet)."""

    id: int
    key: str
    kind: str
    game: str
    players: int | None
    title: str
    spec: dict[str, Any]
    status: str
    created: float
    started: float | None
    finished: float | None
    done: float
    total: float
    cancel: bool
    error: str | None
    result: dict[str, Any] | None
    folder: str | None

    @property
    def finished_state(self) -> bool:
        return self.status not in UNFINISHED

    def rate(self, now: float | None = None) -> float | None:
        """Games per second since the games started (None before any)."""
        if self.started is None or self.done <= 0:
            return None
        end = self.finished if self.finished is not None else (now or time.time())
        return self.done / max(end - self.started, 1e-3)

    def time_left(self, now: float | None = None) -> float | None:
        """Seconds left at the current rate (None when unknown)."""
        r = self.rate(now)
        if r is None or self.total <= 0 or self.finished_state:
            return None
        return max(self.total - self.done, 0.0) / r


def _job(row: sqlite3.Row) -> Job:
    d = dict(row)
    d["spec"] = json.loads(d["spec"])
    d["result"] = json.loads(d["result"]) if d["result"] else None
    d["cancel"] = bool(d["cancel"])
    return Job(**d)


class Store:
    """The jobs database at ``path`` (created with its folder when missing)."""

    def __init__(self, path: Path) -> None:
        self.path = Path(path)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        with self.connect() as db:
            db.execute("PRAGMA journal_mode=WAL")
            db.executescript(SCHEMA)

    @contextmanager
    def connect(self) -> Iterator[sqlite3.Connection]:
        """A connection, committed on leaving (rolled back on an error) and closed."""
        db = sqlite3.connect(self.path, timeout=30)
        db.row_factory = sqlite3.Row
        try:
            with db:
                yield db
        finally:
            db.close()

    def add(self, key: str, kind: str, game: str, players: int | None, title: str, spec: Mapping[str, Any]) -> int:
        """A new queued job; returns its id."""
        with self.connect() as db:
            cur = db.execute(
                "INSERT INTO jobs (key, kind, game, players, title, spec, created) VALUES (?, ?, ?, ?, ?, ?, ?)",
                (key, kind, game, players, title, json.dumps(dict(spec)), time.time()),
            )
            return int(cur.lastrowid or 0)

    def get(self, job_id: int) -> Job | None:
        """Job ``job_id``, or None (also for a number no SQLite row id can be: beyond 64 bits)."""
        if not 0 <= job_id < 2**63:
            return None
        with self.connect() as db:
            row = db.execute("SELECT * FROM jobs WHERE id = ?", (job_id,)).fetchone()
        return _job(row) if row else None

    def latest(self, key: str, status: str | None = "done") -> Job | None:
        """The newest job of permanent key ``key`` (of that ``status``; None: any)."""
        q = "SELECT * FROM jobs WHERE key = ?" + (" AND status = ?" if status else "") + " ORDER BY id DESC LIMIT 1"
        with self.connect() as db:
            row = db.execute(q, (key, status) if status else (key,)).fetchone()
        return _job(row) if row else None

    def history(
        self,
        game: str | None = None,
        players: int | None = None,
        kind: str | None = None,
        since: float | None = None,
        until: float | None = None,
        status: str | None = None,
        limit: int = 500,
    ) -> list[Job]:
        """Jobs, newest first, filtered by game, players, kind, status and created time (seconds since the epoch,
        ``since`` <= created < ``until``)."""
        where: list[str] = []
        args: list[Any] = []
        for col, v in (("game", game), ("players", players), ("kind", kind), ("status", status)):
            if v is not None and v != "":
                where.append(f"{col} = ?")
                args.append(v)
        if since is not None:
            where.append("created >= ?")
            args.append(since)
        if until is not None:
            where.append("created < ?")
            args.append(until)
        q = "SELECT * FROM jobs" + (" WHERE " + " AND ".join(where) if where else "") + " ORDER BY id DESC LIMIT ?"
        with self.connect() as db:
            rows = db.execute(q, (*args, limit)).fetchall()
        return [_job(r) for r in rows]

    def games(self) -> list[str]:
        """The games that have jobs, for the history's filter."""
        with self.connect() as db:
            return [r[0] for r in db.execute("SELECT DISTINCT game FROM jobs ORDER BY game")]

    # --- state changes (the worker's side and the server's) ---------------------------------------------------------

    def start(self, job_id: int) -> bool:
        """Mark a queued job running; False when it is not queued any more (cancelled or interrupted)."""
        with self.connect() as db:
            cur = db.execute(
                "UPDATE jobs SET status = 'running', started = ? WHERE id = ? AND status = 'queued' AND cancel = 0",
                (time.time(), job_id),
            )
            return cur.rowcount == 1

    def progress(self, job_id: int, done: float, total: float | None = None, restart_clock: bool = False) -> None:
        """Games ``done`` (of ``total``); ``restart_clock``: the games start now (the kernels are loaded)."""
        sets: list[str] = ["done = ?"]
        args: list[Any] = [done]
        if total is not None:
            sets.append("total = ?")
            args.append(total)
        if restart_clock:
            sets.append("started = ?")
            args.append(time.time())
        with self.connect() as db:
            db.execute(f"UPDATE jobs SET {', '.join(sets)} WHERE id = ? AND status = 'running'", (*args, job_id))

    def cancelled(self, job_id: int) -> bool:
        with self.connect() as db:
            row = db.execute("SELECT cancel FROM jobs WHERE id = ?", (job_id,)).fetchone()
        return bool(row and row[0])

    def finish(
        self,
        job_id: int,
        status: str,
        result: Mapping[str, Any] | None = None,
        error: str | None = None,
        folder: str | None = None,
    ) -> None:
        """A running (or queued) job ends in ``status`` (done, failed, cancelled, interrupted). A job already marked
        otherwise (interrupted by a restart) is left as it is."""
        with self.connect() as db:
            db.execute(
                "UPDATE jobs SET status = ?, finished = ?, result = ?, error = ?, folder = ? "
                "WHERE id = ? AND status IN ('queued', 'running')",
                (status, time.time(), json.dumps(dict(result)) if result else None, error, folder, job_id),
            )

    def request_cancel(self, job_id: int) -> Job | None:
        """Ask a job to stop: a queued job is cancelled at once, a running one when its worker sees the flag
        (within about a second). Returns the job as it now is."""
        with self.connect() as db:
            db.execute("UPDATE jobs SET cancel = 1 WHERE id = ? AND status IN ('queued', 'running')", (job_id,))
            db.execute(
                "UPDATE jobs SET status = 'cancelled', finished = ? WHERE id = ? AND status = 'queued'",
                (time.time(), job_id),
            )
        return self.get(job_id)

    def interrupt_unfinished(self) -> int:
        """Mark every queued or running job ``interrupted`` (a server starting: no worker plays them any more);
        returns how many."""
        with self.connect() as db:
            cur = db.execute(
                "UPDATE jobs SET status = 'interrupted', finished = ?, "
                "error = 'the server stopped before this job finished; play it again' "
                "WHERE status IN ('queued', 'running')",
                (time.time(),),
            )
            return cur.rowcount

    def interrupt_queued(self) -> int:
        """Mark the queued jobs ``interrupted`` (the server stops before they start); returns how many."""
        with self.connect() as db:
            cur = db.execute(
                "UPDATE jobs SET status = 'interrupted', finished = ?, "
                "error = 'the server stopped before this job started; play it again' WHERE status = 'queued'",
                (time.time(),),
            )
            return cur.rowcount
