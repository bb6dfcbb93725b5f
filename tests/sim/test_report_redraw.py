"""`sim report FOLDER` redraws a saved run's balance report staged like every report (sim.output.report.staged_dir): the
new page is written beside the folder and swapped in only when complete, so a failure or Ctrl-C midway leaves the
folder exactly as it was (one line, non-zero exit, no traceback); the run's own files go with it unchanged."""

from __future__ import annotations

import errno
import json
import os
import shutil
from pathlib import Path

import pytest
from _cli import one_error_line
from typer.testing import CliRunner

from sim.api import core as api
from sim.cli import common as cli_common
from sim.cli.main import EXIT_BAD_INPUT, EXIT_INTERRUPTED, app
from sim.model.scenario import load
from sim.pages import html_report

DATA = Path(__file__).resolve().parent.parent / "data"
cli = CliRunner()


@pytest.fixture(scope="module")
def saved(tmp_path_factory) -> Path:
    _, folder = api.run_scenario(
        load(DATA / "moor-2p-small.toml"), 500, out_dir=tmp_path_factory.mktemp("saved") / "rep"
    )
    return folder


@pytest.fixture
def rep(saved, tmp_path) -> Path:
    """A copy of the saved report, drawn by an "older version" (its page and memo differ from a redraw) and with a
    note of the user's in it."""
    folder = tmp_path / "rep"
    shutil.copytree(saved, folder)
    (folder / "summary.html").write_text("<html>an older drawing</html>\n")
    (folder / "balance.md").write_text("# an older memo\n")
    (folder / "plots" / "retired-plot.svg").write_text("<svg/>\n")
    (folder / "my-notes.txt").write_text("mine\n")
    return folder


def snapshot(folder: Path) -> dict[str, bytes]:
    """Every file under ``folder`` (relative path -> bytes), and every folder (-> None)."""
    return {str(p.relative_to(folder)): (p.read_bytes() if p.is_file() else None) for p in folder.rglob("*")}


def leftovers(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.parent.iterdir() if p.name.startswith("."))


@pytest.mark.kernel
def test_report_redraw_replaces_the_page_and_keeps_the_run_files_and_the_users(rep):
    before = snapshot(rep)
    r = cli.invoke(app, ["report", str(rep)])
    assert r.exit_code == 0, r.output
    after = snapshot(rep)
    for name in ("summary.json", "provenance.json", "summary.md", "my-notes.txt"):
        assert after[name] == before[name], name
    assert after["summary.html"] != before["summary.html"] and b"<svg" in after["summary.html"]
    assert after["balance.md"] != before["balance.md"]
    assert "plots/retired-plot.svg" not in after  # plots/ is drawn anew, not added to
    assert any(k.startswith("plots/") and k.endswith(".svg") for k in after)
    assert leftovers(rep) == []


@pytest.mark.kernel
@pytest.mark.parametrize(
    "exc,code,says",
    [
        (
            RuntimeError("a plot library bug"),
            EXIT_BAD_INPUT,
            "cannot draw its report (RuntimeError: a plot library bug)",
        ),
        (KeyError("seats"), EXIT_BAD_INPUT, "incomplete summary"),
        (OSError(errno.ENOSPC, "No space left on device"), EXIT_BAD_INPUT, "No space left on device"),
        (KeyboardInterrupt(), EXIT_INTERRUPTED, "interrupted (Ctrl-C): stopped; nothing half-written left"),
    ],
    ids=["error", "bad-summary", "disk-full", "ctrl-c"],
)
def test_report_redraw_that_fails_midway_leaves_the_old_folder_byte_identical(rep, monkeypatch, exc, code, says):
    """The page writer writes part of the page and a plot, then fails (or Ctrl-C lands): the folder keeps its
    complete old report byte for byte, no half-written file in it, no staging folder beside it, one line."""

    def half(folder, s):
        folder = Path(folder)
        (folder / "summary.html").write_text("<html><body><h1>half a pa")
        (folder / "plots").mkdir(exist_ok=True)
        (folder / "plots" / "win-rates.svg").write_text("<svg")
        raise exc

    monkeypatch.setattr(html_report, "write", half)
    monkeypatch.setattr(cli_common, "_STOP_SAID", [])
    before = snapshot(rep)
    r = cli.invoke(app, ["report", str(rep)])
    assert r.exit_code == code, r.output
    assert "Traceback" not in r.output
    lines = [ln for ln in r.stderr.splitlines() if ln.strip()]
    assert len(lines) == 1 and says in lines[0], r.stderr
    if code == EXIT_BAD_INPUT:
        assert lines[0].startswith("error: ") and str(rep) in lines[0]
    else:
        assert f"{rep} is as it was" in lines[0]
    assert snapshot(rep) == before
    assert leftovers(rep) == []


