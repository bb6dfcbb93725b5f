"""A check's result in words (`sim check`'s terminal summary, and the same as Markdown for a CI job summary or a
pull-request comment): the status line, the causes named from the baselines' resolved scenarios, the headline
figures in the three verdicts, one line per scenario."""

from __future__ import annotations

import os
from pathlib import Path

from sim.model.words import count, p_value
from sim.stats import verdict as V
from sim.stats.check import INCONCLUSIVE, MORE_BASELINE, PASS, REGRESSION, STATUS, ScenarioCheck, delta_format


def _line(r: ScenarioCheck) -> str:
    parts = []
    if r.exact is not None:
        parts.append(f"exact {'identical' if r.exact['identical'] else 'DIFFERS'} ({count(r.exact['games'], 'game')})")
    if r.tests:
        parts.append(count(len(r.tests), "statistical test"))
    return ", ".join(parts) + f" [{r.wall_s:.1f} s]"


def causes(res: dict) -> tuple[list[tuple[str, str]], list[str]]:
    """What differs from the baselines, by name (`scenario_changes`): (phrase, the scenarios it concerns) for each
    phrase once; and the scenarios whose baseline is of format 1 and whose digest differs (no cause can be named)."""
    scs = res["scenarios"]
    by: dict[str, list[str]] = {}
    for s in scs:
        for c in s.get("changes") or []:
            by.setdefault(c, []).append(s["scenario"])
    named = [
        (c, f"all {len(scs)} scenarios checked" if len(names) == len(scs) > 1 else ", ".join(names))
        for c, names in by.items()
    ]
    return named, [s["scenario"] for s in scs if s.get("format") == 1 and s.get("digest_differs")]


def _old_format_line(old: list[str]) -> str:
    shown = ", ".join(old[:4]) + (f" and {len(old) - 4} more" if len(old) > 4 else "")
    return (
        f"{count(len(old), 'baseline')} of format 1 ({shown}) {'records' if len(old) == 1 else 'record'} no resolved "
        f"scenario, so what changed cannot be named: regenerate {'it' if len(old) == 1 else 'them'} (make "
        f"baselines) for cause naming"
    )


def cause_lines(res: dict) -> list[str]:
    """The first lines of a check: what differs from the baselines (`causes`), and one line for the baselines of
    format 1 whose scenario changed."""
    named, old = causes(res)
    out = []
    if named:
        out.append("what differs from the baselines (named from each baseline's resolved scenario):")
        out += [f"  {c}: {who}" for c, who in named]
    if old:
        out.append(_old_format_line(old))
    return out


def _figure(r: dict) -> str:
    fmt = (lambda v: f"{100 * v:.2f}%") if r["kind"] == "rate" else (lambda v: f"{v:.3f}")
    return f"{r['label']} {fmt(r['baseline'])} -> {fmt(r['now'])}"


def headline_lines(rows: list[dict]) -> list[str]:
    """A scenario's headline figures: each that changed or moved (`inconclusive`) on a line of its own; then in one
    line those that cannot be told yet for want of games, and in one line those shown unchanged within their
    margins."""
    out = []
    for r in rows:
        if r["verdict"] == V.CHANGED or (r["verdict"] != V.UNCHANGED and r.get("moved")):
            moved = "" if r["verdict"] == V.CHANGED else " (it moved: Holm over the run's headline figures)"
            out.append(f"headline {_figure(r)}: {r['words']}{moved}")
    later = [r for r in rows if r["verdict"] == V.CANNOT_TELL and not r.get("moved")]
    bound = [r for r in later if r.get("baseline_bound")]
    later = [r for r in later if not r.get("baseline_bound")]
    if later:
        more = lambda r: f", {r['words'].split(': ', 1)[1]}" if ": " in r["words"] else ""  # noqa: E731
        out.append(
            "headline cannot tell yet (too few games to confine them within their margins): "
            + "; ".join(f"{_figure(r)}{more(r)}" for r in later)
        )
    if bound:
        games = ", ".join(sorted({f"{int(r['n_baseline']):,}" for r in bound}))
        out.append(
            f"headline cannot tell yet, and more check games would not tell: {'; '.join(_figure(r) for r in bound)}: "
            f"the baseline's {games} games are too few ({MORE_BASELINE})"
        )
    same = [r for r in rows if r["verdict"] == V.UNCHANGED]
    if same:
        fmt = lambda r: delta_format(r["kind"], r["unit"])(r["margin"], signed=False)  # noqa: E731
        out.append("headline unchanged within their margins: " + ", ".join(f"{r['label']} (+/-{fmt(r)})" for r in same))
    return out


def seed_text(res: dict) -> str:
    return f"seed {res['seed']} ({res.get('seed_source', 'given')})"


def status_line(res: dict) -> str:
    tiers = " and ".join(res["tiers"])
    n = count(len(res["scenarios"]), "scenario")
    st = res.get("status", PASS if res["ok"] else REGRESSION)
    if st == INCONCLUSIVE:
        k = len(res.get("inconclusive", []))
        return (
            f"INCONCLUSIVE: {n} checked ({tiers}), no regression, but {count(k, 'headline figure')} moved and "
            f"{'is' if k == 1 else 'are'} not shown within {'its margin' if k == 1 else 'their margins'}: rerun "
            f"with more --games (exit {STATUS[INCONCLUSIVE]})"
        )
    return ("PASS" if st == PASS else "REGRESSION") + f": {n} checked ({tiers})"


