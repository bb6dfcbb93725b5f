"""Report folders: refused before any game is played when they cannot be written or replaced, a full disk
is one line naming the folder (exit 3) and leaves nothing half-written, and the user's own files stay."""

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
from sim.cli import main as cli_main
from sim.cli.main import EXIT_BAD_INPUT, app
from sim.model.scenario import load
from sim.output import report
from sim.output import report as RP
from sim.pages import compare_page
from sim.play import runner
from sim.play import runner as RN
from tests.sim._cli import one_error_line

MOOR_2P = Path(__file__).resolve().parents[1] / "data" / "moor-2p-small.toml"
REPO = Path(__file__).resolve().parents[2]
DATA = REPO / "tests" / "data"
BASE = DATA / "moor-2p-small.toml"
cli = CliRunner()


FULL = "No space left on device"


def error_lines(r) -> list[str]:
    assert "Traceback" not in r.output, r.output
    return [ln for ln in r.stderr.splitlines() if ln.startswith("error")]


def hidden(folder: Path) -> list[str]:
    """Hidden entries (staging folders, temporary files) anywhere under ``folder``."""
    return sorted(str(p.relative_to(folder)) for p in Path(folder).rglob(".*"))


def polars_full(*a, **k):
    raise pl.exceptions.ComputeError(
        "parquet: File out of specification: underlying IO error: No space left on device (os error 28)"
    )


def os_full(*a, **k):
    raise OSError(errno.ENOSPC, FULL)


def _load():
    return load(MOOR_2P)


@pytest.fixture
def no_play(monkeypatch):
    """Fail the test if any game is played (the refusal must come first)."""

    def played(*a, **k):
        raise AssertionError("games were played before the destination was refused")

    from sim.play import work

    monkeypatch.setattr(work, "play_games", played)  # the one play path of every command


def _chattr(flag: str, folder: Path) -> bool:
    return (
        shutil.which("chattr") is not None
        and subprocess.run(["chattr", flag, str(folder)], capture_output=True).returncode == 0
    )


@pytest.fixture
def reports(tmp_path, monkeypatch) -> Path:
    root = tmp_path / "reports"
    monkeypatch.setattr("sim.model.paths.REPORTS", root)
    return root


GHOSTS = DATA / "moor-2p-ghosts.toml"


def _no_games(monkeypatch):
    def refuse(*a, **k):
        raise AssertionError("a game was played before the destination was checked")

    monkeypatch.setattr(RN, "play_chunk", refuse)


@pytest.mark.kernel
def test_a_sweep_onto_a_full_disk_is_refused_before_any_point_is_played(tmp_path, monkeypatch):
    """sim run said 'the disk holding ... is full' before playing; sim sweep played points until
    'error: No space left on device' (no folder named)."""
    import shutil
    from collections import namedtuple

    from typer.testing import CliRunner

    Usage = namedtuple("Usage", "total used free")
    monkeypatch.setattr(shutil, "disk_usage", lambda p: Usage(1 << 30, (1 << 30) - 4096, 4096))
    r = CliRunner().invoke(
        cli_main.app, ["sweep", str(MOOR_2P), "--set", "track_len=24,25", "--games", "10", "--out", str(tmp_path / "s")]
    )
    lines = [ln for ln in r.stderr.splitlines() if ln.strip()]
    assert r.exit_code == cli_common.EXIT_BAD_INPUT, r.output
    assert lines == [
        f"error: --out: the disk holding {tmp_path / 's'} is full (4096 bytes free; a sweep needs at least 1 MiB)"
    ], lines
    assert not (tmp_path / "s" / "points").exists() or not any((tmp_path / "s" / "points").iterdir())


@pytest.mark.kernel
def test_a_disk_that_fills_up_during_a_sweep_is_one_line_naming_the_folder(tmp_path, monkeypatch):
    import errno

    from typer.testing import CliRunner

    from sim.play import sweep_store as store

    def full(*a, **k):
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(store.np, "savez", full)
    r = CliRunner().invoke(
        cli_main.app, ["sweep", str(MOOR_2P), "--set", "track_len=24,25", "--games", "10", "--out", str(tmp_path / "s")]
    )
    lines = [ln for ln in r.stderr.splitlines() if ln.strip() and ln.startswith("error")]
    assert r.exit_code == cli_common.EXIT_BAD_INPUT, r.output
    assert "Traceback" not in r.output
    assert lines and lines[0].startswith(f"error: --out: cannot write in {tmp_path / 's'} (No space left on device)")


