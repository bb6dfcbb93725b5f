"""ghost-sim: a Monte Carlo balance simulator for tabletop games.

The Python API (`sim.api.public`), exported lazily so that ``import sim`` (and ``sim --help``) stays cheap:
nothing below is imported, and Numba is not loaded, until a name is first used.

    import sim
    r = sim.run("scenarios/moor/4p.toml", games=100_000, set={"track_len": 32})
    r.measures, r.summary, r.verdicts, r.games(), r.raw, r.write()
    sim.compare(a, b, games=20_000), sim.sweep(path, set={"track_len": "20..40 step 10"}), sim.check(files)
    sim.tune(path, {"track_len": "20..60"}, "first_player_advantage=0", trials=20)

Functions: load, run, compare, sweep, tune, check, executor. Results: Result, Comparison, SweepResult, TuneResult,
CheckResult.
Options: RunOptions, CompareOptions, SweepOptions, CheckOptions; per-run settings: RunContext (and Cancelled).
Scenarios: Scenario (``Scenario.from_dict``). Errors: SimError and its subclasses ScenarioError, OverrideError,
OptionError, OutputError, CompareError, SweepError, TuneError, BadBaseline, RerunError, ExecutionError.
"""

from __future__ import annotations

from importlib import import_module
from typing import Any

# public name -> the module that defines it
_EXPORTS = {
    **{
        n: "sim.api.public"
        for n in (
            "load",
            "run",
            "compare",
            "sweep",
            "check",
            "executor",
            "Result",
            "Comparison",
            "SweepResult",
            "CheckResult",
        )
    },
    **{n: "sim.api.options" for n in ("RunOptions", "CompareOptions", "SweepOptions", "CheckOptions", "OptionError")},
    "tune": "sim.api.tune",
    "TuneResult": "sim.api.tune",
    "TuneError": "sim.model.tune_spec",
    "RunContext": "sim.play.context",
    "Cancelled": "sim.play.context",
    "Scenario": "sim.model.scenario",
    "ScenarioError": "sim.model.scenario",
    "SimError": "sim.model.errors",
    "OverrideError": "sim.model.overrides",
    "SweepError": "sim.model.sweep_axis",
    "OutputError": "sim.output.report",
    "CompareError": "sim.stats.compare",
    "BadBaseline": "sim.stats.check",
    "RerunError": "sim.api.rerun",
    "ExecutionError": "sim.play.distributed",
}

__all__ = sorted(_EXPORTS)


def __getattr__(name: str) -> Any:
    """Import the module of public name ``name`` on first use (PEP 562)."""
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module 'sim' has no attribute {name!r}")
    value = getattr(import_module(module), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(__all__))
