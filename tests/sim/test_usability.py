"""What a new user ran into: rerunning `sim compare`, Ctrl-C during it, two scenario files with one name, `sim check`
on a scenario of one's own, and error lines that name the field, show values as TOML writes them and say what is
allowed (one line, no traceback)."""

from __future__ import annotations

import json
import os
import pty
import re
import signal
import subprocess
import time
from pathlib import Path

import pytest
from _proc import progress_line, sim_process
from typer.testing import CliRunner

from sim.cli.main import EXIT_BAD_INPUT, EXIT_INTERRUPTED, EXIT_USAGE, app
from tests.sim._cli import one_error_line

REPO = Path(__file__).resolve().parents[2]
DATA = REPO / "tests" / "data"
BASE = DATA / "moor-2p-small.toml"
GHOSTS = DATA / "moor-2p-ghosts.toml"
cli = CliRunner()

MOOR = """
[scenario]
name = "t"
game = "moor"
players = 2
games = 200
seed = 5
[[seats]]
strategy = "random"
[[seats]]
strategy = "weighted"
"""

TH = """
[scenario]
name = "th"
game = "treasure_hunters"
players = 4
games = 50
[params]
mode = "basic"
[[seats]]
strategy = "busters"
[[seats]]
strategy = "busters"
[[seats]]
strategy = "busters"
[[seats]]
strategy = "busters"
"""


def write(folder: Path, text: str, name: str = "s.toml") -> Path:
    p = folder / name
    p.parent.mkdir(parents=True, exist_ok=True)
    p.write_text(text)
    return p


# --- 1. sim compare can be rerun ------------------------------------------------------------------------------------


@pytest.mark.kernel
def test_compare_can_be_rerun_on_the_same_pair_and_still_refuses_a_folder_of_other_things(tmp_path):
    out = tmp_path / "c"
    for games in (500, 600):
        r = cli.invoke(app, ["compare", str(BASE), str(GHOSTS), "--games", str(games), "--json", "--out", str(out)])
        assert r.exit_code == 0, r.output
        assert json.loads((out / "compare.json").read_text())["games"] == games
    precious = tmp_path / "precious"
    precious.mkdir()
    (precious / "notes.txt").write_text("keep me")
    r = cli.invoke(app, ["compare", str(BASE), str(GHOSTS), "--games", "500", "--out", str(precious)])
    assert r.exit_code == EXIT_BAD_INPUT and "not a report folder" in one_error_line(r)
    assert [p.name for p in precious.iterdir()] == ["notes.txt"] and (precious / "notes.txt").read_text() == "keep me"


# --- 2. Ctrl-C during sim compare says so in one line -------------------------------------------------------------


def _big_pair(tmp_path: Path) -> tuple[Path, Path]:
    a = write(tmp_path, MOOR.replace("games = 200", "games = 50000000"), "a.toml")
    b = write(
        tmp_path,
        MOOR.replace("games = 200", "games = 50000000").replace('name = "t"', 'name = "u"')
        + "[params]\nghost_values = [1, 2, 3, 4, 5, 9, 12]\n",
        "b.toml",
    )
    return a, b


def _loading_kernels(pid: int) -> bool:
    """Whether process ``pid`` has loaded llvmlite: it is past start-up, compiling or loading the kernels or
    playing (Linux: /proc/PID/maps)."""
    try:
        return "llvmlite" in Path(f"/proc/{pid}/maps").read_text()
    except OSError:
        return False


def _drain(fd: int, chunks: list[bytes], until, deadline: float) -> None:
    """Read what ``fd`` gives into ``chunks`` until ``until()`` holds or ``deadline`` (time.monotonic) passes."""
    import select

    while time.monotonic() < deadline and not until():
        ready, _, _ = select.select([fd], [], [], 0.1)
        if ready:
            try:
                data = os.read(fd, 65536)
            except OSError:
                return
            if not data:
                return
            chunks.append(data)


