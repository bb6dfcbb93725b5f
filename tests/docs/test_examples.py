"""The example notebook docs/examples/tour.py runs end to end (as a script, with runpy in a subprocess: a jupytext
percent-format file is plain Python, so no Jupyter kernel is needed) and finds what it says it shows."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.kernel  # every test here plays games

REPO = Path(__file__).resolve().parents[2]
TOUR = REPO / "docs" / "examples" / "tour.py"


def _run_tour(tmp_path, code: str, cwd: Path) -> str:
    env = dict(os.environ, TMPDIR=str(tmp_path))  # its folders go to a temporary folder, not reports/
    r = subprocess.run([sys.executable, "-c", code], cwd=cwd, env=env, capture_output=True, text=True, timeout=600)
    assert r.returncode == 0, r.stderr[-3000:]
    return r.stdout


def test_the_tour_runs_to_the_end_and_says_what_it_found(tmp_path):
    out = _run_tour(tmp_path, f"import runpy; runpy.run_path({str(TOUR)!r}, run_name='__main__')", REPO)
    assert "- The start player wins" in out and "against a fair 25.0%" in out
    assert "OverrideError | set | 2..5 | 6" in out  # the one exception family, field/allowed/given, Python words
    assert "OptionError | gamez: not a keyword of sim.run; allowed: scenario, set, games" in out
    assert "moor-4p--track_len=40--seats.3.strategy=runner 40" in out
    assert "comparison: " in out and "target: {'measure': 'first_player_advantage'" in out
    assert "axis.track_len" in out and "ok: True" in out
    written = sorted(p.name for p in tmp_path.glob("ghost-sim-tour-*/*"))
    assert written == ["compare", "moor-4p", "sweep"]


def test_the_tour_runs_as_a_notebook_from_its_own_folder(tmp_path):
    """As Jupyter runs it: the cells' code with no ``__file__``, the working folder docs/examples/."""
    code = f"src = open({str(TOUR)!r}).read(); exec(compile(src, '<notebook>', 'exec'), {{'__name__': '__main__'}})"
    out = _run_tour(tmp_path, code, TOUR.parent)
    assert "- The start player wins" in out and "ok: True" in out
