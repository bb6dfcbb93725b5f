"""Learned players: the shipped policy files fit their kernels (feature set and version, rules version), the softmax
`sim train`'s one-line errors, `sim list` naming the learned strategy; and (kernel tier) training is
reproducible: the same seed gives the same weights for any thread count, and a resumed run the same as one run.
The fit itself: tests/stats/test_policy_fit.py."""

from __future__ import annotations

import json

import numpy as np
import pytest

from sim.model.policy import check_policy, load_policy, policy_path
from sim.model.registry import get, names

pytestmark = pytest.mark.kernel  # every test here loads a game's kernel module (the specs import it)


# every game's learned roles (collected without importing a kernel: the fast tier imports this module)
ROLES = [
    ("galleon", "player"),
    ("moor", "player"),
    ("treasure_hunters", "hunter"),
    ("treasure_hunters", "haunter"),
    ("turnwall", "player"),
]


def _learner(game, role):
    return next(lr for lr in get(game).learners if lr.role == role)  # type: ignore[union-attr]


def test_every_learned_role_is_tested_here():
    assert ROLES == [(g, lr.role) for g in names() for lr in get(g).learners]  # type: ignore[union-attr]


@pytest.mark.parametrize("game, role", ROLES, ids=[f"{g}-{r}" for g, r in ROLES])
def test_shipped_policy_fits_its_kernel(game, role):
    """A rules change (RULES_VERSION) or a feature change (FEATURE_VERSION) fails here until `sim train` is run."""
    learner = _learner(game, role)
    data = load_policy(game, learner.role)
    assert data is not None, f"{policy_path(game, learner.role)} is missing: run `sim train {game} --install`"
    assert check_policy(data, learner.module(), get(game).rules_version) is None  # type: ignore[union-attr]
    assert data["command"].startswith(f"sim train {game} ") and "--seed" in data["command"]
    assert data["training"]["iterations"], "the training figures are recorded with the weights"


@pytest.mark.parametrize("game, role", ROLES, ids=[f"{g}-{r}" for g, r in ROLES])
def test_the_shipped_command_starts_from_the_shipped_policys_first_rollouts(game, role):
    """The command a policy records plays it again only if training's first iteration rolls out with the strategy it
    did: a search default moved to the learned policy itself (Galleon, Turnwall) would start from the shipped weights
    instead (`Learner.bootstrap` pins it)."""
    from sim.api.train import first_rollout

    learner = _learner(game, role)
    data = load_policy(game, learner.role)
    assert data is not None
    assert first_rollout(get(game), learner) == data["training"]["iterations"][0]["rollout"]  # type: ignore[arg-type]


def test_check_policy_names_what_differs():
    game, learner = ROLES[0][0], _learner(*ROLES[0])
    data = load_policy(game, learner.role)
    feat, rv = learner.module(), get(game).rules_version  # type: ignore[union-attr]
    assert "rules version" in check_policy({**data, "rules_version": rv + 1}, feat, rv)
    assert "feature set" in check_policy({**data, "feature_version": feat.FEATURE_VERSION + 1}, feat, rv)
    w = dict(data["weights"])
    w.pop(next(iter(w)))
    assert "features are" in check_policy({**data, "weights": w}, feat, rv)


def test_learned_strategy_defaults_are_the_shipped_weights():
    game, learner = ROLES[0][0], _learner(*ROLES[0])
    st = get(game).strategy(learner.strategy)  # type: ignore[union-attr]
    data = load_policy(game, learner.role)
    assert [p.name for p in st.params] == ["temperature"] + [f"w_{n}" for n in learner.module().FEATURE_NAMES]
    assert [p.default for p in st.params[1:]] == [data["weights"][n] for n in learner.module().FEATURE_NAMES]


@pytest.mark.parametrize(
    "args, says",
    [
        (["train", "nosuchgame"], "unknown game 'nosuchgame'; allowed:"),
        (["train", "moor", "--role", "ghost"], "--role: moor has no learned role 'ghost'; allowed: player"),
        (["train", "moor", "--iterations", "0"], "--iterations: 0 is out of range; allowed 1..100"),
        (["train", "moor", "--budget", "0"], "--budget: 0 is out of range; allowed 1..65,536"),
        (["train", "moor", "--threads", "0"], "--threads: 0 is out of range; allowed >= 1"),
        (["train", "moor", "--states", "random"], "--states: 'random' is not allowed; allowed: search, learned"),
        (
            ["train", "treasure_hunters", "--role", "player"],
            "--role: treasure_hunters has no learned role 'player'; allowed: hunter, haunter",
        ),
    ],
)
def test_train_bad_input_is_one_line_and_exit_2(args, says):
    from typer.testing import CliRunner

    from sim.cli.main import app

    r = CliRunner().invoke(app, args)
    assert r.exit_code == 2, r.output
    lines = [x for x in r.output.splitlines() if x.strip()]
    assert len(lines) == 1 and says in lines[0] and "Traceback" not in r.output


