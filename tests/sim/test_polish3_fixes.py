"""What a new user hit on a fresh clone (polish round 3), one test per fix:

1. `sim run galleon/4p.toml --games 200 | cat` said "200 games in 4.8 s, 42 games/s" while provenance.json said 0.091 s:
   the time held writing the report pages and plots. The games line counts the games only and says "writing the
   report ..." with its time apart (piped and on a terminal; sweeps likewise: "writing the sweep ...").
2. Ctrl-C always said "stopped between chunks", also while compiling, writing the report or waiting.
3. `sim sweep --mode zip` refused a value repeated within one axis ('value "weighted" is given twice'); in zip mode
   only a repeated point is a duplicate (grid mode still refuses a repeated value).
4. `sim sweep --help` read "scenario TOML file (its  table, if any)": Rich ate "[sweep]" (and "[step S]") as markup.
5. `--set 'name="index.html"'` said "--out: .../reports/index.html is a file" (no --out was given); a 300-character
   name was told to "use letters, digits ..." (its length was the problem); `.hidden` and `.moor-4p.partial-99999`
   were taken (a hidden folder, or one that looks like a run's staging folder).
6. `sim board show scenarios/galleon/boards/default.toml` drew its title "candidate: 80 spaces (UNVERIFIED ...)"
   with its baseline 8 px below the top edge in a 10 px font: Chromium cut its top (Turnwall and Treasure Hunters
   were as tight).
7. `sim list | head -1` exited 1 (click's broken-pipe exit); `--out /tmp/afile/sub` with /tmp/afile a plain file
   said "cannot create /tmp/afile (File exists)"; `sim replay` with an empty kernel cache was silent ~17 s.
"""
from __future__ import annotations

import io
import re

from typer.testing import CliRunner

from sim.cli.main import EXIT_USAGE, app
from tests.sim._cli import one_error_line

cli = CliRunner()


# --- 1. games/s counts the games, the report's writing is said apart ---------------------------------------------------

def test_games_line_counts_the_games_only_and_says_the_report_is_written():
    from sim.play import progress as PG
    now, buf = [0.0], io.StringIO()
    with PG.Lines(200, "galleon-4p", buf, clock=lambda: now[0]) as lines:
        for _ in range(2):
            now[0] += 0.05
            lines.advance(100)
        lines.played()
        now[0] += 4.7                           # pages and plots (said as they are written: the next test)
    assert buf.getvalue() == ("galleon-4p: 200 games in 0.1 s, 2,000 games/s\n"
                              "galleon-4p: writing the report ... 4.7 s\n")


def test_writing_the_report_is_said_while_it_runs_and_ended_when_stopped(monkeypatch):
    import time

    from sim.play import progress as PG
    monkeypatch.setattr(PG, "STEP_SAID_S", 0.01)
    now, buf = [0.0], io.StringIO()
    try:
        with PG.Lines(10, "moor-4p", buf, clock=lambda: now[0]) as lines:
            now[0] += 1
            lines.advance(10)
            lines.played()
            time.sleep(0.5)                     # a slow report: the step is said while it runs
            assert buf.getvalue() == "moor-4p: 10 games in 1.0 s, 10 games/s\nmoor-4p: writing the report ..."
            raise KeyboardInterrupt
    except KeyboardInterrupt:
        pass
    assert buf.getvalue().endswith("moor-4p: writing the report ... stopped\n")


def test_a_report_failing_at_once_leaves_no_progress_line():
    from sim.play import progress as PG
    now, buf = [0.0], io.StringIO()
    try:
        with PG.Lines(10, "moor-4p", buf, clock=lambda: now[0]) as lines:
            lines.advance(10)
            lines.played()
            raise OSError("No space left on device")
    except OSError:
        pass
    assert buf.getvalue() == ""                 # the command's error is its one line


