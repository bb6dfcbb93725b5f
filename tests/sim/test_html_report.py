"""The balance report: sim run leaves summary.html (self-contained, sections, plots) and balance.md."""

from __future__ import annotations

import copy
import html
import json
import re
from html.parser import HTMLParser
from pathlib import Path

import numpy as np
import pytest
from typer.testing import CliRunner

from sim.api import core as api
from sim.cli.main import app
from sim.model.scenario import load
from sim.pages import balance_figures, histograms, html_report, plots
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


@pytest.mark.kernel
def test_sim_run_writes_a_self_contained_html_report(mixed_report):
    s, folder = mixed_report
    text = (folder / "summary.html").read_text(encoding="utf-8")
    page = parse(text)
    for sec in (
        "provenance",
        "balance",
        "win-rates",
        "scores",
        "decisiveness",
        "length",
        "matchups",
        "counters",
        "definitions",
    ):
        assert sec in page.ids, sec
    assert page.ids[0] == "provenance"  # provenance on the first screen
    figs = {f["id"]: f["svg"] for f in page.figures}
    for fid in ("plot-win-rates", "plot-scores", "plot-length", "plot-margin", "plot-matchups"):
        assert figs.get(fid), fid
    assert "script" not in page.tags  # no JavaScript
    assert page.refs == []  # no external files or network
    body = " ".join(page.text)
    prov = s["provenance"]
    for item in (
        f"{prov['seed']}",
        "rules version",
        "RNG contract",
        "git commit",
        prov["git_commit"],
        "numba",
        "3,000 played",
    ):
        assert item in body, item
    for fig in ("first-player advantage", "seat spread", "tie rate", "decisiveness", "length (turns)"):
        assert fig in body, fig


@pytest.mark.kernel
def test_markdown_version_and_plot_files(mixed_report):
    _, folder = mixed_report
    md = (folder / "balance.md").read_text(encoding="utf-8")
    assert md.startswith("# Balance report: ")
    assert "## Balance at a glance" in md and "| first-player advantage |" in md
    for name in ("win-rates", "scores", "length", "margin", "matchups"):
        assert f"(plots/{name}.svg)" in md
        assert (folder / "plots" / f"{name}.svg").read_text().startswith("<svg")


@pytest.mark.kernel
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
    c["curves"] = {
        "hauntings": {"games_by_round": [fin, fin, 2500, 1000, 0], "mean_by_round": [0.1, 0.5, 1.2, 2.0, None]},
        "ghosts": {"games_by_round": [fin, fin, 2500, 1000, 0], "mean_by_round": [3.0, 4.5, 5.0, 6.1, None]},
    }
    c["decisiveness"] = None
    return c


@pytest.mark.kernel
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


@pytest.mark.kernel
def test_sim_report_renders_again_from_a_report_folder(mixed_report, tmp_path):
    _, folder = mixed_report
    r = CliRunner().invoke(app, ["report", str(folder), "--out", str(tmp_path / "again")])
    assert r.exit_code == 0, r.output
    assert (tmp_path / "again" / "summary.html").exists()
    assert (tmp_path / "again" / "balance.md").exists()


@pytest.mark.kernel
def test_sim_report_plays_a_scenario(tmp_path):
    r = CliRunner().invoke(
        app, ["report", str(DATA / "moor-2p-small.toml"), "--games", "500", "--out", str(tmp_path / "r")]
    )
    assert r.exit_code == 0, r.output
    assert "summary.html" in r.output
    assert "balance" in parse((tmp_path / "r" / "summary.html").read_text()).ids


def test_sim_report_rejects_bad_input(tmp_path):
    bad = tmp_path / "summary.json"
    bad.write_text("{not json")
    r = CliRunner().invoke(app, ["report", str(bad)])
    assert r.exit_code == 3
    assert "not valid JSON" in r.output and "give a scenario .toml, a report folder or its summary.json" in r.output
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
    for svg in p.svgs:  # each plot's clip paths and markers point into the same plot
        assert svg["refs"] and svg["refs"] <= svg["ids"], sorted(svg["refs"] - svg["ids"])[:5]


@pytest.mark.kernel
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


@pytest.mark.kernel
def test_every_id_in_the_compare_page_is_unique(tmp_path):
    r = CliRunner().invoke(
        app,
        [
            "compare",
            str(DATA / "moor-2p-small.toml"),
            str(DATA / "moor-2p-ghosts.toml"),
            "--games",
            "2000",
            "--out",
            str(tmp_path / "c"),
        ],
    )
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


