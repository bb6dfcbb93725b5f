"""The CLI through Typer's CliRunner, and bad input: one clear line, non-zero exit, no traceback, no report."""

from __future__ import annotations

import inspect
import json
import re
import signal
import subprocess
import sys
from pathlib import Path

import pytest
from _proc import progress_line, sim_process, wait_for
from typer.testing import CliRunner

from sim.api import core as api
from sim.cli.main import EXIT_BAD_INPUT, EXIT_INTERRUPTED, EXIT_USAGE, app
from sim.model.scenario import load
from tests.sim._cli import one_error_line

REPO = Path(__file__).resolve().parents[2]
cli = CliRunner()

GOOD = """
[scenario]
name = "t"
game = "moor"
players = 3
games = 300
seed = 5
[[seats]]
strategy = "random"
[[seats]]
strategy = "collector"
[[seats]]
strategy = "weighted"
params = { w_goal = 2.0 }
"""


def write(tmp_path, text, name="s.toml"):
    p = tmp_path / name
    p.write_text(text)
    return p


@pytest.mark.kernel
def test_run_writes_report_and_json(tmp_path):
    out = tmp_path / "rep"
    r = cli.invoke(app, ["run", str(write(tmp_path, GOOD)), "--out", str(out), "--json", "--per-game"])
    assert r.exit_code == 0, r.output
    s = json.loads(r.stdout[r.stdout.index("{") :])
    assert s["games"]["played"] == 300
    for f in ("summary.json", "summary.md", "provenance.json", "games.parquet"):
        assert (out / f).exists(), f
    import polars as pl

    df = pl.read_parquet(out / "games.parquet")
    assert df.height == 300 and df["game"].to_list() == list(range(300))
    assert int(df["win_seat0"].sum()) == s["seats"][0]["sole_wins"]
    prov = json.loads((out / "provenance.json").read_text())
    for k in ("seed", "games", "rules_version", "rng_contract", "packages", "git_commit", "wall_time_s"):
        assert k in prov


@pytest.mark.kernel
def test_replay_matches_batch(tmp_path):
    p = write(tmp_path, GOOD)
    r = cli.invoke(app, ["run", str(p), "--out", str(tmp_path / "rep"), "--per-game", "--games", "20"])
    assert r.exit_code == 0
    import polars as pl

    df = pl.read_parquet(tmp_path / "rep" / "games.parquet")
    for g in (0, 7, 19):
        r = cli.invoke(app, ["replay", str(p), "--game", str(g)])
        assert r.exit_code == 0
        final = [ln for ln in r.stdout.splitlines() if ln.startswith("final after")][0]
        row = df.row(g, named=True)
        assert f"after {row['turns']} turns" in final
        for s in range(3):
            assert f"seat {s} {row[f'score_seat{s}']}" in final


@pytest.mark.kernel
def test_list_shows_games_params_strategies():
    r = cli.invoke(app, ["list"])
    assert r.exit_code == 0
    for word in (
        "moor",
        "track_len",
        "ghost_values",
        "discard_fallback",
        "collector",
        "runner",
        "cautious",
        "weighted",
        "random",
        "w_goal",
    ):
        assert word in r.stdout


BAD = [
    ("unknown key", GOOD.replace("seed = 5", 'seed = 5\ncolour = "red"'), "scenario: unknown key 'colour'"),
    ("wrong type", GOOD.replace("players = 3", 'players = "three"'), "scenario.players: expected an integer"),
    ("six players", GOOD.replace("players = 3", "players = 6"), "scenario.players: 6 is out of range"),
    ("one player", GOOD.replace("players = 3", "players = 1"), "allowed 2..5"),
    ("short track", GOOD + "[params]\ntrack_len = 10\n", "params.track_len: 10 is out of range; allowed 19"),
    ("negative value", GOOD + "[params]\nghost_values = [1, 2, -3, 4, 5, 6, 7]\n", "params.ghost_values[2]"),
    ("unknown param", GOOD + "[params]\nboard_size = 3\n", "params: unknown key 'board_size'"),
    ("unknown strategy", GOOD.replace('"collector"', '"genius"'), "unknown player strategy 'genius'"),
    ("unknown strategy param", GOOD.replace("w_goal", "w_luck"), "unknown key 'w_luck'"),
    (
        "param for paramless strategy",
        GOOD.replace('strategy = "random"', 'strategy = "random"\nparams = {x = 1}'),
        "takes no parameters",
    ),
    ("bad choice", GOOD + '[params]\ndiscard_fallback = "burn"\n', "allowed: remove, ignore_pawns"),
    ("wrong list length", GOOD + "[params]\ngoal_values = [1, 2]\n", "needs exactly 5"),
    ("seat count", GOOD.replace("players = 3", "players = 4"), "3 seats for players = 4"),
    ("broken toml", "[scenario\ngame=", "not valid TOML"),
    ("unknown game", GOOD.replace('"moor"', '"chess"'), "unknown game 'chess'"),
]


