"""Every report page is built from templates with autoescape on: text a designer can edit (a scenario's name and
description, a strategy's name, a parameter's value, read from a scenario file or from a report's JSON edited by
hand) reaches every page kind, the reports index included, as text and never as markup."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from typer.testing import CliRunner

from sim.cli.main import app
from sim.pages import compare_page, html_report, index_page, ladder_page, sweep_page, tune_page

EVIL = "<script>alert(1)</script> & co"
SAID = "&lt;script&gt;alert(1)&lt;/script&gt; &amp; co"
SCENARIO = """[scenario]
name = "evil-2p"
game = "moor"
players = 2
seed = 7
description = "<script>alert(2)</script> Fish & chips"

[[seats]]
strategy = "weighted"

[[seats]]
strategy = "weighted"
"""
COMMANDS = {  # folder: (page, command line after the scenario file)
    "run": ("summary.html", ["run", "--games", "200"]),
    "compare": ("compare.html", ["compare", "--set-b", "track_len=30", "--games", "200"]),
    "sweep": ("sweep.html", ["sweep", "--set", "track_len=20,30", "--games", "100"]),
    "tune": (
        "tune.html",
        ["tune", "--param", "track_len=20..30", "--target", "first_player_advantage=0", "--trials", "2"]
        + ["--games", "100", "--confirm", "1", "--confirm-games", "100"],
    ),
    "ladder": ("ladder.html", ["ladder", "--games", "10", "--strategies", "random;weighted"]),
}


@pytest.fixture(scope="module")
def written(tmp_path_factory) -> Path:
    """One small report of every kind from a scenario whose description holds markup and an ampersand."""
    root = tmp_path_factory.mktemp("reports")
    toml = root.parent / "evil.toml"
    toml.write_text(SCENARIO, encoding="utf-8")
    for folder, (_, args) in COMMANDS.items():
        r = CliRunner().invoke(app, [args[0], str(toml), *args[1:], "--out", str(root / folder)])
        assert r.exit_code == 0, r.output
    return root


def _poisoned(root: Path, folder: str, name: str) -> dict:
    """The report's JSON with every name a designer could edit set to EVIL (as if edited by hand)."""
    d = json.loads((root / folder / name).read_text(encoding="utf-8"))
    for sc in (d.get("scenario"), d.get("a"), d.get("b")):
        if sc:
            sc["name"] = EVIL
    for seat in (d.get("scenario") or {}).get("seats", []):
        seat["strategy"] = EVIL
    if "rungs" in d:
        d["title"] = EVIL
    if "axes" in d:
        d["axes"][0]["labels"] = [EVIL] * len(d["axes"][0]["labels"])
    if "params" in d and isinstance(d["params"], list):
        d["params"][0]["range"] = EVIL
    return d


PAGES = {
    "run": ("summary.json", html_report.render),
    "compare": ("compare.json", compare_page.render_compare),
    "sweep": ("sweep.json", sweep_page.render),
    "tune": ("tune.json", tune_page.render),
    "ladder": ("ladder.json", ladder_page.render),
}


def _text_only(page: str) -> None:
    assert "<script" not in page  # the pages carry no JavaScript at all: any <script is a value let through
    assert "alert(1)</script>" not in page and "& co" not in page


@pytest.mark.kernel
@pytest.mark.parametrize("kind", list(PAGES))
def test_markup_in_a_scenario_file_shows_as_text(written, kind):
    """The description of the scenario file (markup, an ampersand) is escaped on the page the command wrote."""
    page = (written / kind / COMMANDS[kind][0]).read_text(encoding="utf-8")
    assert "<script" not in page and "alert(2)</script>" not in page
    if kind in ("run", "sweep", "tune"):  # the pages that quote the scenario's description
        assert "&lt;script&gt;alert(2)&lt;/script&gt; Fish &amp; chips" in page


@pytest.mark.kernel
@pytest.mark.parametrize("kind", list(PAGES))
def test_names_edited_into_a_report_show_as_text(written, kind):
    """A name or label edited into the report's JSON (`sim report FOLDER` redraws from it) is text on the page."""
    data, render = PAGES[kind]
    page = render(_poisoned(written, kind, data))
    _text_only(page)
    assert SAID in page


@pytest.mark.kernel
def test_the_index_shows_every_kinds_names_as_text(written, tmp_path):
    """The reports index lists every kind of report with its names escaped, its links intact."""
    root = tmp_path / "reports"
    for kind, (data, _) in PAGES.items():
        shutil.copytree(written / kind, root / kind)
        (root / kind / data).write_text(json.dumps(_poisoned(written, kind, data)), encoding="utf-8")
    page = index_page.write([], [], root).read_text(encoding="utf-8")
    _text_only(page)
    for kind in PAGES:
        assert f'<a href="{kind}/{COMMANDS[kind][0]}">{kind}</a>' in page, kind
    assert page.count(SAID) >= 3  # the compare (A vs B), sweep (swept labels) and tune (tuned range) rows


def test_one_page_shell_for_the_reports_and_the_workbench():
    """The workbench's templates are searched before the reports' (sim.pages.templating.environment): a name in
    both would silently replace a report page, so the names differ; the workbench's base extends the shell."""
    from sim.pages import templating
    from sim.web import render

    web = {p.name for p in (Path(render.HERE) / "templates").iterdir()}
    pages = {p.name for p in templating.TEMPLATES.iterdir()}
    assert "shell.html" in pages and not web & pages
    base = (Path(render.HERE) / "templates" / "base.html").read_text(encoding="utf-8")
    assert '{% extends "shell.html" %}' in base
