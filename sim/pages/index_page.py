"""reports/index.html: every report in the reports folder (scenarios, sweeps and comparisons) with its headline
figures, linked. Self-contained HTML (no JavaScript, no network).

The index is the folder's table of contents, not the last command's: `sim run-defaults --game moor` rewrites the
Moor rows and keeps the other games' reports, each row saying when its report was written; every other command that
writes a report folder directly under reports/ (`sim run`, `sim report`, `sim compare`, `sim sweep`) refreshes it
(`refresh`), so a new report is listed as soon as it is written.
"""

from __future__ import annotations

import json
import os
from collections.abc import Sequence
from pathlib import Path

from markupsafe import Markup

from sim.model.words import count
from sim.pages import templating
from sim.stats.records import GameCounts, SummaryFigures


def _link(folder: Path, page: str, root: Path) -> Markup:
    """A link to ``folder``'s ``page``, relative to ``root``; the href and the folder's name escaped."""
    href = os.path.relpath(Path(folder) / page, root).replace(os.sep, "/")
    return Markup('<a href="{}">{}</a>').format(href, Path(folder).name)


def render(
    scenarios: list[tuple[Path, dict]],
    sweeps: list[tuple[Path, dict]],
    root: Path,
    compares: Sequence[tuple[Path, dict]] = (),
    tunes: Sequence[tuple[Path, dict]] = (),
    ladders: Sequence[tuple[Path, dict]] = (),
) -> str:
    """The index page (templates/reports_index.html): one table of scenario reports (game, players, games,
    `headline` from the verdict, when written), one of sweeps (swept parameters, points, games per point, the
    target's answer or each measure's range, when written), one of comparisons (A and B, games each, the verdict's
    first sentence, when written), one of tunes and one of ladders; a kind without reports has no table."""
    kinds = [
        ("Scenarios", [_scenario_row(f, s, root) for f, s in scenarios]),
        ("Sweeps", [_sweep_row(f, d, root) for f, d in sweeps]),
        ("Comparisons", [_compare_row(f, d, root) for f, d in compares]),
        ("Tunes", [_tune_row(f, d, root) for f, d in tunes]),
        ("Skill ladders", [_ladder_row(f, d, root) for f, d in ladders]),
    ]
    # every cell is text the template escapes, or a link / time span built escaped (`_link`, `_written`)
    return templating.render("reports_index.html", title="ghost-sim reports", kinds=kinds, plain=lambda c, v: "")


def _scenario_row(f: Path, s: dict, root: Path) -> dict:
    return {
        "report": _link(f, "summary.html", root),
        "game": s["scenario"]["game"],
        "players": str(s["scenario"]["players"]),
        "games": _games(s["games"]),
        "headline": headline(s),
        "written": _written(s),
    }


def _sweep_row(f: Path, d: dict, root: Path) -> dict:
    from sim.pages.sweep_page import range_text, target_text

    swept = "; ".join(f"{a['name']} = {', '.join(a['labels'])}" for a in d["axes"]) + "".join(
        f" (every point: {x['name']} = {x['label_text']})" for x in d.get("fixed") or ()
    )
    return {
        "sweep": _link(f, "sweep.html", root),
        "game": d["scenario"]["game"],
        "swept": swept,
        "points": f"{len(d['points'])} x {count(d['games'], 'game', grouped=True)}",
        "headline": target_text(d) or range_text(d) or ", ".join(m["label"] for m in d["chosen"]),
        "written": _written(d),
    }


def _compare_row(f: Path, d: dict, root: Path) -> dict:
    from sim.pages import verdicts

    return {
        "comparison": _link(f, "compare.html", root),
        "game": d["a"]["game"],
        "A vs B": f"{d['a']['name']} vs {d['b']['name']}",
        "games": f"{d['games']:,} each",
        "headline": " ".join(verdicts.compare_sentences(d)[:1]),
        "written": _written(d, f / "compare.json"),
    }


def _tune_row(f: Path, d: dict, root: Path) -> dict:
    return {
        "tune": _link(f, "tune.html", root),
        "game": d["scenario"]["game"],
        "tuned": "; ".join(f"{p['name']} = {p['range']}" for p in d["params"]),
        "trials": f"{len(d['trials'])} x {count(d['games'], 'game', grouped=True)}",
        "headline": tune_headline(d),
        "written": _written(d),
    }


def _ladder_row(f: Path, d: dict, root: Path) -> dict:
    return {
        "ladder": _link(f, "ladder.html", root),
        "game": d["game"],
        "players": str(d["players"]),
        "rungs": ", ".join(r["rung"] for r in d["rungs"]),
        "headline": ladder_headline(d),
        "written": _written(d, f / "ladder.json"),
    }


def ladder_headline(d: dict) -> str:
    """A ladder's headline: the strongest rung and its rating, or the rungs tied for it (`top_rungs`), or the best
    team rung, or the matrix's size."""
    rt = d.get("rating")
    if rt:
        from sim.pages.ladder_page import elo_interval, names_and, top_rungs

        best = rt["ratings"][rt["best"]]
        top = top_rungs(d)  # the best and those its head-to-head cannot tell from it
        who = f"strongest: {best['rung']}" if len(top) == 1 else f"tied for strongest: {names_and(top)}"
        if d.get("anchor") in rt.get("never_won", ()):  # the number is the fit's regularisation, not a measure
            return f"{who}; {d['anchor']} won no game, so the distance above it is not measured"
        return f"{who}{',' if len(top) > 1 else ''} {best['elo']:+.0f} Elo ({elo_interval(d, rt['best'], '..')}) over {d['anchor']}"
    if d.get("team"):
        from sim.pages.ladder_page import rate_with_interval
        from sim.stats.records import Estimate

        t = max(d["team"], key=lambda r: Estimate.of(r, "win_rate").known)
        return f"best team: {t['rung']} wins {rate_with_interval(Estimate.of(t, 'win_rate'))}"
    m = d.get("matrix") or {}
    return f"{len(m.get('rows', []))} x {len(m.get('cols', []))} matrix of {m.get('row_role', '')} against hunters"


