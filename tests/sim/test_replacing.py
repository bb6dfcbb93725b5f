"""Replacing a report made with other settings says so: `sim run scenarios/galleon/2p.toml --games 300` after `make
run` wrote a 1,000-game report in the same folder warns in one line naming what it replaces and how it differed."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from typer.testing import CliRunner

from sim.cli.main import app

pytestmark = pytest.mark.kernel  # every test here plays games

DATA = Path(__file__).resolve().parents[1] / "data"


def _run(tmp_path, *args):
    r = CliRunner().invoke(app, ["run", str(tmp_path / "small.toml"), "--out", str(tmp_path / "rep"), *args])
    assert r.exit_code == 0, r.output
    return [ln for ln in r.stderr.splitlines() if ln.startswith("warning:")]


def test_replacing_a_report_of_other_settings_names_how_it_differed(tmp_path):
    shutil.copy(DATA / "moor-2p-small.toml", tmp_path / "small.toml")
    assert _run(tmp_path, "--games", "80") == []
    assert _run(tmp_path, "--games", "80") == []  # the same run again: silent
    (w,) = _run(tmp_path, "--games", "50")
    assert w == (
        f"warning: {tmp_path / 'rep'} holds the report of {tmp_path / 'small.toml'} played with 80 games "
        "(this run: 50); this run replaces it (to keep both, give --out another folder)"
    )
    (w,) = _run(tmp_path, "--games", "50", "--seed", "9")
    assert "played with seed " in w and "(this run: 9)" in w
    (w,) = _run(tmp_path, "--games", "50", "--seed", "9", "--set", "track_len=26")
    assert "played with other --set overrides" in w