@pytest.mark.kernel
@pytest.mark.parametrize("terminal", [False, True], ids=["stderr-piped", "stderr-terminal"])
def test_ctrl_c_during_compare_prints_one_line_and_exits_130(tmp_path, terminal):
    """A real SIGINT to `sim compare` while it compiles or plays: exit 130, one 'interrupted' line, no traceback, no
    folder. On a terminal (progress bar shown) Ctrl-C used to end `sim compare` with nothing said. The signal is
    sent as soon as the process is loading the kernels (polled, not a fixed sleep)."""
    a, b = _big_pair(tmp_path)
    out = tmp_path / "cmp"
    master, slave = pty.openpty() if terminal else os.pipe()  # (read end, the child's stderr)
    spawn = sim_process(
        ["compare", str(a), str(b), "--out", str(out), "--chunk", "20000"], stdout=subprocess.DEVNULL, stderr=slave
    )
    proc = spawn.__enter__()
    os.close(slave)
    chunks: list[bytes] = []
    try:
        _drain(master, chunks, lambda: _loading_kernels(proc.pid), time.monotonic() + 120)
        assert _loading_kernels(proc.pid), "sim compare never got as far as its kernels"
        proc.send_signal(signal.SIGINT)
        _drain(master, chunks, lambda: proc.poll() is not None, time.monotonic() + 90)
        proc.wait(timeout=90)
        _drain(master, chunks, lambda: False, time.monotonic() + 1)
    finally:
        os.close(master)
        spawn.__exit__(None, None, None)
    err = b"".join(chunks).decode("utf-8", "replace")
    assert proc.returncode == EXIT_INTERRUPTED, err
    assert "Traceback" not in err
    if not terminal:  # a terminal's progress bar redraws itself; off a terminal the stop is the one line
        # (a run this long may first say how long it would take: the estimate line of runs over 10 minutes)
        lines = [ln for ln in err.splitlines() if ln.strip() and not progress_line(ln)]
        assert len(lines) == 1 and lines[0].startswith("interrupted"), err
    assert "interrupted" in err
    assert not out.exists() and not any(tmp_path.glob(".cmp*"))


# --- 3. two scenario files with one name ---------------------------------------------------------------------------


@pytest.mark.kernel
def test_a_second_file_with_the_same_name_warns_when_it_replaces_the_first_ones_report(tmp_path):
    one = write(tmp_path / "one", MOOR)
    two = write(tmp_path / "two", MOOR.replace("seed = 5", "seed = 6"))
    out = tmp_path / "reports" / "t"
    r = cli.invoke(app, ["run", str(one), "--out", str(out), "--games", "20"])
    assert r.exit_code == 0 and "warning" not in r.stderr, r.output
    r = cli.invoke(app, ["run", str(one), "--out", str(out), "--games", "20"])  # a rerun of the same file: silent
    assert r.exit_code == 0 and "warning" not in r.stderr, r.output
    r = cli.invoke(app, ["run", str(two), "--out", str(out), "--games", "20"])  # another file, same name: one line
    assert r.exit_code == 0, r.output
    warn = [ln for ln in r.stderr.splitlines() if ln.startswith("warning:")]
    assert len(warn) == 1, r.stderr
    assert str(one.resolve()) in warn[0] and str(two) in warn[0] and "'t'" in warn[0]
    prov = json.loads((out / "provenance.json").read_text())
    assert prov["scenario_path"] == str(two.resolve())  # replaced (not refused)
    r = cli.invoke(app, ["report", str(one), "--out", str(out), "--games", "20"])  # `sim report FILE` too
    assert r.exit_code == 0 and str(two.resolve()) in r.stderr and "warning:" in r.stderr


# --- 4. sim check on a scenario of one's own; --game of no game ----------------------------------------------------


@pytest.mark.kernel
def test_check_of_an_own_scenario_without_baseline_says_sim_baselines_file(tmp_path):
    mine = write(tmp_path, MOOR, "my.toml")
    r = cli.invoke(app, ["check", str(mine)])
    assert r.exit_code == EXIT_BAD_INPUT
    line = one_error_line(r)
    assert f"`sim baselines {mine}`" in line and "no baseline" in line
    r = cli.invoke(app, ["check", str(mine), "--baselines", str(tmp_path / "b")])
    assert f"`sim baselines {mine} --out {tmp_path / 'b'}`" in one_error_line(r)
    # and that is what works: made with that command, the check finds it
    r = cli.invoke(
        app,
        [
            "baselines",
            str(mine),
            "--out",
            str(tmp_path / "b"),
            "--exact-games",
            "200",
            "--stat-games",
            "400",
            "--check-games",
            "200",
        ],
    )
    assert r.exit_code == 0, r.output
    r = cli.invoke(app, ["check", str(mine), "--baselines", str(tmp_path / "b"), "--tier", "exact"])
    assert r.exit_code == 0, r.output


