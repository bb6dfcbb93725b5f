"""Pick and change: the games and their scenario files, a scenario's form (fields from the parameter specs), the
seats part redrawn when the players or a strategy change, and one field's validation (htmx, on change)."""

from __future__ import annotations

from pathlib import Path

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, Response
from markupsafe import escape

from sim.model import registry
from sim.web import forms
from sim.web.config import Settings
from sim.web.render import render
from sim.web.safety import inside, relative
from sim.web.words import form_words

router = APIRouter()


def scenario_files(settings: Settings) -> dict[str, list[str]]:
    """{game: its scenario files relative to the scenarios folder} (the top level of scenarios/<game>/)."""
    out: dict[str, list[str]] = {}
    for game in registry.names():
        folder = settings.scenarios / game
        if folder.is_dir():
            out[game] = [relative(settings.scenarios, p) for p in sorted(folder.glob("*.toml"))]
    return out


def tune_files(settings: Settings) -> list[str]:
    """What a tune can start from: every tune file (scenarios/<game>/tunes/*.toml, its [tune] table says what to
    search), then every scenario file (the parameters and targets given in the form)."""
    tunes = [relative(settings.scenarios, p) for p in sorted(settings.scenarios.glob("*/tunes/*.toml"))]
    return tunes + [rel for rels in scenario_files(settings).values() for rel in rels]


def values_of(form_data: object) -> dict[str, str]:
    """A submitted form (or query) as {name: value} (the last value of a repeated name)."""
    items = form_data.multi_items() if hasattr(form_data, "multi_items") else []
    return {str(k): str(v) for k, v in items}


def open_form(settings: Settings, rel: str, given: dict[str, str] | None = None) -> tuple[Path, forms.Form]:
    """(file, form) of scenario ``rel`` (refused outside the scenarios folder: `inside`)."""
    path = inside(settings.scenarios, rel, "scenario", ".toml")
    return path, forms.build(path, relative(settings.scenarios, path), given)


@router.get("/", response_class=HTMLResponse)
def index(request: Request) -> Response:
    """The start page: every game with its scenarios, the ladder and tune forms, the latest jobs."""
    settings: Settings = request.app.state.settings
    games = {n: registry.get(n) for n in scenario_files(settings)}
    return render(
        request,
        "index.html",
        files=scenario_files(settings),
        games=games,
        tunes=tune_files(settings),
        recent=request.app.state.store.history(limit=10),
    )


@router.get("/scenario", response_class=HTMLResponse)
def scenario(request: Request, path: str = "") -> Response:
    """The form of scenario file ``path``: every field, run / compare / sweep."""
    settings: Settings = request.app.state.settings
    given = {k: v for k, v in values_of(request.query_params).items() if k != "path"}  # a result's changes
    _, form = open_form(settings, path, given or None)
    return render(request, "scenario.html", form=form, sweepable=sweepable(form))


def sweepable(form: forms.Form) -> list[forms.Field]:
    """The fields a sweep may vary: numbers and choices of the rules and cards."""
    return [
        f
        for f in form.fields()
        if f.kind in ("int", "float", "choice", "bool")
        and not f.name.startswith("seats.")
        and f.name not in ("games", "seed")
    ]


@router.get("/scenario/seats", response_class=HTMLResponse)
def seats(request: Request) -> Response:
    """The seats part of the form again, for the players and strategies given (htmx, on change)."""
    settings: Settings = request.app.state.settings
    given = values_of(request.query_params)
    _, form = open_form(settings, given.get("scenario", ""), given)
    return render(request, "_seats.html", form=form)


@router.post("/validate", response_class=HTMLResponse)
async def validate(request: Request) -> Response:
    """One field's error line as ``sim run --set`` finds it, in the form's words (`sim.web.words`), or nothing
    (htmx, on change). The field is named by the ``field`` value; the form's values come with it."""
    settings: Settings = request.app.state.settings
    values = values_of(await request.form())
    name = values.get("field", "")
    path, form = open_form(settings, values.get("scenario", ""), values)
    line = forms.check_field(path, form, name, values.get(name, ""), values)
    return HTMLResponse(f'<span class="error" role="alert">{escape(form_words(line, "run"))}</span>' if line else "")