def verdict_summary(res: dict) -> str | None:
    rows = res.get("headline") or []
    if not rows:
        return None
    k = {kind: sum(r["verdict"] == kind for r in rows) for kind in (V.UNCHANGED, V.CHANGED, V.CANNOT_TELL)}
    return (
        f"headline figures: {k[V.UNCHANGED]} unchanged within their margins, {k[V.CHANGED]} changed, "
        f"{k[V.CANNOT_TELL]} cannot tell yet (at family-wise alpha {res['alpha']}, Holm over the run's "
        f"{count(len(rows), 'headline figure')}; margins: rates 1 point, lengths 2%, counts and points 5%, or --margin)"
    )


def render(res: dict) -> str:
    """Human-readable result of a check: what differs from the baselines first (`cause_lines`), then each scenario
    (its findings, its headline figures' verdicts, notes), the statistical tier's seed and tests, and the outcome."""
    out = cause_lines(res)
    for s in res["scenarios"]:
        status = "FAIL" if s["findings"] else "ok"
        ex = ""
        if s["exact"] is not None:
            ex = f"exact: {'identical' if s['exact']['identical'] else 'differs'} ({count(s['exact']['games'], 'game')}); "
        st = count(s["n_tests"], "statistical test") if "statistical" in res["tiers"] else ""
        out.append(f"{status:4} {s['file']} vs {s['baseline']}: {ex}{st}".rstrip("; "))
        for f in s["findings"]:
            out.append(f"     [{f['tier']}] {f['message']}")
        out += [f"     {x}" for x in headline_lines(s.get("headline") or [])]
        for n in s["notes"]:
            out.append(f"     note: {n}")
    if "statistical" in res["tiers"]:
        mp = res["min_p_holm"]
        out.append(
            f"statistical tier: fresh {seed_text(res)}, {count(res['n_tests'], 'test')}, Holm-corrected at "
            f"family-wise alpha {res['alpha']}; smallest adjusted p = {p_value(mp, 3)}"
            if mp is not None
            else f"statistical tier: fresh {seed_text(res)}, no tests"
        )
        vs = verdict_summary(res)
        if vs:
            out.append(vs)
    out.append(status_line(res))
    if res.get("status", PASS) != PASS and "statistical" in res["tiers"]:
        out.append(f"reproduce: run the same sim check with --seed {res['seed']}")
    return "\n".join(out)


def _md(text: str) -> str:
    """Text for a Markdown table cell or line: pipes escaped, no line breaks."""
    return str(text).replace("|", "\\|").replace("\n", " ")


def render_markdown(res: dict) -> str:
    """The check's summary as Markdown (a CI job summary, a pull-request comment): the outcome and its exit code,
    what differs from the baselines, then per scenario its findings and a table of its headline figures (figure,
    baseline, now, verdict) with those shown unchanged in one line."""
    st = res.get("status", PASS if res["ok"] else REGRESSION)
    icon = {PASS: "PASS", REGRESSION: "REGRESSION", INCONCLUSIVE: "INCONCLUSIVE"}[st]
    out = [f"## sim check: {icon}", "", f"{_md(status_line(res))} (exit code {STATUS[st]})", ""]
    named, old = causes(res)
    if named:
        out += ["**What differs from the baselines**", ""]
        out += [f"- `{_md(c)}`: {_md(who)}" for c, who in named]
        out.append("")
    if old:
        out += [_md(_old_format_line(old)), ""]
    if "statistical" in res["tiers"]:
        out.append(
            f"Statistical tier: fresh {_md(seed_text(res))}, {count(res['n_tests'], 'test')}, Holm at family-wise "
            f"alpha {res['alpha']}."
        )
        vs = verdict_summary(res)
        if vs:
            out += ["", _md(vs[0].upper() + vs[1:]) + "."]
        out.append("")
    fmt_v = lambda r, v: f"{100 * v:.2f}%" if r["kind"] == "rate" else f"{v:.3f}"  # noqa: E731
    for s in res["scenarios"]:
        status = "FAIL" if s["findings"] else "ok"
        out += [f"### {_md(s['scenario'])}: {status}", "", f"`{_md(s['file'])}` vs `{_md(s['baseline'])}`", ""]
        for f in s["findings"]:
            out.append(f"- **{_md(f['tier'])}**: {_md(f['message'])}")
        for n in s["notes"]:
            out.append(f"- note: {_md(n)}")
        if s["findings"] or s["notes"]:
            out.append("")
        rows = s.get("headline") or []
        if rows:
            out += ["| figure | baseline | now | verdict |", "|---|---:|---:|---|"]
            for r in rows:
                word = r["words"] if r["verdict"] == V.UNCHANGED else f"**{r['words']}**"
                out.append(f"| {_md(r['label'])} | {fmt_v(r, r['baseline'])} | {fmt_v(r, r['now'])} | {_md(word)} |")
            same = [r["label"] for r in rows if r["verdict"] == V.UNCHANGED]
            out += ["", f"Unchanged within their margins: {_md(', '.join(same)) if same else 'none'}.", ""]
    return "\n".join(out).rstrip() + "\n"


def write_markdown(text: str, path: Path) -> None:
    """Write ``text`` to ``path`` atomically: a temporary file beside it, then a rename; on any error or Ctrl-C the
    temporary file is removed and ``path`` is left as it was (absent, or its earlier content)."""
    path = Path(path)
    tmp = path.with_name(f".{path.name}.tmp-{os.getpid()}")
    try:
        tmp.write_text(text, encoding="utf-8")
        tmp.replace(path)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise
