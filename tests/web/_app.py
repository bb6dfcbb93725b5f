"""Helpers of the workbench tests: an app on a reports folder of its own, and waiting for a job."""

from __future__ import annotations

import time
import warnings
from pathlib import Path

from sim.web.app import create_app
from sim.web.config import Settings


def client(reports: Path, start_pool: bool = False, **kw):
    """A TestClient of the workbench with its reports (and jobs.sqlite) in ``reports``; use it in ``with``."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)  # starlette's note about httpx2
        from fastapi.testclient import TestClient

    return TestClient(create_app(Settings(reports=reports, **kw), start_pool=start_pool), follow_redirects=False)


def wait(c, job_id: int, states=("done", "failed", "cancelled", "interrupted"), timeout: float = 120.0):
    """The job (store row) once its status is one of ``states``; fails after ``timeout`` seconds."""
    store = c.app.state.store
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        j = store.get(job_id)
        if j is not None and j.status in states:
            return j
        time.sleep(0.1)
    raise AssertionError(f"job {job_id} still {store.get(job_id).status} after {timeout} s")


def job_id(response) -> int:
    """The job id of a submission's redirect (303 to /jobs/ID)."""
    assert response.status_code == 303, response.text[:2000]
    return int(response.headers["location"].rsplit("/", 1)[1])
