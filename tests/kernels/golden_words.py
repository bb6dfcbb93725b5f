"""Golden traces in words, shared by the games' test_golden.py: a game of a shipped scenario replayed turn by turn
must stay exactly as recorded (any change of rules, strategies or RNG use shows up as a diff to review).

Regenerate after an intended change: GOLDEN_UPDATE=1 pytest tests/kernels/<game>/test_golden.py"""

from __future__ import annotations

import os
from pathlib import Path

from sim.api import core as api
from sim.model.scenario import load

REPO = Path(__file__).resolve().parents[2]


def check_replay(golden: Path, name: str, scenario: str, game: int) -> None:
    """Replay game ``game`` of ``scenario`` (a path from the repository root) and compare it with golden/name."""
    lines = api.replay(load(REPO / scenario), game)
    path = golden / name
    text = "\n".join(lines) + "\n"
    if os.environ.get("GOLDEN_UPDATE"):
        path.write_text(text)
    assert text == path.read_text(), f"{name} differs from the recorded trace"
