"""Does more search still pay? (issue 38: a budget counts as converged only where doubling it no longer wins head to
head): each step of a ladder's budget family judged on the ladder's own games."""

from __future__ import annotations

import math

import numpy as np
import pytest

import sim
from sim.stats import budget_steps as B
from sim.stats.ladder_fit import wilson95

NAMES = ["weighted", "search:budget=16", "search:budget=64"]
FAMILY = [
    {
        "strategy": "search",
        "param": "budget",
        "points": [{"value": 16, "rung": NAMES[1], "elo": 100.0}, {"value": 64, "rung": NAMES[2], "elo": 150.0}],
    }
]


def _rating(share: float, lo: float, hi: float) -> dict:
    """A rated ladder's head-to-head block where rung 2 wins ``share`` [lo, hi] of its pairs against rung 1."""
    nan = None
    m = [[nan, 0.3, 0.2], [0.7, nan, 1 - share], [0.8, share, nan]]
    low = [[nan] * 3, [nan] * 3, [nan, lo, nan]]
    high = [[nan] * 3, [nan] * 3, [nan, hi, nan]]
    pairs = [[0, 10, 10], [10, 0, 400], [10, 400, 0]]
    return {"head_to_head": {"matrix": m, "ci_low": low, "ci_high": high, "pairs": pairs}}


@pytest.mark.parametrize(
    ("share", "lo", "hi", "verdict"),
    [
        (0.62, 0.57, 0.67, "still pays"),  # the interval above even
        (0.505, 0.48, 0.529, "converged"),  # within 50 +/- 3 points
        (0.51, 0.46, 0.56, "cannot tell yet"),  # holds even, wider than the margin
        (0.41, 0.36, 0.46, "pays less"),
    ],
)
def test_a_budget_step_is_converged_only_where_its_head_to_head_interval_lies_within_the_margin(share, lo, hi, verdict):
    (s,) = B.steps(FAMILY, NAMES, _rating(share, lo, hi), None)
    assert (s["small"], s["large"], s["measure"], s["verdict"]) == (16, 64, "head_to_head", verdict)
    assert s["value"] == share and s["ci95"] == [lo, hi] and s["pairs"] == 400  # the larger budget's row


def test_a_step_in_words_names_the_budgets_the_share_and_the_verdict():
    (s,) = B.steps(FAMILY, NAMES, _rating(0.505, 0.48, 0.529), None)
    assert B.step_words(s) == (
        "search budget 16 -> 64: the larger wins 50.5% [48.0, 52.9] of 400 decided pairs against the smaller: "
        "converged (within 50 ± 3 points)"
    )
    (s,) = B.steps(FAMILY, NAMES, _rating(0.51, 0.46, 0.56), None)
    assert B.verdict_words(s) == "cannot tell yet (converged needs the interval within 50 ± 3 points)"


def test_two_budgets_that_never_met_cannot_tell():
    r = _rating(0.5, 0.4, 0.6)
    r["head_to_head"]["matrix"][2][1] = None
    (s,) = B.steps(FAMILY, NAMES, r, None)
    assert s["verdict"] == "cannot tell yet" and "never met" in B.step_words(s)


def test_newcombes_interval_gives_his_published_example():
    """Newcombe (1998), Statistics in Medicine 17:873, table II example (a): 56/70 - 48/80, method 10: 0.0524 to
    0.3339."""
    lo, hi = B.newcombe(0.8, list(wilson95(56, 70)), 0.6, list(wilson95(48, 80)))
    assert round(lo, 4) == 0.0524 and round(hi, 4) == 0.3339


def _team(rate: float, n: int, rung: str) -> dict:
    return {"rung": rung, "win_rate": rate / n, "ci95": list(wilson95(rate, n)), "games": n}


