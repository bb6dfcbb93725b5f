"""A sweep or tune spec file (a scenario with a [sweep] or [tune] table) given to a command that plays one scenario
is refused in one line naming the table and the command that reads it, exit 2: it would silently play only the base
scenario. No game is played (the fast tier)."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from sim.cli import main as cli_main
from sim.cli.common import EXIT_USAGE
from tests.sim._cli import one_error_line

MOOR_2P = Path(__file__).resolve().parents[1] / "data" / "moor-2p-small.toml"
TABLES = {"sweep": 'track_len = "20..30"\n', "tune": 'track_len = "20..30"\ntarget = "length.rounds=5"\n'}


@pytest.mark.parametrize("table", ["sweep", "tune"])
@pytest.mark.parametrize(
    "command, more",
    [
        ("run", ["--out"]),
        ("report", ["--out"]),
        ("arc", ["--out"]),
        ("replay", []),
        ("compare", ["--set-b", "track_len=30", "--out"]),
    ],
)
def test_a_spec_file_is_refused_by_a_command_that_plays_one_scenario(tmp_path, table, command, more):
    spec = tmp_path / "spec.toml"
    spec.write_text(MOOR_2P.read_text() + f"\n[{table}]\n{TABLES[table]}", encoding="utf-8")
    out = [str(tmp_path / "out")] if more and more[-1] == "--out" else []
    r = CliRunner().invoke(cli_main.app, [command, str(spec), *more, *out])
    assert r.exit_code == EXIT_USAGE
    assert one_error_line(r) == (
        f"error: {spec}: has a [{table}] table, which sim {command} does not read (it would play only the base "
        f"scenario); use sim {table} {spec}"
    )
    assert not (tmp_path / "out").exists()
