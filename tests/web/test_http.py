"""The workbench over HTTP, without playing a game: every page and endpoint, the form generated from the parameter
specs, validation by `--set`'s code in the form's words, paths refused outside scenarios/ and reports/, the token, 4xx errors with one
line, and escaping."""

from __future__ import annotations

import html
import re

import pytest

from sim.web.config import ConfigError, Settings
from tests.web._app import client


def text(r) -> str:
    """A response's text as a reader sees it (entities unescaped)."""
    return html.unescape(r.text)


@pytest.fixture
def c(tmp_path):
    with client(tmp_path / "reports") as cl:
        yield cl


@pytest.mark.kernel  # the form reads the game's spec: its module loads the kernels
def test_start_page_lists_every_game_and_its_scenarios(c):
    r = c.get("/")
    assert r.status_code == 200
    assert "Ghosts of the Moor" in text(r) and "moor/4p.toml" in text(r)
    assert 'src="/static/htmx.min.js"' in text(r)  # vendored: no network
    assert c.get("/static/htmx.min.js").status_code == 200


@pytest.mark.kernel  # the form reads the game's spec: its module loads the kernels
def test_form_has_a_field_per_parameter_card_and_seat(c):
    r = c.get("/scenario", params={"path": "moor/4p.toml"})
    assert r.status_code == 200
    for name in ("games", "seed", "players", "track_len", "tiebreak", "seats.0.strategy", "seats.3.w_tile"):
        assert f'name="{name}"' in text(r), name
    assert "track length (spaces)" in text(r) and "allowed 19..62" in text(r) and "default 30" in text(r)
    assert "all seats the weighted heuristic with default weights" in text(r)  # the file's description
    th = c.get("/scenario", params={"path": "treasure_hunters/basic-4p.toml"}).text
    assert 'name="ghost_cards.shuffle"' in th and 'name="move_die.faces"' in th


@pytest.mark.kernel  # the form reads the game's spec: its module loads the kernels
def test_validation_gives_the_line_beside_the_field_in_the_forms_words(c):
    """The check of `sim run --set`, worded for the form: its field's name, not `--set` and the file's spelling."""
    r = c.post("/validate", data={"scenario": "moor/4p.toml", "field": "track_len", "track_len": "5"})
    assert r.status_code == 200
    assert text(r).endswith(">track_len: 5 is out of range; allowed 19..62</span>") and "--set" not in text(r)
    ok = c.post("/validate", data={"scenario": "moor/4p.toml", "field": "track_len", "track_len": "40"})
    assert ok.text == ""


@pytest.mark.kernel  # the form reads the game's spec: its module loads the kernels
def test_markup_in_a_number_field_is_told_what_the_field_takes_not_how_to_write_toml(c):
    r = c.post("/validate", data={"scenario": "moor/4p.toml", "field": "track_len", "track_len": "<script>"})
    line = text(r)
    assert "track_len" in line and "expected an integer in 19..62" in line and "quote text" not in line
    assert "params.track_len" not in line and "--set" not in line
    assert "<script>" not in r.text and "&lt;script&gt;" in r.text


@pytest.mark.kernel  # the form reads the game's spec: its module loads the kernels
@pytest.mark.parametrize("field, given", [("games", "abc"), ("seed", "1.5"), ("players", "x")])
def test_a_wrong_type_in_an_option_field_is_said_in_the_clis_words(c, field, given):
    """The form said "games: expected an integer, got string" where `sim run --games abc` says "--games: 'abc' is
    not a whole number" (a fresh user): the 400 and the field's check say the CLI's words."""
    r = c.post("/jobs", data={"kind": "run", "scenario": "moor/4p.toml", field: given})
    assert r.status_code == 400 and f"{field}: '{given}' is not a whole number" in text(r)
    assert "expected an integer" not in text(r)
    v = c.post("/validate", data={"scenario": "moor/4p.toml", "field": field, field: given})
    assert f">{field}: '{given}' is not a whole number</span>" in text(v)


@pytest.mark.kernel  # the form reads the game's spec: its module loads the kernels
def test_seat_parameters_follow_the_strategy(c):
    r = c.get("/scenario/seats", params={"scenario": "moor/4p.toml", "seats.1.strategy": "search"})
    assert 'name="seats.1.budget"' in text(r) and 'name="seats.0.w_tile"' in text(r)
    five = c.get("/scenario/seats", params={"scenario": "moor/4p.toml", "players": "5"})
    assert 'name="seats.4.strategy"' in five.text