@pytest.mark.kernel
def test_an_unwritable_sweep_out_is_one_line_naming_out(tmp_path):
    (tmp_path / "f").write_text("a file")
    r = cli.invoke(
        app, ["sweep", str(BASE), "--set", "track_len=24,28", "--games", "10", "--out", str(tmp_path / "f" / "x")]
    )
    line = one_error_line(r)
    assert r.exit_code == EXIT_BAD_INPUT and line.startswith(f"error: --out: {tmp_path / 'f'} is a file, not a folder")


@pytest.mark.kernel
def test_a_full_disk_seen_by_polars_while_writing_games_parquet_is_one_line_exit_3(tmp_path, monkeypatch):
    monkeypatch.setattr(pl.LazyFrame, "sink_parquet", polars_full)
    r = cli.invoke(app, ["run", str(MOOR_2P), "--games", "50", "--per-game", "--out", str(tmp_path / "rep")])
    assert r.exit_code == EXIT_BAD_INPUT, r.output
    lines = error_lines(r)
    assert lines == [f"error: cannot write the report {tmp_path / 'rep'}: {FULL}; nothing was written"], lines
    assert not (tmp_path / "rep").exists() and hidden(tmp_path) == []


@pytest.mark.kernel
def test_an_oserror_while_writing_a_run_report_is_one_line_naming_the_file(tmp_path, monkeypatch):
    monkeypatch.setattr(report, "write_json", os_full)
    r = cli.invoke(app, ["run", str(MOOR_2P), "--games", "50", "--out", str(tmp_path / "rep")])
    assert r.exit_code == EXIT_BAD_INPUT, r.output
    (line,) = error_lines(r)
    assert line.startswith(f"error: cannot write the report {tmp_path / 'rep'}: {FULL}"), line
    assert not (tmp_path / "rep").exists() and hidden(tmp_path) == []


@pytest.mark.kernel
def test_a_full_disk_keeps_the_earlier_report_as_it_was(tmp_path, monkeypatch):
    api.run_scenario(_load(), 50, out_dir=tmp_path / "rep")
    (tmp_path / "rep" / "my-notes.txt").write_text("mine\n")
    before = {p.name: p.read_bytes() for p in (tmp_path / "rep").iterdir() if p.is_file()}
    monkeypatch.setattr(pl.LazyFrame, "sink_parquet", polars_full)
    r = cli.invoke(app, ["run", str(MOOR_2P), "--games", "50", "--per-game", "--out", str(tmp_path / "rep")])
    assert r.exit_code == EXIT_BAD_INPUT and len(error_lines(r)) == 1, r.output
    assert {p.name: p.read_bytes() for p in (tmp_path / "rep").iterdir() if p.is_file()} == before
    assert hidden(tmp_path) == []


@pytest.mark.kernel
@pytest.mark.parametrize("exc", [os_full, polars_full], ids=["oserror", "polars"])
def test_a_full_disk_while_writing_a_comparison_is_one_line_exit_3(tmp_path, monkeypatch, exc):
    monkeypatch.setattr(compare_page, "render_compare", exc)
    r = cli.invoke(
        app, ["compare", str(MOOR_2P), "--set-b", "track_len=25", "--games", "50", "--out", str(tmp_path / "cmp")]
    )
    assert r.exit_code == EXIT_BAD_INPUT, r.output
    assert error_lines(r) == [f"error: cannot write the report {tmp_path / 'cmp'}: {FULL}; nothing was written"]
    assert not (tmp_path / "cmp").exists() and hidden(tmp_path) == []


@pytest.mark.kernel
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


