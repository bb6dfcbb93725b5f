"""Learned policies: the shipped weight files of each game's `learned` strategy and the strategy's declaration.

A game's learned player is a linear softmax policy over action features its kernel computes
(``kernels/<game>/features.py``: ``FEATURE_SET``, ``FEATURE_VERSION``, ``FEATURE_NAMES``). Its weights are data, not
code: ``kernels/<game>/policies/<role>.json`` (`policy_path`), written by `sim train` (sim.api.train) with

    format, game, role, feature_set, feature_version, rules_version, weights {feature name: float},
    temperature, command (the exact `sim train` command line), seed, training {figures per iteration}

and loaded here as the defaults of the strategy's parameters (`learned_params`): column 0 the temperature, then one
weight per feature in the kernel's order, so a scenario or a sweep may override any of them per seat and no weight
is compiled into a kernel. `check_policy` says why a file does not fit the kernel (another feature set or version,
another rules version): a test runs it on every shipped file, so a rules or feature change forces retraining.
"""

from __future__ import annotations

import json
from pathlib import Path
from types import ModuleType
from typing import Any

from sim.model.paths import REPO
from sim.model.registry import GameSpec, ParamSpec, StrategySpec

POLICY_FORMAT = 1
LEARNED = "learned"
TEMPERATURE_HELP = (
    "0: play the highest-scoring action (greedy, no random draw: the strongest reading of the fitted policy, and "
    "the same on every machine); > 0: draw an action with probability proportional to exp(score / temperature) "
    "on the seat's own stream"
)


def policy_path(game: str, role: str) -> Path:
    """The shipped weight file of ``game``'s learned ``role`` player: kernels/<game>/policies/<role>.json."""
    return REPO / "kernels" / game / "policies" / f"{role}.json"


def load_policy(game: str, role: str, path: Path | None = None) -> dict | None:
    """The parsed weight file of ``game``'s ``role`` (``path``: another file than the shipped one); None when there is
    none (a game not trained yet: its learned player then scores every action 0 and plays the lowest legal one)."""
    p = path or policy_path(game, role)
    if not p.exists():
        return None
    data: dict = json.loads(p.read_text())
    return data


def check_policy(data: dict, features: ModuleType, rules_version: int) -> str | None:
    """Why the policy ``data`` does not fit the kernel (its ``features`` module and the game's ``rules_version``), in
    one line, or None when it fits: the same feature set and version, the same rules version, one weight for each of
    the kernel's features."""
    if data.get("format") != POLICY_FORMAT:
        return f"policy format {data.get('format')!r}, this sim reads format {POLICY_FORMAT}"
    if data.get("feature_set") != features.FEATURE_SET or data.get("feature_version") != features.FEATURE_VERSION:
        return (
            f"trained on feature set {data.get('feature_set')} version {data.get('feature_version')}, the kernel "
            f"computes {features.FEATURE_SET} version {features.FEATURE_VERSION}: retrain with `sim train`"
        )
    if data.get("rules_version") != rules_version:
        return (
            f"trained on rules version {data.get('rules_version')}, the kernel plays rules version {rules_version}: "
            "retrain with `sim train`"
        )
    names = tuple(data.get("weights", {}))
    if names != tuple(features.FEATURE_NAMES):
        return f"weights for {', '.join(names)}; the kernel's features are {', '.join(features.FEATURE_NAMES)}"
    return None


def weight_row(data: dict | None, features: ModuleType) -> list[float]:
    """The parameter row of a learned seat: [temperature, weight of each feature in the kernel's order] (zeros and
    temperature 0 without a policy)."""
    if data is None:
        return [0.0] * (1 + len(features.FEATURE_NAMES))
    w = data["weights"]
    return [float(data.get("temperature", 0.0))] + [float(w.get(n, 0.0)) for n in features.FEATURE_NAMES]


def learned_params(game: str, role: str, features: ModuleType) -> tuple[ParamSpec, ...]:
    """The learned strategy's parameters, in its parameter row's order: temperature, then ``w_<feature>`` per
    feature, their defaults read from the shipped policy (`policy_path`)."""
    row = weight_row(load_policy(game, role), features)
    helps = dict(getattr(features, "FEATURES", ()))
    out = [
        ParamSpec("temperature", "float", row[0], (0.0, 100.0), TEMPERATURE_HELP, label="policy temperature"),
    ]
    for name, w in zip(features.FEATURE_NAMES, row[1:]):
        out.append(
            ParamSpec(
                f"w_{name}",
                "float",
                w,
                (-1000.0, 1000.0),
                f"policy weight on the feature {name}: {helps.get(name, name)}",
                label=f"policy weight: {name.replace('_', ' ')}",
            )
        )
    return tuple(out)


def learned_strategy(
    game: str, role: str, sid: int, help: str, features: ModuleType, name: str = LEARNED
) -> StrategySpec:
    """The learned StrategySpec of ``game``'s ``role`` (kernel strategy id ``sid``; ``features``: the game's
    kernels/<game>/features.py module; ``name``: "learned", or another where strategy names of two roles would
    clash, e.g. Treasure Hunters' "haunter_learned")."""
    return StrategySpec(name, sid, help, role, learned_params(game, role, features))


def learned_sids(spec: GameSpec) -> set[int]:
    """The kernel strategy ids of ``spec``'s learned strategies."""
    out = set()
    for lr in spec.learners:
        st = spec.strategy(lr.strategy)
        if st is not None:
            out.add(st.sid)
    return out


def uses_learned(spec: GameSpec, *sid_rows: Any) -> bool:
    """Whether any strategy id in ``sid_rows`` (each an int sequence: a table's sids, a search's rollout sids) is a
    learned one: its batch scratch must then carry the learned marker (kernels/<game>/play.py `batch_scratch`)."""
    ids = learned_sids(spec)
    return bool(ids) and any(int(x) in ids for row in sid_rows for x in row)


def batch_scratch(spec: GameSpec, kernel: ModuleType, n: int, prm: Any, learned: bool) -> Any:
    """``kernel.batch_scratch(n, prm)``, with the learned marker when ``learned`` (a game without a learned player
    never gets it): the learned policy is compiled only into the kernels that play it."""
    if learned and spec.learners:
        return kernel.batch_scratch(n, prm, learned=True)
    return kernel.batch_scratch(n, prm)


def policy_summary(data: dict) -> dict[str, Any]:
    """The figures a policy file records of its training (for `sim list` and the guide): its seed, command and last
    iteration's strength, when present."""
    tr = data.get("training", {})
    return {"seed": data.get("seed"), "command": data.get("command"), "final": tr.get("final")}