@pytest.mark.kernel  # the form reads the game's spec: its module loads the kernels
def test_a_bad_form_answers_400_with_the_line_beside_the_field(c):
    r = c.post("/jobs", data={"kind": "run", "scenario": "moor/4p.toml", "track_len": "5"})
    assert r.status_code == 400
    line = ">track_len: 5 is out of range; allowed 19..62<"
    assert line in text(r) and 'id="f-track_len-msg"' in text(r) and "--set track_len" not in text(r)
    r = c.post("/jobs", data={"kind": "run", "scenario": "moor/4p.toml", "games": "0"})
    assert r.status_code == 400 and "out of range" in text(r)
    r = c.post("/jobs", data={"kind": "compare", "scenario": "moor/4p.toml"})
    assert r.status_code == 400 and "B is the file unchanged" in text(r)
    r = c.post("/jobs", data={"kind": "sweep", "scenario": "moor/4p.toml", "sweep_param": "track_len"})
    assert r.status_code == 400 and "give the values to sweep" in text(r)
    r = c.post("/jobs", data={"kind": "nonsense", "scenario": "moor/4p.toml"})
    assert r.status_code == 400
    r = c.post("/jobs", data={"kind": "ladder", "game": "chess"})
    assert r.status_code == 400
    r = c.post("/jobs", data={"kind": "ladder", "game": "moor", "players": "x"})
    assert r.status_code == 400 and "players: 'x' is not a whole number" in text(r) and "--players" not in text(r)
    r = c.post("/jobs", data={"kind": "ladder", "game": "moor", "strategies": "random;nope"})
    assert r.status_code == 400 and "unknown strategy 'nope' for moor; allowed: " in text(r)
    r = c.post("/jobs", data={"kind": "ladder", "game": "moor", "strategies": "random;runner", "margin": "length=x"})
    assert r.status_code == 400 and "margins length: 'x' is not a number" in text(r) and "--margin" not in text(r)
    r = c.post("/jobs", data={"kind": "ladder", "game": "moor", "balance_games": "0"})
    assert r.status_code == 400 and "games of each rung's own table: 0 is out of range" in text(r)
    r = c.post("/jobs", data={"kind": "tune", "scenario": "../pyproject.toml"})
    assert r.status_code == 403
    r = c.post("/jobs", data={"kind": "run", "scenario": "moor/4p.toml", "nosuch": "3"})  # never silently dropped
    assert r.status_code == 400 and ">nosuch=3: unknown name 'nosuch' in the form of moor/4p.toml" in text(r)
    r = c.post("/jobs", data={"kind": "ladder", "game": "moor", "nosuch": "3"})
    assert r.status_code == 400 and "nosuch: not a field of the ladder form; allowed: " in text(r)
    r = c.post("/jobs", data={"kind": "tune", "scenario": "moor/4p.toml", "params": "nope=1..2", "targets": "x=0"})
    assert r.status_code == 400 and "parameters nope=1..2: " in text(r) and "--param" not in text(r)


@pytest.mark.parametrize(
    "url",
    [
        "/scenario?path=../pyproject.toml",
        "/scenario?path=/etc/passwd",
        "/scenario?path=moor/../../pyproject.toml",
        "/scenarios/..%2Fpyproject.toml",
        "/reports/..%2Fpyproject.toml",
        "/reports/%2e%2e/%2e%2e/etc/passwd",
        "/reports/web/jobs.sqlite",
    ],
)
def test_paths_outside_scenarios_and_reports_are_refused(c, url):
    r = c.get(url)
    assert r.status_code in (403, 404), (url, r.status_code)
    assert "pyproject" not in text(r) or "outside" in text(r)
    assert "[project]" not in text(r) and "root:" not in text(r)


def test_refusals_say_one_line(c):
    r = c.get("/scenario", params={"path": "../pyproject.toml"})
    assert r.status_code == 403
    assert "scenario: '../pyproject.toml' is outside the scenarios/ folder" in text(r)
    r = c.get("/scenario", params={"path": "moor/none.toml"})
    assert r.status_code == 404 and "no file 'moor/none.toml'" in text(r)
    r = c.get("/scenario", params={"path": "moor/4p.txt"})
    assert r.status_code == 403
    r = c.get("/scenario")  # nothing asked for: a bad request, not a refused path
    assert r.status_code == 400 and "scenario: missing; give a path inside the scenarios/ folder" in text(r)


