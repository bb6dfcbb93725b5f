"""The API takes its options one way, as keywords: each options record's fields are keywords of its verb (so a
record given back with ``keywords()`` is a call), and no verb takes a record."""

from __future__ import annotations

import inspect

import pytest

import sim

PAIRS = [
    (sim.run, sim.RunOptions),
    (sim.compare, sim.CompareOptions),
    (sim.sweep, sim.SweepOptions),
    (sim.check, sim.CheckOptions),
]


@pytest.mark.parametrize(("verb", "record"), PAIRS, ids=lambda x: getattr(x, "__name__", ""))
def test_every_option_of_a_record_is_a_keyword_only_argument_of_its_verb(verb, record):
    params = inspect.signature(verb).parameters
    for name in record().keywords():
        assert name in params, f"{record.__name__}.{name} is no keyword of sim.{verb.__name__}"
        assert params[name].kind is inspect.Parameter.KEYWORD_ONLY
    assert "options" not in params


def test_a_record_is_built_from_keywords_only_and_none_takes_the_default():
    with pytest.raises(TypeError):
        sim.RunOptions(10)  # type: ignore[misc]
    o = sim.CompareOptions.given(games=None, alpha=0.01)
    assert o.games is None and o.alpha == 0.01 and o.chunk == sim.CompareOptions().chunk
    assert sim.CheckOptions(sets=("players=3",)).keywords()["set"] == ("players=3",)


def test_a_bad_value_given_as_a_keyword_is_the_record_s_one_line():
    with pytest.raises(sim.OptionError, match=r"^--alpha: 2.0 is out of range; allowed 0 < alpha < 1$"):
        sim.CompareOptions.given(alpha=2.0).validate()