@pytest.mark.kernel
@pytest.mark.parametrize("label,text,expect", BAD, ids=[b[0] for b in BAD])
def test_bad_scenario_one_clear_line(tmp_path, label, text, expect):
    out = tmp_path / "rep"
    r = cli.invoke(app, ["run", str(write(tmp_path, text)), "--out", str(out)])
    assert r.exit_code == EXIT_BAD_INPUT
    assert "Traceback" not in r.output
    lines = [ln for ln in r.stderr.splitlines() if ln.strip()]
    assert len(lines) == 1 and lines[0].startswith("error: "), r.stderr
    assert expect in lines[0]
    assert not out.exists()


def test_missing_file(tmp_path):
    r = cli.invoke(app, ["run", str(tmp_path / "nope.toml")])
    assert r.exit_code == EXIT_BAD_INPUT and "no such scenario file" in r.stderr


def test_wrong_type_of_option_value_is_named_in_plain_words(tmp_path):
    """`--games abc` says the value is not a whole number, in one line naming the option and the value given."""
    p = write(tmp_path, GOOD)
    for args, want in (
        (["--games", "abc"], "--games: 'abc' is not a whole number"),
        (["--threads=two"], "--threads: 'two' is not a whole number"),
    ):
        r = cli.invoke(app, ["run", str(p), "--out", str(tmp_path / "r"), *args])
        assert r.exit_code == EXIT_USAGE
        assert want in one_error_line(r)
        assert "Input should be" not in r.output


def test_bad_option_values(tmp_path):
    p = write(tmp_path, GOOD)
    for args in (["--games", "0"], ["--threads", "0"], ["--chunk", "-5"], ["--seed", "-1"]):
        r = cli.invoke(app, ["run", str(p), "--out", str(tmp_path / "r")] + args)
        assert r.exit_code == 2 and "Traceback" not in r.output, args
        assert not (tmp_path / "r").exists()


@pytest.mark.kernel
def test_interrupt_leaves_no_report(tmp_path, monkeypatch):
    """Ctrl-C between chunks: KeyboardInterrupt propagates and the staged folder is removed."""
    sc = load(write(tmp_path, GOOD))
    calls = []

    def boom(k):
        calls.append(k)
        if len(calls) == 2:
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        api.run_scenario(sc, games=3000, chunk=500, out_dir=tmp_path / "rep", per_game=True, progress=boom)
    assert not (tmp_path / "rep").exists()
    assert not any(tmp_path.glob(".rep*"))


@pytest.mark.kernel
def test_out_refuses_a_folder_that_is_not_a_report(tmp_path):
    """--out never deletes a folder of other things, a file or the current folder."""
    p = write(tmp_path, GOOD)
    precious = tmp_path / "precious"
    precious.mkdir()
    (precious / "notes.txt").write_text("keep me")
    r = cli.invoke(app, ["run", str(p), "--out", str(precious), "--games", "10"])
    assert r.exit_code != 0 and "not a report folder" in r.output
    assert (precious / "notes.txt").read_text() == "keep me"
    r = cli.invoke(app, ["run", str(p), "--out", str(p), "--games", "10"])
    assert r.exit_code != 0 and "is a file" in r.output and p.read_text() == GOOD
    r = cli.invoke(app, ["run", str(p), "--out", ".", "--games", "10"])
    assert r.exit_code != 0 and "current folder" in r.output
    # an earlier report is replaced
    rep = tmp_path / "rep"
    assert cli.invoke(app, ["run", str(p), "--out", str(rep), "--games", "10"]).exit_code == 0
    assert cli.invoke(app, ["run", str(p), "--out", str(rep), "--games", "20"]).exit_code == 0
    assert json.loads((rep / "summary.json").read_text())["games"]["played"] == 20