@pytest.mark.kernel
def test_team_page_states_the_team_rate_once_and_draws_no_competitive_figures(th_report):
    s, folder = th_report
    text = (folder / "summary.html").read_text(encoding="utf-8")
    page = parse(text)
    figs = {f["id"] for f in page.figures}
    assert not figs & {"plot-win-rates", "plot-matchups", "plot-margin"}
    rate = balance_figures.pct(s["team"]["hunter"]["rate"])
    assert text.count(rate) == 1  # one table row (the verdict rounds to 0.1)
    assert "team win rate |" not in text and "by seat" not in text
    assert "decisiveness" not in page.ids and "matchups" not in page.ids


@pytest.mark.kernel
def test_per_round_tables_are_folded_under_plots_with_bands(th_report):
    s, folder = th_report
    text = (folder / "summary.html").read_text(encoding="utf-8")
    sec = text.split('<section id="curves">')[1].split("</section>")[0]
    assert sec.index("<figure") < sec.index("<details>")  # the plot, then the numbers folded away
    assert "<table" not in sec.split("<details>")[0]
    assert all(c["ci95_by_round"][0] is not None for c in s["curves"].values())  # the bands' data
    assert "fill-opacity: 0.25" in sec  # a filled band is drawn
    for sec_id in ("length", "counters", "scenario"):
        body = text.split(f'<section id="{sec_id}">')[1].split("</section>")[0]
        assert "<details>" in body, sec_id


@pytest.mark.kernel
def test_identical_seats_are_drawn_once(th_report):
    s, _ = th_report
    groups = plots.seat_groups(s)
    assert [g for g, _ in groups] == [[0, 1, 2, 3]]
    svg = plots.render(plots.scores, s)
    assert "seats 0-3" in svg and "seat 1 " not in svg


@pytest.mark.kernel
def test_one_colour_means_one_thing(mixed_report):
    s, _ = mixed_report
    win = plots.render(plots.win_rates, s)
    score = plots.render(plots.scores, s)
    for i in range(len(s["seats"])):  # seat i has one colour in every plot that draws seats
        assert plots.SEAT[i] in win and plots.SEAT[i] in score
    for fn in (plots.length, plots.margin):  # figures of the whole table: the neutral colour only
        svg = plots.render(fn, s)
        assert plots.NEUTRAL in svg and not any(c in svg for c in plots.SEAT), fn.__name__


@pytest.mark.kernel
def test_mixed_table_states_the_scope_of_its_win_rates(mixed_report):
    _, folder = mixed_report
    text = (folder / "summary.html").read_text(encoding="utf-8")
    sec = text.split('<section id="win-rates">')[1].split("</section>")[0]
    assert "hold for this seating and turn order" in sec


def _score_summary(game: str, lo: int, counts: list[list[int]], strategy: str) -> dict:
    seats = []
    for i, c in enumerate(counts):
        n = sum(c)
        vals = [lo + k for k, x in enumerate(c) for _ in range(x)]
        seats.append(
            {
                "seat": i,
                "strategy": strategy,
                "score": {
                    "n": n,
                    "min": min(vals),
                    "max": max(vals),
                    "mean": sum(vals) / n,
                    "hist": {"lo": lo, "counts": c},
                },
            }
        )
    return {"scenario": {"game": game, "params": {}, "seats": [{"strategy": strategy}] * len(counts)}, "seats": seats}


REPO = Path(__file__).resolve().parents[2]


cli = CliRunner()
MOOR4 = str(REPO / "scenarios" / "moor" / "4p.toml")


def test_lead_line_says_game_and_table_once_and_names_the_overrides():
    from sim.pages.scenario_words import lead_line

    s = {
        "game_title": "Ghosts of the Moor",
        "scenario": {"game": "moor", "players": 4, "description": "4 players, all seats the weighted heuristic."},
    }
    assert lead_line(s) == "Ghosts of the Moor. 4 players, all seats the weighted heuristic."
    s["scenario"]["description"] = "The Ghosts of the Moor, 4 players: every seat weighted"
    s["game_title"] = "The Ghosts of the Moor"
    assert lead_line(s).count("Ghosts of the Moor") == 1 and lead_line(s).count("4 players") == 1
    s["scenario"]["overrides"] = [{"name": "seats.3.strategy", "value": "runner"}, {"name": "track_len", "value": 32}]
    line = lead_line(s)
    assert "Changed by --set: seats.3.strategy=runner, track_len=32" in line
    assert "the description above is the scenario file's" in line


