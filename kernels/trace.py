"""The record every game's `trace_game` returns: one game exactly as a batch plays it, with what it recorded.

One type for the four games, so a replay, `sim trace` and the tests read a traced game's fields by name instead of
unpacking each game's own tuple. Plain Python (never passed to compiled code).

Every game's `trace_game` takes the same arguments, so replays and tests call them one way:
``trace_game(seed, point, g, n, prm, sids, sparams, log_len=1, steps_len=1, check=False, search=None)``: game ``g``
of ``seed`` at sweep point ``point``, ``n`` seats, the packed parameters and seats; ``log_len`` rows of event log and
``steps_len`` rows of recorded steps (a game that keeps no such record ignores the length); ``check`` true runs the
invariants after every step (status 100 + code when one breaks); ``search`` the search players' scratch
(`kernels.search.new_search`) when a seat plays search.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from kernels.batch import GameOutcome


@dataclass(frozen=True)
class GameTrace:
    """Game g of a batch, played alone (`kernels.batch.play_alone`) with its records.

    Arrays are int32 and belong to this trace (its call allocated them). Errors: none (a refused step shows in
    ``status``)."""

    log: np.ndarray  # the event log, row 0 col 0 = rows used: int32[log_len, 6] in the shipped games (eventlog.py)
    steps: np.ndarray | None  # int32[steps_len, 2]: the recorded steps (kind, value), row 0 col 0 = rows used; None
    #   where the game records none (Moor: its deal is in ``deal``, its rolls and actions in the log)
    scores: np.ndarray  # int32[n]: each seat's final score (the game's own unit, e.g. gold held)
    winners: int  # bitmask over seats (0: none, e.g. truncated)
    status: int  # ST_* of kernels/loop.py (0 done, 1 truncated, ...; 100 + code: an invariant broke)
    turns: int  # turns played
    rounds: int  # rounds played (the game's own count)
    extra: np.ndarray  # int32[N_EXTRA]: the game's extra counters (its EXTRA_COLUMNS)
    state: np.ndarray  # int32[S_SIZE]: the final state
    deal: np.ndarray | None = None  # int32[N_DEALT]: the dealt order, where the game keeps it apart (Moor); else None

    @classmethod
    def of(
        cls,
        o: GameOutcome,
        log: np.ndarray,
        steps: np.ndarray | None,
        state: np.ndarray,
        deal: np.ndarray | None = None,
    ) -> GameTrace:
        """The trace of the game `kernels.batch.play_alone` played (``o``), with the records its scratch kept."""
        return cls(log, steps, o.scores, o.winners, o.status, o.turns, o.rounds, o.extra, state, deal)
