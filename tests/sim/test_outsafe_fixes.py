"""Report folders and a disk that fills up or a folder that cannot be replaced (a new user's findings):

1. A full disk while writing games.parquet was a 55-line traceback ending in Polars' ComputeError ('No space left
   on device'), exit 1: every report writer (run, compare, sweep, report redraw, baselines) now says it in one line
   naming the folder, exit 3, and leaves no staging folder or temporary file.
2. An --out folder that exists but cannot be replaced (immutable, a mount point) failed only after the games were
   played and left the complete report in a hidden `.NAME.partial-PID`: it is refused before any game is played, and
   the staging folder is removed whatever fails while the report is swapped in.
"""
from __future__ import annotations

import errno
import json
import shutil
import subprocess
import sys
from pathlib import Path

import polars as pl
import pytest
from typer.testing import CliRunner

from sim.api import core as api
from sim.cli import common as cli_common
from sim.pages import compare_page
from sim.output import report
from sim.cli.main import EXIT_BAD_INPUT, app

DATA = Path(__file__).resolve().parent.parent / "data"
MOOR_2P = DATA / "moor-2p-small.toml"
cli = CliRunner()
FULL = "No space left on device"


def error_lines(r) -> list[str]:
    assert "Traceback" not in r.output, r.output
    return [ln for ln in r.stderr.splitlines() if ln.startswith("error")]


def hidden(folder: Path) -> list[str]:
    """Hidden entries (staging folders, temporary files) anywhere under ``folder``."""
    return sorted(str(p.relative_to(folder)) for p in Path(folder).rglob(".*"))


def polars_full(*a, **k):
    raise pl.exceptions.ComputeError("parquet: File out of specification: underlying IO error: No space left on "
                                     "device (os error 28)")


def os_full(*a, **k):
    raise OSError(errno.ENOSPC, FULL)


@pytest.fixture
def no_play(monkeypatch):
    """Fail the test if any game is played (the refusal must come first)."""
    def played(*a, **k):
        raise AssertionError("games were played before the destination was refused")
    from sim.play import work
    monkeypatch.setattr(work, "play_games", played)     # the one play path of every command


# --- 1. a full disk while writing -------------------------------------------------------------------------------------

def test_a_full_disk_seen_by_polars_while_writing_games_parquet_is_one_line_exit_3(tmp_path, monkeypatch):
    monkeypatch.setattr(pl.LazyFrame, "sink_parquet", polars_full)
    r = cli.invoke(app, ["run", str(MOOR_2P), "--games", "50", "--per-game", "--out", str(tmp_path / "rep")])
    assert r.exit_code == EXIT_BAD_INPUT, r.output
    lines = error_lines(r)
    assert lines == [f"error: cannot write the report {tmp_path / 'rep'}: {FULL}; nothing was written"], lines
    assert not (tmp_path / "rep").exists() and hidden(tmp_path) == []


def test_an_oserror_while_writing_a_run_report_is_one_line_naming_the_file(tmp_path, monkeypatch):
    monkeypatch.setattr(report, "write_json", os_full)
    r = cli.invoke(app, ["run", str(MOOR_2P), "--games", "50", "--out", str(tmp_path / "rep")])
    assert r.exit_code == EXIT_BAD_INPUT, r.output
    (line,) = error_lines(r)
    assert line.startswith(f"error: cannot write the report {tmp_path / 'rep'}: {FULL}"), line
    assert not (tmp_path / "rep").exists() and hidden(tmp_path) == []


def test_a_full_disk_keeps_the_earlier_report_as_it_was(tmp_path, monkeypatch):
    api.run_scenario(_load(), 50, out_dir=tmp_path / "rep")
    (tmp_path / "rep" / "my-notes.txt").write_text("mine\n")
    before = {p.name: p.read_bytes() for p in (tmp_path / "rep").iterdir() if p.is_file()}
    monkeypatch.setattr(pl.LazyFrame, "sink_parquet", polars_full)
    r = cli.invoke(app, ["run", str(MOOR_2P), "--games", "50", "--per-game", "--out", str(tmp_path / "rep")])
    assert r.exit_code == EXIT_BAD_INPUT and len(error_lines(r)) == 1, r.output
    assert {p.name: p.read_bytes() for p in (tmp_path / "rep").iterdir() if p.is_file()} == before
    assert hidden(tmp_path) == []


def _load():
    from sim.model.scenario import load
    return load(MOOR_2P)


