"""A sweep's report folder ``reports/sweep-<name>/``: sweep.json (the machine contract), sweep.parquet (one row per
point) and sweep.html, beside the stored points (points/). sweep.json is written last: a folder without it holds an
unfinished sweep (its points are kept for a rerun), never one that looks complete; a sweep stopped before its first
point was stored leaves no folder (`discard_if_empty`)."""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path
from typing import Any

from sim.model.errors import SimError
from sim.model.sweep_axis import axis_words, is_numeric
from sim.model.sweep_spec import Sweep

SCHEMA = 1
OUTPUTS = ("sweep.json", "sweep.parquet", "sweep.html")
INDENTED_MAX = 200  # points of a sweep.json written indented


class SweepOutputError(SimError, ValueError):
    """--out names a folder that is neither new, empty nor a sweep folder (one line)."""


def folder_for(sw: Sweep, out: str | Path | None = None) -> Path:
    """``out``, else reports/sweep-<scenario name>."""
    from sim.model import paths

    return Path(out) if out else paths.REPORTS / f"sweep-{sw.name}"


def what_for(sw: Sweep, out: str | Path | None = None) -> str:
    """How an error line names the sweep's folder: "--out" when given, else the sweep whose scenario name the
    default folder reports/sweep-<name> carries (the user never typed --out)."""
    return "--out" if out else f"sweep of scenario '{sw.name}', default folder"


def prepare(folder: Path, what: str = "--out") -> None:
    """Make ``folder`` ready for a (re)run: refuse a folder of other things. An earlier sweep's outputs stay, a
    complete report of its own settings, until `write` replaces them (an interrupted rerun, even ``--fresh``, leaves
    the earlier report as it was); stored points are kept.
    SweepOutputError (one line starting with ``what``, `what_for`) otherwise."""
    folder = Path(folder)
    instead = "" if what == "--out" else "; give --out another folder"
    if folder.exists():
        if not folder.is_dir():
            raise SweepOutputError(f"{what}: {folder} is a file; " + ("give a folder" if not instead else instead[2:]))
        kids = [p.name for p in folder.iterdir()]
        if kids and "points" not in kids and not any(o in kids for o in OUTPUTS):
            raise SweepOutputError(
                f"{what}: {folder} exists and is not a sweep folder; "
                + ("give a new or empty folder" if not instead else instead[2:])
            )
    made = not folder.exists()
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as e:  # read-only, /proc, a file in the path: one line naming the folder
        from sim.output.report import file_in_path

        if (blocker := file_in_path(folder)) is not None:
            raise SweepOutputError(
                f"{what}: {blocker} is a file, not a folder; give a folder for the sweep"
                + (" (with --out)" if instead else "")
            ) from None
        raise SweepOutputError(f"{what}: cannot write in {folder} ({e.strerror or e})" + instead) from None
    from sim.output.report import OutputError, check_writable

    try:  # a full disk: said before any point is played, as for sim run
        check_writable(folder, what)
    except OutputError as e:
        if made:  # refused: leave no empty folder behind
            try:
                folder.rmdir()
            except OSError:
                pass
        raise SweepOutputError(str(e).replace("a report needs", "a sweep needs")) from None


def document(sw: Sweep, res: dict, provenance: dict) -> dict:
    """The sweep.json dict."""
    from sim.model import catalogue
    from sim.model.scenario import toml_value
    from sim.stats.measures import label_over
    from sim.stats.sweep_table import quantities

    qs = quantities(sw.points[0].scenario)
    cat = catalogue.for_scenario(sw.points[0].scenario)
    scs = [p.scenario for p in sw.points]
    varies = any(len({sc.seats[i].strategy for sc in scs if i < len(sc.seats)}) > 1 for i in range(len(scs[0].seats)))

    def label(q) -> str:
        """The quantity's label said of every point (a seat whose strategy is swept is not named by point 0's)."""
        return label_over(q.base.name, scs) if varies and q.base.label == q.label else q.label

    def unit(name: str) -> str:
        """The measure's unit as the catalogue names it ("gold", "rounds"); rates carry theirs in the number."""
        try:
            return cat.unit(name)
        except KeyError:
            return ""

    axes: list[dict[str, Any]] = [
        {
            "name": a.name,
            "values": list(a.values),
            "labels": [toml_value(v) if not isinstance(v, str) else v for v in a.values],
            "numeric": is_numeric(a),
            "given_by": a.source,
            **dict(zip(("label", "unit"), axis_words(sw.base, a.name))),
        }
        for a in sw.axes
    ]
    fixed = [
        {
            "name": a.name,
            "value": a.values[0],
            "label_text": toml_value(a.values[0]) if not isinstance(a.values[0], str) else a.values[0],
            "numeric": is_numeric(a),
            "given_by": a.source,
            **dict(zip(("label", "unit"), axis_words(sw.base, a.name))),
        }
        for a in sw.fixed
    ]
    lab = {a["name"]: dict(zip(map(json.dumps, a["values"]), a["labels"])) for a in axes}
    points = []
    for r in res["rows"]:
        points.append(
            {
                "index": r["index"],
                "values": r["values"],
                "labels": {k: lab[k][json.dumps(v)] for k, v in r["values"].items()},
                "games": r["games"],
                "finished": r["finished"],
                "truncated": r["truncated"],
                "measures": r["measures"],
                "minutes": r.get("minutes"),
                "aggregates": r["aggregates"],
            }
        )
    return {
        "schema": SCHEMA,
        "kind": "sweep",
        "scenario": sw.base.to_dict(),
        "game_title": sw.base.spec.title,
        "mode": sw.mode,
        "games": sw.games,
        "seed": sw.base.seed,
        "independent": sw.independent,
        "axes": axes,
        "fixed": fixed,
        "default": res["default"],
        "chosen": [
            {
                "name": m,
                "label": label(qs[m]),
                "kind": shown_kind(qs[m]),
                "unit": unit(m),
                "definition": qs[m].definition,
            }
            for m in sw.measures
        ],
        "measures": [
            {"name": q.name, "label": label(q), "kind": shown_kind(q), "unit": unit(q.name), "definition": q.definition}
            for q in qs.values()
        ],
        "points": points,
        "pairs": res["pairs"],
        "target": res["target"],
        "against_own": res.get("against_own"),
        "provenance": provenance,
    }


