"""Plots for the balance and comparison reports: matplotlib (Agg, no pyplot state) to inline SVG strings.

SVG is self-contained (no JavaScript, no network) and byte-identical across runs: ``svg.hashsalt`` is fixed, the
date metadata is dropped, text stays text (``svg.fonttype = none``: small files, the browser's sans-serif font).
Plots inlined in one HTML page get their ids prefixed per plot (`scope_ids`), so no id repeats on the page.
Every plot function takes the summary dict (sim.stats.summary, schema 1) and returns a figure, or None when there is
nothing to draw; `render` turns it into one ``<svg>`` element as a string. (The comparison's forest plot:
sim.pages.forest_plot; histogram helpers: sim.pages.histograms.)
"""

from __future__ import annotations

import io
import re
from typing import Any, Literal

from sim.model import catalogue
from sim.pages.histograms import bars, coarsen, tail_cut
from sim.stats.records import Distribution, Rate, SummaryFigures, SummaryRates

RC: dict[Any, Any] = {
    "svg.hashsalt": "ghost-sim",
    "svg.fonttype": "none",
    "font.size": 9,
    "axes.titlesize": 10,
    "axes.spines.top": False,
    "axes.spines.right": False,
    "font.family": "sans-serif",
}
# One colour means one thing on a page: SEAT[i] is seat i wherever a seat is drawn (win rates, scores); NEUTRAL a
# figure of the whole table (turn positions, strategies, length, margin); OUTCOME how games end (loss causes);
# CURVE[k] the game's k-th per-round curve; GREY the fair share and reference lines; on a comparison page ALERT marks
# a significant difference.
SEAT = ("#3b6ea8", "#d9822b", "#4f9a57", "#7d5fa6", "#8c6d4f", "#d67ab1")
NEUTRAL = "#7b7b7b"
OUTCOME = "#b5464b"
ALERT = "#b5464b"
CURVE = ("#1f8a8a", "#c9a227", "#6f6f6f")
GREY = "#9a9a9a"
BLUE, ORANGE = SEAT[0], SEAT[1]
PALETTE = SEAT + ("#6f6f6f",)  # (kept for the sweep page: one colour per line of a sweep)


def _figure(
    w: float,
    h: float,
    ncols: int = 1,
    nrows: int = 1,
    layout: Literal["constrained", "compressed", "tight"] | None = "constrained",
    **kw,
):
    """A figure of ``w`` x ``h`` inches with ``nrows`` x ``ncols`` axes: (figure, [axes, row by row]). ``layout``
    None: no layout engine (the caller places the axes with ``subplots_adjust``)."""
    import matplotlib

    matplotlib.use("Agg", force=False)
    from matplotlib.figure import Figure

    fig = Figure(figsize=(w, h), layout=layout)
    if not nrows:  # (the caller places its own axes)
        return fig, []
    axes = fig.subplots(nrows, ncols, squeeze=False, **kw)
    return fig, [a for row in axes for a in row]


def to_svg(fig) -> str:
    """The figure as one ``<svg>`` element (XML prolog and DOCTYPE removed so it can sit inside HTML)."""
    import warnings

    import matplotlib

    buf = io.StringIO()
    with matplotlib.rc_context(RC), warnings.catch_warnings():
        warnings.simplefilter("ignore")  # layout notes (e.g. "constrained_layout not applied") are ours
        fig.savefig(buf, format="svg", metadata={"Date": None})
    text = buf.getvalue()
    return text[text.index("<svg") :].strip()


_ID = re.compile(r'\bid="([^"]+)"')


def scope_ids(svg: str, prefix: str) -> str:
    """The same SVG with every element id (clip paths, marker defs, figure/axes groups) and every reference to one
    (``url(#id)``, ``href="#id"``) prefixed, so several plots inlined in one HTML page never share an id (matplotlib
    numbers ids per figure and hashes clip paths by content, so two plots repeat them). Deterministic."""
    prefix = re.sub(r"[^A-Za-z0-9_.-]", "_", prefix)
    ids = set(_ID.findall(svg))
    if not ids:
        return svg

    def ref(m: re.Match) -> str:
        return m.group(1) + prefix + m.group(2) + m.group(3) if m.group(2) in ids else m.group(0)

    svg = _ID.sub(lambda m: f'id="{prefix}{m.group(1)}"', svg)
    svg = re.sub(r'(url\(#)([^)"\s]+)(\))', ref, svg)
    return re.sub(r'(href="#)([^"]+)(")', ref, svg)


