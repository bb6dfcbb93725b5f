"""sim baselines / sim check through the CLI: exact and statistical tiers, stamps, exit codes, bad baselines."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from typer.testing import CliRunner

from sim.cli.main import EXIT_BAD_INPUT, app
from sim.model.scenario import load
from sim.stats import check as K
from tests.sim._cli import one_error_line

DATA = Path(__file__).resolve().parent.parent / "data"
BASE = DATA / "moor-2p-small.toml"
GHOSTS = DATA / "moor-2p-ghosts.toml"
MIXED = DATA / "moor-4p-mixed-small.toml"


def invoke(*args):
    return CliRunner().invoke(app, [*map(str, args)])


@pytest.fixture(scope="module")
def bdir(tmp_path_factory):
    d = tmp_path_factory.mktemp("baselines")
    r = invoke(
        "baselines", BASE, MIXED, "--out", d, "--exact-games", 2000, "--stat-games", 20000, "--check-games", 10000
    )
    assert r.exit_code == 0, r.output
    return d


def baseline_file(bdir: Path, scenario: Path = BASE) -> Path:
    return K.baseline_path(scenario, bdir)  # tests/data is not scenarios/: <bdir>/user/data-<stem>-<hash>.json


def edited(bdir: Path, tmp_path: Path, fn) -> Path:
    b = json.loads(baseline_file(bdir).read_text())
    fn(b)
    p = tmp_path / "edited.json"
    p.write_text(json.dumps(b))
    return p


@pytest.mark.kernel
def test_baselines_are_stamped(bdir):
    b = K.read_baseline(baseline_file(bdir))
    from kernels.rng import RNG_CONTRACT
    from sim.model.registry import get

    assert b["game"] == "moor" and b["rules_version"] == get("moor").rules_version
    assert b["rng_contract"] == RNG_CONTRACT
    assert b["exact"]["games"] == 2000 and b["exact"]["seed"] == 7
    assert b["statistical"]["games"] == 20000 and b["statistical"]["check_games"] == 10000
    assert b["exact"]["aggregates"]["games"] == 2000


@pytest.mark.kernel
def test_unchanged_code_passes_both_tiers(bdir):
    r = invoke("check", BASE, MIXED, "--baselines", bdir, "--seed", 12345)
    assert r.exit_code == 0, r.output
    assert "PASS: 2 scenarios checked" in r.stdout
    assert "exact: identical (2000 games)" in r.stdout
    assert "fresh seed 12345" in r.stdout


@pytest.mark.kernel
def test_json_output(bdir):
    r = invoke("check", BASE, "--baselines", bdir, "--seed", 1, "--json")
    assert r.exit_code == 0, r.output
    res = json.loads(r.stdout)
    assert res["ok"] and res["seed"] == 1 and res["alpha"] == K.ALPHA == 0.005
    assert res["n_tests"] == len(res["tests"]) > 5
    assert all("p_holm" in t for t in res["tests"])
    assert res["scenarios"][0]["exact"]["identical"]


@pytest.mark.kernel
def test_statistical_tier_flags_a_changed_rule(bdir):
    # the default scenario's baseline, played with ghost tiles 6 and 7 worth 9 and 12
    r = invoke("check", GHOSTS, "--baseline", baseline_file(bdir), "--tier", "statistical", "--seed", 3)
    assert r.exit_code == 1, r.output
    assert "REGRESSION" in r.stdout
    line = next(x for x in r.stdout.splitlines() if "score.seat0" in x)
    assert "[statistical]" in line and "baseline" in line and "now" in line and "p = " in line
    assert "--seed 3" in r.stdout


@pytest.mark.kernel
def test_exact_tier_reports_a_changed_scenario(bdir):
    r = invoke("check", GHOSTS, "--baseline", baseline_file(bdir), "--tier", "exact")
    assert r.exit_code == 1, r.output
    assert "differs from its baseline: params.ghost_values: [1, 2, 3, 4, 5, 6, 7] -> [1, 2, 3, 4, 5, 9, 12]" in r.stdout
    assert "make baselines" in r.stdout


@pytest.mark.kernel
def test_exact_tier_catches_any_behaviour_change(bdir, tmp_path):
    def bump(b):
        b["exact"]["aggregates"]["win_units"][0] += 60

    p = edited(bdir, tmp_path, bump)
    r = invoke("check", BASE, "--baseline", p, "--tier", "exact")
    assert r.exit_code == 1, r.output
    assert "behaviour changed: review and regenerate with make baselines" in r.stdout
    assert "aggregates.win_units" in r.stdout


@pytest.mark.kernel
@pytest.mark.parametrize(
    "field,text",
    [
        ("rules_version", "rules of moor changed: baseline made with rules v0"),
        ("rng_contract", "RNG contract changed: baseline made with v0"),
    ],
)
def test_changed_stamp_names_what_changed(bdir, tmp_path, field, text):
    p = edited(bdir, tmp_path, lambda b: b.__setitem__(field, 0))
    r = invoke("check", BASE, "--baseline", p, "--tier", "exact")
    assert r.exit_code == 1, r.output
    assert text in r.stdout and "[stamp]" in r.stdout


@pytest.mark.kernel
def test_missing_baseline_is_bad_input(tmp_path):
    r = invoke("check", BASE, "--baselines", tmp_path)
    assert r.exit_code == 3
    assert "no baseline" in r.output and "make baselines" in r.output


@pytest.mark.kernel
def test_corrupt_baseline_is_bad_input(bdir, tmp_path):
    p = tmp_path / "corrupt.json"
    p.write_text(baseline_file(bdir).read_text()[:500])
    r = invoke("check", BASE, "--baseline", p)
    assert r.exit_code == 3 and "corrupt baseline, not valid JSON" in r.output
    p.write_text(json.dumps({"format": 1, "game": "moor"}))
    r = invoke("check", BASE, "--baseline", p)
    assert r.exit_code == 3 and "corrupt baseline" in r.output
    p.write_text("[]")
    r = invoke("check", BASE, "--baseline", p)
    assert r.exit_code == 3 and "not a ghost-sim baseline" in r.output


@pytest.mark.kernel
def test_baseline_of_another_game_is_bad_input(bdir, tmp_path):
    p = edited(bdir, tmp_path, lambda b: b.__setitem__("game", "treasure_hunters"))
    r = invoke("check", BASE, "--baseline", p)
    assert r.exit_code == 3
    assert "baseline of game 'treasure_hunters'" in r.output and "is game 'moor'" in r.output


@pytest.mark.kernel
def test_baseline_for_other_player_count_is_bad_input(bdir):
    r = invoke("check", BASE, "--baseline", baseline_file(bdir, MIXED))
    assert r.exit_code == 3 and "4 players" in r.output


@pytest.mark.parametrize(
    "args,text",
    [(["--tier", "nonsense"], "unknown tier"), (["--alpha", "1.5"], "--alpha"), (["--game", "moor"], "not both")],
)
def test_usage_errors(args, text):
    r = invoke("check", BASE, *args)
    assert r.exit_code == 2 and text in r.output


def test_holm_is_joint_over_all_scenarios():
    tests = [
        {
            "scenario": f"s{i}",
            "metric": "m",
            "label": "m",
            "kind": "rate",
            "baseline": 0.25,
            "now": 0.26,
            "method": "welch-z",
            "p": p,
        }
        for i, p in enumerate([0.004, 0.004, 0.5])
    ]
    # alone each 0.004 < 0.01 would fail; jointly Holm multiplies the smallest by 3 -> 0.012 > 0.01
    assert K.holm_findings(tests, 0.01) == []
    tests[0]["p"], tests[1]["p"] = 0.001, 0.006  # 0.003 <= 0.01 rejected; then 0.006 * 2 = 0.012 is not
    found = K.holm_findings(tests, 0.01)
    assert [f.scenario for f in found] == ["s0"]
    assert "baseline 25.00% -> now 26.00%" in found[0].message


@pytest.mark.kernel
def test_every_default_scenario_has_a_committed_stamped_baseline():
    files = K.default_scenarios()
    assert files
    from kernels.rng import RNG_CONTRACT

    for f in files:
        sc = load(f)
        b = K.read_baseline(K.baseline_path(f), sc)
        assert b["scenario_digest"] == K.digest(sc), f"{f}: scenario changed since its baseline; make baselines"
        assert b["rules_version"] == sc.spec.rules_version, f"{f}: rules changed since its baseline; make baselines"
        assert b["rng_contract"] == RNG_CONTRACT


def test_stale_baselines_are_listed(tmp_path):
    (tmp_path / "moor").mkdir()
    (tmp_path / "moor" / "gone.json").write_text("{}")
    (tmp_path / "moor" / "2p.json").write_text("{}")  # scenarios/moor/2p.toml exists
    assert K.stale_baselines(root=tmp_path) == [tmp_path / "moor" / "gone.json"]


REPO = Path(__file__).resolve().parents[2]
SHIPPED = REPO / "scenarios" / "moor" / "4p.toml"
cli = CliRunner()


def own_copy(folder: Path, text: str | None = None, name: str = "4p.toml") -> Path:
    """A scenario file of one's own at FOLDER/moor/<name> (named like the shipped scenarios/moor/4p.toml)."""
    p = folder / "moor" / name
    p.parent.mkdir(parents=True, exist_ok=True)
    p.write_text(text if text is not None else SHIPPED.read_text())
    return p


