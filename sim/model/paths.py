"""Where the checkout's folders are: defined once, here, for every layer.

``REPO`` is the repository root (the folder holding ``sim/``, ``kernels/``, ``scenarios/`` and ``reports/``);
reports go to ``REPORTS`` wherever ``sim`` is run from.
"""

from __future__ import annotations

from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
REPORTS = REPO / "reports"
SCENARIOS = REPO / "scenarios"
BASELINES = REPORTS / "baselines"