def test_sim_run_says_games_per_second_of_the_games_and_the_report_apart(tmp_path):
    import json
    r = cli.invoke(app, ["run", "scenarios/moor/4p.toml", "--games", "64", "--out", str(tmp_path / "r")])
    assert r.exit_code == 0, r.output
    m = re.search(r"^moor-4p: 64 games in ([\d.]+) s, [\d,]+ games/s\nmoor-4p: writing the report \.\.\. [\d.]+ s$",
                  r.stderr, re.M)
    assert m, r.stderr
    wall = json.loads((tmp_path / "r" / "provenance.json").read_text())["wall_time_s"]
    assert float(m.group(1)) <= wall + 0.2      # the games' time, not the pages' and plots'


def test_sweep_says_games_per_second_of_the_games_and_the_sweep_apart(tmp_path):
    r = cli.invoke(app, ["sweep", "scenarios/moor/4p.toml", "--set", "seats.0.strategy=collector,random",
                         "--games", "32", "--out", str(tmp_path / "s")])
    assert r.exit_code == 0, r.output
    assert re.search(r"^sweep (\S+): 64 games in [\d.]+ s, .*\nsweep \1: writing the sweep \.\.\. [\d.]+ s$", r.stderr,
                     re.M), r.stderr


# --- 2. the interrupt line says what is true wherever it comes ---------------------------------------------------------

def test_interrupt_line_does_not_claim_between_chunks(capsys):
    from sim.cli import common as cli_common
    cli_common._STOP_SAID.clear()
    try:
        assert cli_common._stopped(KeyboardInterrupt()) == cli_common.EXIT_INTERRUPTED
    finally:
        cli_common._STOP_SAID.clear()
    err = capsys.readouterr().err
    assert err.startswith("interrupted (Ctrl-C): stopped; nothing half-written left"), err
    assert "between chunks" not in err


# --- 3. zip mode: a value may repeat within an axis, a point may not ---------------------------------------------------

def test_zip_mode_takes_a_value_repeated_within_an_axis():
    from sim.api.sweep import build
    sw = build("scenarios/treasure_hunters/basic-4p.toml",
               ["mode=basic,head_haunter,advanced", "seats.0.strategy=weighted,haunter_builder,weighted"], "zip", 16)
    assert [p.values["seats.0.strategy"] for p in sw.points] == ["weighted", "haunter_builder", "weighted"]


def test_zip_mode_refuses_a_repeated_point():
    r = cli.invoke(app, ["sweep", "scenarios/treasure_hunters/basic-4p.toml", "--set", "mode=basic,head_haunter,basic",
                         "--set", "seats.0.strategy=weighted,haunter_builder,weighted", "--mode", "zip",
                         "--games", "16"])
    assert r.exit_code == EXIT_USAGE
    assert "point 3" in one_error_line(r) and "is point 1 again" in r.stderr


def test_grid_mode_still_refuses_a_value_given_twice():
    r = cli.invoke(app, ["sweep", "scenarios/treasure_hunters/basic-4p.toml", "--set", "mode=basic,basic",
                         "--games", "16"])
    assert r.exit_code == EXIT_USAGE
    assert 'value "basic" is given twice' in one_error_line(r)


# --- 4. help texts keep their brackets ---------------------------------------------------------------------------------

def test_sweep_help_keeps_sweep_table_and_step_in_brackets():
    r = cli.invoke(app, ["sweep", "--help"], env={"COLUMNS": "250"})
    assert r.exit_code == 0
    assert "(its [sweep] table, if any)" in r.output
    assert "(default: [sweep] games" in r.output
    assert "LO..HI [step S]" in r.output


def test_every_bracketed_word_of_every_help_text_is_shown():
    from typer.main import get_command

    def walk(g, path):
        for n, c in getattr(g, "commands", {}).items():
            yield path + [n], c
            yield from walk(c, path + [n])
    for path, c in walk(get_command(app), []):
        texts = [c.help or ""] + [getattr(p, "help", None) or "" for p in c.params]
        want = [m.replace("\\[", "[") for t in texts for m in re.findall(r"\\?\[[^\]\n]*\]", t)]
        if want:
            out = cli.invoke(app, path + ["--help"], env={"COLUMNS": "400"}).output
            for w in want:
                assert w in out, (path, w)


