"""`sim bench`'s workbench figure: which pages it opens and how it words the target."""

from __future__ import annotations

from sim.api import bench_web


def test_the_memory_figure_opens_one_form_of_every_game():
    games = {p.split("/")[0] for p in bench_web.form_pages()}
    assert games == {"moor", "treasure_hunters", "turnwall", "galleon"}


def test_the_memory_line_says_met_under_the_target_and_missed_at_or_above_it():
    under = bench_web.render_memory({"rss_mb": 139.4, "pages": 6, "target_mb": 200})[0]
    over = bench_web.render_memory({"rss_mb": 200.0, "pages": 6, "target_mb": 200})[0]
    assert "139 MB" in under and under.endswith("(target < 200 MB: met)")
    assert over.endswith("(target < 200 MB: MISSED)")
    assert "not measured" in bench_web.render_memory({})[0]
