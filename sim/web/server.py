"""`sim serve`: the workbench under uvicorn. Ctrl-C (or SIGTERM) stops it cleanly: uvicorn stops taking requests,
the running jobs are told to stop and end ``interrupted``, the workers leave, and the next start finds every job
as it was left."""

from __future__ import annotations

import socket
from collections.abc import Callable

from sim.web.config import ConfigError, Settings


def listening_socket(host: str, port: int) -> socket.socket:
    """A socket bound to (``host``, ``port``), taken before the server says where it listens. Raises ConfigError
    (one line naming --port or --host) when the address is in use or cannot be had."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind((host, port))
    except OSError as e:
        sock.close()
        if e.errno == 98:  # EADDRINUSE
            raise ConfigError(f"--port {port}: {host}:{port} is already in use; give another port") from None
        raise ConfigError(f"--host {host} --port {port}: cannot listen there ({e.strerror or e})") from None
    sock.set_inheritable(True)
    return sock


def serve(settings: Settings, say: Callable[[str], None] = print) -> None:
    """Serve the workbench with ``settings`` until Ctrl-C or SIGTERM. Raises ConfigError (one line) for bad
    settings, or an address in use, before anything starts."""
    import uvicorn

    from sim.games import read_specs_only

    read_specs_only()  # the server reads the games' specs and never plays (its workers do); before any kernel import
    from sim.web.app import create_app

    sock = listening_socket(settings.host, settings.port)
    app = create_app(settings.check())
    url = f"http://{settings.host}:{settings.port}/"
    say(f"ghost-sim workbench on {url}" + ("?token=..." if settings.token else "") + " (Ctrl-C stops it)")
    say(f"jobs and results: {settings.db}")
    config = uvicorn.Config(
        app, host=settings.host, port=settings.port, log_level="warning", timeout_graceful_shutdown=15
    )
    try:
        uvicorn.Server(config).run(sockets=[sock])
    except KeyboardInterrupt:  # uvicorn raises the signal again once it has shut down (as uvicorn.run swallows it)
        pass
    say("workbench stopped (any job still running is marked interrupted)")
