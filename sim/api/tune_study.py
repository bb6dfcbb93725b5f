"""`sim tune`'s Optuna side: each parameter's distribution, a trial's value as the scenario takes it, the sampler of
each batch (seeded from the tune's seed and the batch number) and the study in the tune folder's ``study.db``
(continued when the same tune made it). `sim.api.tune` runs the search over these."""

from __future__ import annotations

import json
import warnings
from collections.abc import Callable
from pathlib import Path
from typing import Any

from sim.model.tune_spec import Param, Tune

STUDY = "tune"


def distributions(tune: Tune) -> dict[str, Any]:
    """The Optuna distribution of every parameter: int and float ranges (a step for a grid), choices by their
    TOML text."""
    from optuna.distributions import CategoricalDistribution, FloatDistribution, IntDistribution

    out: dict[str, Any] = {}
    for p in tune.params:
        if p.kind == "choice":
            out[p.name] = CategoricalDistribution(list(p.labels))
        elif p.kind == "int":
            out[p.name] = IntDistribution(int(p.low), int(p.high), step=int(p.step or 1))
        else:
            out[p.name] = FloatDistribution(float(p.low), float(p.high), step=p.step)
    return out


def value_of(p: Param, v: Any) -> Any:
    """A trial's value of ``p`` as the scenario takes it (a choice's value, an int, a float on its grid)."""
    if p.kind == "choice":
        return p.choices[p.labels.index(v)]
    if p.kind == "int":
        return int(v)
    if p.step is not None:
        return float(round(p.low + round((float(v) - p.low) / p.step) * p.step, 12))
    return float(v)


def sampler_for(tune: Tune, batch_index: int) -> Any:
    """The sampler of batch ``batch_index``: TPE (one target) or NSGA-II (several), seeded from the tune's seed
    and the batch number, so a resumed study asks what the uninterrupted one would have."""
    import optuna

    seed = (tune.seed * 1_000_003 + batch_index) % 2**32
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # multivariate / constant_liar are "experimental" in Optuna's words
        if len(tune.targets) == 1:
            return optuna.samplers.TPESampler(
                seed=seed,
                n_startup_trials=min(10, max(2, tune.trials // 4)),
                multivariate=True,
                constant_liar=True,
            )
        return optuna.samplers.NSGAIISampler(seed=seed, population_size=max(8, 2 * tune.batch))


def sampler_name(tune: Tune) -> str:
    return "TPE" if len(tune.targets) == 1 else "NSGA-II"


def open_study(tune: Tune, folder: Path, on_note: Callable[[str], None] | None = None) -> Any:
    """The tune's study in ``folder``/study.db: continued when it was made by the same tune (scenario, games,
    parameters, targets, batch: `Tune.fingerprint`), else started afresh (said through ``on_note``)."""
    import optuna

    optuna.logging.set_verbosity(optuna.logging.WARNING)
    storage = optuna.storages.RDBStorage(
        f"sqlite:///{Path(folder).resolve() / 'study.db'}", engine_kwargs={"connect_args": {"timeout": 60}}
    )
    fp = json.dumps(tune.fingerprint(), sort_keys=True, default=str)
    if STUDY in [s.study_name for s in optuna.get_all_study_summaries(storage)]:
        old = optuna.load_study(study_name=STUDY, storage=storage)
        if old.user_attrs.get("fingerprint") == fp:
            return old
        optuna.delete_study(study_name=STUDY, storage=storage)
        if on_note:
            on_note(f"note: {folder / 'study.db'} held another tune (other settings); it starts afresh")
    study = optuna.create_study(
        study_name=STUDY, storage=storage, directions=["minimize"] * len(tune.targets), sampler=sampler_for(tune, 0)
    )
    study.set_user_attr("fingerprint", fp)
    return study
