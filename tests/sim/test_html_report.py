"""The balance report: sim run leaves summary.html (self-contained, sections, plots) and balance.md."""
from __future__ import annotations

import copy
import json
import re
from html.parser import HTMLParser
from pathlib import Path

import pytest
from typer.testing import CliRunner

from sim.api import core as api
from sim.cli.main import app
from sim.model.scenario import load
from sim.pages import html_report, plots
from sim.stats.metrics import wilson

DATA = Path(__file__).resolve().parent.parent / "data"


class Page(HTMLParser):
    """Collects section ids, figures with an <svg>, tags and external references of an HTML page."""

    def __init__(self):
        super().__init__()
        self.ids, self.tags, self.refs, self.figures, self.text = [], [], [], [], []
        self._fig = None

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        self.tags.append(tag)
        if "id" in a and tag in ("section", "header"):
            self.ids.append(a["id"])
        if tag == "figure":
            self._fig = {"id": a.get("id"), "svg": False}
            self.figures.append(self._fig)
        if tag == "svg" and self._fig is not None:
            self._fig["svg"] = True
        for k in ("src", "href"):
            if k in a and a[k] and not a[k].startswith("#"):
                self.refs.append(a[k])

    def handle_endtag(self, tag):
        if tag == "figure":
            self._fig = None

    def handle_data(self, data):
        self.text.append(data)


def parse(text: str) -> Page:
    p = Page()
    p.feed(text)
    return p


@pytest.fixture(scope="module")
def mixed_report(tmp_path_factory):
    sc = load(DATA / "moor-4p-mixed-small.toml")
    out = tmp_path_factory.mktemp("rep") / "mixed"
    s, folder = api.run_scenario(sc, 3000, out_dir=out)
    return s, folder


def test_sim_run_writes_a_self_contained_html_report(mixed_report):
    s, folder = mixed_report
    text = (folder / "summary.html").read_text(encoding="utf-8")
    page = parse(text)
    for sec in ("provenance", "balance", "win-rates", "scores", "decisiveness", "length", "matchups", "counters",
                "definitions"):
        assert sec in page.ids, sec
    assert page.ids[0] == "provenance"                       # provenance on the first screen
    figs = {f["id"]: f["svg"] for f in page.figures}
    for fid in ("plot-win-rates", "plot-scores", "plot-length", "plot-margin", "plot-matchups"):
        assert figs.get(fid), fid
    assert "script" not in page.tags                           # no JavaScript
    assert page.refs == []                                     # no external files or network
    body = " ".join(page.text)
    prov = s["provenance"]
    for item in (f"{prov['seed']}", "rules version", "RNG contract", "git commit", prov["git_commit"], "numba",
                 "3000 played"):
        assert item in body, item
    for fig in ("first-player advantage", "seat balance", "tie rate", "decisiveness", "length (turns)"):
        assert fig in body, fig


def test_markdown_version_and_plot_files(mixed_report):
    _, folder = mixed_report
    md = (folder / "balance.md").read_text(encoding="utf-8")
    assert md.startswith("# Balance report: ")
    assert "## Balance at a glance" in md and "| first-player advantage |" in md
    for name in ("win-rates", "scores", "length", "margin", "matchups"):
        assert f"(plots/{name}.svg)" in md
        assert (folder / "plots" / f"{name}.svg").read_text().startswith("<svg")


def test_plots_are_byte_identical_across_renders(mixed_report):
    s, _ = mixed_report
    assert plots.render(plots.win_rates, s) == plots.render(plots.win_rates, copy.deepcopy(s))
    assert html_report.render(s) == html_report.render(s)


def cooperative(s: dict) -> dict:
    """A hand-built cooperative summary: team win rate, an outcome column of loss causes, per-round curves."""
    c = copy.deepcopy(s)
    fin = c["games"]["finished"]
    c["team"] = {"hunter": {"wins": 1200, "games": fin, "rate": 1200 / fin, "ci95": list(wilson(1200, fin))}}
    c["extras"]["outcome"] = {"counts": {"won": 1200, "haunted house": 1000, "ghosts escaped": 800}}
    c["curves"] = {"hauntings": {"games_by_round": [fin, fin, 2500, 1000, 0],
                                 "mean_by_round": [0.1, 0.5, 1.2, 2.0, None]},
                   "ghosts": {"games_by_round": [fin, fin, 2500, 1000, 0],
                              "mean_by_round": [3.0, 4.5, 5.0, 6.1, None]}}
    c["decisiveness"] = None
    return c