def render(fn, *args) -> str | None:
    """Call a plot function under the report's rc settings and return its SVG (None when it draws nothing)."""
    import warnings

    import matplotlib

    with matplotlib.rc_context(RC), warnings.catch_warnings():
        warnings.simplefilter("ignore")  # matplotlib's warnings never reach the user's terminal
        fig = fn(*args)
        if fig is None:
            return None
        return to_svg(fig)


RATE_MARGIN_PTS = 1.0  # the margin band of a win-rate chart: within 1 percentage point of the fair share


def _errbars(ax, labels, rates, cis, color, fair=None, title=""):
    """Win rates as bars with 95% interval whiskers; with a ``fair`` share, each rate minus it in percentage points,
    with the +/-1 point margin band shaded (an effect of a point is invisible on bars that start at 0)."""
    import numpy as np

    x = np.arange(len(labels))
    base = 0.0 if fair is None else fair
    vals = [100 * (r - base) for r in rates]
    lo = [max(r - c[0], 0.0) for r, c in zip(rates, cis)]
    hi = [max(c[1] - r, 0.0) for r, c in zip(rates, cis)]
    if fair is not None:
        ax.axhspan(-RATE_MARGIN_PTS, RATE_MARGIN_PTS, color=GREY, alpha=0.2, lw=0)
        ax.axhline(0, color=GREY, ls="--", lw=1)
    ax.bar(x, vals, color=color, alpha=0.85, width=0.6)
    ax.errorbar(
        x, vals, yerr=[[100 * v for v in lo], [100 * v for v in hi]], fmt="none", ecolor="black", capsize=3, lw=1
    )
    ax.set_xticks(x, labels, rotation=20 if max((len(s) for s in labels), default=0) > 8 else 0)
    if fair is None:
        ax.set_ylabel("win rate (%)")
        ax.set_title(title)
        top = max((c[1] for c in cis), default=0.0)
        ax.set_ylim(0, min(100, 100 * top * 1.15 + 1))
        return
    ax.set_ylabel(f"win rate minus fair {100 * fair:.1f}%\n(percentage points)")
    ax.set_title(title + f"\n(shaded: within ±{RATE_MARGIN_PTS:g} point of fair)")
    reach = max([RATE_MARGIN_PTS * 1.5] + [abs(100 * (c[k] - fair)) for c in cis for k in (0, 1)])
    ax.set_ylim(-1.15 * reach, 1.15 * reach)


def win_rates(s: dict):
    """Win rate per seat (seat colours), per turn position and per strategy (when mixed; neutral colour), as the
    difference from the fair share in percentage points with 95% Wilson interval whiskers and the +/-1 point margin
    shaded. Competitive games only: a team game's rate is one number, stated
    once in the verdict (None)."""
    if s.get("team"):
        return None
    w = SummaryRates.of(s)
    fair = 1.0 / len(w.seats)
    panels: list[tuple[str, list[str], list[Rate], str | list[str]]] = [
        (
            "by seat",
            [f"seat {r.seat}\n{r.strategy}" for r in w.seats],
            [r.win for r in w.seats],
            [SEAT[r.seat % len(SEAT)] for r in w.seats],
        )
    ]
    if w.positions:
        panels.append(
            (
                "by turn position (0 = starts)",
                [str(p.position) for p in w.positions],
                [p.win for p in w.positions],
                NEUTRAL,
            )
        )
    if len(w.strategies) > 1:
        panels.append(
            ("by strategy (per seat)", [r.strategy for r in w.strategies], [r.win for r in w.strategies], NEUTRAL)
        )
    fig, axes = _figure(3.2 * len(panels) + 0.6, 3.0, ncols=len(panels))
    for ax, (title, labels, rates, color) in zip(axes, panels):
        _errbars(ax, labels, [r.rate for r in rates], [r.ci95 for r in rates], color, fair, title)
    return fig


