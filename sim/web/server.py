"""`sim serve`: the workbench under uvicorn. Ctrl-C (or SIGTERM) stops it cleanly: uvicorn stops taking requests,
the running jobs are told to stop and end ``interrupted``, the workers leave, and the next start finds every job
as it was left."""

from __future__ import annotations

from collections.abc import Callable

from sim.web.config import Settings


def serve(settings: Settings, say: Callable[[str], None] = print) -> None:
    """Serve the workbench with ``settings`` until Ctrl-C or SIGTERM. Raises ConfigError (one line) for bad
    settings before anything starts."""
    import uvicorn

    from sim.web.app import create_app

    app = create_app(settings.check())
    url = f"http://{settings.host}:{settings.port}/"
    say(f"ghost-sim workbench on {url}" + ("?token=..." if settings.token else "") + " (Ctrl-C stops it)")
    say(f"jobs and results: {settings.db}")
    uvicorn.run(app, host=settings.host, port=settings.port, log_level="warning", timeout_graceful_shutdown=15)
