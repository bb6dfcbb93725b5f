"""Turnwall through the shared machinery: sim list, run, replay, board show (both games' boards), report board."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from sim.cli.main import app

pytestmark = pytest.mark.kernel  # every test here plays games

REPO = Path(__file__).resolve().parents[2]
runner = CliRunner()


def test_list_shows_turnwall_strategies_with_one_line_each():
    r = runner.invoke(app, ["list", "turnwall"])
    assert r.exit_code == 0, r.output
    for name in ("random", "planner", "spoiler", "weighted", "recall_own", "turn_collision", "decks_moved"):
        assert name in r.output


def test_board_show_draws_the_castle_and_the_house(tmp_path):
    for f in ("scenarios/turnwall/boards/default.toml", "scenarios/treasure_hunters/boards/default.toml"):
        out = tmp_path / (Path(f).parent.parent.name + ".svg")
        r = runner.invoke(app, ["board", "show", str(REPO / f), "--out", str(out)])
        assert r.exit_code == 0, r.output
        svg = out.read_text()
        assert svg.startswith("<svg") and svg.rstrip().endswith("</svg>")
    castle = (tmp_path / "turnwall.svg").read_text()
    assert "sombrero" in castle and "tunnel 4" in castle and "slider 2" in castle and "plug" in castle


def test_board_show_refuses_a_broken_board_in_one_line(tmp_path):
    bad = (REPO / "scenarios/turnwall/boards/default.toml").read_text().replace("tunnel = 4", "tunnel = 0")
    f = tmp_path / "bad.toml"
    f.write_text(bad)
    r = runner.invoke(app, ["board", "show", str(f)])
    assert r.exit_code == 3
    assert "floor.sliders[2].tunnel" in r.output and r.output.count("\n") == 1


def test_run_writes_a_report_with_the_board_played(tmp_path):
    r = runner.invoke(
        app, ["run", str(REPO / "scenarios/turnwall/2p.toml"), "--games", "200", "--out", str(tmp_path / "rep")]
    )
    assert r.exit_code == 0, r.output
    html = (tmp_path / "rep" / "summary.html").read_text()
    assert 'id="plot-board"' in html and "UNVERIFIED" in html and "searches_found" in html
