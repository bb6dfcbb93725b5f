"""Pages from the templates (Jinja2, every value escaped) and the one-line error page."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from fastapi import Request
from fastapi.responses import HTMLResponse, Response
from fastapi.templating import Jinja2Templates
from markupsafe import escape

from sim.pages import templating

HERE = Path(__file__).resolve().parent


def templates() -> Jinja2Templates:
    """The templates of templates/ over the report pages' (sim.pages.templating: the one page shell), every value
    escaped (``autoescape`` on for every file, not only .html)."""
    t = Jinja2Templates(env=templating.environment(HERE / "templates", strict=False))
    from sim.web import view

    t.env.filters.update(view.FILTERS)
    return t


def error_page(request: Request, line: str, status: int) -> Response:
    """The error ``line`` (one line, as the command line says it) with HTTP ``status``: a fragment for htmx, a
    page otherwise."""
    t: Jinja2Templates = request.app.state.templates
    if request.headers.get("hx-request"):
        return HTMLResponse(f'<p class="error" role="alert">{escape(line)}</p>', status_code=status)
    return t.TemplateResponse(request, "error.html", {"line": line}, status_code=status)


def render(request: Request, name: str, status: int = 200, **context: Any) -> Response:
    """Template ``name`` with ``context`` (and the app's settings as ``settings``)."""
    t: Jinja2Templates = request.app.state.templates
    return t.TemplateResponse(request, name, {"settings": request.app.state.settings, **context}, status_code=status)