def test_cooperative_game_shows_team_win_rate_loss_causes_and_curves(mixed_report):
    s, _ = mixed_report
    c = cooperative(s)
    page = parse(html_report.render(c))
    assert {"outcomes", "curves", "win-rates"} <= set(page.ids)
    assert "decisiveness" not in page.ids
    figs = {f["id"]: f["svg"] for f in page.figures}
    assert figs.get("plot-outcome-outcome") and figs.get("plot-curves")
    assert "plot-win-rates" not in figs and "plot-matchups" not in figs and "plot-margin" not in figs
    body = " ".join(page.text)
    assert "team win rate (hunter)" in body
    assert "outcome = haunted house" in body
    assert "hauntings" in body and "ghosts" in body


def test_sim_report_renders_again_from_a_report_folder(mixed_report, tmp_path):
    _, folder = mixed_report
    r = CliRunner().invoke(app, ["report", str(folder), "--out", str(tmp_path / "again")])
    assert r.exit_code == 0, r.output
    assert (tmp_path / "again" / "summary.html").exists()
    assert (tmp_path / "again" / "balance.md").exists()


def test_sim_report_plays_a_scenario(tmp_path):
    r = CliRunner().invoke(app, ["report", str(DATA / "moor-2p-small.toml"), "--games", "500",
                                 "--out", str(tmp_path / "r")])
    assert r.exit_code == 0, r.output
    assert "summary.html" in r.output
    assert "balance" in parse((tmp_path / "r" / "summary.html").read_text()).ids


def test_sim_report_rejects_bad_input(tmp_path):
    bad = tmp_path / "summary.json"
    bad.write_text("{not json")
    r = CliRunner().invoke(app, ["report", str(bad)])
    assert r.exit_code == 3
    assert "not valid JSON" in r.output
    (tmp_path / "other.json").write_text(json.dumps({"schema": 99}))
    r = CliRunner().invoke(app, ["report", str(tmp_path / "other.json")])
    assert r.exit_code == 3 and "schema 1" in r.output
    r = CliRunner().invoke(app, ["report", str(tmp_path / "missing")])
    assert r.exit_code == 3 and "no such file" in r.output


class AllIds(HTMLParser):
    """Every id attribute of a page, and per inline <svg> the ids it defines and the #ids it references."""

    def __init__(self):
        super().__init__()
        self.ids, self.svgs = [], []
        self._depth = 0

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "svg":
            if self._depth == 0:
                self.svgs.append({"ids": set(), "refs": set()})
            self._depth += 1
        if "id" in a:
            self.ids.append(a["id"])
            if self._depth:
                self.svgs[-1]["ids"].add(a["id"])
        if self._depth:
            for k, v in a.items():
                if k.endswith("href") and v and v.startswith("#"):
                    self.svgs[-1]["refs"].add(v[1:])
                self.svgs[-1]["refs"].update(re.findall(r"url\(#([^)]+)\)", v or ""))

    def handle_startendtag(self, tag, attrs):
        self.handle_starttag(tag, attrs)
        if tag == "svg":
            self.handle_endtag(tag)

    def handle_endtag(self, tag):
        if tag == "svg":
            self._depth -= 1


def _check_ids(text: str, min_svgs: int):
    p = AllIds()
    p.feed(text)
    assert len(p.svgs) >= min_svgs
    dup = sorted({i for i in p.ids if p.ids.count(i) > 1})
    assert dup == [], dup[:10]
    for svg in p.svgs:                       # each plot's clip paths and markers point into the same plot
        assert svg["refs"] and svg["refs"] <= svg["ids"], sorted(svg["refs"] - svg["ids"])[:5]


