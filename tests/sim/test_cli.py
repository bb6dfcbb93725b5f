"""The CLI through Typer's CliRunner, and bad input: one clear line, non-zero exit, no traceback, no report."""
from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from typer.testing import CliRunner

from sim.cli import EXIT_BAD_INPUT, EXIT_INTERRUPTED, app

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


def test_run_writes_report_and_json(tmp_path):
    out = tmp_path / "rep"
    r = cli.invoke(app, ["run", str(write(tmp_path, GOOD)), "--out", str(out), "--json", "--per-game"])
    assert r.exit_code == 0, r.output
    s = json.loads(r.stdout[r.stdout.index("{"):])
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


def test_list_shows_games_params_strategies():
    r = cli.invoke(app, ["list"])
    assert r.exit_code == 0
    for word in ("moor", "track_len", "ghost_values", "discard_fallback", "collector", "runner", "cautious",
                 "weighted", "random", "w_goal"):
        assert word in r.stdout


BAD = [
    ("unknown key", GOOD.replace('seed = 5', 'seed = 5\ncolour = "red"'), "scenario: unknown key 'colour'"),
    ("wrong type", GOOD.replace("players = 3", 'players = "three"'), "scenario.players: expected an integer"),
    ("six players", GOOD.replace("players = 3", "players = 6"), "scenario.players: 6 is out of range"),
    ("one player", GOOD.replace("players = 3", "players = 1"), "allowed 2..5"),
    ("short track", GOOD + "[params]\ntrack_len = 10\n", "params.track_len: 10 is out of range; allowed 19"),
    ("negative value", GOOD + "[params]\nghost_values = [1, 2, -3, 4, 5, 6, 7]\n", "params.ghost_values[2]"),
    ("unknown param", GOOD + "[params]\nboard_size = 3\n", "params: unknown key 'board_size'"),
    ("unknown strategy", GOOD.replace('"collector"', '"genius"'), "unknown player strategy 'genius'"),
    ("unknown strategy param", GOOD.replace("w_goal", "w_luck"), "unknown key 'w_luck'"),
    ("param for paramless strategy", GOOD.replace('strategy = "random"', 'strategy = "random"\nparams = {x = 1}'),
     "takes no parameters"),
    ("bad choice", GOOD + '[params]\ndiscard_fallback = "burn"\n', "allowed: remove, ignore_pawns"),
    ("wrong list length", GOOD + "[params]\ngoal_values = [1, 2]\n", "needs exactly 5"),
    ("seat count", GOOD.replace("players = 3", "players = 4"), "3 seats for players = 4"),
    ("broken toml", "[scenario\ngame=", "not valid TOML"),
    ("unknown game", GOOD.replace('"moor"', '"chess"'), "unknown game 'chess'"),
]


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


def test_bad_option_values(tmp_path):
    p = write(tmp_path, GOOD)
    for args in (["--games", "0"], ["--threads", "0"], ["--chunk", "-5"], ["--seed", "-1"]):
        r = cli.invoke(app, ["run", str(p), "--out", str(tmp_path / "r")] + args)
        assert r.exit_code == 2 and "Traceback" not in r.output, args
        assert not (tmp_path / "r").exists()


def test_interrupt_leaves_no_report(tmp_path, monkeypatch):
    """Ctrl-C between chunks: KeyboardInterrupt propagates and the staged folder is removed."""
    from sim import api, runner
    from sim.scenario import load
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


def test_sigint_exits_cleanly(tmp_path):
    """A real SIGINT to `sim run`: exit code 130, one line, no report folder."""
    p = write(tmp_path, GOOD.replace("games = 300", "games = 50000000"))
    out = tmp_path / "rep"
    proc = subprocess.Popen([sys.executable, "-m", "sim.cli", "run", str(p), "--out", str(out), "--chunk", "20000"],
                            cwd=REPO, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    time.sleep(6)
    proc.send_signal(signal.SIGINT)
    _, err = proc.communicate(timeout=60)
    assert proc.returncode == EXIT_INTERRUPTED, err
    assert "Traceback" not in err and "interrupted" in err
    assert not out.exists() and not any(tmp_path.glob(".rep*"))


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


@pytest.mark.parametrize("name", ["", "..", "../../evil", "a/b", "baselines"])
def test_scenario_name_cannot_escape_reports(tmp_path, name):
    r = cli.invoke(app, ["run", str(write(tmp_path, GOOD.replace('name = "t"', f'name = "{name}"')))])
    assert r.exit_code == EXIT_BAD_INPUT and "scenario.name" in r.stderr


def test_summary_states_games_and_seed_played(tmp_path):
    r = cli.invoke(app, ["run", str(write(tmp_path, GOOD)), "--out", str(tmp_path / "r"), "--games", "30",
                         "--seed", "11", "--json"])
    s = json.loads(r.stdout[r.stdout.index("{"):])
    assert s["scenario"]["games"] == 30 and s["scenario"]["seed"] == 11


def test_all_games_truncated_is_said_plainly(tmp_path):
    r = cli.invoke(app, ["run", str(write(tmp_path, GOOD + "[params]\nmax_turns = 10\n")), "--out",
                         str(tmp_path / "r"), "--games", "20"])
    assert r.exit_code == 0 and "No game finished" in r.stdout