@pytest.mark.kernel
def test_a_full_disk_seen_by_polars_while_writing_a_sweep_is_one_line_and_leaves_no_temporary_file(
    tmp_path, monkeypatch
):
    monkeypatch.setattr(pl.DataFrame, "write_parquet", polars_full)
    r = cli.invoke(
        app, ["sweep", str(MOOR_2P), "--set", "track_len=24,25", "--games", "10", "--out", str(tmp_path / "s")]
    )
    assert r.exit_code == EXIT_BAD_INPUT, r.output
    (line,) = error_lines(r)
    assert str(tmp_path / "s") in line and FULL in line, line
    assert not (tmp_path / "s" / "sweep.json").exists()
    assert [h for h in hidden(tmp_path) if not h.startswith("s/points")] == []


@pytest.mark.kernel
def test_a_full_disk_while_writing_a_baseline_is_one_line_and_leaves_no_temporary_file(tmp_path, monkeypatch):
    import pathlib

    real = pathlib.Path.write_text

    def full_for_baselines(self, *a, **k):
        if self.name.endswith(".json.tmp"):
            real(self, '{"half', encoding="utf-8")
            os_full()
        return real(self, *a, **k)

    monkeypatch.setattr(pathlib.Path, "write_text", full_for_baselines)
    r = cli.invoke(
        app,
        [
            "baselines",
            str(MOOR_2P),
            "--out",
            str(tmp_path / "b"),
            "--exact-games",
            "20",
            "--stat-games",
            "20",
            "--check-games",
            "20",
        ],
    )
    assert r.exit_code == EXIT_BAD_INPUT, r.output
    (line,) = error_lines(r)
    assert "cannot write the baseline" in line and FULL in line, line
    assert list((tmp_path / "b").rglob("*.json*")) == []


@pytest.mark.kernel
def test_a_real_full_disk_is_one_line_exit_3_and_leaves_nothing(tmp_path):
    """A real 1.5 MiB tmpfs (root only; skipped where mount is not permitted): enough free room for the pre-play
    check, too little for games.parquet; the installed `sim`, so main()'s own handling is what the user sees."""
    mnt = tmp_path / "mnt"
    mnt.mkdir()
    if (
        subprocess.run(["mount", "-t", "tmpfs", "-o", "size=1536k", "tmpfs", str(mnt)], capture_output=True).returncode
        != 0
    ):
        pytest.skip("cannot mount a tmpfs here")
    try:
        r = subprocess.run(
            [
                sys.executable,
                "-m",
                "sim.cli.main",
                "run",
                str(MOOR_2P),
                "--games",
                "400000",
                "--per-game",
                "--threads",
                "1",
                "--out",
                str(mnt / "rep"),
            ],
            capture_output=True,
            text=True,
            timeout=300,
        )
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


@pytest.mark.kernel
def test_an_immutable_out_folder_is_refused_before_any_game_is_played(tmp_path, no_play):
    d = tmp_path / "d"
    d.mkdir()
    if not _chattr("+i", d):
        pytest.skip("chattr +i is not permitted here")
    try:
        r = cli.invoke(app, ["run", str(MOOR_2P), "--games", "50", "--out", str(d)])
        assert r.exit_code == EXIT_BAD_INPUT, r.output
        assert error_lines(r) == [f"error: --out: {d} cannot be replaced: cannot write in it (Operation not permitted)"]
        assert hidden(tmp_path) == []
    finally:
        _chattr("-i", d)


@pytest.mark.kernel
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


@pytest.mark.kernel
def test_a_comparison_into_a_folder_that_cannot_be_replaced_is_refused_before_playing(tmp_path, monkeypatch):
    from sim.api import compare as cmp

    d = tmp_path / "d"
    d.mkdir()
    monkeypatch.setattr(report.os.path, "ismount", lambda p: Path(p) == d)
    monkeypatch.setattr(cmp, "compare", lambda *a, **k: (_ for _ in ()).throw(AssertionError("played")))
    r = cli.invoke(app, ["compare", str(MOOR_2P), "--set-b", "track_len=25", "--games", "50", "--out", str(d)])
    assert r.exit_code == EXIT_BAD_INPUT, r.output
    assert "cannot be replaced: it is a mount point" in error_lines(r)[0]


@pytest.mark.kernel
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