@pytest.mark.parametrize("exc", [os_full, polars_full], ids=["oserror", "polars"])
def test_a_full_disk_while_writing_a_comparison_is_one_line_exit_3(tmp_path, monkeypatch, exc):
    monkeypatch.setattr(compare_page, "render_compare", exc)
    r = cli.invoke(app, ["compare", str(MOOR_2P), "--set-b", "track_len=25", "--games", "50",
                         "--out", str(tmp_path / "cmp")])
    assert r.exit_code == EXIT_BAD_INPUT, r.output
    assert error_lines(r) == [f"error: cannot write the report {tmp_path / 'cmp'}: {FULL}; nothing was written"]
    assert not (tmp_path / "cmp").exists() and hidden(tmp_path) == []


def test_a_full_disk_seen_by_polars_while_redrawing_a_report_leaves_it_as_it_was(tmp_path, monkeypatch):
    from sim.pages import html_report
    _, folder = api.run_scenario(_load(), 50, out_dir=tmp_path / "rep")
    before = {str(p.relative_to(folder)): p.read_bytes() for p in folder.rglob("*") if p.is_file()}
    monkeypatch.setattr(html_report, "write", polars_full)
    r = cli.invoke(app, ["report", str(folder)])
    assert r.exit_code == EXIT_BAD_INPUT, r.output
    assert error_lines(r) == [f"error: cannot write the report {folder}: {FULL}; nothing was written"]
    assert {str(p.relative_to(folder)): p.read_bytes() for p in folder.rglob("*") if p.is_file()} == before
    assert hidden(tmp_path) == []


def test_a_full_disk_seen_by_polars_while_writing_a_sweep_is_one_line_and_leaves_no_temporary_file(tmp_path,
                                                                                                   monkeypatch):
    monkeypatch.setattr(pl.DataFrame, "write_parquet", polars_full)
    r = cli.invoke(app, ["sweep", str(MOOR_2P), "--set", "track_len=24,25", "--games", "10",
                         "--out", str(tmp_path / "s")])
    assert r.exit_code == EXIT_BAD_INPUT, r.output
    (line,) = error_lines(r)
    assert str(tmp_path / "s") in line and FULL in line, line
    assert not (tmp_path / "s" / "sweep.json").exists()
    assert [h for h in hidden(tmp_path) if not h.startswith("s/points")] == []


def test_a_full_disk_while_writing_a_baseline_is_one_line_and_leaves_no_temporary_file(tmp_path, monkeypatch):
    import pathlib
    real = pathlib.Path.write_text

    def full_for_baselines(self, *a, **k):
        if self.name.endswith(".json.tmp"):
            real(self, "{\"half", encoding="utf-8")
            os_full()
        return real(self, *a, **k)
    monkeypatch.setattr(pathlib.Path, "write_text", full_for_baselines)
    r = cli.invoke(app, ["baselines", str(MOOR_2P), "--out", str(tmp_path / "b"), "--exact-games", "20",
                         "--stat-games", "20", "--check-games", "20"])
    assert r.exit_code == EXIT_BAD_INPUT, r.output
    (line,) = error_lines(r)
    assert "cannot write the baseline" in line and FULL in line, line
    assert list((tmp_path / "b").rglob("*.json*")) == []


def test_a_real_full_disk_is_one_line_exit_3_and_leaves_nothing(tmp_path):
    """A real 1.5 MiB tmpfs (root only; skipped where mount is not permitted): enough free room for the pre-play
    check, too little for games.parquet; the installed `sim`, so main()'s own handling is what the user sees."""
    mnt = tmp_path / "mnt"
    mnt.mkdir()
    if subprocess.run(["mount", "-t", "tmpfs", "-o", "size=1536k", "tmpfs", str(mnt)],
                      capture_output=True).returncode != 0:
        pytest.skip("cannot mount a tmpfs here")
    try:
        r = subprocess.run([sys.executable, "-m", "sim.cli.main", "run", str(MOOR_2P), "--games", "400000", "--per-game",
                            "--threads", "1", "--out", str(mnt / "rep")], capture_output=True, text=True,
                           timeout=300)
        lines = [ln for ln in r.stderr.splitlines() if ln.startswith("error")]
        assert "Traceback" not in r.stderr, r.stderr
        assert r.returncode == EXIT_BAD_INPUT, r.stderr
        assert len(lines) == 1 and f"cannot write the report {mnt / 'rep'}: {FULL}" in lines[0], r.stderr
        assert list(mnt.iterdir()) == []
    finally:
        subprocess.run(["umount", str(mnt)], capture_output=True)


