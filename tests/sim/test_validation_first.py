"""Bad input is told before any kernel is compiled or loaded from the Numba cache: `sim run` / `sim report` and
`sim.run` validate the scenario file and every override against the game's spec first (sim/games/__init__.py defers
the kernels' compiles to the first game played), so the one error line comes at once and no progress line before it.

Time-free: a fresh process reports which kernel functions hold machine code when the error is raised."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]

# runs the CLI (argv) or the API (argv[0] == "api": `sim.run` of a scenario path with one NAME=VALUE override, 4
# games), then prints the kernel functions that hold machine code (compiled or loaded from the cache) as its last
# stdout line
PROBE = """
import json, sys

args = sys.argv[1:]
if args[0] == "api":
    import sim
    try:
        sim.run(args[1], set=[args[2]], games=4)  # writes nothing
    except sim.SimError as e:
        print("error: " + str(e), file=sys.stderr)
else:
    import runpy
    sys.argv = ["sim", *args]
    try:
        runpy.run_module("sim.cli.main", run_name="__main__")
    except SystemExit as e:
        print("exit", e.code, file=sys.stderr)
from numba.core.dispatcher import Dispatcher

mods = [m for name, m in list(sys.modules.items()) if name.startswith("kernels")]
print(json.dumps(sorted(f"{m.__name__}.{n}" for m in mods for n, v in vars(m).items()
                        if isinstance(v, Dispatcher) and v.overloads)))
"""


def probe(*args: str) -> tuple[list[str], list[str]]:
    """(the kernel functions compiled or loaded when ``args`` ended, the non-empty stderr lines)."""
    r = subprocess.run([sys.executable, "-c", PROBE, *args], cwd=REPO, capture_output=True, text=True, timeout=300)
    assert r.stdout.strip(), r.stderr
    return json.loads(r.stdout.strip().splitlines()[-1]), [ln for ln in r.stderr.splitlines() if ln.strip()]


def test_a_bad_override_of_sim_run_is_told_before_any_kernel_compiles():
    compiled, err = probe("run", "scenarios/moor/4p.toml", "--set", "track_len=-3")
    assert err[0] == "error: --set track_len=-3: params.track_len: -3 is out of range; allowed 19..62", err
    assert err[1:] == ["exit 2"]
    assert compiled == []


def test_a_bad_scenario_file_of_sim_report_is_told_before_any_kernel_compiles(tmp_path):
    text = (REPO / "scenarios/treasure_hunters/basic-4p.toml").read_text()
    text = text.replace('mode = "basic"', 'mode = "basic"\nspook_range = 99')
    bad = tmp_path / "bad.toml"
    bad.write_text(text)
    compiled, err = probe("report", str(bad), "--out", str(tmp_path / "rep"))
    assert len(err) == 2 and err[0].startswith("error: ") and "params.spook_range: 99 is out of range" in err[0], err
    assert err[1] == "exit 3"
    assert compiled == []
    assert not (tmp_path / "rep").exists()


def test_a_bad_override_of_sim_run_in_python_is_raised_before_any_kernel_compiles():
    compiled, err = probe("api", "scenarios/galleon/4p.toml", "seats.1.strategy=genius")
    assert len(err) == 1 and "unknown" in err[0] and "genius" in err[0], err
    assert compiled == []


@pytest.mark.kernel
def test_the_probe_sees_kernels_once_a_game_is_played():
    """The control: the same probe after a run of good input lists the kernel functions it compiled or loaded."""
    compiled, err = probe("api", "scenarios/moor/4p.toml", "track_len=30")
    assert err == []
    assert any(name.startswith("kernels.moor.") for name in compiled), compiled