def test_every_id_in_the_report_page_is_unique(mixed_report):
    """Several inline matplotlib SVGs share ids (figure_1, clip paths, marker defs) unless scoped per plot: a
    browser may then draw one plot's clip path on another. Ids are unique and the page stays byte-identical."""
    s, folder = mixed_report
    text = (folder / "summary.html").read_text(encoding="utf-8")
    _check_ids(text, 5)
    assert html_report.render(s) == text
    # a team game draws no per-seat win-rate chart and no strategy matchups (competitive-only figures, issue 8):
    # outcome, scores, length and per-round curves remain
    _check_ids(html_report.render(cooperative(s)), 4)


def test_every_id_in_the_compare_page_is_unique(tmp_path):
    r = CliRunner().invoke(app, ["compare", str(DATA / "moor-2p-small.toml"), str(DATA / "moor-2p-ghosts.toml"),
                                 "--games", "2000", "--out", str(tmp_path / "c")])
    assert r.exit_code == 0, r.output
    text = (tmp_path / "c" / "compare.html").read_text(encoding="utf-8")
    _check_ids(text, 1)
    assert "svg-forest-" in text


# --- pages that read well (issue 8): team pages without competitive-only figures, folded tables, one colour per
# meaning, identical seats drawn once, the scope stated ------------------------------------------------------------

@pytest.fixture(scope="module")
def th_report(tmp_path_factory):
    sc = load(Path(__file__).resolve().parents[2] / "scenarios" / "treasure_hunters" / "basic-4p.toml")
    return api.run_scenario(sc, 400, out_dir=tmp_path_factory.mktemp("th") / "th")


def test_team_page_states_the_team_rate_once_and_draws_no_competitive_figures(th_report):
    s, folder = th_report
    text = (folder / "summary.html").read_text(encoding="utf-8")
    page = parse(text)
    figs = {f["id"] for f in page.figures}
    assert not figs & {"plot-win-rates", "plot-matchups", "plot-margin"}
    rate = html_report.pct(s["team"]["hunter"]["rate"])
    assert text.count(rate) == 1                                  # one table row (the verdict rounds to 0.1)
    assert "team win rate |" not in text and "by seat" not in text
    assert "decisiveness" not in page.ids and "matchups" not in page.ids


def test_per_round_tables_are_folded_under_plots_with_bands(th_report):
    s, folder = th_report
    text = (folder / "summary.html").read_text(encoding="utf-8")
    sec = text.split('<section id="curves">')[1].split("</section>")[0]
    assert sec.index("<figure") < sec.index("<details>")          # the plot, then the numbers folded away
    assert "<table" not in sec.split("<details>")[0]
    assert all(c["ci95_by_round"][0] is not None for c in s["curves"].values())   # the bands' data
    assert "fill-opacity: 0.25" in sec                                           # a filled band is drawn
    for sec_id in ("length", "counters", "scenario"):
        body = text.split(f'<section id="{sec_id}">')[1].split("</section>")[0]
        assert "<details>" in body, sec_id


def test_identical_seats_are_drawn_once(th_report):
    s, _ = th_report
    groups = plots.seat_groups(s)
    assert [g for g, _ in groups] == [[0, 1, 2, 3]]
    svg = plots.render(plots.scores, s)
    assert "seats 0-3" in svg and "seat 1 " not in svg


def test_one_colour_means_one_thing(mixed_report):
    s, _ = mixed_report
    win = plots.render(plots.win_rates, s)
    score = plots.render(plots.scores, s)
    for i in range(len(s["seats"])):                    # seat i has one colour in every plot that draws seats
        assert plots.SEAT[i] in win and plots.SEAT[i] in score
    for fn in (plots.length, plots.margin):             # figures of the whole table: the neutral colour only
        svg = plots.render(fn, s)
        assert plots.NEUTRAL in svg and not any(c in svg for c in plots.SEAT), fn.__name__


def test_mixed_table_states_the_scope_of_its_win_rates(mixed_report):
    _, folder = mixed_report
    text = (folder / "summary.html").read_text(encoding="utf-8")
    sec = text.split('<section id="win-rates">')[1].split("</section>")[0]
    assert "hold for this seating and turn order" in sec
