"""The designer's balance report: a self-contained HTML page (inline SVG plots, inline CSS, no JavaScript, no
network) and the same content as Markdown for code review (plots as SVG files beside it), both from the summary
dict (sim.stats.summary, schema 1). The sections come from sim.pages.report_sections, the headline figures from
sim.pages.balance_figures, the page from templates/summary_page.html. (The pages of an A/B comparison:
sim.pages.compare_page.)

Written by `sim run` (summary.html, balance.md, plots/) and by `sim report` (from a scenario, or again from an
existing report folder's summary.json).
"""

from __future__ import annotations

from pathlib import Path

from sim.model.words import count
from sim.pages import templating, verdicts
from sim.pages.balance_figures import definitions
from sim.pages.points import Point, md_points
from sim.pages.report_sections import Section, sections
from sim.pages.scenario_words import lead_line
from sim.stats.records import SummaryFigures


def md_table(rows: list[dict]) -> str:
    if not rows:
        return ""
    cols = list(rows[0])
    cell = lambda v: str(v).replace("|", "\\|").replace("\n", " ")  # noqa: E731
    out = ["| " + " | ".join(cell(c) for c in cols) + " |", "|" + "|".join("---" for _ in cols) + "|"]
    out += ["| " + " | ".join(cell(r.get(c, "")) for c in cols) + " |" for r in rows]
    return "\n".join(out)


def verdict_lines(s: dict) -> list[str]:
    """The run's verdict in sentences (sim.pages.verdicts) and the scope line where it matters."""
    return [p.flat() for p in verdict_points(s)]


def verdict_points(s: dict) -> list[Point]:
    """The run's verdict as points, some with lines beneath (`sim.pages.verdicts.run_points`), and the scope line
    where it matters."""
    scope = verdicts.scope_line(s)
    return verdicts.run_points(s) + ([Point(scope)] if scope else [])


def provenance_line(s: dict) -> str:
    """Where the figures come from, in one line (the details fold out below it)."""
    pv = s.get("provenance") or {}
    g = SummaryFigures.of(s).games
    return (
        f"{count(g.played, 'game', grouped=True)} played, {g.finished:,} finished · seed {pv.get('seed', s['scenario'].get('seed'))}"
        f" · commit {str(pv.get('git_commit', '?'))[:12]} · rules v{pv.get('rules_version', '?')} (provenance)"
    )


def provenance_items(s: dict) -> list[tuple[str, str]]:
    sc = s["scenario"]
    pv = s.get("provenance") or {}
    pk = pv.get("packages") or {}
    g = SummaryFigures.of(s).games
    items = [
        ("scenario", f"{sc['name']} ({pv.get('scenario_file') or 'no file'})"),
        ("game", f"{s['game_title']} ({sc['game']}), {sc['players']} players"),
        ("seats", ", ".join(f"{i}: {x['strategy']}" for i, x in enumerate(sc["seats"]))),
        ("seed", pv.get("seed", sc.get("seed"))),
        ("games", f"{g.played:,} played, {g.finished:,} finished"),
        ("rules version", pv.get("rules_version", "?")),
        ("RNG contract", pv.get("rng_contract", "?")),
        ("git commit", pv.get("git_commit", "?")),
        ("packages", ", ".join(f"{k} {v}" for k, v in pk.items())),
        (
            "run",
            f"{pv.get('created_utc', '?')}, {pv.get('wall_time_s', '?')} s on "
            + (count(pv["threads"], "thread") if isinstance(pv.get("threads"), int) else "? threads"),
        ),
    ]
    return [(k, str(v)) for k, v in items]


def _sentence(text: str) -> str:
    return text if text.endswith((".", "!", "?")) else text + "."


def games_played(s: dict) -> str:
    """The game count every figure rests on, said beside the title ("250 games played."), so a report replaced by a
    shorter run cannot pass for the longer one."""
    n = SummaryFigures.of(s).games.played
    return f"{n:,} game{'' if n == 1 else 's'} played."


def render(s: dict, secs: list[Section] | None = None) -> str:
    """The balance report as one self-contained HTML page. ``secs``: `sections` of ``s`` when already drawn (the
    plots are most of the time a report takes: `write` draws them once for the page and the Markdown)."""
    secs = sections(s) if secs is None else secs
    shown = [{**x, "plots": templating.figures(x["plots"])} for x in secs]
    return templating.render(
        "summary_page.html",
        title=f"Balance report: {s['scenario']['name']}",
        lead=_sentence(lead_line(s)),
        games_played=games_played(s),
        provenance_line=provenance_line(s),
        provenance=provenance_items(s),
        sections=shown,
        verdict=verdict_points(s),
        definitions=definitions(s),
    )


def render_markdown(s: dict, plot_dir: str = "plots", secs: list[Section] | None = None) -> tuple[str, dict[str, str]]:
    """The balance report as Markdown plus its plots {file name: svg} (referenced as ``plot_dir/<name>.svg``);
    ``secs`` as in `render`."""
    sc = s["scenario"]
    out = [f"# Balance report: {sc['name']}", "", f"{_sentence(lead_line(s))} **{games_played(s)}**", ""]
    out += [f"- **{k}**: {v}" for k, v in provenance_items(s)] + [""]
    out += ["## Verdict", ""] + md_points(verdict_points(s)) + [""]
    files = {}
    for x in sections(s) if secs is None else secs:
        out += [f"## {x['title']}", "", x["intro"], ""]
        for name, cap, svg in x["plots"]:
            if svg:
                files[f"{name}.svg"] = svg
                out += [f"![{cap}]({plot_dir}/{name}.svg)", ""]
        for cap, rows in x.get("tables", ()):
            if rows:
                out += ([f"### {cap}", ""] if cap else []) + [md_table(rows), ""]
        for cap, rows in x.get("folded", ()):  # folded as on the page (GitHub renders <details>)
            if rows:
                out += [f"<details><summary>{cap}</summary>", "", md_table(rows), "", "</details>", ""]
    out += ["## Definitions", ""] + [f"- **{k}**: {v}" for k, v in definitions(s)]
    return "\n".join(out) + "\n", files


def write(folder: Path, s: dict) -> list[Path]:
    """summary.html, balance.md and plots/*.svg into ``folder``; returns the paths written. Every plot is drawn
    once, for the page and the Markdown both."""
    folder = Path(folder)
    secs = sections(s)
    page = folder / "summary.html"
    page.write_text(render(s, secs), encoding="utf-8")
    text, files = render_markdown(s, secs=secs)
    (folder / "balance.md").write_text(text, encoding="utf-8")
    pdir = folder / "plots"
    pdir.mkdir(exist_ok=True)
    for name, svg in files.items():
        (pdir / name).write_text(svg + "\n", encoding="utf-8")
    return [page, folder / "balance.md", pdir]