def test_os_error_reads_the_errno_out_of_a_polars_error():
    e = report.os_error(pl.exceptions.ComputeError("underlying IO error: No space left on device (os error 28)"))
    assert isinstance(e, OSError) and e.errno == errno.ENOSPC and e.strerror == FULL
    assert report.os_error(pl.exceptions.ComputeError("a bad schema")) is None
    assert report.os_error(ValueError("x (os error 28)")) is None


# --- 2. an existing folder that cannot be replaced ---------------------------------------------------------------------

def _chattr(flag: str, folder: Path) -> bool:
    return shutil.which("chattr") is not None and subprocess.run(["chattr", flag, str(folder)],
                                                                 capture_output=True).returncode == 0


def test_an_immutable_out_folder_is_refused_before_any_game_is_played(tmp_path, no_play):
    d = tmp_path / "d"
    d.mkdir()
    if not _chattr("+i", d):
        pytest.skip("chattr +i is not permitted here")
    try:
        r = cli.invoke(app, ["run", str(MOOR_2P), "--games", "50", "--out", str(d)])
        assert r.exit_code == EXIT_BAD_INPUT, r.output
        assert error_lines(r) == [f"error: --out: {d} cannot be replaced: cannot write in it (Operation not "
                                  "permitted)"]
        assert hidden(tmp_path) == []
    finally:
        _chattr("-i", d)


def test_a_mount_point_out_folder_is_refused_before_any_game_is_played(tmp_path, monkeypatch, no_play):
    """A mount point cannot be renamed ('Device or resource busy' after playing): said first, in one line."""
    d = tmp_path / "d"
    d.mkdir()
    real = report.os.path.ismount
    monkeypatch.setattr(report.os.path, "ismount", lambda p: Path(p) == d or real(p))
    r = cli.invoke(app, ["run", str(MOOR_2P), "--games", "50", "--out", str(d)])
    assert r.exit_code == EXIT_BAD_INPUT, r.output
    (line,) = error_lines(r)
    assert line.startswith(f"error: --out: {d} cannot be replaced: it is a mount point"), line
    assert hidden(tmp_path) == []


def test_a_comparison_into_a_folder_that_cannot_be_replaced_is_refused_before_playing(tmp_path, monkeypatch):
    from sim.api import compare as cmp
    d = tmp_path / "d"
    d.mkdir()
    monkeypatch.setattr(report.os.path, "ismount", lambda p: Path(p) == d)
    monkeypatch.setattr(cmp, "compare", lambda *a, **k: (_ for _ in ()).throw(AssertionError("played")))
    r = cli.invoke(app, ["compare", str(MOOR_2P), "--set-b", "track_len=25", "--games", "50", "--out", str(d)])
    assert r.exit_code == EXIT_BAD_INPUT, r.output
    assert "cannot be replaced: it is a mount point" in error_lines(r)[0]


def test_a_swap_that_fails_puts_the_earlier_report_back_and_removes_the_staging_folder(tmp_path, monkeypatch):
    """Whatever the pre-play checks miss (the folder made immutable while the games were played): the earlier
    report and the user's files in it stay as they were, no `.rep.partial-PID` / `.rep.old-PID` is left."""
    import pathlib
    _, folder = api.run_scenario(_load(), 50, out_dir=tmp_path / "rep")
    (folder / "my-notes.txt").write_text("mine\n")
    before = {str(p.relative_to(folder)): p.read_bytes() for p in folder.rglob("*") if p.is_file()}
    real = pathlib.Path.rename

    def busy(self, target):
        if self.name.startswith(".rep.partial-"):
            raise OSError(errno.EBUSY, "Device or resource busy", str(target))
        return real(self, target)
    monkeypatch.setattr(pathlib.Path, "rename", busy)
    r = cli.invoke(app, ["run", str(MOOR_2P), "--games", "60", "--out", str(folder)])
    assert r.exit_code == EXIT_BAD_INPUT, r.output
    (line,) = error_lines(r)
    assert line.startswith(f"error: cannot write the report {folder}: Device or resource busy"), line
    assert {str(p.relative_to(folder)): p.read_bytes() for p in folder.rglob("*") if p.is_file()} == before
    assert hidden(tmp_path) == []


# --- 4. the error names what the user gave ---------------------------------------------------------------------------

