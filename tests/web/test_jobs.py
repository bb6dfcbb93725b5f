"""Jobs played by the worker pool through the API: run and compare with their verdicts and report pages, the
permanent link, play again (the same figures), compare with..., sweep, cancel that really stops a run, a restart
that marks a running job interrupted, and a scenario named <script> shown as text on every page."""

from __future__ import annotations

import html
import re
import time

import pytest

from tests.web._app import client, job_id, wait

pytestmark = pytest.mark.kernel  # the jobs play games


@pytest.fixture(scope="module")
def c(tmp_path_factory):
    with client(tmp_path_factory.mktemp("web"), start_pool=True) as cl:
        yield cl


def run_form(**fields):
    return {"kind": "run", "scenario": "moor/4p.toml", "games": "2000", **fields}


def test_run_shows_progress_then_its_verdict_and_report(c):
    j = job_id(c.post("/jobs", data=run_form(track_len="40")))
    job = wait(c, j)
    assert job.status == "done", job.error
    assert job.done == job.total == 2000 and job.spec["sets"] == ["track_len=40"]
    page = html.unescape(c.get(f"/jobs/{j}").text)
    assert "The start player wins" in page and f"/r/{job.key}" in page
    # the headline figures: the seat spread beside the first-player advantage, as Balance at a glance has it
    labels = [r["label"] for r in job.result["rows"]]
    spread = labels.index("seat spread (highest seat win rate minus the lowest)")
    assert labels[spread - 1] == "first-player advantage"
    assert re.search(r"<td>seat spread \(highest seat win rate minus the lowest\)</td><td>\+\d+\.\d+ points</td>", page)
    assert "every 500ms" not in page  # finished: no more polling
    report = c.get(f"/reports/{job.folder}/summary.html")
    assert report.status_code == 200 and "track_len" in report.text
    res = c.get(f"/r/{job.key}")
    assert res.status_code == 200 and job.result["figures"] in res.text


def test_a_run_with_the_arc_and_at_skill_writes_both_sections(c):
    """Every question `sim run` answers: its --arc and --at-skill as two boxes of the run form."""
    j = wait(c, job_id(c.post("/jobs", data=run_form(games="600", arc="on", at_skill="on"))))
    assert j.status == "done", j.error
    assert j.spec["arc"] is True and j.spec["at_skill"] is True and "with the game's arc" in j.title
    page = c.get(f"/reports/{j.folder}/summary.html").text
    assert 'id="at-skill"' in page and "How the game unfolds" in page
    plain = wait(c, job_id(c.post("/jobs", data=run_form(games="600"))))
    assert "arc" not in plain.spec and "at_skill" not in plain.spec  # a plain run's key is what it was
    bad = c.post("/jobs", data=run_form(arc="maybe"))
    assert bad.status_code == 400 and "arc: 'maybe' is not a checkbox value; allowed: on or off" in html.unescape(
        bad.text
    )


def test_play_again_gives_the_same_figures(c):
    j = job_id(c.post("/jobs", data=run_form(seed="11")))
    first = wait(c, j)
    again = wait(c, job_id(c.post(f"/r/{first.key}/again")))
    assert again.key == first.key and again.status == "done"
    assert again.result["figures"] == first.result["figures"] and again.result["rows"] == first.result["rows"]


def test_compare_with_the_file_and_compare_two_runs(c):
    j = wait(c, job_id(c.post("/jobs", data={**run_form(track_len="40"), "kind": "compare"})))
    assert j.status == "done", j.error
    assert j.spec["sets"] == [] and j.spec["sets_b"] == ["track_len=40"]
    assert any("Game length" in v for v in j.result["verdicts"])
    assert any(v.startswith("Seat spread (highest seat win rate minus the lowest)") for v in j.result["verdicts"])
    page = c.get(f"/jobs/{j.id}").text
    assert "<td>seat spread (highest seat win rate minus the lowest)</td>" in page
    spread = re.search(r"<td>seat spread \(highest seat win rate minus the lowest\)</td><td>([^<]*)</td>", page)
    assert spread and spread[1].endswith(" points")  # as the run's page says it, not "3.20%"
    assert c.get(f"/reports/{j.folder}/compare.html").status_code == 200
    a = wait(c, job_id(c.post("/jobs", data=run_form(track_len="25"))))
    b = wait(c, job_id(c.post("/jobs", data=run_form(track_len="50"))))
    pick = c.get(f"/r/{a.key}/compare")
    assert pick.status_code == 200 and b.key in pick.text
    cmp = wait(c, job_id(c.post(f"/r/{a.key}/compare", data={"other": b.key})))
    assert cmp.status == "done" and cmp.spec["sets"] == ["track_len=25"] and cmp.spec["sets_b"] == ["track_len=50"]