def seat_groups(s: dict) -> list[tuple[list[int], dict]]:
    """Seats whose score distributions are identical (team-mates: one result per game) as one group each:
    [(seats, seat row of the first)], in seat order."""
    groups: list[tuple[list[int], dict]] = []
    for r in s["seats"]:
        d = Distribution.of(r.get("score"))
        if not d.n:
            continue
        for seats, first in groups:
            f = Distribution.of(first.get("score"))
            if (f.lo, f.counts) == (d.lo, d.counts) and first.get("role") == r.get("role"):
                seats.append(r["seat"])
                break
        else:
            groups.append(([r["seat"]], r))
    return groups


def _seats_text(seats: list[int]) -> str:
    if len(seats) == 1:
        return f"seat {seats[0]}"
    run = seats == list(range(seats[0], seats[-1] + 1))
    return f"seats {seats[0]}-{seats[-1]}" if run else "seats " + ", ".join(map(str, seats))


FEW_VALUES = 15  # score distributions spanning at most this many values are drawn as bars, wider ones as steps


def scores(s: dict):
    """Score distribution per seat (share of finished games at each score); seats with identical distributions
    (team-mates) drawn once, in the seat's colour when alone, else the neutral colour. Scores spanning at most
    FEW_VALUES values (Turnwall's 1..5 body parts) as bars side by side per score, wider spans as step lines; when
    every seat scored one value only (a run of one game) each seat's score is one bar (a step line of one point
    draws nothing). None when no seat has a score."""
    import numpy as np
    from matplotlib.ticker import MaxNLocator

    groups = seat_groups(s)
    dist = [Distribution.of(r.get("score")) for _, r in groups]
    if not groups or not any(d.n for d in dist):
        return None
    single = all(d.max == d.min for d in dist)
    cat = catalogue.for_summary(s)
    fig, (ax,) = _figure(7.0, 3.0)
    lo = min(d.lo for d in dist)
    hi = max(d.lo + len(d.counts) - 1 for d in dist)
    bars = single or hi - lo + 1 <= FEW_VALUES
    width = 0.8 / len(groups)
    for i, ((seats, r), d) in enumerate(zip(groups, dist)):
        color = SEAT[seats[0] % len(SEAT)] if len(seats) == 1 else NEUTRAL
        c = np.asarray(d.counts, float)
        x = d.lo + np.arange(len(c))
        who = _seats_text(seats) + (
            f" {r['strategy']}" if len(seats) == 1 else f" ({r.get('role') or 'same'}s: identical)"
        )
        label = f"{who} (mean {d.mean:.1f})"
        if bars:
            ax.bar(
                x + (i - (len(groups) - 1) / 2) * width,
                100 * c / c.sum(),
                width=width,
                color=color,
                alpha=0.85,
                label=label,
            )
        else:
            ax.step(x, 100 * c / c.sum(), where="mid", color=color, lw=1.4, label=label)
    ax.xaxis.set_major_locator(MaxNLocator(integer=True))
    roles = {r.get("role") for _, r in groups}
    ax.set_xlabel(f"final score ({cat.unit('score.seat0')})" if len(roles) == 1 else "final score (see above)")
    ax.set_ylabel("games (%)")
    ax.set_title("final score")
    ax.legend(fontsize=7, frameon=False)
    return fig


def length(s: dict):
    """Game length: histograms of turns and of rounds."""
    import numpy as np

    cat = catalogue.for_summary(s)
    L = SummaryFigures.of(s).length
    fig, axes = _figure(7.0, 2.8, ncols=2)
    for ax, key, d, color in zip(axes, ("turns", "rounds"), (L.turns, L.rounds), (NEUTRAL, NEUTRAL)):
        c = np.asarray(d.counts, float)
        if not c.size or c.sum() == 0:
            continue
        x = d.lo + np.arange(len(c))
        keep = tail_cut(c)
        w, xb, cb = coarsen(x[:keep], c[:keep])
        bars(ax, xb, 100 * cb / c.sum(), float(w), color, 0.85)
        ax.axvline(d.mean, color="black", lw=1, ls="--", label=f"mean {d.mean:.1f}")
        unit = cat.unit(f"length.{key}")
        if keep < len(c):  # a few very long games would squash the rest into one corner
            cut = int(c[keep:].sum())
            ax.set_xlabel(
                f"{unit}; cut off at {int(x[keep - 1])}: the {cut:,} longest game{'s' if cut != 1 else ''}"
                f" ({100 * cut / c.sum():.1f}%) not drawn",
                fontsize=8,
            )
        else:
            ax.set_xlabel(unit)
        from matplotlib.ticker import MaxNLocator

        ax.xaxis.set_major_locator(MaxNLocator(integer=True))  # counted: no 7.5 rounds
        ax.set_ylabel("games (%)" if w == 1 else f"games (%) per {w} {unit}")
        ax.set_title(cat.label(f"length.{key}"))
        ax.legend(fontsize=7, frameon=False)
    return fig