def test_a_cooperative_ladder_judges_each_step_by_the_team_win_rates():
    team = [_team(3300, 10_000, NAMES[1]), _team(4500, 10_000, NAMES[2])]
    (s,) = B.steps(FAMILY, NAMES, None, team)
    assert s["measure"] == "team_win_rate" and s["verdict"] == "still pays"
    assert abs(s["value"] - 0.12) < 1e-12 and s["ci95"][0] > 0
    same = [_team(4000, 40_000, NAMES[1]), _team(4010, 40_000, NAMES[2])]
    (s,) = B.steps(FAMILY, NAMES, None, same)
    assert s["verdict"] == "converged" and "team win rate +0.03 points" in B.step_words(s)
    assert B.steps(FAMILY, NAMES, None, None) == []


@pytest.mark.kernel
def test_a_ladder_with_two_search_budgets_says_whether_the_larger_still_pays(tmp_path):
    r = sim.ladder(
        "moor", players=2, strategies="weighted;search:budget=2;search:budget=8", games=40, seed=5, out=tmp_path / "ld"
    )
    (s,) = r.raw["budget"]["steps"]
    names = [x["rung"] for x in r.raw["rating"]["ratings"]]
    i, j = names.index("search:budget=2"), names.index("search:budget=8")
    assert s["value"] == r.raw["rating"]["head_to_head"]["matrix"][j][i] and s["verdict"] in B.VERDICTS
    page = (tmp_path / "ld" / "ladder.html").read_text()
    assert "Does more search still pay?" in page and B.measured_words(s) in page


def _synthetic_steps(elo: list[float], games: int, seed: int) -> dict:
    """The budget step 16 -> 64 of rungs 1 and 2 of a ladder fitted to synthetic 2-player outcomes of strengths
    ``elo`` (`tests.sim.test_ladder_fit.synthetic`: Luce's choice model)."""
    from sim.stats import ladder_fit as lf
    from tests.sim.test_ladder_fit import synthetic

    rating = lf.rate(synthetic(elo, 2, games, seed), NAMES, 0, seed=seed, boot=100)
    (s,) = B.steps(FAMILY, NAMES, rating, None)
    return s


def test_on_known_strengths_the_steps_say_what_is_true():
    """A budget that gains 100 Elo still pays; two budgets of equal strength are converged once the games are many,
    and cannot tell yet when they are few; never "still pays" or "pays less" for equal strengths in 10 draws."""
    assert _synthetic_steps([0.0, 200.0, 300.0], 3000, seed=1)["verdict"] == "still pays"
    assert _synthetic_steps([0.0, 200.0, 200.0], 20_000, seed=2)["verdict"] == "converged"
    assert _synthetic_steps([0.0, 200.0, 200.0], 100, seed=3)["verdict"] == "cannot tell yet"
    wrong = sum(_synthetic_steps([0.0, 200.0, 200.0], 1000, seed=10 + k)["verdict"] in ("still pays", "pays less")
                for k in range(10))  # fmt: skip
    assert wrong <= 2  # a 95% interval misses about 1 time in 20


def test_a_ladder_whose_strongest_rung_is_its_anchor_says_so_instead_of_failing():
    """`sim ladder moor --strategies "weighted;runner"` failed writing its page ("estimate: no value") when weighted,
    the anchor (no random rung), came out strongest: the best rung against the anchor is no figure then."""
    from sim.cli.ladder import summary_text
    from sim.pages.ladder_page import vs_anchor_words

    nothing = {"value": None, "ci95": None}
    luck = {k: nothing for k in ("best_vs_random", "best_vs_next", "spread_elo", "stronger_wins", "explained")}
    rating = {"luck": luck, "order": [0], "ratings": [{"rung": "weighted", "elo": 0.0, "ci95": [0.0, 0.0]}]}
    d = {"title": "Moor", "players": 2, "tables": [], "games_per_table": 8, "anchor": "weighted", "rating": rating}
    assert vs_anchor_words(d) == "is weighted itself, the rung the ratings are measured from"
    assert "best vs weighted: n/a; best vs next: n/a; spread n/a Elo" in summary_text(d)