@pytest.mark.kernel
def test_a_scenario_whose_default_folder_is_taken_is_told_about_its_name_not_about_out(tmp_path, monkeypatch, no_play):
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
    assert line.startswith(
        f"error: scenario 'sweep-moor-4p', default report folder: {reports / 'sweep-moor-4p'} "
        "exists and is not a report folder; give --out another folder, or the scenario another "
        "name"
    ), line


@pytest.mark.kernel
def test_with_out_the_error_still_names_out(tmp_path, no_play):
    d = tmp_path / "d"
    d.mkdir()
    (d / "other.txt").write_text("x\n")
    r = cli.invoke(app, ["run", str(MOOR_2P), "--games", "50", "--out", str(d)])
    assert r.exit_code == EXIT_BAD_INPUT, r.output
    assert error_lines(r) == [
        f"error: --out: {d} exists and is not a report folder; give a new or empty folder (an "
        "earlier report folder is replaced)"
    ]


@pytest.mark.kernel
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


@pytest.mark.kernel
def test_a_sweep_whose_default_folder_is_taken_is_told_about_its_scenario_not_about_out(reports):
    (reports / "sweep-test-moor-2p").mkdir(parents=True)
    (reports / "sweep-test-moor-2p" / "notes.txt").write_text("mine\n")
    r = cli.invoke(app, ["sweep", str(MOOR_2P), "--set", "track_len=24,25", "--games", "10"])
    assert r.exit_code == EXIT_BAD_INPUT, r.output
    assert error_lines(r) == [
        f"error: sweep of scenario 'test-moor-2p', default folder: "
        f"{reports / 'sweep-test-moor-2p'} exists and is not a sweep folder; give --out another "
        "folder"
    ]


def test_a_polars_io_error_that_reaches_main_is_one_line_exit_3(monkeypatch, capsys):
    """The backstop for a Polars I/O error no report writer turned into its own line: no traceback, exit 3."""
    from sim.cli import main as cli_mod

    monkeypatch.setattr(cli_mod, "app", polars_full)
    monkeypatch.setattr(cli_mod, "stop_on_sigterm", lambda: None, raising=False)
    monkeypatch.setattr(runner, "stop_on_sigterm", lambda: None)
    with pytest.raises(SystemExit) as ex:
        cli_mod.main()
    assert ex.value.code == EXIT_BAD_INPUT
    err = [ln for ln in capsys.readouterr().err.splitlines() if ln.strip()]
    assert len(err) == 1 and err[0].startswith(f"error: {FULL} (writing with Polars: "), err


@pytest.mark.kernel
def test_an_earlier_report_that_cannot_be_removed_after_the_swap_is_named_in_a_warning(tmp_path, monkeypatch):
    """A second new user locked a file of an earlier report (chattr +i): the new report went in, exit 0, and the
    earlier one stayed behind as a hidden .rep.old-PID folder without a word. Now a warning line names it."""
    out = tmp_path / "rep"
    assert cli.invoke(app, ["run", str(MOOR_2P), "--games", "20", "--out", str(out)]).exit_code == 0
    real = shutil.rmtree

    def keep_old(p, *a, **k):  # a file in the moved-aside report cannot be deleted
        if ".old-" in Path(p).name:
            return None
        return real(p, *a, **k)

    monkeypatch.setattr(report.shutil, "rmtree", keep_old)
    r = cli.invoke(app, ["run", str(MOOR_2P), "--games", "20", "--out", str(out)])
    assert r.exit_code == 0, r.output
    left = [p for p in tmp_path.iterdir() if p.name.startswith(".rep.old-")]
    assert len(left) == 1 and f"moved aside to {left[0]}" in r.stderr and "remove that folder by hand" in r.stderr


@pytest.mark.kernel
def test_a_sweep_refused_for_a_full_disk_leaves_no_empty_folder(tmp_path, monkeypatch):
    """A second new user found `sim sweep --out NEW` on a nearly full disk refused in one line but left NEW/ empty."""
    monkeypatch.setattr(report.shutil, "disk_usage", lambda p: shutil._ntuple_diskusage(10**9, 10**9 - 4096, 4096))
    out = tmp_path / "sw"
    r = cli.invoke(app, ["sweep", str(MOOR_2P), "--set", "die_faces=4,6", "--games", "20", "--out", str(out)])
    assert r.exit_code == EXIT_BAD_INPUT and "is full" in r.stderr, r.output
    assert not out.exists() and list(tmp_path.iterdir()) == []


