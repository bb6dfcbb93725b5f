"""Second round of what a new user hit: an own scenario named like a shipped one (baselines), rerunning into a report
folder with the user's files in it, the same-name warning, progress off a terminal, checks of the destination before
any game is played (unwritable, full disk), and an SPRT on two scenarios that play identical games."""
from __future__ import annotations

import errno
import io
import json
import shutil
from pathlib import Path

import numpy as np
import pytest
from typer.testing import CliRunner

from sim.cli.main import EXIT_BAD_INPUT, app
from sim.model.scenario import load
from sim.output import report as RP
from sim.play import progress as PG
from sim.play import runner as RN
from sim.stats import check as K
from tests.sim._cli import one_error_line

REPO = Path(__file__).resolve().parents[2]
DATA = REPO / "tests" / "data"
BASE = DATA / "moor-2p-small.toml"
GHOSTS = DATA / "moor-2p-ghosts.toml"
SHIPPED = REPO / "scenarios" / "moor" / "4p.toml"
cli = CliRunner()


def own_copy(folder: Path, text: str | None = None, name: str = "4p.toml") -> Path:
    """A scenario file of one's own at FOLDER/moor/<name> (named like the shipped scenarios/moor/4p.toml)."""
    p = folder / "moor" / name
    p.parent.mkdir(parents=True, exist_ok=True)
    p.write_text(text if text is not None else SHIPPED.read_text())
    return p


# --- baselines of one's own scenarios never collide with the shipped ones -------------------------------------------

def test_an_own_scenario_named_like_a_shipped_one_gets_its_own_baseline(tmp_path, monkeypatch):
    root = tmp_path / "baselines"
    (root / "moor").mkdir(parents=True)
    shipped = root / "moor" / "4p.json"
    shutil.copy(K.baseline_path(SHIPPED), shipped)               # a copy of the committed baseline stands in
    before = shipped.read_bytes()
    monkeypatch.setattr(K, "BASELINES", root)
    mine = own_copy(tmp_path / "me", SHIPPED.read_text().replace('name = "moor-4p"', 'name = "my-4p"'))
    assert K.baseline_path(SHIPPED, root) == shipped                        # the default scenario keeps its place
    dest = K.baseline_path(mine, root)
    assert dest != shipped and dest.parent == root / K.USER_DIR and dest.name.startswith("moor-4p-")
    r = cli.invoke(app, ["check", str(mine), "--tier", "exact"])              # no false regression: no baseline yet
    assert r.exit_code == EXIT_BAD_INPUT and f"`sim baselines {mine}`" in one_error_line(r)
    r = cli.invoke(app, ["baselines", str(mine), "--exact-games", "300", "--stat-games", "600",
                         "--check-games", "300"])                             # what the hint says: safe now
    assert r.exit_code == 0, r.output
    assert shipped.read_bytes() == before and dest.exists()
    assert K.stale_baselines(root=root) == []                                 # own baselines are never "stale"
    r = cli.invoke(app, ["check", str(mine), "--tier", "exact"])
    assert r.exit_code == 0 and "exact: identical" in r.stdout, r.output
    # two own files named alike in different folders: two baselines
    assert K.baseline_path(own_copy(tmp_path / "other"), root) != dest


def test_baselines_refuses_to_overwrite_another_files_baseline(tmp_path):
    mine = own_copy(tmp_path, BASE.read_text())
    root = tmp_path / "b"
    dest = K.baseline_path(mine, root)
    dest.parent.mkdir(parents=True)
    dest.write_text(json.dumps({"scenario_file": "scenarios/moor/4p.toml"}))
    r = cli.invoke(app, ["baselines", str(mine), "--out", str(root), "--exact-games", "100", "--stat-games", "100"])
    assert r.exit_code == EXIT_BAD_INPUT and "is the baseline of scenarios/moor/4p.toml" in one_error_line(r)
    assert json.loads(dest.read_text()) == {"scenario_file": "scenarios/moor/4p.toml"}


# --- rerunning into a report folder replaces only what the tool wrote -----------------------------------------------