def test_a_scenario_whose_default_folder_is_taken_is_told_about_its_name_not_about_out(tmp_path, monkeypatch,
                                                                                         no_play):
    """A scenario named `sweep-moor-4p` writes reports/sweep-moor-4p, a sweep's folder: the line talked about
    `--out`, which the user never gave."""
    reports = tmp_path / "reports"
    (reports / "sweep-moor-4p").mkdir(parents=True)
    (reports / "sweep-moor-4p" / "sweep.json").write_text("{}\n")
    monkeypatch.setattr("sim.model.paths.REPORTS", reports)
    f = tmp_path / "s.toml"
    f.write_text(MOOR_2P.read_text().replace('name = "test-moor-2p"', 'name = "sweep-moor-4p"'))
    r = cli.invoke(app, ["run", str(f), "--games", "50"])
    assert r.exit_code == EXIT_BAD_INPUT, r.output
    (line,) = error_lines(r)
    assert "--out:" not in line
    assert line.startswith(f"error: scenario 'sweep-moor-4p', default report folder: {reports / 'sweep-moor-4p'} "
                           "exists and is not a report folder; give --out another folder, or the scenario another "
                           "name"), line


def test_with_out_the_error_still_names_out(tmp_path, no_play):
    d = tmp_path / "d"
    d.mkdir()
    (d / "other.txt").write_text("x\n")
    r = cli.invoke(app, ["run", str(MOOR_2P), "--games", "50", "--out", str(d)])
    assert r.exit_code == EXIT_BAD_INPUT, r.output
    assert error_lines(r) == [f"error: --out: {d} exists and is not a report folder; give a new or empty folder (an "
                              "earlier report folder is replaced)"]


def test_a_comparison_whose_default_folder_is_taken_names_the_comparison(tmp_path, monkeypatch):
    reports = tmp_path / "reports"
    taken = reports / "compare-test-moor-2p-vs-test-moor-2p--track_len=25"
    taken.mkdir(parents=True)
    (taken / "other.txt").write_text("x\n")
    monkeypatch.setattr("sim.model.paths.REPORTS", reports)
    r = cli.invoke(app, ["compare", str(MOOR_2P), "--set-b", "track_len=25", "--games", "50"])
    assert r.exit_code == EXIT_BAD_INPUT, r.output
    (line,) = error_lines(r)
    assert "--out:" not in line and line.startswith("error: comparison 'test-moor-2p' vs "), line


# --- 3. reports/index.html follows every command that writes a report under reports/ ---------------------------------

@pytest.fixture
def reports(tmp_path, monkeypatch) -> Path:
    root = tmp_path / "reports"
    monkeypatch.setattr("sim.model.paths.REPORTS", root)
    return root


def index_links(root: Path) -> str:
    return (root / "index.html").read_text(encoding="utf-8")


def test_sim_run_into_the_reports_folder_lists_the_report_in_the_index(reports):
    r = cli.invoke(app, ["run", str(MOOR_2P), "--games", "50"])
    assert r.exit_code == 0, r.output
    assert 'href="test-moor-2p/summary.html"' in index_links(reports)
    assert hidden(reports) == []


def test_sim_compare_reports_are_listed_in_the_index(reports):
    r = cli.invoke(app, ["compare", str(MOOR_2P), "--set-b", "track_len=25", "--games", "50"])
    assert r.exit_code == 0, r.output
    page = index_links(reports)
    assert "<h2>Comparisons</h2>" in page
    assert 'href="compare-test-moor-2p-vs-test-moor-2p--track_len=25/compare.html"' in page
    assert "test-moor-2p vs test-moor-2p--track_len=25" in page and " UTC<" in page


def test_sim_sweep_into_the_reports_folder_lists_the_sweep_and_keeps_the_other_rows(reports):
    assert cli.invoke(app, ["run", str(MOOR_2P), "--games", "50"]).exit_code == 0
    r = cli.invoke(app, ["sweep", str(MOOR_2P), "--set", "track_len=24,25", "--games", "10"])
    assert r.exit_code == 0, r.output
    page = index_links(reports)
    assert 'href="sweep-test-moor-2p/sweep.html"' in page and 'href="test-moor-2p/summary.html"' in page


def test_sim_report_redraw_refreshes_the_index(reports):
    assert cli.invoke(app, ["run", str(MOOR_2P), "--games", "50"]).exit_code == 0
    (reports / "index.html").unlink()
    r = cli.invoke(app, ["report", str(reports / "test-moor-2p")])
    assert r.exit_code == 0, r.output
    assert 'href="test-moor-2p/summary.html"' in index_links(reports)


def test_a_report_elsewhere_leaves_the_index_alone(reports, tmp_path):
    r = cli.invoke(app, ["run", str(MOOR_2P), "--games", "50", "--out", str(tmp_path / "elsewhere")])
    assert r.exit_code == 0, r.output
    assert not (reports / "index.html").exists()