@pytest.mark.parametrize("game, weight", [("moor", "w_take"), ("turnwall", "w_plan")])
def test_sim_list_shows_the_learned_strategy(game, weight):
    from typer.testing import CliRunner

    from sim.cli.main import app

    r = CliRunner().invoke(app, ["list", game])
    assert r.exit_code == 0
    assert "    learned: learned policy" in r.output and f"{weight} = " in r.output


def test_sim_list_shows_both_learned_strategies_of_treasure_hunters():
    from typer.testing import CliRunner

    from sim.cli.main import app

    r = CliRunner().invoke(app, ["list", "treasure_hunters"])
    assert r.exit_code == 0
    assert "    learned [hunter]: learned policy" in r.output and "w_script = " in r.output
    assert "    haunter_learned [Head Haunter]: Head Haunter: learned policy" in r.output and "w_traps = " in r.output


def test_training_is_reproducible_for_any_thread_count_and_after_a_resume(tmp_path):
    """Same seed, same weights: one thread, two threads, and a run stopped after its first iteration and resumed."""
    from sim.api.train import TrainConfig, train

    cfg = TrainConfig("moor", "player", 5, 2, 3, 8, 200, 1e-3)
    one = train(cfg, tmp_path / "one", threads=1, say=lambda _s: None)
    two = train(cfg, tmp_path / "two", threads=2, say=lambda _s: None)
    first = TrainConfig("moor", "player", 5, 1, 3, 8, 200, 1e-3)
    train(first, tmp_path / "resumed", threads=1, say=lambda _s: None)
    lines: list[str] = []
    resumed = train(cfg, tmp_path / "resumed", threads=2, say=lines.append)
    assert any("resuming after iteration 1" in x for x in lines)
    for r in (two, resumed):
        assert [it["weights"] for it in r["iterations"]] == [it["weights"] for it in one["iterations"]]
        assert [it["strength"] for it in r["iterations"]] == [it["strength"] for it in one["iterations"]]
    policy = json.loads((tmp_path / "one" / "policy.json").read_text())
    assert policy["command"].startswith("sim train moor --role player --seed 5 --iterations 2")
    # as run: its own --out, and no --install it was not given (copying it must not overwrite the shipped weights)
    assert f"--out {tmp_path / 'one'}" in policy["command"] and "--install" not in policy["command"]
    assert policy["feature_set"] == "moor-player" and policy["rules_version"] == get("moor").rules_version  # type: ignore[union-attr]


