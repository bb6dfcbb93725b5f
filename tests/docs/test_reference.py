"""The generated reference pages are current: docs/reference/cli.md is what `python -m sim.cli.docs cli` writes from
the Typer app, docs/reference/measures.md what `python -m sim.cli.docs measures` writes from the catalogue."""

from __future__ import annotations

from pathlib import Path

import pytest

from sim.cli import docs

REPO = Path(__file__).resolve().parents[2]


@pytest.mark.kernel
@pytest.mark.parametrize("page", sorted(docs.PAGES))
def test_the_committed_reference_page_is_what_the_code_generates(page):
    committed = (REPO / "docs" / "reference" / f"{page}.md").read_text(encoding="utf-8")
    assert committed == docs.PAGES[page](), (
        f"docs/reference/{page}.md is out of date: "
        f"run .venv/bin/python -m sim.cli.docs {page} > docs/reference/{page}.md"
    )


def test_the_cli_page_documents_every_command_and_option():
    from typer.main import get_command

    from sim.cli.main import app

    text = docs.cli_markdown()
    for path, c in docs._commands(get_command(app), []):
        assert f"### sim {' '.join(path)}\n" in text
        for q in c.params:
            for o in getattr(q, "opts", []):
                if o.startswith("--"):
                    assert f"`{o}" in text, (path, o)


@pytest.mark.kernel
def test_the_measures_page_lists_every_measure_of_every_game():
    from sim.model import catalogue

    text = docs.measures_markdown()
    for spec in docs.shipped_games().values():
        for key, e in catalogue.listing(spec):
            if e.key in {g.key for g in catalogue.GENERIC}:
                key = e.key
            assert f"| `{key}` |" in text, (spec.name, key)


def test_a_page_name_that_does_not_exist_is_one_usage_line(capsys):
    assert docs.main(["nope"]) == 2
    assert capsys.readouterr().err.strip() == "usage: python -m sim.cli.docs {cli|measures}"