def test_rerun_into_a_report_folder_keeps_the_users_files(tmp_path):
    out = tmp_path / "rep"
    r = cli.invoke(app, ["run", str(BASE), "--games", "300", "--out", str(out), "--per-game"])
    assert r.exit_code == 0 and (out / "games.parquet").exists(), r.output
    (out / "notes.txt").write_text("my notes")
    (out / "mine").mkdir()
    (out / "mine" / "x.csv").write_text("1,2")
    r = cli.invoke(app, ["run", str(BASE), "--games", "400", "--out", str(out)])
    assert r.exit_code == 0, r.output
    assert (out / "notes.txt").read_text() == "my notes" and (out / "mine" / "x.csv").read_text() == "1,2"
    assert json.loads((out / "summary.json").read_text())["provenance"]["games"] == 400
    assert not (out / "games.parquet").exists()            # the tool's own earlier output is replaced, not kept
    assert not list(tmp_path.glob(".rep.*"))
    # sim compare likewise
    cmp = tmp_path / "cmp"
    for games in ("300", "400"):
        r = cli.invoke(app, ["compare", str(BASE), str(GHOSTS), "--games", games, "--out", str(cmp)])
        assert r.exit_code == 0, r.output
        (cmp / "notes.txt").write_text("why we compared")
    assert (cmp / "notes.txt").read_text() == "why we compared"
    assert json.loads((cmp / "compare.json").read_text())["games"] == 400


# --- the same-name warning names the other scenario and does not suggest --out when --out was used -------------------

def test_the_replacing_warning_names_the_other_scenario_and_fits_the_command(tmp_path):
    a = tmp_path / "a.toml"
    a.write_text(BASE.read_text().replace('name = "test-moor-2p"', 'name = "first"'))
    b = tmp_path / "b.toml"
    b.write_text(BASE.read_text().replace('name = "test-moor-2p"', 'name = "second"'))
    out = tmp_path / "shared"
    assert cli.invoke(app, ["run", str(a), "--games", "200", "--out", str(out)]).exit_code == 0
    r = cli.invoke(app, ["run", str(b), "--games", "200", "--out", str(out)])
    assert r.exit_code == 0, r.output
    warn = [ln for ln in r.stderr.splitlines() if ln.startswith("warning:")]
    assert len(warn) == 1, r.stderr
    assert "scenario 'first'" in warn[0] and str(a.resolve()) in warn[0] and "scenario 'second'" in warn[0]
    assert "give --out another folder" in warn[0] and "or use --out" not in warn[0]


# --- progress ---------------------------------------------------------------------------------------------------------

