"""compare.html's forest plot: one measure changing by +450% of A no longer squashes the relative panel; the axis
keeps the typical measures readable and the off-scale one is drawn to the edge with its values written there."""

from __future__ import annotations

from sim.pages import forest_plot


def _row(name: str, a: float, diff: float, half: float, significant: bool = True) -> dict:
    return {
        "name": name,
        "label": name,
        "kind": "mean",
        "a": a,
        "b": a + diff,
        "diff": diff,
        "diff_ci95": [diff - half, diff + half],
        "p": 1e-4,
        "significant": significant,
    }


def _res(rows: list[dict]) -> dict:
    return {"metrics": rows}


TYPICAL = [_row(f"m{i}", 10.0, d, 0.5) for i, d in enumerate((-2.0, -1.0, 0.5, 1.5, 3.0, -2.5))]


def test_an_off_scale_measure_is_clipped_and_labelled():
    stuck = _row("hunters stuck at the end", 0.1, 0.45, 0.35)  # +450% [+100, +800] of A
    fig = forest_plot.compare_forest(_res(TYPICAL + [stuck]))
    (ax,) = fig.axes
    lo, hi = ax.get_xlim()
    assert hi < 100 and lo > -100  # the typical measures (±35% of A) fill the axis, not 0..800
    texts = [t.get_text() for t in ax.texts]
    assert texts == ["+450% [+100, +800]"]
    assert "clipped" in ax.get_xaxis().get_label().get_text()


def test_a_panel_without_outliers_is_not_clipped():
    fig = forest_plot.compare_forest(_res(TYPICAL))
    (ax,) = fig.axes
    assert not ax.texts and "clipped" not in ax.get_xaxis().get_label().get_text()
    assert forest_plot.forest_limit([1.0, 2.0, 3.0]) is None
    assert forest_plot.forest_limit([1.0, 2.0, 3.0, 100.0]) == 3.0