def test_dagger_states_the_previous_policy_plays_and_search_labels(tmp_path, monkeypatch):
    """``states = "learned"``: the first iteration is the default run's (search plays), and from the second the
    previous iteration's policy plays every decision the search labels (the greedy row of the features recorded
    for it), so its decisions are not the default run's; the command and the report say so."""
    from sim.api.train import TrainConfig, TrainError, train
    from sim.play import learn as L

    base = TrainConfig("moor", "player", 5, 2, 3, 8, 200, 1e-3)
    dag = TrainConfig("moor", "player", 5, 2, 3, 8, 200, 1e-3, "learned")
    plays: list[tuple[np.ndarray, np.ndarray, int]] = []
    real = L.greedy

    def spy(x, w):
        plays.append((x.copy(), w.copy(), real(x, w)))
        return plays[-1][2]

    one = train(base, tmp_path / "base", say=lambda _s: None)
    monkeypatch.setattr(L, "greedy", spy)
    said: list[str] = []
    two = train(dag, tmp_path / "dag", say=said.append)
    assert two["iterations"][0]["weights"] == one["iterations"][0]["weights"]
    assert len(plays) == two["iterations"][1]["decisions"] > 0
    w1 = np.array(list(two["iterations"][0]["weights"].values()))
    assert all(np.array_equal(w, w1) for _x, w, _r in plays)  # iteration 1's policy played iteration 2's games
    data = np.load(tmp_path / "dag" / "checkpoint" / "iter-1.npz")
    for d, (x, _w, _r) in enumerate(plays):  # each decision labelled is the state the policy played from
        assert np.array_equal(data["X"][data["group"][d] : data["group"][d + 1]], x)
    assert two["iterations"][1]["decisions"] != one["iterations"][1]["decisions"]
    assert two["iterations"][1]["played_by"] == "learned of iteration 1" and "played_by" not in two["iterations"][0]
    policy = json.loads((tmp_path / "dag" / "policy.json").read_text())
    assert " --states learned " in policy["command"]
    assert policy["training"]["iterations"][1]["played_by"] == "learned of iteration 1"
    assert any("iteration 2/2: 3/3 games played by learned of iteration 1, labelled by search at 8" in x for x in said)
    assert "--states" not in json.loads((tmp_path / "base" / "policy.json").read_text())["command"]
    md = (tmp_path / "dag" / "report.md").read_text()
    assert "games played by learned of iteration 1" in md and "the iteration before played them" in md
    # a checkpoint made before --states existed is a --states search run: resumed as one, refused for learned
    state = tmp_path / "base" / "checkpoint" / "state.json"
    old = json.loads(state.read_text())
    del old["config"]["states"]
    state.write_text(json.dumps(old))
    assert train(base, tmp_path / "base", say=lambda _s: None)["iterations"] == one["iterations"]
    state.write_text(json.dumps(old))
    with pytest.raises(TrainError, match=r"--l2 0\.001; it differs in --states \(search there, learned here\)\)"):
        train(dag, tmp_path / "base", say=lambda _s: None)


def test_greedy_sums_in_feature_order_and_breaks_ties_to_the_lower_action():
    """The policy DAgger plays is the kernel's at temperature 0 (`kernels.policy.select`): highest score, ties to the
    first row."""
    from kernels.policy import select
    from sim.play.learn import greedy

    x = np.array([[1.0, 0.0], [0.0, 2.0], [2.0, 0.0], [0.0, 1.0]])
    w = np.array([1.0, 1.0])
    assert greedy(x, w) == 1  # rows 1 and 2 tie at 2: the first
    rng = np.zeros((1, 4), np.uint64)
    scores = np.array([x[i] @ w for i in range(4)])
    assert select(scores, np.arange(4, dtype=np.int64), 4, 0.0, rng, 0) == greedy(x, w)
    assert greedy(x, np.array([1.0, -1.0])) == 2


def test_the_advanced_reference_and_first_rollouts_play_the_tuned_weighted_row():
    """Treasure Hunters hunters (`Learner.scripted`): the advanced game's reference team and bootstrap rollouts play
    the tuned w_jewel of advanced-4p.toml, what the policy's script plays there; the basic game and the training
    search's own seats keep their defaults."""
    from sim.model.paths import REPO
    from sim.model.scenario import load
    from sim.play import learn as L

    lr = _learner("treasure_hunters", "hunter")
    tuned = load(REPO / "scenarios" / "treasure_hunters" / "advanced-4p.toml").seats[0].params
    basic, adv = L.tables("treasure_hunters", lr, "weighted", 1)
    assert [s.params for s in basic.seats] == [{}] * 4 and [s.params for s in adv.seats] == [tuned] * 4
    assert all(s.params == {} for t in L.tables("treasure_hunters", lr, "search", 1) for s in t.seats)
    params = adv.spec.strategy("weighted").params  # type: ignore[union-attr]
    col = [p.name for p in params].index("w_jewel")
    _, rows = L.rollout_rows(adv, lr, "weighted", None, lr.scripted_params(1))
    _, base = L.rollout_rows(basic, lr, "weighted", None, lr.scripted_params(0))
    assert (rows[:, col] == tuned["w_jewel"]).all() and (base[:, col] == params[col].default).all()


def test_the_values_target_shares_between_equal_actions_and_skips_untried_ones():
    import numpy as np

    from sim.play.learn import value_target

    t = value_target(np.array([4.0, 4.0, 0.0, 4.0]), np.array([3.0, 3.0, 0.0, 1.0]), 0.1)
    assert t.sum() == pytest.approx(1.0) and t[0] == t[1] and t[2] == 0.0 and 0.0 < t[3] < t[0]


