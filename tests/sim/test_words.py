"""The shared pieces of English every page and message uses (sim.model.words)."""

from __future__ import annotations

from sim.model.words import with_sign


def test_a_difference_that_rounds_to_zero_has_no_sign():
    """A compare interval read "[-0.0, +0.2]": a value that rounds to zero is written "0.0", others keep their sign."""
    assert with_sign(-0.0004, 1) == "0.0"
    assert with_sign(0.04, 1) == "0.0"
    assert with_sign(0.0, 2) == "0.00"
    assert with_sign(-0.06, 1) == "-0.1"
    assert with_sign(0.2, 1) == "+0.2"
