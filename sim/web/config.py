"""The server's settings, checked once when it starts (`Settings.check`)."""

from __future__ import annotations

import ipaddress
import os
from dataclasses import dataclass
from pathlib import Path

from sim.model import paths
from sim.model.errors import SimError
from sim.model.values import out_of_range

TOKEN_ENV = "SIM_WEB_TOKEN"  # where `sim serve` reads the token when --token is not given


class ConfigError(SimError, ValueError):
    """A bad server setting (one line, as the command line prints it)."""


def is_loopback(host: str) -> bool:
    """Whether ``host`` is only reachable from this machine (127.0.0.0/8, ::1, localhost)."""
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


@dataclass(frozen=True)
class Settings:
    """host, port: where uvicorn listens (default 127.0.0.1:8765). allow_remote: binding to a non-loopback address
    was asked for explicitly (`--allow-remote`). token: required on every request when set (a header
    ``Authorization: Bearer TOKEN``, a ``?token=`` once, then the cookie it sets); needed for a non-loopback
    address. reports: the reports folder (default the project's reports/; jobs.sqlite and each result's folder go
    to reports/web/). scenarios: the scenarios folder (the project's). workers: worker processes playing jobs (one
    job each at a time). scheduler: a Dask scheduler address the jobs play on instead (or $DASK_SCHEDULER_ADDRESS).
    warm: load the kernels in the worker at start, so the first run is as fast as the next."""

    host: str = "127.0.0.1"
    port: int = 8765
    allow_remote: bool = False
    token: str | None = None
    reports: Path = paths.REPORTS
    scenarios: Path = paths.SCENARIOS
    workers: int = 1
    scheduler: str | None = None
    warm: bool = False

    @property
    def web_dir(self) -> Path:
        """reports/web: the database and the results' folders."""
        return self.reports / "web"

    @property
    def db(self) -> Path:
        return self.web_dir / "jobs.sqlite"

    def check(self) -> Settings:
        """Raises ConfigError: a non-loopback address without --allow-remote or without a token, a port outside
        1..65535, workers < 1."""
        if not is_loopback(self.host):
            if not self.allow_remote:
                raise ConfigError(
                    f"--host {self.host}: not a loopback address; the workbench plays and writes files for whoever "
                    "reaches it: add --allow-remote and a --token (or $SIM_WEB_TOKEN) to serve other machines"
                )
            if not self.token:
                raise ConfigError(
                    f"--host {self.host}: serving other machines needs a token: give --token TEXT or set $SIM_WEB_TOKEN"
                )
        if self.token is not None and len(self.token) < 8:
            raise ConfigError("--token: too short; give at least 8 characters")
        if not 1 <= self.port <= 65535:
            raise ConfigError(out_of_range("--port", self.port, 1, 65535))
        if self.workers < 1:
            raise ConfigError(out_of_range("--workers", self.workers, 1))
        return self


def token_from_env(given: str | None) -> str | None:
    """``given``, else $SIM_WEB_TOKEN, else None."""
    return given or os.environ.get(TOKEN_ENV) or None
