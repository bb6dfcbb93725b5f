"""The complexity baseline only shrinks (tests/complexity.py)."""

from __future__ import annotations

import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import complexity  # noqa: E402


def test_no_function_grew_more_complex_and_the_baseline_is_current():
    assert complexity.problems(complexity.measure(), json.loads(complexity.BASELINE.read_text())) == []


def test_the_ratchet_refuses_a_new_or_a_grown_function_and_asks_to_lower_a_shrunk_one():
    base = {"a.py::f": 20, "a.py::g": 18}
    now = {"a.py::f": 21, "a.py::h": 16}
    got = complexity.problems(now, base)
    assert got == [
        "a.py::f: complexity 21, was 20: it may only shrink",
        "a.py::h: complexity 16 > 15: split it (new over the limit)",
        "a.py::g: complexity within the limit, baseline 18: lower it (--write)",
    ]