def margin(s: dict):
    """Decisiveness: distribution of the winner's margin, one bar per whole value on whole-number ticks."""
    import numpy as np
    from matplotlib.ticker import MaxNLocator

    d = SummaryFigures.of(s).decisiveness
    if not d or not d.margin.n:
        return None
    c = np.asarray(d.margin.counts, float)
    x = d.margin.lo + np.arange(len(c))
    fig, (ax,) = _figure(7.0, 2.6)
    ax.bar(x, 100 * c / c.sum(), width=0.8, color=NEUTRAL, alpha=0.85)
    ax.xaxis.set_major_locator(MaxNLocator(integer=True))
    cat = catalogue.for_summary(s)
    ax.set_xlabel(f"{cat.label('margin')} ({cat.unit('margin')})")
    ax.set_ylabel("games (%)")
    ax.set_title(cat.label("margin"))
    return fig


def curves(s: dict):
    """Game-specific per-round curves (e.g. hauntings and ghosts on the board): the mean over the games still
    running with its 95% interval band (one colour per curve), and the share of games still running."""
    import numpy as np

    cv = s.get("curves") or {}
    if not cv:
        return None
    cat = catalogue.for_summary(s)
    fin = SummaryFigures.of(s).games.finished or 1
    least = min_games(fin)
    fig, axes = _figure(7.0, 2.9, ncols=2)
    drawn = False
    for k, (name, c) in enumerate(cv.items()):
        alive = c["games_by_round"]
        r = [i for i, g in enumerate(alive) if g >= least and c["mean_by_round"][i] is not None]
        if not r:
            continue
        last = r[-1] + 1
        x = np.arange(1, last + 1)
        m = np.array([np.nan if v is None else v for v in c["mean_by_round"][:last]], float)
        color = CURVE[k % len(CURVE)]
        lab = cat.label(f"curve.{name}")
        ci = (c.get("ci95_by_round") or [None] * last)[:last]
        if any(b is not None for b in ci):
            lo = np.array([np.nan if b is None else b[0] for b in ci], float)
            hi = np.array([np.nan if b is None else b[1] for b in ci], float)
            axes[0].fill_between(x, lo, hi, color=color, alpha=0.25, lw=0)
        axes[0].plot(x, m, color=color, lw=1.5, label=lab)
        if not drawn:  # every curve runs as long as the game: one line of games still running
            axes[1].plot(x, [100 * g / fin for g in alive[:last]], color=NEUTRAL, lw=1.4)
        drawn = True
    if not drawn:
        return None
    from matplotlib.ticker import MaxNLocator

    for ax in axes:
        ax.xaxis.set_major_locator(MaxNLocator(integer=True))
        ax.set_xlabel("round")
    axes[0].set_title("mean by round, 95% band")
    axes[0].legend(fontsize=7, frameon=False)
    axes[1].set_title("games still running")
    axes[1].set_ylabel("games (%)")
    return fig


def fit_lines(parts: list[str], inches: float, size: float = RC["font.size"]) -> str:
    """``parts`` as one line when it fits in ``inches`` at font ``size`` (points), else a line each, each wrapped to
    fit: a colorbar label or a title longer than its figure is cut off at the edge ('first-player advantage
    (percentage poin'). Widths are estimated (0.6 em a character, a little over the sans-serif average)."""
    import textwrap

    per_line = max(8, int(inches * 72 / (0.6 * size)))
    parts = [p for p in parts if p]
    one = " ".join(parts)
    if len(one) <= per_line:
        return one
    return "\n".join(textwrap.fill(p, per_line) for p in parts)