@pytest.mark.parametrize("command", ["check", "baselines", "run-defaults", "list"])
def test_unknown_game_is_a_usage_error_naming_the_games(command):
    args = [command, "chess"] if command == "list" else [command, "--game", "chess"]
    r = cli.invoke(app, args)
    assert r.exit_code == EXIT_USAGE, r.output
    field = "GAME" if command == "list" else "--game"
    assert (
        one_error_line(r) == f"error: {field}: unknown game 'chess'; allowed: galleon, moor, treasure_hunters, turnwall"
    )


# --- 5. messages ------------------------------------------------------------------------------------------------------


def _error(tmp_path, text, name="s.toml") -> str:
    r = cli.invoke(app, ["run", str(write(tmp_path, text, name)), "--out", str(tmp_path / "rep")])
    assert r.exit_code == EXIT_BAD_INPUT, r.output
    assert not (tmp_path / "rep").exists()
    return one_error_line(r)


@pytest.mark.kernel
def test_values_are_shown_as_toml_writes_them(tmp_path):
    line = _error(tmp_path, MOOR + "[params]\ntiebreak = true\n")
    assert line.startswith("error: ") and "params.tiebreak" in line and "true" in line and "True" not in line
    assert "allowed: rulebook, shared" in line and 'tiebreak = "rulebook"' in line
    line = _error(tmp_path, MOOR + '[params]\nghost_before_two = "yes"\n')
    assert 'params.ghost_before_two: expected true or false, got string "yes"' in line


@pytest.mark.kernel
def test_list_shows_defaults_and_choices_as_toml():
    r = cli.invoke(app, ["list", "moor"])
    assert r.exit_code == 0
    assert 'tiebreak = "rulebook"  [choice: "rulebook" | "shared"]' in r.stdout
    assert "planks_discardable = true  [bool: true | false]" in r.stdout
    assert "ghost_values = [1, 2, 3, 4, 5, 6, 7]" in r.stdout
    assert "True" not in r.stdout and "'rulebook'" not in r.stdout
    r = cli.invoke(app, ["list", "treasure_hunters"])
    assert 'mode = "basic"' in r.stdout and "reroll_cards = true" in r.stdout


@pytest.mark.kernel
def test_an_infinite_number_is_called_what_it_is(tmp_path):
    line = _error(tmp_path, MOOR.replace('strategy = "weighted"', 'strategy = "weighted"\nparams = { w_goal = 1e400 }'))
    assert "seats[1].params.w_goal: must be a finite number in -100.0..100.0, got inf" in line
    assert "expected a number, got number" not in line


@pytest.mark.kernel
def test_move_die_alone_is_named_with_the_constraint_it_breaks(tmp_path):
    line = _error(tmp_path, TH.replace('mode = "basic"', 'mode = "basic"\nmove_die = [1, 2, 3]'))
    assert line.startswith("error: ") and "params.move_die:" in line and "params.move_die_ghost:" not in line
    assert "move_die_ghost" in line and "one 0/1 flag per move_die face" in line and "3 flags" in line
    line = _error(tmp_path, TH.replace('mode = "basic"', 'mode = "basic"\nmove_die_ghost = [1, 1]'))
    assert "params.move_die_ghost: needs one flag per move_die face (6), got 2" in line and "same length" in line


@pytest.mark.kernel
def test_a_head_haunter_strategy_at_a_hunter_seat_says_whose_it_is(tmp_path):
    line = _error(tmp_path, TH.replace('strategy = "busters"', 'strategy = "haunter_builder"', 1))
    assert "seats[0].strategy:" in line and "'haunter_builder' is a Head Haunter strategy" in line
    assert "allowed: passive, random, runners, busters, weighted" in line and 'mode = "head_haunter"' in line
    hh = TH.replace('mode = "basic"', 'mode = "head_haunter"').replace(
        'strategy = "busters"', 'strategy = "haunter_builder"', 1
    )
    line = _error(tmp_path, hh.replace('strategy = "busters"', 'strategy = "haunter_trapper"', 1))
    assert "seats[1].strategy:" in line and "Head Haunter strategy, for seat 0 of this scenario" in line
    line = _error(tmp_path, TH.replace('strategy = "busters"', 'strategy = "genius"', 1))
    assert "unknown hunter strategy 'genius'; allowed: passive" in line and "is a" not in line