def _written(d: dict, file: Path | None = None) -> Markup:
    """When a report (summary, sweep or comparison document) was written, from its provenance (else, for a
    comparison written before its provenance said so, the time of ``file``), as one unbroken cell:
    '2026-12-01 23:15 UTC' (HTML)."""
    when = str((d.get("provenance") or {}).get("created_utc") or "")
    if not when and file is not None:
        import datetime as dt

        try:
            when = dt.datetime.fromtimestamp(Path(file).stat().st_mtime, dt.UTC).isoformat()
        except OSError:
            pass
    text = f"{when[:10]} {when[11:16]} UTC" if len(when) >= 16 else "?"
    return Markup('<span style="white-space:nowrap">{}</span>').format(text)


# a report folder's machine-readable file and its page: a scenario report, a sweep
KINDS = {
    "scenario": ("summary.json", "summary.html"),
    "sweep": ("sweep.json", "sweep.html"),
    "compare": ("compare.json", "compare.html"),
    "tune": ("tune.json", "tune.html"),
    "ladder": ("ladder.json", "ladder.html"),
}


def on_disk(root: Path) -> dict[str, list[tuple[Path, dict]]]:
    """The reports directly under ``root`` by kind ('scenario', 'sweep', 'compare'): [(folder, its summary.json /
    sweep.json / compare.json read back)] for every folder holding both that file and its page. A folder whose file
    cannot be read or does not render (half-written, another schema) is left out: the index lists what it can
    link."""
    out: dict[str, list[tuple[Path, dict]]] = {k: [] for k in KINDS}
    if not Path(root).is_dir():
        return out
    for folder in sorted(p for p in Path(root).iterdir() if p.is_dir()):
        for kind, (data, page) in KINDS.items():
            if not ((folder / data).is_file() and (folder / page).is_file()):
                continue
            try:
                d = json.loads((folder / data).read_text(encoding="utf-8"))
                one = {k: [(folder, d)] if k == kind else [] for k in KINDS}
                render(one["scenario"], one["sweep"], Path(root), one["compare"], one["tune"], one["ladder"])
            except (OSError, ValueError, KeyError, TypeError, IndexError, AttributeError):
                continue
            out[kind].append((folder, d))
    return out


def merged(written: list[tuple[Path, dict]], found: list[tuple[Path, dict]]) -> list[tuple[Path, dict]]:
    """The reports ``found`` in the folder with those just ``written`` in their place (a written one wins over what
    was read back from the same folder), by game then folder name."""
    by = {Path(f).resolve(): (f, d) for f, d in found}
    by.update({Path(f).resolve(): (f, d) for f, d in written})
    return sorted(by.values(), key=lambda x: ((x[1].get("scenario") or x[1]["a"])["game"], Path(x[0]).name))


def headline(s: dict) -> str:
    """A run's headline for the index, from the verdict its page opens with (sim.pages.verdicts): each team's win rate
    with its interval, or the start player's advantage with its interval and p-value and the seats' spread (a
    bare list of seat rates said neither whether they differ nor how surely)."""
    from sim.pages import tables, verdicts

    lines = verdicts.run_sentences(s)
    if not SummaryFigures.of(s).games.finished:
        return lines[0]
    n = len(s["team"]) if s.get("team") else 2
    return " ".join(lines[:n]) or tables.one_line(s)


def tune_headline(d: dict) -> str:
    """A tune's headline for the index: the chosen setting and each target's confirmed value with its interval."""
    from sim.pages.tune_page import summary_lines

    return " ".join(line.strip() for line in summary_lines(d)[1 : 2 + len(d["targets"])])


def _games(d: dict) -> str:
    """Games played, and how many finished when some hit the turn cap (the headline counts finished games only), of
    summary.json's ``games`` block (a summary without ``played``: as finished)."""
    g = GameCounts.of(d)
    played, fin = g.played, g.finished
    return f"{played:,}" + (f" ({fin:,} finished)" if fin != played else "")


def write(
    scenarios: list[tuple[Path, dict]],
    sweeps: list[tuple[Path, dict]],
    root: Path | None = None,
    tunes: Sequence[tuple[Path, dict]] = (),
) -> Path:
    """Write ``root``/index.html (default: reports/) and return its path: the reports just written (``scenarios``,
    ``sweeps``) and every other report already in ``root`` (`on_disk`), so running one game's defaults keeps the
    other games' rows."""
    from sim.model import paths

    root = Path(root or paths.REPORTS)
    root.mkdir(parents=True, exist_ok=True)
    found = on_disk(root)
    p = root / "index.html"
    tmp = root / f".index.html.{os.getpid()}"
    try:
        tmp.write_text(
            render(
                merged(scenarios, found["scenario"]),
                merged(sweeps, found["sweep"]),
                root,
                merged([], found["compare"]),
                merged(list(tunes), found["tune"]),
                merged([], found["ladder"]),
            ),
            encoding="utf-8",
        )
        os.replace(tmp, p)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise
    return p


def refresh(folder: Path) -> Path | None:
    """After a command wrote report folder ``folder``: rewrite the index of the reports folder when ``folder`` is
    directly in it (`write`, every report read back; a few ms per report); an --out folder elsewhere leaves it alone.
    Returns the index written, or None."""
    from sim.model import paths

    folder = Path(folder).resolve()
    if folder.parent != Path(paths.REPORTS).resolve():
        return None
    return write([], [], Path(paths.REPORTS))