@pytest.mark.kernel
def test_every_committed_baseline_records_the_measure_kinds_the_code_has_now():
    """Changing a measure's kind (tiebreak_decided: mean -> rate) makes the exact tier of `sim check` fail on the
    shipped scenarios until `make baselines` is rerun; this catches it without playing a game."""
    import json

    from sim.stats import measures

    for f in sorted((REPO / "reports" / "baselines").glob("*/*.json")):
        b = json.loads(f.read_text())
        sc_file = REPO / "scenarios" / f.parent.name / f"{f.stem}.toml"
        if not sc_file.is_file():
            continue
        now = {m.name: (m.kind, m.binary) for m in measures.measures(load(sc_file))}
        for tier in ("exact", "statistical"):
            for name, rec in b[tier]["measures"].items():
                if name in now:
                    assert (rec["kind"], rec["binary"]) == now[name], f"{f.relative_to(REPO)} {tier} {name}"


@pytest.mark.kernel
def test_an_own_scenario_named_like_a_shipped_one_gets_its_own_baseline(tmp_path, monkeypatch):
    root = tmp_path / "baselines"
    (root / "moor").mkdir(parents=True)
    shipped = root / "moor" / "4p.json"
    shutil.copy(K.baseline_path(SHIPPED), shipped)  # a copy of the committed baseline stands in
    before = shipped.read_bytes()
    monkeypatch.setattr(K, "BASELINES", root)
    mine = own_copy(tmp_path / "me", SHIPPED.read_text().replace('name = "moor-4p"', 'name = "my-4p"'))
    assert K.baseline_path(SHIPPED, root) == shipped  # the default scenario keeps its place
    dest = K.baseline_path(mine, root)
    assert dest != shipped and dest.parent == root / K.USER_DIR and dest.name.startswith("moor-4p-")
    r = cli.invoke(app, ["check", str(mine), "--tier", "exact"])  # no false regression: no baseline yet
    assert r.exit_code == EXIT_BAD_INPUT and f"`sim baselines {mine}`" in one_error_line(r)
    r = cli.invoke(
        app, ["baselines", str(mine), "--exact-games", "300", "--stat-games", "600", "--check-games", "300"]
    )  # what the hint says: safe now
    assert r.exit_code == 0, r.output
    assert shipped.read_bytes() == before and dest.exists()
    assert K.stale_baselines(root=root) == []  # own baselines are never "stale"
    r = cli.invoke(app, ["check", str(mine), "--tier", "exact"])
    assert r.exit_code == 0 and "exact: identical" in r.stdout, r.output
    # two own files named alike in different folders: two baselines
    assert K.baseline_path(own_copy(tmp_path / "other"), root) != dest


