"""Would a small network over a learned player's features imitate the search better than the linear policy?

    PYTHONPATH=. python docs/examples/policy_network_fit.py reports/train/turnwall-player/checkpoint/iter-0.npz

Reads the decisions of one `sim train` iteration (its checkpoint's ``iter-<i>.npz``), fits on the first 75% of
them (in game order) and scores the last 25%, for the linear softmax policy `sim train` fits
(`sim.stats.policy_fit.fit_softmax`) and for a network with one hidden layer, score(a) = u . z_a + v . tanh(W z_a + b)
on the standardised features z_a, fitted to the same target (the search's visit shares) by scipy's L-BFGS with an L2
penalty. Prints each model's held-out agreement with the search's choice and held-out cross-entropy (nats a
decision), a line per model as each fit ends (about 4 minutes in all for Turnwall's 7,379 decisions on one core).
Agreement is a coarse measure where the search's choice is mostly a coin toss between near-equal moves (Turnwall's
search at 64 rollouts repeats its own choice in 31% of the decisions searched again), so the cross-entropy is the finer
one. An analysis, not a player: nothing here runs in a kernel.
"""

from __future__ import annotations

import sys

import numpy as np
from scipy.optimize import minimize

from sim.stats.policy_fit import Decisions, cross_entropy, fit_softmax, softmax_within
from sim.stats.policy_fit import agreement_of_scores as agreement

HIDDEN = (4, 8, 16, 32)
L2 = 1e-3


def subset(d: Decisions, idx: range) -> Decisions:
    """The decisions ``idx`` of ``d`` as their own `Decisions`."""
    lo, hi = int(d.group[idx.start]), int(d.group[idx.stop])
    return Decisions(d.X[lo:hi], d.group[idx.start : idx.stop + 1] - lo, d.target[lo:hi], d.chosen[idx] - lo)


def fit_network(d: Decisions, z: np.ndarray, hidden: int, seed: int = 0) -> np.ndarray:
    """The parameters (W, b, v, u flattened) of the network minimising the cross-entropy plus L2 on ``d``."""
    n_f = z.shape[1]
    cut = (hidden * n_f, hidden * n_f + hidden, hidden * n_f + 2 * hidden)

    def f(p: np.ndarray) -> tuple[float, np.ndarray]:
        w, b, v, u = p[: cut[0]].reshape(hidden, n_f), p[cut[0] : cut[1]], p[cut[1] : cut[2]], p[cut[2] :]
        a = np.tanh(z @ w.T + b)
        s = a @ v + z @ u
        pr = softmax_within(s, d.group)
        gs = (pr - d.target) / d.n
        ga = np.outer(gs, v) * (1.0 - a * a)
        grad = np.concatenate([(ga.T @ z).ravel(), ga.sum(0), a.T @ gs, z.T @ gs]) + L2 * p
        return cross_entropy(d, s) + 0.5 * L2 * float(p @ p), grad

    rng = np.random.default_rng(seed)
    p0 = np.concatenate([rng.normal(0, 0.3, hidden * n_f), np.zeros(hidden), rng.normal(0, 0.3, hidden), np.zeros(n_f)])
    return minimize(f, p0, jac=True, method="L-BFGS-B", options={"maxiter": 2000}).x


def network_scores(p: np.ndarray, z: np.ndarray, hidden: int) -> np.ndarray:
    n_f = z.shape[1]
    w, b = p[: hidden * n_f].reshape(hidden, n_f), p[hidden * n_f : hidden * n_f + hidden]
    v, u = p[hidden * n_f + hidden : hidden * n_f + 2 * hidden], p[hidden * n_f + 2 * hidden :]
    return np.tanh(z @ w.T + b) @ v + z @ u


def load(path: str) -> Decisions:
    """The decisions of a `sim train` checkpoint file; SystemExit with one line where ``path`` is not one."""
    try:
        npz = np.load(path, allow_pickle=False)
        return Decisions(npz["X"], npz["group"], npz["target"], npz["chosen"])
    except OSError as e:
        raise SystemExit(f"{path}: {e.strerror or e}; give a sim train checkpoint file (iter-<i>.npz)") from None
    except (ValueError, KeyError, AttributeError):
        raise SystemExit(f"{path}: not a sim train checkpoint file (iter-<i>.npz)") from None


def main(path: str) -> None:
    d = load(path)
    cut = int(d.n * 0.75)
    fit, held = subset(d, range(0, cut)), subset(d, range(cut, d.n))
    print(f"{d.n} decisions ({fit.n} fitted, {held.n} held out), {d.X.shape[1]} features")
    w = fit_softmax(fit, L2)
    s = held.X @ w
    print(f"linear:    held-out agreement {agreement(held, s):.3f}, cross-entropy {cross_entropy(held, s):.4f}")
    mu, sd = fit.X.mean(0), fit.X.std(0) + 1e-9
    for h in HIDDEN:
        p = fit_network(fit, (fit.X - mu) / sd, h)
        s = network_scores(p, (held.X - mu) / sd, h)
        print(f"{h:2d} hidden: held-out agreement {agreement(held, s):.3f}, cross-entropy {cross_entropy(held, s):.4f}")


if __name__ == "__main__":
    if len(sys.argv) != 2 or sys.argv[1] in ("-h", "--help"):
        raise SystemExit(__doc__)
    main(sys.argv[1])
