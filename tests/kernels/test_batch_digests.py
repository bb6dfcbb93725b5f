"""Every game's batch outputs are pinned: sha256 digests of all of `play_batch`'s outputs over ~180 cases (every
default scenario, every strategy of every role at the fewest and most players, the invariant-checking
specialisation, the Dice Race test game; two seeds each), recorded before the game loop moved to kernels/loop.py.
A kernel refactor must leave them all unchanged; a deliberate change of results (a rules or strategy version bump)
rewrites them with `python tests/kernels/batch_cases.py --write`."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))
import batch_cases  # noqa: E402

PINNED = json.loads(batch_cases.DATA.read_text())
CASES = batch_cases.cases()


def test_every_pinned_case_is_still_a_case_and_every_case_is_pinned():
    names = {f"{name}@{seed}" for name, _, _ in CASES for seed in batch_cases.SEEDS}
    assert names == set(PINNED)
    assert len(names) >= 150


@pytest.mark.parametrize("name, sc, check", CASES, ids=[c[0] for c in CASES])
def test_batch_outputs_are_bit_identical_to_the_pinned_digests(name, sc, check):
    for seed in batch_cases.SEEDS:
        assert batch_cases.digest(sc, seed, check) == PINNED[f"{name}@{seed}"], f"{name} seed {seed}"
