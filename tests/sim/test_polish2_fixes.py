"""Fifth round of what a first-time user hit: a bad option exited 2 on `sim run` but 3 on `sim sweep`; the same
`--set` name given twice silently played the last one; `sim compare --set-b players=3` (and `sim run --set
players=3`) on a 4-player scenario was refused as a bad file instead of dropping the fourth seat; "(s)" plurals in
the replays ("1 ghost(s) removed", "2 move(s) left") and in `sim bench`."""
from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from typer.testing import CliRunner

from sim import api, overrides
from sim.cli import EXIT_BAD_INPUT, EXIT_USAGE, app
from sim.scenario import load
from tests.sim._cli import one_error_line

REPO = Path(__file__).resolve().parents[2]
MOOR4 = REPO / "scenarios" / "moor" / "4p.toml"
TH = REPO / "scenarios" / "treasure_hunters"
cli = CliRunner()


def _invoke(*args):
    return cli.invoke(app, [str(a) for a in args])


# --- 1. one exit code per class of bad option, on every command that takes the option ----------------------------

def _base(command: str, tmp_path: Path) -> list:
    """The command with valid arguments (the bad option is added after them; a sweep has an axis, so only the bad
    option can stop it)."""
    return {"run": ["run", MOOR4, "--out", tmp_path / "o"], "report": ["report", MOOR4, "--out", tmp_path / "o"],
            "replay": ["replay", MOOR4], "compare": ["compare", MOOR4, MOOR4, "--out", tmp_path / "o"],
            "check": ["check", MOOR4], "sweep": ["sweep", MOOR4, "--set", "die_faces=4,6", "--out", tmp_path / "o"],
            "run-defaults": ["run-defaults"], "baselines": ["baselines", MOOR4, "--out", tmp_path / "o"],
            "rerun": ["rerun", tmp_path], "list": ["list"], "bench": ["bench"],
            "board show": ["board", "show", REPO / "scenarios" / "galleon" / "boards" / "default.toml"]}[command]


SETTERS = ["run", "report", "replay", "compare", "check", "sweep"]
BAD_OPTIONS = [                                   # (the bad option, every command that takes it)
    (["--set", "nosuch=1"], SETTERS),                               # unknown name
    (["--set", "track_len=abc"], SETTERS),                          # a value the parameter does not allow
    (["--set", "track_len"], SETTERS),                              # no '='
    (["--set", "seats.7.strategy=runner"], SETTERS),                # no such seat
    (["--games", "0"], ["run", "report", "compare", "check", "sweep"]),
    (["--games", "abc"], ["run", "report", "compare", "check", "sweep", "run-defaults"]),   # Click's own
    (["--threads", "0"], ["run", "report", "compare", "check", "sweep", "baselines", "rerun"]),
    (["--seed", "-1"], ["run", "report", "replay", "compare", "check", "sweep"]),
    (["--workers", "0"], ["run", "sweep"]),
    (["--bogus"], ["run", "report", "replay", "compare", "check", "sweep", "run-defaults", "baselines", "rerun",
                   "list", "bench", "board show"]),
]


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


@pytest.mark.parametrize("bad", [["--mode", "diagonal"], ["--measure", "no_such_measure"],
                                 ["--target", "first_player_advantage"], ["--target", "first_player_advantage=x"],
                                 ["--mode", "zip", "--set", "die_faces=4,6,8"], ["--scheduler", " "]])
def test_a_bad_sweep_option_exits_2_like_every_bad_option(tmp_path, bad):
    r = _invoke("sweep", MOOR4, "--set", "track_len=26,28", "--games", 10, "--out", tmp_path / "o", *bad)
    assert r.exit_code == EXIT_USAGE and one_error_line(r).startswith(f"error: {bad[0]}")
    assert not (tmp_path / "o").exists()


def test_a_sweep_without_an_axis_exits_2_like_compare_without_b(tmp_path):
    """Nothing to sweep: a missing option (no --set, no [sweep] table), as compare's missing scenario B is."""
    sweep, comp = _invoke("sweep", MOOR4, "--games", 10), _invoke("compare", MOOR4)
    assert (sweep.exit_code, comp.exit_code) == (EXIT_USAGE, EXIT_USAGE)
    assert "nothing to sweep" in one_error_line(sweep) and "missing scenario B" in one_error_line(comp)


def test_a_bad_sweep_table_in_the_file_still_exits_3(tmp_path):
    """The README's table: 3 for a bad input file, the [sweep] table included."""
    p = tmp_path / "s.toml"
    p.write_text(MOOR4.read_text() + "\n[sweep]\ntrack_len = [30, 99]\n")
    r = _invoke("sweep", p, "--games", 10, "--out", tmp_path / "o")
    assert r.exit_code == EXIT_BAD_INPUT and "[sweep] track_len" in one_error_line(r)


def test_the_readme_exit_code_table_says_what_the_commands_do():
    text = " ".join((REPO / "README.md").read_text().split())
    assert ("Exit codes of every command: 0 ok, 1 regression found (`sim check`) or a report not reproduced "
            "(`sim rerun`), 2 bad option") in text
    assert "a bad value: one line naming the sweep entry, exit 3" not in text
    assert "exit 2 for a bad `--set`, `--mode`, `--measure` or `--target`" in text