def cell_text_color(im, value: float) -> str:
    """The colour of a number written on a heatmap cell of ``value`` (in ``im``'s units): white on a dark cell,
    black on a light one, by the cell's luminance (black on the dark ends of RdBu could not be read)."""
    r, g, b, _ = im.cmap(im.norm(value))
    return "white" if 0.299 * r + 0.587 * g + 0.114 * b < 0.5 else "black"


def min_games(finished: int) -> int:
    """Rounds reached by fewer games than this are left out of the per-round curves (means of a handful of long
    games are noise)."""
    return max(30, finished // 200)


def matchups(s: dict):
    """Strategy-vs-strategy matrix: share of pairings in which the row strategy outscored the column's."""
    import numpy as np

    m = s.get("matchups") or {}
    names = sorted(m)
    if len(names) < 2:
        return None
    a = np.array([[m[r].get(c, np.nan) for c in names] for r in names], float)
    fig, (ax,) = _figure(0.9 * len(names) + 2.2, 0.7 * len(names) + 1.0)
    im = ax.imshow(100 * a, cmap="RdBu", vmin=30, vmax=70)
    ax.set_xticks(range(len(names)), names, rotation=30)
    ax.set_yticks(range(len(names)), names)
    for i in range(len(names)):
        for j in range(len(names)):
            if not np.isnan(a[i, j]):
                c = cell_text_color(im, 100 * a[i, j])
                ax.text(j, i, f"{100 * a[i, j]:.1f}", ha="center", va="center", fontsize=8, color=c)
    ax.set_title("row outscores column (%)")
    fig.colorbar(im, ax=ax, shrink=0.8)
    return fig


def common_prefix(labels: list[str]) -> str:
    """The words every label starts with (two or more labels), e.g. 'hunters lose with' of 'hunters lose with 8
    jewels ...' and 'hunters lose with 7 jewels ...'; '' when they share no leading word or it would leave one empty."""
    if len(labels) < 2:
        return ""
    words = [x.split() for x in labels]
    k = 0
    while all(len(w) > k + 1 for w in words) and len({w[k] for w in words}) == 1:
        k += 1
    return " ".join(words[0][:k])


def categorical(s: dict, col: str):
    """Shares of a categorical game counter (how games end, the loss causes) with 95% Wilson interval bars, one
    horizontal bar per value shown (`catalogue.View.category_values`: a value no game reached is a 0 bar; the
    catalogue's labels, less the words they all start with, which the title says). None with fewer than two values
    to show."""
    from sim.stats.metrics import wilson

    d = s["extras"].get(col, {})
    counts = d.get("counts")
    if not counts:
        return None
    cat = catalogue.for_summary(s)
    total = sum(counts.values())
    shown = cat.category_values(col, counts)
    keys = [k for k, _ in shown]
    if len(keys) < 2:  # one bar says nothing a sentence (the verdict, the table) does not
        return None
    labels = [cat.label(f"extra.{col}={k}") for k in keys]
    pre = common_prefix(labels)
    if pre:
        labels = [x[len(pre) :].strip() for x in labels]
    rates = [n / total for _, n in shown]
    cis = [wilson(n, total) for _, n in shown]
    fig, (ax,) = _figure(7.0, 0.3 * len(keys) + 1.1)
    y = list(range(len(keys)))[::-1]
    ax.barh(y, [100 * r for r in rates], color=OUTCOME, alpha=0.85, height=0.6)
    ax.errorbar(
        [100 * r for r in rates],
        y,
        xerr=[
            [100 * max(r - c[0], 0) for r, c in zip(rates, cis)],
            [100 * max(c[1] - r, 0) for r, c in zip(rates, cis)],
        ],
        fmt="none",
        ecolor="black",
        capsize=2,
        lw=1,
    )
    ax.set_yticks(y, labels)
    ax.set_xlabel("finished games (%)")
    ax.set_title(cat.label(f"extra.{col}"))
    return fig