def test_length_histogram_leaves_out_a_long_thin_tail_and_says_so():
    from sim.pages.plots import tail_cut

    body = np.r_[np.full(10, 100.0), np.zeros(200), [1.0]]  # 1,000 games in 10 bins, one game 200 bins later
    assert tail_cut(body) == 10
    assert tail_cut(np.full(50, 10.0)) == 50  # no long tail: every bin drawn
    assert tail_cut(np.zeros(5)) == 5


@pytest.mark.kernel
def test_few_valued_score_distributions_are_drawn_as_bars():
    """Turnwall scores 1..5 body parts: one bar per seat and score, side by side, on whole-number ticks."""
    s = _score_summary("turnwall", 1, [[2, 10, 32, 37, 19], [1, 9, 33, 38, 19]], "planner")
    fig = plots.scores(s)
    (ax,) = fig.axes
    assert len(ax.patches) == 2 * 5
    assert not [ln for ln in ax.lines if ln.get_drawstyle().startswith("steps")]
    ticks = [t for t in ax.get_xticks() if 1 <= t <= 5]
    assert ticks and all(float(t).is_integer() for t in ticks)


@pytest.mark.kernel
def test_many_valued_score_distributions_keep_their_step_lines():
    s = _score_summary("moor", -10, [[1] * 40, [2] * 40], "weighted")
    (ax,) = plots.scores(s).axes
    assert not ax.patches and len(ax.lines) == 2


@pytest.mark.kernel
def test_moor_scores_section_says_how_a_score_is_made_without_sending_the_reader_to_a_source_file(tmp_path):
    r = cli.invoke(app, ["run", str(DATA / "moor-2p-small.toml"), "--games", "200", "--out", str(tmp_path / "r")])
    assert r.exit_code == 0, r.output
    s = json.loads((tmp_path / "r" / "summary.json").read_text())
    (scores,) = [x for x in html_report.sections(s) if x["id"] == "scores"]
    intro = scores["intro"]
    first = intro.split(". ")[0]
    assert "RULES.md" not in first and "kernels/" not in first
    for w in ("goal token", "1/3/6/10/15", "ghost"):
        assert w in first, (w, first)
    page = (tmp_path / "r" / "summary.html").read_text()
    sec = page[page.index('id="scores"') :]
    assert "kernels/moor/RULES.md" not in sec[: sec.index("</section>")]


@pytest.mark.kernel
def test_margin_distribution_has_whole_number_ticks_and_separate_bars():
    """Turnwall's winner's margin is 1 or 2 body parts: no tick at 0.75 or 1.25, and bars that do not touch."""
    from sim.api import core as api
    from tests.kernels.tables import table

    s, _ = api.run_scenario(table("turnwall", "margin", 4, ["planner"], 300, 5), write=False)
    (ax,) = plots.margin(s).axes
    lo, hi = ax.get_xlim()
    ticks = [t for t in ax.get_xticks() if lo <= t <= hi]
    assert ticks and all(float(t).is_integer() for t in ticks)
    assert all(p.get_width() < 1.0 for p in ax.patches)


def test_a_long_game_length_histogram_is_drawn_in_wider_bins():
    """A new user found 2,000 Galleon games drawn as one bar per turn (40 to 1,200 turns): spiky noise. At most 80
    bins of a round width, every game kept, bins starting at multiples of the width."""
    import numpy as np

    x = 13 + np.arange(1184)
    c = np.random.default_rng(1).integers(0, 5, size=1184).astype(float)
    w, xb, cb = histograms.coarsen(x, c)
    assert w == 20 and len(cb) <= 80 and cb.sum() == c.sum()
    assert xb[0] == 9.5 and cb[0] == c[:7].sum()  # the first bin holds turns 13..19
    assert histograms.coarsen(x[:70], c[:70])[0] == 1  # a short range keeps one bar per value