def test_scenario_file_served_as_text(c):
    r = c.get("/scenarios/moor/4p.toml")
    assert r.status_code == 200 and 'game = "moor"' in text(r)


def test_history_filters_and_bad_filters(c):
    assert c.get("/history").status_code == 200
    assert (
        c.get("/history", params={"game": "moor", "players": "4", "kind": "run", "since": "2026-01-01"}).status_code
        == 200
    )
    for bad in ({"kind": "x"}, {"since": "yesterday"}, {"players": "four"}, {"status": "x"}):
        r = c.get("/history", params=bad)
        assert r.status_code == 400, bad
    assert "is not a date; give YYYY-MM-DD" in text(c.get("/history", params={"since": "yesterday"}))


def test_unknown_job_and_result_are_404(c):
    assert c.get("/jobs/12345").status_code == 404
    assert c.get("/jobs/12345/progress").status_code == 404
    assert c.post("/jobs/12345/cancel").status_code == 404
    assert c.get("/r/0123456789abcdef").status_code == 404
    assert c.post("/r/0123456789abcdef/again").status_code == 404
    assert c.get("/r/0123456789abcdef/compare").status_code == 404


def test_history_shows_jobs_and_filters_them(c):
    store = c.app.state.store
    a = store.add("k1", "run", "moor", 4, "run moor/4p.toml <script>alert(1)</script>", {"kind": "run"})
    store.add("k2", "ladder", "turnwall", 3, "ladder turnwall 3p", {"kind": "ladder"})
    r = c.get("/history", params={"game": "moor"})
    assert f"/jobs/{a}" in text(r) and "ladder turnwall" not in text(r)
    assert "<script>alert(1)</script>" not in r.text and "&lt;script&gt;alert(1)&lt;/script&gt;" in r.text
    assert "ladder turnwall" in c.get("/history", params={"kind": "ladder"}).text
    assert "No job matches" in c.get("/history", params={"players": "5"}).text
    j = c.get(f"/jobs/{a}")
    assert j.status_code == 200 and "<script>alert" not in j.text
    assert 'hx-trigger="every 500ms"' in c.get(f"/jobs/{a}/progress").text  # queued: polled


def test_cancel_a_queued_job(c):
    store = c.app.state.store
    a = store.add("k1", "run", "moor", 4, "run", {"kind": "run"})
    r = c.post(f"/jobs/{a}/cancel", headers={"HX-Request": "true"})
    assert r.status_code == 200 and "cancelled" in text(r) and "every 500ms" not in text(r)
    assert store.get(a).status == "cancelled"


def test_a_restart_marks_unfinished_jobs_interrupted(tmp_path):
    with client(tmp_path) as c:
        store = c.app.state.store
        a = store.add("k1", "run", "moor", 4, "run", {"kind": "run"})
        assert store.start(a)
    with client(tmp_path) as c:
        r = c.get(f"/jobs/{a}")
        assert "interrupted" in text(r) and "done" not in re.findall(r'id="status">(\w+)<', r.text)


def test_remote_binding_needs_the_flag_and_a_token(tmp_path):
    with pytest.raises(ConfigError, match="--allow-remote"):
        Settings(host="0.0.0.0", reports=tmp_path).check()
    with pytest.raises(ConfigError, match="needs a token"):
        Settings(host="0.0.0.0", allow_remote=True, reports=tmp_path).check()
    Settings(host="0.0.0.0", allow_remote=True, token="s3cret-token", reports=tmp_path).check()
    Settings(host="::1", reports=tmp_path).check()


def test_a_port_or_workers_out_of_range_say_it_as_every_range_is_said(tmp_path):
    """One wording of a range across the code base (`sim.model.values.out_of_range`): "allowed 1..65,535", not
    "allowed 1..65535" here and "allowed: 1 .. 65536" in sim fidelity."""
    with pytest.raises(ConfigError, match=r"^--port: 0 is out of range; allowed 1\.\.65,535$"):
        Settings(port=0, reports=tmp_path).check()
    with pytest.raises(ConfigError, match=r"^--workers: 0 is out of range; allowed >= 1$"):
        Settings(workers=0, reports=tmp_path).check()