def test_a_team_report_names_the_reference_s_own_parameters_by_variant():
    from sim.api.train import report_markdown

    rate = {"games": 100, "wins": 6.0, "win_rate": 0.06, "ci": [0.03, 0.12]}
    variants = [
        {"params": {"mode": "basic"}, "scripted": {}, "learned": rate, "reference": rate},
        {"params": {"mode": "advanced"}, "scripted": {"w_jewel": 11.5}, "learned": rate, "reference": rate},
    ]
    it = {"iteration": 0, "rollout": "weighted", "decisions": 10, "agreement": 1.0, "versus": "weighted"}
    it |= {"strength": {**rate, "reference": rate, "variants": variants}, "seconds_play": 1.0, "seconds_fit_eval": 1.0}
    report = {"game": "treasure_hunters", "role": "hunter", "command": "sim train x", "team": True, "best": 0}
    report |= {"seconds": 2.0, "iterations": [it], "config": {"games": 4, "budget": 64, "l2": 1e-3, "eval_games": 200}}
    md = report_markdown(report)
    assert "- mode = basic: learned 6.0% [3.0, 12.0] of 100 games, weighted 6.0%" in md
    assert "- mode = advanced: learned 6.0% [3.0, 12.0] of 100 games, weighted (w_jewel = 11.5) 6.0%" in md


def test_turnwall_training_plays_past_its_first_search_decision(tmp_path):
    """Regression (2026-12-06): the Turnwall training kernel resumed at its second search decision, compiled second
    in its process, called `rng.shuffle_range` without having linked it (kernels/_codegen.py) and crashed with a
    segmentation fault. In a process of its own with an empty kernel cache (the fault hung on the order in which
    one process compiled the kernels), so that a crash fails this test and not the worker."""
    import os
    import subprocess
    import sys

    from sim.model.paths import REPO

    env = dict(os.environ, SIM_CACHE_ROOT=str(tmp_path / "cache"))
    r = subprocess.run(
        [sys.executable, "-m", "sim.cli.main", "train", "turnwall", "--seed", "1", "--iterations", "1", "--games",
         "1", "--budget", "8", "--eval-games", "100", "--out", str(tmp_path / "t")],
        cwd=REPO, env=env, capture_output=True, text=True, timeout=900,
    )  # fmt: skip
    assert r.returncode == 0, r.stderr[-2000:]
    report = json.loads((tmp_path / "t" / "report.json").read_text())
    assert report["iterations"][0]["decisions"] > 1


def test_action_values_training_fits_the_rollouts_and_is_reproducible(tmp_path, monkeypatch):
    """`target = "action_values"` (Galleon's): each decision keeps every action's rollout win rate and visits, the
    fit is `fit_action_values`, and the weights are the same for one thread, two, and a resumed run. Played on Moor
    (its kernels are the cheapest) with the target swapped in."""
    import dataclasses

    import numpy as np

    from sim.api import train as T
    from sim.stats.policy_fit import fit_action_values

    spec, lr = T.learner_of("moor", "player")
    av = dataclasses.replace(lr, target="action_values", window=1)
    monkeypatch.setattr(T, "learner_of", lambda game, role: (spec, av))
    cfg = T.TrainConfig("moor", "player", 5, 2, 3, 8, 200, 1e-3)
    one = T.train(cfg, tmp_path / "one", threads=1, say=lambda _s: None)
    two = T.train(cfg, tmp_path / "two", threads=2, say=lambda _s: None)
    T.train(T.TrainConfig("moor", "player", 5, 1, 3, 8, 200, 1e-3), tmp_path / "r", threads=1, say=lambda _s: None)
    resumed = T.train(cfg, tmp_path / "r", threads=2, say=lambda _s: None)
    for r in (two, resumed):
        assert [it["weights"] for it in r["iterations"]] == [it["weights"] for it in one["iterations"]]
    d, w = T._load_npz(tmp_path / "one" / "checkpoint" / "iter-0.npz")
    assert d.visits is not None and d.visits.sum() > 0 and ((d.target >= 0) & (d.target <= 1)).all()
    assert np.array_equal(w, fit_action_values(d, 1e-3))  # the first iteration fits its own decisions
    d1, w1 = T._load_npz(tmp_path / "one" / "checkpoint" / "iter-1.npz")
    assert np.array_equal(w1, fit_action_values(d1, 1e-3))  # window 1: the second its own only, not both
    assert not np.array_equal(w1, fit_action_values(T.Decisions.concat([d, d1], d.X.shape[1]), 1e-3))
    assert one["target"] == "action_values" and one["window"] == 1
    assert "fitted each action's value" in (md := (tmp_path / "one" / "report.md").read_text())
    assert "to the iteration's own decisions" in md
    # self-play from the second iteration on: one seat of it against the iteration before at every other seat
    sp = one["iterations"][1]["strength"]["selfplay"]
    assert "selfplay" not in one["iterations"][0]["strength"] and sp["games"] > 150 and sp["fair"] == 0.25
    assert f"| {T.selfplay_cell(one['iterations'][1]['strength'])} |" in md and "| - |" in md
    # a resume of another run or of other learner settings is refused naming the run the folder holds, in full
    with pytest.raises(T.TrainError, match=r"--eval-games 200 --l2 0\.001; it differs in --eval-games \(200 there, "
                       r"300 here\)\); give another --out"):  # fmt: skip
        T.train(dataclasses.replace(cfg, eval_games=300), tmp_path / "r", threads=1, say=lambda _s: None)
    monkeypatch.setattr(T, "learner_of", lambda game, role: (spec, dataclasses.replace(av, window=0)))
    with pytest.raises(T.TrainError, match=r"holds the checkpoint of this run made with other learner settings"):
        T.train(cfg, tmp_path / "r", threads=1, say=lambda _s: None)