def shown_kind(q) -> str:
    """How a quantity is shown: "points" for a rate minus its fair share (the first-player advantage, in percentage
    points as on the run pages), "rate" (in %) for a mean that is a share in [0, 1] (its catalogue unit "share of
    ...": arc.decided_by_score_share, plotted beside rates), otherwise its kind ("rate" in %, "mean" as a number)."""
    if q.kind == "mean" and q.base.unit.startswith(SHARE_UNIT_PREFIX):
        return "rate"
    return "points" if q.kind == "rate" and q.offset else q.kind


SHARE_UNIT_PREFIX = "share of"  # a catalogue unit "share of the rounds": the mean is a share, shown in %


def write(folder: Path, sw: Sweep, doc: dict, frame) -> None:
    """Write sweep.parquet, sweep.html and sweep.json to temporary files, then swap them in, sweep.json (which marks
    the sweep complete) last. Interrupted or failed while they are written (the pages take seconds), no temporary
    file is left and an earlier sweep's outputs are as they were; the swap itself is three renames."""
    from sim.output.report import os_error
    from sim.pages.sweep_page import render

    folder = Path(folder)
    pid = os.getpid()
    tmp = folder / f".sweep.parquet.{pid}"
    th = folder / f".sweep.html.{pid}"
    tj = folder / f".sweep.json.{pid}"
    try:
        frame.write_parquet(tmp)
        th.write_text(render(doc), encoding="utf-8")
        # indented while a person may read it; a large sweep's (tens of MB) compact: the indenting encoder is
        # pure Python and took seconds
        tj.write_text(
            json.dumps(doc, indent=1 if len(doc["points"]) <= INDENTED_MAX else None) + "\n", encoding="utf-8"
        )
        (folder / "sweep.json").unlink(missing_ok=True)  # the earlier sweep's: not complete while the rest goes in
        os.replace(tmp, folder / "sweep.parquet")
        os.replace(th, folder / "sweep.html")
        os.replace(tj, folder / "sweep.json")
    except BaseException as e:  # Ctrl-C, SIGTERM, a full disk (Polars wraps it in a ComputeError): no temporary file
        for f in (tmp, th, tj):
            f.unlink(missing_ok=True)
        oe = os_error(e) if isinstance(e, Exception) else None
        if oe is None:
            raise
        raise oe from None


def stored_points(folder: Path) -> int:
    """How many finished points ``folder``/points holds (a point's JSON marks it finished)."""
    pts = Path(folder) / "points"
    return sum(not f.name.startswith(".") for f in pts.glob("*.json")) if pts.is_dir() else 0


def discard_if_empty(folder: Path, made: bool) -> None:
    """After a sweep stopped (Ctrl-C, SIGTERM, an error) before it wrote sweep.json: a points/ folder holding no
    finished point is removed, and ``folder`` too when this run made it (``made``) and it is left empty, so no empty
    folder is left looking like a result (as `sim run`'s report folder, a sweep's appears with its first finished
    point; what is there is kept for the rerun)."""
    folder = Path(folder)
    pts = folder / "points"
    try:
        if pts.is_dir() and not stored_points(folder):  # a point's npz whose JSON never came: played again anyway
            for f in pts.glob("*.npz"):
                if not f.name.startswith(".") and not f.with_suffix(".json").exists():
                    f.unlink()
            if not any(pts.iterdir()):
                pts.rmdir()
        if made and folder.is_dir() and not any(folder.iterdir()):
            folder.rmdir()
    except OSError:  # someone else's file in it: kept
        pass


def clear_points(folder: Path) -> None:
    """Forget the stored points (``--fresh``)."""
    shutil.rmtree(Path(folder) / "points", ignore_errors=True)
