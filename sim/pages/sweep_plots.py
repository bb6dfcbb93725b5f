"""A sweep's plots (inline SVG, from the sweep.json dict): each chosen measure against one swept axis with its 95%
band (`line_plot`, one curve per value of a second axis, one panel per value of a third), a heatmap for two axes
(`heatmap`), and the list the page draws (`plot_list`)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from sim.model.words import with_sign
from sim.pages import plots
from sim.stats.records import Estimate

if TYPE_CHECKING:
    from matplotlib.lines import Line2D

from sim.pages.sweep_words import (
    TARGET_COLOR,
    _scale,
    _x,
    axis_title,
    label,
    value_words,
    zip_ticks,
    zipped,
)

MAX_CURVES = 7  # curves drawn in one panel (one per value of the second axis); the table keeps every point
MAX_PANELS = 6  # panels of a figure (one per value of the third axis)


def spread(n: int, k: int) -> list[int]:
    """``k`` evenly spaced indices of ``n`` values, first and last included (all of them when ``n <= k``)."""
    if n <= k:
        return list(range(n))
    return sorted({round(i * (n - 1) / (k - 1)) for i in range(k)})


@dataclass
class View:
    """How a grid sweep's line plot against axis ``x`` is laid out: one curve per shown value of axis ``curve``,
    one panel per shown value of axis ``panel`` (either None when the sweep has fewer axes), the axes beyond the
    third held at one value each (``fixed``: name -> value index); ``curves``/``panels``: the value indices
    drawn."""

    x: int
    curve: int | None
    panel: int | None
    curves: list
    panels: list
    fixed: dict


def view(d: dict, axis: int) -> View:
    """The layout of the line plot of grid sweep ``d`` against axis ``axis`` (see `View`): the other axes in
    order give the curves, then the panels; more than `MAX_CURVES` / `MAX_PANELS` values are thinned to evenly
    spaced ones (first and last kept, the scenario's own value put in place of the nearest); axes beyond the
    third are held at the scenario's own value (else their first)."""
    axes = d["axes"]
    others = [j for j in range(len(axes)) if j != axis]
    curve = others[0] if others else None
    panel = others[1] if len(others) > 1 else None
    fixed = {}
    pts = {r["index"]: r for r in d["points"]}
    own = pts.get(d.get("default"))
    for j in others[2:]:
        a = axes[j]
        fixed[a["name"]] = _pos(a, own["values"][a["name"]]) if own else 0

    def picks(j: int | None, k: int) -> list:
        if j is None:
            return [None]
        out = spread(len(axes[j]["values"]), k)
        mine = _pos(axes[j], own["values"][axes[j]["name"]]) if own else None
        if mine is not None and mine not in out:  # the scenario's own value always drawn (its diamond)
            inner = range(1, len(out) - 1) if len(out) > 2 else range(len(out))
            out[min(inner, key=lambda q: abs(out[q] - mine))] = mine
        return sorted(out)

    return View(axis, curve, panel, picks(curve, MAX_CURVES), picks(panel, MAX_PANELS), fixed)


def view_note(d: dict, v: View) -> str:
    """What a thinned or held view leaves out, for the caption ("" when it draws every point)."""
    axes = d["axes"]
    out = []
    for j, shown, what in ((v.curve, v.curves, "curves"), (v.panel, v.panels, "panels")):
        if j is not None and len(shown) < len(axes[j]["values"]):
            a = axes[j]
            out.append(
                f"{what}: {len(shown)} of the {len(a['values'])} values of {label(a)} "
                f"({', '.join(a['labels'][i] for i in shown)})"
            )
    for name, i in v.fixed.items():
        a = next(x for x in axes if x["name"] == name)
        out.append(f"{label(a)} held at {value_words(a, a['labels'][i])}")
    return ("; ".join(out) + "; every point is in the table below") if out else ""


def _pos(ax: dict, v) -> int:
    import json

    return [json.dumps(x) for x in ax["values"]].index(json.dumps(v))


def line_plot(d: dict, m: dict, axis: int):
    """Measure ``m`` against axis ``axis`` with its interval band, the scenario's point marked, the target drawn
    and the points containing it highlighted. A grid: one curve per value of the next axis, one panel per value of
    the axis after it, thinned and held as `view` says (a legend beside the plot naming the curves). A zipped
    sweep (`zipped`) is one line along its points in order (x = point, each labelled with its values; ``axis``
    unused): its axes change together, so no axis has a curve of its own."""
    import json

    axes = d["axes"]
    ax = axes[axis]
    xs, labels, numeric = _x(ax)
    k = _scale(m["kind"])
    tgt = d.get("target")
    along = zipped(d)
    v = View(axis, None, None, [None], [None], {}) if along else view(d, axis)  # zipped: one line, one panel
    key = lambda a, val: (a["name"], json.dumps(val))  # noqa: E731
    cells: dict[tuple, list] = {}  # (panel value index, curve value index) -> rows
    if along:
        cells[(None, None)] = sorted(d["points"], key=lambda r: r["index"])
    else:
        where = {key(a, val): i for a in axes for i, val in enumerate(a["values"])}
        cs, ps = set(v.curves), set(v.panels)
        for r in d["points"]:
            idx = {a["name"]: where[key(a, r["values"][a["name"]])] for a in axes}
            if any(idx[n] != i for n, i in v.fixed.items()):
                continue
            c = idx[axes[v.curve]["name"]] if v.curve is not None else None
            pn = idx[axes[v.panel]["name"]] if v.panel is not None else None
            if c in cs and pn in ps:
                cells.setdefault((pn, c), []).append((idx[ax["name"]], r))
        cells = {c: [r for _, r in sorted(rows, key=lambda t: t[0])] for c, rows in cells.items()}
    panels = [None] if along else v.panels
    nc = min(len(panels), 3)
    nr = -(-len(panels) // nc)
    legend = not along and len(v.curves) > 1
    w, h = (7.0 if nc == 1 else 3.3 * nc) + (1.5 if legend else 0), 3.6 if nr == 1 else 2.5 * nr + 0.7
    fixed = not along and (nc > 1 or legend)  # fixed margins (inches): the constrained layout pass of many
    fig, subs = plots._figure(
        w, h, ncols=nc, nrows=nr, layout=None if fixed else "constrained", sharex=True, sharey=True
    )  # panels costs more than drawing them
    if fixed:
        fig.subplots_adjust(
            left=0.8 / w,
            right=1 - (1.6 if legend else 0.2) / w,
            bottom=0.6 / h,
            top=1 - (0.35 if v.panel is not None else 0.15) / h,
            wspace=0.12,
            hspace=0.45,
        )
    curves = [None] if along else v.curves
    colors = _colors(len(curves), numeric=not along and v.curve is not None and axes[v.curve]["numeric"])
    handles: dict[int, Line2D] = {}  # curve value index -> its line, for the legend
    for a, pn in zip(subs, panels):
        for ci, c in enumerate(curves):
            rows = cells.get((pn, c), [])
            pos = list(range(len(rows))) if along else [xs[where[key(ax, r["values"][ax["name"]])]] for r in rows]
            vals = [Estimate.of(r["measures"][m["name"]]) for r in rows]
            ok = [i for i, x in enumerate(vals) if x.value is not None]
            px = [pos[i] for i in ok]
            color = colors[ci]
            if numeric or along:  # a numeric axis (or the order of zipped points): a curve and its band
                a.fill_between(
                    px,
                    [k * vals[i].lo for i in ok],
                    [k * vals[i].hi for i in ok],
                    color=color,
                    alpha=0.2 if len(curves) <= 3 else 0.1,
                    lw=0,
                )
                (ln,) = a.plot(
                    px, [k * vals[i].known for i in ok], "o-", color=color, ms=3 if len(px) < 30 else 2, lw=1.2
                )
            else:  # categories (choices, booleans, lists): points with whiskers, never
                dx = dodge(ci, len(curves))  # a line between them; the curves side by side within a category
                pos = [x + dx for x in pos]
                px = [pos[i] for i in ok]
                y = [k * vals[i].known for i in ok]
                err = [  # never below 0: a 0% rate's Wilson bound can sit a rounding error above its value
                    [max(0.0, yv - k * vals[i].lo) for yv, i in zip(y, ok)],
                    [max(0.0, k * vals[i].hi - yv) for yv, i in zip(y, ok)],
                ]
                ln = a.errorbar(px, y, yerr=err, fmt="o", color=color, ms=5, capsize=4, lw=1.2).lines[0]
            if c is not None:
                handles.setdefault(c, ln)
            for i in ok:
                r = rows[i]
                if tgt and tgt["measure"] == m["name"] and r["index"] in tgt["containing"]:
                    a.plot([pos[i]], [k * vals[i].known], "o", ms=8, mfc="none", mec=TARGET_COLOR, mew=1.5)
                if r["index"] == d.get("default"):
                    a.plot([pos[i]], [k * vals[i].known], "D", ms=7, color="black", zorder=5)
        if tgt and tgt["measure"] == m["name"]:
            a.axhline(k * tgt["value"], color=TARGET_COLOR, ls="--", lw=1)
        if m["name"] == "first_player_advantage" and not (tgt and tgt["measure"] == m["name"]):
            a.axhline(0, color=plots.GREY, ls=":", lw=1)
        if pn is not None:
            pa = axes[v.panel]
            a.set_title(f"{label(pa)} = {value_words(pa, pa['labels'][pn])}", fontsize=9)
    for a in subs[len(panels) :]:
        a.set_visible(False)
    # (a long label in two lines: one line longer than the plot is high was cut at both ends)
    ylabel = wrap_label(m["label"] + {"rate": " (%)", "points": " (percentage points)"}.get(m["kind"], ""), 36)
    if along:  # many or long values: one slanted line a tick
        (a,) = subs
        names = [label(o) for o in axes]
        wide = max(len(t) for r in d["points"] for t in r["labels"].values()) * len(d["points"]) > 80
        a.set_xticks(
            range(len(d["points"])),
            zip_ticks(d, " / " if wide else "\n"),
            rotation=30 if wide else 0,
            ha="right" if wide else "center",
        )
        a.set_xlabel("zipped points, each tick " + (" / ".join(names) if wide else " over ".join(names)))
        a.set_ylabel(ylabel)
        return fig
    whole = numeric and all(float(v).is_integer() for v in xs)
    for i, a in enumerate(subs[: len(panels)]):
        if not numeric:
            a.set_xticks(xs, [wrap_label(s) for s in labels])
            a.set_xlim(-0.5, len(xs) - 0.5)
        elif whole and len(xs) <= 12:  # few whole values: a tick at each value played (20, 30, 40)
            a.set_xticks(xs, labels)
        elif whole:  # die faces, track length: no 4.5 between 4 and 5
            from matplotlib.ticker import MaxNLocator

            a.xaxis.set_major_locator(MaxNLocator(integer=True))
        if i // nc == nr - 1 or i + nc >= len(panels):
            a.set_xlabel(axis_title(ax))
            a.xaxis.set_tick_params(labelbottom=True)
        if i % nc == 0:
            a.set_ylabel(ylabel)
    if len(curves) > 1:  # beside the plot, never over it; one entry per curve drawn
        ca = axes[v.curve]
        fig.legend(
            [handles[c] for c in curves if c in handles],
            [ca["labels"][c] for c in curves if c in handles],
            title=wrap_label(axis_title(ca), 22),
            loc="upper left",
            bbox_to_anchor=(1 - 1.5 / w, 1 - 0.1 / h),
            fontsize=7,
            title_fontsize=8,
            frameon=False,
        )
    return fig


def dodge(i: int, n: int, width: float = 0.5) -> float:
    """The x offset of curve ``i`` of ``n`` within one category: side by side over ``width`` of the category's slot,
    so whiskers of different curves never hide each other (0 for a single curve)."""
    return 0.0 if n <= 1 else width * (i / (n - 1) - 0.5)


def wrap_label(text: str, width: int = 14) -> str:
    """A category's tick label broken into lines of at most about ``width`` characters at its words or underscores
    ("pirate_moves_other_die" -> "pirate_moves_\nother_die"), so long choice names are never clipped."""
    parts = [p for p in text.replace("_", "_ ").split(" ") if p]
    lines: list[str] = []
    for part in parts:
        if lines and len(lines[-1]) + len(part) <= width:
            lines[-1] += part if lines[-1].endswith("_") else " " + part
        else:
            lines.append(part)
    return "\n".join(lines)


def _colors(n: int, numeric: bool) -> list:
    """One colour per curve: a sequential scale (viridis) for the values of a numeric axis, in order; the sweep
    palette otherwise."""
    if numeric and n > 1:
        from matplotlib import colormaps

        cm = colormaps["viridis"]
        return [cm(0.85 * i / (n - 1)) for i in range(n)]
    return [plots.PALETTE[i % len(plots.PALETTE)] for i in range(n)]


def heatmap(d: dict, m: dict):
    """Measure ``m`` over a two-parameter grid: colour = estimate, text = estimate and interval; the scenario's
    point outlined in black, the points whose interval contains the target outlined in red."""
    import numpy as np

    ax0, ax1 = d["axes"]
    n0, n1 = len(ax0["values"]), len(ax1["values"])
    k = _scale(m["kind"])
    grid = np.full((n0, n1), np.nan)
    text = [["" for _ in range(n1)] for _ in range(n0)]
    tgt = d.get("target")
    for r in d["points"]:
        i, j = divmod(r["index"], n1)
        v = Estimate.of(r["measures"][m["name"]])
        if v.value is not None:
            grid[i, j] = k * v.value
            num = (
                (lambda x: with_sign(x, 1))
                if diverging(m)
                else (lambda x: f"{abs(x):.1f}" if abs(x) < 0.05 else f"{x:.1f}")
            )  # no "-0.0"
            text[i][j] = f"{num(k * v.value)}\n[{num(k * v.lo)}, {num(k * v.hi)}]"
    height = min(0.55 * n0 + 1.6, 9)
    fig, (a,) = plots._figure(min(1.1 * n1 + 2.5, 11), height)
    if diverging(m):  # white at 0, the same depth of colour for +x and -x
        from matplotlib.colors import CenteredNorm

        im = a.imshow(grid, cmap="RdBu_r", norm=CenteredNorm(vcenter=0.0), aspect="auto", origin="lower")
    else:
        im = a.imshow(grid, cmap="viridis", aspect="auto", origin="lower")
    unit = {"rate": "(%)", "points": "(percentage points)"}.get(m["kind"], "")
    fig.colorbar(im, ax=a, label=plots.fit_lines([m["label"], unit], height - 0.3))  # the whole label in the figure
    for i in range(n0):
        for j in range(n1 if annotated(d) else 0):
            if text[i][j]:  # white text on dark cells
                c = plots.cell_text_color(im, grid[i, j])
                a.text(j, i, text[i][j], ha="center", va="center", fontsize=7, color=c)
    for r in d["points"]:
        i, j = divmod(r["index"], n1)
        if tgt and tgt["measure"] == m["name"] and r["index"] in tgt["containing"]:
            a.add_patch(_rect(j, i, TARGET_COLOR))
        if r["index"] == d.get("default"):
            a.add_patch(_rect(j, i, "black"))
    a.set_xticks(range(n1), [_label(ax1, v) for v in ax1["values"]])
    a.set_yticks(range(n0), [_label(ax0, v) for v in ax0["values"]])
    a.set_xlabel(axis_title(ax1))
    a.set_ylabel(axis_title(ax0))
    return fig


def diverging(m: dict) -> bool:
    """Whether measure ``m`` has a sign that matters (a rate minus its fair share, e.g. the first-player
    advantage): its heatmap is red-blue centred on 0, never on the data."""
    return m["kind"] == "points"


def colour_words(m: dict) -> str:
    """What the colours of ``m``'s heatmap mean, for its caption."""
    if m["name"] == "first_player_advantage":
        return (
            "colour: red = the first player wins more than the fair share, blue = less, white = fair (0); the "
            "scale is centred on 0, the same depth of colour for the same size either way"
        )
    if diverging(m):
        return "colour: red above 0, blue below, white at 0 (the scale is centred on 0)"
    return "colour: the value, dark purple lowest to yellow highest"


HEAT_TEXT_MAX = 120  # cells of a heatmap written with their numbers; more: colour only (numbers in the table)


def annotated(d: dict) -> bool:
    """Whether the heatmap of ``d`` writes each cell's estimate and interval (few enough cells to read them)."""
    return len(d["axes"][0]["values"]) * len(d["axes"][1]["values"]) <= HEAT_TEXT_MAX


def _rect(x, y, color):
    from matplotlib.patches import Rectangle

    return Rectangle((x - 0.48, y - 0.48), 0.96, 0.96, fill=False, ec=color, lw=2)


def _label(ax: dict, v) -> str:
    return ax["labels"][ax["values"].index(v)]


def nothing_to_draw(d: dict, m: dict) -> str:
    """Why measure ``m`` has no plot: a rate that is 0 at every point (no shared win anywhere: a flat line at 0
    says nothing), in words; "" when it has one."""
    vals = [r["measures"].get(m["name"], {}).get("value") for r in d["points"]]
    if m["kind"] != "rate" or not vals or any(v is None or v != 0 for v in vals):
        return ""
    return (
        f"{m['label']}: 0% at every point (not one finished game of any point), so no curve is drawn; each "
        "point's 95% interval is in the table below"
    )


def plot_list(d: dict) -> list[tuple[str, str, str | None]]:
    """(id, caption, svg) of every plot of the page (svg None: nothing drawn, the caption says why)."""
    out: list[tuple[str, str, str | None]] = []
    for m in d["chosen"]:
        if none := nothing_to_draw(d, m):  # (svg None: the page shows the caption as a note)
            out.append((f"none-{m['name']}", none, None))
            continue
        if d["mode"] == "grid" and len(d["axes"]) == 2:
            out.append(
                (
                    f"heat-{m['name']}",
                    f"{m['label']}: {label(d['axes'][0])} x {label(d['axes'][1])} ("
                    + colour_words(m)
                    + (
                        "; each cell: estimate [95% interval]"
                        if annotated(d)
                        else "; too many cells to write their numbers: each point's value and "
                        "interval is in the table below"
                    )
                    + ")",
                    plots.render(heatmap, d, m),
                )
            )
        own = "; diamond: the scenario's own point" if d.get("default") is not None else ""
        if zipped(d):
            names = ", ".join(label(a) for a in d["axes"])
            out.append(
                (
                    f"line-{m['name']}-zip",
                    f"{m['label']} along the zipped points ({names} change together: "
                    f"point i plays the i-th value of each; band: 95% interval{own})",
                    plots.render(line_plot, d, m, 0),
                )
            )
            continue
        for j, ax in enumerate(d["axes"] if d["mode"] == "grid" else d["axes"][:1]):
            note = view_note(d, view(d, j)) if d["mode"] == "grid" else ""
            what = "band" if ax["numeric"] else "whiskers"  # categories are points with whiskers
            out.append(
                (
                    f"line-{m['name']}-{ax['name']}",
                    f"{m['label']} against {label(ax)} ({what}: 95% interval"
                    f"{own})" + (f". Shown: {note}" if note else ""),
                    plots.render(line_plot, d, m, j),
                )
            )
    return out
