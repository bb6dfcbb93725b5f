"""Histograms that stay readable and fast to draw: long ones coarsened to nice bin widths (`coarsen`), a far tail
cut (`tail_cut`), many bars drawn as one path (`bars`). Used by the report's length and score plots
(sim.pages.plots); matplotlib axes in, nothing drawn on a figure of their own.
"""

from __future__ import annotations

MANY_BARS = 60  # a histogram of more bars than this is drawn as one path (`bars`)


def bars(ax, x, heights, width: float, color, alpha: float) -> None:
    """Vertical bars of ``width`` centred on ``x``, from 0 to ``heights`` (1-d, equal lengths; data units), without
    edges, the y axis starting at 0: ``ax.bar``. More than MANY_BARS bars (a Galleon game lasts 40 to 600 turns: a
    few hundred bars) are one path of those rectangles instead of one Rectangle artist each, which the layout, the
    legend's placement and the SVG writer each walk (about half of such a plot's time). The page shows the same bars
    (no seams between them) and the legend goes where it went: the rectangles' sides are in the path, so a spot
    overlapping a bar is never free, and with so many bars no legend fits inside one."""
    import numpy as np

    x = np.asarray(x, float)
    h = np.asarray(heights, float)
    if len(x) <= MANY_BARS:
        ax.bar(x, h, width=width, color=color, alpha=alpha)
        return
    from matplotlib.patches import PathPatch
    from matplotlib.path import Path

    lo, hi, zero = x - width / 2, x + width / 2, np.zeros_like(h)
    verts = np.stack([np.c_[lo, zero], np.c_[lo, h], np.c_[hi, h], np.c_[hi, zero], np.c_[lo, zero]], 1)
    codes = np.full(verts.shape[:2], Path.LINETO, dtype=Path.code_type)
    codes[:, 0], codes[:, -1] = Path.MOVETO, Path.CLOSEPOLY
    patch = PathPatch(Path(verts.reshape(-1, 2), codes.ravel()), facecolor=color, edgecolor="none", alpha=alpha)
    patch.sticky_edges.y.append(0)
    ax.add_patch(patch)
    ax.autoscale_view()  # ax.bar asks for it; add_patch only widens the data limits


NICE_WIDTHS = (1, 2, 5, 10, 20, 25, 50, 100, 200, 250, 500, 1000)


def coarsen(x, counts, max_bars: int = 80):
    """A histogram of one bin per value (``x`` consecutive integers, ``counts`` games per value, 1-d) as at most
    ``max_bars`` bins of the smallest NICE_WIDTHS width that fits: a Galleon game lasts 40 to 600 turns, and one
    bar per turn of a few thousand games is mostly noise. Returns (width, bin centres, games per bin); width 1 gives
    the input back. Bins start at multiples of the width."""
    import numpy as np

    x = np.asarray(x, float)
    c = np.asarray(counts, float)
    if len(c) == 0:
        return 1, x, c
    w = next((n for n in NICE_WIDTHS if len(c) / n <= max_bars), NICE_WIDTHS[-1])
    if w == 1:
        return 1, x, c
    start = np.floor(x / w).astype(np.int64)
    idx = start - start[0]
    cb = np.bincount(idx, weights=c)
    return w, (start[0] + np.arange(len(cb))) * w + (w - 1) / 2, cb


def tail_cut(counts, share: float = 0.999, stretch: int = 3) -> int:
    """How many histogram bins to draw: all of them, unless the bins holding the last (1 - ``share``) of the games
    stretch the axis to more than ``stretch`` times the span holding ``share`` of them (Turnwall: most games last
    5-8 rounds, one lasted 120); then the bins up to that ``share``. ``counts``: games per bin (1-d array)."""
    import numpy as np

    c = np.asarray(counts, float)
    total = c.sum()
    if total <= 0:
        return len(c)
    keep = int(np.searchsorted(np.cumsum(c), share * total)) + 1
    return keep if len(c) > stretch * keep else len(c)