@pytest.mark.kernel
def test_report_redraw_of_an_incomplete_summary_leaves_the_folder_as_it_was(rep):
    s = json.loads((rep / "summary.json").read_text())
    del s["seats"][0]["win"]
    (rep / "summary.json").write_text(json.dumps(s))
    before = snapshot(rep)
    r = cli.invoke(app, ["report", str(rep)])
    assert r.exit_code == EXIT_BAD_INPUT
    line = one_error_line(r)
    assert "field seats[0].win: an object (wins, games, rate, ci95); it is missing" in line, line
    assert snapshot(rep) == before and leftovers(rep) == []


@pytest.mark.kernel
def test_report_redraw_into_out_is_a_whole_report_folder_and_can_be_redrawn_again(rep, tmp_path):
    """--out gets the run's files with the new page, so it is a report folder of its own (`sim report` and `sim
    rerun` read it; a second --out into it replaces it); the source folder is not touched."""
    before = snapshot(rep)
    out = tmp_path / "again"
    for _ in range(2):
        r = cli.invoke(app, ["report", str(rep), "--out", str(out)])
        assert r.exit_code == 0, r.output
    assert snapshot(rep) == before
    got = snapshot(out)
    for name in ("summary.json", "provenance.json", "summary.md"):
        assert got[name] == before[name], name
    assert b"<svg" in got["summary.html"] and "balance.md" in got and "my-notes.txt" not in got
    assert cli.invoke(app, ["report", str(out)]).exit_code == 0
    assert leftovers(out) == [] and leftovers(rep) == []


@pytest.mark.kernel
def test_report_redraw_from_inside_the_folder_is_refused_in_one_line(rep, monkeypatch):
    """The folder is swapped when complete, which cannot be done to the folder the shell is in: said, not done."""
    monkeypatch.chdir(rep)
    before = snapshot(rep)
    r = cli.invoke(app, ["report", "."])
    assert r.exit_code == EXIT_BAD_INPUT
    assert "from outside it" in one_error_line(r)
    assert snapshot(rep) == before
    monkeypatch.chdir(rep / "plots")  # one level further in: the same
    assert cli.invoke(app, ["report", ".."]).exit_code == EXIT_BAD_INPUT
    assert os.path.isdir(rep) and snapshot(rep) == before


SLOW_WRITER = """
import sys, time
from sim.pages import html_report
real = html_report.write
def slow(folder, s):
    real(folder, s)                 # the whole new page is in the staging folder...
    time.sleep(120)                 # ...and the signal comes before it is swapped in
html_report.write = slow
from sim.cli.main import main
sys.argv = ["sim", "report", sys.argv[1]]
main()
"""


