"""The sweep page's plots: a rate that is 0 at every point is said, not drawn as a flat line at 0; a mean that is a
share of the game (arc.decided_by_score_share) is in % like the rates beside it."""

from __future__ import annotations

from sim.model.paths import REPO
from sim.model.scenario import load
from sim.output.sweep_output import shown_kind
from sim.pages.sweep_plots import nothing_to_draw, plot_list
from sim.stats.sweep_table import quantities


def _doc(values: list[float | None]) -> dict:
    m = {"name": "tie", "label": "shared wins (tie rate)", "kind": "rate", "unit": "", "definition": ""}
    pts = [{"index": i, "measures": {"tie": {"value": v, "ci95": [0.0, 0.01]}}} for i, v in enumerate(values)]
    return {"chosen": [m], "points": pts, "mode": "grid", "axes": []}


def test_a_rate_zero_at_every_point_is_said_not_drawn():
    d = _doc([0.0, 0.0, 0.0])
    assert plot_list(d) == [("none-tie", nothing_to_draw(d, d["chosen"][0]), None)]
    assert "0% at every point" in nothing_to_draw(d, d["chosen"][0])


def test_a_rate_above_zero_somewhere_is_drawn():
    for values in ([0.0, 0.002, 0.0], [0.0, None]):
        d = _doc(values)
        assert nothing_to_draw(d, d["chosen"][0]) == ""


def test_the_decided_share_is_shown_in_percent_like_the_rates_beside_it():
    qs = quantities(load(REPO / "scenarios/moor/4p.toml"))
    assert shown_kind(qs["arc.decided_by_score_share"]) == "rate"
    assert shown_kind(qs["arc.decided_by_score"]) == "mean"  # rounds stay rounds
    assert shown_kind(qs["tie"]) == "rate"
