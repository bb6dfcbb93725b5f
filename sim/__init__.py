"""ghost-sim: a Monte Carlo balance simulator for tabletop games.

The Python API (`sim.api.public`), exported lazily so that ``import sim`` (and ``sim --help``) stays cheap:
nothing below is imported, and Numba is not loaded, until a name is first used.

    import sim
    r = sim.run("scenarios/moor/4p.toml", games=100_000, set={"track_len": 32})
    r.measures, r.summary, r.verdicts, r.games(), r.raw, r.write()
    sim.compare(a, b, games=20_000), sim.sweep(path, set={"track_len": "20..40 step 10"}), sim.check(files)
    sim.tune(path, {"track_len": "20..60"}, "first_player_advantage=0", trials=20)

Functions: load, run, compare, sweep, tune, ladder, check, executor. Results: Result, Comparison, SweepResult,
TuneResult, LadderResult, CheckResult.
Options: RunOptions, CompareOptions, SweepOptions, CheckOptions; per-run settings: RunContext (and Cancelled).
Scenarios: Scenario (``Scenario.from_dict``); SCENARIOS, the project's scenario folder (a Path). Errors: SimError and its subclasses ScenarioError, OverrideError,
OptionError, OutputError, CompareError, SweepError, TuneError, LadderError, BadBaseline, RerunError, ExecutionError.
"""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # what a type checker sees of the names `__getattr__` imports on first use
    from sim.api.ladder import LadderResult as LadderResult
    from sim.api.ladder import ladder as ladder
    from sim.api.options import CheckOptions as CheckOptions
    from sim.api.options import CompareOptions as CompareOptions
    from sim.api.options import OptionError as OptionError
    from sim.api.options import RunOptions as RunOptions
    from sim.api.options import SweepOptions as SweepOptions
    from sim.api.public import CheckResult as CheckResult
    from sim.api.public import Comparison as Comparison
    from sim.api.public import Result as Result
    from sim.api.public import SweepResult as SweepResult
    from sim.api.public import check as check
    from sim.api.public import compare as compare
    from sim.api.public import executor as executor
    from sim.api.public import load as load
    from sim.api.public import run as run
    from sim.api.public import sweep as sweep
    from sim.api.rerun import RerunError as RerunError
    from sim.api.tune import TuneResult as TuneResult
    from sim.api.tune import tune as tune
    from sim.model.errors import SimError as SimError
    from sim.model.ladder_spec import LadderError as LadderError
    from sim.model.overrides import OverrideError as OverrideError
    from sim.model.paths import SCENARIOS as SCENARIOS
    from sim.model.scenario import Scenario as Scenario
    from sim.model.scenario import ScenarioError as ScenarioError
    from sim.model.sweep_axis import SweepError as SweepError
    from sim.model.tune_spec import TuneError as TuneError
    from sim.output.report import OutputError as OutputError
    from sim.play.context import Cancelled as Cancelled
    from sim.play.context import RunContext as RunContext
    from sim.play.distributed import ExecutionError as ExecutionError
    from sim.stats.check import BadBaseline as BadBaseline
    from sim.stats.compare import CompareError as CompareError

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
    "ladder": "sim.api.ladder",
    "LadderResult": "sim.api.ladder",
    "LadderError": "sim.model.ladder_spec",
    "RunContext": "sim.play.context",
    "Cancelled": "sim.play.context",
    "Scenario": "sim.model.scenario",
    "ScenarioError": "sim.model.scenario",
    "SimError": "sim.model.errors",
    "OverrideError": "sim.model.overrides",
    "SCENARIOS": "sim.model.paths",
    "SweepError": "sim.model.sweep_axis",
    "OutputError": "sim.output.report",
    "CompareError": "sim.stats.compare",
    "BadBaseline": "sim.stats.check",
    "RerunError": "sim.api.rerun",
    "ExecutionError": "sim.play.distributed",
}

__all__ = sorted(_EXPORTS)
_FUNCTIONS = ("load", "run", "compare", "sweep", "check", "tune", "ladder", "executor")


def __getattr__(name: str) -> Any:
    """Import the module of public name ``name`` on first use (PEP 562)."""
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module 'sim' has no attribute {name!r}")
    value = getattr(import_module(module), name)
    if name in _FUNCTIONS:  # in Python words, with a progress default where a person watches (sim.api.notebook)
        from sim.api.notebook import python_api

        value = python_api(value)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(__all__))
