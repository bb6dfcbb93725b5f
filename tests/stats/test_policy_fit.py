"""The softmax (conditional-logit) fit of expert iteration, `sim.stats.policy_fit`: it recovers a known policy's
weights, rounds them to its grid, and concatenates decision sets keeping their groups."""

from __future__ import annotations

import numpy as np

from sim.stats.policy_fit import Decisions, agreement, fit_softmax, loss


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
