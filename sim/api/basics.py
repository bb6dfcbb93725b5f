"""What every verb of the typed API shares: loading a scenario with its overrides (`load`), where the games are
played (`executor`) and the measures as a Polars frame."""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterator, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from sim.api.options import check_cluster
from sim.model.scenario import Scenario
from sim.play.context import RunContext

if TYPE_CHECKING:
    import polars as pl

    from sim.play.work import Executor

ScenarioLike = str | Path | Scenario
Doc = dict[str, Any]  # a JSON-ready document (summary.json, compare.json, sweep.json, a check result)
Sets = Mapping[str, Any] | Sequence[str] | None


# --- scenarios -------------------------------------------------------------------------------------------------------


def texts(given: str | Sequence[str], field: str = "", example: str = "", noun: str = "text") -> tuple[str, ...]:
    """A list argument's texts: one text given alone is one item (``margins="seat_spread=1"``), not its letters.
    Raises OptionError naming ``field`` (the Python argument), what it is not (``noun``) and an ``example`` of what
    it takes where ``given`` is neither a text nor a list of texts (``margins=5``)."""
    from sim.api.options import OptionError

    if isinstance(given, str):
        return (given,)
    if isinstance(given, Sequence) and all(isinstance(x, str) for x in given):
        return tuple(given)
    like = f"; give {example}" if example else "; give a text or a list of texts"
    raise OptionError(f"{field or 'argument'}: {given!r} is not {noun}{like}", field=field or None)


def margin_texts(
    margins: Mapping[str, float] | Sequence[str] | str, field: str = "margins", key: str = "MEASURE"
) -> tuple[str, ...]:
    """``margins=`` as the CLI's "KEY=VALUE" texts: a mapping's items written so (as ``set=`` takes either); one
    text given alone is one margin. Raises OptionError naming ``field`` for anything else (``margins=5``)."""
    if isinstance(margins, Mapping):
        return tuple(f"{k}={v}" for k, v in margins.items())
    return texts(margins, field, f'{{{key.lower()}: value}} or "{key}=VALUE" texts', noun="a margin")


def path_arg(given: Any, field: str, what: str = "a scenario file path") -> Path:
    """``given`` (a text or a Path) as a Path; OptionError naming ``field`` for anything else (``sim.check(5)``)."""
    from sim.api.options import OptionError

    if isinstance(given, (str, Path)):
        return Path(given)
    raise OptionError(f"{field}: expected {what}, got {given!r}", field=field)


def set_texts(sets: Sets, field: str = "set") -> list[str]:
    """Overrides as "NAME=VALUE" texts: a mapping {name: value} (each value written as TOML) or texts as given."""
    from sim.model.scenario import toml_value

    if sets is None:
        return []
    if isinstance(sets, Mapping):
        none = [k for k, v in sets.items() if v is None]
        if none:  # toml_value wrote 'None', then refused as a value the user never typed (a fresh user)
            from sim.model.overrides import OverrideError

            raise OverrideError(
                f"{field}: {none[0]!r} is None; give it a value (a number, a name, true or false, a list), e.g. "
                f"{field}={{{none[0]!r}: ...}}, or leave it out for the scenario's own"
            )
        return [f"{k}={toml_value(v)}" for k, v in sets.items()]
    return list(texts(sets, field, '{name: value} or "NAME=VALUE" texts'))


def load(
    scenario: ScenarioLike,
    set: Sets = None,
    games: int | None = None,
    seed: int | None = None,
    more: Sequence[tuple[str, Sets]] = (),
) -> Scenario:
    """The validated scenario of file ``scenario`` (a `Scenario` is taken as it is) with the overrides ``set``
    ({"track_len": 32, "seats.2.strategy": "runner"}, or "NAME=VALUE" texts; then ``more``: further (option,
    overrides) as compare's ("--set-a", ...)) and ``games`` / ``seed`` applied before it is validated.
    Raises OverrideError (a bad override, one field given twice: also --games / --seed and an override of it) or
    ScenarioError (a bad file), one line each."""
    from sim.model.overrides import OverrideError, canonical, parse_sets, show
    from sim.model.overrides import load as load_file

    if not isinstance(scenario, (str, Path, Scenario)):
        from sim.model.scenario import ScenarioError

        raise ScenarioError(f"scenario: expected a scenario file path or a sim.Scenario, got {scenario!r}")
    # each group's texts, read once (a bad one named by its Python argument: set, set_a, set_b)
    groups = [("--set", set_texts(set)), *((opt, set_texts(s, opt.lstrip("-").replace("-", "_"))) for opt, s in more)]
    if isinstance(scenario, Scenario):
        if any(t for _, t in groups):
            raise OverrideError(
                "overrides apply to a scenario file; give its path (or change the Scenario with with_changes)"
            )
        changes = {k: v for k, v in (("games", games), ("seed", seed)) if v is not None}
        return scenario.with_changes(**changes) if changes else scenario
    overrides = parse_sets(*groups)
    options = [opt for opt, texts in groups for _ in texts]  # the option of each override, named by its error
    for option, value in (("games", games), ("seed", seed)):
        twice = [(o, n, v) for o, (n, v) in zip(options, overrides) if canonical(n) == (option,)]
        if value is not None and twice:
            o, n, v = twice[0]
            raise OverrideError(f"{o} {n}: given twice (--{option} {value}, {o} {show(n, v)}); give it once")
    sc = load_file(scenario, overrides, games, options)
    return sc.with_changes(seed=seed) if seed is not None else sc


