"""Fitting a linear policy to search decisions: the fit step of expert iteration.

A decision d offers k_d legal actions, each described by a feature vector x (float64[F]); the policy with weights w
plays action a with probability p(a) = exp(w . x_a) / sum_b exp(w . x_b). The search labels each decision with a
target distribution t over its actions (its visit counts, normalised). `fit_softmax` minimises the mean cross-entropy
-sum_d sum_a t(a) log p(a) / D plus (l2 / 2) |w|^2 by Newton's method (F is a few dozen: the F x F Hessian is cheap,
and about ten steps converge). The weights are rounded to a grid of 2**-20 at the end, so that the last-bit
differences of BLAS and SIMD sums between machines vanish (a weight would have to fall within about 1e-12 of a grid
midpoint to round differently).

`fit_action_values` fits the same linear score another way, to the search's rollouts rather than its choice: each
legal action's rollout win rate q(a) (wins / visits), by least squares weighted by the visits, with a free constant per
decision (decision fixed effects: only the differences between a decision's actions are fitted, since a constant per
decision cancels in the policy). So w . x_a estimates how many points of win rate action a is worth against the
decision's others, when the rollout strategy plays on: one step of policy improvement over the rollout strategy,
averaged over every decision instead of read from each decision's few rollouts (where a budget of 64 tries each of
20 actions about 3 times, the most tried action is mostly noise: Galleon's search at 64 plays the same move again on
another stream in about 15% of its decisions).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

GRID = 2.0**20  # weights are multiples of 1 / GRID


@dataclass(frozen=True)
class Decisions:
    """Search decisions as flat arrays: X float64[R, F] (one row per legal action), group int64[D + 1] (decision d's
    rows are X[group[d]:group[d + 1]]), target float64[R] (the search's visit share of each action; each decision's
    sums to 1; with ``visits``: each action's rollout win rate, 0 where it was not tried), chosen int64[D] (the row of
    the action the search played), visits float64[R] or None (each action's rollouts: the `fit_action_values`
    weights)."""

    X: np.ndarray
    group: np.ndarray
    target: np.ndarray
    chosen: np.ndarray
    visits: np.ndarray | None = None

    @property
    def n(self) -> int:
        return len(self.group) - 1

    @staticmethod
    def concat(parts: list[Decisions], n_features: int) -> Decisions:
        """One set of the decisions of ``parts``, in order."""
        parts = [p for p in parts if p.n > 0]
        if not parts:
            return Decisions(np.zeros((0, n_features)), np.zeros(1, np.int64), np.zeros(0), np.zeros(0, np.int64))
        X = np.concatenate([p.X for p in parts])
        target = np.concatenate([p.target for p in parts])
        offs = np.cumsum([0] + [p.X.shape[0] for p in parts])
        group = np.concatenate([parts[0].group[:1]] + [p.group[1:] + o for p, o in zip(parts, offs)])
        chosen = np.concatenate([p.chosen + o for p, o in zip(parts, offs)])
        with_visits = [p.visits is not None for p in parts]
        if any(with_visits) and not all(with_visits):
            raise ValueError("decisions with rollout visits and decisions without them cannot be fitted together")
        visits = np.concatenate([p.visits for p in parts if p.visits is not None]) if all(with_visits) else None
        return Decisions(X, group.astype(np.int64), target, chosen.astype(np.int64), visits)


def softmax_within(s: np.ndarray, group: np.ndarray) -> np.ndarray:
    """The softmax of the scores ``s`` (float64[R], one a row) within each decision of ``group``."""
    starts = group[:-1]
    mx = np.maximum.reduceat(s, starts)
    sizes = np.diff(group)
    e = np.exp(s - np.repeat(mx, sizes))
    z = np.add.reduceat(e, starts)
    return e / np.repeat(z, sizes)


def _probs(X: np.ndarray, group: np.ndarray, w: np.ndarray) -> np.ndarray:
    """The policy's probability of every row (float64[R])."""
    return softmax_within(X @ w, group)


def cross_entropy(data: Decisions, s: np.ndarray) -> float:
    """Mean cross-entropy against the targets of the policy scoring the rows ``s`` (float64[R]; any model's)."""
    p = softmax_within(s, data.group)
    return -float(np.sum(data.target * np.log(np.maximum(p, 1e-300)))) / data.n


def loss(data: Decisions, w: np.ndarray, l2: float = 0.0) -> float:
    """Mean cross-entropy of the policy ``w`` against the targets, plus the L2 term."""
    if data.n == 0:
        return 0.0
    return cross_entropy(data, data.X @ w) + 0.5 * l2 * float(w @ w)