@pytest.mark.kernel
@pytest.mark.parametrize(
    "sig,code,says", [("SIGINT", EXIT_INTERRUPTED, "interrupted (Ctrl-C)"), ("SIGTERM", 143, "terminated (SIGTERM)")]
)
def test_a_real_signal_during_report_redraw_leaves_the_old_folder_byte_identical(rep, sig, code, says):
    """A real Ctrl-C (or kill) to the `sim` process while it draws: exit 130 (143), one line, the folder as it was
    and no staging folder left."""
    import signal
    import subprocess
    import sys

    from _proc import REPO, _default_signals, wait_for

    before = snapshot(rep)
    proc = subprocess.Popen(
        [sys.executable, "-c", SLOW_WRITER, str(rep)],
        cwd=REPO,
        preexec_fn=_default_signals,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        assert wait_for(rep.parent, ".rep.partial-*/plots/*.svg", timeout=60), "the redraw never started"
        proc.send_signal(getattr(signal, sig))
        out, err = proc.communicate(timeout=60)
    finally:
        if proc.poll() is None:
            proc.kill()
        proc.wait(timeout=60)
    assert proc.returncode == code, err
    lines = [ln for ln in err.splitlines() if ln.strip()]
    assert len(lines) == 1 and lines[0].startswith(says) and f"{rep} is as it was" in lines[0], err
    assert out == "" and snapshot(rep) == before and leftovers(rep) == []


@pytest.mark.kernel
@pytest.mark.parametrize(
    "text, says",
    [
        ('{"seed": 1, "games": ', "provenance.json: not valid JSON ("),
        ("[1, 2]", "provenance.json: not a provenance.json written by sim run"),
        ('{"note": "mine"}', "provenance.json: not a provenance.json written by sim run"),
    ],
)
def test_report_redraw_refuses_a_damaged_provenance_in_one_line(rep, text, says, tmp_path):
    """`sim report FOLDER` carried a corrupt provenance.json into the redrawn report as if it were sound. It is a
    file error like a damaged summary.json: one line naming the file, exit 3, the folder as it was, no --out made."""
    (rep / "provenance.json").write_text(text)
    before = snapshot(rep)
    for out in ([], ["--out", str(tmp_path / "new")]):
        r = cli.invoke(app, ["report", str(rep), *out])
        line = one_error_line(r)
        assert r.exit_code == EXIT_BAD_INPUT and line.startswith(f"error: {rep / 'provenance.json'}: ") and says in line
        assert snapshot(rep) == before and leftovers(rep) == [] and not (tmp_path / "new").exists()


@pytest.mark.parametrize("kind", ["sweep", "ladder", "compare", "tune"])
def test_report_of_another_commands_folder_says_what_it_is(kind, tmp_path):
    """`sim report reports/sweep-moor-4p` said 'summary.json: no such file' (a fresh user); it names the folder's
    kind, its page and the command that draws it again, in one line, exit 3."""
    folder = tmp_path / f"{kind}-x"
    folder.mkdir()
    (folder / f"{kind}.json").write_text("{}")
    r = cli.invoke(app, ["report", str(folder)])
    line = one_error_line(r)
    assert r.exit_code == EXIT_BAD_INPUT, r.output
    assert line.startswith(f"error: {folder}: the folder of a {kind} (its page is {kind}.html"), line
    assert f"run the {kind} command again" in line and "no such file" not in line


@pytest.mark.kernel
@pytest.mark.parametrize(
    "corrupt, says",
    [
        (lambda s: s["seats"][1]["win"].update(rate="abc"), "field seats[1].win.rate: a share from 0 to 1; got 'abc'"),
        (lambda s: s["games"].update(finished="12"), "field games.finished: a whole number, 0 or more; got '12'"),
        (lambda s: s.update(seats={}), "field seats: a list of seat objects; got an object"),
        (lambda s: s["scenario"].update(players=3), "field seats: one object per seat (3, scenario.players); got 2"),
        (lambda s: s["seats"][0]["win"].update(ci95=[0.5]), "field seats[0].win.ci95: two shares [low, high]"),
        (lambda s: s.update(arc=[1]), "field arc: an object, or null for a run without the game's arc; got a list"),
        (lambda s: s["scenario"].update(game="chess"), "field scenario.game: unknown game 'chess'; allowed: "),
    ],
)
def test_report_redraw_of_a_corrupt_summary_names_the_field_and_what_it_takes(rep, corrupt, says):
    """A field of the wrong type gave a Python TypeError text ("incomplete summary ... (TypeError: ...)"): now one
    line names the field, what is allowed there and what the file holds; exit 3, the folder as it was."""
    s = json.loads((rep / "summary.json").read_text())
    corrupt(s)
    (rep / "summary.json").write_text(json.dumps(s))
    before = snapshot(rep)
    r = cli.invoke(app, ["report", str(rep)])
    line = one_error_line(r)
    assert r.exit_code == EXIT_BAD_INPUT and line.startswith(f"error: {rep / 'summary.json'}: ") and says in line, line
    assert "Error" not in line and snapshot(rep) == before