def test_sweep_job(c):
    form = {**run_form(), "kind": "sweep", "sweep_param": "track_len", "sweep_values": "25,35", "games": "1000"}
    j = wait(c, job_id(c.post("/jobs", data=form)))
    assert j.status == "done", j.error
    assert c.get(f"/reports/{j.folder}/sweep.html").status_code == 200
    page = html.unescape(c.get(f"/jobs/{j.id}").text)  # each point's figures on the job's page
    assert 'id="points"' in page and "track_len = 25" in page and "track_len = 35" in page
    assert re.search(r"[0-9] points\b", page) and " pp" not in page  # one word for percentage points (POINTS)
    bad = c.post("/jobs", data={**form, "sweep_values": "5..9"})
    assert bad.status_code == 400 and "track_len" in html.unescape(bad.text)


def test_cancel_stops_a_long_run(c):
    j = job_id(c.post("/jobs", data=run_form(games="50000000")))
    wait(c, j, states=("running",))
    end = time.monotonic() + 60
    while c.app.state.store.get(j).done <= 0 and time.monotonic() < end:
        time.sleep(0.1)
    t0 = time.monotonic()
    r = c.post(f"/jobs/{j}/cancel", headers={"HX-Request": "true"})
    assert r.status_code == 200
    job = wait(c, j, timeout=30)
    assert job.status == "cancelled" and job.done < job.total
    assert time.monotonic() - t0 < 10
    # the worker is free again: the next job runs
    assert wait(c, job_id(c.post("/jobs", data=run_form(seed="3")))).status == "done"


def test_script_in_a_scenario_is_text_on_every_page(c):
    """A scenario's name cannot hold markup (it names a folder: refused), its description can: a description
    "<script>..." and a bad value echoed in an error line are text on every page, the report page included."""
    evil = "<script>alert(1)</script>"
    refused = c.post("/jobs", data=run_form(track_len=evil))
    assert refused.status_code == 400 and evil not in refused.text and "&lt;script&gt;" in refused.text
    from sim.web.jobs import make_spec, result_key

    spec = make_spec(
        "run", c.app.state.code, scenario="moor/4p.toml", sets=[f'description="{evil}"'], games=500, seed=1
    )
    store = c.app.state.store
    k = store.add(result_key(spec), "run", "moor", 4, f"run {evil}", spec)
    c.app.state.pool.submit(k)
    job = wait(c, k)
    assert job.status == "done", job.error
    for url in (f"/jobs/{k}", f"/r/{job.key}", "/history", "/", f"/reports/{job.folder}/summary.html"):
        body = c.get(url).text
        assert evil not in body, url
    assert "&lt;script&gt;" in c.get(f"/r/{job.key}").text


def test_a_server_stopped_mid_run_marks_the_job_interrupted(tmp_path):
    with client(tmp_path, start_pool=True) as c:
        j = job_id(c.post("/jobs", data=run_form(games="50000000")))
        wait(c, j, states=("running",))
    with client(tmp_path) as c:  # the next server
        job = c.app.state.store.get(j)
        assert job.status == "interrupted" and job.result is None
        assert "interrupted" in c.get(f"/jobs/{j}").text


def test_ladder_and_tune_jobs(c):
    # the default rungs without search (a search table costs hundreds of scripted ones: the CLI's tests play those)
    quick = {"kind": "ladder", "game": "moor", "players": "2", "games": "200", "strategies": "random;runner;learned"}
    lad = wait(c, job_id(c.post("/jobs", data=quick)))
    assert lad.status == "done", lad.error
    assert lad.done == lad.total > 0 and lad.result["verdicts"]
    assert c.get(f"/reports/{lad.folder}/ladder.html").status_code == 200
    form = {"kind": "ladder", "game": "moor", "players": "2", "games": "200", "strategies": "random;runner"}
    form |= {"balance_games": "400", "margin": "first_player_advantage=2"}
    two = wait(c, job_id(c.post("/jobs", data=form)))
    assert two.status == "done", two.error
    assert sorted(r["rung"] for r in two.result["rows"]) == ["random", "runner"]
    job_page = html.unescape(c.get(f"/jobs/{two.id}").text)
    assert 'id="ratings"' in job_page and "random, runner" in job_page and "400 balance games a rung" in job_page
    page = c.get(f"/reports/{two.folder}/ladder.html").text
    # its own tables' games, and the command that plays it again with the margin asked for
    assert "(400 games, the same seed" in page and "--margin first_player_advantage=2" in page
    form = {"kind": "tune", "scenario": "moor/tunes/fair-start.toml", "trials": "3", "games": "300"}
    tune = wait(c, job_id(c.post("/jobs", data=form)))
    assert tune.status == "done", tune.error
    assert any("chosen" in v or "best" in v for v in tune.result["verdicts"])
    assert c.get(f"/reports/{tune.folder}/tune.html").status_code == 200
    form = {"kind": "tune", "scenario": "moor/4p.toml", "params": "track_len=24..36", "trials": "3", "games": "300"}
    form["targets"] = "first_player_advantage=0"
    own = wait(c, job_id(c.post("/jobs", data=form)))  # a plain scenario: the ranges and targets typed in the page
    assert own.status == "done", own.error
    assert "track_len" in c.get(f"/reports/{own.folder}/tune.html").text
