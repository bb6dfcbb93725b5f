"""A sweep's numbers and axes in words, shared by its page (`sim.pages.sweep_page`), its plots
(`sim.pages.sweep_plots`) and the terminal: a value with its unit, an interval, an axis's label, a point's values."""

from __future__ import annotations

from typing import TYPE_CHECKING

from sim.model.words import POINTS, with_sign
from sim.stats.records import Estimate

if TYPE_CHECKING:
    pass

TARGET_COLOR = "#b5464b"


def fmt(kind: str, v, signed: bool = False, unit: str = "") -> str:
    """A measure's value as the page shows it: rates in %, differences of rates in points, means as numbers with
    their ``unit`` ("4.503 gold", "39.505 rounds"; n/a for None)."""
    if v is None:
        return "n/a"
    if unit and kind not in ("rate", "points"):
        return f"{fmt(kind, v, signed)} {unit}"
    if kind == "rate":
        return f"{with_sign(100 * v, 2)}%" if signed else f"{100 * v:.2f}%"
    if kind == "points":  # a rate minus its fair share: percentage points
        return f"{with_sign(100 * v, 2)} {POINTS}"
    return f"{with_sign(v, 3)}" if signed else f"{v:.3f}"


def diff_kind(kind: str) -> str:
    """The kind a difference of two values of ``kind`` is written as: rates differ in percentage points."""
    return "points" if kind == "rate" else kind


def fmt_ci(kind: str, c, signed: bool = False) -> str:
    """The 95% interval ``c`` (lo, hi) of a quantity of ``kind``, written after its value (`fmt`), which carries
    the unit: percentage points are not named twice."""
    if not c:
        return "n/a"
    if kind == "points":
        return f"[{with_sign(100 * c[0], 2)}, {with_sign(100 * c[1], 2)}]"
    return f"[{fmt(kind, c[0], signed)}, {fmt(kind, c[1], signed)}]"


def fmt_est(kind: str, record: dict, signed: bool = False, unit: str = "", key: str = "value") -> str:
    """A stored estimate (``record[key]`` with its ``ci95``: a sweep point's measure, a tune target, a difference
    with ``key="diff"``) as "value [lo, hi]" (`fmt`, then `fmt_ci`)."""
    e = Estimate.of(record, key)
    return f"{fmt(kind, e.value, signed, unit)} {fmt_ci(kind, e.ci95, signed)}"


def label(ax: dict) -> str:
    """What the page calls swept axis ``ax`` (a sweep.json axis): its parameter's label ("track length", "seat 2:
    weight on goal tokens"), else its name (a sweep.json written before axes had labels)."""
    return ax.get("label") or ax["name"]


def axis_title(ax: dict) -> str:
    """An axis title: the label with its unit, "track length (spaces)"; without a unit just the label."""
    unit = ax.get("unit") or ""
    return f"{label(ax)} ({unit})" if unit else label(ax)


def with_name(ax: dict) -> str:
    """The label with the code name a designer types after ``--set``: "track length (track_len)"; the name alone
    when it is its own label."""
    return f"{label(ax)} ({ax['name']})" if label(ax) != ax["name"] else ax["name"]


def value_words(ax: dict, text: str) -> str:
    """One value of axis ``ax`` (its written ``text``) with its unit: "30 spaces", "1.5"."""
    unit = ax.get("unit") or ""
    return f"{text} {unit}" if unit and ax.get("numeric") else text


def fixed_words(d: dict) -> str:
    """The one-value names a sweep sets on every point, in words: "players (players) = 3; seat 0: strategy
    (seats.0.strategy) = search"; "" when none (a sweep.json written before they were kept apart has none)."""
    return "; ".join(f"{with_name(f)} = {value_words(f, f['label_text'])}" for f in d.get("fixed") or ())


def point_words(d: dict, r: dict) -> str:
    """Point ``r`` of sweep ``d`` in words: each axis' label and value ("track length = 30 spaces, die faces = 6");
    "point I" for a sweep without axes."""
    axes = {a["name"]: a for a in d.get("axes", ())}
    return (
        ", ".join(
            f"{label(axes[k])} = {value_words(axes[k], r['labels'][k])}" if k in axes else f"{k} = {r['labels'][k]}"
            for k in r["values"]
        )
        or f"point {r['index']}"
    )


def _scale(kind: str) -> float:
    return 100.0 if kind in ("rate", "points") else 1.0


def _x(ax: dict) -> tuple[list, list[str], bool]:
    """Positions, tick labels and whether the axis is numeric."""
    vals = ax["values"]
    if ax["numeric"]:
        return list(vals), [f"{v:g}" for v in vals], True
    return list(range(len(vals))), [ax["labels"][i] for i in range(len(vals))], False


def zipped(d: dict) -> bool:
    """Whether the sweep's points are one sequence of paired values (``--mode zip`` over two or more axes: point i
    plays the i-th value of every axis), not a grid: its page plots along the points, never one axis against
    another."""
    return d["mode"] == "zip" and len(d["axes"]) > 1


def zip_ticks(d: dict, sep: str = "\n") -> list[str]:
    """A zipped sweep's tick label of each point, in point order: its value of every axis in axis order (as the
    x-axis label names them), joined by ``sep`` (one line each by default)."""
    return [sep.join(r["labels"][a["name"]] for a in d["axes"]) for r in sorted(d["points"], key=lambda r: r["index"])]