@pytest.mark.kernel
def test_a_one_game_run_says_too_few_games_and_draws_its_scores(tmp_path):
    out = tmp_path / "rep"
    r = cli.invoke(app, ["run", MOOR4, "--games", "1", "--threads", "1", "--out", str(out)])
    assert r.exit_code == 0, r.output
    one_games = re.compile(r"\b1 games\b")  # not the "611 games/s" of a speed
    assert "moor-4p: 1 game in " in r.stderr and not one_games.search(r.output)
    md = (out / "summary.md").read_text()
    assert "· 1 game ·" in md and "on 1 thread" in md and not one_games.search(md)
    bal = (out / "balance.md").read_text()
    assert "[+100.00, +100.00]" not in bal and "chi-square p" not in bal and not one_games.search(bal)
    assert "Only 1 finished game: too few for the intervals and tests" in bal
    row = next(ln for ln in bal.splitlines() if ln.startswith("| seat spread"))
    assert "none: too few games" in row and "chi-square test of equal seats" in row
    verdict = bal[bal.index("## Verdict") : bal.index("## Balance at a glance")]
    assert "p = " not in verdict and "within chance" not in verdict and "beyond chance" not in verdict
    assert (out / "plots" / "scores.svg").is_file()
    page = (out / "summary.html").read_text()
    assert 'id="scores"' in page and "final score distribution" in page[page.index('id="scores"') :]


@pytest.mark.kernel
def test_enough_games_keep_their_intervals_and_tests():
    from sim.pages import balance_figures, verdicts

    s = {
        "scenario": {"game": "moor", "params": {}, "seats": [{"strategy": "weighted"}] * 2, "name": "x"},
        "game": "moor",
        "games": {"played": 40, "finished": 40, "truncated": 0, "errors": 0, "truncated_rate": 0.0},
        "seats": [
            {"seat": i, "strategy": "weighted", "win": {"rate": r, "wins": 40 * r, "ci95": [0.3, 0.7]}}
            for i, r in enumerate((0.6, 0.4))
        ],
        "first_player": {},
        "ties": {"tie_rate": 0.0, "shared_games": 0},
        "decisiveness": None,
        "length": {k: {"n": 0} for k in ("turns", "rounds")},
    }
    rows = dict(balance_figures.balance_items(s))
    assert "chi-square test of equal seats: p = " in rows["seat_spread"]["note"]
    # the seat spread's one interval (ladder_fit.seat_spread: simultaneous Wilson intervals), as At skill shows it
    from sim.stats.ladder_fit import seat_spread

    lo, hi = seat_spread([24.0, 16.0], 40, 2)["ci95"]
    assert rows["seat_spread"]["figure"] == "seat spread (highest seat win rate minus the lowest)"
    assert (rows["seat_spread"]["value"], rows["seat_spread"]["interval"]) == (
        "20.00 points",
        f"[{100 * lo:.2f}, {100 * hi:.2f}]",
    )
    assert not verdicts.run_sentences(s)[0].startswith("Only")
    s["games"].update(played=29, finished=29)
    rows = dict(balance_figures.balance_items(s))
    assert rows["seat_spread"]["interval"] == "none: too few games"
    assert verdicts.run_sentences(s)[0].startswith("Only 29 finished games: too few")


def test_an_interval_of_points_does_not_repeat_the_unit():
    from sim.pages import balance_figures

    assert balance_figures.pts(0.019) == "+1.90 points" and balance_figures.ci_pts([0.0034, 0.0352]) == "[+0.34, +3.52]"


@pytest.mark.kernel
def test_sweep_page_notes_that_the_description_is_the_files_as_the_run_page_does(tmp_path):
    """A sweep of seats.3.strategy over moor/4p.toml ('all seats the weighted heuristic') played points the file's
    description does not describe; its page says so in the run page's words (lead_line), naming what was swept."""
    r = cli.invoke(
        app,
        ["sweep", MOOR4, "--set", "seats.3.strategy=runner,cautious", "--games", "20", "--out", str(tmp_path / "s")],
    )
    assert r.exit_code == 0, r.output
    page = (tmp_path / "s" / "sweep.html").read_text()
    head = html.unescape(page.split("<header>")[1].split("</p>")[0])
    assert "all seats the weighted heuristic" in head
    assert "Swept: seats.3.strategy (the description above is the scenario file's)." in head


@pytest.mark.kernel
def test_the_reports_provenance_counts_games_with_thousands_separators(mixed_report):
    """'3000 games played, 3000 finished' beside '3,000 games played.' in the lead: one way of writing a count."""
    from sim.pages.html_report import provenance_items, provenance_line

    s, _ = mixed_report
    assert provenance_line(s).startswith("3,000 games played, 3,000 finished · seed ")
    assert dict(provenance_items(s))["games"] == "3,000 played, 3,000 finished"
