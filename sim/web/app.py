"""The FastAPI application of the workbench: templates (Jinja2, autoescaped), the vendored htmx, the token check,
one-line error pages, and the job pool started and stopped with the server (`create_app`)."""

from __future__ import annotations

import secrets
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from pathlib import Path

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import PlainTextResponse, Response
from fastapi.staticfiles import StaticFiles
from starlette.exceptions import HTTPException as StarletteHTTPException

from sim.model.errors import SimError
from sim.web.config import Settings
from sim.web.pool import JobPool
from sim.web.render import error_page, templates
from sim.web.safety import PathRefused
from sim.web.store import Store

HERE = Path(__file__).resolve().parent  # templates/ and static/
TOKEN_COOKIE = "sim_token"


def status_of(e: SimError) -> int:
    """The HTTP status of a bad input: 404 a missing file, 403 a path outside the folders, 400 anything else."""
    if isinstance(e, PathRefused):
        return 404 if e.missing else 403
    return 400


def create_app(settings: Settings, start_pool: bool = True) -> FastAPI:
    """The app for ``settings`` (checked: raises ConfigError). ``start_pool``: start the worker processes with the
    app (tests of pages alone leave them out). On start every job a stopped server left unfinished is marked
    ``interrupted``."""
    settings.check()
    store = Store(settings.db)

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        store.interrupt_unfinished()
        if start_pool:
            pool = JobPool(store, settings.scenarios, settings.reports, settings.workers, settings.scheduler)
            app.state.pool = pool
            if settings.warm:
                pool.warm(settings.scenarios / "moor" / "4p.toml")
        try:
            yield
        finally:
            if start_pool:
                app.state.pool.close()

    app = FastAPI(title="ghost-sim workbench", lifespan=lifespan, docs_url=None, redoc_url=None, openapi_url=None)
    app.state.settings = settings
    app.state.store = store
    app.state.pool = None
    app.state.templates = templates()
    from sim.play.provenance import git_commit

    app.state.code = git_commit()

    @app.middleware("http")
    async def token_check(request: Request, call_next: Callable[[Request], Awaitable[Response]]) -> Response:
        if not settings.token:
            return await call_next(request)
        given = request.query_params.get("token") or request.cookies.get(TOKEN_COOKIE) or ""
        auth = request.headers.get("authorization", "")
        if auth.lower().startswith("bearer "):
            given = auth[7:].strip()
        if not secrets.compare_digest(given.encode(), settings.token.encode()):
            return PlainTextResponse(
                "error: this workbench needs its token: open it with ?token=TOKEN once, or send "
                "'Authorization: Bearer TOKEN'",
                status_code=401,
            )
        response = await call_next(request)
        if request.query_params.get("token"):
            response.set_cookie(TOKEN_COOKIE, settings.token, httponly=True, samesite="strict")
        return response

    @app.exception_handler(SimError)
    async def bad_input(request: Request, e: SimError) -> Response:
        return error_page(request, str(e), status_of(e))

    @app.exception_handler(StarletteHTTPException)
    async def http_error(request: Request, e: StarletteHTTPException) -> Response:
        """The framework's own refusals (an unknown page, a field over the size limit) as the one-line error page."""
        words = {404: f"{request.url.path}: no such page; the start page lists the games and the history the jobs"}
        line = words.get(e.status_code) or f"{request.url.path}: {e.detail}"
        return error_page(request, line, e.status_code)

    @app.exception_handler(RequestValidationError)
    async def bad_path_value(request: Request, e: RequestValidationError) -> Response:
        """A path or query value of the wrong type (``/jobs/abc``): one line naming it and what is allowed."""
        first = e.errors()[0] if e.errors() else {}
        where = str((first.get("loc") or ("", "value"))[-1])
        line = f"{where}: {first.get('input')!r} is not allowed here ({first.get('msg', 'invalid')})"
        if where == "job_id":
            line = f"job: {first.get('input')!r} is not a job number; the history lists the jobs"
        return error_page(request, line, 404 if where == "job_id" else 400)

    app.mount("/static", StaticFiles(directory=str(HERE / "static")), name="static")
    from sim.web.routes import files, jobs, pick, results

    for r in (pick.router, jobs.router, results.router, files.router):
        app.include_router(r)
    return app