def agreement(data: Decisions, w: np.ndarray) -> float:
    """Share of decisions where the policy's highest-scoring action (ties: the first row, as the kernel's lower
    action index) is the one the search played."""
    return agreement_of_scores(data, data.X @ w)


def agreement_of_scores(data: Decisions, s: np.ndarray) -> float:
    """`agreement` of the policy scoring the rows ``s`` (float64[R]; any model's)."""
    if data.n == 0:
        return 0.0
    hits = 0
    for d in range(data.n):
        lo, hi = data.group[d], data.group[d + 1]
        hits += int(lo + int(np.argmax(s[lo:hi])) == data.chosen[d])
    return hits / data.n


def fit_softmax(data: Decisions, l2: float = 1e-3, steps: int = 30, w0: np.ndarray | None = None) -> np.ndarray:
    """The weights (float64[F], multiples of 2**-20) minimising `loss` with the L2 penalty ``l2``, by Newton's
    method with step halving from ``w0`` (default zeros), at most ``steps`` steps."""
    F = data.X.shape[1]
    w = np.zeros(F) if w0 is None else np.asarray(w0, dtype=np.float64).copy()
    if data.n == 0:
        return w
    X, group, t = data.X, data.group, data.target
    D = float(data.n)
    sizes = np.diff(group)
    starts = group[:-1]
    cur = loss(data, w, l2)
    for _ in range(steps):
        p = _probs(X, group, w)
        g = X.T @ (p - t) / D + l2 * w
        Xp = X * p[:, None]
        m = np.add.reduceat(Xp, starts, axis=0)  # per decision: sum_a p(a) x_a
        m = np.where(sizes[:, None] > 0, m, 0.0)
        H = (X.T @ Xp - m.T @ m) / D + l2 * np.eye(F)
        try:
            step = np.linalg.solve(H, g)
        except np.linalg.LinAlgError:
            step = g
        a = 1.0
        while a > 1e-6:
            nw = w - a * step
            new = loss(data, nw, l2)
            if new <= cur:
                break
            a *= 0.5
        else:
            break
        done = cur - new < 1e-10
        w, cur = nw, new
        if done:
            break
    return np.round(w * GRID) / GRID


POINTS = 100.0  # action-value weights are in points of win rate (a win rate of 1 is 100 points)


def _within(data: Decisions) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(Xc, yc, v): the features and rollout win rates (in points) less their visit-weighted mean in their
    decision, and the visits (float64[R]); rows never tried have weight 0."""
    assert data.visits is not None
    v = np.asarray(data.visits, dtype=np.float64)
    sizes = np.diff(data.group)
    starts = data.group[:-1]
    dec = np.repeat(np.arange(data.n), sizes)
    vs = np.add.reduceat(v, starts)
    vs = np.where(vs > 0, vs, 1.0)
    mx = np.add.reduceat(data.X * v[:, None], starts, axis=0) / vs[:, None]
    y = POINTS * data.target
    my = np.add.reduceat(y * v, starts) / vs
    return data.X - mx[dec], y - my[dec], v


def fit_action_values(data: Decisions, l2: float = 1e-3) -> np.ndarray:
    """The weights (float64[F], points of win rate per unit of each feature, multiples of 2**-20) minimising the
    visit-weighted squared error of w . x_a against each action's rollout win rate (points), with a free constant
    per decision (module docstring), plus a ridge penalty of ``l2`` times each feature's own within-decision sum of
    squares (ridge on standardised features: ``l2`` means the same whatever a feature's scale, 1e-3 shrinks each
    weight by about 0.1%, and a feature that never varies within a decision gets weight 0). Needs ``data.visits``;
    raises ValueError without them."""
    F = data.X.shape[1]
    if data.visits is None:
        raise ValueError("fit_action_values needs each action's rollout visits (Decisions.visits)")
    if data.n == 0:
        return np.zeros(F)
    Xc, y, v = _within(data)
    A = (Xc * v[:, None]).T @ Xc
    d = np.diag(A).copy()
    A = A + np.diag(l2 * d + np.where(d > 0, 0.0, 1.0))
    w = np.linalg.solve(A, (Xc * v[:, None]).T @ y)
    return np.round(w * GRID) / GRID


def value_loss(data: Decisions, w: np.ndarray) -> float:
    """The visit-weighted mean squared error (points squared) of `fit_action_values`' fit ``w`` within decisions."""
    if data.n == 0 or data.visits is None:
        return 0.0
    Xc, y, v = _within(data)
    r = y - Xc @ w
    return float((v * r * r).sum() / max(float(v.sum()), 1.0))
