"""The typed Python API (what ``import sim`` exports): load a scenario, run, sweep, compare and check it, and get
frozen results with Polars frames.

    import sim
    r = sim.run("scenarios/moor/4p.toml", games=100_000, set={"track_len": 32})
    r.measures                 # one row per measure, with its 95% interval
    r.write()                  # the report folder `sim run` writes: reports/<name>/

Scenarios: `load` (a file, with overrides) or `Scenario.from_dict` (a parsed document, as the TOML file reads).
Options are keywords only (one way); each function validates them into its frozen record (`RunOptions`,
`CompareOptions`, `SweepOptions`, `CheckOptions`: the defaults and what each option means). Per-run settings
(threads, a progress callback, a cancel flag) travel in one `RunContext`. Bad input raises a `SimError` (one line, with ``field``, ``allowed``, ``given``); the command line
prints the same line. Every function here plays through the one play path (`sim.play.work`), in this process or on
Dask (``workers`` / ``scheduler``), with the same numbers.
"""

from __future__ import annotations

# the verbs, one module each (sim.api.runs, comparisons, sweeps, checks), and what they share (sim.api.basics)
from sim.api.basics import MEASURE_SCHEMA, Doc, ScenarioLike, Sets, executor, load, measures_frame, set_texts  # noqa: F401
from sim.api.checks import CheckResult, check  # noqa: F401
from sim.api.comparisons import COMPARE_SCHEMA, Comparison, compare, compare_folder  # noqa: F401
from sim.api.options import CheckOptions, CompareOptions, OptionError, RunOptions, SweepOptions  # noqa: F401
from sim.api.runs import Result, run  # noqa: F401
from sim.api.sweeps import SweepResult, sweep  # noqa: F401
from sim.model.errors import SimError  # noqa: F401
from sim.model.scenario import Scenario  # noqa: F401
from sim.play.context import RunContext  # noqa: F401

__all__ = [
    "load",
    "run",
    "sweep",
    "compare",
    "check",
    "Result",
    "SweepResult",
    "Comparison",
    "CheckResult",
    "RunOptions",
    "CompareOptions",
    "SweepOptions",
    "CheckOptions",
    "RunContext",
    "Scenario",
    "SimError",
    "OptionError",
]