@pytest.mark.kernel
def test_a_name_taken_from_the_file_name_says_so_and_how_to_fix_it(tmp_path):
    line = _error(tmp_path, MOOR.replace('name = "t"\n', ""), "my scen2.toml")
    assert 'scenario.name: "my scen2", taken from the file name' in line
    assert 'add name = "my-scen2" under [scenario] or rename the file' in line
    line = _error(tmp_path, MOOR.replace('name = "t"', 'name = "a b"'))  # a name given: as before
    assert 'scenario.name: "a b" is not allowed' in line and "file name" not in line


@pytest.mark.parametrize(
    "args,expect",
    [
        (["run", "X", "--games", "abc"], "error: --games: 'abc' is not a whole number"),
        (["run", "X", "--bogus"], "error: No such option: --bogus"),
        (["bogus"], "error: No such command 'bogus'"),
        (["replay"], "error: Missing argument 'SCENARIO'"),
        (["compare", "X"], "error: missing scenario B"),  # B may be left out with --set-b (A changed so)
    ],
)
def test_usage_errors_are_one_line(tmp_path, args, expect):
    args = [str(write(tmp_path, MOOR)) if a == "X" else a for a in args]
    r = cli.invoke(app, args)
    assert r.exit_code == EXIT_USAGE, r.output
    line = one_error_line(r)
    assert line.startswith(expect) and re.search(r"\(see \S+( \S+)? --help\)$", line), line
    assert "╭" not in r.output and "Usage:" not in r.output


def test_an_option_given_last_without_its_value_names_the_command_s_help(tmp_path):
    """Click raises "requires an argument" without the command's context: the line still names `sim run --help`
    (it said `sim --help`, a fresh user's find)."""
    r = cli.invoke(app, ["run", str(write(tmp_path, MOOR)), "--games"])
    assert r.exit_code == EXIT_USAGE, r.output
    line = one_error_line(r)
    assert line == "error: Option '--games' requires an argument (see sim run --help)", line


def test_no_arguments_still_prints_the_help():
    r = cli.invoke(app, [])
    assert "Usage" in r.output and "compare" in r.output


def test_usage_lines_name_arguments_in_plain_words():
    """`sim ladder --help` read 'Usage: sim ladder [OPTIONS] {game}' and compare '{a} [b]' (Typer's placeholders,
    a fresh user's find): every command's usage line names its arguments in capitals, optional ones in brackets."""
    import re

    import typer

    from sim.cli.main import app

    group = typer.main.get_command(app)
    paths = [[n] for n in group.commands if n != "board"] + [["board", "show"]]
    usage = {}
    for path in paths:
        out = CliRunner().invoke(app, [*path, "--help"], prog_name="sim", terminal_width=200).output
        usage[" ".join(path)] = re.search(r"Usage: (.*)", out).group(1).strip()
    assert all("{" not in u and "}" not in u for u in usage.values()), usage
    assert usage["ladder"] == "sim ladder [OPTIONS] GAME"
    assert usage["compare"] == "sim compare [OPTIONS] A [B]"
    assert usage["check"] == "sim check [OPTIONS] [SCENARIOS]..."
    assert usage["list"] == "sim list [OPTIONS] [GAME]"
    assert usage["board show"] == "sim board show [OPTIONS] FILE"


@pytest.mark.parametrize(
    "args, said",
    [
        (["run", ""], "error: SCENARIO: '' is empty; give a path"),
        (["compare", str(BASE), " "], "error: B: ' ' is empty; give a path"),
        (["run", str(BASE), "--out", ""], "error: --out: '' is empty; give a path"),
    ],
)
def test_an_empty_path_is_named_as_given_not_as_the_current_folder(args, said):
    """`sim run ""` said "error: .: is a folder" (Typer reads "" as the path "."): the line names the argument and the
    empty value; the Python API names the scenario file."""
    r = cli.invoke(app, args)
    assert r.exit_code == EXIT_USAGE and one_error_line(r).split(" (see ")[0] == said
    from sim.model.scenario import ScenarioError, load

    with pytest.raises(ScenarioError, match=r"^scenario file: '' is empty; give a \.toml scenario file"):
        load("")