def test_an_installed_policy_weaker_than_its_reference_is_said():
    """`sim train --install` warns where the policy's whole interval lies below the reference team's rate, or a
    seat's fair share; nothing where it does not."""
    from sim.api.train import weaker_words

    lr = _learner("galleon", "player")
    assert "below the fair share 25.0%" in weaker_words(lr, {"win_rate": 0.02, "ci": [0.006, 0.07], "fair": 0.25})
    assert weaker_words(lr, {"win_rate": 0.24, "ci": [0.2, 0.28], "fair": 0.25}) == ""
    team = _learner("treasure_hunters", "hunter")
    ref = {"win_rate": 0.205, "ci": [0.19, 0.22]}
    weak = weaker_words(team, {"win_rate": 0.0, "ci": [0.0, 0.019], "fair": 0.25, "reference": ref})
    assert "below the weighted team's 20.5%" in weak
    assert weaker_words(team, {"win_rate": 0.3, "ci": [0.28, 0.33], "fair": 0.25, "reference": ref}) == ""


def test_a_step_search_keeps_the_strongest_step_toward_the_fit(tmp_path, monkeypatch):
    """`Learner.steps`: from the second iteration on, training tries prev + a (fit - prev) for each step a (and 1),
    keeps the strongest on games of their own, and reports each; the first iteration is the fit itself."""
    import dataclasses

    import numpy as np

    from sim.api import train as T
    from sim.stats.policy_fit import GRID, fit_action_values

    spec, lr = T.learner_of("moor", "player")
    av = dataclasses.replace(lr, target="action_values", window=1, steps=(0.5,))
    monkeypatch.setattr(T, "learner_of", lambda game, role: (spec, av))
    cfg = T.TrainConfig("moor", "player", 5, 2, 3, 8, 200, 1e-3)
    rep = T.train(cfg, tmp_path / "s", threads=1, say=lambda _s: None)
    assert "steps" not in rep["iterations"][0]
    steps = rep["iterations"][1]["steps"]
    assert [x["step"] for x in steps] == [0.5, 1.0]
    d0, w0 = T._load_npz(tmp_path / "s" / "checkpoint" / "iter-0.npz")
    d1, w1 = T._load_npz(tmp_path / "s" / "checkpoint" / "iter-1.npz")
    assert np.array_equal(w0, fit_action_values(d0, 1e-3))
    fit = fit_action_values(d1, 1e-3)
    a = max(steps, key=lambda x: (x["win_rate"], -x["step"]))["step"]
    assert np.array_equal(w1, np.round((w0 + a * (fit - w0)) * GRID) / GRID)
    md = (tmp_path / "s" / "report.md").read_text()
    said = ", ".join(f"{x['step']:g}: {100 * x['win_rate']:.1f}% of {x['games']:,} games" for x in steps)
    assert f"- iteration 2: {said}; kept {a:g}" in md