@pytest.mark.kernel
def test_baselines_refuses_to_overwrite_another_files_baseline(tmp_path):
    mine = own_copy(tmp_path, BASE.read_text())
    root = tmp_path / "b"
    dest = K.baseline_path(mine, root)
    dest.parent.mkdir(parents=True)
    dest.write_text(json.dumps({"scenario_file": "scenarios/moor/4p.toml"}))
    r = cli.invoke(app, ["baselines", str(mine), "--out", str(root), "--exact-games", "100", "--stat-games", "100"])
    assert r.exit_code == EXIT_BAD_INPUT and "is the baseline of scenarios/moor/4p.toml" in one_error_line(r)
    assert json.loads(dest.read_text()) == {"scenario_file": "scenarios/moor/4p.toml"}


_NO_HISTS = __import__("types").SimpleNamespace(turns_hist=[], score_hist=[], score_lo=0)


def _one_measure(n1, s1, q1, c1, z1, n2, s2, q2, c2, z2):
    """(baseline, fresh sums) of one non-binary measure 'win.seat1' (scale 1), as `stat_findings` reads them."""
    m = {"scale": 1, "kind": "rate", "binary": False, "label": "seat 1 wins"}
    base = {"statistical": {"measures": {"win.seat1": {**m, "n": n1, "sum": s1, "sq": q1, "cubes": c1, "nonzero": z1}},
                            "hists": {}}}  # fmt: skip
    now = {"win.seat1": {**m, "n": n2, "sum": s2, "sq": q2, "cubes": c2, "nonzero": z2}}
    return base, now


def test_a_small_fresh_sample_without_a_single_win_is_no_regression():
    """CI on 2026-12-05: Turnwall's search scenario checks 24 fresh games; a planner seat that wins 12% of the
    baseline's 600 won none of them (probability 0.88^24 = 0.05), and a z-test with the fresh games' own variance
    (0) gave p < 1e-9. Under "nothing changed" the variance pooled over both samples stands for each: not
    significant."""
    from types import SimpleNamespace

    base, now = _one_measure(600, 72, 72, 72, 72, 24, 0, 0, 0, 0)
    tests, _ = K.stat_findings(SimpleNamespace(name="t"), base, now, _NO_HISTS)
    assert len(tests) == 1 and tests[0]["p"] > 0.01, tests


