"""reports/index.html: every command that writes a report folder in reports/ refreshes it, and what it lists."""

from __future__ import annotations

import errno
import json
import shutil
from pathlib import Path

import pytest
from typer.testing import CliRunner

from sim.cli import common as cli_common
from sim.cli.main import app

REPO = Path(__file__).resolve().parents[2]
DATA = REPO / "tests" / "data"
BASE = DATA / "moor-2p-small.toml"
cli = CliRunner()


MOOR_2P = DATA / "moor-2p-small.toml"


def hidden(folder: Path) -> list[str]:
    """Hidden entries (staging folders, temporary files) anywhere under ``folder``."""
    return sorted(str(p.relative_to(folder)) for p in Path(folder).rglob(".*"))


@pytest.fixture
def reports(tmp_path, monkeypatch) -> Path:
    root = tmp_path / "reports"
    monkeypatch.setattr("sim.model.paths.REPORTS", root)
    return root


def index_links(root: Path) -> str:
    return (root / "index.html").read_text(encoding="utf-8")


FULL = "No space left on device"


def os_full(*a, **k):
    raise OSError(errno.ENOSPC, FULL)


def test_index_games_column_says_played_and_finished():
    from sim.pages.index_page import _games

    assert _games({"played": 5000, "finished": 4994}) == "5,000 (4,994 finished)"
    assert _games({"played": 200000, "finished": 200000}) == "200,000"


@pytest.mark.kernel
def test_index_headline_is_the_pages_verdict_with_intervals(tmp_path):

    from sim.pages.index_page import headline

    r = cli.invoke(app, ["run", str(BASE), "--games", "300", "--out", str(tmp_path / "r")])
    assert r.exit_code == 0, r.output
    s = json.loads((tmp_path / "r" / "summary.json").read_text())
    h = headline(s)
    assert h.startswith("The start player wins ") and "[" in h and "Most wins: " in h
    assert any(w in h for w in ("fair within +/-1 point", "beyond the +/-1 point margin", "cannot tell yet"))


@pytest.mark.kernel
def test_sim_run_into_the_reports_folder_lists_the_report_in_the_index(reports):
    r = cli.invoke(app, ["run", str(MOOR_2P), "--games", "50"])
    assert r.exit_code == 0, r.output
    assert 'href="test-moor-2p/summary.html"' in index_links(reports)
    assert hidden(reports) == []


@pytest.mark.kernel
def test_sim_compare_reports_are_listed_in_the_index(reports):
    r = cli.invoke(app, ["compare", str(MOOR_2P), "--set-b", "track_len=25", "--games", "50"])
    assert r.exit_code == 0, r.output
    page = index_links(reports)
    assert "<h2>Comparisons</h2>" in page
    assert 'href="compare-test-moor-2p-vs-test-moor-2p--track_len=25/compare.html"' in page
    assert "test-moor-2p vs test-moor-2p--track_len=25" in page and " UTC<" in page


@pytest.mark.kernel
def test_sim_sweep_into_the_reports_folder_lists_the_sweep_and_keeps_the_other_rows(reports):
    assert cli.invoke(app, ["run", str(MOOR_2P), "--games", "50"]).exit_code == 0
    r = cli.invoke(app, ["sweep", str(MOOR_2P), "--set", "track_len=24,25", "--games", "10"])
    assert r.exit_code == 0, r.output
    page = index_links(reports)
    assert 'href="sweep-test-moor-2p/sweep.html"' in page and 'href="test-moor-2p/summary.html"' in page


@pytest.mark.kernel
def test_sim_report_redraw_refreshes_the_index(reports):
    assert cli.invoke(app, ["run", str(MOOR_2P), "--games", "50"]).exit_code == 0
    (reports / "index.html").unlink()
    r = cli.invoke(app, ["report", str(reports / "test-moor-2p")])
    assert r.exit_code == 0, r.output
    assert 'href="test-moor-2p/summary.html"' in index_links(reports)


@pytest.mark.kernel
def test_a_report_elsewhere_leaves_the_index_alone(reports, tmp_path):
    r = cli.invoke(app, ["run", str(MOOR_2P), "--games", "50", "--out", str(tmp_path / "elsewhere")])
    assert r.exit_code == 0, r.output
    assert not (reports / "index.html").exists()


