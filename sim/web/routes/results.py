"""Results: the history of jobs (filtered by game, players, kind, status and date), the permanent link of a result
(``/r/KEY``: the stored result of that scenario, overrides, seed, games and code version), "play again" (the same
spec: the same figures) and "compare with..." (two runs of one game on common random numbers)."""

from __future__ import annotations

import datetime as dt

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response

from sim.model.words import not_a
from sim.web.jobs import KINDS, make_spec
from sim.web.render import render
from sim.web.routes.jobs import FormError, queue
from sim.web.safety import PathRefused
from sim.web.store import STATES, Job, Store

router = APIRouter()


def day(text: str, name: str, end: bool = False) -> float | None:
    """A date "YYYY-MM-DD" (UTC) as seconds since the epoch (its end: the next day's start); None for "".
    Raises FormError naming the filter."""
    if not text.strip():
        return None
    try:
        d = dt.datetime.strptime(text.strip(), "%Y-%m-%d").replace(tzinfo=dt.UTC)
    except ValueError:
        raise FormError(f"{name}: {text!r} is not a date; give YYYY-MM-DD") from None
    return (d + dt.timedelta(days=1 if end else 0)).timestamp()


@router.get("/history", response_class=HTMLResponse)
def history(
    request: Request,
    game: str = "",
    players: str = "",
    kind: str = "",
    status: str = "",
    since: str = "",
    until: str = "",
) -> Response:
    """Every job, newest first, filtered (each filter optional; ``since`` and ``until`` are days, both included)."""
    store: Store = request.app.state.store
    if kind and kind not in KINDS:
        raise FormError(f"kind: unknown kind {kind!r}; allowed: {', '.join(KINDS)}")
    if status and status not in STATES:
        raise FormError(f"status: unknown status {status!r}; allowed: {', '.join(STATES)}")
    if players and not players.isdigit():
        raise FormError(not_a("players", players))
    check_game_and_players(game, players)
    jobs = store.history(
        game=game or None,
        players=int(players) if players else None,
        kind=kind or None,
        status=status or None,
        since=day(since, "since"),
        until=day(until, "until", end=True),
    )
    filters = {"game": game, "players": players, "kind": kind, "status": status, "since": since, "until": until}
    return render(request, "history.html", jobs=jobs, filters=filters, games=store.games(), kinds=KINDS, states=STATES)


MAX_TABLE = 99  # the players filter's bound: a table size, far above any game's (the games are not loaded here)


def check_game_and_players(game: str, players: str) -> None:
    """Refuse a game the simulator does not have, and a players filter that is no table size (FormError, 400)."""
    from sim.model import registry

    if game and game not in registry.names():
        raise FormError(f"game: unknown game {game!r}; allowed: {', '.join(registry.names())}")
    if players and not 1 <= int(players) <= MAX_TABLE:
        raise FormError(f"players: {players} is out of range; allowed 1..{MAX_TABLE}")


def by_key(request: Request, key: str) -> Job:
    """The newest finished job of permanent key ``key`` (else its newest job of any state). Raises PathRefused
    (404) for an unknown key."""
    store: Store = request.app.state.store
    job = store.latest(key) or store.latest(key, status=None)
    if job is None:
        raise PathRefused.not_found(f"result: no result {key!r}; the history lists them")
    return job


@router.get("/r/{key}", response_class=HTMLResponse)
def result(request: Request, key: str) -> Response:
    """The stored result of ``key``: its verdict, headline figures, report page; play again, compare with..."""
    job = by_key(request, key)
    store: Store = request.app.state.store
    plays = [j for j in store.history(limit=50) if j.key == key]
    return render(request, "result.html", job=job, plays=plays)


@router.post("/r/{key}/again")
def again(request: Request, key: str) -> Response:
    """Play the spec of ``key`` again (same scenario, overrides, seed and games: the same figures)."""
    job = by_key(request, key)
    job_id = queue(request, job.spec, job.game, job.players)
    return RedirectResponse(f"/jobs/{job_id}", status_code=303)


@router.get("/r/{key}/compare", response_class=HTMLResponse)
def compare_with(request: Request, key: str) -> Response:
    """Pick the run to compare ``key`` with: the other finished runs of the same game and players."""
    job = by_key(request, key)
    if job.kind != "run":
        raise FormError(f"compare with: {key} is a {job.kind}, not a run; compare two runs of one game")
    store: Store = request.app.state.store
    others = [j for j in store.history(game=job.game, players=job.players, kind="run", status="done") if j.key != key]
    seen, unique = set(), []
    for j in others:
        if j.key not in seen:
            seen.add(j.key)
            unique.append(j)
    return render(request, "compare_with.html", job=job, others=unique)


@router.post("/r/{key}/compare")
async def compare_runs(request: Request, key: str) -> Response:
    """Compare run ``key`` (A) with run ``other`` (B, a form value) on common random numbers: A's games and seed,
    each side's scenario and overrides."""
    a = by_key(request, key)
    form = await request.form()
    other = str(form.get("other", "")).strip()
    if not other:
        raise FormError("other: choose the run to compare with (the list shows this game's other runs)")
    if other == key:
        raise FormError("other: that is this run itself; choose another run to compare with")
    b = by_key(request, other)
    if a.kind != "run" or b.kind != "run":
        raise FormError("compare with: both must be runs")
    if a.game != b.game:
        raise FormError(f"compare with: {a.game} and {b.game} are two games; compare two runs of one game")
    spec = make_spec(
        "compare",
        request.app.state.code,
        scenario=a.spec["scenario"],
        sets=a.spec["sets"],
        scenario_b=b.spec["scenario"],
        sets_b=b.spec["sets"],
        games=a.spec["games"],
        seed=a.spec["seed"],
    )
    from sim.api import public
    from sim.model.errors import SimError

    scenarios = request.app.state.settings.scenarios
    try:
        sa = public.load(scenarios / a.spec["scenario"], set=a.spec["sets"])
        sb = public.load(scenarios / b.spec["scenario"], set=b.spec["sets"])
        from sim.stats import compare as C

        C.check_comparable(sa, sb)
    except SimError as e:
        raise FormError(str(e)) from None
    job_id = queue(request, spec, a.game, a.players)
    return RedirectResponse(f"/jobs/{job_id}", status_code=303)
