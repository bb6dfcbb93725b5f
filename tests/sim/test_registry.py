"""The game registry imports a game's module (and so compiles its kernel helpers) only when that game is used."""

import subprocess
import sys
from pathlib import Path

import pytest

from sim.model import registry

REPO = Path(__file__).resolve().parents[2]


def test_names_lists_every_game_without_importing_them():
    assert registry.names() == ("galleon", "moor", "treasure_hunters", "turnwall")  # sim/games/*.py, by name
    assert registry.get("chess") is None


@pytest.mark.kernel
def test_a_moor_scenario_never_imports_the_treasure_hunters_kernel():
    code = (
        "import sys; from sim.model.scenario import load; from sim.play import runner; "
        "sc = load('scenarios/moor/4p.toml'); runner.play_chunk(sc, 0, 4); "
        "print(sorted(m for m in sys.modules if m.startswith('kernels.treasure_hunters')))"
    )
    out = subprocess.run([sys.executable, "-c", code], cwd=REPO, capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"
