"""One game of a scenario traced for its replay: every game's `trace_game` called the one way (`kernels.trace`)."""

from __future__ import annotations

from typing import Any

import numpy as np

from sim.model.scenario import Scenario


def trace(sc: Scenario, game: int, play: Any, log_len: int, steps_len: int = 1, search: Any = None) -> Any:
    """Game ``game`` of scenario ``sc`` (its seed, sweep point 0) exactly as a batch run plays it, through the
    game's kernel module ``play`` (`kernels.<game>.play`): a `kernels.trace.GameTrace` with ``log_len`` rows of
    event log and ``steps_len`` rows of recorded steps; ``search`` the search players' scratch
    (`sim.model.search.search_scratch`) or None. Errors: none (a refused step shows in the trace's ``status``)."""
    return play.trace_game(
        np.uint64(sc.seed),
        np.uint64(0),
        game,
        sc.players,
        sc.prm(),
        sc.sids(),
        sc.sparams(),
        log_len=log_len,
        steps_len=steps_len,
        search=search,
    )