@pytest.mark.kernel
@pytest.mark.parametrize("name", ["", "..", "../../evil", "a/b", "baselines"])
def test_scenario_name_cannot_escape_reports(tmp_path, name):
    r = cli.invoke(app, ["run", str(write(tmp_path, GOOD.replace('name = "t"', f'name = "{name}"')))])
    assert r.exit_code == EXIT_BAD_INPUT and "scenario.name" in r.stderr


@pytest.mark.kernel
def test_summary_states_games_and_seed_played(tmp_path):
    r = cli.invoke(
        app,
        ["run", str(write(tmp_path, GOOD)), "--out", str(tmp_path / "r"), "--games", "30", "--seed", "11", "--json"],
    )
    s = json.loads(r.stdout[r.stdout.index("{") :])
    assert s["scenario"]["games"] == 30 and s["scenario"]["seed"] == 11


@pytest.mark.kernel
def test_all_games_truncated_is_said_plainly(tmp_path):
    r = cli.invoke(
        app,
        [
            "run",
            str(write(tmp_path, GOOD + "[params]\nmax_turns = 10\n")),
            "--out",
            str(tmp_path / "r"),
            "--games",
            "20",
        ],
    )
    assert r.exit_code == 0 and "No game finished" in r.stdout


@pytest.mark.kernel
@pytest.mark.parametrize(
    "sig, code, says", [("SIGINT", EXIT_INTERRUPTED, "interrupted"), ("SIGTERM", 143, "terminated (SIGTERM)")]
)
def test_a_real_signal_stops_sim_run_with_one_line_and_no_folder(tmp_path, sig, code, says):
    """A real Ctrl-C (SIGINT) or kill / batch scheduler (SIGTERM) to `sim run` while it plays: stopped between
    chunks, one line, exit code 130 / 143, no traceback, no report folder and no staging folder left."""
    p = write(tmp_path, GOOD.replace("games = 300", "games = 50000000"))
    out = tmp_path / "rep"
    with sim_process(
        ["run", str(p), "--out", str(out), "--chunk", "20000"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    ) as proc:
        assert wait_for(tmp_path, ".rep.partial-*")  # it was playing when the signal came
        proc.send_signal(getattr(signal, sig))
        _, err = proc.communicate(timeout=60)
    assert proc.returncode == code, err
    assert "Traceback" not in err
    # a run this long may first say how long it would take (the estimate line of runs over 10 minutes: a loaded
    # machine lets a second chunk end before the signal)
    lines = [ln for ln in err.splitlines() if ln.strip() and not progress_line(ln)]
    assert len(lines) == 1 and lines[0].startswith(says), err
    assert not out.exists() and not any(tmp_path.glob(".rep*"))


@pytest.mark.kernel
def test_staging_folder_of_a_killed_run_is_never_a_report_and_is_removed_next_run(tmp_path):
    """SIGKILL cannot be caught: the run leaves `.rep.partial-PID`. It is not the report (rep/ does not exist, `sim
    report` refuses it) and the next run of the scenario removes it; a live run's staging folder is left alone."""
    p = write(tmp_path, GOOD.replace("games = 300", "games = 50000000"))
    out = tmp_path / "rep"
    with sim_process(
        ["run", str(p), "--out", str(out), "--chunk", "20000"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
    ) as proc:
        stale = wait_for(tmp_path, ".rep.partial-*")
        proc.kill()
    assert [s.name for s in stale] == [f".rep.partial-{proc.pid}"]
    (stale[0] / "summary.json").write_text("{}")  # even a staging folder that got as far as its summary
    assert not out.exists()
    r = cli.invoke(app, ["report", str(stale[0])])
    assert r.exit_code == EXIT_BAD_INPUT and "unfinished report" in r.stderr
    live = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(120)"])
    try:
        mine = tmp_path / f".rep.partial-{live.pid}"  # a run still writing: not touched
        mine.mkdir()
        r = cli.invoke(app, ["run", str(write(tmp_path, GOOD)), "--out", str(out), "--games", "50"])
        assert r.exit_code == 0, r.output
        assert (out / "summary.json").exists() and not stale[0].exists() and mine.exists()
    finally:
        live.kill()
        live.wait()


@pytest.mark.kernel
def test_threads_above_the_cores_warn_once_and_provenance_records_the_threads_used(tmp_path):
    from sim.play.runner import available_threads, thread_limit

    cap = available_threads()
    p = write(tmp_path, GOOD)
    r = cli.invoke(app, ["run", str(p), "--out", str(tmp_path / "r"), "--games", "50", "--threads", str(cap + 6)])
    assert r.exit_code == 0, r.output
    warn = [ln for ln in r.stderr.splitlines() if ln.startswith("warning:")]
    assert warn == [
        f"warning: --threads {cap + 6}: {thread_limit()}; "  # the cores, or NUMBA_NUM_THREADS
        f"using {cap} thread{'s' if cap != 1 else ''}"
    ], r.stderr
    prov = json.loads((tmp_path / "r" / "provenance.json").read_text())
    assert prov["threads"] == cap
    r = cli.invoke(app, ["run", str(p), "--out", str(tmp_path / "r"), "--games", "50", "--threads", "1"])
    assert r.exit_code == 0 and "warning" not in r.stderr
    assert json.loads((tmp_path / "r" / "provenance.json").read_text())["threads"] == 1


SHARED = {
    "--seed": [
        ("-1", "--seed: -1 is out of range; allowed 0..2^64-1"),
        (str(2**64), f"--seed: {2**64} is out of range; allowed 0..2^64-1"),
    ],
    "--games": [
        ("0", "--games: 0 is out of range; allowed 1..10,000,000,000"),
        (str(10**11), "--games: 100000000000 is out of range; allowed 1..10,000,000,000"),
    ],
    "--threads": [("0", "--threads: 0 is out of range; allowed >= 1")],
    "--chunk": [
        ("0", f"--chunk: 0 is out of range; allowed 1..{1 << 22:,} (memory grows with the chunk)"),
        (str(1 << 23), f"--chunk: {1 << 23} is out of range; allowed 1..{1 << 22:,} (memory grows with the chunk)"),
    ],
}
TAKES = {
    "run": ("--seed", "--games", "--threads", "--chunk"),
    "compare": ("--seed", "--games", "--threads", "--chunk"),
    "report": ("--seed", "--games", "--threads"),
    "check": ("--seed", "--games", "--threads"),
    "baselines": ("--threads",),
    "replay": ("--seed",),
}
CASES = [(c, o, v, m) for c, opts in TAKES.items() for o in opts for v, m in SHARED[o]]


@pytest.mark.parametrize("command,option,value,message", CASES, ids=[f"{c}{o}={v}" for c, o, v, _ in CASES])
def test_shared_options_are_checked_alike_by_every_command(tmp_path, command, option, value, message):
    """games / threads / chunk / seed: one helper, so every command that takes the option refuses the same values
    with the same line and exit code 2 (compare and report used to pass a bad --seed on to the kernel)."""
    p = str(write(tmp_path, GOOD))
    args = {
        "run": ["run", p, "--out"],
        "report": ["report", p, "--out"],
        "compare": ["compare", p, p, "--out"],
        "check": ["check", p, "--baselines"],
        "baselines": ["baselines", p, "--out"],
        "replay": ["replay", p],
    }[command]
    if command != "replay":
        args.append(str(tmp_path / "o"))
    r = cli.invoke(app, args + [option, value])
    assert r.exit_code == 2, (command, option, r.output)
    lines = [ln for ln in r.stderr.splitlines() if ln.strip()]
    assert lines == [f"error: {message}"], r.stderr
    assert "Traceback" not in r.output and not (tmp_path / "o").exists()


MOOR4 = REPO / "scenarios" / "moor" / "4p.toml"


def _invoke(*args):
    return cli.invoke(app, [str(a) for a in args])


def _base(command: str, tmp_path: Path) -> list:
    """The command with valid arguments (the bad option is added after them; a sweep has an axis, so only the bad
    option can stop it)."""
    return {
        "run": ["run", MOOR4, "--out", tmp_path / "o"],
        "report": ["report", MOOR4, "--out", tmp_path / "o"],
        "replay": ["replay", MOOR4],
        "compare": ["compare", MOOR4, MOOR4, "--out", tmp_path / "o"],
        "check": ["check", MOOR4],
        "sweep": ["sweep", MOOR4, "--set", "die_faces=4,6", "--out", tmp_path / "o"],
        "run-defaults": ["run-defaults"],
        "baselines": ["baselines", MOOR4, "--out", tmp_path / "o"],
        "rerun": ["rerun", tmp_path],
        "list": ["list"],
        "bench": ["bench"],
        "board show": ["board", "show", REPO / "scenarios" / "galleon" / "boards" / "default.toml"],
    }[command]


SETTERS = ["run", "report", "replay", "compare", "check", "sweep"]
BAD_OPTIONS = [  # (the bad option, every command that takes it)
    (["--set", "nosuch=1"], SETTERS),  # unknown name
    (["--set", "track_len=abc"], SETTERS),  # a value the parameter does not allow
    (["--set", "track_len"], SETTERS),  # no '='
    (["--set", "seats.7.strategy=runner"], SETTERS),  # no such seat
    (["--games", "0"], ["run", "report", "compare", "check", "sweep"]),
    (["--games", "abc"], ["run", "report", "compare", "check", "sweep", "run-defaults"]),  # Click's own
    (["--threads", "0"], ["run", "report", "compare", "check", "sweep", "baselines", "rerun"]),
    (["--seed", "-1"], ["run", "report", "replay", "compare", "check", "sweep"]),
    (["--workers", "0"], ["run", "sweep"]),
    (
        ["--bogus"],
        [
            "run",
            "report",
            "replay",
            "compare",
            "check",
            "sweep",
            "run-defaults",
            "baselines",
            "rerun",
            "list",
            "bench",
            "board show",
        ],
    ),
]


DATA = REPO / "tests" / "data"


@pytest.mark.kernel
@pytest.mark.parametrize("bad, commands", BAD_OPTIONS, ids=[" ".join(b) for b, _ in BAD_OPTIONS])
def test_the_same_bad_option_exits_2_on_every_command_that_takes_it(tmp_path, bad, commands):
    """`sim sweep --set nosuch=1` exited 3 where `sim run --set nosuch=1` exited 2."""
    codes = {}
    for c in commands:
        r = _invoke(*_base(c, tmp_path), *bad)
        one_error_line(r)
        codes[c] = r.exit_code
    assert codes == {c: EXIT_USAGE for c in commands}
    assert not (tmp_path / "o").exists()


def test_the_documented_exit_codes_say_what_the_commands_do():
    """The exit codes as docs/reference/commands.md and sweeps.md state them (README.md links there)."""
    pages = [REPO / "README.md", *sorted((REPO / "docs").rglob("*.md"))]
    text = " ".join(" ".join(f.read_text().split()) for f in pages)
    assert (
        "Exit codes of every command: 0 ok, 1 regression found (`sim check`) or a report not reproduced "
        "(`sim rerun`), 2 bad option"
    ) in text
    assert "a bad value: one line naming the sweep entry, exit 3" not in text
    assert "exit 2 for a bad `--set`, `--mode`, `--measure` or `--target`" in text


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


@pytest.mark.kernel
def test_games_zero_and_huge_say_the_same_range_in_the_same_words(tmp_path):
    from sim.model.scenario import MAX_GAMES

    said = []
    for v in ("0", str(MAX_GAMES + 1)):
        r = cli.invoke(app, ["run", str(DATA / "moor-2p-small.toml"), "--games", v, "--out", str(tmp_path / "o")])
        assert r.exit_code == EXIT_USAGE
        said.append(r.stderr.strip().split("; ", 1)[1])
    p = tmp_path / "zero.toml"
    p.write_text((DATA / "moor-2p-small.toml").read_text().replace("games = 4000", "games = 0"))
    r = cli.invoke(app, ["run", str(p), "--out", str(tmp_path / "o")])
    said.append(r.stderr.strip().split("; ", 1)[1])
    assert len(set(said)) == 1, said
    assert said[0] == f"allowed 1..{MAX_GAMES:,}"


def _commands():
    from typer.main import get_command

    def walk(g, path):
        for n, c in getattr(g, "commands", {}).items():
            yield path + [n], c
            yield from walk(c, path + [n])

    return [(p, c) for p, c in walk(get_command(app), []) if not getattr(c, "commands", None)]


def test_sim_help_groups_the_commands_by_what_a_designer_does():
    out = cli.invoke(app, ["--help"], env={"COLUMNS": "200"}).output
    panels = ["Play", "Compare and explore", "Regression", "Boards", "Tools"]
    at = [out.index(f"─ {p} ─") for p in panels]
    assert at == sorted(at), "panels out of order"
    for p, names in {
        "Play": ["run", "run-defaults", "replay", "report"],
        "Compare and explore": ["compare", "sweep"],
        "Regression": ["check", "baselines", "rerun"],
        "Boards": ["board"],
        "Tools": ["list", "bench"],
    }.items():
        block = out[out.index(f"─ {p} ─") :].split("╰", 1)[0]
        for n in names:
            assert re.search(rf"│ {re.escape(n)} +\S", block), (p, n)
            line = next(x for x in block.splitlines() if x.startswith(f"│ {n} "))
            assert line.rstrip(" │").count(". ") == 0, f"{n}: one short line in `sim --help`"


def test_every_command_help_ends_with_a_worked_example_that_names_real_commands_and_files():
    import shlex

    from typer.main import get_command

    root = get_command(app)
    for path, c in _commands():
        text = inspect.cleandoc(c.help or "")
        assert "\n\nExample:\n" in text, f"sim {' '.join(path)}: no Example paragraph"
        shown = cli.invoke(app, path + ["--help"], env={"COLUMNS": "100"}).output
        examples = [x.strip() for x in text.split("\n\nExample:\n", 1)[1].splitlines() if x.strip()]
        assert examples and all(e.startswith("sim ") for e in examples), (path, examples)
        for e in examples:
            assert e in shown, (path, e)  # rendered as written, one line each
            words = shlex.split(e)[1:]
            g = root
            for w in path:  # the example runs the command it documents
                assert words.pop(0) == w, (path, e)
                g = g.commands[w] if hasattr(g, "commands") else g
            names = {o for q in c.params for o in q.opts}
            for w in words:
                if w.startswith("--"):
                    assert w.split("=")[0] in names, (path, e, w)
                elif w.endswith(".toml") and w.startswith("scenarios/"):
                    assert (REPO / w).is_file(), (path, e, w)


def test_json_is_a_flag_on_every_command_that_takes_it():
    with_json = [(path, q) for path, c in _commands() for q in c.params if "--json" in getattr(q, "opts", [])]
    assert {p[0] for p, _ in with_json} == {"run", "compare", "check", "rerun", "sweep", "tune", "ladder"}
    assert all(q.is_flag for _, q in with_json)


def test_compare_help_lists_the_a_and_b_options_together():
    """--set-b, the option a change is compared by, came 19th, far from --set-a (a fresh user's find): the options
    of A and B come first and side by side, then the stopping rule's together."""
    out = cli.invoke(app, ["compare", "--help"], env={"COLUMNS": "200"}).output
    shown = re.findall(r"^│ (--[a-z-]+)", out, flags=re.M)
    assert shown[:3] == ["--set-a", "--set-b", "--set"], shown
    rule = [shown.index(o) for o in ("--games", "--precision", "--sprt", "--metric", "--two-sided", "--max-games")]
    assert rule == list(range(rule[0], rule[0] + len(rule))), shown
    arc = [shown.index(o) for o in ("--arc", "--sample", "--rollouts")]
    assert arc == list(range(arc[0], arc[0] + 3)), shown


def test_help_names_option_types_in_plain_words():
    """Typer 0.29 wrote `<bool>` beside every flag and `<list[str]>` beside --set: a flag now shows no type, a
    repeatable option its item's type, a text option `<text>`."""
    import re

    r = CliRunner().invoke(app, ["run", "--help"], env={"COLUMNS": "160"})
    assert r.exit_code == 0
    assert "<bool>" not in r.output and "<list[" not in r.output and "<str>" not in r.output
    assert re.search(r"--set\s+<text>", r.output) and re.search(r"--games\s+<int>", r.output)
    assert re.search(r"--per-game\s+also write", r.output)
    # every command: an argument of paths shows <path>, not <list[Path]> (sim check, sim baselines)
    from sim.cli.main import app as main_app

    for cmd in ("check", "baselines", "run", "compare", "sweep", "ladder", "fidelity", "train", "tune"):
        h = CliRunner().invoke(main_app, [cmd, "--help"], env={"COLUMNS": "160"}).output
        assert "<list[" not in h and "<str>" not in h and "<bool>" not in h, cmd