def test_progress_steps_do_not_change_results(monkeypatch):
    sc = load(BASE)
    whole = RN.run(sc, 3000, chunk=2000)
    told = []
    monkeypatch.setattr(RN, "MIN_BLOCK", 7)
    monkeypatch.setattr(RN, "BLOCK_S", 1e-9)                # as small as it gets: every block MIN_BLOCK games
    stepped = RN.run(sc, 3000, chunk=2000, progress=told.append)
    assert whole.agg.to_dict() == stepped.agg.to_dict()
    assert sum(told) == 3000 and len(told) > 2 * (3000 // 2000) and max(told) == 7
    a = RN.play_chunk(sc, 100, 500)
    b = RN.play_chunk(sc, 100, 500, progress=lambda k: None)
    for f in ("scores", "winners", "turns", "rounds", "status", "extra", "curves"):
        assert np.array_equal(getattr(a, f), getattr(b, f)), f


def test_progress_off_a_terminal_is_plain_lines_with_games_per_second():
    now = [0.0]
    buf = io.StringIO()
    lines = PG.Lines(1000, "moor-4p", buf, every_s=30, clock=lambda: now[0])
    with lines:
        for _ in range(10):
            now[0] += 10
            lines.advance(100)
    out = buf.getvalue().splitlines()
    assert out[0] == "moor-4p: 30% (300 of 1,000 games, 10 games/s, about 1 min 10 s left)"
    assert out[-1] == "moor-4p: 1,000 games in 100.0 s, 10 games/s" and len(out) == 4
    ctx, adv = PG.bar(10, "x", io.StringIO())                # not a terminal: the plain lines
    assert isinstance(ctx, PG.Lines)


def test_progress_on_a_terminal_is_a_live_bar_with_rate_and_time_left():
    class Tty(io.StringIO):
        def isatty(self):
            return True
    ctx, adv = PG.bar(1000, "moor-4p", Tty())
    from rich.progress import Progress, TimeRemainingColumn
    assert isinstance(ctx, Progress) and ctx.live.refresh_per_second >= 1
    assert any(isinstance(c, TimeRemainingColumn) for c in ctx.columns)
    assert any(type(c).__name__ == "Rate" for c in ctx.columns)


def test_sim_run_off_a_terminal_prints_a_line_with_games_per_second(tmp_path):
    r = cli.invoke(app, ["run", str(BASE), "--games", "300", "--out", str(tmp_path / "r")])
    assert r.exit_code == 0, r.output
    assert any(ln.startswith("test-moor-2p: 300 games in ") and ln.endswith(" games/s") for ln in
               r.stderr.splitlines()), r.stderr


# --- the destination is checked before any game is played ------------------------------------------------------------

def _no_games(monkeypatch):
    def refuse(*a, **k):
        raise AssertionError("a game was played before the destination was checked")
    monkeypatch.setattr(RN, "play_chunk", refuse)


@pytest.mark.parametrize("command", ["run", "compare", "baselines"])
def test_an_unwritable_destination_fails_before_playing(tmp_path, monkeypatch, command):
    _no_games(monkeypatch)
    blocker = tmp_path / "file"
    blocker.write_text("not a folder")
    out = blocker / "sub"                                   # cannot be created: its parent is a file
    args = {"run": ["run", str(BASE)], "compare": ["compare", str(BASE), str(GHOSTS)],
            "baselines": ["baselines", str(BASE)]}[command] + ["--out", str(out)]
    r = cli.invoke(app, args)
    line = one_error_line(r)
    assert r.exit_code == EXIT_BAD_INPUT and str(blocker) in line


@pytest.mark.parametrize("command", ["run", "compare", "baselines"])
def test_a_full_disk_fails_before_playing_and_names_the_folder(tmp_path, monkeypatch, command):
    _no_games(monkeypatch)
    monkeypatch.setattr(RP.shutil, "disk_usage", lambda p: shutil._ntuple_diskusage(10**9, 10**9 - 4096, 4096))
    out = tmp_path / "out"
    args = {"run": ["run", str(BASE)], "compare": ["compare", str(BASE), str(GHOSTS)],
            "baselines": ["baselines", str(BASE)]}[command] + ["--out", str(out)]
    r = cli.invoke(app, args)
    line = one_error_line(r)
    assert r.exit_code == EXIT_BAD_INPUT and "full" in line and str(tmp_path) in line


def test_a_disk_filling_up_while_writing_names_the_report_and_leaves_nothing(tmp_path, monkeypatch):
    def full(path, obj):
        raise OSError(errno.ENOSPC, "No space left on device")    # as a write() fails: no file name attached
    monkeypatch.setattr(RP, "write_json", full)
    out = tmp_path / "rep"
    r = cli.invoke(app, ["run", str(BASE), "--games", "200", "--out", str(out)])
    line = one_error_line(r)
    assert r.exit_code == EXIT_BAD_INPUT and "No space left on device" in line and str(out) in line
    assert not out.exists() and not list(tmp_path.glob(".rep.*"))


# --- an SPRT on identical games says at once that it cannot decide ---------------------------------------------------

def test_sprt_on_identical_games_stops_at_once_saying_why(tmp_path):
    same = tmp_path / "same.toml"
    same.write_text(BASE.read_text().replace('name = "test-moor-2p"', 'name = "same"'))
    r = cli.invoke(app, ["compare", str(BASE), str(same), "--sprt", "0.01", "--json", "--out", str(tmp_path / "c")])
    assert r.exit_code == 0, r.output
    res = json.loads(r.stdout)
    from sim.stats.compare import MIN_GAMES
    assert res["games"] == MIN_GAMES and res["sprt"]["state"] == "zero_variance" and res["stop"]["rule"] == "sprt"
    assert "never stop" in res["stop"]["message"] and "identical games" in res["stop"]["message"]
