"""The fits of expert iteration, `sim.stats.policy_fit`: the softmax (conditional-logit) fit recovers a known policy's
weights, rounds them to its grid, and concatenates decision sets keeping their groups; the action-value fit recovers
each feature's worth in points from rollouts, within decisions."""

from __future__ import annotations

import numpy as np
import pytest

from sim.stats.policy_fit import Decisions, agreement, fit_action_values, fit_softmax, loss, value_loss


def _synthetic(w_true, decisions=3000, k=4, seed=0):
    rng = np.random.default_rng(seed)
    F = len(w_true)
    X = rng.normal(size=(decisions * k, F))
    group = np.arange(0, decisions * k + 1, k)
    s = (X @ w_true).reshape(decisions, k)
    p = np.exp(s - s.max(axis=1, keepdims=True))
    p /= p.sum(axis=1, keepdims=True)
    pick = np.array([rng.choice(k, p=row) for row in p])
    target = np.zeros(decisions * k)
    target[group[:-1] + pick] = 1.0
    return Decisions(X, group, target, group[:-1] + pick)


def test_softmax_fit_recovers_the_weights_of_a_known_policy():
    w_true = np.array([1.5, -2.0, 0.0, 0.7])
    d = _synthetic(w_true)
    w = fit_softmax(d, l2=1e-4)
    assert np.allclose(w, w_true, atol=0.15)
    assert loss(d, w) < loss(d, np.zeros(4))
    assert agreement(d, w) > 0.5
    assert np.array_equal(w * 2**20, np.round(w * 2**20))  # on the 2**-20 grid


def test_decisions_concat_keeps_groups_and_choices():
    a, b = _synthetic(np.ones(3), 5, 2, 1), _synthetic(np.ones(3), 4, 3, 2)
    c = Decisions.concat([a, b], 3)
    assert c.n == 9 and c.X.shape == (22, 3)
    assert list(c.group[-5:]) == [10, 13, 16, 19, 22]
    assert c.chosen[5] == 10 + b.chosen[0]


def _rollouts(w_true, decisions=4000, k=5, seed=0, visits=6):
    """Decisions whose actions' rollouts win with probability base_d + w_true . x_a / 100 (a per-decision base: the
    position's own chance), ``visits`` rollouts an action, some actions never tried."""
    rng = np.random.default_rng(seed)
    F = len(w_true)
    X = rng.uniform(0.0, 1.0, size=(decisions * k, F))
    group = np.arange(0, decisions * k + 1, k)
    base = np.repeat(rng.uniform(0.2, 0.5, size=decisions), k)
    p = np.clip(base + X @ w_true / 100.0, 0.0, 1.0)
    v = np.where(rng.uniform(size=decisions * k) < 0.1, 0.0, float(visits))
    wins = rng.binomial(v.astype(np.int64), p).astype(np.float64)
    chosen = group[:-1] + np.array([int(np.argmax(wins[g : g + k])) for g in group[:-1]])
    return Decisions(X, group, wins / np.maximum(v, 1.0), chosen, v)


def test_action_value_fit_recovers_each_features_worth_in_points():
    w_true = np.array([10.0, -6.0, 0.0, 3.0])
    d = _rollouts(w_true)
    w = fit_action_values(d)
    assert np.allclose(w, w_true, atol=1.5)
    assert value_loss(d, w) < value_loss(d, np.zeros(4))
    assert np.array_equal(w * 2**20, np.round(w * 2**20))


def test_action_value_fit_ignores_what_is_constant_within_a_decision():
    """A feature equal for every action of a decision (the position, not the move) cannot tell the actions apart:
    weight 0, however it goes with the win rate between decisions (the fixed effects)."""
    d = _rollouts(np.array([8.0, 0.0]), decisions=2000)
    X = d.X.copy()
    sizes = np.diff(d.group)
    X[:, 1] = np.repeat(np.arange(d.n) % 7, sizes)  # a per-decision value
    w = fit_action_values(Decisions(X, d.group, d.target, d.chosen, d.visits))
    assert w[1] == 0.0 and abs(w[0] - 8.0) < 1.5


def test_action_value_fit_needs_visits_and_decisions_of_one_kind():
    d = _synthetic(np.ones(3), 10, 3)
    with pytest.raises(ValueError, match="visits"):
        fit_action_values(d)
    with pytest.raises(ValueError, match="cannot be fitted together"):
        Decisions.concat([d, _rollouts(np.ones(3), decisions=10, k=3)], 3)


def test_action_value_fit_is_the_same_for_any_order_of_parts_given_together():
    """Concatenated parts fit as one set: the weights depend on the decisions, not how they were gathered."""
    a, b = _rollouts(np.array([5.0, 1.0]), 500, seed=1), _rollouts(np.array([5.0, 1.0]), 500, seed=2)
    both = Decisions.concat([a, b], 2)
    assert both.visits is not None and len(both.visits) == len(both.target)
    w1 = fit_action_values(both)
    w2 = fit_action_values(Decisions.concat([b, a], 2))
    assert np.allclose(w1, w2, atol=2**-19)