def test_a_budget_family_varies_the_budget_alone():
    """A fresh user's ladder judged 'search budget 4 -> 4' (two rungs that differ in their rollouts) and 4 -> 8
    across two rollout strategies: a family now holds the rungs whose other parameters are all the same."""
    from sim.api.ladder import build
    from sim.output.ladder_output import budget_families

    rungs = ["random", "search:budget=4,rollout=weighted", "search:budget=4,rollout=learned",
             "search:budget=8,rollout=learned", "search:budget=2,rollout=weighted"]  # fmt: skip
    fams = budget_families(build("moor", players=2, strategies=rungs, games=8), None)["families"]
    got = {B.family_words(f): [p["value"] for p in f["points"]] for f in fams}
    assert got == {"search (rollout=learned)": [4, 8], "search (rollout=weighted)": [2, 4]}
    assert all(p["elo"] is None and p["ci95"] is None for f in fams for p in f["points"])


def test_a_cooperative_ladder_whose_rungs_all_win_alike_names_no_best_and_no_weakest():
    """A fresh user's Treasure Hunters ladder (weighted; search at 2 and 4, which never leave weighted's move) read
    "The best team strategy, weighted, wins 31.7%; the weakest, weighted, 31.7%"."""
    from sim.pages.ladder_page import _team

    team = [_team_row(r) for r in ("weighted", "search:budget=2", "search:budget=4")]
    sentence = _team({"team": team})["sentence"]
    assert sentence.startswith("Every team strategy wins 31.7%") and "best" not in sentence


def _team_row(rung: str) -> dict:
    return {"rung": rung, "win_rate": 19 / 60, "ci95": list(wilson95(19, 60)), "games": 60}


def test_matched_proportions_interval_narrows_with_the_games_and_is_never_a_point():
    v, lo, hi = B.agresti_min(0, 0, 60)  # two tables that won the same 60 games
    assert v == 0 and lo < 0 < hi and hi - lo > 0.05
    v, lo, hi = B.agresti_min(0, 0, 5000)
    assert hi - lo < 0.002
    # far from the edges it is the paired Wald interval: (b - c) / n +/- 1.96 sqrt(b + c - (b - c)^2 / n) / n
    v, lo, hi = B.agresti_min(300, 200, 4000)
    wald = 1.959964 * math.sqrt(500 - 100**2 / 4000) / 4000
    assert v == 0.025 and abs(lo - (0.025 - wald)) < 5e-4 and abs(hi - (0.025 + wald)) < 5e-4


def test_a_cooperative_step_is_paired_game_by_game_where_the_games_are_given():
    team = [_team(300, 1000, NAMES[1]), _team(300, 1000, NAMES[2])]
    wins = np.zeros(1000, np.int64)
    wins[:300] = 1
    done = np.ones(1000, bool)
    same = {NAMES[1]: (wins, done), NAMES[2]: (wins.copy(), done)}
    (s,) = B.steps(FAMILY, NAMES, None, team, same)
    assert s["interval"] == "paired" and s["value"] == 0 and s["verdict"] == "converged"
    (s,) = B.steps(FAMILY, NAMES, None, team, None)  # the same rates, as independent tables: too wide to tell
    assert s["interval"] == "independent" and s["verdict"] == "cannot tell yet"


def test_a_budget_family_is_judged_on_the_parameters_as_played_not_as_typed():
    """`search:budget=2` plays Moor's default learned rollouts: it is of one family with
    `search:budget=4,rollout=learned` (a fresh user's ladder judged only 4 -> 8)."""
    from sim.api.ladder import build
    from sim.output.ladder_output import budget_families

    rungs = ["random", "search:budget=2", "search:budget=4,rollout=learned", "search:budget=8,rollout=learned"]
    (f,) = budget_families(build("moor", players=2, strategies=rungs, games=8), None)["families"]
    assert [p["value"] for p in f["points"]] == [2, 4, 8] and B.family_words(f) == "search (rollout=learned)"


def test_a_figure_with_no_rung_above_its_reference_says_so_without_calling_the_reference_strongest():
    """A co-operative ladder whose rungs all won alike read "weighted, the table it is judged against, is the
    strongest rung" beside a page saying the rungs cannot be told apart."""
    from sim.stats.ladder_fit import skill_words

    words = skill_words("length_turns", None, "weighted", "weighted")
    assert words == "nothing to compare: no rung is rated above weighted, the table it is judged against"
