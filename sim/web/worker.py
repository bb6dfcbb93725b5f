"""The worker-process side of a job: read its spec from the database, play it through the typed API
(`sim.api.public`, `sim.api.ladder`, `sim.api.tune`) with a `RunContext` whose progress goes to the database and
whose cancel flag follows the job's, write its report folder (reports/web/<kind>-<key>/) and record the result.

A watcher thread writes the games done every `TICK_S` seconds and sets the run's cancel flag when the job's is set
(`sim.play.context.RunContext.cancel`: the run stops within about a second, leaving no half-written folder).
A job cancelled by the designer ends ``cancelled``; one stopped because the server stops ends ``interrupted``.
"""

from __future__ import annotations

import hashlib
import json
import signal
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from sim.web.store import Store

TICK_S = 0.25  # how often the progress is written and the cancel flag read
STOPPING = 2  # the jobs table's cancel value when the server stops (1: the designer cancelled)


def init_worker(reports: str) -> None:
    """Worker process start: reports go to ``reports``; Ctrl-C belongs to the server (it stops the jobs itself)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    from sim.model import paths

    paths.REPORTS = Path(reports)


def warm(scenario: str) -> float:
    """Play 10 games of ``scenario`` without writing (loads its game's kernels from the cache, or compiles them);
    returns the seconds it took."""
    from sim.api import public

    t0 = time.perf_counter()
    public.run(scenario, games=10)
    return time.perf_counter() - t0


class Tracker:
    """Games done (told by the run's progress callbacks, from any thread) and the watcher that writes them."""

    def __init__(self, store: Store, job_id: int) -> None:
        from sim.play.context import RunContext

        self.store, self.job_id = store, job_id
        self.done = 0.0
        self.total: float | None = None
        self.clock = False  # the games started (kernels loaded): restart the clock for games/s
        self.lock = threading.Lock()
        self.ctx = RunContext(progress=self.add)
        self.stop = threading.Event()
        self.user_cancel = False
        self.thread = threading.Thread(target=self._watch, daemon=True)

    def add(self, k: float) -> None:
        with self.lock:
            if k == 0 and self.done == 0:
                self.clock = True
            self.done += k

    def set_total(self, total: float) -> None:
        with self.lock:
            self.total = total

    def _flush(self) -> None:
        with self.lock:
            done, total, clock = self.done, self.total, self.clock
            self.clock, self.total = False, None
        self.store.progress(self.job_id, done, total, restart_clock=clock)

    def _watch(self) -> None:
        while not self.stop.wait(TICK_S):
            self._flush()
            flag = _cancel_value(self.store, self.job_id)
            if flag:
                self.user_cancel = flag != STOPPING
                self.ctx.cancel.set()

    def __enter__(self) -> Tracker:
        self.thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop.set()
        self.thread.join()
        self._flush()


def _cancel_value(store: Store, job_id: int) -> int:
    with store.connect() as db:
        row = db.execute("SELECT cancel FROM jobs WHERE id = ?", (job_id,)).fetchone()
    return int(row[0]) if row else 0


def digest(value: Any) -> str:
    """A short SHA-256 of the figures of a result (JSON), to say that a replay gave the same ones."""
    return hashlib.sha256(json.dumps(value, sort_keys=True, default=str).encode()).hexdigest()[:16]


def execute(db: str, job_id: int, scenarios: str, scheduler: str | None = None) -> str:
    """Play job ``job_id`` of database ``db`` (scenario paths relative to ``scenarios``; ``scheduler``: a Dask
    scheduler address to play on). Returns its final status. Never raises for the job's own errors: they are
    recorded (failed: the one-line error)."""
    from sim.model.errors import SimError
    from sim.play.context import Cancelled

    store = Store(Path(db))
    if not store.start(job_id):
        return "cancelled"
    job = store.get(job_id)
    assert job is not None
    from sim.model import paths
    from sim.web.jobs import folder_name

    out = paths.REPORTS / "web" / folder_name(job.spec)
    tracker = Tracker(store, job_id)
    try:
        with tracker:
            result = RUNNERS[job.kind](job.spec, Path(scenarios), out, tracker, scheduler)
    except (Cancelled, KeyboardInterrupt):
        status = "cancelled" if tracker.user_cancel else "interrupted"
        why = "cancelled: stopped when asked" if status == "cancelled" else "the server stopped before it finished"
        store.finish(job_id, status, error=why)
        return status
    except SimError as e:
        store.finish(job_id, "failed", error=str(e))
        return "failed"
    except Exception as e:  # a bug: said in one line, the job marked failed, the worker kept
        store.finish(job_id, "failed", error=f"internal error: {type(e).__name__}: {e}")
        return "failed"
    rel = out.relative_to(paths.REPORTS).as_posix()
    store.finish(job_id, "done", result=result, folder=rel)
    return "done"


# --- one runner per kind: (spec, scenarios folder, report folder, tracker, scheduler) -> result dict -----------------

Runner = Callable[[dict, Path, Path, Tracker, "str | None"], dict]


def _run(spec: dict, scenarios: Path, out: Path, t: Tracker, scheduler: str | None) -> dict:
    from sim.api import public

    t.set_total(spec["games"])
    r = public.run(
        scenarios / spec["scenario"],
        set=spec["sets"],
        games=spec["games"],
        seed=spec["seed"],
        at_skill=bool(spec.get("at_skill")),
        out=out,
        ctx=t.ctx.with_(arc=bool(spec.get("arc"))),
        scheduler=scheduler,
    )
    rows = r.summary.to_dicts()
    spread = r.seat_spread  # a batch figure, not a per-game measure: after the first-player advantage
    if spread is not None:
        at = next((i + 1 for i, x in enumerate(rows) if x["measure"] == "first_player_advantage"), len(rows))
        rows.insert(at, spread)
    return {
        "name": r.scenario.name,
        "verdicts": r.verdicts,
        "rows": rows,
        "page": "summary.html",
        "figures": digest(r.measures.to_dicts()),
    }


def _compare(spec: dict, scenarios: Path, out: Path, t: Tracker, scheduler: str | None) -> dict:
    from sim.api import public

    t.set_total(spec["games"])
    c = public.compare(
        scenarios / spec["scenario"],
        scenarios / spec["scenario_b"],
        set_a=spec["sets"],
        set_b=spec["sets_b"],
        games=spec["games"],
        seed=spec["seed"],
        out=out,
        ctx=t.ctx,
        scheduler=scheduler,
    )
    units = {r["name"]: r.get("unit", "") for r in c.raw["metrics"]}  # the seat spread's A and B: in points
    rows = [r | {"unit": units.get(r["measure"], "")} for r in c.metrics.to_dicts()]
    return {
        "name": f"{c.a.name} vs {c.b.name}",
        "verdicts": c.verdicts,
        "rows": rows,
        "page": "compare.html",
        "figures": digest(rows),
    }


def _sweep(spec: dict, scenarios: Path, out: Path, t: Tracker, scheduler: str | None) -> dict:
    from sim.api import public
    from sim.pages.sweep_page import range_text, target_text
    from sim.play.sweep import Progress

    def start(points: int, games: int) -> None:
        t.set_total(games)

    def advance(point: int, games: int) -> None:
        t.add(games)

    s = public.sweep(
        scenarios / spec["scenario"],
        set=[*spec["sets"], spec["axis"]],
        games=spec["games"],
        seed=spec["seed"],
        target=spec["target"] or None,
        out=out,
        ctx=t.ctx,
        progress=Progress(start=start, advance=advance),
        scheduler=scheduler,
    )
    said = target_text(s.raw) or range_text(s.raw) or ""
    return {
        "name": s.raw["scenario"]["name"],
        "verdicts": [said] if said else [],
        "rows": sweep_rows(s.points, s.raw["scenario"].get("game"), spec),
        "page": "sweep.html",
        "figures": digest(s.raw["points"]),
    }


SWEEP_SHOWN = ("first_player_advantage", "length.rounds")  # each point's headline figures on the job's page


def sweep_rows(points: Any, game: str | None, spec: dict) -> list[dict]:
    """Each point's figures for the sweep's job page, from `SweepResult.points` (a Polars frame: point, axis.*,
    measure, value, ci_low, ci_high, n): the target's measure first (when one was given), then `SWEEP_SHOWN`; each
    row {point (the swept values in words), measure, label, unit, kind, value, ci_low, ci_high}."""
    from sim.model import catalogue

    target = (spec.get("target") or "").split("=", 1)[0].strip()
    names = [m for m in dict.fromkeys([target, *SWEEP_SHOWN]) if m]
    picked = sorted(
        (r for r in points.iter_rows(named=True) if r["measure"] in names),
        key=lambda r: (r["point"], names.index(r["measure"])),  # by point, the target's measure first
    )
    rows = []
    for r in picked:
        e = catalogue.describe(r["measure"], game)
        where = ", ".join(f"{k[len('axis.') :]} = {v}" for k, v in r.items() if k.startswith("axis."))
        rows.append(
            {"point": where, "measure": r["measure"], "label": e.label, "unit": e.unit, "kind": e.kind}
            | {"value": r["value"], "ci_low": r["ci_low"], "ci_high": r["ci_high"]}
        )
    return rows


def _ladder(spec: dict, scenarios: Path, out: Path, t: Tracker, scheduler: str | None) -> dict:
    from sim.api.ladder import build, ladder

    rungs, balance, margin = spec.get("strategies"), spec.get("balance_games"), spec.get("margin") or None
    built = build(
        spec["game"],
        players=spec["players"],
        strategies=rungs,
        games=spec["games"],
        seed=spec["seed"],
        balance_games=balance,
    )
    t.set_total(built.total_games)
    r = ladder(
        spec["game"],
        players=spec["players"],
        strategies=rungs,
        games=spec["games"],
        seed=spec["seed"],
        balance_games=balance,
        margin=margin,
        out=out,
        ctx=t.ctx,
        advance=t.add,
        scheduler=scheduler,
    )
    rows = r.ratings.to_dicts()
    return {
        "name": f"ladder {spec['game']} {spec['players']}p",
        "verdicts": r.verdicts,
        "rows": rows,
        "page": "ladder.html",
        "figures": digest(rows),
    }


def _tune(spec: dict, scenarios: Path, out: Path, t: Tracker, scheduler: str | None) -> dict:
    from sim.api.tune import TuneProgress, build, summary_text, tune
    from sim.play.sweep import Progress

    params, targets = spec.get("params") or (), spec.get("targets") or ()
    b = build(
        scenarios / spec["scenario"], params, targets, trials=spec["trials"], games=spec["games"], seed=spec["seed"]
    )
    t.set_total(b.trials * b.games + b.confirm * b.confirm_games)

    def advance(point: int, games: int) -> None:
        t.add(games)

    r = tune(
        scenarios / spec["scenario"],
        list(params) or None,
        list(targets) or None,
        trials=spec["trials"],
        games=spec["games"],
        seed=spec["seed"],
        out=out,
        ctx=t.ctx,
        progress=TuneProgress(games=Progress(advance=advance)),
        scheduler=scheduler,
    )
    return {
        "name": f"tune {spec['scenario']}",
        "verdicts": [line for line in summary_text(r.raw).splitlines() if line.strip()][:8],
        "rows": [],
        "page": "tune.html",
        "figures": digest(r.best),
    }


RUNNERS: dict[str, Runner] = {"run": _run, "compare": _compare, "sweep": _sweep, "ladder": _ladder, "tune": _tune}