def test_a_real_shift_of_a_symmetric_measure_is_still_found():
    """The same test still finds a real shift: a mean 6.84 -> 6.60 (sd 2.25) over 20,000 fresh games."""
    from types import SimpleNamespace

    def sums(mean, sd, n):  # sums of values, squares and cubes of a symmetric sample
        return n * mean, n * (sd * sd + mean * mean), n * (mean**3 + 3 * mean * sd * sd)

    s1, q1, c1 = sums(6.84, 2.25, 500_000)
    s2, q2, c2 = sums(6.60, 2.25, 20_000)
    base, now = _one_measure(500_000, s1, q1, c1, 500_000, 20_000, s2, q2, c2, 20_000)
    tests, _ = K.stat_findings(SimpleNamespace(name="t"), base, now, _NO_HISTS)
    assert tests[0]["method"] == "z (pooled variance)" and tests[0]["p"] < 1e-9, tests


def test_a_measure_never_0_that_moved_far_is_found_changed():
    """A fresh user's check of Turnwall with 2 moves a turn (game length 6.0 -> 8.3 rounds over 1,000 and 200 games)
    said "cannot tell yet" on some seeds (here 1,000 and 100 games): pooled over both samples, two distributions far apart look skewed, and the
    rare-event test (how often the measure is non-0) gave p = 1 for a length that is never 0. A measure never 0 is
    tested on its mean; a rare-event counter keeps its exact test."""
    from types import SimpleNamespace

    def sums(values, n):  # values repeated to n games: sums of values, squares, cubes, and how many are not 0
        k = n // len(values)
        return (
            sum(values) * k,
            sum(v * v for v in values) * k,
            sum(v**3 for v in values) * k,
            sum(v != 0 for v in values) * k,
        )

    base, now = _one_measure(1000, *sums([5, 6, 6, 6, 7], 1000), 100, *sums([7, 8, 8, 8, 10], 100))
    tests, _ = K.stat_findings(SimpleNamespace(name="t"), base, now, _NO_HISTS)
    assert tests[0]["method"].startswith("z (pooled variance; never 0") and tests[0]["p"] < 1e-9, tests
    base, now = _one_measure(1000, *sums([0] * 49 + [30], 1000), 200, *sums([0] * 9 + [30], 200))
    tests, _ = K.stat_findings(SimpleNamespace(name="t"), base, now, _NO_HISTS)
    assert tests[0]["method"].startswith("fisher on the non-zero share"), tests


def test_an_event_the_baseline_never_saw_once_in_a_small_sample_is_no_regression():
    """CI on 2026-12-05 (same run, with the baseline's variance alone): a counter that was 0 in all 600 baseline
    games and 1 in one of 24 fresh ones (chance about 1 in 25) must not be flagged (p < 1e-9 with a zero variance)."""
    from types import SimpleNamespace

    base, now = _one_measure(600, 0, 0, 0, 0, 24, 1, 1, 1, 1)
    tests, _ = K.stat_findings(SimpleNamespace(name="t"), base, now, _NO_HISTS)
    assert len(tests) == 1 and tests[0]["p"] > 0.01, tests


def test_more_check_games_cannot_beat_the_baselines_own_error():
    """A fresh user's check against a 1,000-game baseline: "about N more games would decide" for win rates that no
    number of check games could decide (the baseline's half of the error alone is wider than the margin allows).
    `verdict.games_to_decide` with ``n_base`` counts the baseline's games: 0 (never) there, a number where the check's games
    can still do it, and about what it says without one when the baseline is huge."""
    from sim.stats import verdict as V

    sd = 0.43  # a win rate near 24%
    se = lambda nb, n: sd * (1 / nb + 1 / n) ** 0.5  # noqa: E731
    assert V.games_to_decide(0.001, se(1000, 200), 0.01, 200, 0.001, n_base=1000) == 0
    n = V.games_to_decide(0.001, se(200_000, 200), 0.01, 200, 0.001, n_base=200_000)
    assert (
        n and 10_000 < n < V.games_to_decide(0.001, se(200_000, 200) / (1 + 200 / 200_000) ** 0.5, 0.01, 200, 0.001) * 2
    )
    big = V.games_to_decide(0.001, se(10**12, 200), 0.01, 200, 0.001, n_base=10**12)
    assert abs(big - V.games_to_decide(0.001, sd / 200**0.5, 0.01, 200, 0.001)) <= 2
    assert V.games_to_decide(0.001, se(1000, 200), 0.01, 200, 0.001, n_base=0) == V.games_to_decide(
        0.001, se(1000, 200), 0.01, 200, 0.001
    )
