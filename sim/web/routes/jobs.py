"""Jobs: submit one from a form (run, compare, sweep from a scenario's form; ladder and tune from theirs), its
page, its live progress (htmx polls it), cancel. A bad form answers HTTP 400 with the form again and the one-line
error beside its field, in the form's words (`sim.web.words`: its fields as it names them, not the command line's
options)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response

from sim.api import public
from sim.model.errors import SimError
from sim.model.overrides import parse_set
from sim.model.words import not_a
from sim.web import forms
from sim.web.config import Settings
from sim.web.jobs import describe, make_spec, result_key
from sim.web.render import render
from sim.web.routes.pick import open_form, sweepable, values_of
from sim.web.safety import inside, relative
from sim.web.store import Job, Store
from sim.web.words import fields_in_form_words, form_words

router = APIRouter()


class FormError(SimError, ValueError):
    """A bad job form: the one line, and the field it is about ("" for the form)."""

    def __init__(self, line: str, field_name: str = "", others: dict[str, str] | None = None) -> None:
        super().__init__(line)
        self.field_name = field_name
        self.others = others or {}  # the other bad fields' lines, shown beside them too


def queue(request: Request, spec: dict[str, Any], game: str, players: int | None) -> int:
    """Record the job of ``spec`` and hand it to the worker pool; returns its id."""
    store: Store = request.app.state.store
    job_id = store.add(result_key(spec), spec["kind"], game, players, describe(spec), spec)
    pool = request.app.state.pool
    if pool is not None:
        pool.submit(job_id)
    return job_id


def split_sets(sets: list[str]) -> tuple[list[str], int | None, int | None]:
    """(overrides without games and seed, games, seed): the two are the job's own fields."""
    rest, games, seed = [], None, None
    for s in sets:
        name, value = parse_set(s)
        if name in ("games", "scenario.games"):
            games = value
        elif name in ("seed", "scenario.seed"):
            seed = value
        else:
            rest.append(s)
    return rest, games, seed


SCENARIO_KEYS = {"kind", "scenario", "sweep_param", "sweep_values", "sweep_target", "field", "arc", "at_skill"}
CHECKED = ("on", "true", "1")  # what a ticked checkbox sends (a browser: "on")
FORM_KEYS = {  # what the ladder's and the tune's forms send
    "ladder": {"kind", "game", "players", "strategies", "games", "balance_games", "margin", "seed"},
    "tune": {"kind", "scenario", "params", "targets", "trials", "games", "seed"},
}


def check_keys(kind: str, values: dict[str, str]) -> None:
    """Refuse a field the ladder's or the tune's form does not have (FormError naming it and the fields allowed)."""
    allowed = FORM_KEYS[kind]
    unknown = [k for k in values if k not in allowed]
    if unknown:
        raise FormError(f"{unknown[0]}: not a field of the {kind} form; allowed: {', '.join(sorted(allowed))}")


def checked(values: dict[str, str], name: str) -> bool:
    """Whether checkbox ``name`` was ticked (absent: not); FormError for a value no checkbox sends."""
    v = values.get(name, "").strip().lower()
    if v and v not in CHECKED and v not in ("off", "false", "0"):
        raise FormError(f"{name}: {values[name]!r} is not a checkbox value; allowed: on or off", name)
    return v in CHECKED


def stale_seat_fields(form: forms.Form, values: dict[str, str]) -> set[str]:
    """The posted parameters of a strategy a seat no longer plays (a form sent before its seat part was redrawn):
    ignored, as `forms.overrides` ignores them, not refused as unknown."""
    from sim.model import registry

    spec = registry.get(form.game)
    names = {p.name for st in (spec.strategies if spec else ()) for p in st.params}
    seats = {
        f.name.split(".")[1] for f in form.fields() if f.name.startswith("seats.") and f.name.endswith(".strategy")
    }
    return {
        k
        for k in values
        if k.count(".") == 2 and k.startswith("seats.") and k.split(".")[1] in seats and k.split(".")[2] in names
    }