@pytest.mark.kernel
def test_out_below_a_plain_file_says_the_file_is_not_a_folder(tmp_path):
    (tmp_path / "afile").write_text("x")
    r = cli.invoke(app, ["run", "scenarios/moor/4p.toml", "--games", "8", "--out", str(tmp_path / "afile" / "sub")])
    assert r.exit_code == 3
    assert (
        one_error_line(r) == f"error: --out: {tmp_path / 'afile'} is a file, not a folder; give a folder for the report"
    )
    r = cli.invoke(
        app,
        [
            "sweep",
            "scenarios/moor/4p.toml",
            "--set",
            "seats.0.strategy=collector,random",
            "--games",
            "8",
            "--out",
            str(tmp_path / "afile" / "sub"),
        ],
    )
    assert r.exit_code == 3
    assert f"{tmp_path / 'afile'} is a file, not a folder" in one_error_line(r)


@pytest.mark.kernel
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
    assert not (out / "games.parquet").exists()  # the tool's own earlier output is replaced, not kept
    assert not list(tmp_path.glob(".rep.*"))
    # sim compare likewise
    cmp = tmp_path / "cmp"
    for games in ("300", "400"):
        r = cli.invoke(app, ["compare", str(BASE), str(GHOSTS), "--games", games, "--out", str(cmp)])
        assert r.exit_code == 0, r.output
        (cmp / "notes.txt").write_text("why we compared")
    assert (cmp / "notes.txt").read_text() == "why we compared"
    assert json.loads((cmp / "compare.json").read_text())["games"] == 400


@pytest.mark.kernel
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


@pytest.mark.kernel
@pytest.mark.parametrize("command", ["run", "compare", "baselines"])
def test_an_unwritable_destination_fails_before_playing(tmp_path, monkeypatch, command):
    _no_games(monkeypatch)
    blocker = tmp_path / "file"
    blocker.write_text("not a folder")
    out = blocker / "sub"  # cannot be created: its parent is a file
    args = {
        "run": ["run", str(BASE)],
        "compare": ["compare", str(BASE), str(GHOSTS)],
        "baselines": ["baselines", str(BASE)],
    }[command] + ["--out", str(out)]
    r = cli.invoke(app, args)
    line = one_error_line(r)
    assert r.exit_code == EXIT_BAD_INPUT and str(blocker) in line


@pytest.mark.kernel
@pytest.mark.parametrize("command", ["run", "compare", "baselines"])
def test_a_full_disk_fails_before_playing_and_names_the_folder(tmp_path, monkeypatch, command):
    _no_games(monkeypatch)
    monkeypatch.setattr(RP.shutil, "disk_usage", lambda p: shutil._ntuple_diskusage(10**9, 10**9 - 4096, 4096))
    out = tmp_path / "out"
    args = {
        "run": ["run", str(BASE)],
        "compare": ["compare", str(BASE), str(GHOSTS)],
        "baselines": ["baselines", str(BASE)],
    }[command] + ["--out", str(out)]
    r = cli.invoke(app, args)
    line = one_error_line(r)
    assert r.exit_code == EXIT_BAD_INPUT and "full" in line and str(tmp_path) in line


@pytest.mark.kernel
def test_a_disk_filling_up_while_writing_names_the_report_and_leaves_nothing(tmp_path, monkeypatch):
    def full(path, obj):
        raise OSError(errno.ENOSPC, "No space left on device")  # as a write() fails: no file name attached

    monkeypatch.setattr(RP, "write_json", full)
    out = tmp_path / "rep"
    r = cli.invoke(app, ["run", str(BASE), "--games", "200", "--out", str(out)])
    line = one_error_line(r)
    assert r.exit_code == EXIT_BAD_INPUT and "No space left on device" in line and str(out) in line
    assert not out.exists() and not list(tmp_path.glob(".rep.*"))
