"""The files the app serves: the report pages and their files under the reports folder, and scenario files as
text; nothing outside those two folders (`sim.web.safety.inside`: 403, 404 for a missing file)."""

from __future__ import annotations

from fastapi import APIRouter, Request
from fastapi.responses import FileResponse, PlainTextResponse, Response

from sim.web.config import Settings
from sim.web.safety import inside

router = APIRouter()


@router.get("/reports/{rel:path}")
def report_file(request: Request, rel: str) -> Response:
    """A file of the reports folder (summary.html, compare.html, plots, JSON)."""
    settings: Settings = request.app.state.settings
    path = inside(settings.reports, rel, "report file")
    if path.suffix == ".sqlite" or path.name.startswith("jobs.sqlite"):
        from sim.web.safety import PathRefused

        raise PathRefused(f"report file: {rel!r} is the jobs database, not a report")
    return FileResponse(path)


@router.get("/scenarios/{rel:path}")
def scenario_file(request: Request, rel: str) -> Response:
    """A scenario file as text."""
    settings: Settings = request.app.state.settings
    path = inside(settings.scenarios, rel, "scenario", ".toml")
    return PlainTextResponse(path.read_text(encoding="utf-8"))