# --- 5. scenario names: the reports index, the length limit, a leading '.' ---------------------------------------------

def _name_error(name: str) -> str:
    r = cli.invoke(app, ["run", "scenarios/moor/4p.toml", "--games", "8", "--set", f"name={name}"])
    assert r.exit_code == EXIT_USAGE, r.output
    return one_error_line(r)


def test_name_index_html_is_refused_as_the_reports_index():
    line = _name_error('"index.html"')
    assert "scenario.name" in line and "--out" not in line and "index of the reports" in line


def test_name_too_long_says_the_length_limit():
    line = _name_error("a" * 300)
    assert "scenario.name" in line and "300 characters; at most 100" in line and "use letters" not in line
    assert len(line) < 300                      # the name is not echoed whole


def test_name_starting_with_a_dot_is_refused():
    for name in ('".hidden"', '".moor-4p.partial-99999"'):
        line = _name_error(name)
        assert "scenario.name" in line and "starting with '.'" in line


def test_name_from_a_file_named_index_html_gets_another_name_offered(tmp_path):
    import pytest

    from sim.model.scenario import ScenarioError, load
    f = tmp_path / "index.html.toml"
    f.write_text(open("scenarios/moor/4p.toml").read().replace('name = "moor-4p"', ""))
    with pytest.raises(ScenarioError, match='add name = "my-scenario"'):
        load(f)


# --- 6. board drawings: room above the title -----------------------------------------------------------------------------

def test_board_titles_have_room_above_them():
    from sim.pages import board_svg
    for game in ("galleon", "turnwall", "treasure_hunters"):
        _, svg = board_svg.show(f"scenarios/{game}/boards/default.toml")
        m = re.search(r'<text style="font-size: ([\d.]+)px[^>]*? y="([\d.]+)"[^>]*>candidate: ', svg)
        assert m, game
        size, y = float(m.group(1)), float(m.group(2))
        assert y >= 1.5 * size, f"{game}: title baseline {y} px below the top in a {size} px font"


# --- 7. a closed pipe, a file in the --out path, a slow first replay ------------------------------------------------------

def test_a_closed_output_pipe_ends_quietly_with_exit_0(monkeypatch, capsys):
    import errno
    import sys

    import pytest

    from sim.cli import main as C

    class Closed(io.StringIO):
        def write(self, s):
            raise BrokenPipeError(errno.EPIPE, "Broken pipe")

        def flush(self):
            raise BrokenPipeError(errno.EPIPE, "Broken pipe")
    monkeypatch.setattr(sys, "argv", ["sim", "list"])
    monkeypatch.setattr(sys, "stdout", Closed())
    with pytest.raises(SystemExit) as e:
        C.main()
    assert e.value.code == 0
    assert capsys.readouterr().err == ""


def test_out_below_a_plain_file_says_the_file_is_not_a_folder(tmp_path):
    (tmp_path / "afile").write_text("x")
    r = cli.invoke(app, ["run", "scenarios/moor/4p.toml", "--games", "8", "--out", str(tmp_path / "afile" / "sub")])
    assert r.exit_code == 3
    assert one_error_line(r) == f"error: --out: {tmp_path / 'afile'} is a file, not a folder; give a folder for the report"
    r = cli.invoke(app, ["sweep", "scenarios/moor/4p.toml", "--set", "seats.0.strategy=collector,random", "--games", "8",
                         "--out", str(tmp_path / "afile" / "sub")])
    assert r.exit_code == 3
    assert f"{tmp_path / 'afile'} is a file, not a folder" in one_error_line(r)


def test_a_slow_step_is_said_and_a_quick_one_is_not():
    import time

    from sim.play import progress as PG
    buf = io.StringIO()
    with PG.said_if_slow("compiling ...", 0.05, buf):
        time.sleep(0.5)                         # the replay kernel compiling
    assert buf.getvalue() == "compiling ...\n"
    buf = io.StringIO()
    with PG.said_if_slow("compiling ...", 5.0, buf):
        pass
    time.sleep(0.1)
    assert buf.getvalue() == ""