# --- where the games are played ----------------------------------------------------------------------------------


def executor(
    workers: int | None = None,
    scheduler: str | None = None,
    threads: int | None = None,
    on_note: Callable[[str], None] | None = None,
) -> contextlib.AbstractContextManager[Executor]:
    """This process, a Dask LocalCluster of ``workers`` processes or the cluster at ``scheduler`` (or
    $DASK_SCHEDULER_ADDRESS), closed on exit (`sim.play.distributed.executor`), as a ``with`` statement takes it.
    Raises OptionError for a bad value at the call (before ``with`` enters it), ExecutionError when the cluster
    cannot be reached."""
    check_cluster(workers, scheduler)
    return _executor(workers, scheduler, threads, on_note)


@contextlib.contextmanager
def _executor(
    workers: int | None, scheduler: str | None, threads: int | None, on_note: Callable[[str], None] | None
) -> Iterator[Executor]:
    from sim.play import distributed

    with distributed.executor(workers, scheduler, threads, on_note=on_note) as ex:
        yield ex


@contextlib.contextmanager
def _executor_for(
    given: Executor | None, workers: int | None, scheduler: str | None, threads: int | None, ctx: RunContext
) -> Iterator[Executor]:
    if given is not None:
        yield given
        return
    with executor(workers, scheduler, threads, ctx.on_note) as ex:
        yield ex


# --- results -----------------------------------------------------------------------------------------------------


def _interval_rows(sc: Scenario, values: Mapping[str, Doc]) -> list[Doc]:
    """Rows (measure, label, unit, kind, headline, value, ci_low, ci_high, n) of measure values {name: {value,
    ci95, n}} (`sim.stats.sweep_table.point_measures`), labels and units from the catalogue."""
    from sim.model import catalogue
    from sim.stats.sweep_table import quantities

    qs = quantities(sc)
    seats = [s.strategy for s in sc.seats]
    rows = []
    for name, v in values.items():
        q = qs[name]
        e = catalogue.describe(name, sc.game, seats)
        ci = v.get("ci95") or [None, None]
        rows.append(
            {
                "measure": name,
                "label": q.label,
                "unit": frame_unit(q.kind, e.unit),
                "kind": q.kind,
                "headline": e.headline,
                "value": v["value"],
                "ci_low": ci[0],
                "ci_high": ci[1],
                "n": v["n"],
            }
        )
    return rows


def frame_unit(kind: str, unit: str) -> str:
    """The unit of a value as the frame holds it: a rate is a share in [0, 1] there (the pages print it in %), so
    "% of finished games" reads "share of finished games" and "percentage points" "share (difference)"."""
    if kind != "rate":
        return unit
    if unit.startswith("% of "):
        return "share of " + unit.removeprefix("% of ")
    if unit == "percentage points":
        return "share (difference)"
    return unit


MEASURE_SCHEMA = {
    "measure": "String",
    "label": "String",
    "unit": "String",
    "kind": "String",
    "headline": "Boolean",
    "value": "Float64",
    "ci_low": "Float64",
    "ci_high": "Float64",
    "n": "Int64",
}


def measures_frame(rows: list[Doc]) -> pl.DataFrame:
    """`_interval_rows` as a Polars frame of `MEASURE_SCHEMA` (value, ci_low, ci_high null where no game counts)."""
    import polars as pl

    return pl.DataFrame(rows, schema={k: getattr(pl, t) for k, t in MEASURE_SCHEMA.items()})
