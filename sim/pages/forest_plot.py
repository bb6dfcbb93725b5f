"""The comparison page's forest plot (sim.pages.compare_page): B - A with 95% intervals, rates in percentage
points and means relative to A, a panel of a few far-off measures clipped so the typical ones stay readable.
"""

from __future__ import annotations

from sim.pages.plots import ALERT, GREY, NEUTRAL, _figure

OUTLIER_SPAN = 4.0  # a relative change reaching past this many times the median measure's reach runs off the axis


def forest_limit(spans: list[float]) -> float | None:
    """The half-width (in the panel's unit) of a forest panel's axis that keeps the typical measures readable, or None
    when every measure fits (``spans``: each measure's reach, the largest |value| of its estimate and interval).
    The axis reaches the largest span at most OUTLIER_SPAN times the median one: one measure at +300% no longer
    squashes twenty at a few percent; those past it are drawn to the edge and labelled with their values."""
    import statistics

    if len(spans) < 3:
        return None
    med = statistics.median(spans)
    keep = [x for x in spans if x <= OUTLIER_SPAN * max(med, 1e-12)]
    if len(keep) == len(spans) or not keep:
        return None
    return max(keep)


def compare_forest(res: dict):
    """B - A with 95% intervals: rates in percentage points (left), means relative to A in percent (right). A panel
    whose few measures change far more than the rest (`forest_limit`) is clipped: those measures' bars run to the
    axis edge with an arrow, and their estimate and interval are written at the edge (in bold)."""
    import numpy as np

    rows = [r for r in res["metrics"] if r["p"] is not None]
    rates = [r for r in rows if r["kind"] == "rate"]
    means = [r for r in rows if r["kind"] == "mean" and r["a"] != 0]
    panels = [(rates, "B - A (percentage points)", 100.0, False), (means, "B - A (% of A)", None, True)]
    panels = [p for p in panels if p[0]]
    if not panels:
        return None
    h = max(len(p[0]) for p in panels) * 0.22 + 1.0
    fig, axes = _figure(4.2 * len(panels), h, ncols=len(panels))
    for ax, (rs, title, mult, rel) in zip(axes, panels):
        y = np.arange(len(rs))[::-1]
        vals = [
            [f * r["diff"], f * r["diff_ci95"][0], f * r["diff_ci95"][1]]
            for r in rs
            for f in [100.0 / abs(r["a"]) if rel else float(mult or 1.0)]
        ]
        lim = forest_limit([max(abs(v) for v in x) for x in vals]) if rel else None
        edge = None
        if lim is not None:
            lo = min(min(x) for x in vals if max(abs(v) for v in x) <= lim)
            hi = max(max(x) for x in vals if max(abs(v) for v in x) <= lim)
            pad = 0.08 * max(hi - lo, lim, 1e-9)
            edge = (min(lo, 0.0) - pad, max(hi, 0.0) + pad)
            ax.set_xlim(*edge)
        for yi, r, (d, lo_, hi_) in zip(y, rs, vals):
            c = ALERT if r.get("verdict", "changed" if r["significant"] else "") == "changed" else NEUTRAL
            if edge is None or (edge[0] <= lo_ and hi_ <= edge[1]):
                # (a bootstrap's percentile interval, the seat spread's, need not hold its estimate: no negative bar)
                err = [[max(d - lo_, 0.0)], [max(hi_ - d, 0.0)]]
                ax.errorbar([d], [yi], xerr=err, fmt="o", color=c, ms=3, capsize=2, lw=1)
            else:
                _off_scale(ax, yi, (d, lo_, hi_), edge, c)
        ax.axvline(0, color=GREY, lw=1)
        ax.set_yticks(y, [r.get("label") or r["name"] for r in rs], fontsize=7)
        ax.set_title(title)
        if edge is not None:
            ax.set_xlabel("clipped: off-scale rows show their values", fontsize=7)
    fig.suptitle("red: changed beyond its margin (significant after Holm)", fontsize=8)
    return fig


def _off_scale(ax, yi: float, est: tuple[float, float, float], edge: tuple[float, float], c: str) -> None:
    """One row that runs off the clipped axis ``edge``: the part inside drawn, an arrow at each edge it crosses,
    its estimate and interval ``est`` (value, low, high) written at that edge."""
    d, lo_, hi_ = est
    a, b = max(lo_, edge[0]), min(hi_, edge[1])
    if a < b:
        ax.plot([a, b], [yi, yi], color=c, lw=1)
    if edge[0] <= d <= edge[1]:
        ax.plot([d], [yi], "o", color=c, ms=3)
    for x, m, off in ((edge[1], ">", hi_ > edge[1]), (edge[0], "<", lo_ < edge[0])):
        if off:
            ax.plot([x], [yi], m, color=c, ms=5, clip_on=False)
    right = hi_ > edge[1]
    ax.annotate(
        f"{d:+.0f}% [{lo_:+.0f}, {hi_:+.0f}]",
        (edge[1] if right else edge[0], yi),
        xytext=(-5 if right else 5, 0),
        textcoords="offset points",
        ha="right" if right else "left",
        va="center",
        fontsize=6.5,
        fontweight="bold",
        color=c,
        bbox={"boxstyle": "square,pad=0.1", "fc": "white", "ec": "none"},
    )