@pytest.mark.kernel
def test_an_index_that_cannot_be_refreshed_is_a_warning_and_the_report_stands(reports, monkeypatch):
    from sim.pages import index_page

    monkeypatch.setattr(index_page, "write", os_full)
    r = cli.invoke(app, ["run", str(MOOR_2P), "--games", "50"])
    assert r.exit_code == 0, r.output
    warn = [ln for ln in r.stderr.splitlines() if ln.startswith("warning")]
    assert warn == [
        "warning: the report is written, but the index of the reports could not be refreshed (No space left on device)"
    ], r.stderr
    assert (reports / "test-moor-2p" / "summary.json").exists()


@pytest.mark.kernel
def test_refreshing_the_index_is_cheap(reports):
    import time

    from sim.pages import index_page

    assert cli.invoke(app, ["run", str(MOOR_2P), "--games", "50"]).exit_code == 0
    for i in range(10):
        shutil.copytree(reports / "test-moor-2p", reports / f"copy-{i}")
    t = time.perf_counter()
    index_page.refresh(reports / "test-moor-2p")
    assert time.perf_counter() - t < 1.0  # about 2 ms a report; a command must not feel it
    assert index_links(reports).count("summary.html") == 11


@pytest.mark.kernel
def test_run_defaults_of_one_game_keeps_the_other_games_reports_in_the_index(tmp_path, monkeypatch):
    """`sim run-defaults --game moor` after `--game treasure_hunters`: reports/index.html lists both games' reports
    (the index is the table of contents of the reports folder, not of the last command)."""
    from sim.cli import run as cli

    scen = tmp_path / "scenarios"
    (scen / "moor").mkdir(parents=True)
    (scen / "treasure_hunters").mkdir()
    # each report's table at skill at 200 games (its size follows skill_games, not --games: the scenarios' own sizes
    # played 4,000 and 9,604 games that no assertion here needs)
    for src, dst in (
        ("moor-2p-small.toml", "moor/small.toml"),
        ("th-basic-4p-shuffle.toml", "treasure_hunters/shuffle.toml"),
    ):
        text = (DATA / src).read_text()
        (scen / dst).write_text(text.replace("\nseed = ", "\nskill_games = 200\nseed = ", 1))
    for mod in (cli, cli_common):
        monkeypatch.setattr(mod, "SCENARIOS", scen)
    monkeypatch.setattr("sim.model.paths.REPORTS", tmp_path / "reports")
    for game in ("treasure_hunters", "moor"):
        r = CliRunner().invoke(app, ["run-defaults", "--game", game, "--games", "60"])
        assert r.exit_code == 0, r.output
        assert "  at skill (learned, 200 games, " in r.output, r.output
    html = (tmp_path / "reports" / "index.html").read_text()
    assert 'href="th-basic-4p/summary.html"' in html and 'href="test-moor-2p/summary.html"' in html
    assert html.index("test-moor-2p") < html.index("th-basic-4p")  # by game, as the scenarios folder
    # and one small skill ladder per game, in the same reports folder, linked from the index
    assert (
        'href="ladder-moor-4p-no-search/ladder.html"' in html
        and 'href="ladder-treasure_hunters-basic-4p-no-search/ladder.html"' in html
    )
    # its headline: the learned player (issue 38: in the default population) stands out even at these few games
    assert "ladder moor: strongest: learned " in r.output


def test_index_skips_a_folder_without_a_readable_report(tmp_path):
    from sim.pages import index_page

    (tmp_path / "half").mkdir()
    (tmp_path / "half" / "summary.json").write_text("{not json")
    (tmp_path / "baselines").mkdir()
    html = index_page.write([], [], tmp_path).read_text()
    assert "half" not in html and "baselines" not in html


@pytest.mark.kernel
def test_index_cells_read_from_report_files_are_text(tmp_path):
    """A value read from a summary.json (edited by hand, or written by another tool) shows as text in the index,
    never as markup: every cell is escaped (the players and games cells were not)."""
    from sim.pages.index_page import render

    r = cli.invoke(app, ["run", str(BASE), "--games", "300", "--out", str(tmp_path / "r")])
    assert r.exit_code == 0, r.output
    s = json.loads((tmp_path / "r" / "summary.json").read_text())
    s["scenario"]["players"] = "<script>alert(1)</script>"
    page = render([(tmp_path / "r", s)], [], tmp_path)
    assert "<script>alert(1)</script>" not in page and "&lt;script&gt;alert(1)&lt;/script&gt;" in page