def scenario_spec(settings: Settings, code: str, values: dict[str, str]) -> tuple[dict[str, Any], str, int]:
    """The spec of a run, compare or sweep from a scenario's form; (spec, game, players). Raises FormError (the
    line of the first bad field, or of the whole) before anything is queued."""
    kind = values.get("kind", "run")
    path, form = open_form(settings, values.get("scenario", ""), values)
    known = {f.name for f in form.fields()} | SCENARIO_KEYS | stale_seat_fields(form, values)
    unknown = [k for k in values if k not in known]
    if unknown:  # a field the form does not have is refused, never dropped
        k = unknown[0]
        raise FormError(
            f"--set {k}={values[k]}: unknown name '{k}' in the form of {form.scenario}; allowed: its fields "
            f"({', '.join(f.name for f in form.fields())})"
        )
    errors = {}
    for f in form.fields():
        if f.name in values:
            line = forms.check_field(path, form, f.name, values[f.name], values)
            if line:
                errors[f.name] = line
    if errors:
        name, line = next(iter(errors.items()))
        raise FormError(line, name, errors)
    sets = forms.overrides(form, values)
    try:
        rest, games, seed = split_sets(sets)
        sc = public.load(path, set=rest, games=games, seed=seed)
    except SimError as e:
        raise FormError(str(e), forms.field_of_error(form, str(e))) from None
    rel = relative(settings.scenarios, path)
    common = {"scenario": rel, "games": sc.games, "seed": sc.seed}
    if kind == "run":
        also = {k: checked(values, k) for k in ("arc", "at_skill")}
        return make_spec("run", code, sets=rest, **common, **also), sc.game, sc.players
    if kind == "compare":
        if not rest:
            raise FormError(
                "compare: B is the file unchanged; change a field first (A: the file as it is, B: with your changes)"
            )
        try:
            public.load(path, games=sc.games, seed=sc.seed)  # A, the file as it is
        except SimError as e:
            raise FormError(str(e)) from None
        return make_spec("compare", code, sets=[], scenario_b=rel, sets_b=rest, **common), sc.game, sc.players
    if kind == "sweep":
        return sweep_spec(path, form, values, code, rest, common), sc.game, sc.players
    raise FormError(f"kind: unknown kind {kind!r}; allowed: run, compare, sweep")


def sweep_spec(
    path: Path, form: forms.Form, values: dict[str, str], code: str, rest: list[str], common: dict[str, Any]
) -> dict[str, Any]:
    """A sweep's spec: the swept field and its values ("20..40 step 10", "20,30,40"), an optional target, checked
    by the sweep's own builder (`sim.api.sweep.build`: the words of ``sim sweep``)."""
    from sim.api.sweep import build

    name = values.get("sweep_param", "").strip()
    if name not in {f.name for f in sweepable(form)}:
        raise FormError(f"--set {name}: not a parameter this form can sweep", "sweep_param")
    text = values.get("sweep_values", "").strip()
    if not text:
        raise FormError(f"--set {name}=: give the values to sweep, e.g. 20..40 step 10 or 20,30,40", "sweep_values")
    axis = f"{name}={text}"
    target = values.get("sweep_target", "").strip() or None
    if any(parse_set(s)[0] == name for s in rest):
        rest = [s for s in rest if parse_set(s)[0] != name]  # the swept field's own value is the axis's
    try:
        build(path, [*rest, axis], None, common["games"], common["seed"], None, target, None)
    except SimError as e:
        raise FormError(str(e), "sweep_values") from None
    return make_spec("sweep", code, sets=rest, axis=axis, target=target, **common)


def _int(values: dict[str, str], name: str, option: str) -> int | None:
    v = values.get(name, "").strip()
    if not v:
        return None
    try:
        return int(v)
    except ValueError:
        raise FormError(not_a(option, v), name) from None


def ladder_spec(code: str, values: dict[str, str]) -> tuple[dict[str, Any], str, int]:
    """A ladder's spec (game, players, the rungs as ``sim ladder --strategies`` writes them, games a table, games
    of each rung's own table, the verdicts' margins as ``--margin`` entries, seed), checked by
    `sim.api.ladder.build` and `with_margins` (their one-line words, beside the field at fault)."""
    from sim.api.ladder import build, with_margins
    from sim.model.ladder_spec import split_rungs

    game = values.get("game", "")
    players, games, seed, balance = (
        _int(values, "players", "--players"),
        _int(values, "games", "--games"),
        _int(values, "seed", "--seed"),
        _int(values, "balance_games", "--balance-games"),
    )
    text = values.get("strategies", "").strip()
    rungs = split_rungs(text) if text else None
    margins = [m.strip() for m in values.get("margin", "").replace(";", ",").split(",") if m.strip()]
    try:
        ld = build(game, players=players, strategies=rungs, games=games, seed=seed, balance_games=balance)
    except SimError as e:
        field = "strategies" if "--strategies" in str(e) else "balance_games" if "--balance-games" in str(e) else ""
        raise FormError(str(e), field) from None
    try:
        with_margins(ld, margins)
    except SimError as e:
        raise FormError(str(e), "margin") from None
    spec = make_spec(
        "ladder",
        code,
        game=game,
        players=ld.players,
        games=games,
        seed=ld.seed,
        strategies=rungs,
        balance_games=balance,
        margin=margins,
    )
    return spec, game, ld.players