def test_token_required_when_set(tmp_path):
    with client(tmp_path, token="s3cret-token") as c:
        r = c.get("/history")
        assert r.status_code == 401 and "needs its token" in text(r)
        assert c.get("/history", headers={"Authorization": "Bearer wrong-token"}).status_code == 401
        assert c.get("/history", headers={"Authorization": "Bearer s3cret-token"}).status_code == 200
        assert c.post("/jobs", data={"kind": "run"}).status_code == 401
        ok = c.get("/history?token=s3cret-token")  # once: then the cookie
        assert ok.status_code == 200 and c.get("/history").status_code == 200


def test_cli_refuses_a_remote_host_without_the_flag():
    from typer.testing import CliRunner

    from sim.cli.main import app

    r = CliRunner().invoke(app, ["serve", "--host", "0.0.0.0"])
    assert r.exit_code == 2 and "--allow-remote" in r.output


def test_a_port_in_use_is_one_line_naming_the_port_before_the_server_says_it_listens():
    import socket

    from sim.web.config import ConfigError
    from sim.web.server import listening_socket

    held = socket.socket()
    held.bind(("127.0.0.1", 0))
    held.listen()
    port = held.getsockname()[1]
    try:
        with pytest.raises(
            ConfigError, match=rf"^--port {port}: 127.0.0.1:{port} is already in use; give another port$"
        ):
            listening_socket("127.0.0.1", port)
    finally:
        held.close()
    free = listening_socket("127.0.0.1", 0)
    free.close()


def test_an_unknown_page_and_a_job_number_that_is_not_one_are_one_line_pages_not_json(c):
    for url, status, words in [
        ("/nope", 404, "/nope: no such page"),
        ("/jobs/abc", 404, "job: 'abc' is not a job number"),
        ("/jobs/1e99", 404, "job: '1e99' is not a job number"),
        ("/jobs/99999999999999999999999999", 404, "job: no job 99999999999999999999999999"),
    ]:
        r = c.get(url)
        assert r.status_code == status and "text/html" in r.headers["content-type"], (url, r.text)
        assert words in text(r) and "detail" not in r.text, (url, text(r))


def test_history_filters_refuse_an_unknown_game_and_a_players_filter_that_is_no_table_size(c):
    r = c.get("/history", params={"players": "99999999999999999999999"})
    assert r.status_code == 400 and "players: 99999999999999999999999 is out of range; allowed 1..99" in text(r)
    r = c.get("/history", params={"game": "chess"})
    assert r.status_code == 400 and "game: unknown game 'chess'; allowed: galleon, moor" in text(r)
    assert c.get("/history", params={"players": "4", "game": "moor"}).status_code == 200


@pytest.mark.kernel  # the ladder's and the tune's forms are checked against the game's spec
def test_ladder_and_tune_forms_refuse_games_and_seeds_out_of_range_before_queueing(c):
    huge = "99999999999999999999999"
    r = c.post("/jobs", data={"kind": "ladder", "game": "moor", "players": "4", "games": huge})
    assert r.status_code == 400 and f"games a table: {huge} is out of range; allowed 1..10,000,000,000" in text(r)
    r = c.post("/jobs", data={"kind": "ladder", "game": "moor", "players": "4", "balance_games": huge})
    assert r.status_code == 400 and f"games of each rung's own table: {huge} is out of range" in text(r)
    tune = {
        "kind": "tune",
        "scenario": "moor/4p.toml",
        "params": "track_len=20..40",
        "targets": "first_player_advantage=0",
    }
    r = c.post("/jobs", data={**tune, "seed": "-1"})
    assert r.status_code == 400 and "seed: -1 is out of range; allowed 0..2^64-1" in text(r) and "--seed" not in text(r)
    assert c.get("/history").text.count("/jobs/") == 0  # nothing queued


def test_progress_says_what_a_running_job_does_before_and_after_its_games(c):
    store = c.app.state.store
    job = store.add("k-progress", "run", "moor", 4, "run moor/4p.toml", {"kind": "run"})
    store.start(job)
    r = c.get(f"/jobs/{job}/progress")
    assert "loading this game's kernels" in text(r) and "computing the verdicts" not in text(r)
    store.progress(job, 100, 100)
    r = c.get(f"/jobs/{job}/progress")
    assert "computing the verdicts and writing the report" in text(r) and "left" not in text(r)
    assert "loading this game's kernels" not in text(r)