def test_an_index_that_cannot_be_refreshed_is_a_warning_and_the_report_stands(reports, monkeypatch):
    from sim.pages import index_page
    monkeypatch.setattr(index_page, "write", os_full)
    r = cli.invoke(app, ["run", str(MOOR_2P), "--games", "50"])
    assert r.exit_code == 0, r.output
    warn = [ln for ln in r.stderr.splitlines() if ln.startswith("warning")]
    assert warn == ["warning: the report is written, but the index of the reports could not be refreshed (No space "
                    "left on device)"], r.stderr
    assert (reports / "test-moor-2p" / "summary.json").exists()


def test_refreshing_the_index_is_cheap(reports):
    import time
    from sim.pages import index_page
    assert cli.invoke(app, ["run", str(MOOR_2P), "--games", "50"]).exit_code == 0
    for i in range(10):
        shutil.copytree(reports / "test-moor-2p", reports / f"copy-{i}")
    t = time.perf_counter()
    index_page.refresh(reports / "test-moor-2p")
    assert time.perf_counter() - t < 1.0          # about 2 ms a report; a command must not feel it
    assert index_links(reports).count("summary.html") == 11


def test_a_sweep_whose_default_folder_is_taken_is_told_about_its_scenario_not_about_out(reports):
    (reports / "sweep-test-moor-2p").mkdir(parents=True)
    (reports / "sweep-test-moor-2p" / "notes.txt").write_text("mine\n")
    r = cli.invoke(app, ["sweep", str(MOOR_2P), "--set", "track_len=24,25", "--games", "10"])
    assert r.exit_code == EXIT_BAD_INPUT, r.output
    assert error_lines(r) == [f"error: sweep of scenario 'test-moor-2p', default folder: "
                              f"{reports / 'sweep-test-moor-2p'} exists and is not a sweep folder; give --out another "
                              "folder"]


def test_a_polars_io_error_that_reaches_main_is_one_line_exit_3(monkeypatch, capsys):
    """The backstop for a Polars I/O error no report writer turned into its own line: no traceback, exit 3."""
    from sim.cli import main as cli_mod
    monkeypatch.setattr(cli_mod, "app", polars_full)
    monkeypatch.setattr(cli_mod, "stop_on_sigterm", lambda: None, raising=False)
    from sim.play import runner
    monkeypatch.setattr(runner, "stop_on_sigterm", lambda: None)
    with pytest.raises(SystemExit) as ex:
        cli_mod.main()
    assert ex.value.code == EXIT_BAD_INPUT
    err = [ln for ln in capsys.readouterr().err.splitlines() if ln.strip()]
    assert len(err) == 1 and err[0].startswith(f"error: {FULL} (writing with Polars: "), err


def test_an_earlier_report_that_cannot_be_removed_after_the_swap_is_named_in_a_warning(tmp_path, monkeypatch):
    """A second new user locked a file of an earlier report (chattr +i): the new report went in, exit 0, and the
    earlier one stayed behind as a hidden .rep.old-PID folder without a word. Now a warning line names it."""
    out = tmp_path / "rep"
    assert cli.invoke(app, ["run", str(MOOR_2P), "--games", "20", "--out", str(out)]).exit_code == 0
    real = shutil.rmtree

    def keep_old(p, *a, **k):                 # a file in the moved-aside report cannot be deleted
        if ".old-" in Path(p).name:
            return None
        return real(p, *a, **k)
    monkeypatch.setattr(report.shutil, "rmtree", keep_old)
    r = cli.invoke(app, ["run", str(MOOR_2P), "--games", "20", "--out", str(out)])
    assert r.exit_code == 0, r.output
    left = [p for p in tmp_path.iterdir() if p.name.startswith(".rep.old-")]
    assert len(left) == 1 and f"moved aside to {left[0]}" in r.stderr and "remove that folder by hand" in r.stderr


def test_a_sweep_refused_for_a_full_disk_leaves_no_empty_folder(tmp_path, monkeypatch):
    """A second new user found `sim sweep --out NEW` on a nearly full disk refused in one line but left NEW/ empty."""
    monkeypatch.setattr(report.shutil, "disk_usage", lambda p: shutil._ntuple_diskusage(10**9, 10**9 - 4096, 4096))
    out = tmp_path / "sw"
    r = cli.invoke(app, ["sweep", str(MOOR_2P), "--set", "die_faces=4,6", "--games", "20", "--out", str(out)])
    assert r.exit_code == EXIT_BAD_INPUT and "is full" in r.stderr, r.output
    assert not out.exists() and list(tmp_path.iterdir()) == []