def tune_spec(settings: Settings, code: str, values: dict[str, str]) -> tuple[dict[str, Any], str, int]:
    """A tune's spec (a tune file or scenario file of the scenarios folder; the parameters' ranges and the targets
    as ``sim tune --param`` / ``--target`` write them, ';'-separated; trials, games a trial, seed), checked by
    `sim.api.tune.build` (its one-line words beside the field at fault)."""
    from sim.api.tune import build

    path = inside(settings.scenarios, values.get("scenario", ""), "tune file", ".toml")
    trials, games, seed = (
        _int(values, "trials", "--trials"),
        _int(values, "games", "--games"),
        _int(values, "seed", "--seed"),
    )
    params = [p.strip() for p in values.get("params", "").split(";") if p.strip()]
    targets = [t.strip() for t in values.get("targets", "").split(";") if t.strip()]
    try:
        t = build(path, params, targets, trials=trials, games=games, seed=seed)
    except SimError as e:
        words = str(e)
        field = "params" if "--param" in words else "targets" if "--target" in words else ""
        raise FormError(words, field) from None
    rel = relative(settings.scenarios, path)
    spec = make_spec(
        "tune", code, scenario=rel, params=params, targets=targets, trials=trials, games=games, seed=t.seed
    )
    return spec, t.base.game, t.base.players


@router.post("/jobs")
async def submit(request: Request) -> Response:
    """Queue the job of the submitted form and go to its page (303); HTTP 400 with the form and its error line
    for a bad one."""
    settings: Settings = request.app.state.settings
    code: str = request.app.state.code
    values = values_of(await request.form())
    kind = values.get("kind", "run")
    try:
        if kind in ("run", "compare", "sweep"):
            spec, game, players = scenario_spec(settings, code, values)
        elif kind == "ladder":
            check_keys(kind, values)
            spec, game, players = ladder_spec(code, values)
        elif kind == "tune":
            check_keys(kind, values)
            spec, game, players = tune_spec(settings, code, values)
        else:
            raise FormError(f"kind: unknown kind {kind!r}; allowed: run, compare, sweep, ladder, tune")
    except FormError as cli_words:  # the API's words (its options); shown in the form's
        e = FormError(
            form_words(str(cli_words), kind), cli_words.field_name, fields_in_form_words(cli_words.others, kind)
        )
        if kind in ("run", "compare", "sweep") and values.get("scenario"):
            try:
                _, form = open_form(settings, values["scenario"], values)
            except SimError:
                raise e from None
            form.errors = {**e.others, e.field_name: str(e)}
            return render(request, "scenario.html", 400, form=form, sweepable=sweepable(form), error=str(e))
        raise e from None
    job_id = queue(request, spec, game, players)
    return RedirectResponse(f"/jobs/{job_id}", status_code=303)


def get_job(request: Request, job_id: int) -> Job:
    job = request.app.state.store.get(job_id)
    if job is None:
        from sim.web.safety import PathRefused

        raise PathRefused.not_found(f"job: no job {job_id}")
    return job


@router.get("/jobs/{job_id}", response_class=HTMLResponse)
def job_page(request: Request, job_id: int) -> Response:
    """A job: what it plays, its progress (polled while it runs), then its verdict and report."""
    return render(request, "job.html", job=get_job(request, job_id))


@router.get("/jobs/{job_id}/progress", response_class=HTMLResponse)
def progress(request: Request, job_id: int) -> Response:
    """The progress part of a job's page (htmx polls it every half second while the job is unfinished)."""
    return render(request, "_progress.html", job=get_job(request, job_id))


@router.post("/jobs/{job_id}/cancel", response_class=HTMLResponse)
def cancel(request: Request, job_id: int) -> Response:
    """Stop a job: queued, it never starts; running, it stops within about a second (its progress part again)."""
    get_job(request, job_id)
    pool = request.app.state.pool
    if pool is not None:
        pool.cancel(job_id)
    else:
        request.app.state.store.request_cancel(job_id)
    if request.headers.get("hx-request"):
        return render(request, "_progress.html", job=get_job(request, job_id))
    return RedirectResponse(f"/jobs/{job_id}", status_code=303)