@pytest.mark.kernel  # the form reads the game's spec: its module loads the kernels
def test_a_seat_added_by_raising_players_starts_with_the_files_strategy_and_the_run_is_accepted(c):
    seats = text(c.get("/scenario/seats", params={"scenario": "moor/4p.toml", "players": "5"}))
    assert "(choose)" not in seats
    five = c.get("/scenario/seats", params={"scenario": "moor/4p.toml", "players": "5"}).text
    assert re.search(r'name="seats.4.strategy".*?<option value="weighted" selected>', five, re.S)
    ok = c.post("/validate", data={"scenario": "moor/4p.toml", "field": "players", "players": "5"})
    assert ok.text == ""  # seat 4 plays what the form shows it with
    r = c.post(
        "/jobs", data={"scenario": "moor/4p.toml", "kind": "run", "players": "5", "seats.4.strategy": "weighted"}
    )
    assert r.status_code == 303, text(r)


@pytest.mark.kernel  # the form reads the game's spec: its module loads the kernels
def test_parameters_of_a_strategy_the_seat_left_are_ignored_and_unknown_ones_refused(c):
    stale = {"scenario": "moor/4p.toml", "kind": "run", "seats.0.strategy": "runner", "seats.0.w_tile": "1.0"}
    assert c.post("/jobs", data=stale).status_code == 303  # sent before the seat part was redrawn
    bogus = c.post("/jobs", data={"scenario": "moor/4p.toml", "kind": "run", "seats.0.bogus": "1"})
    assert bogus.status_code == 400 and "unknown name 'seats.0.bogus'" in text(bogus)


@pytest.mark.kernel  # the form reads the game's spec: its module loads the kernels
def test_a_submitted_form_shows_every_bad_fields_line_beside_it(c):
    bad = {"scenario": "moor/4p.toml", "kind": "run", "games": "0", "track_len": "5", "die_faces": "99"}
    r = c.post("/jobs", data=bad)
    assert r.status_code == 400
    for words in ("games: 0 is out of range", "track_len: 5 is out of range", "die_faces: 99 is out of range"):
        assert words in text(r), words


@pytest.mark.kernel  # the form reads the game's spec: its module loads the kernels
def test_open_the_scenario_from_a_result_shows_its_changes_and_compare_needs_another_run(c):
    from sim.web.view import form_link

    spec = {"kind": "run", "scenario": "moor/4p.toml", "sets": ["track_len=36"], "games": 500, "seed": 3}
    link = form_link(spec)
    assert link == "/scenario?path=moor%2F4p.toml&games=500&seed=3&track_len=36"
    page = c.get(link).text
    assert re.search(r'name="track_len"[^>]*value="36"', page) or re.search(r'value="36"[^>]*name="track_len"', page)
    store = c.app.state.store
    store.add("k-self", "run", "moor", 4, "run moor/4p.toml", spec)
    for other, words in (("", "other: choose the run to compare with"), ("k-self", "that is this run itself")):
        r = c.post("/r/k-self/compare", data={"other": other})
        assert r.status_code == 400 and words in text(r), text(r)


def test_cli_refuses_a_reports_folder_inside_one_that_does_not_exist_and_makes_nothing(tmp_path):
    """`sim serve --reports /nonexistent/dir` made /nonexistent/dir/web/jobs.sqlite and served an empty history."""
    from typer.testing import CliRunner

    from sim.cli.main import app

    missing = tmp_path / "nope" / "dir"
    r = CliRunner().invoke(app, ["serve", "--reports", str(missing)])
    assert r.exit_code == 2 and f"--reports {missing}: {missing.parent} does not exist" in r.output
    assert not (tmp_path / "nope").exists()
    a_file = tmp_path / "file"
    a_file.write_text("x")
    r = CliRunner().invoke(app, ["serve", "--reports", str(a_file)])
    assert r.exit_code == 2 and "not a folder" in r.output
    r = CliRunner().invoke(app, ["serve", "--reports", str(a_file / "sub")])
    assert r.exit_code == 2 and f"{a_file} is a file" in r.output
